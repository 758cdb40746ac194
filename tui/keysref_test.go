package tui

import (
	"slices"
	"strings"
	"testing"
)

// TestKeyReferenceCoversEveryBinding: each binding of the key map is
// documented: some line of Reference answers to all of its keys and says
// what it does. A key added to keys.go without a help line fails here.
func TestKeyReferenceCoversEveryBinding(t *testing.T) {
	km := DefaultKeyMap()
	ref := km.Reference()
	for name, b := range km.Bindings() {
		found := false
		for _, g := range ref {
			for _, l := range g.Keys {
				if strings.TrimSpace(l.Desc) == "" || strings.TrimSpace(l.Keys) == "" {
					t.Errorf("%s: a line with no keys or no description: %+v", g.Title, l)
				}
				covered := true
				for _, k := range b.Keys() {
					covered = covered && slices.Contains(l.Match, k)
				}
				found = found || covered
			}
		}
		if !found {
			t.Errorf("key %s (%v) is in no line of KeyMap.Reference: add it to its view's FullHelp", name, b.Keys())
		}
	}
}
