package tui

import (
	"reflect"

	"charm.land/bubbles/v2/key"
)

// KeyGroup is one titled group of the browser's keys, as the help overlay
// and the documentation show them.
type KeyGroup struct {
	// Title names where the keys work: "Move", "Run", "Viewer"…
	Title string
	// Keys are the group's lines, in the order the help overlay shows them.
	Keys []KeyLine
}

// KeyLine is one line of a KeyGroup: the keys as the screen names them
// ("↑/k ↓/j") and what they do.
type KeyLine struct {
	Keys, Desc string
	// Match is every key the line answers to, as Bubble Tea names them
	// ("up", "k", "down", "j").
	Match []string
}

// Reference is every key of the browser, grouped: first the groups of the
// help overlay (?), then the keys of the filter line, the prompts, the run
// form, the approval prompt, the viewer and the help overlay itself. The
// keys table of docs/browser.md and `agentdesk help keys` are made from it.
func (k KeyMap) Reference() []KeyGroup {
	groups := k.helpGroups()
	groups = append(groups,
		keyHelp{"Filter line", k.Filter},
		keyHelp{"Text fields", bindings{k.Input.DeleteChar, k.Input.DeleteWord, k.Input.DeleteAll}},
		keyHelp{"Prompts", k.Prompt},
		keyHelp{"Run form", k.RunForm},
		keyHelp{"Approval prompt", k.Approval},
		keyHelp{"Viewer", k.Viewer},
		keyHelp{"Help overlay", joinedKeys{k.Help, k.Move}},
	)
	var out []KeyGroup
	for _, g := range groups {
		kg := KeyGroup{Title: g.title}
		for _, line := range g.keys.FullHelp() {
			for _, b := range line {
				kg.Keys = append(kg.Keys, KeyLine{Keys: b.Help().Key, Desc: b.Help().Desc, Match: b.Keys()})
			}
		}
		out = append(out, kg)
	}
	return out
}

// Bindings is every key.Binding of the key map, named by its view and
// field ("Run.Cancel"), for checking that each is documented.
func (k KeyMap) Bindings() map[string]key.Binding {
	out := map[string]key.Binding{}
	v := reflect.ValueOf(k)
	for i := range v.NumField() {
		view := v.Field(i)
		for j := range view.NumField() {
			if b, ok := view.Field(j).Interface().(key.Binding); ok {
				out[v.Type().Field(i).Name+"."+view.Type().Field(j).Name] = b
			}
		}
	}
	return out
}
