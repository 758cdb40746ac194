package approve

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// The reasons a gated call is denied, as the runtime words them.
const (
	// DeniedByUser is the runtime's denial when the author says no.
	DeniedByUser = "approval_denied_by_user"
	// DeniedText is the tool result of a call the author denied.
	DeniedText = "Tool access denied: " + DeniedByUser
)

// Request is one call that needs approval, as the author is shown it.
type Request struct {
	// Tool is the tool's name as the model called it.
	Tool string
	// Server is the MCP server of an MCP tool, "" otherwise.
	Server string
	// Subject is what a pattern's GLOB is matched against (SubjectFor).
	Subject string
	// Args are the call's JSON arguments, exactly as the model sent them.
	Args json.RawMessage
	// Remote is set for a tool of an http or sse MCP server: the call acts
	// outside the trial, and the prompt says so.
	Remote bool
}

// NewRequest builds the request for a call of tool (of MCP server server,
// or "") with args.
func NewRequest(tool, server string, args json.RawMessage) Request {
	return Request{Tool: tool, Server: server, Subject: SubjectFor(tool, args), Args: args}
}

// Suggest returns the narrowest `--approve` pattern that would have
// approved req: mcp:SERVER for an MCP tool, TOOL:SUBJECT (escaped) for
// shell_execute, web_fetch and web_search, TOOL otherwise.
func (req Request) Suggest() string {
	if req.Server != "" {
		return MCPPrefix + req.Server
	}
	if _, ok := subjectArg[req.Tool]; ok && req.Subject != "" {
		return req.Tool + ":" + QuoteGlob(req.Subject)
	}
	return req.Tool
}

// subjectArg names the argument a tool's GLOB matches.
var subjectArg = map[string]string{
	"shell_execute": "command",
	"web_fetch":     "url",
	"web_search":    "query",
}

// SubjectFor returns what a GLOB is matched against for a call of tool
// with args: the command of shell_execute, the URL of web_fetch, the query
// of web_search (argument names compared ignoring case, as the runtime
// does), else the JSON arguments without meta properties (names starting
// with `_`), keys sorted, compact. Arguments that are not a JSON object
// are their own subject, as sent.
func SubjectFor(tool string, args json.RawMessage) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return strings.TrimSpace(string(args))
	}
	if want, ok := subjectArg[tool]; ok {
		return stringArg(obj, want)
	}
	for k := range obj {
		if strings.HasPrefix(k, "_") {
			delete(obj, k)
		}
	}
	b, err := json.Marshal(obj) // map keys are sorted
	if err != nil {
		return ""
	}
	return string(b)
}

// stringArg is the string argument of obj named want, ignoring case;
// "" when there is none.
func stringArg(obj map[string]json.RawMessage, want string) string {
	for k, v := range obj {
		if strings.EqualFold(k, want) {
			var s string
			if json.Unmarshal(v, &s) == nil {
				return s
			}
		}
	}
	return ""
}

// Answer is the author's answer to one request.
type Answer int

// The answers.
const (
	// Deny: the call does not run; the model gets DeniedText.
	Deny Answer = iota
	// Once: this call runs.
	Once
	// ForRun: this call and every later call of the same tool in the run
	// run.
	ForRun
)

// String names the answer.
func (a Answer) String() string {
	switch a {
	case Once:
		return "approved once"
	case ForRun:
		return "approved for this run"
	}
	return "denied"
}

// Asker puts a request to the author and returns the answer. It must
// return when ctx is done (with ctx's error). The browser supplies one
// (see Prompts); a headless run has none.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// Verdict is what the Gate decided for a call.
type Verdict int

// The verdicts.
const (
	// Denied: the author said no, or the run was cancelled while asking.
	Denied Verdict = iota
	// Approved: a pattern, an earlier for-this-run answer or the author
	// approved the call.
	Approved
	// Unattended: no one could be asked (see Unattended).
	Unattended
)

// Decision is the Gate's answer for one call.
type Decision struct {
	Verdict Verdict
	// By says who decided: "--approve PATTERN", "the author (once)",
	// "the author (for this run)", "the author", "cancelled", "no one to
	// ask".
	By string
	// Suggest is the `--approve` pattern that would approve the call.
	Suggest string
}

// Gate decides gated calls for one run. It is safe for concurrent use.
type Gate struct {
	patterns []Pattern
	asker    Asker
	advice   Advice

	mu     sync.Mutex
	forRun map[string]bool // tool names approved for the run
}

// NewGate returns a gate approving what patterns match and asking asker
// (nil: no one to ask) about the rest.
func NewGate(patterns []Pattern, asker Asker) *Gate {
	return &Gate{patterns: append([]Pattern(nil), patterns...), asker: asker, forRun: map[string]bool{}}
}

// Advise sets where the gate's run was started (AdviseCommand unless
// set), for UnattendedMessage; it returns g.
func (g *Gate) Advise(a Advice) *Gate {
	g.advice = a
	return g
}

// Unattended is UnattendedMessage of req where the gate's run was
// started.
func (g *Gate) Unattended(req Request) string {
	if g == nil {
		return UnattendedMessage(req, AdviseCommand)
	}
	return UnattendedMessage(req, g.advice)
}

// Patterns returns the gate's patterns.
func (g *Gate) Patterns() []Pattern { return append([]Pattern(nil), g.patterns...) }

// Attended reports whether the gate has someone to ask.
func (g *Gate) Attended() bool { return g != nil && g.asker != nil }

// Decide decides req. It never blocks past ctx.
func (g *Gate) Decide(ctx context.Context, req Request) Decision {
	d := Decision{Suggest: req.Suggest()}
	if g == nil {
		d.Verdict, d.By = Unattended, "no one to ask"
		return d
	}
	for _, p := range g.patterns {
		if matches(p, req) {
			d.Verdict, d.By = Approved, "--approve "+p.Text
			return d
		}
	}
	g.mu.Lock()
	ok := g.forRun[req.Tool]
	g.mu.Unlock()
	if ok {
		d.Verdict, d.By = Approved, "the author (for this run)"
		return d
	}
	if g.asker == nil {
		d.Verdict, d.By = Unattended, "no one to ask"
		return d
	}
	if ctx.Err() != nil {
		d.Verdict, d.By = Denied, "cancelled"
		return d
	}
	a, err := g.asker.Ask(ctx, req)
	if err != nil || ctx.Err() != nil {
		d.Verdict, d.By = Denied, "cancelled"
		return d
	}
	switch a {
	case Once:
		d.Verdict, d.By = Approved, "the author (once)"
	case ForRun:
		g.mu.Lock()
		g.forRun[req.Tool] = true
		g.mu.Unlock()
		d.Verdict, d.By = Approved, "the author (for this run)"
	default:
		d.Verdict, d.By = Denied, "the author"
	}
	return d
}

// ApprovedForRun lists the tools the author approved for the run, sorted.
func (g *Gate) ApprovedForRun() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]string, 0, len(g.forRun))
	for t := range g.forRun {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

// Advice says where a run was started, so that the refusal of a call no
// one could approve says what to do there.
type Advice int

// The places a run is started from.
const (
	// AdviseCommand: a command (agentdesk run): --approve, or the
	// browser, which asks.
	AdviseCommand Advice = iota
	// AdviseSuite: a sample of agentdesk test: the suite's approve: list,
	// or --approve.
	AdviseSuite
	// AdviseBrowserSuite: a sample run from the browser's Tests pane: the
	// suite's approve: list, or a run of the agent on its own, which asks.
	AdviseBrowserSuite
)

// UnattendedMessage is the message of a run that ended on a call no one could
// approve. It follows NetClaw's SubAgentActor (commit 502847bf), where a
// gated call with no parent approval bridge throws
// ParentApprovalUnavailableException and the sub-agent run fails, and adds
// what would have approved the call where the run was started (where),
// the pattern quoted for a POSIX shell: the pattern holds the model's
// command, and an author pastes it.
func UnattendedMessage(req Request, where Advice) string {
	p := req.Suggest()
	var advice string
	switch where {
	case AdviseSuite:
		advice = fmt.Sprintf("Approve it in the suite or the case (approve: [%s]), or with --approve %s.", yamlQuote(p), ShellQuote(p))
	case AdviseBrowserSuite:
		advice = fmt.Sprintf("Approve it in the suite or the case (approve: [%s]), or run the agent on its own in the browser, which asks.", yamlQuote(p))
	default:
		advice = fmt.Sprintf("Approve it with --approve %s, or run it in the browser, which asks.", ShellQuote(p))
	}
	return fmt.Sprintf("Tool '%s' requires interactive approval, but no parent approval bridge is available. %s", req.Tool, advice)
}

// yamlQuote quotes s as a YAML single-quoted scalar.
func yamlQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// ShellQuote quotes s as one word for a POSIX shell: in single quotes,
// each single quote in s closed, escaped and reopened (the four characters quote, backslash, quote, quote).
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
