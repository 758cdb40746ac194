package adapt

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// TestRoundTrip exports every source fixture to every importable target
// and imports it back: name, description, body, tools and model role (and
// the other NetClaw fields) come back as they were, or an export warning
// says what was lost.
func TestRoundTrip(t *testing.T) {
	for _, f := range sourceFiles(t) {
		d := f.Def
		for _, id := range TargetIDs(true) {
			tg, _ := Lookup(id)
			t.Run(id+"/"+filepath.Base(f.Path), func(t *testing.T) {
				e, err := tg.Export(d)
				if err != nil {
					t.Fatal(err)
				}
				im, err := tg.Import(e.File, e.Data)
				if err != nil {
					t.Fatalf("import of the export: %v\n%s", err, e.Data)
				}
				a := im.Agent
				warned := func(what string) bool {
					for _, w := range e.Warnings {
						if strings.Contains(w, what) {
							return true
						}
					}
					return false
				}
				if a.Name != d.Name {
					t.Errorf("name %q came back as %q", d.Name, a.Name)
				}
				if a.Description != d.Description {
					t.Errorf("description %q came back as %q", d.Description, a.Description)
				}
				if a.Body != d.Body {
					t.Errorf("body changed:\n--- before\n%q\n--- after\n%q", d.Body, a.Body)
				}
				if a.ModelRole != d.ModelRole {
					t.Errorf("modelRole %q came back as %q", d.ModelRole, a.ModelRole)
				}
				if !slices.Equal(a.Tools, d.Tools) {
					for _, tool := range d.Tools {
						if !slices.Contains(a.Tools, tool) && !warned("'"+tool+"'") {
							t.Errorf("tool %q was lost without a warning naming it (came back: %v; warnings %q)", tool, a.Tools, e.Warnings)
						}
					}
					for _, tool := range a.Tools {
						if !slices.Contains(d.Tools, tool) && !warned("'"+tool+"'") {
							t.Errorf("tool %q came back from nowhere (%v → %v)", tool, d.Tools, a.Tools)
						}
					}
				}
				if vis := map[bool]string{true: "", false: "internal"}[d.UserFacing()]; a.Visibility != vis {
					t.Errorf("visibility %q came back as %q", d.Visibility, a.Visibility)
				}
				if a.EmitStructuredFindings != d.EmitStructuredFindings || a.PrefillTimeoutSeconds != d.PrefillTimeoutSeconds || a.Version != d.Version {
					t.Errorf("emitStructuredFindings/prefillTimeoutSeconds/version %v/%d/%q came back as %v/%d/%q",
						d.EmitStructuredFindings, d.PrefillTimeoutSeconds, d.Version, a.EmitStructuredFindings, a.PrefillTimeoutSeconds, a.Version)
				}
				wantMeta := maps.Clone(d.Metadata)
				delete(wantMeta, "version")
				gotMeta := maps.Clone(a.Metadata)
				if len(wantMeta) == 0 {
					wantMeta = nil
				}
				if len(gotMeta) == 0 {
					gotMeta = nil
				}
				if !maps.Equal(wantMeta, gotMeta) {
					t.Errorf("metadata %v came back as %v", wantMeta, gotMeta)
				}
				if d.Set("timeoutSeconds") && !warned("timeoutSeconds") {
					t.Error("timeoutSeconds is dropped without a warning")
				}
			})
		}
	}
}

// TestImportExportImport imports every native fixture, exports the result
// back to the same target and imports that again: the NetClaw file must
// come out byte for byte the same, so what import kept under metadata is
// written back where the target expects it (testdata/reexport holds each
// export). A "lossy-" fixture holds what
// the tool itself no longer has (stale tool names): export leaves that out
// with a warning, so it is only imported.
func TestImportExportImport(t *testing.T) {
	for _, id := range TargetIDs(true) {
		tg, _ := Lookup(id)
		dir := filepath.Join("testdata", "import", id)
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range entries {
			name := de.Name()
			if filepath.Ext(name) != tg.Ext || strings.HasPrefix(name, "bad-") || strings.HasPrefix(name, "lossy-") {
				continue
			}
			t.Run(id+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				first, err := tg.Import(name, data)
				if err != nil {
					t.Fatal(err)
				}
				f := lint.Parse(first.File, first.Data, lint.Runtime)
				e, err := tg.Export(f.Def)
				if err != nil {
					t.Fatal(err)
				}
				// The export is a golden file too: it shows each kept field
				// written back as the tool's own key.
				checkGolden(t, filepath.Join("testdata", "reexport", id, e.File), e.Data)
				for _, w := range e.Warnings {
					if strings.Contains(w, "metadata "+id+".") {
						t.Errorf("metadata import kept for %s is not written back: %s", id, w)
					}
				}
				second, err := tg.Import(e.File, e.Data)
				if err != nil {
					t.Fatalf("import of the export: %v\n%s", err, e.Data)
				}
				if !bytes.Equal(first.Data, second.Data) {
					t.Errorf("second import differs:\n--- first\n%s\n--- second\n%s\n--- export\n%s", first.Data, second.Data, e.Data)
				}
			})
		}
	}
}
