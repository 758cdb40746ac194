package adapt

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// imported converts a small Claude Code file.
func imported(t *testing.T, name, body string) *Imported {
	t.Helper()
	tg, _ := Lookup("claude-code")
	im, err := tg.Import(name+".md", []byte("---\nname: "+name+"\ndescription: The "+name+" agent.\n---\n"+body+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return im
}

func TestInstall(t *testing.T) {
	agents := filepath.Join(t.TempDir(), "agents")
	out, err := Install(agents, []*Imported{imported(t, "alpha", "A."), imported(t, "beta", "B.")}, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || out[0].Replaced || out[0].Path != filepath.Join(agents, "alpha.md") {
		t.Fatalf("installed %+v", out)
	}
	if got := read(t, out[1].Path); !strings.Contains(got, "name: beta") {
		t.Errorf("beta.md:\n%s", got)
	}

	// Exclusive create: a second import of alpha is refused, beta is not
	// written either.
	_, err = Install(agents, []*Imported{imported(t, "alpha", "A2."), imported(t, "gamma", "G.")}, false)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "alpha.md already exists (set force") {
		t.Fatalf("error %v", err)
	}
	if re, ok := errors.AsType[*ImportRefusedError](err); !ok || re.Dir != agents || len(re.Problems) != 1 || re.Problems[0].Exists != filepath.Join(agents, "alpha.md") ||
		re.Message("X-FIX") != "refused to import into "+agents+":\n  "+filepath.Join(agents, "alpha.md")+" already exists (X-FIX)\nnothing was written" {
		t.Fatalf("error %#v, want an *ImportRefusedError naming alpha.md", err)
	}
	if _, err := os.Stat(filepath.Join(agents, "gamma.md")); err == nil {
		t.Error("gamma.md was written although the import was refused")
	}
	if strings.Contains(read(t, filepath.Join(agents, "alpha.md")), "A2.") {
		t.Error("alpha.md was replaced without --force")
	}

	out, err = Install(agents, []*Imported{imported(t, "alpha", "A2.")}, true)
	if err != nil || !out[0].Replaced || !strings.Contains(read(t, out[0].Path), "A2.") {
		t.Fatalf("--force: %+v %v", out, err)
	}
}

func TestInstallRefusesTakenNames(t *testing.T) {
	base := t.TempDir()
	agents := filepath.Join(base, "agents")
	write2 := func(rel, text string) {
		path := filepath.Join(agents, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		hometest.WriteFile(t, path, text)
	}
	write2("legacy-file.md", "---\nname: Alpha\ndescription: Declared under another file name.\n---\nOld.\n")
	write2(".server-feeds/acme/beta.md", "---\nname: beta\ndescription: From a feed.\n---\nFeed.\n")

	_, err := Install(agents, []*Imported{imported(t, "alpha", "A.")}, true)
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "legacy-file.md already declares the name 'alpha'") {
		t.Errorf("a name taken by another file: %v", err)
	}
	out, err := Install(agents, []*Imported{imported(t, "beta", "B.")}, false)
	if err != nil || len(out[0].Notes) != 1 || !strings.Contains(out[0].Notes[0], "feed 'acme'") {
		t.Errorf("shadowing a feed agent: %+v %v", out, err)
	}
	_, err = Install(agents, []*Imported{imported(t, "gamma", "1."), imported(t, "gamma", "2.")}, false)
	if err == nil || !strings.Contains(err.Error(), "both import as 'gamma'") {
		t.Errorf("two imports with one name: %v", err)
	}
}
