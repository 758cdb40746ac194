package mcp

import "sync"

// Notes collects the notes of a run's servers as they come.
type Notes struct {
	mu    sync.Mutex
	notes []string
}

// Add keeps a note.
func (n *Notes) Add(s string) {
	n.mu.Lock()
	n.notes = append(n.notes, s)
	n.mu.Unlock()
}

// All returns the notes kept so far, in order.
func (n *Notes) All() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.notes...)
}
