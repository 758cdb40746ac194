package tui

import (
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// streamBlocks is the run's output so far: text and thinking from the
// rows their streams keep (styled only when shown), tool calls and
// results from rows kept for this width.
func (p *runPane) streamBlocks(rv *runView, w int) blocks {
	st := &p.e.st
	var out blocks
	if len(rv.segs) == 0 && !rv.ended() {
		out = append(out, block{lines: []string{st.Dim.Render("waiting for the model…")}})
	}
	for _, sg := range rv.segs {
		switch sg.kind {
		case runner.EventThinking:
			if p.foldThinking {
				out = append(out, block{lines: []string{st.Thinking.Render(cut(fmt.Sprintf("▸ thinking · %d characters (%s: show)", sg.stream.runes, keyName(p.e.keys.Run.FoldThinking)), w))}})
				continue
			}
			rows, open := sg.stream.lines(w - 2)
			think := func(l string) string { return st.Thinking.Render("┊ " + l) }
			out = append(out, block{lines: rows, render: think}, block{lines: []string{open}, render: think})
		case runner.EventText:
			rows, open := sg.stream.lines(w)
			out = append(out, block{lines: rows}, block{lines: []string{open}})
		default:
			if sg.w != w || sg.stGen != p.e.stGen || sg.rows == nil {
				sg.w, sg.stGen, sg.rows = w, p.e.stGen, toolLines(st, sg, w)
			}
			out = append(out, block{lines: sg.rows})
		}
	}
	return out
}

// toolLines renders a tool call (⚙ and its arguments) or what it got back.
func toolLines(st *Styles, sg *runSegment, w int) []string {
	if sg.kind == runner.EventToolResult {
		return toolResultLines(st, sg.tool, w)
	}
	call := "tool call"
	if sg.tool != nil {
		call = sg.tool.Name + " " + sg.tool.Arguments
		if !sg.tool.Complete {
			call += "  (arguments cut off)"
		}
	}
	var out []string
	for i, l := range wrap(Sanitize(call), w-2) {
		p := "  "
		if i == 0 {
			p = "⚙ "
		}
		out = append(out, st.Tool.Render(p+l))
	}
	return out
}

// toolResultLines shows what a tool call got back: its first lines, and
// whether it failed, was refused, cut, or replayed.
func toolResultLines(st *Styles, tc *runfolder.ToolCall, w int) []string {
	head, bad, ok := toolResultHead(tc)
	if !ok {
		return nil
	}
	style := st.Dim
	if bad {
		style = st.Warning
	}
	var out []string
	for i, l := range wrap(head, max(w-4, 1)) {
		p := "    "
		if i == 0 {
			p = "  ↳ "
		}
		out = append(out, style.Render(p+l))
	}
	for _, l := range toolResultText(tc.Result, w-4) {
		out = append(out, st.Dim.Render("    "+l))
	}
	return out
}

// changesBlock shows what a finished run changed in its overlay of the
// project: changes.patch as a diff, under a heading that says the project
// itself did not change.
func (p *runPane) changesBlock(rv *runView, w int) blocks {
	if rv.patch == "" {
		return nil
	}
	st := &p.e.st
	if rv.patchW != w || rv.patchGen != p.e.stGen || rv.patchRows == nil {
		rows := []string{"", st.Title.Render(cut("Changes ("+runfolder.PatchFile+"; the project itself did not change)", w))}
		rows = append(rows, patchLines(st, rv.patch, w)...)
		rv.patchW, rv.patchGen, rv.patchRows = w, p.e.stGen, rows
	}
	return blocks{{lines: rv.patchRows}}
}

// parentBlock says in a line what the parent session receives for a
// finished run (runfolder.ParentRecord.Summary: the acceptance, the notice,
// the files handed over; result.md holds the records); nothing for a run
// recorded before agentdesk wrote it.
func parentBlock(st *Styles, rec *runfolder.Record, w int) blocks {
	if rec == nil {
		return nil
	}
	line := rec.Parent.Summary()
	if line == "" {
		return nil
	}
	var rows []string
	for _, wl := range wrap("Parent: "+Sanitize(line)+" · records in "+runfolder.ResultFile, w) {
		rows = append(rows, st.Dim.Render(wl))
	}
	return blocks{{lines: rows}}
}

// toolResultHead is the one line that says what a tool call got back
// ("file_read: 59 bytes · recorded"), whether that is bad news (failed,
// refused, stopped), and false when the call has no result.
func toolResultHead(tc *runfolder.ToolCall) (head string, bad, ok bool) {
	if tc == nil || tc.Result == nil {
		return "", false, false
	}
	r := tc.Result
	var notes []string
	switch {
	case r.Guard == "refuse":
		notes = append(notes, "refused by the cycle guard")
	case r.Guard == "stop":
		notes = append(notes, "the cycle guard ended the run")
	case r.Refused:
		notes = append(notes, "refused")
	case r.Error:
		notes = append(notes, "failed")
	}
	if r.Label != "" {
		notes = append(notes, r.Label)
	}
	if r.Cut {
		notes = append(notes, "cut")
	}
	if r.Replayed {
		notes = append(notes, "recorded")
	}
	if r.Differs {
		notes = append(notes, "not the recorded result: the replayed replies answer that one")
	}
	head = fmt.Sprintf("%s: %d bytes", Sanitize(tc.Name), r.Bytes)
	if len(notes) > 0 {
		head += " · " + strings.Join(notes, ", ")
	}
	return head, r.Error || r.Refused || r.Guard == "refuse" || r.Guard == "stop", true
}

// toolResultMaxLines is how many lines of a tool result the Run pane and
// the transcript show; the transcript file has them all.
const toolResultMaxLines = 6

// toolResultText is the first lines of a result's text, sanitised and cut
// to w columns, with a note of how many more there are.
func toolResultText(r *runfolder.ToolResult, w int) []string {
	var out []string
	lines := strings.Split(strings.TrimRight(SanitizeText(r.Text), "\n"), "\n")
	for i, l := range lines {
		if i == toolResultMaxLines {
			out = append(out, fmt.Sprintf("… %d more lines (the transcript has them)", len(lines)-toolResultMaxLines))
			break
		}
		out = append(out, cut(l, w))
	}
	return out
}
