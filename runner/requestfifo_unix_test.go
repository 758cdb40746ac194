//go:build unix

package runner

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/agentdesk/agentdesk/runner/trialtest"
)

// An unreadable deployment playbook fails the spawn before anything is
// sent, as at the runtime.
func TestRequestPlaybookUnreadable(t *testing.T) {
	f := newFixture(t, trialtest.Protocols[0])
	if err := os.MkdirAll(filepath.Join(f.home.Base, "identity"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(f.home.Base, "identity", "AGENTS.md"), 0o644); err != nil {
		t.Skip(err)
	}
	s := f.spec("Go.", Limits{})
	s.NetClaw.Home = f.home.Base
	_, err := f.runner.Start(t.Context(), s)
	var se *SpecError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), "identity/AGENTS.md") || !strings.Contains(err.Error(), "the deployment playbook cannot be read") {
		t.Errorf("err = %v", err)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}
