package main

import (
	"strings"
	"testing"
)

// TestUsageLinesMatchTheReadme: each command's usage line says what the
// README's command list says.
func TestUsageLinesMatchTheReadme(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "--help"}, "agentdesk import --from TOOL PATH..."},
		{[]string{"export", "--help"}, "agentdesk export --to TARGET [AGENT...]"},
	} {
		code, stdout, stderr := run(t, nil, tc.args...)
		if code != 0 || !strings.Contains(stdout, "Usage:\n  "+tc.want) {
			t.Errorf("%v: exit %d, want usage %q in\n%s%s", tc.args, code, tc.want, stdout, stderr)
		}
	}
}
