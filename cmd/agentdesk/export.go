package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview/adapt"
)

// exportFlags holds the flags of agentdesk export.
type exportFlags struct {
	to  string
	out string
}

// newExportCmd builds `agentdesk export --to TARGET [AGENT...]`.
func newExportCmd(g *globals) *cobra.Command {
	var f exportFlags
	cmd := &cobra.Command{
		Use:   "export --to TARGET [AGENT...]",
		Short: "Convert definitions for Claude Code, OpenCode, Gemini CLI, Codex CLI, JIT or MaxClaw",
		Long: `Convert the home's loaded definitions into another tool's native format:
claude-code, opencode, gemini, codex, jit or maxclaw.
Give AGENT names to convert only those.

Name, description and body always carry over.
Tools and the model role carry over where the target has a place for them.
A warning on stderr names each field the target cannot represent.
It also names each tool name the target lacks, each name it refuses, and a
source file with invalid UTF-8 (exported as the runtime reads it, with U+FFFD).

Files go only into a managed destination: --out DIR.
The default is the target's project folder under the working directory:
.claude/agents, .opencode/agents, .gemini/agents, .codex/agents, .jit/agents
or roles. Its state file, ` + adapt.StateFile + `, records each file written,
with the digest of its source and of its bytes.

A rerun:
  - updates its own files;
  - deletes those whose source agent is gone (no agent of that name loads,
    and its file was deleted or now declares another name);
  - refuses to touch a file it did not write, or one edited since;
    then it writes nothing at all.
A file the runtime rejects is named in a warning and not exported.
An export made from it before stays as it is.

After writing files, lines starting "next:" say what the tool needs first.
Codex CLI reads .codex/agents only in a trusted project.
Gemini CLI asks you to acknowledge each new or changed project agent;
~/.gemini/agents needs no acknowledgement.

Exit status: 0 exported; 1 an unknown agent, or a file agentdesk may not
touch; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk export --to claude-code
  agentdesk export --to codex code-analyst summarizer
  agentdesk export --to opencode --out ~/.config/opencode/agents`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runExport(g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.to, "to", "", "target format: "+strings.Join(adapt.TargetIDs(false), ", "))
	fl.StringVar(&f.out, "out", "", "destination folder (default: the target's project folder under the working directory)")
	return cmd
}

// runExport converts the selected agents and brings the destination up to
// date: it checks the flags (checkExportFlags), opens the destination
// (exportDestination), converts the agents (exportSources), then plans
// and applies the changes and says what they were.
func runExport(g *globals, f exportFlags, names []string) error {
	tg, err := checkExportFlags(f)
	if err != nil {
		return err
	}
	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	files, err := selectAgents(c, names)
	if err != nil {
		return err
	}
	out := f.out
	if out == "" {
		out = tg.Dir
	}
	dest, err := exportDestination(c, tg, out)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		for _, file := range c.Rejected() {
			g.warn(file.Path, "not exported: "+rejection(file))
		}
	}
	sources, err := exportSources(g, tg, files)
	if err != nil {
		return err
	}
	plan, err := dest.Plan(sources, adapt.LiveSources(c))
	if err != nil {
		return exitWith(exitFindings, err)
	}
	applyErr := plan.Apply()
	if err := writeString(g.stdout, exportedText(tg, plan, out, applyErr == nil)); err != nil {
		return err
	}
	switch {
	case errors.Is(applyErr, adapt.ErrRefused):
		return exitWith(exitFindings, applyErr)
	case applyErr != nil:
		return exitWith(exitInternal, applyErr)
	}
	return nil
}

// checkExportFlags is export's validation step: --to must name a known
// format. It returns that format.
func checkExportFlags(f exportFlags) (adapt.Target, error) {
	if f.to == "" {
		return adapt.Target{}, usageErrorf("--to is required: one of %s", strings.Join(adapt.TargetIDs(false), ", "))
	}
	tg, ok := adapt.Lookup(f.to)
	if !ok {
		return adapt.Target{}, usageErrorf("unknown target %q: use one of %s", f.to, strings.Join(adapt.TargetIDs(false), ", "))
	}
	return tg, nil
}

// exportDestination opens the folder out as tg's destination. out must be
// a folder (or not exist yet), and not inside the agents folder, where the
// runtime would load what is exported.
func exportDestination(c *lint.Catalog, tg adapt.Target, out string) (*adapt.Destination, error) {
	if err := checkOutFolder(out); err != nil {
		return nil, err
	}
	if within(out, c.Home.Agents) {
		return nil, usageErrorf("--out %s is inside the NetClaw agents folder %s, where the runtime would load the exported files: pick another folder", out, c.Home.Agents)
	}
	dest, err := adapt.OpenDestination(out, tg)
	if err != nil {
		return nil, exitWith(exitFindings, err)
	}
	return dest, nil
}

// exportSources converts each file to tg's format, warning of invalid
// UTF-8 and of what a conversion loses; a file that does not convert
// stops the export.
func exportSources(g *globals, tg adapt.Target, files []*lint.File) ([]adapt.Source, error) {
	sources := make([]adapt.Source, 0, len(files))
	for _, file := range files {
		e, err := tg.Export(file.Def)
		if err != nil {
			return nil, exitWith(exitFindings, fmt.Errorf("%s: %w", file.Path, err))
		}
		if msg := invalidUTF8(file); msg != "" {
			g.warn(file.Path, msg)
		}
		for _, w := range e.Warnings {
			g.warn(file.Def.Name, w)
		}
		sources = append(sources, adapt.Source{Name: file.Def.Name, Path: absPath(file.Path), SHA256: file.SHA256, Out: e})
	}
	return sources, nil
}

// exportedText says, a line each, what the plan's applied changes did,
// and, when a file was written and all went well (applied), the target's
// next steps for the folder out.
func exportedText(tg adapt.Target, plan *adapt.Plan, out string, applied bool) string {
	var b strings.Builder
	wrote := false
	for _, ch := range plan.Changes[:plan.Done] {
		if line := exportLine(ch); line != "" {
			b.WriteString(termsafe.Escape(line) + "\n")
		}
		wrote = wrote || ch.Action == adapt.Create || ch.Action == adapt.Update
	}
	if wrote && applied {
		home, _ := os.UserHomeDir()
		for _, step := range tg.NextSteps(absPath(out), home) {
			b.WriteString("next: " + termsafe.Escape(step) + "\n")
		}
	}
	return b.String()
}

// selectAgents returns the loaded agents named (each once, in the order
// given), or every loaded agent when none is named.
func selectAgents(c *lint.Catalog, names []string) ([]*lint.File, error) {
	if len(names) == 0 {
		files := c.Loaded()
		if len(files) == 0 {
			return nil, exitWith(exitFindings, fmt.Errorf("no agent is loaded from %s: nothing to export", c.Home.Agents))
		}
		return files, nil
	}
	var files []*lint.File
	seen := map[*lint.File]bool{}
	for _, name := range names {
		file := c.Agent(name)
		if file == nil {
			return nil, unknownAgent(c, name)
		}
		if !seen[file] {
			seen[file] = true
			files = append(files, file)
		}
	}
	return files, nil
}

// invalidUTF8 returns the warning for a source file with invalid UTF-8,
// which the export carries as the runtime reads it (U+FFFD in place of the
// bad bytes), or "".
func invalidUTF8(f *lint.File) string {
	for _, d := range f.Diagnostics {
		if d.Rule == lint.RuleEncoding && strings.HasPrefix(d.Message, "invalid UTF-8") {
			return fmt.Sprintf("invalid UTF-8 at line %d: exported as the runtime reads it, with U+FFFD in place of the bad bytes; save the file as UTF-8", d.Line)
		}
	}
	return ""
}

// rejection says why the runtime skips a file: its first error, else the
// runtime's own words.
func rejection(f *lint.File) string {
	for _, d := range f.Diagnostics {
		if d.Severity == lint.Error {
			return d.Message
		}
	}
	return f.Reason
}

// exportLine says what one change of an export did.
func exportLine(ch adapt.Change) string {
	e := ch.Entry
	switch ch.Action {
	case adapt.Create:
		return fmt.Sprintf("created %s from %s", ch.Path, e.SourceName)
	case adapt.Update:
		return fmt.Sprintf("updated %s from %s", ch.Path, e.SourceName)
	case adapt.Unchanged:
		return fmt.Sprintf("unchanged %s", ch.Path)
	case adapt.Prune:
		if ch.Moved != "" {
			return fmt.Sprintf("deleted %s: its source '%s' now exports to %s", ch.Path, e.SourceName, ch.Moved)
		}
		return fmt.Sprintf("deleted %s: its source '%s' is gone", ch.Path, e.SourceName)
	case adapt.Forget:
		if ch.Moved != "" {
			return fmt.Sprintf("forgot %s: its source '%s' now exports to %s and the file was already deleted", ch.Path, e.SourceName, ch.Moved)
		}
		return fmt.Sprintf("forgot %s: its source '%s' is gone and the file was already deleted", ch.Path, e.SourceName)
	}
	return ""
}

// within reports whether path is dir or lies inside it, symbolic links
// resolved as far as the path exists.
func within(path, dir string) bool {
	rel, err := filepath.Rel(resolvePath(dir), resolvePath(path))
	return err == nil && (rel == "." || filepath.IsLocal(rel))
}

// resolvePath returns p made absolute with the symbolic links of its
// longest existing part resolved; the part that does not exist yet is
// appended as it is.
func resolvePath(p string) string {
	p = absPath(p)
	var rest []string
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(append([]string{r}, rest...)...)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(append([]string{p}, rest...)...)
		}
		rest = append([]string{filepath.Base(p)}, rest...)
		p = parent
	}
}

// checkOutFolder refuses, as bad usage, an --out that cannot be a folder:
// the path itself, or the nearest of its parents that exists, is a file.
// A folder that does not exist yet is fine: the command creates it.
func checkOutFolder(out string) error {
	for p := filepath.Clean(out); ; {
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil && p == filepath.Clean(out):
			return usageErrorf("--out %s is not a folder: pass a folder (agentdesk creates it when it does not exist)", out)
		case err == nil:
			return usageErrorf("--out %s is not a folder: %s is a file; pass a folder", out, p)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return nil
		}
		p = parent
	}
}

// absPath returns path made absolute, or path itself when that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
