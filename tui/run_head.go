package tui

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint"
)

// runBlocks renders one run: what it is, its clocks, the stream, and the
// outcome banner once it has ended.
func (p *runPane) runBlocks(rv *runView, sel *lint.File, w int) blocks {
	e := p.e
	st := &e.st
	k := e.keys
	var head []string
	add := func(ls ...string) { head = append(head, ls...) }
	runs := p.forAgent(sel.Path)
	pos := 0
	for i, r := range runs {
		if r == rv {
			pos = i + 1
		}
	}
	state := "Running"
	if rv.ended() {
		state = outcomeText(rv.record)
	}
	title := fmt.Sprintf("Run %d/%d · %s · %s", pos, len(runs), shortID(rv.id), state)
	more := keyName(k.Run.Run) + ": new run"
	if len(runs) > 1 {
		more = keyName(k.Run.NextRun) + ": next run · " + more
	}
	if !rv.ended() {
		more = keyName(k.Run.Cancel) + ": cancel · " + more
	}
	add(spread(st.Title.Render(title), st.Dim.Render(more), w)...)
	add(p.watchLines(sel.Path, w)...)
	add(p.sampleLines(sel.Path, w)...)
	add(wrap("Task: "+Sanitize(rv.task), w)...)
	if rv.context != "" {
		for _, l := range wrap("Context: "+Sanitize(rv.context), w) {
			add(st.Dim.Render(l))
		}
	}
	add(modelLines(st, rv.run.Model(), w, false)...)
	if rv.prompt != nil && len(rv.prompt.Missing) > 0 {
		add(cut(st.Warning.Render("Sent without "+strings.Join(rv.prompt.Missing, ", ")+": "+Sanitize(homeNamed(e.cat, rv.prompt.MissingReasons[rv.prompt.Missing[0]]))), w))
	}
	add(clockLines(st, rv, w)...)
	add(st.Separator.Render(strings.Repeat("─", w)))
	out := blocks{{lines: head}}
	if rv.prompt != nil {
		out = append(out, block{lines: sentLines(st, e.cat, rv, p.showRequest, keyName(k.Run.Request), w)})
	}
	out = append(out, p.streamBlocks(rv, w)...)
	out = append(out, p.changesBlock(rv, w)...)
	if rv.ended() {
		out = append(out, block{lines: append([]string{""}, bannerLines(st, k, rv, e.shortenPaths, w)...)})
		out = append(out, parentBlock(st, rv.record, w)...)
		if toolsRefused(rv) {
			offer := "This model does not take tools: press " + keyName(k.Run.NoTools) + " to run the same task again without them (no tools offered, none listed in the prompt)."
			out = append(out, block{lines: append([]string{""}, bannerText(st.Banner, offer, w)...)})
		}
	}
	return out
}

// sentLines shows the request the run sent: the system prompt's parts
// with their tokens and sources, the parts it lacked, and the first user
// message.
func sentLines(st *Styles, c *lint.Catalog, rv *runView, open bool, key string, w int) []string {
	p := rv.prompt
	total := 0
	for _, part := range p.Parts {
		total += part.Tokens
	}
	head := fmt.Sprintf("Request sent (%s): system prompt of %d parts, %d tokens", Sanitize(p.Audience), len(p.Parts), total)
	if !open {
		// Wrapped, not cut: the key is at the end.
		return wrapStyled(st.Dim, head+" · "+key+": show", w)
	}
	out := []string{spread(st.Title.Render(head), st.Dim.Render(key+": hide"), w)[0]}
	for _, part := range p.Parts {
		out = append(out, cut(fmt.Sprintf("  %6d  %-20s %s", part.Tokens, part.Part, st.Dim.Render(Sanitize(homeRelative(c, part.Source)))), w))
	}
	for _, m := range p.Missing {
		out = append(out, wrapStyled(st.Warning, "  "+m+" missing: "+Sanitize(homeRelative(c, p.MissingReasons[m])), w)...)
	}
	out = append(out, "", st.Title.Render("First user message"))
	for _, l := range strings.Split(SanitizeText(rv.message), "\n") {
		for _, wl := range wrap(l, w-2) {
			out = append(out, st.Dim.Render("  "+wl))
		}
	}
	return append(out, st.Separator.Render(strings.Repeat("─", w)))
}

// clockLines shows elapsed time, time to first delta, and the time since
// the last progress against each watchdog limit.
func clockLines(st *Styles, rv *runView, w int) []string {
	s := rv.status
	if rv.record != nil && rv.record.Ended() {
		first := "none"
		if rv.record.Timings.FirstDeltaMS != nil {
			first = dur(time.Duration(*rv.record.Timings.FirstDeltaMS) * time.Millisecond)
		}
		line := fmt.Sprintf("took %s · first delta %s · %d in / %d out tokens",
			dur(time.Duration(rv.record.Timings.TotalMS)*time.Millisecond), first, rv.record.Usage.InputTokens, rv.record.Usage.OutputTokens)
		return labelled(st, "Clock    ", line, w)
	}
	first := "waiting"
	if rv.hasFirstAt {
		// Since the run started, as run.json counts it (the watchdog's
		// own first delta is the current call's).
		first = dur(rv.firstAt)
	}
	out := labelled(st, "Clock    ", fmt.Sprintf("elapsed %s · first delta %s", dur(s.Elapsed), first), w)
	if !s.HasCall {
		return out
	}
	c, l := s.Call, s.Call.Limits
	var parts []string
	if !c.HasFirstDelta {
		// Keepalives refresh the prefill budget; the no-progress
		// ceiling runs from the call's start.
		parts = append(parts,
			fmt.Sprintf("prefill silence %s / %s", dur(c.SinceWire), dur(l.Prefill)),
			fmt.Sprintf("since progress %s / %s", dur(c.SinceProgress), dur(l.NoProgress)))
	} else {
		parts = append(parts,
			fmt.Sprintf("since progress %s / %s", dur(c.SinceProgress), dur(l.NoProgress)),
			fmt.Sprintf("wire silence %s / %s", dur(c.SinceWire), dur(l.InterDelta)))
	}
	if c.ThinkingOnly > 0 {
		parts = append(parts, fmt.Sprintf("thinking only %s / %s", dur(c.ThinkingOnly), dur(l.ThinkingOnlyCap())))
	}
	parts = append(parts, fmt.Sprintf("call %s", dur(c.Elapsed)))
	out = append(out, labelled(st, "Limits   ", strings.Join(parts, " · "), w)...)
	if c.HasNext {
		for _, l := range wrap(fmt.Sprintf("next: %s in %s", c.Next.Reason, dur(c.NextIn)), max(w-9, 10)) {
			out = append(out, st.Dim.Render("         "+l))
		}
	}
	return out
}
