package route

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/modeltest"
	"github.com/agentdesk/agentdesk/runner/trialtest"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// wireMessages returns the system texts and the user messages of a
// request body, in order, as each protocol carries them.
func wireMessages(t *testing.T, p wire.Protocol, body []byte) (systems, users []string, tools []string) {
	t.Helper()
	var b struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatalf("%s body: %v", p, err)
	}
	text := func(raw json.RawMessage) string {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		var blocks []struct{ Type, Text string }
		if err := json.Unmarshal(raw, &blocks); err != nil {
			t.Fatalf("content %s", raw)
		}
		var parts []string
		for _, bl := range blocks {
			parts = append(parts, bl.Text)
		}
		return strings.Join(parts, "")
	}
	if p == wire.Anthropic {
		var blocks []struct{ Text string }
		if err := json.Unmarshal(b.System, &blocks); err != nil {
			t.Fatalf("anthropic system %s", b.System)
		}
		for _, bl := range blocks {
			systems = append(systems, bl.Text)
		}
	}
	for _, m := range b.Messages {
		switch m.Role {
		case "system":
			systems = append(systems, text(m.Content))
		case "user":
			users = append(users, text(m.Content))
		}
	}
	for _, tl := range b.Tools {
		name := tl.Name
		if name == "" {
			name = tl.Function.Name
		}
		tools = append(tools, name)
	}
	return systems, users, tools
}

// netclawQuestion is the fixture's question composed as NetClaw's main
// session at a fixed instant, with a skill and a project.
func (f *fixture) netclawQuestion(t *testing.T, text string, now time.Time) (Question, string) {
	t.Helper()
	project := t.TempDir()
	hometest.WriteFile(t, filepath.Join(project, "CLAUDE.md"), "Project rules: be brief.\n")
	q := f.question(text, preview.Personal)
	q.Now = now
	nc := runner.NetClaw{Home: f.home.Base, Core: &request.Core{Text: "# Operating Rules\nBe grounded.\n", Source: "test core"},
		Git: &request.GitState{Kind: request.GitNotRepository}}
	if err := AsNetClaw(&q, nc, project); err != nil {
		t.Fatal(err)
	}
	return q, project
}

// With a NetClaw install the frontline reads, on every protocol, the
// main session's prompt, then its static context layers as one system
// message, then the per-turn "[system: ...]" block as a user message just
// before the request; its tools are the core tier and spawn_agent.
func TestRequestSentAsNetClaw(t *testing.T) {
	now := time.Date(2026, 12, 2, 5, 48, 54, 0, time.UTC)
	for _, p := range trialtest.Protocols {
		t.Run(p.String(), func(t *testing.T) {
			f := newFixture(t, p, "")
			hometest.WriteFile(t, filepath.Join(f.home.Skills, "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Keep the changelog.\n---\nBody.\n")
			cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			f.cat = cat
			f.srv.SetDefault(modeltest.Reply("Sure."))
			q, project := f.netclawQuestion(t, "Please look over my diff.", now)
			res := f.ask(t, q, Options{Samples: 1})
			systems, users, tools := wireMessages(t, p, f.srv.Requests()[0].Body)
			if len(systems) != 2 || !strings.HasPrefix(systems[0], "# Operating Rules\nBe grounded.") || !strings.HasSuffix(systems[0], "Project rules: be brief.") {
				t.Fatalf("system messages %q", systems)
			}
			static := systems[1]
			if static != q.Context.Static {
				t.Errorf("the second system message is not the static context:\n%s", static)
			}
			order := []string{"[directly callable core tools]", "[deferred first-party tools - discover with search_tools]", "spawn_agent: Delegate",
				"[skills]|invoke via /name", "|  changelog: Keep the changelog.", "[memories — sqlite-backed with automatic recall]",
				"[attachments]"}
			if strings.Contains(static, "[available-subagents") {
				t.Errorf("the static context holds the per-turn sub-agent layer:\n%s", static)
			}
			if !strings.Contains(static, "\ncheck_agent_run: Read an accepted child run") {
				t.Errorf("the tool index does not list check_agent_run as deferred:\n%s", static)
			}
			at := 0
			for _, s := range order {
				i := strings.Index(static[at:], s)
				if i < 0 {
					t.Fatalf("%q missing or out of order in:\n%s", s, static)
				}
				at += i
			}
			if len(users) != 2 || users[1] != "Please look over my diff." {
				t.Fatalf("user messages %q", users)
			}
			if want := "[system: " + preview.Layer(f.cat, preview.Personal) + "\n\n[current-time]\nutc: 2026-12-02T05:48:54.0000000+00:00\n"; !strings.HasPrefix(users[0], want) ||
				!strings.Contains(users[0], "\n\n[working-context]\n") || !strings.HasSuffix(users[0], "project_dir: "+project+"]") {
				t.Errorf("per-turn message:\n%s", users[0])
			}
			joined := "," + strings.Join(tools, ",") + ","
			if !strings.Contains(joined, ",file_read,") || !strings.HasSuffix(joined, ",spawn_agent,") || strings.Contains(joined, ",web_fetch,") {
				t.Errorf("tools %v", tools)
			}
			rec := res.Samples[0].Run
			if rec.Frontline == nil || rec.Frontline.Nudge != users[0] || len(rec.Frontline.Systems) != 2 {
				t.Errorf("run.json frontline %+v", rec.Frontline)
			}
			if pick := res.Samples[0].Pick; pick.Kind != Answered {
				t.Errorf("pick %+v", pick)
			}
		})
	}
}

// The fingerprint covers every static context layer, not the per-turn
// block: a recording is not stale because a day went by or the checkout
// moved, and is when a skill's description changes.
func TestFingerprintContextLayers(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	hometest.WriteFile(t, filepath.Join(f.home.Skills, "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Keep the changelog.\n---\nBody.\n")
	scan := func() {
		cat, err := lint.Scan(f.home, lint.ScanOptions{Environ: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		f.cat = cat
	}
	scan()
	fingerprint := func(now time.Time) evalrec.Fingerprint {
		q, _ := f.netclawQuestion(t, "Review my diff", now)
		p, err := Prepare(q)
		if err != nil {
			t.Fatal(err)
		}
		return Fingerprint(p, "", testWords)
	}
	fp := fingerprint(time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
	for _, name := range []string{"tool-index", "skill-index", "memory", "attachments"} {
		if _, ok := fp.Get(PartContextLayer + name); !ok {
			t.Errorf("no part for %s: %v", name, fp)
		}
	}
	for _, name := range []string{"current-time", "working-context"} {
		if _, ok := fp.Get(PartContextLayer + name); ok {
			t.Errorf("the %s layer is in the fingerprint", name)
		}
	}
	// The project folder differs per call: compare the parts that do not
	// name it.
	same := func(a, b evalrec.Fingerprint, name string) bool {
		x, _ := a.Get(name)
		y, _ := b.Get(name)
		return x.SHA256 == y.SHA256
	}
	later := fingerprint(time.Date(2027, 3, 9, 17, 30, 0, 0, time.UTC))
	for _, name := range []string{PartContextLayer + "tool-index", PartContextLayer + "skill-index", evalrec.PartPreamble, evalrec.PartLayer} {
		if !same(fp, later, name) {
			t.Errorf("%s changed with the time alone", name)
		}
	}
	hometest.WriteFile(t, filepath.Join(f.home.Skills, "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Keep CHANGELOG.md up to date.\n---\nBody.\n")
	scan()
	edited := fingerprint(time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
	if same(fp, edited, PartContextLayer+"skill-index") {
		t.Error("a skill's new description did not change the fingerprint")
	}
	if !same(fp, edited, PartContextLayer+"tool-index") {
		t.Error("the tool index changed with a skill")
	}
}

// --show-request's text and JSON carry exactly what Spec sends.
func TestRenderAsNetClaw(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	q, _ := f.netclawQuestion(t, "Review my diff", time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC))
	p, err := Prepare(q)
	if err != nil {
		t.Fatal(err)
	}
	spec := p.Spec()
	text := p.Render()
	for _, s := range append(spec.Frontline.Systems, spec.Frontline.Nudge, "# user\nReview my diff\n", "# not reproduced") {
		if !strings.Contains(text, s) {
			t.Errorf("the rendering lacks %q", s[:min(len(s), 60)])
		}
	}
	if strings.Count(text, "\n# tool ") != len(spec.Frontline.Tools) {
		t.Errorf("the rendering shows %d tools, %d are sent", strings.Count(text, "\n# tool "), len(spec.Frontline.Tools))
	}
	j := p.JSON()
	if fmt.Sprint(j.Systems) != fmt.Sprint(spec.Frontline.Systems) || len(j.Messages) != 2 || j.Messages[0].Text != spec.Frontline.Nudge ||
		j.Messages[1].Text != "Review my diff" || len(j.Tools) != len(spec.Frontline.Tools) || len(j.NotReproduced) == 0 {
		t.Errorf("json %+v", j)
	}
	// Without an install the rendering is preview's, its preamble heading
	// naming the preamble used.
	plain, err := Prepare(f.question("Review my diff", preview.Personal))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(plain.Frontline.Render(), "# system (preamble)\n", "# system (preamble: agentdesk's neutral default)\n", 1)
	if got := plain.Render(); got != want || !strings.HasPrefix(got, "# system (preamble: agentdesk's neutral default)\n") || plain.Nudge() != "[system: "+plain.Frontline.Layer+"]" {
		t.Errorf("the default question renders\n%s\nwant\n%s", got, want)
	}
}

// A routing suite asked as NetClaw's main session goes stale when a static
// layer changes, with the layer named, and stays fresh when only the time
// differs.
func TestSuiteStaleContextLayer(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	choose := chooser()
	f.srv.SetChooser(func(r modeltest.Request) (modeltest.Script, bool) {
		r.Messages = r.Messages[len(r.Messages)-1:] // the request, after the per-turn block
		return choose(r)
	})
	hometest.WriteFile(t, filepath.Join(f.home.Skills, "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Keep the changelog.\n---\nBody.\n")
	path := filepath.Join(f.home.Agents, "front.route.yaml")
	hometest.WriteFile(t, path, strings.Replace(routeSuite, "preamble-file: front.md\n", "", 1))
	day := time.Date(2026, 12, 2, 5, 0, 0, 0, time.UTC)
	asNetClaw := func(now time.Time) func(*Question) error {
		return func(q *Question) error {
			q.Now = now
			return AsNetClaw(q, runner.NetClaw{Home: f.home.Base, Core: &request.Core{Text: "# Operating Rules\n", Source: "test core"}}, "")
		}
	}
	rec := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Frontline: asNetClaw(day)})
	if !Summarize([]*SuiteResult{rec}).OK() && strings.Contains(statuses(rec), "error") {
		t.Fatalf("record: %s", statuses(rec))
	}
	for _, r := range f.srv.Requests() {
		if len(r.Messages) < 2 || !strings.HasPrefix(r.Messages[0].Text, "[system: [available-subagents") || !strings.Contains(r.Messages[0].Text, "\n\n[current-time]") {
			t.Fatalf("a recorded request lacks the per-turn block: %+v", r.Messages)
		}
	}
	off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline, Frontline: asNetClaw(day.AddDate(0, 3, 1))})
	for _, c := range off.Cases {
		if c.Status == Stale {
			t.Errorf("%s is stale a few months later: %s", c.Case.Name, c.Message)
		}
	}
	hometest.WriteFile(t, filepath.Join(f.home.Skills, "changelog", "SKILL.md"), "---\nname: changelog\ndescription: Keep CHANGELOG.md current.\n---\nBody.\n")
	off = f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline, Frontline: asNetClaw(day)})
	stale := 0
	for _, c := range off.Cases {
		if c.Status == Stale {
			stale++
			if !strings.Contains(c.Message, "context layer skill-index changed: a skill under <home>/skills edited") {
				t.Errorf("%s: %q", c.Case.Name, c.Message)
			}
		}
	}
	if stale == 0 {
		t.Errorf("no case went stale with the skill: %s", statuses(off))
	}
}
