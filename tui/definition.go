package tui

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// defaultPrefillSeconds is SubAgents.PrefillTimeoutSeconds when the config
// does not say.
const defaultPrefillSeconds = 1800

// definitionPane is the Definition tab: what the runtime makes of the
// selected file. Its lines are built once per (catalog, selection, width,
// rendered body) and kept.
type definitionPane struct {
	e      *env
	md     *markdownCache
	prompt *promptCache
	scroll scroller
	key    definitionKey
	lines  []string
}

// definitionKey is what the Definition pane's lines depend on.
type definitionKey struct {
	catGen, stGen, w int
	path             string
	body             string
	// composed is set once the file's request is composed.
	composed bool
}

func (p *definitionPane) keyMap() help.KeyMap { return p.e.keys.Author }
func (p *definitionPane) scroller() *scroller { return &p.scroll }

// handleKey: the Definition pane has no keys of its own (the author keys
// work from every pane).
func (p *definitionPane) handleKey(tea.KeyPressMsg, bool) (tea.Cmd, bool) { return nil, false }

// need asks for the selected body rendered as markdown at width w, and
// for its spawn's request composed (the system prompt's parts).
func (p *definitionPane) need(w int) tea.Cmd {
	f := p.e.selected()
	if f == nil || f.Def == nil || f.Status != lint.Loaded {
		return nil
	}
	e := p.e
	return tea.Batch(p.md.request(p.bodyKey(f, w), f.Def.Body),
		p.prompt.request(p.promptKey(f), f, e.config(), e.netClaw(), e.opts.Project))
}

// promptKey identifies f's composed request in this scan.
func (p *definitionPane) promptKey(f *lint.File) promptKey {
	return promptKey{path: f.Path, sha: f.SHA256, catGen: p.e.catGen}
}

// bodyKey identifies the rendering of f's body at pane width w.
func (p *definitionPane) bodyKey(f *lint.File, w int) markdownKey {
	return markdownKey{digest: f.Path + "\x00" + f.SHA256, width: w, style: markdownStyle(&p.e.st)}
}

func (p *definitionPane) content(w int) blocks {
	e := p.e
	f := e.selected()
	k := definitionKey{catGen: e.catGen, stGen: e.stGen, w: w}
	var composed promptResult
	if f != nil {
		k.path = f.Path
		if f.Def != nil {
			k.body, _ = p.md.get(p.bodyKey(f, w))
			composed, k.composed = p.prompt.get(p.promptKey(f))
		}
	}
	if k != p.key || p.lines == nil {
		p.key = k
		if f == nil && e.cat != nil && len(e.cat.Files) == 0 {
			p.lines = emptyHomeContent(e, w)
		} else {
			p.lines = definitionContent(&e.st, e.cat, f, w, k.body)
			if k.composed && f.Status == lint.Loaded {
				p.lines = insertPrompt(p.lines, promptLines(&e.st, e.cat, composed, e.opts.NetClaw.Audience.String(), e.opts.Words, w))
			}
		}
	}
	return lines(p.lines)
}

// insertPrompt puts the prompt's lines before the Body heading (after the
// fields), or at the end.
func insertPrompt(lines, prompt []string) []string {
	at := len(lines)
	for i, l := range lines {
		if strings.Contains(ansi.Strip(l), "Body (from line ") {
			at = i
			break
		}
	}
	out := make([]string, 0, len(lines)+len(prompt)+1)
	out = append(out, lines[:at]...)
	out = append(out, prompt...)
	out = append(out, "")
	return append(out, lines[at:]...)
}

// emptyHomeContent is the Definition pane of a home with no agent yet.
func emptyHomeContent(e *env, w int) []string {
	st := &e.st
	if e.homeGone {
		out := []string{st.Error.Render("The home is gone"), ""}
		return append(out, wrap(Sanitize(e.shortPath(e.opts.Home.Base))+" was deleted while agentdesk ran. Nothing is written there, and it is not created again: recreate it, or quit and open another home with "+e.opts.Words.Home+".", w)...)
	}
	out := []string{st.Title.Render("No agents yet"), ""}
	out = append(out, wrap("There is no agent definition in "+Sanitize(e.shortPath(e.opts.Home.Agents))+" and no server feed.", w)...)
	out = append(out, "")
	out = append(out, wrap("Press "+keyName(e.keys.Author.New)+" to create one from a template; it is listed here as soon as it is saved, loaded or rejected, with the reason.", w)...)
	return out
}

// definitionContent builds the Definition pane's lines for f at width w:
// what the runtime makes of the file, the effective fields with defaults
// marked, every diagnostic, and the body rendered as markdown (or, for a
// rejected file, the frontmatter with the offending line highlighted). body
// is the rendered markdown of the body when it is ready, else "" (the raw
// body is shown meanwhile).
func definitionContent(st *Styles, c *lint.Catalog, f *lint.File, w int, body string) []string {
	if f == nil {
		return dimLines(st, "Select an agent on the left.", w)
	}
	out := definitionHead(st, c, f, w)
	if f.Status != lint.Loaded || f.Def == nil {
		// What broke comes first: the findings, then the frontmatter with
		// the offending line, then what the fields would have been.
		out = append(out, diagnosticSection(st, c, f, w)...)
		out = append(out, "", st.Title.Render("Frontmatter"))
		out = append(out, frontmatterLines(st, f, w)...)
		return append(out, fieldSection(st, c, f, w)...)
	}
	out = append(out, diagnosticSection(st, c, f, w)...)
	out = append(out, fieldSection(st, c, f, w)...)
	out = append(out, "", st.Title.Render(fmt.Sprintf("Body (from line %d)", f.Def.BodyLine)))
	if body != "" {
		return append(out, strings.Split(strings.TrimRight(body, "\n"), "\n")...)
	}
	for _, l := range strings.Split(SanitizeText(f.Def.Body), "\n") {
		out = append(out, wrap(l, w)...)
	}
	return out
}

// definitionHead is the top of the Definition pane: f's name and what
// the runtime makes of it (loaded, rejected, not loaded) with its source,
// its path, a feed file's read-only warning, and why it does not load.
func definitionHead(st *Styles, c *lint.Catalog, f *lint.File, w int) []string {
	title := Sanitize(f.Name())
	if title == "" {
		title = Sanitize(filepath.Base(f.Path))
	}
	status := st.MarkLoaded.Render("loaded")
	switch f.Status {
	case lint.Rejected:
		status = st.MarkRejected.Render("rejected")
	case lint.NotLoaded:
		status = st.Dim.Render("not loaded")
	}
	out := spread(st.Title.Render(title), status+st.Dim.Render(" · "+Sanitize(f.Source.String())), w)
	out = append(out, styledLines(st.Dim, wrap(Sanitize(displayPath(c, f.Path)), w))...)
	if f.Source.IsFeed() && f.Status != lint.NotLoaded {
		// A folder the runtime does not read is synced by nothing either:
		// the not-loaded note below says what to do instead.
		out = append(out, styledLines(st.Warning, wrap("read-only: synced from feed "+Sanitize(f.Source.Feed)+"; the next sync overwrites edits", w))...)
	}
	switch {
	case f.Reason == "" || f.Status == lint.Loaded:
	case f.Status == lint.NotLoaded:
		out = append(out, "")
		out = append(out, styledLines(st.Warning, wrap("Not loaded: "+Sanitize(f.Reason)+". The runtime never reads this feed's folder: "+Sanitize(lint.FeedNotLoadedHint(f.Source.Feed, f.Reason, false))+".", w))...)
	default:
		out = append(out, "")
		out = append(out, styledLines(st.Error, wrap("Runtime: "+Sanitize(homeRelative(c, f.Reason)), w))...)
	}
	return out
}

// diagnosticSection lists f's diagnostics under a title with their
// count; it is empty when there are none.
func diagnosticSection(st *Styles, c *lint.Catalog, f *lint.File, w int) []string {
	if len(f.Diagnostics) == 0 {
		return nil
	}
	out := []string{"", st.Title.Render(fmt.Sprintf("Diagnostics (%d)", len(f.Diagnostics)))}
	for _, d := range f.Diagnostics {
		out = append(out, diagnosticLines(st, c, d, w)...)
	}
	return out
}

// fieldSection lists f's effective fields (when it has a definition) and
// what publishing it would give (when that says anything).
func fieldSection(st *Styles, c *lint.Catalog, f *lint.File, w int) []string {
	var out []string
	if f.Def != nil {
		out = append(out, "", st.Title.Render("Fields"))
		out = append(out, fieldLines(st, c, f.Def, w)...)
	}
	if pub := publishLines(st, c, f, w); len(pub) > 0 {
		out = append(out, "")
		out = append(out, pub...)
	}
	return out
}

// displayPath shows path relative to the home's base folder when it is
// inside it.
func displayPath(c *lint.Catalog, path string) string {
	if c == nil {
		return path
	}
	return c.Home.Rel(path)
}

// homeRelative writes paths inside the home relative to it, so messages
// that quote a path fit the pane.
func homeRelative(c *lint.Catalog, s string) string {
	if c == nil || c.Home.Base == "" || c.Home.Base == "/" {
		return s
	}
	return strings.ReplaceAll(s, c.Home.Base+string(filepath.Separator), "")
}

// homeNamed writes the home's folder as <home> in a sentence (a reason,
// an error), where a path made relative to it would lose what it is
// relative to ("looked in bin").
func homeNamed(c *lint.Catalog, s string) string {
	if c == nil || c.Home.Base == "" || c.Home.Base == "/" {
		return s
	}
	return strings.ReplaceAll(s, c.Home.Base+string(filepath.Separator), "<home>"+string(filepath.Separator))
}

// fieldLines lists the effective fields, the ones the file did not set
// marked as defaults.
func fieldLines(st *Styles, c *lint.Catalog, d *lint.Definition, w int) []string {
	var out []string
	for _, r := range fieldRows(c, d) {
		out = append(out, r.lines(st, w)...)
	}
	return out
}

// fieldRow is one effective field of a definition: its key, its value,
// and the suffix that marks a value the file did not set ("" when set).
type fieldRow struct{ key, value, suffix string }

// fieldKeyW is the width of the Fields section's key column.
const fieldKeyW = 24

// fieldRows lists d's effective fields in the order the pane shows them;
// a field with a default the file does not set is marked as the default
// (prefillTimeoutSeconds as the SubAgents default, from c's config).
func fieldRows(c *lint.Catalog, d *lint.Definition) []fieldRow {
	prefill := defaultPrefillSeconds
	if c != nil && c.Config != nil && c.Config.SubAgents.PrefillTimeoutSeconds > 0 {
		prefill = c.Config.SubAgents.PrefillTimeoutSeconds
	}
	tools := "[]"
	if len(d.Tools) > 0 {
		tools = strings.Join(d.Tools, ", ") + " (advisory)"
	}
	prefillText := strconv.Itoa(d.PrefillTimeoutSeconds)
	if !d.Set("prefillTimeoutSeconds") {
		prefillText = strconv.Itoa(prefill)
	}
	rows := []struct{ key, value, dflt string }{
		{"name", d.Name, ""},
		{"description", d.Description, ""},
		{"tools", tools, "[]"},
		{"modelRole", d.ModelRole, lint.DefaultModelRole},
		{"timeoutSeconds", strconv.Itoa(d.TimeoutSeconds), strconv.Itoa(lint.DefaultTimeoutSeconds)},
		{"prefillTimeoutSeconds", prefillText, "SubAgents.PrefillTimeoutSeconds"},
		{"visibility", d.Visibility, lint.DefaultVisibility},
		{"emitStructuredFindings", strconv.FormatBool(d.EmitStructuredFindings), "false"},
	}
	if d.Version != "" {
		rows = append(rows, struct{ key, value, dflt string }{"version", d.Version, ""})
	}
	out := make([]fieldRow, len(rows))
	for i, r := range rows {
		out[i] = fieldRow{key: r.key, value: r.value}
		switch {
		case r.dflt == "" || d.Set(r.key):
		case r.key == "prefillTimeoutSeconds":
			out[i].suffix = " (SubAgents default)"
		default:
			out[i].suffix = " (default)"
		}
	}
	return out
}

// lines renders the field in a pane w wide: the key in a column and the
// value wrapped beside it, or, too narrow for a column of values, the
// value wrapped under its key. A long description is cut to three lines
// and its length; the default's suffix follows the value, on a line of
// its own when it does not fit.
func (r fieldRow) lines(st *Styles, w int) []string {
	val := Sanitize(r.value)
	vw := w - fieldKeyW - 2
	narrow := vw < 10
	indent := fieldKeyW + 2
	var out []string
	if narrow {
		out = append(out, "  "+st.Label.Render(cut(r.key, w-2)))
		vw, indent = max(w-4, 1), 4
	}
	lines := wrap(val, vw)
	if len(lines) == 0 {
		lines = []string{""}
	}
	if r.key == "description" && len(lines) > 4 {
		lines = append(lines[:3], fmt.Sprintf("… (%d characters)", len([]rune(val))))
	}
	for i, l := range lines {
		line := strings.Repeat(" ", indent) + l
		if i == 0 && !narrow {
			line = "  " + st.Label.Render(fit(r.key, fieldKeyW)) + l
		}
		out = append(out, line)
	}
	switch last := lines[len(lines)-1]; {
	case r.suffix == "":
	case ansi.StringWidth(last)+len(r.suffix) <= vw:
		out[len(out)-1] += st.Default.Render(r.suffix)
	default:
		out = append(out, strings.Repeat(" ", indent)+st.Default.Render(r.suffix))
	}
	return out
}

// publishLines shows what SkillServer would publish (the manifest entry's
// version and digest, or why the file cannot be published as it is) and,
// for a feed file, what the feed synced and whether the bytes still match.
func publishLines(st *Styles, c *lint.Catalog, f *lint.File, w int) []string {
	var out []string
	// The publish state only where it helps: a file with a version, a feed
	// file whose sync state has one, or a version SkillServer would refuse.
	// "No version" on every local agent says nothing.
	fs, feed := preview.SyncOf(f)
	version := ""
	if feed && fs.State != preview.NotSynced && f.Def != nil && f.Def.Version == "" {
		version = fs.Version
	}
	if e, err := preview.ManifestEntry(f, version, ""); err == nil {
		out = append(out, st.Title.Render("Publish"))
		out = append(out, indented(Sanitize(e.Name)+" "+Sanitize(e.Version)+" · "+e.Digest, w)...)
		for _, l := range indented(Sanitize(e.URL), w) {
			out = append(out, st.Dim.Render(l))
		}
	} else if d := preview.FileDigest(f); d != "" && !errors.Is(err, preview.ErrNoVersion) && f.Status == lint.Loaded {
		out = append(out, st.Title.Render("Publish"))
		out = append(out, indented("digest "+d, w)...)
		for _, l := range wrap("not publishable as it is: "+Sanitize(homeRelative(c, err.Error())), w-2) {
			out = append(out, "  "+st.Dim.Render(l))
		}
	}
	if feed {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, feedLines(st, fs, w)...)
	}
	return out
}

// feedLines shows what a feed file's sync state records of it: the version
// synced and when, and whether its bytes still match (or that the feed's
// .sync-state.json has no entry for it).
func feedLines(st *Styles, fs preview.FeedSync, w int) []string {
	out := []string{st.Title.Render("Feed " + Sanitize(fs.Feed))}
	if fs.State == preview.NotSynced {
		return append(out, "  "+st.Warning.Render("no entry in the feed's .sync-state.json"))
	}
	out = append(out, indented("synced version "+Sanitize(fs.Version)+" at "+Sanitize(fs.SyncedAt), w)...)
	state := st.MarkLoaded.Render("bytes match the sync state")
	switch fs.State {
	case preview.SyncModified:
		state = st.Warning.Render("edited since the sync: the next sync overwrites it")
	case preview.SyncNoDigest:
		state = st.Dim.Render("the sync state records no digest to compare")
	}
	return append(out, "  "+state)
}

// indented is text wrapped two columns in.
func indented(text string, w int) []string {
	out := wrap(text, max(w-2, 1))
	for i := range out {
		out[i] = "  " + out[i]
	}
	return out
}

// diagnosticLines renders one diagnostic: position, severity, rule, the
// message wrapped, and the hint.
func diagnosticLines(st *Styles, c *lint.Catalog, d lint.Diagnostic, w int) []string {
	pos := "file"
	if d.Line > 0 {
		pos = fmt.Sprintf("%d:%d", d.Line, d.Column)
	}
	sev := st.Warning.Render(d.Severity.String())
	if d.Severity == lint.Error {
		sev = st.Error.Render(d.Severity.String())
	}
	head := "  " + pos + " " + sev + " " + st.Dim.Render("["+d.Rule+"]")
	out := []string{head}
	for _, l := range wrap(Sanitize(homeRelative(c, d.Message)), w-4) {
		out = append(out, "    "+l)
	}
	if d.Hint != "" {
		for _, l := range wrap("hint: "+Sanitize(d.Hint), w-4) {
			out = append(out, "    "+st.Hint.Render(l))
		}
	}
	return out
}

// frontmatterLines shows the start of a rejected file with line numbers,
// up to and including the closing "---" (at most 40 lines), the offending
// line highlighted.
func frontmatterLines(st *Styles, f *lint.File, w int) []string {
	bad := offendingLine(f)
	lines := strings.Split(f.Text, "\n")
	end := min(len(lines), 40)
	for i := 1; i < end; i++ {
		if strings.HasPrefix(lines[i], "---") {
			end = i + 1
			break
		}
	}
	if bad > end && bad <= len(lines) {
		end = min(bad+1, len(lines))
	}
	numW := len(strconv.Itoa(end))
	var out []string
	for i := 0; i < end; i++ {
		text := Sanitize(strings.TrimSuffix(lines[i], "\r"))
		num := fmt.Sprintf("%*d", numW, i+1)
		if i+1 == bad {
			out = append(out, st.Highlight.Render(fit("> "+num+" │ "+text, w)))
			continue
		}
		out = append(out, cut("  "+st.LineNo.Render(num+" │")+" "+text, w))
	}
	if len(f.Text) == 0 {
		out = append(out, st.Dim.Render("  (the file is empty)"))
	}
	return out
}

// offendingLine is the line of the first diagnostic that makes the runtime
// reject the file (else the first error), 0 when none has a line.
func offendingLine(f *lint.File) int {
	first := 0
	for _, d := range f.Diagnostics {
		if d.Line == 0 || d.Severity != lint.Error {
			continue
		}
		if r, ok := lint.RuleByID(d.Rule); ok && r.Rejects {
			return d.Line
		}
		if first == 0 {
			first = d.Line
		}
	}
	return first
}
