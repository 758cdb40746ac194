package lint

import (
	"strings"
	"time"
)

// Skill is one SKILL.md and, when it routes through a sub-agent, how that
// routing resolves against the catalog.
type Skill struct {
	// Name is the skill's frontmatter name, else its folder name.
	Name string
	// Path of the SKILL.md.
	Path string
	// Source is local, a feed, or feed "" with System set for .system skills.
	Source Source
	// System is true for skills under skills/.system.
	System bool
	// Subagent is metadata.subagent as written (trimmed); "" when the skill
	// does not route.
	Subagent string
	// SubagentPos is where the metadata.subagent value is.
	SubagentPos Pos
	// Body is the skill's markdown body (the overlay of a routed run).
	Body string
	// RouteError is the runtime's activation error for a skill whose routing
	// fails, in the runtime's words; "" when the skill routes fine or does
	// not route at all.
	RouteError string
	// Diagnostics about this skill file.
	Diagnostics []Diagnostic
	size        int64
	modTime     time.Time
}

// Routed reports whether the skill runs through a sub-agent.
func (s *Skill) Routed() bool { return s.Subagent != "" }

// Catalog is the result of a scan: every agent file in runtime order, every
// skill, and the configuration.
type Catalog struct {
	// Home is the home scanned (zero for ScanPaths).
	Home Home
	// Profile is the profile the severities were set under.
	Profile Profile
	// Files holds every agent definition file in runtime order: top-level
	// files in byte order of their names, then each feed in folder-name
	// order, its files in byte order.
	Files []*File
	// Skills holds every SKILL.md, sorted by path.
	Skills []*Skill
	// Config is the merged netclaw.json + secrets.json + environment.
	Config *Config
	// ScannedAt is when the scan finished.
	ScannedAt time.Time
	// Extra holds files agentdesk checks that the runtime ignores (test and
	// route suites beside the agents), with their diagnostics. Scan leaves
	// it empty; the caller adds them (package lint/suite reads them).
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

// RejectedAgent returns the first rejected file that declares name
// (case-insensitive, surrounding spaces ignored), or nil: why an agent the
// user asked for is not loaded. A file whose frontmatter does not bind
// declares the name on its raw `name:` line (File.Name).
func (c *Catalog) RejectedAgent(name string) *File {
	name = strings.TrimSpace(name)
	for _, f := range c.Files {
		if f.Status == Rejected && name != "" && strings.EqualFold(f.Name(), name) {
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

// Skill returns the skill with that name (case-insensitive), or nil.
func (c *Catalog) Skill(name string) *Skill {
	name = strings.TrimPrefix(name, "/")
	for _, s := range c.Skills {
		if strings.EqualFold(s.Name, name) {
			return s
		}
	}
	return nil
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
	// Loaded and Rejected count agent files; Errors and Warnings count
	// every diagnostic of the catalog.
	Loaded, Rejected, Errors, Warnings int
}

// Summary counts loaded and rejected files and all errors and warnings.
func (c *Catalog) Summary() Summary {
	var s Summary
	for _, f := range c.Files {
		if f.Status == Loaded {
			s.Loaded++
		} else {
			s.Rejected++
		}
	}
	s.Errors, s.Warnings = Count(c.Diagnostics())
	return s
}
