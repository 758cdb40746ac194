package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview/adapt"
)

// importFlags holds the flags of agentdesk import.
type importFlags struct {
	from      string
	out       string
	force     bool
	keepGoing bool
}

// newImportCmd builds `agentdesk import --from TOOL PATH...`.
func newImportCmd(g *globals) *cobra.Command {
	var f importFlags
	cmd := &cobra.Command{
		Use:   "import --from TOOL PATH...",
		Short: "Convert Claude Code, OpenCode, Gemini CLI or Codex CLI agents into NetClaw definitions",
		Long: `Convert another tool's agent files into NetClaw definitions.
The tools are claude-code, opencode, gemini and codex.
Each becomes <name>.md in the home's agents folder, or in --out DIR.
A PATH may be a file or a folder: its *.md files, or *.toml for codex.

Warnings on stderr name the fields NetClaw has no place for.
A scalar field the source tool defines (a model id, a temperature, a colour)
is kept under metadata as <tool>.<key>, so that export to that tool writes
it back. Fields that agentdesk export kept in a '# netclaw:' comment are restored.

Every file written passes agentdesk lint.
An existing file is replaced only with --force, atomically.
A name another file in the folder already declares is refused.
When any file fails, nothing is written; with --keep-going the files that
convert are written, the others are listed with why, and the exit status is 1.

Exit status: 0 imported; 1 a file that does not convert, or a file in the
way; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk import --from claude-code .claude/agents
  agentdesk import --from codex ~/.codex/agents/reviewer.toml --out ./agents
  agentdesk import --from opencode --force .opencode/agents/docs-writer.md`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runImport(g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.from, "from", "", "source format: "+strings.Join(adapt.TargetIDs(true), ", "))
	fl.StringVar(&f.out, "out", "", "folder to write into (default: the home's agents folder)")
	fl.BoolVar(&f.force, "force", false, "replace existing files")
	fl.BoolVar(&f.keepGoing, "keep-going", false, "write the files that convert even when others do not (those are listed, and the exit status is 1)")
	return cmd
}

// runImport converts every input and installs the lot, or nothing: it
// checks the flags (checkImportFlags), finds the folder to write into,
// converts the inputs (convertImports) and installs what converted.
func runImport(g *globals, f importFlags, paths []string) error {
	tg, err := checkImportFlags(f, paths)
	if err != nil {
		return err
	}
	out, err := importOut(g, f.out)
	if err != nil {
		return err
	}
	inputs, err := importInputs(paths, tg)
	if err != nil {
		return err
	}
	items, failures := convertImports(g, tg, inputs)
	if len(failures) > 0 && !f.keepGoing {
		return exitWith(exitFindings, fmt.Errorf("%s did not convert, so nothing was written (--keep-going writes the others):\n  %s",
			plural(len(failures), "file"), strings.Join(failures, "\n  ")))
	}
	var notConverted error
	if len(failures) > 0 {
		notConverted = exitWith(exitFindings, fmt.Errorf("%s did not convert and %s not written:\n  %s",
			plural(len(failures), "file"), map[bool]string{true: "was", false: "were"}[len(failures) == 1], strings.Join(failures, "\n  ")))
		if len(items) == 0 {
			return notConverted
		}
	}

	installed, err := adapt.Install(out, items, f.force)
	if werr := writeString(g.stdout, importedText(g, installed)); werr != nil {
		return werr
	}
	switch {
	case errors.Is(err, adapt.ErrRefused):
		return exitWith(exitFindings, err)
	case err != nil:
		return exitWith(exitInternal, err)
	}
	return notConverted
}

// checkImportFlags is import's validation step: --from must name a format
// that imports, and some PATH must be given. It returns that format.
func checkImportFlags(f importFlags, paths []string) (adapt.Target, error) {
	if f.from == "" {
		return adapt.Target{}, usageErrorf("--from is required: one of %s", strings.Join(adapt.TargetIDs(true), ", "))
	}
	tg, ok := adapt.Lookup(f.from)
	if !ok || !tg.CanImport() {
		return adapt.Target{}, usageErrorf("cannot import from %q: use one of %s", f.from, strings.Join(adapt.TargetIDs(true), ", "))
	}
	if len(paths) == 0 {
		return adapt.Target{}, usageErrorf("name the %s agent files to import, or a folder of them (such as %s)", tg.Title, tg.Dir)
	}
	return tg, nil
}

// importOut is the folder import writes into: --out when given (it must
// be a folder, or not exist yet), else the home's agents folder (the
// home must exist).
func importOut(g *globals, out string) (string, error) {
	if out != "" {
		if err := checkOutFolder(out); err != nil {
			return "", err
		}
		return out, nil
	}
	h, err := g.Home()
	if err != nil {
		return "", exitWith(exitUsage, err)
	}
	if !h.Exists() {
		return "", usageErrorf("the NetClaw home %s does not exist: pass --home DIR, NETCLAW_HOME or --out DIR", h.Base)
	}
	return h.Agents, nil
}

// convertImports reads and converts each input in tg's format, warning of
// what a conversion loses; it returns what converted, and an error line
// for each input that did not.
func convertImports(g *globals, tg adapt.Target, inputs []string) (items []*adapt.Imported, failures []string) {
	for _, path := range inputs {
		data, err := readCappedFile(path)
		if err == nil {
			var im *adapt.Imported
			if im, err = tg.Import(path, data); err == nil {
				items = append(items, im)
				for _, w := range im.Warnings {
					g.warn(path, w)
				}
				continue
			}
		}
		failures = append(failures, err.Error())
	}
	return items, failures
}

// importedText says, a line each, which source was imported as which
// file (and whether it replaced one there); the notes of each are warned
// of as the text is built.
func importedText(g *globals, installed []adapt.Installed) string {
	var b strings.Builder
	for _, in := range installed {
		note := ""
		if in.Replaced {
			note = " (replaced the file there)"
		}
		fmt.Fprintf(&b, "imported %s as %s%s\n", termsafe.Escape(in.Source), termsafe.Escape(in.Path), note)
		for _, n := range in.Notes {
			g.warn(in.Path, n)
		}
	}
	return b.String()
}

// importInputs expands PATHs: a folder gives its top-level files with the
// target's extension, in name order; a file is taken as it is. A path that
// does not exist is bad usage.
func importInputs(paths []string, tg adapt.Target) ([]string, error) {
	var out []string
	for _, p := range paths {
		fi, err := os.Stat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, usageErrorf("%s: no such file or folder", p)
		case err != nil:
			return nil, exitWith(exitInternal, err)
		case !fi.IsDir():
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, exitWith(exitInternal, fmt.Errorf("list %s: %w", p, err))
		}
		var found []string
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), tg.Ext) {
				found = append(found, filepath.Join(p, e.Name()))
			}
		}
		if len(found) == 0 {
			return nil, exitWith(exitFindings, fmt.Errorf("%s holds no %s agent file (*%s)", p, tg.Title, tg.Ext))
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return out, nil
}

// readCappedFile reads a file of at most lint.MaxFileSize bytes.
func readCappedFile(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, lint.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(data) > lint.MaxFileSize {
		return nil, fmt.Errorf("%s is over the %d MiB limit", path, lint.MaxFileSize>>20)
	}
	return data, nil
}
