package report

import (
	"cmp"
	"path/filepath"
	"slices"

	"github.com/agentdesk/agentdesk/lint"
)

// Statuses of an entry in the JSON report.
const (
	statusRejected = "rejected"
)

// entry is one file of a report: an agent definition, a SKILL.md or a
// configuration file, with its diagnostics.
type entry struct {
	path string // as the scan found it
	name string
	// status is "loaded", "rejected" or "not-loaded" for agent files and
	// skills (a skill is rejected when the scanner refuses it or its
	// routing fails), "not-loaded" for a feed folder the runtime does not
	// read, "" for other folders and configuration files; for an extra
	// file (a suite) "valid", or "invalid" when it has an error.
	status string
	// source is "local" or "feed:<name>" for agents and skills, "system" for
	// skills under skills/.system, "folder" for folders, "config" for
	// configuration files.
	source      string
	diagnostics []lint.Diagnostic
	// text is the file's text when the scan kept it; "" otherwise.
	text string
}

// entries lists the files of c in report order: agent files in runtime
// order, then skills by path, then configuration files by path, then the
// extra files (suites) as the caller added them. Every
// diagnostic of c belongs to exactly one entry.
func entries(c *lint.Catalog) []entry {
	var out []entry
	for _, f := range c.Files {
		out = append(out, entry{
			path:        f.Path,
			name:        f.Name(),
			status:      f.Status.String(),
			source:      f.Source.String(),
			diagnostics: sorted(f.Diagnostics),
			text:        f.Text,
		})
	}
	for _, s := range c.Skills {
		e := entry{
			path:        s.Path,
			name:        s.Name,
			status:      s.Status.String(),
			source:      s.Source.String(),
			diagnostics: sorted(s.Diagnostics),
		}
		if s.RouteError != "" {
			e.status = statusRejected
		}
		if s.System {
			e.source = "system"
		}
		out = append(out, e)
	}
	out = append(out, folderEntries(c)...)
	out = append(out, configEntries(c)...)
	for _, x := range c.Extra {
		st := "valid"
		for _, d := range x.Diagnostics {
			if d.Severity == lint.Error {
				st = "invalid"
			}
		}
		out = append(out, entry{path: x.Path, status: st, source: x.Kind, diagnostics: sorted(x.Diagnostics), text: x.Text})
	}
	return out
}

// folderEntries returns one entry per folder a catalog diagnostic is about
// (the agents folder, a feed folder), by path.
func folderEntries(c *lint.Catalog) []entry {
	byPath := map[string]*entry{}
	var order []string
	for _, d := range c.FolderDiagnostics {
		if d.Severity == lint.Off {
			continue
		}
		e := byPath[d.Path]
		if e == nil {
			e = &entry{path: d.Path, source: "folder"}
			byPath[d.Path] = e
			order = append(order, d.Path)
		}
		if d.Rule == lint.RuleFeedNotLoaded {
			e.status = lint.NotLoaded.String()
			e.name = filepath.Base(d.Path)
			e.source = "feed:" + e.name
		}
		e.diagnostics = append(e.diagnostics, d)
	}
	slices.Sort(order)
	out := make([]entry, 0, len(order))
	for _, p := range order {
		lint.SortDiagnostics(byPath[p].diagnostics)
		out = append(out, *byPath[p])
	}
	return out
}

// configEntries returns one entry per configuration file: netclaw.json when
// it exists, and every other path a config diagnostic names (secrets.json,
// or lint.ConfigEnvironment for the environment).
func configEntries(c *lint.Catalog) []entry {
	if c.Config == nil {
		return nil
	}
	byPath := map[string]*entry{}
	var order []string
	add := func(path string) *entry {
		if e, ok := byPath[path]; ok {
			return e
		}
		byPath[path] = &entry{path: path, source: "config"}
		order = append(order, path)
		return byPath[path]
	}
	if c.Config.Present && c.Home.Base != "" {
		add(c.Home.ConfigFile())
	}
	for _, d := range c.Config.Diagnostics {
		if d.Severity == lint.Off {
			continue
		}
		e := add(d.Path)
		e.diagnostics = append(e.diagnostics, d)
	}
	slices.Sort(order)
	out := make([]entry, 0, len(order))
	for _, p := range order {
		e := byPath[p]
		lint.SortDiagnostics(e.diagnostics)
		out = append(out, *e)
	}
	return out
}

// sorted returns a sorted copy of ds without the diagnostics whose severity
// is off, never nil.
func sorted(ds []lint.Diagnostic) []lint.Diagnostic {
	out := make([]lint.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Severity != lint.Off {
			out = append(out, d)
		}
	}
	lint.SortDiagnostics(out)
	return out
}

// located is a diagnostic with the path it is shown under and the text of
// its file, for the formats that print one diagnostic at a time.
type located struct {
	lint.Diagnostic
	display string
	text    string
	hasText bool
}

// flatten returns every diagnostic of es, ordered by shown path, then line,
// column and rule.
func flatten(es []entry, dir string) []located {
	var out []located
	for _, e := range es {
		for _, d := range e.diagnostics {
			out = append(out, located{
				Diagnostic: d,
				display:    displayPath(d.Path, dir),
				text:       e.text,
				hasText:    e.text != "" && d.Path == e.path,
			})
		}
	}
	slices.SortStableFunc(out, func(a, b located) int {
		return cmp.Or(
			cmp.Compare(a.display, b.display),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Rule, b.Rule),
		)
	})
	return out
}
