package tui

import (
	"bytes"
	"encoding/json"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/runner/approve"
)

// answerCmd sends the author's answer back to the waiting run. An answer
// to a run that stopped waiting (cancelled) is dropped.
func answerCmd(pr approve.Prompt, a approve.Answer) tea.Cmd {
	return func() tea.Msg {
		pr.Answer(a)
		return nil
	}
}

// approvalOverlay shows the exact call a run wants to make and takes the
// author's answer: once, for this run, or deny.
type approvalOverlay struct {
	keys   ApprovalKeys
	prompt approve.Prompt
	agent  string // the agent whose run asks
	// cancel cancels the run that asks (it only cancels a context: no
	// I/O); the run then ends cancelled_by_parent and the ask as
	// cancelled.
	cancel func()
	// answered, when set, is told the author's answer (the re-run watch
	// keeps what was approved).
	answered func(approve.Request, approve.Answer)
}

// tell passes an answer to answered, when set.
func (o *approvalOverlay) tell(a approve.Answer) {
	if o.answered != nil {
		o.answered(o.prompt.Req, a)
	}
}

// isApprovalOf reports whether o is the prompt of the run with id.
func isApprovalOf(id string) func(overlay) bool {
	return func(o overlay) bool {
		a, ok := o.(*approvalOverlay)
		return ok && a.prompt.RunID == id
	}
}

func (o *approvalOverlay) update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(k, o.keys.Once):
		o.tell(approve.Once)
		return answerCmd(o.prompt, approve.Once), true
	case key.Matches(k, o.keys.ForRun):
		o.tell(approve.ForRun)
		return answerCmd(o.prompt, approve.ForRun), true
	case key.Matches(k, o.keys.Deny):
		return answerCmd(o.prompt, approve.Deny), true
	case key.Matches(k, o.keys.CancelRun) && o.cancel != nil:
		o.cancel()
		return nil, true
	}
	return nil, false
}

func (o *approvalOverlay) render(st *Styles, w, h int) []string {
	inner := max(min(72, w-6), 10)
	req := o.prompt.Req
	var lines []string
	add := func(label, text string) {
		for i, l := range wrap(Sanitize(text), max(inner-len(label), 1)) {
			if i == 0 {
				lines = append(lines, st.Label.Render(label)+l)
			} else {
				lines = append(lines, spaces(len(label))+l)
			}
		}
	}
	if o.agent != "" {
		add("Agent    ", o.agent)
	}
	add("Tool     ", req.Tool)
	if req.Server != "" {
		add("Server   ", req.Server+" (MCP)")
	}
	switch req.Tool {
	case "shell_execute":
		add("Command  ", req.Subject)
	case "web_fetch":
		add("URL      ", req.Subject)
	case "web_search":
		add("Query    ", req.Subject)
	default:
		// What a TOOL:GLOB pattern is matched against: the arguments as
		// compact JSON, keys sorted, meta arguments left out.
		if req.Subject != "" {
			add("Glob on  ", req.Subject)
		}
	}
	lines = append(lines, "")
	var pretty bytes.Buffer
	if json.Indent(&pretty, req.Args, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(req.Args)
	}
	for i, l := range wrap(SanitizeText(pretty.String()), inner) {
		if i == 12 {
			lines = append(lines, st.Dim.Render("…"))
			break
		}
		lines = append(lines, st.Dim.Render(l))
	}
	lines = append(lines, "")
	for _, l := range wrap("The trial waits. Once runs this call; for this run approves every later "+req.Tool+" call of this run; deny answers "+approve.DeniedText+" and the run goes on. On the command line: --approve '"+req.Suggest()+"'.", inner) {
		lines = append(lines, st.Dim.Render(l))
	}
	lines = append(lines, "", shortHelp(st, " · ", o.keys.ShortHelp(), nil, inner))
	lines[0] = fit(lines[0], inner)
	return frame(st, "Approve a tool call?", lines, w, h)
}

// spaces returns n spaces.
func spaces(n int) string {
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}
