package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// helpOverlay shows the full key map; any key closes it.
type helpOverlay struct{ keys KeyMap }

func (helpOverlay) update(msg tea.Msg, keys KeyMap) (tea.Cmd, bool) {
	if _, ok := msg.(tea.KeyPressMsg); ok {
		return nil, true
	}
	return nil, false
}

func (o helpOverlay) render(st *Styles, w, h int) []string {
	return frame(st, "Keys (any key closes)", helpLines(st, o.keys, w-4), w, h)
}

// helpColumn is the width of one column of the key map.
const helpColumn = 36

// helpLines lays the key map out in as many columns as fit in w, groups
// flowing down one column and into the next.
func helpLines(st *Styles, k KeyMap, w int) []string {
	groups := k.fullHelp()
	var blocks [][]string
	total := 0
	for _, g := range groups {
		b := []string{st.Title.Render(g.Title)}
		for _, e := range g.Entries {
			b = append(b, st.FooterKey.Render(fit(e.Keys, 13))+" "+e.Desc)
		}
		blocks = append(blocks, b)
		total += len(b) + 1
	}
	cols := max(1, (w+2)/(helpColumn+2))
	target := (total + cols - 1) / cols
	var columns [][]string
	var cur []string
	for _, b := range blocks {
		if len(cur) > 0 && len(cur)+len(b) > target && len(columns) < cols-1 {
			columns = append(columns, cur)
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, "")
		}
		cur = append(cur, b...)
	}
	columns = append(columns, cur)
	height := 0
	for _, c := range columns {
		height = max(height, len(c))
	}
	out := make([]string, height)
	for i := range out {
		var parts []string
		for j, c := range columns {
			cell := ""
			if i < len(c) {
				cell = c[i]
			}
			if j < len(columns)-1 {
				cell = fit(cell, helpColumn)
			}
			parts = append(parts, cell)
		}
		out[i] = strings.TrimRight(strings.Join(parts, "  "), " ")
	}
	return out
}
