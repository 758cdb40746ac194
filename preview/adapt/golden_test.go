package adapt

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/golden"
)

// checkGolden compares got with the file at path byte for byte, or rewrites
// it with -update. Review any -update diff against the mapping table in
// the README ("How fields map").
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	golden.Check(t, path, got)
}

// sourceFiles scans testdata/source as an agents folder.
func sourceFiles(t testing.TB) []*lint.File {
	t.Helper()
	c, err := lint.ScanPaths([]string{filepath.Join("testdata", "source")}, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Rejected()) > 0 {
		t.Fatalf("a source fixture is rejected: %s", c.Rejected()[0].Reason)
	}
	return c.Loaded()
}

// warningsText is the golden form of a list of warnings: one a line.
func warningsText(ws []string) []byte {
	if len(ws) == 0 {
		return []byte("(no warnings)\n")
	}
	return []byte(strings.Join(ws, "\n") + "\n")
}

func TestExportGolden(t *testing.T) {
	files := sourceFiles(t)
	for _, tg := range Targets() {
		t.Run(tg.ID, func(t *testing.T) {
			dir := filepath.Join("testdata", "golden", tg.ID)
			want := map[string]bool{}
			for _, f := range files {
				e, err := tg.Export(f.Def)
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				if filepath.Ext(e.File) != tg.Ext || !fileSafe(e.File) {
					t.Errorf("%s: output file %q", f.Path, e.File)
				}
				checkGolden(t, filepath.Join(dir, e.File), e.Data)
				checkGolden(t, filepath.Join(dir, e.File+".warnings"), warningsText(e.Warnings))
				want[e.File], want[e.File+".warnings"] = true, true
				checkNative(t, tg, e)
			}
			entries, _ := os.ReadDir(dir)
			for _, de := range entries {
				if !want[de.Name()] {
					t.Errorf("stale golden file %s: no fixture produces it (delete it)", filepath.Join(dir, de.Name()))
				}
			}
		})
	}
}

// checkNative parses an exported file the way its target reads it.
func checkNative(t *testing.T, tg Target, e *Exported) {
	t.Helper()
	switch tg.Ext {
	case ".md":
		doc, err := parseFrontmatter(e.Data)
		if err != nil {
			t.Errorf("%s: the frontmatter does not parse: %v", e.File, err)
			return
		}
		if tg.ID == "claude-code" || tg.ID == "gemini" {
			if f := fieldNamed(doc, "name"); f == nil || f.value.Value != e.Name {
				t.Errorf("%s: name field %v, want %q", e.File, f, e.Name)
			}
		}
	case ".toml":
		doc, err := parseTOML(e.Data)
		if err != nil {
			t.Errorf("%s: the TOML does not parse: %v", e.File, err)
			return
		}
		for _, en := range doc.entries {
			if en.key == "name" && en.value.str != e.Name {
				t.Errorf("%s: name %q, want %q", e.File, en.value.str, e.Name)
			}
		}
	case ".json":
		var cfg jitConfig
		dec := json.NewDecoder(bytes.NewReader(e.Data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil || cfg.Name != e.Name || cfg.Role == "" {
			t.Errorf("%s: the JSON config %+v does not decode: %v", e.File, cfg, err)
		}
	}
}

func fieldNamed(doc *frontmatterDoc, key string) *yamlField {
	for i := range doc.fields {
		if doc.fields[i].key == key {
			return &doc.fields[i]
		}
	}
	return nil
}

func TestImportGolden(t *testing.T) {
	for _, id := range TargetIDs(true) {
		tg, _ := Lookup(id)
		t.Run(id, func(t *testing.T) {
			dir := filepath.Join("testdata", "import", id)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			inputs := 0
			for _, de := range entries {
				name := de.Name()
				if filepath.Ext(name) != tg.Ext {
					continue
				}
				inputs++
				path := filepath.Join(dir, name)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				im, err := tg.Import(path, data)
				if strings.HasPrefix(name, "bad-") {
					if err == nil {
						t.Errorf("%s: imported, want an error", path)
						continue
					}
					checkGolden(t, path+".error", []byte(err.Error()+"\n"))
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", path, err)
					continue
				}
				checkGolden(t, path+".golden", im.Data)
				checkGolden(t, path+".warnings", warningsText(im.Warnings))
				f := lint.Parse(im.File, im.Data, lint.Runtime)
				if f.Status != lint.Loaded || f.Def.Name != im.Name {
					t.Errorf("%s: the imported file does not load as %q: %s", path, im.Name, f.Reason)
				}
			}
			if inputs < 2 {
				t.Errorf("only %d import fixtures for %s", inputs, id)
			}
		})
	}
}

func TestTargets(t *testing.T) {
	if got := TargetIDs(false); !slices.Equal(got, []string{"claude-code", "opencode", "gemini", "codex", "jit", "maxclaw"}) {
		t.Errorf("export targets %v", got)
	}
	if got := TargetIDs(true); !slices.Equal(got, []string{"claude-code", "opencode", "gemini", "codex"}) {
		t.Errorf("import targets %v", got)
	}
	if tg, ok := Lookup("Claude-Code"); !ok || tg.Dir != filepath.Join(".claude", "agents") {
		t.Errorf("Lookup is case-insensitive: %+v %v", tg, ok)
	}
	if _, ok := Lookup("cursor"); ok {
		t.Error("an unknown target must not resolve")
	}
	jit, _ := Lookup("jit")
	if _, err := jit.Import("x.json", []byte("{}")); err == nil || !strings.Contains(err.Error(), "cannot import") {
		t.Errorf("importing a JIT config: %v", err)
	}
	if _, err := jit.Export(nil); err == nil {
		t.Error("exporting nothing must fail")
	}
}
