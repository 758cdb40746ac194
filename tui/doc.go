// Package tui is agentdesk's interactive browser: the Bubble Tea program an
// author keeps open beside the editor.
//
// It owns one root Model that holds focus and routes every message, the
// panes that render (the agent list, Definition, Layer, Run, Artifacts), the
// overlays that sit on a stack above them (help, prompts, the viewer), the
// KeyMap and the Styles, and the Watcher that turns file-system events into
// messages. It never parses or validates a definition itself (it asks lint),
// never builds a layer itself (it asks preview) and never talks to a model
// itself (it asks runner). All I/O happens in tea.Cmds; every string that
// came from a file or a model is sanitised before it reaches the terminal.
package tui
