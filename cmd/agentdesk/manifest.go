package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/adapt"
)

// manifestFlags holds the flags of agentdesk manifest.
type manifestFlags struct {
	version   string
	urlPrefix string
	out       string
	force     bool
}

// newManifestCmd builds `agentdesk manifest [PATH...]`.
func newManifestCmd(g *globals) *cobra.Command {
	var f manifestFlags
	cmd := &cobra.Command{
		Use:   "manifest [PATH...]",
		Short: "Print the SkillServer manifest entry of each definition, after the publish checks",
		Long: `Check the definitions with SkillServer's publish rules.
Then print one subagent-version manifest entry a line, as JSON:

  {"kind":"subagent-version","name":"...","version":"...","type":"agent-md",
   "description":"...","url":"/subagents/<name>/<version>/agent.md","digest":"sha256:<hex>"}

The digest is the SHA-256 of the file's exact bytes.
A byte-order mark and CRLF line endings are part of them.

Without PATH, manifest reads the home's agents folder: its own *.md files,
not the server feeds. A PATH may be an agent file or a folder of them.

The version is --version, else the file's version, else metadata.version.
A file whose own version differs from --version is an error.
Any error under the publish profile stops manifest before it prints anything.
The diagnostics go to stderr.

--out DIR also writes each file at its URL path under DIR, byte for byte:
DIR/subagents/<name>/<version>/agent.md. The set can be served as static files.
Each write is atomic. An existing file with other bytes is replaced only with --force.

Exit status: 0 printed; 1 publish errors, a version conflict or a file in
the way; 2 bad usage, or no version at all; 3 internal failure.`,
		Example: `  agentdesk manifest --version 1.0.0
  agentdesk manifest --version 1.2.0 --url-prefix https://skills.example.com/api/v1 agents/triage.md
  agentdesk manifest --out public/   # versions from each file's metadata.version`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runManifest(g, f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.version, "version", "", "the version to publish (default: each file's version or metadata.version)")
	fl.StringVar(&f.urlPrefix, "url-prefix", "", "prepended to each entry's url (such as https://skills.example.com/api/v1)")
	fl.StringVar(&f.out, "out", "", "also write each file at its URL path under this folder")
	fl.BoolVar(&f.force, "force", false, "with --out, replace files that exist with different bytes")
	return cmd
}

// runManifest lints the upload set with the publish profile and prints
// (and with --out writes) its manifest entries: it checks the flags
// (checkManifestFlags), lints the set (publishLint), then makes the
// entries (manifestEntries).
func runManifest(g *globals, f manifestFlags, paths []string) error {
	if err := checkManifestFlags(f); err != nil {
		return err
	}
	files, err := uploadSet(g, paths)
	if err != nil {
		return err
	}
	c, err := publishLint(g, files)
	if err != nil {
		return err
	}
	entries, err := manifestEntries(c, f)
	if err != nil {
		return err
	}
	if f.out != "" {
		if err := writeArtifacts(g, f, c.Files, entries); err != nil {
			return err
		}
	}
	var out bytes.Buffer
	for _, e := range entries {
		if err := manifestLine(&out, e); err != nil {
			return exitWith(exitInternal, err)
		}
	}
	return writeString(g.stdout, out.String())
}

// checkManifestFlags is manifest's validation step: --version must be a
// version SkillServer takes, --force needs --out, and --out must be a
// folder (or not exist yet).
func checkManifestFlags(f manifestFlags) error {
	if f.version != "" && !preview.ValidVersion(f.version) {
		return usageErrorf("--version %q is not 1-64 characters of A-Z a-z 0-9 . - +", f.version)
	}
	if f.force && f.out == "" {
		return usageErrorf("--force only applies with --out")
	}
	if f.out != "" {
		return checkOutFolder(f.out)
	}
	return nil
}

// publishLint lints files under the publish profile and prints the
// diagnostics on stderr; an error among them stops the publish.
func publishLint(g *globals, files []string) (*lint.Catalog, error) {
	c, err := lint.ScanPaths(files, lint.ScanOptions{Profile: lint.Publish, Environ: g.environ})
	if err != nil {
		return nil, exitWith(exitInternal, fmt.Errorf("read %s: %w", strings.Join(files, " "), err))
	}
	sum := c.Summary()
	if len(c.Diagnostics()) > 0 {
		if err := report.Text(g.stderr, c, report.Options{Color: g.Color(g.stderr)}); err != nil {
			return nil, exitWith(exitInternal, err)
		}
	}
	if sum.Errors > 0 {
		return nil, exitWith(exitFindings, fmt.Errorf("%s under the publish profile: nothing to publish until they are fixed", plural(sum.Errors, "error")))
	}
	return c, nil
}

// manifestEntries makes the manifest entry of each of c's files, with
// --version and --url-prefix. Every file's problem is reported at once:
// a file with no version at all is bad usage, other problems findings.
func manifestEntries(c *lint.Catalog, f manifestFlags) ([]preview.Entry, error) {
	entries := make([]preview.Entry, 0, len(c.Files))
	var problems []error
	for _, file := range c.Files {
		e, err := preview.ManifestEntry(file, f.version, f.urlPrefix)
		if err != nil {
			problems = append(problems, err)
			continue
		}
		entries = append(entries, e)
	}
	if err := errors.Join(problems...); err != nil {
		if slices.ContainsFunc(problems, func(e error) bool { return errors.Is(e, preview.ErrNoVersion) }) {
			return nil, exitWith(exitUsage, err)
		}
		return nil, exitWith(exitFindings, err)
	}
	return entries, nil
}

// manifestLine appends e to out as one line of JSON, escaped as every JSON
// agentdesk prints is (report.WriteJSON: no character a terminal acts on),
// then compacted: json.Compact keeps the escapes inside strings.
func manifestLine(out *bytes.Buffer, e preview.Entry) error {
	var doc bytes.Buffer
	if err := report.WriteJSON(&doc, e); err != nil {
		return fmt.Errorf("the manifest entry of %s: %w", termsafe.Escape(e.Name), err)
	}
	if err := json.Compact(out, doc.Bytes()); err != nil {
		return fmt.Errorf("compact the manifest entry of %s: %w", termsafe.Escape(e.Name), err)
	}
	out.WriteByte('\n')
	return nil
}

// uploadSet lists the files to publish: the home's agents folder without
// PATH; each folder's top-level *.md files (the runtime's own listing,
// without the server feeds); each file as it is. A missing path is bad
// usage.
func uploadSet(g *globals, paths []string) ([]string, error) {
	if len(paths) == 0 {
		h, err := g.Home()
		if err != nil {
			return nil, exitWith(exitUsage, err)
		}
		if !h.Exists() {
			return nil, usageErrorf("the NetClaw home %s does not exist: pass --home DIR, NETCLAW_HOME or the files to publish", h.Base)
		}
		paths = []string{h.Agents}
	}
	var files []string
	for _, p := range paths {
		more, err := uploadPath(p)
		if err != nil {
			return nil, err
		}
		files = append(files, more...)
	}
	return files, nil
}

// uploadPath lists the files to publish of one PATH: a folder's top-level
// *.md files (there must be some), else the file itself (a dangling link
// too: lint reports it). A path that is not there is bad usage.
func uploadPath(p string) ([]string, error) {
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(p); lerr != nil {
			return nil, usageErrorf("%s: no such file or folder", p)
		}
		return []string{p}, nil // a dangling link: lint reports it
	case err != nil:
		return nil, exitWith(exitInternal, err)
	case !fi.IsDir():
		return []string{p}, nil
	}
	more, err := topLevelMarkdown(p)
	if err != nil {
		return nil, exitWith(exitInternal, err)
	}
	if len(more) == 0 {
		return nil, exitWith(exitFindings, fmt.Errorf("%s holds no agent definition (*.md): nothing to publish", p))
	}
	return more, nil
}

// topLevelMarkdown lists dir's *.md entries that are not folders, in byte
// order of their names, as the runtime's loader does.
func topLevelMarkdown(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", dir, err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		if e.Type()&fs.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(dir, e.Name())); err == nil && fi.IsDir() {
				continue
			}
		}
		out = append(out, filepath.Join(dir, e.Name()))
	}
	slices.Sort(out)
	return out, nil
}

// writeArtifacts writes each published file at its URL path under --out,
// checking that the bytes are still the ones the digest was taken of.
func writeArtifacts(g *globals, f manifestFlags, files []*lint.File, entries []preview.Entry) error {
	tree := make([]adapt.TreeFile, len(entries))
	for i, e := range entries {
		data, err := os.ReadFile(files[i].Path)
		if err != nil {
			return exitWith(exitInternal, fmt.Errorf("read %s again to write it under %s: %w", files[i].Path, f.out, err))
		}
		if preview.DigestOf(data) != e.Digest {
			return exitWith(exitFindings, fmt.Errorf("%s changed while agentdesk read it: run manifest again", files[i].Path))
		}
		tree[i] = adapt.TreeFile{Path: preview.ArtifactPath(e.Name, e.Version), Data: data}
	}
	results, err := adapt.WriteTree(f.out, tree, f.force)
	if errors.Is(err, adapt.ErrRefused) {
		return exitWith(exitFindings, err)
	}
	if err != nil {
		return exitWith(exitInternal, err)
	}
	for _, r := range results {
		fmt.Fprintf(g.stderr, "%s %s\n", r.Action, termsafe.Escape(r.Path))
	}
	return nil
}
