package adapt

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Target is one agent tool agentdesk converts definitions to (and, for
// some, from).
type Target struct {
	// ID is the name on the command line: claude-code, opencode, gemini,
	// codex, jit or maxclaw.
	ID string
	// Title is the tool's name for messages ("Claude Code").
	Title string
	// Dir is the tool's conventional project folder, relative to the
	// working directory (".claude/agents").
	Dir string
	// Ext is the extension of the tool's agent files, with its dot.
	Ext string

	export func(x *exportCtx) (file string, data []byte)
	parse  func(x *importCtx, data []byte) error
}

// targets lists every target in the order help text names them.
var targets = []Target{
	{ID: "claude-code", Title: "Claude Code", Dir: filepath.Join(".claude", "agents"), Ext: ".md", export: exportClaudeCode, parse: parseClaudeCode},
	{ID: "opencode", Title: "OpenCode", Dir: filepath.Join(".opencode", "agents"), Ext: ".md", export: exportOpenCode, parse: parseOpenCode},
	{ID: "gemini", Title: "Gemini CLI", Dir: filepath.Join(".gemini", "agents"), Ext: ".md", export: exportGemini, parse: parseGemini},
	{ID: "codex", Title: "Codex CLI", Dir: filepath.Join(".codex", "agents"), Ext: ".toml", export: exportCodex, parse: parseCodex},
	{ID: "jit", Title: "a JIT config", Dir: filepath.Join(".jit", "agents"), Ext: ".json", export: exportJIT},
	{ID: "maxclaw", Title: "MaxClaw", Dir: "roles", Ext: ".md", export: exportMaxClaw},
}

// Targets returns every target, in a fixed order.
func Targets() []Target { return slices.Clone(targets) }

// TargetIDs returns the ids of the targets Export supports, or with
// importable only those Import reads.
func TargetIDs(importable bool) []string {
	var ids []string
	for _, t := range targets {
		if !importable || t.CanImport() {
			ids = append(ids, t.ID)
		}
	}
	return ids
}

// Lookup returns the target with that id (case-insensitive).
func Lookup(id string) (Target, bool) {
	for _, t := range targets {
		if strings.EqualFold(t.ID, id) {
			return t, true
		}
	}
	return Target{}, false
}

// CanImport reports whether Import reads this target's files.
func (t Target) CanImport() bool { return t.parse != nil }

// Exported is one definition converted into a target's format.
type Exported struct {
	// Name is the agent's name in the target (converted when the target
	// refuses the NetClaw name).
	Name string
	// File is the file name to write in the destination folder.
	File string
	// Data is the file's content.
	Data []byte
	// Warnings name every field the target could not represent and every
	// conversion made.
	Warnings []string
}

// Export converts a loaded definition into the target's native file.
func (t Target) Export(d *lint.Definition) (*Exported, error) {
	if d == nil {
		return nil, errors.New("no definition to export")
	}
	if strings.TrimSpace(d.Name) == "" {
		return nil, errors.New("the definition has no name")
	}
	x := &exportCtx{d: d, target: t}
	file, data := t.export(x)
	if x.err != nil {
		return nil, x.err
	}
	return &Exported{Name: x.name, File: file, Data: data, Warnings: x.warnings}, nil
}

// exportCtx carries the state of one export: the name in the target, the
// fields kept in the netclaw comment, and the warnings.
type exportCtx struct {
	d      *lint.Definition
	target Target
	name   string
	// nameRestored is set when the name is the one an import kept under
	// metadata as "<target>.name".
	nameRestored bool
	carry        carried
	// noComments is true for a target whose format has no comments
	// (JSON): fields it cannot represent are then lost, not carried.
	noComments bool
	warnings   []string
	err        error
}

func (x *exportCtx) warn(format string, args ...any) {
	x.warnings = append(x.warnings, fmt.Sprintf(format, args...))
}

// lost says what happens to a field the target cannot represent.
func (x *exportCtx) lost() string {
	if x.noComments {
		return "left out"
	}
	return "kept in the '# netclaw:' comment"
}

// convertName sets the name the target gets: the name an import kept under
// metadata as "<target>.name" when the target accepts it and it imports
// back as this definition's name; else the NetClaw name when valid is true
// for it; else convert's result, with a warning. The original name is
// carried when converting it back would not give it again.
func (x *exportCtx) convertName(valid func(string) bool, convert func(string) string, back func(string) string) {
	x.name = x.d.Name
	if orig, ok := x.d.Metadata[x.target.ID+".name"]; ok {
		if valid(orig) && importedName(orig, back) == x.d.Name {
			x.name, x.nameRestored = orig, true
			return
		}
		x.warn("metadata %s.name %q is not a %s name that imports back as %q: ignored", x.target.ID, orig, x.target.Title, x.d.Name)
	}
	if valid(x.name) {
		return
	}
	x.name = convert(x.d.Name)
	if x.name == "" {
		x.err = fmt.Errorf("name %q has no letter or digit %s can use as a name", x.d.Name, x.target.Title)
		return
	}
	x.warn("name %q is not a name %s accepts: exported as %q", x.d.Name, x.target.Title, x.name)
	if back(x.name) != x.d.Name {
		x.carry.Name = x.d.Name
	}
}

// keepDescription carries the description for a target with no place for it.
func (x *exportCtx) keepDescription() {
	x.carry.Description = x.d.Description
	x.warn("description: %s has no place for it; %s", x.target.Title, x.lost())
}

// keepTools carries the tools for a target with no per-agent tool list.
func (x *exportCtx) keepTools() {
	if len(x.d.Tools) == 0 {
		return
	}
	x.carry.Tools = slices.Clone(x.d.Tools)
	x.warn("tools %s: %s has no per-agent tool list; %s", quoteNames(x.d.Tools), x.target.Title, x.lost())
}

// keepRole carries modelRole for a target with no model role. A role the
// file does not set explicitly is carried without a warning: the file said
// nothing, yet the runtime's default (Compaction) must survive the trip.
func (x *exportCtx) keepRole(why string) {
	x.carry.ModelRole = x.d.ModelRole
	if x.d.Set("modelRole") {
		x.warn("modelRole %s: %s; %s", x.d.ModelRole, why, x.lost())
	}
}

// keepRest handles the fields no target represents: visibility internal,
// emitStructuredFindings, prefillTimeoutSeconds, version and metadata (but
// the entries restore says the target has a key for), and the obsolete
// timeoutSeconds. It returns the metadata entries to restore, in key order.
func (x *exportCtx) keepRest(restore []metaKey) []restored {
	d := x.d
	if !d.UserFacing() {
		x.carry.Visibility = "internal"
		x.warn("visibility internal: %s has no hidden sub-agents, so the agent is offered like any other; %s", x.target.Title, x.lost())
	}
	if d.EmitStructuredFindings {
		x.carry.EmitStructuredFindings = true
		x.warn("emitStructuredFindings: %s has no place for it; %s", x.target.Title, x.lost())
	}
	if d.PrefillTimeoutSeconds != 0 {
		x.carry.PrefillTimeoutSeconds = d.PrefillTimeoutSeconds
		x.warn("prefillTimeoutSeconds %d: %s has no place for it; %s", d.PrefillTimeoutSeconds, x.target.Title, x.lost())
	}
	if d.Set("timeoutSeconds") {
		x.warn("timeoutSeconds is obsolete (the NetClaw runtime ignores it): left out")
	}
	if d.Version != "" {
		x.carry.Version = d.Version
		x.warn("version %s: %s has no place for it; %s", d.Version, x.target.Title, x.lost())
	}
	out := x.metadata(restore)
	if x.noComments {
		x.carry = carried{}
	}
	return out
}

// metadata sorts the definition's metadata, in key order, into the
// entries the target has a key for (restore) with a valid value, which it
// returns, and the rest, which are carried and warned about. The version
// and a restored name are neither.
func (x *exportCtx) metadata(restore []metaKey) []restored {
	var out []restored
	for _, k := range slices.Sorted(maps.Keys(x.d.Metadata)) {
		if k == "version" || k == x.target.ID+".name" && x.nameRestored {
			continue
		}
		v := x.d.Metadata[k]
		if mk, ok := findMetaKey(restore, x.target.ID, k); ok {
			if text, ok := mk.kind.valid(v); ok {
				out = append(out, restored{key: mk.key, kind: mk.kind, text: text})
				continue
			}
			x.warn("metadata %s %q is not %s as %s wants: %s", k, v, mk.kind, x.target.Title, x.lost())
		} else {
			x.warn("metadata %s: %s has no place for it; %s", k, x.target.Title, x.lost())
		}
		if x.carry.Metadata == nil {
			x.carry.Metadata = map[string]string{}
		}
		x.carry.Metadata[k] = v
	}
	return out
}

// Imported is one file of another tool converted into NetClaw agent-md.
type Imported struct {
	// Source is the path the file was read from.
	Source string
	// Name is the NetClaw name.
	Name string
	// File is the file name to write in the agents folder: <name>.md.
	File string
	// Data is the agent-md text; it passes lint under the runtime profile.
	Data []byte
	// Agent is what Data holds.
	Agent Agent
	// Warnings name every field NetClaw has no place for, what was kept
	// under metadata, and every conversion made.
	Warnings []string
}

// ErrNotLoadable is wrapped when an imported definition would not pass
// lint: the runtime would reject it.
var ErrNotLoadable = errors.New("the converted definition does not pass lint")

// Import converts one file of the target's format into NetClaw agent-md.
// It fails when the file does not parse, lacks what NetClaw requires (name,
// description, a non-empty body), or converts into a file that does not
// pass lint under the runtime profile (wrapping ErrNotLoadable).
func (t Target) Import(path string, data []byte) (*Imported, error) {
	if !t.CanImport() {
		return nil, fmt.Errorf("agentdesk cannot import %s files: it imports %s", t.Title, strings.Join(TargetIDs(true), ", "))
	}
	x := &importCtx{target: t, path: path}
	if err := t.parse(x, data); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return x.finish()
}

// importCtx carries the state of one import.
type importCtx struct {
	target   Target
	path     string
	agent    Agent
	warnings []string
	// beforeCarry, when set, runs once every field is read and before the
	// '# netclaw:' comment is applied.
	beforeCarry func()
}

func (x *importCtx) warn(format string, args ...any) {
	x.warnings = append(x.warnings, fmt.Sprintf(format, args...))
}

// sourceValue is one value of a target file, as keepField sees it.
type sourceValue struct {
	text   string
	kind   valueKind
	scalar bool
}

// keepField handles a target field NetClaw has no key for: a scalar the
// target's table lists, of the type the table gives it, is kept under
// metadata as "<target>.<key>" (export to the same target writes it back
// as it was); anything else is reported as lost.
func (x *importCtx) keepField(key string, v sourceValue, keep []metaKey, line int) {
	at := ""
	if line > 0 {
		at = fmt.Sprintf(" (line %d)", line)
	}
	mk, ok := findMetaKey(keep, "", key)
	if !ok || !v.scalar {
		x.warn("%s%s: NetClaw has no place for it; left out", key, at)
		return
	}
	_, valid := mk.kind.valid(v.text)
	if !valid || !(v.kind == mk.kind || mk.kind == kindNumber && v.kind == kindInt) {
		x.warn("%s %q%s is not %s as %s wants: left out", key, v.text, at, mk.kind, x.target.Title)
		return
	}
	x.agent.setMetadata(x.target.ID+"."+mk.key, v.text)
	x.warn("%s %q: NetClaw has no place for it; kept under metadata as %s.%s (export to %s writes it back)", key, v.text, x.target.ID, mk.key, x.target.ID)
}

// finishName sets the NetClaw name: the name an export carried in the
// netclaw comment when it can be a file name, else the target's name turned
// back by back and converted to lowercase kebab-case when it is not. A name
// that changes is kept under metadata as "<target>.name", so an export to
// the same target gives the file its name back.
func (x *importCtx) finishName(raw string, carry *carried, back func(string) string) {
	if carry != nil && carry.Name != "" {
		if fileSafe(carry.Name) {
			x.agent.Name = carry.Name
			return
		}
		x.warn("the '# netclaw:' comment keeps the name %q, which cannot be a file name in the agents folder: ignored", carry.Name)
	}
	raw = strings.TrimSpace(raw)
	x.agent.Name = importedName(raw, back)
	if x.agent.Name == raw || x.agent.Name == "" {
		return
	}
	x.agent.setMetadata(x.target.ID+".name", raw)
	x.warn("name %q is not lowercase kebab-case, which NetClaw's skills and SkillServer need: imported as %q, the name kept under metadata as %s.name (export to %s writes it back)",
		raw, x.agent.Name, x.target.ID, x.target.ID)
}

// importedName is the NetClaw name import gives a target's name: turned
// back by back, then converted to lowercase kebab-case when it is not (and
// the conversion is a name).
func importedName(raw string, back func(string) string) string {
	name := back(strings.TrimSpace(raw))
	if name == "" || lint.ValidName(name) {
		return name
	}
	if k := lint.Kebab(name); k != "" && len(k) <= 64 {
		return k
	}
	return name
}

// finish restores the carried fields, checks what NetClaw requires, renders
// the agent-md and checks it with lint.
func (x *importCtx) finish() (*Imported, error) {
	a := &x.agent
	a.Description = strings.TrimSpace(a.Description)
	switch {
	case a.Name == "":
		return nil, fmt.Errorf("%s: no name: NetClaw needs one", x.path)
	case !fileSafe(a.Name):
		return nil, fmt.Errorf("%s: name %q cannot be a file name in the agents folder (a slash, a leading dot or a control character): rename the agent in that file", x.path, a.Name)
	case a.Description == "":
		return nil, fmt.Errorf("%s: no description: NetClaw needs one to tell the frontline model when to delegate", x.path)
	case strings.TrimSpace(a.Body) == "":
		return nil, fmt.Errorf("%s: the system prompt is empty: NetClaw skips an agent without one", x.path)
	}
	data := a.Markdown()
	file := a.Name + ".md"
	f := lint.Parse(file, data, lint.Runtime)
	if f.Status != lint.Loaded {
		return nil, fmt.Errorf("%s: %w: %s", x.path, ErrNotLoadable, f.Reason)
	}
	for _, d := range f.Diagnostics {
		if d.Severity == lint.Error {
			return nil, fmt.Errorf("%s: %w: line %d: %s [%s]", x.path, ErrNotLoadable, d.Line, d.Message, d.Rule)
		}
	}
	return &Imported{Source: x.path, Name: a.Name, File: file, Data: data, Agent: *a, Warnings: x.warnings}, nil
}
