//go:build unix

package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestUnreadableAgentFailsTheReload: NetClaw's loader catches only
// IOException; a file it may not read throws UnauthorizedAccessException,
// which fails the whole reload. The message says so; a file unreadable
// for another reason is only skipped.
func TestUnreadableAgentFailsTheReload(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root reads a file without read permission")
	}
	root := t.TempDir()
	hometest.Write(t, root, map[string]string{"agents/locked.md": agent("locked", "l"), "agents/fine.md": agent("fine", "f")})
	locked := filepath.Join(root, "agents", "locked.md")
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o644) })
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	var got *File
	for _, f := range c.Files {
		if f.Path == locked {
			got = f
		}
	}
	if got == nil || got.Status != Rejected || len(got.Diagnostics) != 1 {
		t.Fatalf("the locked file: %+v", got)
	}
	d := got.Diagnostics[0]
	for _, s := range []string{"permission denied", "fails the whole reload", "no agent loads"} {
		if !strings.Contains(d.Message, s) {
			t.Errorf("message %q lacks %q", d.Message, s)
		}
	}
	if d.Rule != RuleUnreadable || d.Severity != Error || !strings.Contains(d.Hint, "chmod") {
		t.Errorf("diagnostic %+v", d)
	}
	if !strings.Contains(got.Reason, "NetClaw's reload fails, and no agent loads") {
		t.Errorf("reason %q", got.Reason)
	}
}

// TestUnreadableMessages: the two kinds of read error as the scan passes
// them on (DescribeStatError), whoever runs the test.
func TestUnreadableMessages(t *testing.T) {
	denied := unreadable("/h/agents/a.md", Source{}, DescribeStatError(&os.PathError{Op: "open", Path: "/h/agents/a.md", Err: os.ErrPermission}), Runtime)
	if m := denied.Diagnostics[0].Message; !strings.Contains(m, "fails the whole reload: no agent loads") {
		t.Errorf("permission denied: %q", m)
	}
	other := unreadable("/h/agents/b.md", Source{}, DescribeStatError(&os.PathError{Op: "read", Path: "/h/agents/b.md", Err: os.ErrClosed}), Runtime)
	if m := other.Diagnostics[0].Message; !strings.Contains(m, "the runtime skips it") || strings.Contains(m, "reload") {
		t.Errorf("another error: %q", m)
	}
}
