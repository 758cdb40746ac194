// Package tui is agentdesk's interactive browser: the Bubble Tea program an
// author keeps open beside the editor.
//
// It owns one root Model that holds focus, lays out and routes every
// message; the panes (Definition, Layer, Run, Artifacts, Tests), each
// owning its state, scrolling, keys and rendering; the agent list; the
// overlays on a stack above them (help, prompts, the run form, the
// viewer); one key map per view and
// the Styles; and the adapter that turns lint/watch's changes into messages.
// The root AGENTS.md ("The browser") says how a message flows and where a new pane
// goes. It never parses or validates a definition itself (it asks lint),
// never builds a layer itself (it asks preview) and never talks to a model
// itself (it asks runner). All I/O happens in tea.Cmds; every string that
// came from a file or a model is sanitised before it reaches the terminal.
package tui
