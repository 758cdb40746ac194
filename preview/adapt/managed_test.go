package adapt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// agentDef parses a definition from text, failing the test when the
// runtime rejects it.
func agentDef(t testing.TB, name, body string) *lint.File {
	t.Helper()
	text := fmt.Sprintf("---\nname: %s\ndescription: The %s agent.\n---\n%s\n", name, name, body)
	f := lint.Parse("/home/u/.netclaw/agents/"+name+".md", []byte(text), lint.Runtime)
	if f.Status != lint.Loaded {
		t.Fatalf("%s: %s", name, f.Reason)
	}
	return f
}

// exportRun exports files to dir for target id, as agentdesk export does:
// every given agent is a live source.
func exportRun(t *testing.T, dir, id string, files ...*lint.File) (*Plan, error) {
	t.Helper()
	tg, _ := Lookup(id)
	d, err := OpenDestination(dir, tg)
	if err != nil {
		return nil, err
	}
	var sources []Source
	live := map[string]bool{}
	for _, f := range files {
		e, err := tg.Export(f.Def)
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, Source{Name: f.Def.Name, Path: f.Path, SHA256: f.SHA256, Out: e})
		live[f.Def.Name] = true
	}
	p, err := d.Plan(sources, func(e StateEntry) bool { return live[e.SourceName] })
	if err != nil {
		return nil, err
	}
	return p, p.Apply()
}

// actions summarises a plan as "action file" lines.
func actions(p *Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, string(c.Action)+" "+filepath.Base(c.Path))
	}
	slices.Sort(out)
	return out
}

// dirState records every file in dir with its bytes and modification time.
func dirState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			t.Fatal(err)
		}
		data, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out[e.Name()] = fmt.Sprintf("%s|%s", info.ModTime().Format(time.RFC3339Nano), data)
	}
	return out
}

func TestManagedDestinationLifecycle(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".claude", "agents")
	a, b := agentDef(t, "alpha", "You are alpha."), agentDef(t, "beta", "You are beta.")

	p, err := exportRun(t, dir, "claude-code", a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(p); !slices.Equal(got, []string{"create alpha.md", "create beta.md"}) {
		t.Errorf("first run %v", got)
	}
	handWritten := filepath.Join(dir, "mine.md")
	if err := os.WriteFile(handWritten, []byte("---\nname: mine\n---\nMine.\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	before := dirState(t, dir)
	p, err = exportRun(t, dir, "claude-code", a, b)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(p); !slices.Equal(got, []string{"unchanged alpha.md", "unchanged beta.md"}) {
		t.Errorf("rerun %v", got)
	}
	if after := dirState(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("an unchanged rerun touched files:\nbefore %v\nafter  %v", before, after)
	}

	a2 := agentDef(t, "alpha", "You are alpha, version two.")
	p, err = exportRun(t, dir, "claude-code", a2)
	if err != nil {
		t.Fatal(err)
	}
	// beta is not exported and its source is gone: pruned. mine.md is not ours.
	if got := actions(p); !slices.Equal(got, []string{"prune beta.md", "update alpha.md"}) {
		t.Errorf("update run %v", got)
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "alpha.md")); !strings.Contains(string(data), "version two") {
		t.Errorf("alpha.md was not updated:\n%s", data)
	}
	if _, err := os.Stat(filepath.Join(dir, "beta.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("beta.md was not pruned: %v", err)
	}
	if data, err := os.ReadFile(handWritten); err != nil || !strings.Contains(string(data), "Mine.") {
		t.Errorf("the hand-written file was touched: %v", err)
	}

	var st stateDoc
	data, err := os.ReadFile(filepath.Join(dir, StateFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if st.Tool != "agentdesk" || st.Target != "claude-code" || len(st.Files) != 1 {
		t.Fatalf("state %+v", st)
	}
	e := st.Files[0]
	out, _ := os.ReadFile(filepath.Join(dir, "alpha.md"))
	if e.Output != "alpha.md" || e.SourceName != "alpha" || e.SourcePath != a2.Path || e.SourceSHA256 != a2.SHA256 || e.OutputSHA256 != sha256Hex(out) {
		t.Errorf("state entry %+v", e)
	}
}

func TestManagedDestinationNeverTouchesOthersFiles(t *testing.T) {
	a := agentDef(t, "alpha", "You are alpha.")
	tests := []struct {
		name string
		// setup prepares dir after an optional first export of alpha.
		firstExport bool
		setup       func(t *testing.T, dir string)
		// sources of the second run (nil: none).
		sources []*lint.File
		want    string
	}{
		{name: "hand-written file in the way", setup: func(t *testing.T, dir string) {
			hometest.WriteFile(t, filepath.Join(dir, "alpha.md"), "my own alpha\n")
		}, sources: []*lint.File{a}, want: "was not written by agentdesk"},
		{name: "edited since export", firstExport: true, setup: func(t *testing.T, dir string) {
			hometest.WriteFile(t, filepath.Join(dir, "alpha.md"), "edited by hand\n")
		}, sources: []*lint.File{agentDef(t, "alpha", "new body")}, want: "was edited since agentdesk wrote it"},
		{name: "edited, source gone", firstExport: true, setup: func(t *testing.T, dir string) {
			hometest.WriteFile(t, filepath.Join(dir, "alpha.md"), "edited by hand\n")
		}, want: "was edited since agentdesk wrote it (its source 'alpha' is gone, so agentdesk would delete it)"},
		{name: "replaced by a link", firstExport: true, setup: func(t *testing.T, dir string) {
			path := filepath.Join(dir, "alpha.md")
			os.Remove(path)
			if err := os.Symlink("elsewhere.md", path); err != nil {
				t.Skip(err)
			}
		}, want: "is no longer the file agentdesk wrote"},
		{name: "state for another target", firstExport: true, setup: func(t *testing.T, dir string) {
			st := strings.Replace(read(t, filepath.Join(dir, StateFile)), `"claude-code"`, `"opencode"`, 1)
			hometest.WriteFile(t, filepath.Join(dir, StateFile), st)
		}, sources: []*lint.File{a}, want: "holds opencode exports"},
		{name: "state escapes the folder", firstExport: true, setup: func(t *testing.T, dir string) {
			hometest.WriteFile(t, filepath.Join(filepath.Dir(dir), "victim.md"), "precious\n")
			st := strings.Replace(read(t, filepath.Join(dir, StateFile)), `"alpha.md"`, `"../victim.md"`, 1)
			hometest.WriteFile(t, filepath.Join(dir, StateFile), st)
		}, want: "is not a file name in"},
		{name: "state does not parse", firstExport: true, setup: func(t *testing.T, dir string) {
			hometest.WriteFile(t, filepath.Join(dir, StateFile), "{")
		}, want: "does not parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.firstExport {
				if _, err := exportRun(t, dir, "claude-code", a); err != nil {
					t.Fatal(err)
				}
			}
			tt.setup(t, dir)
			before, parent := dirState(t, dir), dirState(t, filepath.Dir(dir))
			_, err := exportRun(t, dir, "claude-code", tt.sources...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
			if after := dirState(t, dir); fmt.Sprint(after) != fmt.Sprint(before) {
				t.Errorf("a refused run changed the folder:\nbefore %v\nafter  %v", before, after)
			}
			if after := dirState(t, filepath.Dir(dir)); fmt.Sprint(after) != fmt.Sprint(parent) {
				t.Errorf("a refused run changed the parent folder")
			}
		})
	}
}

func TestManagedDestinationRefusesEveryProblemAtOnce(t *testing.T) {
	dir := t.TempDir()
	hometest.WriteFile(t, filepath.Join(dir, "alpha.md"), "mine\n")
	hometest.WriteFile(t, filepath.Join(dir, "beta.md"), "mine too\n")
	_, err := exportRun(t, dir, "claude-code", agentDef(t, "alpha", "A."), agentDef(t, "beta", "B."), agentDef(t, "gamma", "C."))
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("error %v does not wrap ErrRefused", err)
	}
	for _, want := range []string{"alpha.md was not written", "beta.md was not written", "nothing was written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "gamma.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("gamma.md was written although the run was refused")
	}
}

func TestManagedDestinationNameClash(t *testing.T) {
	// Both become code-analyst in Codex.
	_, err := exportRun(t, t.TempDir(), "codex", agentDef(t, "code-analyst", "A."), agentDef(t, "Code-Analyst", "B."))
	if err == nil || !strings.Contains(err.Error(), "both become code-analyst.toml") {
		t.Errorf("error %v", err)
	}
}

func TestManagedDestinationKeepsLiveUnselectedFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := agentDef(t, "alpha", "A."), agentDef(t, "beta", "B.")
	if _, err := exportRun(t, dir, "gemini", a, b); err != nil {
		t.Fatal(err)
	}
	tg, _ := Lookup("gemini")
	d, err := OpenDestination(dir, tg)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := tg.Export(a.Def)
	// Only alpha is exported, but beta still exists: it stays.
	p, err := d.Plan([]Source{{Name: "alpha", Path: a.Path, SHA256: a.SHA256, Out: e}}, func(e StateEntry) bool { return e.SourceName == "alpha" || e.SourceName == "beta" })
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if got := actions(p); !slices.Equal(got, []string{"unchanged alpha.md"}) {
		t.Errorf("plan %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "beta.md")); err != nil {
		t.Errorf("beta.md was removed: %v", err)
	}
	if len(d.Entries()) != 2 {
		t.Errorf("entries %v", d.Entries())
	}
}

func TestManagedDestinationForgetsDeletedFiles(t *testing.T) {
	dir := t.TempDir()
	if _, err := exportRun(t, dir, "opencode", agentDef(t, "alpha", "A.")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(dir, "alpha.md"))
	p, err := exportRun(t, dir, "opencode")
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(p); !slices.Equal(got, []string{"forget alpha.md"}) {
		t.Errorf("plan %v", got)
	}
	if st := read(t, filepath.Join(dir, StateFile)); strings.Contains(st, "alpha") {
		t.Errorf("the state still records alpha:\n%s", st)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestWriteTree(t *testing.T) {
	dir := t.TempDir()
	files := []TreeFile{{Path: "subagents/a/1.0.0/agent.md", Data: []byte("A")}, {Path: "subagents/b/1.0.0/agent.md", Data: []byte("B")}}
	res, err := WriteTree(dir, files, false)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Action != "created" || read(t, filepath.Join(dir, "subagents", "a", "1.0.0", "agent.md")) != "A" {
		t.Errorf("results %+v", res)
	}
	if res, err = WriteTree(dir, files, false); err != nil || res[1].Action != "unchanged" {
		t.Errorf("same bytes again: %+v %v", res, err)
	}
	changed := []TreeFile{files[0], {Path: files[1].Path, Data: []byte("B2")}, {Path: "subagents/c/1.0.0/agent.md", Data: []byte("C")}}
	_, err = WriteTree(dir, changed, false)
	if de, ok := errors.AsType[*DifferError](err); !ok || !errors.Is(err, ErrRefused) || len(de.Paths) != 1 || de.Paths[0] != filepath.Join(dir, "subagents", "b", "1.0.0", "agent.md") ||
		de.Message("X-FIX") != "refused: "+de.Paths[0]+" exists with different bytes (nothing was written; X-FIX)" {
		t.Errorf("different bytes without force: %#v", err)
	}
	if read(t, filepath.Join(dir, "subagents", "b", "1.0.0", "agent.md")) != "B" {
		t.Error("a refused tree write replaced a file")
	}
	if _, err := os.Stat(filepath.Join(dir, "subagents", "c")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a refused tree write created a file")
	}
	if res, err = WriteTree(dir, changed, true); err != nil || res[1].Action != "replaced" || res[2].Action != "created" {
		t.Errorf("with force: %+v %v", res, err)
	}
	if _, err := WriteTree(dir, []TreeFile{{Path: "../escape", Data: nil}}, true); err == nil {
		t.Error("a path outside the folder must be refused")
	}
}

func TestLiveSources(t *testing.T) {
	agents := t.TempDir()
	hometest.WriteFile(t, filepath.Join(agents, "alpha.md"), "---\nname: alpha\ndescription: Loads.\n---\nA.\n")
	hometest.WriteFile(t, filepath.Join(agents, "beta.md"), "---\nname: beta\ndescription: Broken mid-edit.\nvisibility: hidden\n---\nB.\n")
	hometest.WriteFile(t, filepath.Join(agents, "gamma.md"), "---\nname: delta\ndescription: Renamed in its own file.\n---\nG.\n")
	c, err := lint.ScanPaths([]string{agents}, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	live := LiveSources(c)
	for _, tt := range []struct {
		name, file string
		live       bool
	}{
		{"alpha", "alpha.md", true},
		{"ALPHA", "elsewhere.md", true}, // names compare case-insensitively, as the runtime's do
		{"beta", "beta.md", true},       // rejected now, but its file is there
		{"gamma", "gamma.md", false},    // the file loads as another agent
		{"epsilon", "epsilon.md", false},
	} {
		e := StateEntry{SourceName: tt.name, SourcePath: filepath.Join(agents, tt.file)}
		if got := live(e); got != tt.live {
			t.Errorf("%s (%s): live %v, want %v", tt.name, tt.file, got, tt.live)
		}
	}
}

// TestManagedDestinationMovedFile: a source whose file name changed (Codex
// files had underscores before agentdesk kept hyphens) has its old file
// pruned, so the tool does not load the agent twice.
func TestManagedDestinationMovedFile(t *testing.T) {
	dir := t.TempDir()
	a := agentDef(t, "code-analyst", "A.")
	tg, _ := Lookup("codex")
	d, err := OpenDestination(dir, tg)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := tg.Export(a.Def)
	old := *e
	old.File = "code_analyst.toml"
	p, err := d.Plan([]Source{{Name: "code-analyst", Path: a.Path, SHA256: a.SHA256, Out: &old}}, func(StateEntry) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	p, err = exportRun(t, dir, "codex", a)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(p); !slices.Equal(got, []string{"create code-analyst.toml", "prune code_analyst.toml"}) {
		t.Errorf("plan %v", got)
	}
	for _, c := range p.Changes {
		if c.Action == Prune && c.Moved != "code-analyst.toml" {
			t.Errorf("Moved %q", c.Moved)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "code_analyst.toml")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the old file stays: %v", err)
	}
}
