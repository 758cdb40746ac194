package route

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/wire"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or writes it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs (go test -update rewrites it; review the diff):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestSuiteTextGolden(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	res := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})}
	var b bytes.Buffer
	if err := WriteText(&b, res, f.cat, f.home.Base, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	golden(t, "suite.txt", b.Bytes())
	f.srv.Close()
	off := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})}
	b.Reset()
	if err := WriteText(&b, off, f.cat, f.home.Base, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	golden(t, "suite-offline.txt", b.Bytes())
}
