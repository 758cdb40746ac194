package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// bannerLines is the outcome banner of an ended run: outcome, reason, the
// error, and the artifact paths.
func bannerLines(st *Styles, k KeyMap, rv *runView, short func(string) string, w int) []string {
	if rv.record == nil {
		return bannerText(st.BannerBad, "reading the run failed: "+Sanitize(fmt.Sprint(rv.err)), w)
	}
	r := rv.record
	style := st.BannerBad
	mark := "✗ "
	if r.Outcome == vocab.Completed {
		style, mark = st.BannerGood, "✓ "
	}
	out := bannerText(style, mark+outcomeText(r), w)
	if r.Error != "" {
		for _, l := range wrap(SanitizeText(short(r.Error)), w-2) {
			out = append(out, "  "+l)
		}
	}
	dir := r.Dir
	if dir == "" {
		dir = rv.run.Dir()
	}
	if rv.writeErr != nil {
		out = append(out, bannerText(st.BannerBad, "✗ the run folder could not be written", w)...)
		for _, l := range wrap(SanitizeText(short(rv.writeErr.Error())), w-2) {
			out = append(out, "  "+l)
		}
	}
	out = append(out, artifactLines(st, dir, r.Files, short, w)...)
	for _, l := range wrap(keyName(k.Run.Open)+": open in the viewer · "+keyName(k.Browser.Tab4)+": Artifacts pane", w-2) {
		out = append(out, st.Dim.Render("  "+l))
	}
	return out
}

// bannerText is a banner line in style, the text wrapped on as many full
// width lines as it needs.
func bannerText(style lipgloss.Style, text string, w int) []string {
	var out []string
	for _, l := range wrap(text, max(w-1, 1)) {
		out = append(out, style.Render(fit(" "+l, w)))
	}
	return out
}

// artifactLines names a run folder and its files, truncated-output.md
// marked partial.
func artifactLines(st *Styles, dir string, files []string, short func(string) string, w int) []string {
	out := labelled(st, "Artifacts ", Sanitize(short(dir))+string(filepath.Separator), w)
	var names []string
	for _, f := range files {
		name := Sanitize(f)
		if f == runfolder.TruncatedOutputFile {
			name += " (partial)"
		}
		names = append(names, name)
	}
	for _, l := range wrap(strings.Join(names, " · "), w-2) {
		out = append(out, "  "+l)
	}
	return out
}
