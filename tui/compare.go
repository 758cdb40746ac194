package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/runner/rundiff"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// compareView is the Run pane's comparison of the run shown with an
// earlier run of the same agent (from the runs folder: browser runs,
// replays and suite samples alike): a summary, then the tool calls and
// the output side by side, then the request parts that changed.
type compareView struct {
	on bool
	// pending turns the comparison on when the run streaming now ends.
	pending bool
	// back is how far back the before run is among the agent's ended runs
	// older than the after run (1: the one just before).
	back int
	// agentPath and after are what the comparison was asked for; gen
	// tells a late result from the current one.
	agentPath, after string
	gen              int
	loading          bool
	c                *rundiff.Comparison
	err              error
	// older is how many ended runs are older than the after run.
	older int
	// rows cached at width w in style generation stGen.
	w, stGen int
	rows     []string
}

// compareMsg carries a comparison made in the background.
type compareMsg struct {
	gen   int
	c     *rundiff.Comparison
	older int
	err   error
}

// compareCmd lists the agent's runs in runsDir, takes the ended run after
// (its folder; "" for the newest) and the back-th ended run older than it,
// and compares them. It reads disk: never call it from Update itself.
// runKey names the key that starts a run, for the message of an agent
// with no earlier run.
func compareCmd(runsDir, agent, after, runKey string, back, gen int) tea.Cmd {
	return func() tea.Msg {
		c, older, err := compareRuns(runsDir, agent, after, runKey, back)
		return compareMsg{gen: gen, c: c, older: older, err: err}
	}
}

// compareRuns is compareCmd's work: it compares the agent's ended run
// after ("" for the newest) with the back-th ended run older than it
// (back is kept within 1 and the number older), and returns how many
// ended runs are older than after, once that is known.
func compareRuns(runsDir, agent, after, runKey string, back int) (c *rundiff.Comparison, older int, err error) {
	recs, err := runfolder.ListRuns(runsDir, runfolder.Filter{Agent: agent})
	if err != nil {
		return nil, 0, err
	}
	ended := endedRuns(recs)
	at := 0
	if after != "" {
		if at = slices.IndexFunc(ended, func(r runfolder.Record) bool { return r.Dir == after }); at < 0 {
			return nil, 0, fmt.Errorf("the run shown has not ended: compare it when it has")
		}
	}
	older = len(ended) - at - 1
	if older < 1 {
		return nil, older, fmt.Errorf("%s has no earlier run to compare with: run it again (%s)", agent, runKey)
	}
	back = min(max(back, 1), older)
	b, err := rundiff.Load(ended[at+back].Dir)
	if err != nil {
		return nil, older, err
	}
	a, err := rundiff.Load(ended[at].Dir)
	if err != nil {
		return nil, older, err
	}
	return rundiff.Compare(b, a), older, nil
}

// endedRuns keeps the runs of recs that have ended, in their order
// (newest first).
func endedRuns(recs []runfolder.Record) []runfolder.Record {
	var ended []runfolder.Record
	for _, r := range recs {
		if r.Ended() {
			ended = append(ended, r)
		}
	}
	return ended
}

// toggleCompare turns the comparison of the shown run on or off.
func (p *runPane) toggleCompare() tea.Cmd {
	if p.compare.on {
		p.compare.on = false
		return nil
	}
	p.compare.on, p.compare.back = true, 1
	return p.askCompare()
}

// compareBack compares with a run further back, wrapping to the one just
// before after the oldest.
func (p *runPane) compareBack() tea.Cmd {
	if !p.compare.on {
		p.compare.on, p.compare.back = true, 1
		return p.askCompare()
	}
	p.compare.back++
	if p.compare.older > 0 && p.compare.back > p.compare.older {
		p.compare.back = 1
	}
	return p.askCompare()
}

// askCompare starts the comparison for the selection in the background.
func (p *runPane) askCompare() tea.Cmd {
	e := p.e
	sel := e.selected()
	if sel == nil || sel.Def == nil || e.opts.Runner == nil {
		p.compare.on = false
		return nil
	}
	after := ""
	if rv := p.current(sel.Path); rv != nil {
		if !rv.ended() {
			p.compare.on = false
			return e.notify("the run shown has not ended: compare it when it has", false)
		}
		after = rv.run.Dir()
	}
	cv := &p.compare
	cv.gen++
	cv.agentPath, cv.after, cv.loading, cv.rows = sel.Path, after, true, nil
	p.scroll.top()
	return compareCmd(e.opts.Runner.Dir(), sel.Def.Name, after, keyName(e.keys.Run.Run), cv.back, cv.gen)
}

// compared takes a comparison made in the background.
func (p *runPane) compared(msg compareMsg) {
	cv := &p.compare
	if msg.gen != cv.gen {
		return
	}
	cv.loading, cv.c, cv.err, cv.rows = false, msg.c, msg.err, nil
	if msg.older > 0 {
		cv.older = msg.older
	}
}

// compareBlocks draws the comparison at width w.
func (p *runPane) compareBlocks(w int) blocks {
	e := p.e
	st := &e.st
	cv := &p.compare
	switch {
	case cv.loading:
		return lines([]string{st.Dim.Render("Comparing…")})
	case cv.err != nil:
		return lines(append(wrap(st.Error.Render("compare: ")+Sanitize(cv.err.Error()), w), "",
			st.Dim.Render(keyName(e.keys.Run.Compare)+": back to the run")))
	case cv.c == nil:
		return nil
	}
	if cv.rows == nil || cv.w != w || cv.stGen != e.stGen {
		cv.rows, cv.w, cv.stGen = compareRows(st, e.keys, cv.c, cv.back, cv.older, w), w, e.stGen
	}
	if wl := p.watchLines(cv.agentPath, w); len(wl) > 0 {
		return blocks{{lines: wl}, {lines: cv.rows}}
	}
	return lines(cv.rows)
}

// compareRows renders a comparison at width w.
func compareRows(st *Styles, k KeyMap, c *rundiff.Comparison, back, older, w int) []string {
	out := compareHead(st, k, c, back, older, w)
	out = append(out, "")
	for _, r := range rundiff.SummaryRows(c) {
		out = append(out, wrapLabelled(st, fmt.Sprintf("%-12s", r[0]), r[1], w)...)
	}
	for _, n := range c.Notes {
		out = append(out, wrap(st.Dim.Render("note: "+Sanitize(n)), w)...)
	}
	if len(c.ToolCalls.Steps) > 0 {
		out = append(out, "", st.Title.Render("Tool calls"))
		out = append(out, sideBySide(st, callColumn(st, c.ToolCalls, true), callColumn(st, c.ToolCalls, false), w)...)
	}
	if !c.Output.Same || len(c.Output.Spans) > 0 {
		out = append(out, "", st.Title.Render("Output"))
		colW := max((w-3)/2, 1)
		left := wrapMarked(outputPieces(st, c.Output, false), colW)
		right := wrapMarked(outputPieces(st, c.Output, true), colW)
		out = append(out, sideBySide(st, left, right, w)...)
	}
	for _, pd := range c.Request.Parts {
		if pd.Status == rundiff.PartSame {
			continue
		}
		out = append(out, "", st.Title.Render(cut("Request: "+pd.Part+" ("+pd.Status+")", w)))
		out = append(out, diffRows(st, pd.Diff, w)...)
	}
	if !c.Changes.Same {
		out = append(out, "", st.Title.Render("Changes (a diff of the two changes.patch)"))
		out = append(out, diffRows(st, c.Changes.Diff, w)...)
	}
	return out
}

// compareHead is the top of a comparison: which two runs, how far back
// (and the keys that go further or close it), a warning when the agents
// or models differ, and a line for each side.
func compareHead(st *Styles, k KeyMap, c *rundiff.Comparison, back, older, w int) []string {
	title := fmt.Sprintf("Compare %s → %s", shortID(c.Before.RunID), shortID(c.After.RunID))
	out := []string{st.Title.Render(cut(title, w))}
	where := fmt.Sprintf("with the run %d back (of %d earlier) · %s further back · %s the run", back, older,
		keyName(k.Run.CompareBack), keyName(k.Run.Compare))
	out = append(out, wrap(st.Dim.Render(where), w)...)
	if c.DifferentAgent {
		out = append(out, wrap(st.Warning.Render("Different agents: ")+Sanitize(c.Before.Agent)+" → "+Sanitize(c.After.Agent), w)...)
	}
	if c.DifferentModel {
		out = append(out, wrap(st.Warning.Render("Different models: ")+Sanitize(orDash(c.Before.Model))+" → "+Sanitize(orDash(c.After.Model)), w)...)
	}
	out = append(out, sideLine(st, "before ", c.Before, w), sideLine(st, "after  ", c.After, w))
	return out
}

// sideLine is one side of a comparison after its label: the run, when it
// started, its model, and whether it was a replay or a suite's sample.
func sideLine(st *Styles, label string, side rundiff.Side, w int) string {
	tag := ""
	if side.Replay {
		tag += " (replay)"
	}
	if side.Suite != "" {
		tag += " (" + side.Suite + ")"
	}
	started := ""
	if !side.StartedAt.IsZero() {
		started = side.StartedAt.Local().Format("15:04:05") + " · "
	}
	return cut(st.Label.Render(label)+shortID(side.RunID)+" · "+started+Sanitize(orDash(side.Model)+tag), w)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// wrapLabelled wraps text after a label, the next rows indented under it.
func wrapLabelled(st *Styles, label, text string, w int) []string {
	lw := ansi.StringWidth(label) + 1
	rows := wrap(Sanitize(text), max(w-lw, 1))
	for i := range rows {
		if i == 0 {
			rows[i] = st.Label.Render(label) + " " + rows[i]
		} else {
			rows[i] = spaces(lw) + rows[i]
		}
	}
	return rows
}

// diffRows colours a unified diff's lines, each cut to w.
func diffRows(st *Styles, diff string, w int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n") {
		text := cut(Sanitize(l), w)
		switch {
		case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
			text = st.Dim.Render(text)
		case strings.HasPrefix(l, "@@"):
			text = st.DiffHunk.Render(text)
		case strings.HasPrefix(l, "+"):
			text = st.DiffAdd.Render(text)
		case strings.HasPrefix(l, "-"):
			text = st.DiffDel.Render(text)
		}
		out = append(out, text)
	}
	return out
}

// callColumn is one side of the aligned tool calls: a row a step, blank
// where this side has no call.
func callColumn(st *Styles, d rundiff.CallsDiff, before bool) []string {
	var out []string
	for _, s := range d.Steps {
		side := s.After
		if before {
			side = s.Before
		}
		if side == nil {
			out = append(out, "")
			continue
		}
		mark, style := "=", st.Dim
		switch s.Op {
		case rundiff.OpAdded:
			mark, style = "+", st.DiffAdd
		case rundiff.OpRemoved:
			mark, style = "-", st.DiffDel
		case rundiff.OpChanged:
			mark, style = "~", st.Warning
		}
		args := strings.Join(strings.Fields(side.Arguments), " ")
		out = append(out, style.Render(mark+" "+Sanitize(s.Name))+" "+Sanitize(args))
	}
	return out
}

// sideBySide puts two columns next to each other, each cut to half of w,
// with a rule between them.
func sideBySide(st *Styles, left, right []string, w int) []string {
	colW := max((w-3)/2, 1)
	n := max(len(left), len(right))
	out := make([]string, 0, n+1)
	out = append(out, st.Label.Render(fit("before", colW))+st.Separator.Render(" │ ")+st.Label.Render(cut("after", colW)))
	for i := range n {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		out = append(out, fit(l, colW)+st.Separator.Render(" │ ")+cut(r, colW))
	}
	return out
}

// piece is a stretch of output text, marked when it changed.
type piece struct {
	text   string
	marked lipgloss.Style
	on     bool
}

// foldWords is how many words of an unchanged stretch the side-by-side
// output keeps at each end.
const foldWords = 30

// outputPieces is one side of the output diff: the after side (added
// marked) or the before side (removed marked); long unchanged stretches
// are folded.
func outputPieces(st *Styles, d rundiff.OutputDiff, after bool) []piece {
	var out []piece
	for i, s := range d.Spans {
		switch {
		case s.Op == rundiff.SpanEqual:
			out = append(out, piece{text: foldEqual(s.Text, i > 0, i < len(d.Spans)-1)})
		case s.Op == rundiff.SpanAdded && after:
			out = append(out, piece{text: s.Text, marked: st.DiffAdd, on: true})
		case s.Op == rundiff.SpanRemoved && !after:
			out = append(out, piece{text: s.Text, marked: st.DiffDel, on: true})
		}
	}
	return out
}

// foldEqual keeps foldWords words of an unchanged stretch next to each
// change around it and folds the middle.
func foldEqual(text string, changeBefore, changeAfter bool) string {
	words := strings.Fields(text)
	keep := 0
	if changeBefore {
		keep += foldWords
	}
	if changeAfter {
		keep += foldWords
	}
	if len(words) <= keep+10 {
		return text
	}
	head, tail := 0, 0
	if changeBefore {
		head = foldWords
	}
	if changeAfter {
		tail = foldWords
	}
	mid := fmt.Sprintf("…(%d unchanged words)…", len(words)-head-tail)
	parts := append(append(append([]string{}, words[:head]...), mid), words[len(words)-tail:]...)
	return " " + strings.Join(parts, " ") + " "
}

// wrapMarked wraps pieces to w columns at spaces and line breaks, drawing
// marked words in their style; every piece is sanitised.
func wrapMarked(pieces []piece, w int) []string {
	m := markedWrap{w: w}
	for _, p := range pieces {
		for li, line := range strings.Split(p.text, "\n") {
			if li > 0 {
				m.flush()
			}
			for wi, word := range strings.Split(line, " ") {
				if wi > 0 {
					m.space()
				}
				m.word(p, Sanitize(word))
			}
		}
	}
	if m.cur.Len() > 0 {
		m.flush()
	}
	return m.out
}

// markedWrap is wrapMarked's state: the rows done, and the row being
// filled with its width so far.
type markedWrap struct {
	w    int
	out  []string
	cur  strings.Builder
	curW int
}

// flush ends the row being filled.
func (m *markedWrap) flush() {
	m.out = append(m.out, m.cur.String())
	m.cur.Reset()
	m.curW = 0
}

// space puts a space between words, unless the row is empty or full.
func (m *markedWrap) space() {
	if m.curW > 0 && m.curW < m.w {
		m.cur.WriteByte(' ')
		m.curW++
	}
}

// word adds one word of piece p to the row, starting a new row when it
// does not fit, and cutting a word wider than a whole row across rows.
func (m *markedWrap) word(p piece, word string) {
	for word != "" {
		ww := ansi.StringWidth(word)
		if m.curW > 0 && m.curW+ww > m.w {
			m.flush()
		}
		if ww > m.w {
			head := ansi.Truncate(word, m.w, "")
			word = strings.TrimPrefix(word, head)
			m.cur.WriteString(render(p, head))
			m.curW += ansi.StringWidth(head)
			m.flush()
			continue
		}
		m.cur.WriteString(render(p, word))
		m.curW += ww
		word = ""
	}
}

func render(p piece, s string) string {
	if p.on {
		return p.marked.Render(s)
	}
	return s
}
