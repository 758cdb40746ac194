// Package demo holds agentdesk's sample NetClaw home, embedded in the
// binary, for `agentdesk --demo`: loaded, rejected and feed agents and
// skills that route well and badly, so a new user can try every pane with
// nothing installed. Extract copies it to a folder of its own; the demo
// never touches a real home.
package demo

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/cassette"
)

//go:embed all:home
var files embed.FS

//go:embed cassettes/*.cassette
var cassettes embed.FS

// Cassette reads one of the embedded recorded runs by file name.
func Cassette(name string) (*cassette.Cassette, error) {
	f, err := cassettes.Open("cassettes/" + name)
	if err != nil {
		return nil, fmt.Errorf("demo cassette %s: %w", name, err)
	}
	defer f.Close()
	tape, err := cassette.Read(f)
	if err != nil {
		return nil, fmt.Errorf("demo cassette %s: %w", name, err)
	}
	return tape, nil
}

// Home returns the embedded sample home as a file system rooted at the
// home's base folder.
func Home() fs.FS {
	sub, err := fs.Sub(files, "home")
	if err != nil {
		panic(err) // the embedded tree always has a home folder
	}
	return sub
}

// Cassettes by model role: every agent of the demo runs against the
// recorded run of its role.
var roleCassettes = []struct{ role, provider, file, ends string }{
	{"Main", "replay-completed", "completed-with-tool.cassette", "Completed, after a file_read tool call"},
	{"Compaction", "replay-truncated", "output-truncated.cassette", "Failed, output_truncated"},
	{"Fallback", "replay-thinking", "thinking-only.cassette", "Failed, thinking_only_timeout"},
}

// agentCassettes are the demo's recorded runs of one agent each: in the
// browser, that agent's runs replay it on a model definition of its own
// (ModelFor), with their tool calls run for real in a copy of the demo
// project (runner.Spec.LiveTools).
var agentCassettes = []struct{ agent, provider, file, ends string }{
	{"fixer", "replay-fixer", "fix-an-issue.cassette", "Completed, after an MCP call, a file edit and a shell_execute (changes watch.md)"},
}

// ModelFor returns the Models.Definitions entry of the demo home (made
// by Setup) that replays the demo's recording of agent, or "" when the
// agent's model role picks its recording. The browser runs such an agent
// on that definition, its tool calls live (runner.Spec.LiveTools).
func ModelFor(agent string) string {
	for _, ac := range agentCassettes {
		if strings.EqualFold(ac.agent, agent) {
			return ac.provider
		}
	}
	return ""
}

// ProjectDir is the demo project of a home made by Setup (or Extract):
// the folder the demo's trial runs work on, in a copy.
func ProjectDir(h lint.Home) string {
	return filepath.Join(h.Base, "demo-project")
}

// trackerServers is the McpServers section of the demo's configuration:
// the tracker, served by agentdesk's own executable (TrackerEnv), so it
// needs nothing installed. On Linux the command is /proc/self/exe, which
// is whichever binary starts it (agentdesk, or a test binary): the same
// text wherever agentdesk is installed, so the suites' recordings, which
// fingerprint the command, replay everywhere.
func trackerServers() map[string]any {
	exe := "/proc/self/exe"
	if runtime.GOOS != "linux" {
		if self, err := os.Executable(); err == nil {
			exe = self
		}
	}
	return map[string]any{TrackerServer: map[string]any{
		"Command":              exe,
		"EnvironmentVariables": map[string]string{TrackerEnv: TrackerServer},
	}}
}

// MatrixModels are the Models.Definitions entries Setup adds for the
// demo's model matrix: deep-thinker's suite runs on both side by side
// (its models:), and every demo suite carries recordings for both, so
// `agentdesk test --demo --models qwen3-30b,llama3-8b` replays a matrix.
// Both name the Main provider: a sample with no recording replays the
// Main role's cassette, not another model.
var MatrixModels = []struct{ Name, ModelID string }{
	{"qwen3-30b", "qwen3:30b (recorded)"},
	{"llama3-8b", "llama3.1:8b (recorded)"},
}

// Recording is one of the embedded recorded runs, for `agentdesk run
// --replay demo:NAME`.
type Recording struct {
	// Name is the cassette's file name without .cassette.
	Name string
	// Ends says how the recorded run ended.
	Ends string
}

// Recordings lists the embedded recorded runs: those of the model roles
// (Main, Compaction, Fallback), then those of single agents.
func Recordings() []Recording {
	out := make([]Recording, 0, len(roleCassettes)+len(agentCassettes))
	for _, rc := range roleCassettes {
		out = append(out, Recording{Name: strings.TrimSuffix(rc.file, ".cassette"), Ends: rc.ends})
	}
	for _, ac := range agentCassettes {
		out = append(out, Recording{Name: strings.TrimSuffix(ac.file, ".cassette"), Ends: ac.ends})
	}
	return out
}

// Setup makes a demo in dir (new or empty): the sample home in
// dir/netclaw, the recorded runs in dir/cassettes, and a netclaw.json whose
// model roles are providers of type replay playing them (Main: a completed
// run with a tool call; Compaction: an output_truncated run; Fallback: a
// thinking_only_timeout), a definition for each agent with a recording
// of its own (ModelFor), the MatrixModels, the community feed in
// SkillFeeds, and the tracker MCP server (TrackerEnv). It returns the
// home.
func Setup(dir string) (lint.Home, error) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return lint.Home{}, fmt.Errorf("making the demo in %s: the folder is not empty; pick a new one", dir)
	}
	h, err := Extract(filepath.Join(dir, "netclaw"))
	if err != nil {
		return lint.Home{}, err
	}
	tapes := filepath.Join(dir, "cassettes")
	if err := os.MkdirAll(tapes, 0o755); err != nil {
		return lint.Home{}, fmt.Errorf("making the demo in %s: %w", dir, err)
	}
	providers := map[string]any{}
	defs := map[string]any{}
	roles := map[string]string{}
	replayer := func(provider, file string) error {
		data, err := cassettes.ReadFile("cassettes/" + file)
		if err != nil {
			return fmt.Errorf("demo cassette %s: %w", file, err)
		}
		path := filepath.Join(tapes, file)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return fmt.Errorf("making the demo in %s: %w", dir, err)
		}
		providers[provider] = map[string]string{"Type": "replay", "Endpoint": path}
		defs[provider] = map[string]string{"Provider": provider, "ModelId": "qwen3:30b (recorded)"}
		return nil
	}
	for _, rc := range roleCassettes {
		if err := replayer(rc.provider, rc.file); err != nil {
			return lint.Home{}, err
		}
		roles[rc.role] = rc.provider
	}
	for _, ac := range agentCassettes {
		if err := replayer(ac.provider, ac.file); err != nil {
			return lint.Home{}, err
		}
	}
	for _, m := range MatrixModels {
		defs[m.Name] = map[string]string{"Provider": roleCassettes[0].provider, "ModelId": m.ModelID}
	}
	cfg := map[string]any{
		"SubAgents": map[string]any{"Enabled": true, "PrefillTimeoutSeconds": 1800, "NoProgressTimeoutSeconds": 1200},
		"Session":   map[string]any{"FirstTokenTimeoutSeconds": 600},
		"Providers": providers,
		"Models":    map[string]any{"Definitions": defs, "Roles": roles},
		// The community feed is read, so its agents load (or are
		// rejected); the retired folder is named by no entry, to show
		// the not-loaded status.
		"SkillFeeds": map[string]any{"Feeds": []map[string]any{{"Name": "community", "Url": "https://skills.example.com"}}},
		"McpServers": trackerServers(),
	}
	data, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return lint.Home{}, err
	}
	if err := os.WriteFile(h.ConfigFile(), append(data, '\n'), 0o644); err != nil {
		return lint.Home{}, fmt.Errorf("making the demo in %s: %w", dir, err)
	}
	return h, nil
}

// Extract copies the sample home into dir, which must not exist yet or be
// empty, and returns its paths.
func Extract(dir string) (lint.Home, error) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: the folder is not empty; pick a new one", dir)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: %w", dir, err)
	}
	src := Home()
	err := fs.WalkDir(src, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(src, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return lint.Home{}, fmt.Errorf("extracting the demo home into %s: %w", dir, err)
	}
	return lint.NewHome(dir, ""), nil
}
