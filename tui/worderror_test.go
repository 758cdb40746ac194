package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
)

// TestWordErrorWordsWhatTheBrowserShows: an error of a lower layer is
// shown as Options.WordError words it (cmd adds the flag there), and as it
// is without one. (A taken case name and a Public route the browser words
// itself: TestKeepRunAsCase, TestLayerRoute.)
func TestWordErrorWordsWhatTheBrowserShows(t *testing.T) {
	tmp, base := copyHome(t, "home")
	taken := &runner.NoCassetteError{Path: "/r/stream.cassette", Err: fs.ErrNotExist}
	for _, tt := range []struct {
		word func(error) error
		want string
	}{
		{nil, "keep: " + taken.Error()},
		{func(err error) error { return fmt.Errorf("worded %w", err) }, "keep: worded " + taken.Error()},
	} {
		opts := homeOptions(tmp, lint.NewHome(base, ""))
		opts.WordError = tt.word
		tm := openModel(t, opts, 100, 30)
		tm.send(keptMsg{err: taken})
		if tm.flash.text != tt.want {
			t.Errorf("notice %q, want %q", tm.flash.text, tt.want)
		}
	}
	if e := (&env{}); e.worded(nil) != nil || !errors.Is(e.worded(taken), fs.ErrNotExist) {
		t.Error("worded without WordError changed the error")
	}
}
