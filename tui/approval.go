package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strings"

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

// viewTextMsg asks the root to open text (not a file) in the viewer.
type viewTextMsg struct {
	title, name, text string
}

// approvalOverlay shows the exact call a run wants to make and takes the
// author's answer: once, for this run, or deny. It uses the screen's
// width and scrolls inside; the call is shown whole, never cut, and the
// approve keys answer only once its end has been on screen (a marker
// says how many lines are still below). The footer shows its keys alone.
type approvalOverlay struct {
	keys   ApprovalKeys
	move   MoveKeys
	prompt approve.Prompt
	agent  string // the agent whose run asks
	// approveFlag is the command line's flag that approves calls unasked
	// (Words.Approve), named in the prompt's last line.
	approveFlag string
	// cancel cancels the run that asks (it only cancels a context: no
	// I/O); the run then ends cancelled_by_parent and the ask as
	// cancelled.
	cancel func()
	// answered, when set, is told the author's answer (the re-run watch
	// keeps what was approved).
	answered func(approve.Request, approve.Answer)

	scroll int
	// seenEnd is set once the end of the call has been on screen: from
	// then on the approve keys answer.
	seenEnd bool
	// nudge is set when an approve key came before that: the prompt then
	// says to read on.
	nudge bool
	// shown is the content of the last frame, at its width, and its
	// window's height (as the viewer keeps its page): the keys scroll by
	// it and tell from it whether the end of the call was on screen.
	shown approvalLines
}

// approvalLines is the prompt's content at one width.
type approvalLines struct {
	w      int
	window int
	lines  []string
	// callEnd is the index of the call's last line (the explanation
	// follows it).
	callEnd int
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

// footerKeys are the keys the footer shows while the prompt is up: its
// own, nothing of the browser's (which it does not pass on).
func (o *approvalOverlay) footerKeys() []key.Binding {
	k := o.keys
	return []key.Binding{k.Once, k.ForRun, k.Deny, relabel(k.CancelRun, "cancel run"), relabel(k.View, "whole call"), relabel(o.move.ShortHelp()[0], "scroll")}
}

func (o *approvalOverlay) update(msg tea.Msg) (tea.Cmd, bool) {
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, false
	}
	switch {
	case key.Matches(k, o.keys.Once), key.Matches(k, o.keys.ForRun):
		if !o.endShown() {
			o.nudge = true
			return nil, false
		}
		a := approve.Once
		if key.Matches(k, o.keys.ForRun) {
			a = approve.ForRun
		}
		o.tell(a)
		return answerCmd(o.prompt, a), true
	case key.Matches(k, o.keys.Deny):
		return answerCmd(o.prompt, approve.Deny), true
	case key.Matches(k, o.keys.CancelRun) && o.cancel != nil:
		o.cancel()
		return nil, true
	case key.Matches(k, o.keys.View):
		msg := viewTextMsg{title: "The whole call: " + o.prompt.Req.Tool, name: "call.txt", text: o.callText()}
		return func() tea.Msg { return msg }, false
	}
	move := o.move
	if len(move.Down.Keys()) == 0 {
		move = DefaultKeyMap().Move // a prompt made without them still scrolls
	}
	if d, ok := move.delta(k, max(o.shown.window-1, 1)); ok {
		o.scroll = max(min(o.scroll+d, len(o.shown.lines)-o.shown.window), 0)
		o.endShown()
	}
	return nil, false
}

// endShown reports whether the end of the call has been on screen, and
// remembers it.
func (o *approvalOverlay) endShown() bool {
	if !o.seenEnd && o.shown.lines != nil && o.scroll+o.shown.window > o.shown.callEnd {
		o.seenEnd = true
	}
	return o.seenEnd
}

// approvalGeometry is the prompt's text width and the most lines of its
// scrolling window on a w×h screen: the box leaves a column on each side
// and the header and footer lines free; inside are the title, a blank
// line, the window and the marker line.
func approvalGeometry(w, h int) (inner, window int) {
	return max(w-6, 10), max(h-2-2-3, 1)
}

// callText is the whole call as plain text, for the viewer.
func (o *approvalOverlay) callText() string {
	var b strings.Builder
	for _, f := range o.fields() {
		fmt.Fprintf(&b, "%s%s\n", f.label, f.text)
	}
	b.WriteString("\nArguments:\n")
	b.WriteString(o.prettyArgs())
	b.WriteString("\n")
	return b.String()
}

// field is one labelled line of the prompt.
type field struct{ label, text string }

// fields are the prompt's labelled lines: agent, tool, server, and what
// the call acts on.
func (o *approvalOverlay) fields() []field {
	req := o.prompt.Req
	var out []field
	if o.agent != "" {
		out = append(out, field{"Agent    ", o.agent})
	}
	out = append(out, field{"Tool     ", req.Tool})
	if req.Server != "" {
		what := " (MCP)"
		if req.Remote {
			what = " (MCP, remote)"
		}
		out = append(out, field{"Server   ", req.Server + what})
	}
	switch req.Tool {
	case "shell_execute":
		out = append(out, field{"Command  ", req.Subject})
	case "web_fetch":
		out = append(out, field{"URL      ", req.Subject})
	case "web_search":
		out = append(out, field{"Query    ", req.Subject})
	default:
		// What a TOOL:GLOB pattern is matched against: the arguments as
		// compact JSON, keys sorted, meta arguments left out.
		if req.Subject != "" {
			out = append(out, field{"Glob on  ", req.Subject})
		}
	}
	return out
}

// prettyArgs is the call's arguments as indented JSON (as sent, when they
// are not JSON).
func (o *approvalOverlay) prettyArgs() string {
	var pretty bytes.Buffer
	if json.Indent(&pretty, o.prompt.Req.Args, "", "  ") != nil {
		pretty.Reset()
		pretty.Write(o.prompt.Req.Args)
	}
	return pretty.String()
}

// content builds the prompt's lines at width inner: the call whole
// (fields, then the arguments), then what the answers do.
func (o *approvalOverlay) content(st *Styles, inner int) approvalLines {
	req := o.prompt.Req
	var lines []string
	for _, f := range o.fields() {
		for i, l := range wrap(SanitizeText(f.text), max(inner-len(f.label), 1)) {
			if i == 0 {
				lines = append(lines, st.Label.Render(f.label)+l)
			} else {
				lines = append(lines, spaces(len(f.label))+l)
			}
		}
	}
	if req.Remote {
		for _, l := range wrap("A remote MCP server (http or sse): this call acts outside the trial, on the real service. No sandbox and no copy of the project contain what it does.", inner) {
			lines = append(lines, st.Warning.Render(l))
		}
	}
	lines = append(lines, "")
	for _, l := range wrap(SanitizeText(o.prettyArgs()), inner) {
		lines = append(lines, st.Dim.Render(l))
	}
	callEnd := len(lines) - 1
	lines = append(lines, "")
	for _, l := range wrap("The trial waits. Once runs this call; for this run approves every later "+req.Tool+" call of this run; deny answers "+approve.DeniedText+" and the run goes on. On the command line: "+o.approveFlag+" '"+req.Suggest()+"'.", inner) {
		lines = append(lines, st.Dim.Render(l))
	}
	return approvalLines{w: inner, lines: lines, callEnd: callEnd}
}

func (o *approvalOverlay) render(st *Styles, w, h int) []string {
	inner, window := approvalGeometry(w, h)
	if o.shown.w != inner || o.shown.lines == nil {
		o.shown = o.content(st, inner)
	}
	lines := o.shown.lines
	window = min(window, len(lines)) // a short call: a short box
	o.shown.window = window
	o.scroll = max(min(o.scroll, len(lines)-window), 0)
	body := make([]string, 0, window+1)
	body = append(body, lines[o.scroll:min(o.scroll+window, len(lines))]...)
	for len(body) < window {
		body = append(body, "")
	}
	below := len(lines) - (o.scroll + window)
	endBelow := o.shown.callEnd - (o.scroll + window - 1)
	var marker string
	switch {
	case o.nudge && !o.seenEnd && endBelow > 0:
		marker = st.Warning.Render(fmt.Sprintf("↓ %d more %s: read the call to its end before approving (%s scrolls, %s shows it whole)",
			endBelow, lineNoun(endBelow), keyName(o.move.PageDown), keyName(o.keys.View)))
	case below > 0:
		marker = st.Dim.Render(fmt.Sprintf("↓ %d more %s (%s scrolls, %s shows the whole call)", below, lineNoun(below), keyName(o.move.PageDown), keyName(o.keys.View)))
	case o.scroll > 0:
		marker = st.Dim.Render(fmt.Sprintf("↑ %d more %s above · the end", o.scroll, lineNoun(o.scroll)))
	}
	body = append(body, marker)
	return frameExact(st, "Approve a tool call?", append([]string{""}, body...), inner)
}

// lineNoun is "line" for one, else "lines".
func lineNoun(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}

// openViewerText opens text in the viewer, as one file named name.
func (m *Model) openViewerText(msg viewTextMsg) {
	h := fnv.New64a()
	h.Write([]byte(msg.text))
	doc := &viewerDoc{text: msg.text, digest: fmt.Sprintf("%s#%x", msg.name, h.Sum64())}
	v := &viewer{keys: m.keys, root: msg.name, title: msg.title, files: []string{msg.name}, docs: map[string]*viewerDoc{msg.name: doc},
		loaded: true, inMemory: true, md: &m.md, style: markdownStyle(&m.st), environ: m.opts.Environ, stGen: &m.stGen}
	m.overlays.push(v)
}

// spaces returns n spaces.
func spaces(n int) string {
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}
