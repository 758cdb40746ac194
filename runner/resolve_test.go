package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// loadConfig writes netclaw.json (and secrets.json when not empty) into a
// temp home and loads them as the runtime would.
func loadConfig(t *testing.T, netclaw, secrets string, environ ...string) *lint.Config {
	t.Helper()
	h := lint.NewHome(t.TempDir(), "")
	files := map[string]string{}
	if netclaw != "" {
		files["netclaw.json"] = netclaw
	}
	if secrets != "" {
		files["secrets.json"] = secrets
	}
	if err := os.MkdirAll(h.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.Write(t, h.ConfigDir, files)
	return lint.LoadConfig(h, environ)
}

func TestResolveModel(t *testing.T) {
	roles := `{
  "Models": {
    "Roles": {"Main": "big", "compaction": "small"},
    "Definitions": {
      "big": {"Provider": "Cloud", "ModelId": "claude-x"},
      "small": {"Provider": "local", "ModelId": "qwen3:8b"}
    }
  },
  "Providers": {
    "cloud": {"Type": "anthropic", "ApiKey": "from-netclaw-json"},
    "local": {"Type": "ollama", "Endpoint": "http://gpu:11434"}
  }
}`
	tests := []struct {
		name             string
		netclaw, secrets string
		environ          []string
		role             string
		want             runfolder.Model
		wantErr          string
		// wantAt is where the error says the configuration went wrong:
		// netclaw.json's line:column, or an environment variable.
		wantAt string
	}{
		{
			name: "no config: the built-in default",
			role: "Compaction",
			want: runfolder.Model{Role: "Compaction", Provider: "local-ollama", Type: "ollama", Endpoint: "http://localhost:11434", ModelID: "qwen3:30b", Protocol: wire.Ollama, Via: "built-in default (no model configured)"},
		},
		{
			name:    "roles and definitions, case-insensitive",
			netclaw: roles, role: "compaction",
			want: runfolder.Model{Role: "Compaction", Definition: "small", Provider: "local", Type: "ollama", Endpoint: "http://gpu:11434", ModelID: "qwen3:8b", Protocol: wire.Ollama, Via: "Models.Roles.Compaction"},
		},
		{
			name:    "Main with a key from secrets.json and the default Anthropic endpoint",
			netclaw: roles, secrets: `{"Providers": {"cloud": {"ApiKey": "from-secrets"}}}`, role: "Main",
			want: runfolder.Model{Role: "Main", Definition: "big", Provider: "cloud", Type: "anthropic", Endpoint: "https://api.anthropic.com", ModelID: "claude-x", APIKey: "from-secrets", Protocol: wire.Anthropic, Via: "Models.Roles.Main"},
		},
		{
			name:    "key from the environment wins",
			netclaw: roles, secrets: `{"Providers": {"cloud": {"ApiKey": "from-secrets"}}}`, environ: []string{"NETCLAW_Providers__cloud__ApiKey=from-env"}, role: "Main",
			want: runfolder.Model{Role: "Main", Definition: "big", Provider: "cloud", Type: "anthropic", Endpoint: "https://api.anthropic.com", ModelID: "claude-x", APIKey: "from-env", Protocol: wire.Anthropic, Via: "Models.Roles.Main"},
		},
		{
			name:    "Fallback falls back to Main",
			netclaw: roles, role: "Fallback",
			want: runfolder.Model{Role: "Fallback", Definition: "big", Provider: "cloud", Type: "anthropic", Endpoint: "https://api.anthropic.com", ModelID: "claude-x", APIKey: "from-netclaw-json", Protocol: wire.Anthropic, Via: "Models.Roles.Main (Fallback falls back to Main)"},
		},
		{
			name:    "an undefined numeric modelRole runs on Main, as every runtime chat-client provider maps it",
			netclaw: roles, role: "42",
			want: runfolder.Model{Role: "Main", Definition: "big", Provider: "cloud", Type: "anthropic", Endpoint: "https://api.anthropic.com", ModelID: "claude-x", APIKey: "from-netclaw-json", Protocol: wire.Anthropic, Via: "Models.Roles.Main (modelRole 42 is not a role: the runtime uses Main)"},
		},
		{
			name:    "a negative modelRole too, never Compaction",
			netclaw: roles, role: "-3",
			want: runfolder.Model{Role: "Main", Definition: "big", Provider: "cloud", Type: "anthropic", Endpoint: "https://api.anthropic.com", ModelID: "claude-x", APIKey: "from-netclaw-json", Protocol: wire.Anthropic, Via: "Models.Roles.Main (modelRole -3 is not a role: the runtime uses Main)"},
		},
		{
			name:    "older shape under Models.Main",
			netclaw: `{"Models": {"Main": {"Provider": "or", "ModelId": "meta/llama"}}, "Providers": {"or": {"Type": "openrouter"}}}`,
			role:    "Compaction",
			want:    runfolder.Model{Role: "Compaction", Provider: "or", Type: "openrouter", Endpoint: "https://openrouter.ai/api/v1", ModelID: "meta/llama", Protocol: wire.OpenAI, Via: "Models.Main (older shape) (Compaction falls back to Main)"},
		},
		{
			name:    "github-copilot is refused",
			netclaw: `{"Models": {"Main": {"Provider": "gh", "ModelId": "gpt"}}, "Providers": {"gh": {"Type": "github-copilot"}}}`,
			role:    "Main", wantErr: "github-copilot is not supported", wantAt: "netclaw.json:1:89",
		},
		{
			name:    "a role naming a missing definition",
			netclaw: `{"Models": {"Roles": {"Main": "nope"}}}`,
			role:    "Main", wantErr: `Models.Roles.Main names model definition "nope"`, wantAt: "netclaw.json:1:31",
		},
		{
			name:    "a role from the environment naming a missing definition",
			environ: []string{"NETCLAW_Models__Roles__Main=zz"},
			role:    "Main", wantErr: `Models.Roles.Main names model definition "zz"`, wantAt: "environment variable NETCLAW_Models__Roles__Main",
		},
		{
			name:    "a definition without a ModelId",
			netclaw: `{"Models": {"Roles": {"Main": "d"}, "Definitions": {"d": {"Provider": "x"}}}, "Providers": {"x": {"Type": "openai"}}}`,
			role:    "Main", wantErr: "has no ModelId", wantAt: "netclaw.json:1:71",
		},
		{
			name:    "a definition naming a missing provider",
			netclaw: `{"Models": {"Main": {"Provider": "ghost", "ModelId": "m"}}}`,
			role:    "Main", wantErr: `uses provider "ghost", which Providers does not have`, wantAt: "netclaw.json:1:34",
		},
		{
			name:    "openai-compatible without an endpoint",
			netclaw: `{"Models": {"Main": {"Provider": "x", "ModelId": "m"}}, "Providers": {"x": {"Type": "openai-compatible"}}}`,
			role:    "Main", wantErr: "has no Endpoint", wantAt: "netclaw.json:1:85",
		},
		{
			name:    "a bad role",
			role:    "Boss",
			wantErr: `model role "Boss" is not Main, Compaction or Fallback`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cfg *lint.Config
			if tt.netclaw != "" || tt.secrets != "" || tt.environ != nil {
				cfg = loadConfig(t, tt.netclaw, tt.secrets, tt.environ...)
			}
			got, err := ResolveModel(cfg, tt.role)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if tt.wantAt != "" && !strings.Contains(err.Error(), tt.wantAt+": ") {
					t.Errorf("error %v does not say where: %q", err, tt.wantAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestLimitsFor(t *testing.T) {
	cfg := loadConfig(t, `{"SubAgents": {"PrefillTimeoutSeconds": 100, "NoProgressTimeoutSeconds": 50, "MaxLlmCallSeconds": 900}, "Session": {"FirstTokenTimeoutSeconds": 30}}`, "")
	def := &lint.Definition{PrefillTimeoutSeconds: 7}
	l := LimitsFor(cfg, def)
	want := Limits{Prefill: 7e9, InterDelta: 30e9, NoProgress: 50e9}
	if l != want || l.ThinkingOnlyCap() != 150e9 {
		t.Errorf("got %+v (thinking-only %v)", l, l.ThinkingOnlyCap())
	}
	d := LimitsFor(nil, nil)
	if d != (Limits{Prefill: 1800e9, InterDelta: 600e9, NoProgress: 1200e9}) || d.ThinkingOnlyCap() != 3600e9 {
		t.Errorf("defaults: %+v", d)
	}
	o := d.Override(Limits{Prefill: 5e6})
	if o.Prefill != 5e6 || o.NoProgress != 1200e9 {
		t.Errorf("override: %+v", o)
	}
}

func TestDefaultRunsDir(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if d, _ := runfolder.DefaultRunsDir(env(map[string]string{"XDG_STATE_HOME": "/s", "HOME": "/h"})); d != filepath.FromSlash("/s/agentdesk/runs") {
		t.Errorf("XDG: %s", d)
	}
	if d, _ := runfolder.DefaultRunsDir(env(map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/h"})); d != filepath.FromSlash("/h/.local/state/agentdesk/runs") {
		t.Errorf("relative XDG is ignored, as the spec says: %s", d)
	}
}

func TestNewRunID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := runfolder.NewRunID()
		if !runfolder.ValidRunID(id) || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
}
