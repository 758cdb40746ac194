package tui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// layerTopAgents is how many of the most expensive agents the Layer pane
// lists by name (the selected one is always shown).
const layerTopAgents = 8

// layerBuild is one audience's layer built from one catalog.
type layerBuild struct {
	text    string
	cost    preview.LayerCost
	enabled bool
}

// layerMsg carries the layers of one catalog, every audience, built in the
// background: a layer of 10,000 agents and its token count take too long
// for Update.
type layerMsg struct {
	gen    int
	builds map[preview.Audience]layerBuild
}

// layerCmd builds every audience's layer of c.
func layerCmd(c *lint.Catalog, gen int) tea.Cmd {
	return func() tea.Msg {
		out := make(map[preview.Audience]layerBuild, len(preview.Audiences))
		for _, a := range preview.Audiences {
			text := preview.Layer(c, a)
			out[a] = layerBuild{text: text, cost: preview.LayerTokens(c, a), enabled: preview.Enabled(c, a)}
		}
		return layerMsg{gen: gen, builds: out}
	}
}

// layerState is what the Layer pane knows about one audience: the current
// layer and the one before the last change, for the diff.
type layerState struct {
	gen     int
	cur     layerBuild
	prev    string
	hasPrev bool
	// diff is prev against cur once computed (diffGen == gen); diffAsked
	// says it is being computed.
	diff      string
	diffGen   int
	diffAsked int
}

// layerDiffMsg carries the diff of one audience's layer against the one
// before, computed in the background: a diff of 10,000 agents' layers
// takes too long for Update or View.
type layerDiffMsg struct {
	gen      int
	audience preview.Audience
	text     string
}

// layerDiffCmd diffs two layers.
func layerDiffCmd(gen int, a preview.Audience, prev, cur string) tea.Cmd {
	return func() tea.Msg {
		return layerDiffMsg{gen: gen, audience: a, text: preview.Diff(prev, cur)}
	}
}

// layerPane is the Layer tab: the [available-subagents] layer for the
// chosen audience, its token cost, and a diff against the previous layer.
type layerPane struct {
	e      *env
	scroll scroller
	// jumpPending asks the pane to bring the selection's block into view
	// once the layer is there.
	jumpPending bool

	audience preview.Audience
	diff     bool
	states   map[preview.Audience]*layerState

	// body caches the layer text (or the diff) as rendered lines for one
	// (gen, audience, width, diff, colour): the expensive part, which a new
	// selection does not change.
	bodyKey   string
	body      []string
	blocks    map[string][2]int // lower-cased agent name → its lines in body
	byTokens  []preview.AgentTokens
	tokensKey string
	// cache holds the whole pane for one selection too, so a frame only
	// slices; selFrom and selTo are the selection's block in it (-1 when
	// it has none).
	cacheKey       string
	cacheLines     []string
	selFrom, selTo int

	// route is the last question to the frontline (R), routeID counts
	// them, and routeGen counts its changes, for the cache.
	route    *routeView
	routeID  int
	routeGen int
}

// apply records freshly built layers; a layer that changed keeps its
// predecessor for the diff. Results older than those on screen are dropped.
func (p *layerPane) apply(msg layerMsg) {
	if p.states == nil {
		p.states = map[preview.Audience]*layerState{}
	}
	for a, b := range msg.builds {
		st := p.states[a]
		if st == nil {
			p.states[a] = &layerState{gen: msg.gen, cur: b}
			continue
		}
		if msg.gen <= st.gen {
			continue
		}
		if b.text != st.cur.text {
			st.prev, st.hasPrev = st.cur.text, true
		}
		st.gen, st.cur = msg.gen, b
	}
	p.invalidate()
}

func (p *layerPane) invalidate() {
	p.cacheKey, p.bodyKey, p.tokensKey = "", "", ""
	p.routeGen++
}

// storeDiff keeps a diff computed in the background, unless the layer
// changed again meanwhile.
func (p *layerPane) storeDiff(msg layerDiffMsg) {
	if s := p.states[msg.audience]; s != nil && s.gen == msg.gen {
		s.diff, s.diffGen = msg.text, msg.gen
		p.invalidate()
	}
}

func (p *layerPane) keyMap() help.KeyMap { return p.e.keys.Layer }
func (p *layerPane) scroller() *scroller { return &p.scroll }

// handleKey cycles the audience and toggles the diff.
func (p *layerPane) handleKey(msg tea.KeyPressMsg, _ bool) (tea.Cmd, bool) {
	switch {
	case key.Matches(msg, p.e.keys.Layer.Audience):
		p.cycleAudience()
		p.scroll.offset = 0
		p.jumpPending = true
		return nil, true
	case key.Matches(msg, p.e.keys.Layer.Diff):
		p.toggleDiff()
		p.scroll.offset = 0
		return nil, true
	case key.Matches(msg, p.e.keys.Layer.Route):
		return p.askRoute(), true
	}
	return nil, false
}

// need asks for the diff when it shows and is not computed yet.
func (p *layerPane) need(int) tea.Cmd {
	s := p.states[p.audience]
	if !p.diff || s == nil || !s.hasPrev || s.diffGen == s.gen || s.diffAsked == s.gen {
		return nil
	}
	s.diffAsked = s.gen
	return layerDiffCmd(s.gen, p.audience, s.prev, s.cur.text)
}

func (p *layerPane) content(w int) blocks {
	return lines(p.lines(&p.e.st, p.e.cat, p.e.selected(), w))
}

// jump scrolls so the selection's block shows, once, after the selection
// or the audience changed: from the top when the block fits there, else
// from a line above the block. The pane is w×h.
func (p *layerPane) jump(w, h int) {
	if !p.jumpPending || p.states[p.audience] == nil {
		return // nothing to jump to until the layer is built
	}
	p.jumpPending = false
	total := len(p.lines(&p.e.st, p.e.cat, p.e.selected(), w))
	from, to, ok := p.selectedBlock()
	if !ok || to <= h {
		return
	}
	p.scroll.offset = max(min(from-1, total-h), 0)
}

// cycleAudience moves to the next audience: Personal, Team, Public.
func (p *layerPane) cycleAudience() {
	i := slices.Index(preview.Audiences, p.audience)
	p.audience = preview.Audiences[(i+1)%len(preview.Audiences)]
	p.invalidate()
}

// toggleDiff switches between the layer text and the diff.
func (p *layerPane) toggleDiff() {
	p.diff = !p.diff
	p.invalidate()
}

// lines returns the pane's lines at width w for the selected file.
func (p *layerPane) lines(st *Styles, c *lint.Catalog, sel *lint.File, w int) []string {
	s := p.states[p.audience]
	if s == nil {
		return dimLines(st, "Building the layer…", w)
	}
	selKey := ""
	if sel != nil {
		selKey = sel.Path + "\x00" + sel.SHA256
	}
	base := fmt.Sprintf("%d|%d|%d|%t|%t|%d", s.gen, p.audience, w, p.diff, st.Color, p.e.stGen)
	key := fmt.Sprintf("%s|%s|%d", base, selKey, p.routeGen)
	if key == p.cacheKey {
		return p.cacheLines
	}
	if p.bodyKey != base {
		p.bodyKey = base
		p.body, p.blocks = p.buildBody(st, s, w)
	}
	head := p.buildHead(st, c, s, sel, w)
	out := make([]string, 0, len(head)+len(p.body))
	out = append(out, head...)
	start := len(out)
	out = append(out, p.body...)
	p.selFrom, p.selTo = -1, -1
	if sel != nil && sel.Def != nil && sel.Status == lint.Loaded {
		if r, ok := p.blocks[strings.ToLower(sel.Def.Name)]; ok {
			for i := r[0]; i < r[1]; i++ {
				out[start+i] = st.Highlight.Render(fit(ansi.Strip(p.body[i]), w))
			}
			p.selFrom, p.selTo = start+r[0], start+r[1]
		}
	}
	p.cacheKey, p.cacheLines = key, out
	return out
}

// selectedBlock returns the lines of the selection's block in the content
// last built, false when it has none (not in the layer, or the diff shows).
func (p *layerPane) selectedBlock() (from, to int, ok bool) {
	if p.cacheKey == "" || p.selFrom < 0 {
		return 0, 0, false
	}
	return p.selFrom, p.selTo, true
}

// buildHead renders the part of the pane above the layer text: audience,
// cost, banners, the selection's note, the most expensive agents.
func (p *layerPane) buildHead(st *Styles, c *lint.Catalog, s *layerState, sel *lint.File, w int) []string {
	out := []string{p.audienceLine(st, w)}
	cost := s.cur.cost
	tokens := fmt.Sprintf("%d tokens on every turn", cost.Total)
	if s.cur.enabled && len(cost.Agents) > 0 {
		tokens += fmt.Sprintf(" · %d fixed · %d agents", cost.Fixed, len(cost.Agents))
	}
	out = append(out, labelled(st, "Cost     ", tokens+st.Dim.Render(" ("+preview.TokenEncoding+")"), w)...)

	if b := layerBanner(c, p.audience, s.cur.enabled); b != "" {
		out = append(out, "")
		for _, l := range wrap(b, w-2) {
			out = append(out, st.Banner.Render(fit(" "+l, w)))
		}
	}
	if note := selectionNote(c, sel, s.cur, p.audience); note != "" {
		out = append(out, "")
		out = append(out, styledLines(st.Warning, wrap(note, w))...)
	}
	out = append(out, p.routeLines(st, s.cur.text, w)...)
	if s.cur.enabled && len(cost.Agents) > 0 {
		out = append(out, "", st.Title.Render("Tokens per agent"))
		out = append(out, agentTokenLines(st, p.agentsByTokens(s), sel, w)...)
	}
	if p.diff {
		return append(out, "", st.Title.Render("Diff against the layer before the last change")+st.Dim.Render("  "+keyName(p.e.keys.Layer.Diff)+": back"))
	}
	return append(out, "", st.Title.Render("Layer text")+st.Dim.Render("  "+keyName(p.e.keys.Layer.Diff)+": diff"))
}

// audienceLine shows the audiences, the one shown marked, and the key
// that moves to the next. Narrow, the audience shown is named alone (cut,
// the line would show Personal whichever was chosen), then without the
// key.
func (p *layerPane) audienceLine(st *Styles, w int) string {
	var auds []string
	active := ""
	for _, a := range preview.Audiences {
		name := a.String()
		if a == p.audience {
			name = st.TabActive.Render(" " + name + " ")
			active = name
		} else {
			name = st.Dim.Render(" " + name + " ")
		}
		auds = append(auds, name)
	}
	label, next := st.Label.Render("Audience "), st.Dim.Render("  "+keyName(p.e.keys.Layer.Audience)+": next")
	line := label + strings.Join(auds, "") + next
	if ansi.StringWidth(line) > w {
		line = label + active + next
	}
	if ansi.StringWidth(line) > w {
		line = label + active
	}
	return cut(line, w)
}

// agentsByTokens is the layer's agents, the most expensive first, sorted
// once per layer and audience.
func (p *layerPane) agentsByTokens(s *layerState) []preview.AgentTokens {
	tk := fmt.Sprintf("%d|%d", s.gen, p.audience)
	if p.tokensKey != tk {
		p.tokensKey = tk
		p.byTokens = slices.Clone(s.cur.cost.Agents)
		slices.SortStableFunc(p.byTokens, func(x, y preview.AgentTokens) int { return cmp.Compare(y.Tokens, x.Tokens) })
	}
	return p.byTokens
}

// buildBody renders the layer text, or the diff, as lines of at most w
// columns, and finds each agent's block in them.
func (p *layerPane) buildBody(st *Styles, s *layerState, w int) ([]string, map[string][2]int) {
	if p.diff {
		return diffBody(st, s, w), nil
	}
	if s.cur.text == "" {
		return dimLines(st, "(empty: the frontline model sees no sub-agent layer)", w), nil
	}
	var out []string
	blocks := agentBlocks{at: map[string][2]int{}}
	for _, l := range strings.Split(s.cur.text, "\n") {
		if name, ok := strings.CutPrefix(l, "## "); ok {
			blocks.end(len(out))
			blocks.open, blocks.start = strings.ToLower(name), len(out)
		}
		if l == "" {
			blocks.end(len(out))
		}
		text := Sanitize(l)
		if ansiWidthFits(text, w) {
			out = append(out, text)
		} else {
			out = append(out, wrap(text, w)...)
		}
	}
	blocks.end(len(out))
	delete(blocks.at, "how to delegate")
	return out, blocks.at
}

// diffBody is the diff against the layer before the last change, or why
// there is none to show (no change yet, still comparing, or equal).
func diffBody(st *Styles, s *layerState, w int) []string {
	switch {
	case !s.hasPrev:
		return dimLines(st, "No change since agentdesk started.", w)
	case s.diffGen != s.gen:
		return dimLines(st, "Comparing the layers…", w)
	case s.diff == "":
		return dimLines(st, "The layers are equal.", w)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimRight(s.diff, "\n"), "\n") {
		out = append(out, diffLines(st, l, w)...)
	}
	return out
}

// agentBlocks finds each agent's block (from its "## name" heading to the
// blank line after it) in the layer's rendered lines: at holds the first
// block of each lower-cased name, as [first line, end).
type agentBlocks struct {
	at    map[string][2]int
	open  string // the block being read ("": none)
	start int    // its first line
}

// end closes the block being read, if any, before line end.
func (b *agentBlocks) end(end int) {
	if b.open == "" {
		return
	}
	if _, dup := b.at[b.open]; !dup {
		b.at[b.open] = [2]int{b.start, end}
	}
	b.open = ""
}

// layerBanner says why the layer is empty for a whole audience.
func layerBanner(c *lint.Catalog, a preview.Audience, enabled bool) string {
	if enabled {
		return ""
	}
	if a == preview.Public {
		return "hidden for Public: sessions with the Public audience get no sub-agent layer"
	}
	where := "netclaw.json, secrets.json or NETCLAW_SubAgents__Enabled"
	if c != nil && c.Config != nil {
		if o, ok := c.Config.Origin("SubAgents:Enabled"); ok {
			switch {
			case o.Variable != "":
				where = "environment: " + o.Variable
			case o.Path != "" && o.Line > 0:
				where = fmt.Sprintf("%s:%d", o.Path, o.Line)
			case o.Path != "":
				where = o.Path
			}
		}
	}
	return "disabled by config: SubAgents.Enabled is false (" + Sanitize(homeRelative(c, where)) + ")"
}

// selectionNote says why the selected agent is missing from a layer that
// is otherwise shown.
func selectionNote(c *lint.Catalog, f *lint.File, b layerBuild, a preview.Audience) string {
	if f == nil || !b.enabled {
		return ""
	}
	name := fileLabel(f)
	switch {
	case f.Status == lint.NotLoaded:
		return name + " is not in the layer: the runtime does not read it (" + Sanitize(f.Reason) + ")"
	case f.Status != lint.Loaded:
		return name + " is not in the layer: the runtime rejects it (" + rejectRule(f) + ")"
	case f.Def != nil && !f.Def.UserFacing():
		return name + " is not in the layer: it is internal (visibility: " + Sanitize(f.Def.Visibility) + ")"
	}
	return ""
}

// agentTokenLines lists the most expensive agents, and the selected one.
func agentTokenLines(st *Styles, agents []preview.AgentTokens, sel *lint.File, w int) []string {
	selName := ""
	if sel != nil && sel.Status == lint.Loaded {
		selName = sel.Name()
	}
	var out []string
	for i, a := range agents {
		isSel := selName != "" && strings.EqualFold(a.Name, selName)
		if i >= layerTopAgents && !isSel {
			continue
		}
		line := fmt.Sprintf("  %5d  %s", a.Tokens, Sanitize(a.Name))
		if isSel {
			out = append(out, st.ListCursor.Render(fit(line+"  ◂ selected", w)))
			continue
		}
		out = append(out, cut(line, w))
	}
	if n := len(agents) - len(out); n > 0 {
		out = append(out, st.Dim.Render(fmt.Sprintf("  … and %d more", n)))
	}
	return out
}

// diffLines colours one line of a unified diff, wrapped under its +, -
// or space.
func diffLines(st *Styles, l string, w int) []string {
	style := lipgloss.NewStyle()
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		style = st.Dim
	case strings.HasPrefix(l, "+"):
		style = st.DiffAdd
	case strings.HasPrefix(l, "-"):
		style = st.DiffDel
	case strings.HasPrefix(l, "@@"):
		style = st.DiffHunk
	}
	text := Sanitize(l)
	if ansiWidthFits(text, w) || w < 4 {
		return []string{style.Render(cut(text, w))}
	}
	mark, rest := text[:1], text[1:]
	if strings.HasPrefix(l, "@@") || strings.HasPrefix(l, "+++") || strings.HasPrefix(l, "---") {
		mark, rest = "", text
	}
	var out []string
	for i, r := range wrap(rest, w-1) {
		p := " "
		if i == 0 && mark != "" {
			p = mark
		} else if i == 0 {
			p = ""
			r = cut(r, w)
		}
		out = append(out, style.Render(p+r))
	}
	return out
}

// dimLines is text wrapped at w, dimmed.
func dimLines(st *Styles, text string, w int) []string {
	var out []string
	for _, l := range wrap(text, w) {
		out = append(out, st.Dim.Render(l))
	}
	return out
}

// ansiWidthFits reports whether plain text fits in w columns without
// measuring it when its byte length already says so.
func ansiWidthFits(s string, w int) bool {
	return len(s) <= w || ansi.StringWidth(s) <= w
}
