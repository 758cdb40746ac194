package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// KeyMap is every key the browser answers to. Panes never match raw key
// strings; they match these bindings, so a user could remap them in one place.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
	Focus, Back      key.Binding // into the right pane / back to the list
	NextTab, PrevTab key.Binding
	Tab1, Tab2       key.Binding
	Tab3, Tab4       key.Binding
	Filter           key.Binding
	Reload           key.Binding

	Edit      key.Binding
	New       key.Binding
	Duplicate key.Binding

	Audience key.Binding // Layer: cycle Public/Team/Personal
	Diff     key.Binding // Layer: toggle the diff against the previous layer

	Run          key.Binding // Run: start a trial run of the selected agent
	Cancel       key.Binding // Run: cancel the shown run
	FoldThinking key.Binding // Run: fold or unfold thinking
	NextRun      key.Binding // Run: show the next run of this agent

	Open  key.Binding // Artifacts: open in the viewer
	Pager key.Binding // Artifacts: open in $PAGER

	Help key.Binding
	Quit key.Binding
}

// DefaultKeyMap returns the browser's standard keys.
func DefaultKeyMap() KeyMap {
	b := func(keys []string, help, desc string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Up:       b([]string{"up", "k"}, "↑/k", "up"),
		Down:     b([]string{"down", "j"}, "↓/j", "down"),
		PageUp:   b([]string{"pgup", "ctrl+u"}, "pgup", "page up"),
		PageDown: b([]string{"pgdown", "ctrl+d", "space"}, "pgdn", "page down"),
		Top:      b([]string{"home", "g"}, "g", "top"),
		Bottom:   b([]string{"end", "G"}, "G", "bottom"),
		Focus:    b([]string{"enter", "right", "l"}, "enter", "into pane"),
		Back:     b([]string{"esc", "left", "h"}, "esc", "back to list"),
		NextTab:  b([]string{"tab"}, "tab", "next pane"),
		PrevTab:  b([]string{"shift+tab"}, "shift+tab", "previous pane"),
		Tab1:     b([]string{"1"}, "1", "Definition"),
		Tab2:     b([]string{"2"}, "2", "Layer"),
		Tab3:     b([]string{"3"}, "3", "Run"),
		Tab4:     b([]string{"4"}, "4", "Artifacts"),
		Filter:   b([]string{"/"}, "/", "filter"),
		Reload:   b([]string{"ctrl+r"}, "ctrl+r", "rescan now"),

		Edit:      b([]string{"e"}, "e", "edit in $EDITOR"),
		New:       b([]string{"n"}, "n", "new agent"),
		Duplicate: b([]string{"D"}, "D", "duplicate"),

		Audience: b([]string{"a"}, "a", "cycle audience"),
		Diff:     b([]string{"v"}, "v", "diff vs previous layer"),

		Run:          b([]string{"r"}, "r", "start a trial run"),
		Cancel:       b([]string{"x"}, "x", "cancel run"),
		FoldThinking: b([]string{"t"}, "t", "fold thinking"),
		NextRun:      b([]string{"]"}, "]", "next run"),

		Open:  b([]string{"o"}, "o", "open in viewer"),
		Pager: b([]string{"p"}, "p", "open in $PAGER"),

		Help: b([]string{"?"}, "?", "help"),
		Quit: b([]string{"q", "ctrl+c"}, "q", "quit"),
	}
}

// helpEntry is one line of the full key map: the keys and what they do.
type helpEntry struct{ Keys, Desc string }

// helpGroup is one titled group of the full key map.
type helpGroup struct {
	Title   string
	Entries []helpEntry
}

// fullHelp returns the key map in the groups the help overlay shows; keys
// that mirror each other (up/down) share a line.
func (k KeyMap) fullHelp() []helpGroup {
	one := func(b key.Binding) helpEntry { return helpEntry{b.Help().Key, b.Help().Desc} }
	pair := func(a, b key.Binding, desc string) helpEntry {
		return helpEntry{a.Help().Key + " " + b.Help().Key, desc}
	}
	return []helpGroup{
		{"Move", []helpEntry{
			pair(k.Up, k.Down, "up / down"),
			pair(k.PageUp, k.PageDown, "page up / down"),
			pair(k.Top, k.Bottom, "top / bottom"),
			pair(k.Focus, k.Back, "into pane / back"),
			pair(k.NextTab, k.PrevTab, "next / previous pane"),
			one(k.Filter),
		}},
		{"Author", []helpEntry{one(k.Edit), one(k.New), one(k.Duplicate), one(k.Reload)}},
		{"Layer", []helpEntry{one(k.Audience), one(k.Diff)}},
		{"Run", []helpEntry{one(k.Run), one(k.Cancel), one(k.FoldThinking), one(k.NextRun)}},
		{"Artifacts", []helpEntry{one(k.Open), one(k.Pager)}},
		{"General", []helpEntry{
			{k.Tab1.Help().Key + "-" + k.Tab4.Help().Key, "go to pane 1-4"},
			one(k.Help), {strings.Join(k.Quit.Keys(), " "), "quit"},
		}},
	}
}

// shortHelp is the footer's one line for a pane: the bindings' keys with
// a word each.
func (k KeyMap) shortHelp(t tab) []helpEntry {
	short := func(b key.Binding, word string) helpEntry { return helpEntry{b.Help().Key, word} }
	out := []helpEntry{{"↑↓", "move"}, short(k.Filter, "filter"), short(k.NextTab, "pane")}
	switch t {
	case tabLayer:
		out = append(out, short(k.Audience, "audience"), short(k.Diff, "diff"))
	case tabRun:
		out = append(out, short(k.Run, "run"), short(k.Cancel, "cancel"), short(k.FoldThinking, "thinking"))
	case tabArtifacts:
		out = append(out, short(k.Open, "open"), short(k.Pager, "pager"))
	default:
		out = append(out, short(k.Edit, "edit"), short(k.New, "new"), short(k.Duplicate, "duplicate"))
	}
	return append(out, short(k.Help, "help"), short(k.Quit, "quit"))
}
