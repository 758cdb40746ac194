package main

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// ruleExample is a real failing example of a lint rule and its fix, as
// docs/rules.md shows them. TestRuleExamples lints both: the example must
// produce the rule, the fix must not.
type ruleExample struct {
	// files is the failing home: path (relative to the home) → content.
	files map[string]string
	// fixed replaces or adds files for the fix; a path mapped to "" is
	// removed.
	fixed map[string]string
	// links are symbolic links of the failing home: path → target.
	links map[string]string
	// exec are the paths (of files or fixed) made executable.
	exec []string
	// show names the files the page shows, in order (default: the paths of
	// fixed).
	show []string
	// shown replaces a file's text on the page, for what cannot be shown
	// as it is (a huge body, bytes that are not UTF-8).
	shown map[string]string
	// args are lint's extra arguments (--profile publish).
	args []string
	// fix says in one sentence what the fix changes.
	fix string
}

// agent is a definition that loads, with extra frontmatter lines and a
// body.
func agent(name string, front ...string) string {
	fm := "name: " + name + "\ndescription: Reviews a diff for bugs before it is merged.\n"
	for _, l := range front {
		fm += l + "\n"
	}
	return "---\n" + fm + "---\n\nYou review diffs. Name each bug with its file and line.\n"
}

// reviewer is the agent most examples are about.
var reviewer = agent("reviewer")

// exampleSuiteHome is a home with the reviewer and its suite.
func exampleSuiteHome(suite string, more ...string) map[string]string {
	m := map[string]string{"agents/reviewer.md": reviewer, "agents/reviewer.test.yaml": suite}
	for i := 0; i+1 < len(more); i += 2 {
		m[more[i]] = more[i+1]
	}
	return m
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// feedAgent is a server-feed definition, and the sync state that records
// the digest it was synced with.
var feedAgent = agent("release-notes")

func syncState(digest string) string {
	return `{"lastSyncUtc": "2026-11-20T09:00:00Z", "skills": {"release-notes": {"version": "2.0.0", "sha256": "` + digest + `", "syncedAtUtc": "2026-11-20T09:00:00Z", "files": null}}}` + "\n"
}

const acmeFeeds = `{"SkillFeeds": {"Feeds": [{"Name": "acme", "Url": "https://skills.acme.example"}]}}` + "\n"

// ruleExamples holds one example per rule id, definition and suite rules.
// A rule without one fails TestDocs.
var ruleExamples = map[string]ruleExample{
	"frontmatter": {
		files: map[string]string{"agents/reviewer.md": "\n" + reviewer},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Start the file with the opening `---`, at byte 0.",
	},
	"yaml": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "tools: Read, Grep")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "tools: [Read, Grep]")},
		fix:   "Write `tools` as a YAML list.",
	},
	"name-missing": {
		files: map[string]string{"agents/reviewer.md": strings.Replace(reviewer, "name: reviewer\n", "", 1)},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Give the agent a name.",
	},
	"description-missing": {
		files: map[string]string{"agents/reviewer.md": strings.Replace(reviewer, "description: Reviews a diff for bugs before it is merged.\n", "", 1)},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Say what the agent is for: the frontline model picks it by this line.",
	},
	"body-empty": {
		files: map[string]string{"agents/reviewer.md": strings.SplitAfter(reviewer, "---\n")[0] + strings.SplitAfter(reviewer, "---\n")[1]},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Write the agent's instructions below the closing `---`.",
	},
	"name-format": {
		files: map[string]string{"agents/release-notes.md": agent("Release_Notes")},
		fixed: map[string]string{"agents/release-notes.md": agent("release-notes")},
		fix:   "Use lowercase letters, digits and single hyphens.",
	},
	"model-role": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "modelRole: Primary")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "modelRole: Main")},
		fix:   "Use `Main` or `Compaction`.",
	},
	"visibility": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "visibility: private")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "visibility: internal")},
		fix:   "Use `user-facing` or `internal`.",
	},
	"enum-loose": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "visibility: in-ternal")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "visibility: internal")},
		fix:   "Write the value the runtime reads.",
	},
	"timeout-obsolete": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "timeoutSeconds: 120")},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Remove `timeoutSeconds`: `SubAgents.NoProgressTimeoutSeconds` in netclaw.json sets the limit.",
	},
	"timeout-range": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "timeoutSeconds: 900")},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Remove `timeoutSeconds`, or keep it within 5 to 600.",
	},
	"prefill-timeout-range": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "prefillTimeoutSeconds: 2")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "prefillTimeoutSeconds: 30")},
		fix:   "Keep `prefillTimeoutSeconds` within 5 to 3600.",
	},
	"duplicate-name": {
		files: map[string]string{"agents/reviewer.md": reviewer, "agents/security-reviewer.md": agent("reviewer")},
		fixed: map[string]string{"agents/security-reviewer.md": agent("security-reviewer")},
		show:  []string{"agents/security-reviewer.md"},
		fix:   "Give each agent its own name.",
	},
	"duplicate-key": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "description: Reviews pull requests.")},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Keep one line per key.",
	},
	"unknown-field": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", "model_role: Compaction")},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "modelRole: Compaction")},
		fix:   "Spell the key as the runtime does.",
	},
	"description-long": {
		files: map[string]string{"agents/reviewer.md": strings.Replace(reviewer, "before it is merged.", "before it is merged."+strings.Repeat(" It reads every file of the diff.", 33), 1)},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		shown: map[string]string{"agents/reviewer.md#failing": strings.Replace(reviewer, "before it is merged.", "before it is merged. It reads every file of the diff. … (the same sentence 33 times)", 1)},
		fix:   "Keep the description to what the frontline needs to pick the agent.",
	},
	"body-large": {
		files: map[string]string{"agents/reviewer.md": reviewer + strings.Repeat("Check the error handling of every changed function, one by one. ", 1500)},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		shown: map[string]string{"agents/reviewer.md#failing": reviewer + "Check the error handling of every changed function, one by one. … (1,500 times)\n"},
		fix:   "Keep the system prompt to the agent's instructions; give long material as context or as a skill's resource.",
	},
	"encoding": {
		files: map[string]string{"agents/reviewer.md": reviewer + "Greet the user with caf\xe9.\n"},
		fixed: map[string]string{"agents/reviewer.md": reviewer + "Greet the user with café.\n"},
		shown: map[string]string{"agents/reviewer.md#failing": reviewer + "Greet the user with caf\\xe9.   ← saved as Latin-1\n"},
		fix:   "Save the file as UTF-8.",
	},
	"version": {
		files: map[string]string{"agents/reviewer.md": agent("reviewer", `version: "1.0 beta"`)},
		fixed: map[string]string{"agents/reviewer.md": agent("reviewer", "version: 1.0.0-beta")},
		args:  []string{"--profile", "publish"},
		fix:   "Use 1 to 64 of `A-Za-z0-9.+-`.",
	},
	"routing-target": {
		files: map[string]string{"agents/reviewer.md": reviewer, "skills/review/SKILL.md": "---\nname: review\ndescription: Review the staged diff.\nmetadata:\n  subagent: Reviewer_Bot\n---\n\nReview the diff.\n"},
		fixed: map[string]string{"skills/review/SKILL.md": "---\nname: review\ndescription: Review the staged diff.\nmetadata:\n  subagent: reviewer\n---\n\nReview the diff.\n"},
		fix:   "Name a loaded, user-facing agent in `metadata.subagent`.",
	},
	"skill": {
		files: map[string]string{"skills/notes/SKILL.md": "---\nname: notes\n---\n\nTake notes.\n"},
		fixed: map[string]string{"skills/notes/SKILL.md": "---\nname: notes\ndescription: Take meeting notes.\n---\n\nTake notes.\n"},
		fix:   "Give the skill a description.",
	},
	"feed-not-loaded": {
		files: map[string]string{"agents/reviewer.md": reviewer, "agents/.server-feeds/acme/release-notes.md": feedAgent},
		fixed: map[string]string{"config/netclaw.json": acmeFeeds, "agents/.server-feeds/acme/.sync-state.json": syncState(sha(feedAgent))},
		show:  []string{"config/netclaw.json"},
		fix:   "Name the feed in `SkillFeeds`, or delete its folder.",
	},
	"agents-folder": {
		files: map[string]string{"config/netclaw.json": "{}\n"},
		fixed: map[string]string{"agents/reviewer.md": reviewer},
		fix:   "Put the agents in `agents/`.",
	},
	"feed-modified": {
		files: map[string]string{"config/netclaw.json": acmeFeeds, "agents/.server-feeds/acme/release-notes.md": feedAgent + "Also list the authors.\n", "agents/.server-feeds/acme/.sync-state.json": syncState(sha(feedAgent))},
		fixed: map[string]string{"agents/.server-feeds/acme/release-notes.md": feedAgent},
		show:  []string{"agents/.server-feeds/acme/release-notes.md"},
		fix:   "Undo the edit, and copy the agent into `agents/` under another name to change it.",
	},
	"config": {
		files: map[string]string{"agents/reviewer.md": reviewer, "config/netclaw.json": `{"SubAgents": {"NoProgressTimeoutSeconds": "soon"}}` + "\n"},
		fixed: map[string]string{"config/netclaw.json": `{"SubAgents": {"NoProgressTimeoutSeconds": 120}}` + "\n"},
		fix:   "Give the value the type the runtime binds.",
	},
	"mcp-server": {
		files: map[string]string{"agents/reviewer.md": reviewer, "config/netclaw.json": `{"McpServers": {"docs": {"Transport": "http"}}}` + "\n"},
		fixed: map[string]string{"config/netclaw.json": `{"McpServers": {"docs": {"Transport": "http", "Url": "http://localhost:8931/mcp"}}}` + "\n"},
		fix:   "Give an http or sse server its `Url`, a stdio server its `Command`.",
	},
	"unreadable": {
		files: map[string]string{"agents/reviewer.md": reviewer},
		links: map[string]string{"agents/helper.md": "shared/helper.md"},
		fixed: map[string]string{"agents/helper.md": agent("helper")},
		shown: map[string]string{"agents/helper.md#failing": "agents/helper.md -> shared/helper.md   (a link to a file that does not exist)\n"},
		fix:   "Point the link at a file that exists, or put the file there.",
	},

	"suite-yaml": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    repeat: twice\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    repeat: 2\n"},
		fix:   "Give each key a value of its type.",
	},
	"suite-unknown-key": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    expect:\n      contians: off-by-one\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    expect:\n      contains: off-by-one\n"},
		fix:   "Spell the key as suites do (`agentdesk help suites` lists them).",
	},
	"suite-missing": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		fix:   "Give every case a name and a task.",
	},
	"suite-value": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    repeat: 0\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    repeat: 3\n"},
		fix:   "Keep `repeat` within 1 to 100.",
	},
	"suite-regexp": {
		files: exampleSuiteHome("cases:\n  - name: names the line\n    task: Review the diff in bug.patch\n    expect:\n      matches: '(?<=line )\\d+'\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: names the line\n    task: Review the diff in bug.patch\n    expect:\n      matches: 'line \\d+'\n"},
		fix:   "Write an RE2 expression: it has no look-behind.",
	},
	"suite-duplicate-case": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n  - name: finds the bug\n    task: Review the diff in race.patch\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n  - name: finds the race\n    task: Review the diff in race.patch\n"},
		fix:   "Give each case its own name: the name keys its recordings.",
	},
	"suite-agent": {
		files: exampleSuiteHome("agent: reviewr\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "agent: reviewer\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		fix:   "Name an agent that loads.",
	},
	"suite-skill": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    skill: review\n"),
		fixed: map[string]string{"skills/review/SKILL.md": "---\nname: review\ndescription: Review the staged diff.\nmetadata:\n  subagent: reviewer\n---\n\nReview the diff.\n"},
		show:  []string{"agents/reviewer.test.yaml", "skills/review/SKILL.md"},
		fix:   "Add the skill, routed to the suite's agent, or remove `skill:`.",
	},
	"suite-file": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff\n    context-file: ../fixtures/bug.patch\n"),
		fixed: map[string]string{"fixtures/bug.patch": "--- a/main.go\n+++ b/main.go\n"},
		show:  []string{"agents/reviewer.test.yaml", "fixtures/bug.patch"},
		fix:   "Create the file, or fix the path: it is relative to the suite.",
	},
	"suite-unreadable": {
		files: map[string]string{"agents/reviewer.md": reviewer},
		links: map[string]string{"agents/reviewer.test.yaml": "../shared/reviewer.test.yaml"},
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		shown: map[string]string{"agents/reviewer.test.yaml#failing": "agents/reviewer.test.yaml -> ../shared/reviewer.test.yaml   (a link to a file that does not exist)\n"},
		fix:   "Make the suite a file agentdesk can read.",
	},
	"suite-agent-name": {
		files: exampleSuiteHome("agent: summarizer\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n", "agents/summarizer.md", agent("summarizer")),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		fix:   "Name the suite after its agent, or drop `agent:`.",
	},
	"suite-outside-home": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff\n    context-file: ../../fixtures/bug.patch\n", "../fixtures/bug.patch", "--- a/main.go\n+++ b/main.go\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: finds the bug\n    task: Review the diff\n    context-file: ../fixtures/bug.patch\n", "fixtures/bug.patch": "--- a/main.go\n+++ b/main.go\n"},
		show:  []string{"agents/reviewer.test.yaml"},
		fix:   "Keep what a case reads inside the home, so its recordings hold on every machine.",
	},
	"suite-command": {
		files: exampleSuiteHome("cases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n    expect:\n      command: ./checks/names-line.sh\n"),
		fixed: map[string]string{"agents/checks/names-line.sh": "#!/bin/sh\ngrep -q 'line [0-9]'\n"},
		exec:  []string{"agents/checks/names-line.sh"},
		show:  []string{"agents/reviewer.test.yaml", "agents/checks/names-line.sh"},
		fix:   "Create the program, executable, at the path relative to the suite.",
	},
	"suite-vars": {
		files: exampleSuiteHome("template:\n  task: Review {{file}}\n  expect: {contains: \"{{bug}}\"}\nvars-file: bugs.csv\n", "agents/bugs.csv", "file,bug\nmain.go,off-by-one\nrace.go\n"),
		fixed: map[string]string{"agents/bugs.csv": "file,bug\nmain.go,off-by-one\nrace.go,data race\n"},
		show:  []string{"agents/reviewer.test.yaml", "agents/bugs.csv"},
		fix:   "Give every row as many fields as the header.",
	},
	"suite-template": {
		files: exampleSuiteHome("template:\n  task: Review {{file}}\n  expect: {contains: \"{{bug}}\"}\nvars:\n  - {file: main.go}\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "template:\n  task: Review {{file}}\n  expect: {contains: \"{{bug}}\"}\nvars:\n  - {file: main.go, bug: off-by-one}\n"},
		fix:   "Define every variable the template uses in every row.",
	},
	"suite-model": {
		files: exampleSuiteHome("models: [Main, Compactoin]\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "models: [Main, Compaction]\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		fix:   "Name a role (`Main`, `Compaction`, `Fallback`) or a `Models.Definitions` name.",
	},
	"suite-mock": {
		files: exampleSuiteHome("mocks:\n  - {result: \"no results\"}\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "mocks:\n  - {tool: web_search, result: \"no results\"}\ncases:\n  - name: finds the bug\n    task: Review the diff in bug.patch\n"},
		fix:   "Name the tool the mock answers.",
	},
	"suite-approve": {
		files: exampleSuiteHome("approve: [\"mcp:githb\"]\ncases:\n  - name: files the issue\n    task: File an issue for the bug in bug.patch\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "approve: [\"shell_execute:go test *\"]\ncases:\n  - name: files the issue\n    task: File an issue for the bug in bug.patch\n"},
		fix:   "Name a tool NetClaw has, or an MCP server netclaw.json configures.",
	},
	"suite-change": {
		files: exampleSuiteHome("cases:\n  - name: fixes the bug\n    task: Fix the off-by-one in main.go\n    project: ../app\n    expect:\n      changes:\n        - {path: ../outside.go, unchanged: true}\n", "app/main.go", "package main\n"),
		fixed: map[string]string{"agents/reviewer.test.yaml": "cases:\n  - name: fixes the bug\n    task: Fix the off-by-one in main.go\n    project: ../app\n    expect:\n      changes:\n        - {path: main.go, contains: \"i < n\"}\n"},
		fix:   "Give a path inside the project.",
	},
}
