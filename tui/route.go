package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/route"
	"github.com/agentdesk/agentdesk/tui/demo"
)

// routeSamples is how many times the Layer pane's route asks.
const routeSamples = route.DefaultSamples

// routeMsg carries the frontline's picks for a request, asked in the
// background (route.Ask makes a run per sample).
type routeMsg struct {
	id       int
	request  string
	audience preview.Audience
	layer    string // the layer sent
	res      *route.Result
	err      error
}

// routeCmd asks the frontline model, with the audience's layer of c, which
// agent it picks for request, routeSamples times. In the demo (demoHome
// set) the demo's recorded frontline answers instead, for a request its
// routing suite holds.
func routeCmd(rn *runner.Runner, c *lint.Catalog, a preview.Audience, request string, id int, demoHome *lint.Home, nc runner.NetClaw, project string) tea.Cmd {
	return func() tea.Msg {
		msg := routeMsg{id: id, request: request, audience: a}
		opts := route.Options{Samples: routeSamples, Jobs: route.DefaultJobs}
		if demoHome != nil {
			tapes, sources, err := demo.FrontlineReplays(*demoHome, request)
			if err != nil {
				msg.err = err
				return msg
			}
			opts.Samples, opts.Replays, opts.ReplaySources = len(tapes), tapes, sources
		}
		q := route.Question{Catalog: c, Audience: a, Request: request}
		if demoHome == nil {
			// The frontline as NetClaw's main session when the install
			// is found (the demo's recordings use the default).
			if err := route.AsNetClaw(&q, nc, project); err != nil {
				msg.err = err
				return msg
			}
		}
		p, err := route.Prepare(q)
		if err != nil {
			msg.err = err
			return msg
		}
		msg.layer = p.Frontline.Layer
		res, err := route.Ask(context.Background(), rn, p, opts)
		if err == nil && res.NoTools != "" {
			err = errors.New(res.NoTools)
		}
		msg.res, msg.err = res, err
		return msg
	}
}

// routeView is the Layer pane's last question to the frontline: asked,
// answered, or refused before any call.
type routeView struct {
	id       int
	request  string
	audience preview.Audience
	asking   bool
	layer    string
	res      *route.Result
	err      string
	// demo is set when the demo's recorded frontline answered.
	demo bool
}

// askRoute opens the prompt for a request; its answer comes back as a
// routeMsg.
func (p *layerPane) askRoute() tea.Cmd {
	e := p.e
	if e.opts.Runner == nil {
		return e.notify("route needs a runs folder: "+e.runnerUnavailable(), true)
	}
	last := ""
	if p.route != nil {
		last = p.route.request
	}
	a := p.audience
	help := fmt.Sprintf("Sends the request to the Main model as a %s session would: a short preamble, this layer as a system message and the spawn_agent tool, %d times. Each sample leaves a run folder.",
		a, routeSamples)
	var demoHome *lint.Home
	if e.opts.Demo {
		// The demo has no model: its recorded frontline answers the
		// requests its routing suite holds.
		h := e.opts.Home
		demoHome = &h
		if reqs := demo.FrontlineRequests(); last == "" && len(reqs) > 0 {
			last = reqs[0]
		}
		help = "The demo has no model: its recorded frontline (the recordings of " + demo.FrontlineSuite + ") answers the requests that suite holds: " +
			strings.Join(demo.FrontlineRequests(), " · ")
	}
	e.push(&promptOverlay{
		keys:  e.keys.Prompt,
		title: "Which agent does the frontline pick? (" + a.String() + ")",
		help:  help,
		input: lineInput{keys: e.keys.Input, value: last, limit: 2000},
		validate: func(s string) error {
			if strings.TrimSpace(s) == "" {
				return errors.New("type the user's request, as they would")
			}
			return nil
		},
		submit: func(request string) tea.Cmd {
			p.routeID++
			p.route = &routeView{id: p.routeID, request: request, audience: a, asking: true, demo: demoHome != nil}
			p.invalidate()
			return routeCmd(e.opts.Runner, e.cat, a, request, p.routeID, demoHome, e.netClaw(), e.opts.Project)
		},
	})
	return nil
}

// routed keeps the answer to the last question asked (an older one is
// dropped) and says so in the footer.
func (p *layerPane) routed(msg routeMsg) tea.Cmd {
	if p.route == nil || msg.id != p.route.id {
		return nil
	}
	v := p.route
	v.asking, v.layer, v.res = false, msg.layer, msg.res
	p.invalidate()
	if msg.err != nil {
		v.err = p.e.worded(msg.err).Error()
		return p.e.notify("route: "+Sanitize(firstLine(v.err)), true)
	}
	top := route.Distribution(v.res.Samples)
	if len(top) == 0 {
		// Every sample got no answer (the model server down or failing):
		// an error, not a pick.
		for _, smp := range v.res.Samples {
			if why := smp.NoAnswer(); why != "" {
				return p.e.notify("route: no answer: "+Sanitize(firstLine(why)), true)
			}
		}
		return nil
	}
	return p.e.notify(fmt.Sprintf("frontline picked %s in %d of %d", Sanitize(shareName(top[0])), top[0].Count, len(v.res.Samples)), false)
}

// shareName is a pick's name as the pane shows it.
func shareName(s route.Share) string {
	if s.Kind == route.Answered {
		return "none (answered itself)"
	}
	return s.Label
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// routeLines renders the last question and its picks, for the pane's head:
// the request, the distribution over the samples, each sample's pick, and
// a note when the layer shown is no longer the one that was sent.
func (p *layerPane) routeLines(st *Styles, current string, w int) []string {
	v := p.route
	if v == nil {
		return nil
	}
	out := []string{"", st.Title.Render("Frontline pick") + st.Dim.Render("  "+keyName(p.e.keys.Layer.Route)+": ask again")}
	out = append(out, labelled(st, "Request  ", Sanitize(v.request)+st.Dim.Render(" ("+v.audience.String()+")"), w)...)
	switch {
	case v.asking && v.demo:
		return append(out, st.Dim.Render("Replaying the recorded frontline…"))
	case v.asking:
		return append(out, st.Dim.Render(fmt.Sprintf("Asking the frontline model %d times…", routeSamples)))
	case v.err != "":
		return append(out, styledLines(st.Error, wrap(Sanitize(v.err), w))...)
	}
	m := v.res.Prepared.Model
	out = append(out, labelled(st, "Model    ", Sanitize(m.ModelID)+st.Dim.Render(" ("+Sanitize(m.Via)+")"), w)...)
	switch {
	case v.demo:
		out = append(out, styledLines(st.Dim, wrap("Replayed from the demo's recorded frontline ("+demo.FrontlineSuite+"'s recordings): no model is asked.", w))...)
	case m.Type == runner.ReplayProviderType:
		out = append(out, styledLines(st.Warning, wrap("The model is a recording (a provider of type replay, as in "+p.e.opts.Words.Eval.Demo+"): each sample replays it, so these picks are not a frontline model's choice.", w))...)
	}
	out = append(out, shareLines(st, v.res.Samples, w)...)
	for _, smp := range v.res.Samples {
		out = append(out, cut(st.Dim.Render(fmt.Sprintf("  %d. %s", smp.N, Sanitize(smp.Describe()))), w))
	}
	if v.layer != "" && (v.audience != p.audience || v.layer != current) {
		out = append(out, styledLines(st.Warning, wrap("The layer below is not the one that was sent (an edit, or another audience since): "+keyName(p.e.keys.Layer.Route)+" asks again.", w))...)
	}
	return out
}

// shareLines is the distribution of the samples' picks, a bar each (a
// delegation marked), then the samples that got no answer, which are
// errors and not picks.
func shareLines(st *Styles, samples []route.Sample, w int) []string {
	n := len(samples)
	dist := route.Distribution(samples)
	width := 0
	for _, s := range dist {
		width = max(width, len(shareName(s)))
	}
	var out []string
	for _, s := range dist {
		name := Sanitize(shareName(s))
		line := fmt.Sprintf("  %-*s  %d/%d  %s", width, name, s.Count, n, strings.Repeat("█", s.Count*10/max(n, 1)))
		if s.Kind == route.Delegated {
			line = st.Label.Render(line)
		}
		out = append(out, cut(line, w))
	}
	noAnswer := 0
	for _, smp := range samples {
		if smp.NoAnswer() != "" {
			noAnswer++
		}
	}
	if noAnswer > 0 {
		// Not a pick: the samples that got no answer are errors.
		out = append(out, cut(st.Error.Render(fmt.Sprintf("  %s  %d/%d  error: not counted as picks", route.NoAnswerLabel, noAnswer, n)), w))
	}
	return out
}
