//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/sandbox"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// TestRunSaysTheSandbox: run's stderr says what confines the run's
// commands: the sandbox, --no-sandbox, or why this machine cannot
// sandbox (a kernel that refuses user namespaces, simulated).
func TestRunSaysTheSandbox(t *testing.T) {
	bin := binary(t)
	cases := []struct {
		name string
		args []string
		env  string
		want string
	}{
		{"unsandboxed", []string{"--no-sandbox"}, "", "agentdesk: sandbox: none (--no-sandbox): commands run unsandboxed"},
		{"refused", nil, sandbox.SimulateEnv + "=userns", "agentdesk: sandbox: unavailable (the kernel refused an unprivileged user namespace"},
		{"network for one server", []string{"--allow-network-mcp", "nosuch"}, "", "--allow-network-mcp nosuch: netclaw.json's McpServers has no server of that name"},
	}
	if sandbox.Probe().Available() {
		cases = append(cases, struct {
			name string
			args []string
			env  string
			want string
		}{"sandboxed", []string{"--allow-network"}, "", "agentdesk: sandbox: namespaces+landlock (ABI "})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, env, _ := trialHome(t, wire.OpenAI)
			srv.Enqueue(modeltest.Reply("Done."))
			cmd := exec.Command(bin, append([]string{"run", "code-analyst", "--task", "x", "--project", toolProject(t)}, tc.args...)...)
			cmd.Env = append([]string{"PATH=" + os.Getenv("PATH")}, env...)
			if tc.env != "" {
				cmd.Env = append(cmd.Env, tc.env)
			}
			out, _ := cmd.CombinedOutput()
			if !strings.Contains(string(out), tc.want) {
				t.Errorf("output lacks %q:\n%s", tc.want, out)
			}
			if tc.name == "sandboxed" && !strings.Contains(string(out), "network on") {
				t.Errorf("--allow-network is not said:\n%s", out)
			}
		})
	}
}
