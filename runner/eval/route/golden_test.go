package route

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// golden compares got with testdata/name, or writes it with -update.
func matchGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, got)
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
	matchGolden(t, "suite.txt", b.Bytes())
	f.srv.Close()
	off := []*SuiteResult{f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})}
	b.Reset()
	if err := WriteText(&b, off, f.cat, f.home.Base, 1500*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "suite-offline.txt", b.Bytes())
}
