package runner

import (
	"fmt"
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// ShellOffered reports whether a trial for audience offers shell_execute:
// Personal only, as at the runtime ("" counts as Personal).
func ShellOffered(audience string) bool {
	return audience == "" || strings.EqualFold(audience, "personal")
}

// openTrialTools opens the overlay of the spec's project, in a temporary
// folder the run owns (removed when the run ends; the run folder keeps
// changes.patch), and the tools on it: the file tools, shell_execute for
// Personal, and the spec's extra tools, gated by its --approve patterns
// and asker, answered first by its mocks.
func openTrialTools(s Spec) (*tools.Set, *overlay.Overlay, error) {
	tmp, err := os.MkdirTemp("", "agentdesk-overlay-")
	if err != nil {
		return nil, nil, fmt.Errorf("making the run's overlay folder: %w (check TMPDIR's free space)", err)
	}
	ov, err := overlay.New(s.Project, tmp)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, nil, err
	}
	ws := tools.NewWorkspace(ov)
	ts := ws.FileTools()
	if ShellOffered(s.Audience) {
		ts = append(ts, ws.ShellTool())
	}
	ts = append(ts, s.ExtraTools...)
	opts := []tools.Option{tools.WithGate(approve.NewGate(s.Approve, s.Asker))}
	if s.Mocks != nil {
		opts = append(opts, tools.WithMocks(s.Mocks))
	}
	set := tools.NewSet(ts, opts...)
	set.OnClose(func() error {
		err := ov.Close()
		if rerr := os.RemoveAll(tmp); err == nil {
			err = rerr
		}
		return err
	})
	return set, ov, nil
}
