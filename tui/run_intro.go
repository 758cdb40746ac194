package tui

import (
	"fmt"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// content is the Run pane for the selected file: the run's head (task,
// model, clocks) built fresh, the stream from its kept rows, the banner.
func (p *runPane) content(w int) blocks {
	e := p.e
	st := &e.st
	sel := e.selected()
	switch {
	case e.opts.Runner == nil:
		return lines(wrap("Trial runs are off: "+Sanitize(e.runnerUnavailable()), w))
	case sel == nil:
		return lines([]string{st.Dim.Render("Select an agent to run it.")})
	}
	if p.compare.on && p.compare.agentPath == sel.Path {
		return p.compareBlocks(w)
	}
	rv := p.current(sel.Path)
	if rv == nil {
		return lines(p.intro(sel, w))
	}
	return p.runBlocks(rv, sel, w)
}

// intro tells how a run of sel would go before there is one.
func (p *runPane) intro(sel *lint.File, w int) []string {
	e := p.e
	st := &e.st
	var out []string
	if sel.Status == lint.NotLoaded {
		return wrap(fileLabel(sel)+" is not loaded: "+Sanitize(sel.Reason)+". The runtime would not run it; enable its feed in SkillFeeds in netclaw.json.", w)
	}
	if sel.Status != lint.Loaded {
		return wrap(fileLabel(sel)+" is rejected: the runtime would not run it. Fix it first (see the Definition pane).", w)
	}
	out = append(out, st.Title.Render("Trial run of "+fileLabel(sel)))
	out = append(out, wrap("Press "+keyName(e.keys.Run.Run)+", give a task (and optional context), and the agent runs against the model NetClaw would use, classified as the runtime would: completed, output_truncated, thinking_only_timeout…", w)...)
	cfg := e.config()
	out = append(out, "")
	model, err := e.runModel(sel)
	if err != nil {
		out = append(out, wrap(st.Error.Render("model: ")+Sanitize(err.Error()), w)...)
	} else {
		out = append(out, modelLines(st, model, w, true)...)
	}
	switch r := p.recorded[model.Endpoint]; {
	case err != nil || model.Type != runner.ReplayProviderType:
		out = append(out, limitLines(st, runner.LimitsFor(cfg, sel.Def), w)...)
	case r == nil || !r.ready:
		out = append(out, labelled(st, "Limits   ", "reading the recording…", w)...)
	case r.err != nil:
		out = append(out, labelled(st, "Limits   ", "the recording's: "+Sanitize(r.err.Error()), w)...)
	default:
		out = append(out, limitLines(st, r.limits, w)...)
		for _, l := range labelled(st, "         ", "recorded: a replay applies the recording's limits", w) {
			out = append(out, st.Dim.Render(l))
		}
	}
	if err == nil {
		out = append(out, labelled(st, "Tools    ", Sanitize(p.toolsLine(sel, model)), w)...)
	}
	out = append(out, "")
	for _, l := range wrap("Runs go to "+Sanitize(e.shortPath(e.opts.Runner.Dir())), w) {
		out = append(out, st.Dim.Render(l))
	}
	return out
}
func modelLines(st *Styles, md runfolder.Model, w int, endpoint bool) []string {
	line := fmt.Sprintf("%s at %s (%s)", md.ModelID, md.Provider, md.Type)
	if endpoint {
		line = fmt.Sprintf("%s at %s (%s, %s)", md.ModelID, md.Provider, md.Type, md.Endpoint)
	}
	out := labelled(st, "Model    ", Sanitize(line), w)
	if md.Via != "" {
		for _, l := range wrap("via "+Sanitize(md.Via), max(w-9, 10)) {
			out = append(out, "         "+st.Dim.Render(l))
		}
	}
	return out
}

func limitLines(st *Styles, l runner.Limits, w int) []string {
	line := fmt.Sprintf("prefill %s · inter-delta %s · no-progress %s · thinking-only %s",
		dur(l.Prefill), dur(l.InterDelta), dur(l.NoProgress), dur(l.ThinkingOnlyCap()))
	return labelled(st, "Limits   ", line, w)
}

// dur prints a duration compactly: 850ms, 12.3s, 20m, 1h0m.
func dur(d time.Duration) string {
	switch {
	case d <= 0:
		return "—"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		if d%time.Minute == 0 {
			return fmt.Sprintf("%dm", int(d.Minutes()))
		}
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}
