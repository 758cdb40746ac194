package main

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview/request"
)

// tokenCount matches "12 tokens" in a header line.
var tokenCount = regexp.MustCompile(`\b[0-9]+ tokens?\b`)

// spawnHome is a home with a playbook, and a project with instructions,
// outside any git repository.
func spawnHome(t *testing.T) (home, project, state string) {
	t.Helper()
	home = previewHome(t, map[string]string{"identity/AGENTS.md": "Review every release note twice.\n"})
	project = t.TempDir()
	hometest.WriteFile(t, filepath.Join(project, "CLAUDE.md"), "Project rules: keep answers short.\n")
	return home, project, t.TempDir()
}

// TestPreviewSpawnGolden: every part with its source and tokens, the first
// message, the tools with their schemas, where the core came from.
func TestPreviewSpawnGolden(t *testing.T) {
	home, project, state := spawnHome(t)
	env := []string{"XDG_STATE_HOME=" + state, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(project)}
	nc := fixtureNetClaw(t)
	code, stdout, stderr := run(t, env, "preview", "--home", home, "--spawn", "code-analyst", "--task", "Draft the notes",
		"--context", "Release 2.1", "--project", project, "--skill", "notes", "--audience", "team", "--netclaw-dir", nc)
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	r := strings.NewReplacer(home, "{{HOME}}", project, "{{PROJECT}}", state, "{{STATE}}", nc, "{{NETCLAW}}")
	// Token counts of parts that hold a temp path vary with its length.
	out := tokenCount.ReplaceAllString(r.Replace(stdout), "N tokens")
	checkGolden(t, "preview-spawn.golden", out)
}

func TestPreviewSpawnJSON(t *testing.T) {
	home, project, state := spawnHome(t)
	env := []string{"XDG_STATE_HOME=" + state, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(project)}
	code, stdout, stderr := run(t, env, "preview", "--home", home, "--spawn", "code-analyst", "--task", "T",
		"--project", project, "--netclaw-dir", fixtureNetClaw(t), "--format", "json")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	var doc spawnJSON
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("not the documented JSON: %v\n%s", err, stdout)
	}
	var names, texts []string
	for _, p := range doc.Parts {
		names = append(names, p.Part)
		texts = append(texts, p.Text)
	}
	if got := strings.Join(names, ","); got != "operating-rules,deployment-playbook,project-instructions,body,tool-index,execution-contract" {
		t.Errorf("parts %s", got)
	}
	if strings.Join(texts, "\n\n") != doc.System || !strings.HasSuffix(doc.System, request.ContractLastSentence) {
		t.Error("the parts do not make the system prompt")
	}
	if doc.Core == nil || !strings.HasSuffix(doc.Core.Source, "Netclaw.Configuration.dll (Netclaw.Configuration.Resources.AGENTS.md)") || doc.Core.Version == "" || len(doc.Missing) != 0 {
		t.Errorf("core %+v missing %+v", doc.Core, doc.Missing)
	}
	if len(doc.Tools) == 0 || doc.Index == "" || !json.Valid(doc.Tools[0].Parameters) {
		t.Errorf("tools %d, index %q", len(doc.Tools), doc.Index)
	}
	if !strings.Contains(doc.FirstMessage, "session_dir: "+filepath.Join(state, "agentdesk", "runs", "<run-id>", "session", "workspace")) {
		t.Errorf("first message %q", doc.FirstMessage)
	}
}

// Without an install, --spawn says the operating rules are missing; a
// --netclaw-dir that holds none is refused.
func TestPreviewSpawnWithoutNetClaw(t *testing.T) {
	home, project, state := spawnHome(t)
	env := []string{"XDG_STATE_HOME=" + state, "HOME=" + t.TempDir()}
	code, stdout, stderr := run(t, env, "preview", "--home", home, "--spawn", "code-analyst", "--project", project)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "MISSING operating-rules: NetClaw installation not found") || strings.Contains(stdout, "-------- operating-rules") {
		t.Errorf("stdout:\n%s", stdout)
	}
	// The reason names --netclaw-dir already: the line says it once.
	if line := lineWith(stdout, "MISSING operating-rules"); strings.Count(line, "--netclaw-dir") != 1 {
		t.Errorf("the MISSING line names --netclaw-dir %d times: %q", strings.Count(line, "--netclaw-dir"), line)
	}
	code, _, stderr = run(t, env, "preview", "--home", home, "--agent", "code-analyst", "--project", project)
	if line := lineWith(stderr, "operating-rules missing"); code != 0 || strings.Count(line, "--netclaw-dir") != 1 {
		t.Errorf("preview --agent: exit %d, the warning names --netclaw-dir %d times: %q", code, strings.Count(line, "--netclaw-dir"), stderr)
	}
	empty := t.TempDir()
	code, _, stderr = run(t, env, "preview", "--home", home, "--spawn", "code-analyst", "--netclaw-dir", empty)
	if code != 2 || !strings.Contains(stderr, "--netclaw-dir "+empty) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = run(t, env, "preview", "--home", home, "--spawn", "code-analyst", "--agent", "code-analyst")
	if code != 2 || !strings.Contains(stderr, "--spawn and --agent cannot be used together") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestPreviewSpawnSaysWhenNetClawWouldNotSpawn: a Public session cannot
// spawn a sub-agent, nor any session with SubAgents.Enabled false, and
// `agentdesk run` refuses such a trial; preview --spawn still prints what
// it composed but says, on stderr, that no spawn would happen.
func TestPreviewSpawnSaysWhenNetClawWouldNotSpawn(t *testing.T) {
	home, project, state := spawnHome(t)
	off := previewHome(t, map[string]string{"config/netclaw.json": `{"SubAgents": {"Enabled": false}}`})
	env := []string{"XDG_STATE_HOME=" + state, "GIT_CEILING_DIRECTORIES=" + filepath.Dir(project)}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"public", []string{"--home", home, "--audience", "public"}, request.PublicCannotSpawn},
		{"public json", []string{"--home", home, "--audience", "public", "--format", "json"}, request.PublicCannotSpawn},
		{"sub-agents off", []string{"--home", off}, request.SubAgentsDisabled},
	} {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"preview", "--spawn", "code-analyst", "--task", "t", "--project", project}, tt.args...)
			code, _, stderr := run(t, env, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, "agentdesk run refuses") {
				t.Errorf("stderr does not say NetClaw would not spawn it (%q):\n%s", tt.want, stderr)
			}
		})
	}
	// A Personal spawn with sub-agents on says nothing of the kind.
	_, _, stderr := run(t, env, "preview", "--spawn", "code-analyst", "--task", "t", "--project", project, "--home", home, "--netclaw-dir", fixtureNetClaw(t))
	if strings.Contains(stderr, "refuses") {
		t.Errorf("a Personal spawn warns: %s", stderr)
	}
}

// lineWith is the first line of s that holds sub ("" if none).
func lineWith(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
