package lint

import "time"

// Defaults the runtime applies to a definition.
const (
	DefaultModelRole      = "Compaction"
	DefaultVisibility     = "user-facing"
	DefaultTimeoutSeconds = 60
	// MaxFileSize is the largest agent file lint reads; larger ones are
	// reported as unreadable instead of being loaded into memory.
	MaxFileSize = 8 << 20
	// MaxDescription is the description length past which description-long warns.
	MaxDescription = 1024
	// MaxBodyTokens is the body size, in o200k_base tokens, past which
	// body-large warns: the body is the system prompt of every spawn, and
	// at that size it takes a large share of a model's context window
	// before the task is read. Hand-written prompts are a few thousand.
	MaxBodyTokens = 16000
)

// Field is one frontmatter key as written, with the positions of the key and
// of its value.
type Field struct {
	// Key is the key as written (metadata.version for the nested one).
	Key      string
	KeyPos   Pos // where the key starts
	ValuePos Pos // where the value starts
}

// Definition is what the runtime binds from one file, after defaults. Fields
// the file did not set hold their defaults; Set says which were written.
type Definition struct {
	// Name is the agent's name, trimmed; the runtime matches it ignoring case.
	Name string
	// Description is what the frontline model reads about the agent, trimmed.
	Description string
	// Tools is advisory only: it grants nothing.
	Tools []string
	// ModelRole is the role the runtime uses, as .NET prints it: "Main",
	// "Compaction" or "Fallback", or the number of a role .NET's lenient
	// enum parser accepted but that has no name ("42"). A value the runtime
	// refuses is kept as written.
	ModelRole string
	// TimeoutSeconds is 60 unless the file sets it (older runtimes only).
	TimeoutSeconds int
	// PrefillTimeoutSeconds is 0 unless the file sets it: 0 means the
	// runtime's SubAgents.PrefillTimeoutSeconds.
	PrefillTimeoutSeconds int
	// Visibility is "user-facing" or "internal", or the number the runtime
	// carries for a value its enum parser accepted that names neither
	// ("7": hidden like internal). A value the runtime refuses is kept as
	// written.
	Visibility string
	// EmitStructuredFindings is the emitStructuredFindings flag (default false).
	EmitStructuredFindings bool
	// Version is `version`, else `metadata.version` (SkillServer only).
	Version string
	// Metadata holds the scalar entries of a `metadata:` map, as strings.
	Metadata map[string]string
	// Body is the system prompt exactly as the runtime reads it: leading
	// whitespace trimmed, trailing whitespace kept.
	Body string
	// BodyLine is the line of the file where the body starts (1-based), or
	// the line after the frontmatter when the body is empty.
	BodyLine int
	// Fields lists the frontmatter keys in file order.
	Fields []Field
}

// Field returns the frontmatter field with exactly that key.
func (d *Definition) Field(key string) (Field, bool) {
	for i := len(d.Fields) - 1; i >= 0; i-- {
		if d.Fields[i].Key == key {
			return d.Fields[i], true
		}
	}
	return Field{}, false
}

// valueAt returns where the value of key is, else the start of the file.
func (d *Definition) valueAt(key string) Pos {
	if f, ok := d.Field(key); ok {
		return f.ValuePos
	}
	return Pos{1, 1}
}

// keyAt returns where key is written, else the start of the file.
func (d *Definition) keyAt(key string) Pos {
	if f, ok := d.Field(key); ok {
		return f.KeyPos
	}
	return Pos{1, 1}
}

// Set reports whether the file wrote the key (exact, camelCase).
func (d *Definition) Set(key string) bool {
	_, ok := d.Field(key)
	return ok
}

// UserFacing reports whether the frontline model is told about the agent.
func (d *Definition) UserFacing() bool { return d.Visibility == DefaultVisibility }

// Status is the runtime's decision about one file.
type Status int

// A file is loaded into the catalog, rejected (skipped with a warning in
// the daemon log), or not loaded: it sits in a feed folder that no enabled
// SkillFeeds entry names, so the runtime never reads it at all.
const (
	Loaded Status = iota
	Rejected
	NotLoaded
)

// String returns "loaded", "rejected" or "not-loaded".
func (s Status) String() string {
	switch s {
	case Rejected:
		return "rejected"
	case NotLoaded:
		return "not-loaded"
	}
	return "loaded"
}

// Source says where a definition came from.
type Source struct {
	// Feed is empty for a user-authored file, else the server feed's name.
	Feed string
}

// String returns "local" or "feed:<name>".
func (s Source) String() string {
	if s.Feed == "" {
		return "local"
	}
	return "feed:" + s.Feed
}

// IsFeed reports whether the file was synced from a server feed.
func (s Source) IsFeed() bool { return s.Feed != "" }

// SyncEntry is what a feed's .sync-state.json records about one file.
type SyncEntry struct {
	// Version is the version the feed synced.
	Version string
	// SHA256 is the digest the sync recorded, lowercase hex without "sha256:".
	SHA256 string
	// SyncedAtUTC is the sync time as the state file wrote it.
	SyncedAtUTC string
}

// File is one agent definition file and everything lint knows about it.
type File struct {
	// Path is the file's path as the scan found it.
	Path string
	// Source is local or a feed.
	Source Source
	// Status is loaded, rejected or not loaded, exactly as the runtime
	// decides.
	Status Status
	// Reason is the runtime's own log line for a rejected file; for a file
	// that is not loaded, why its feed is not read ("feed 'x' is not
	// configured in SkillFeeds").
	Reason string
	// Def is what the file binds to; nil when the frontmatter does not parse.
	Def *Definition
	// DeclaredName is the name written on the frontmatter's top-level
	// `name:` line of a file the runtime cannot bind (Def is nil), read
	// from the raw text; "" when there is none or Def is set. The runtime
	// never sees it; it names the file for the person who wrote it.
	DeclaredName string
	// Diagnostics about this file, sorted by position.
	Diagnostics []Diagnostic
	// Size is the file's size in bytes.
	Size int64
	// ModTime is the modification time the scan saw (zero for Parse alone).
	ModTime time.Time
	// SHA256 is the SHA-256 of the exact bytes read, lowercase hex.
	SHA256 string
	// Text is the file as the runtime reads it (BOM dropped, invalid bytes as
	// U+FFFD); reports quote source lines from it.
	Text string
	// Sync is the feed's sync-state entry for a feed file, if any.
	Sync *SyncEntry
}

// Name returns the definition's name; for a file the runtime cannot bind,
// the name its raw frontmatter declares (DeclaredName); "" when it has none.
func (f *File) Name() string {
	if f.Def == nil {
		return f.DeclaredName
	}
	return f.Def.Name
}

// Line returns line n (1-based) of the file's text without its line ending,
// or "" when there is no such line.
func (f *File) Line(n int) string {
	line, _ := LineOf(f.Text, n)
	return line
}
