package tui

import "strings"

// patchLines renders a unified diff (changes.patch) at width w: added
// lines in the add style, removed ones in the delete style, hunk headers
// in the hunk style, file headers bold; text made safe, long lines
// wrapped.
func patchLines(st *Styles, text string, w int) []string {
	var out []string
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		l = SanitizeText(l)
		style := &st.Dim
		plain := false
		switch {
		case strings.HasPrefix(l, "diff --git "), strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			style = &st.Title
		case strings.HasPrefix(l, "@@"):
			style = &st.DiffHunk
		case strings.HasPrefix(l, "+"):
			style = &st.DiffAdd
		case strings.HasPrefix(l, "-"):
			style = &st.DiffDel
		case strings.HasPrefix(l, " "):
			plain = true
		}
		for _, r := range wrap(l, max(w, 1)) {
			if plain {
				out = append(out, r)
				continue
			}
			out = append(out, style.Render(r))
		}
	}
	return out
}
