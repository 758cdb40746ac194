package tui

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/eval/keepcase"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// TestKeepRunAsCase: K keeps the run shown as a case of the agent's
// suite, recorded from the run, and the case passes on replay.
func TestKeepRunAsCase(t *testing.T) {
	rh := newRunHome(t, 100, 30)
	rh.srv.Enqueue(modeltest.Reply("The port is 8080."))
	rv := rh.startRun("Which port?", "")
	rh.pumpUntil("the run ends", rv.ended)
	calls := len(rh.srv.Requests())
	rh.keys("K")
	path := filepath.Join(rh.base, "agents", "code-analyst.test.yaml")
	s := suitefile.Load(path)
	if len(s.Cases) == 0 || s.Cases[len(s.Cases)-1].Name != "Which port?" {
		t.Fatalf("the suite has no kept case: %+v %v", s.Cases, s.Diagnostics)
	}
	if scr := rh.screen(); !strings.Contains(scr, "kept as case") || !strings.Contains(scr, "pass on replay") {
		t.Errorf("no notice of the kept case:\n%s", scr)
	}
	if len(rh.srv.Requests()) != calls {
		t.Error("keeping the case called the model")
	}
	recs, _ := filepath.Glob(filepath.Join(rh.base, "agents", "code-analyst.test.recordings", "*.recording"))
	if len(recs) != 1 {
		t.Errorf("recordings: %v", recs)
	}
	// The same run again: the name is taken, and the suite is not touched.
	// The browser says its own way to mend it (E opens the suite), not the
	// command line's flag, which Options.WordError would add.
	rh.opts.WordError = flagWorder
	rh.keys("K")
	if scr := rh.screen(); !strings.Contains(scr, "already") {
		t.Errorf("a second keep of the same run:\n%s", scr)
	}
	want := "keep: " + path + `: "Which port?": a case of that name is in the suite already; rename that case in the suite (E opens it), then keep again`
	if rh.flash.text != want || rh.keptSuite != path {
		t.Errorf("notice %q (suite for E %q)\nwant %q", rh.flash.text, rh.keptSuite, want)
	}
}

// flagWorder stands for the command line's Options.WordError: it words
// the typed errors the browser words itself with a flag, when their text
// is still there.
func flagWorder(err error) error {
	if nt, ok := errors.AsType[*keepcase.NameTakenError](err); ok && strings.Contains(err.Error(), nt.Error()) {
		return errors.New("FLAG-WORDED: --case-name")
	}
	if errors.Is(err, preview.ErrPublic) && strings.Contains(err.Error(), preview.ErrPublic.Error()) {
		return errors.New("FLAG-WORDED: --audience")
	}
	return err
}
