package lint

import (
	"strings"
	"time"
)

// Skill is one skill file (skills/<skill>/SKILL.md, a category's
// skills/<category>/<skill>/SKILL.md, or a flat skills/<name>.md) as the
// runtime's skill scanner reads it, and, when it routes through a
// sub-agent, how that routing resolves against the catalog.
type Skill struct {
	// Name is the runtime's name for the skill: the frontmatter name, else
	// the folder's (a flat file's name without .md), trimmed and
	// lower-cased.
	Name string
	// Path of the skill file.
	Path string
	// Source is local, or the feed the skill was synced from.
	Source Source
	// System is true for skills under skills/.system.
	System bool
	// Flat is true for a flat skills/<name>.md file.
	Flat bool
	// Status is Loaded when the runtime lists the skill, Rejected when its
	// skill scanner refuses it, NotLoaded when it sits in a feed folder no
	// enabled SkillFeeds entry names.
	Status Status
	// Reason is the scanner's words for a rejected skill ("Skill
	// frontmatter must include a non-empty description."), or why a feed
	// folder is not read.
	Reason string
	// RoutingKey is true when the frontmatter has metadata.subagent at
	// all: the skill then always runs through a sub-agent, never inline,
	// even when the value is bad.
	RoutingKey bool
	// Subagent is metadata.subagent as written, trimmed, when it is a
	// string; "" otherwise.
	Subagent string
	// SubagentError is the scanner's complaint about metadata.subagent
	// ("value must not be empty."), "" when it is a valid name.
	SubagentError string
	// SubagentPos is where the metadata.subagent value is.
	SubagentPos Pos
	// Body is the skill's markdown body (the overlay of a routed run).
	Body string
	// Description is the frontmatter's description, trimmed.
	Description string
	// ArgumentHint is the frontmatter's argument-hint as written.
	ArgumentHint string
	// DisableModelInvocation is the frontmatter's disable-model-invocation:
	// the runtime leaves such a skill out of the skill index.
	DisableModelInvocation bool
	// RouteError is the runtime's activation error for a listed skill
	// whose routing fails, in the runtime's words; "" when the skill routes
	// fine or does not route at all.
	RouteError string
	// Diagnostics about this skill file.
	Diagnostics []Diagnostic

	// What ParseSkill read, for the scan's checks.
	fm        frontmatterState
	fmErr     string
	fmPos     Pos
	frontName string // the frontmatter's name as written
	namePos   Pos
	hasDesc   bool
	descPos   Pos
	size      int64
	modTime   time.Time
}

// Routed reports whether the skill runs through a sub-agent: its
// frontmatter has metadata.subagent, whatever the value.
func (s *Skill) Routed() bool { return s.RoutingKey || s.Subagent != "" || s.SubagentError != "" }

// Catalog is the result of a scan: every agent file in runtime order, every
// skill, and the configuration.
type Catalog struct {
	// Home is the home scanned (zero for ScanPaths).
	Home Home
	// Profile is the profile the severities were set under.
	Profile Profile
	// Files holds every agent definition file in runtime order: top-level
	// files in byte order of their names, then each feed the runtime reads
	// in SkillFeeds order, its files in byte order; then the files of the
	// feed folders it does not read (Status NotLoaded), by folder name.
	Files []*File
	// Skills holds every skill file, sorted by path: those the runtime
	// lists, those its scanner refuses, and those in feed folders it does
	// not read (see Skill.Status).
	Skills []*Skill
	// Config is the merged netclaw.json + secrets.json + environment.
	Config *Config
	// FolderDiagnostics are about folders rather than one file: the agents
	// folder that does not exist or holds no agent file, each feed folder
	// the runtime does not read. Path is the folder.
	FolderDiagnostics []Diagnostic
	// ScannedAt is when the scan finished.
	ScannedAt time.Time
	// Extra holds files agentdesk checks that the runtime ignores (test and
	// route suites beside the agents), with their diagnostics. Scan leaves
	// it empty; the caller adds them (package lint/suitefile reads them).
	Extra []*ExtraFile
	// ExtraRules are the rules of the extra files' diagnostics (a SARIF
	// report lists them after Rules).
	ExtraRules []Rule
}

// ExtraFile is a file of Catalog.Extra.
type ExtraFile struct {
	// Path is the file's path; Kind says what it is ("test suite").
	Path, Kind string
	// Text is the file's text, for the source lines of a report.
	Text string
	// Diagnostics about the file.
	Diagnostics []Diagnostic
}

// Loaded returns the files the runtime loads, in runtime order.
func (c *Catalog) Loaded() []*File {
	var out []*File
	for _, f := range c.Files {
		if f.Status == Loaded {
			out = append(out, f)
		}
	}
	return out
}

// loadedNames returns the names of the loaded agents, in runtime order.
func (c *Catalog) loadedNames() []string {
	var names []string
	for _, f := range c.Loaded() {
		names = append(names, f.Def.Name)
	}
	return names
}

// Rejected returns the files the runtime skips, in runtime order.
func (c *Catalog) Rejected() []*File {
	var out []*File
	for _, f := range c.Files {
		if f.Status == Rejected {
			out = append(out, f)
		}
	}
	return out
}

// NotLoaded returns the files of feed folders the runtime does not read.
func (c *Catalog) NotLoaded() []*File {
	var out []*File
	for _, f := range c.Files {
		if f.Status == NotLoaded {
			out = append(out, f)
		}
	}
	return out
}

// Agent returns the loaded definition the runtime resolves name to
// (case-insensitive), or nil.
func (c *Catalog) Agent(name string) *File {
	for _, f := range c.Files {
		if f.Status == Loaded && f.Def != nil && strings.EqualFold(f.Def.Name, name) {
			return f
		}
	}
	return nil
}

// RejectedAgent returns the first file that declares name
// (case-insensitive, surrounding spaces ignored) but is rejected, or not
// loaded because its feed folder is not read; else nil: why an agent the
// user asked for is not loaded (its Reason says). A file whose frontmatter
// does not bind declares the name on its raw `name:` line (File.Name).
func (c *Catalog) RejectedAgent(name string) *File {
	name = strings.TrimSpace(name)
	for _, f := range c.Files {
		if f.Status != Loaded && name != "" && strings.EqualFold(f.Name(), name) {
			return f
		}
	}
	return nil
}

// File returns the scanned file at path, or nil.
func (c *Catalog) File(path string) *File {
	for _, f := range c.Files {
		if f.Path == path {
			return f
		}
	}
	return nil
}

// Skill returns the skill the runtime lists under that name
// (case-insensitive, a leading '/' ignored); else the first refused or
// not-loaded skill file of that name, whose Status and Reason say why; else
// nil.
func (c *Catalog) Skill(name string) *Skill {
	name = strings.TrimSpace(strings.TrimPrefix(name, "/"))
	var other *Skill
	for _, s := range c.Skills {
		if !strings.EqualFold(s.Name, name) {
			continue
		}
		if s.Status == Loaded {
			return s
		}
		if other == nil {
			other = s
		}
	}
	return other
}

// Diagnostics returns every diagnostic of the catalog (agent files, skills,
// config), sorted by path then position.
func (c *Catalog) Diagnostics() []Diagnostic {
	var out []Diagnostic
	for _, f := range c.Files {
		out = append(out, f.Diagnostics...)
	}
	for _, s := range c.Skills {
		out = append(out, s.Diagnostics...)
	}
	out = append(out, c.FolderDiagnostics...)
	if c.Config != nil {
		out = append(out, c.Config.Diagnostics...)
	}
	for _, x := range c.Extra {
		out = append(out, x.Diagnostics...)
	}
	SortDiagnostics(out)
	return out
}

// Summary counts what a report's last line says.
type Summary struct {
	// Loaded, Rejected and NotLoaded count agent files; Errors, Warnings
	// and Infos count every diagnostic of the catalog.
	Loaded, Rejected, NotLoaded, Errors, Warnings, Infos int
}

// Summary counts loaded, rejected and not-loaded files and all errors,
// warnings and infos.
func (c *Catalog) Summary() Summary {
	var s Summary
	for _, f := range c.Files {
		switch f.Status {
		case Loaded:
			s.Loaded++
		case NotLoaded:
			s.NotLoaded++
		default:
			s.Rejected++
		}
	}
	ds := c.Diagnostics()
	s.Errors, s.Warnings = Count(ds)
	for _, d := range ds {
		if d.Severity == Info {
			s.Infos++
		}
	}
	return s
}
