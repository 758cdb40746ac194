package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/eval/keepcase"
)

// pane is one of the right-hand tabs. It owns its state, its scrolling,
// its keys and its rendering; the root model routes keys and messages to
// it, owns focus, and lays it out. Adding a pane: see "The browser" in the root AGENTS.md.
type pane interface {
	// keyMap is the pane's own keys: the footer shows its ShortHelp.
	keyMap() help.KeyMap
	// handleKey takes a key meant for the pane (focused: the pane, not the
	// list, has focus). It returns false for a key it does not use, which
	// the root then handles (movement, focus).
	handleKey(msg tea.KeyPressMsg, focused bool) (tea.Cmd, bool)
	// content is the pane's lines at width w, before scrolling. It must be
	// cheap when nothing changed: panes cache what they build, keyed by
	// what it depends on (the catalog's generation, the selection, w).
	content(w int) blocks
	// scroller is the pane's scroll position.
	scroller() *scroller
	// need returns the background work the next frame wants at width w
	// (a listing, a rendering, a diff), or nil. It runs after every
	// Update, so it must be cheap when nothing is missing.
	need(w int) tea.Cmd
}

// env is what the root model shares with its panes: the options, the
// styles, the catalog on screen and the selection. Only the root writes
// it; panes read it and call back through its functions.
type env struct {
	opts   Options
	keys   KeyMap
	st     Styles
	stGen  int // counts style changes, for caches
	cat    *lint.Catalog
	catGen int // counts catalogs, so late background results can be told apart
	// keptSuite is the suite a run was last kept in as a test case
	// (keep.go).
	keptSuite string
	// homeGone says the home's folder was deleted while the browser ran.
	homeGone bool

	// paneFocused is true when keys go to the pane rather than the list.
	paneFocused bool

	// selected returns the list's selection (nil when the list is empty).
	selected func() *lint.File
	// notify shows a one-line notice in the footer.
	notify func(text string, bad bool) tea.Cmd
	// openViewer opens a run folder or file in the viewer overlay.
	openViewer func(path string) tea.Cmd
	// push opens an overlay (a prompt, a form) above everything.
	push func(overlay)
	// drop closes the overlays for which gone is true (the prompts of a
	// run that ended).
	drop func(gone func(overlay) bool)
	// show brings a pane to the front; activeTab is the one in front.
	show      func(tab)
	activeTab func() tab
	// tick is tea.Tick; tests replace it so that no timer runs.
	tick func(time.Duration, func(time.Time) tea.Msg) tea.Cmd
}

// shortPath writes $HOME as ~.
func (e *env) shortPath(p string) string {
	home := e.getenv("HOME")
	if home != "" && home != "/" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// shortenPaths writes $HOME as ~ wherever a path inside it appears in s.
func (e *env) shortenPaths(s string) string {
	home := e.getenv("HOME")
	if home == "" || home == "/" {
		return s
	}
	return strings.ReplaceAll(s, home+"/", "~/")
}

// getenv reads the browser's environment.
func (e *env) getenv(k string) string { return envLookup(e.opts.Environ, k) }

// config is the catalog's merged configuration, or nil.
func (e *env) config() *lint.Config {
	if e.cat == nil {
		return nil
	}
	return e.cat.Config
}

// netClaw says how the browser's trials compose a spawn's request: the
// options' audience and core, this home's playbook.
func (e *env) netClaw() runner.NetClaw {
	nc := e.opts.NetClaw
	nc.Home = e.opts.Home.Base
	return nc
}

// worded is err as the browser words it: where a key of the browser
// mends it, the key (browserWorded); else as Options.WordError words it.
func (e *env) worded(err error) error {
	if err == nil {
		return nil
	}
	err = e.browserWorded(err)
	if e.opts.WordError == nil {
		return err
	}
	return e.opts.WordError(err)
}

// browserWordedError is an error the browser has worded with its keys;
// it unwraps to the error it words.
type browserWordedError struct {
	msg string
	err error
}

func (e *browserWordedError) Error() string { return e.msg }
func (e *browserWordedError) Unwrap() error { return e.err }

// browserWorded words the errors the browser mends with its own keys, not
// with a flag: a kept case whose name the suite has (rename it there: the
// edit key opens the suite), and a route asked for the Public audience
// (the audience key switches). The typed error's text is replaced in
// place; what the browser does not word stays for Options.WordError.
func (e *env) browserWorded(err error) error {
	msg := err.Error()
	replace := func(plain, worded string) {
		if i := strings.LastIndex(msg, plain); i >= 0 {
			msg = msg[:i] + worded + msg[i+len(plain):]
		}
	}
	if nt, ok := errors.AsType[*keepcase.NameTakenError](err); ok {
		replace(nt.Error(), fmt.Sprintf("%s: %q: %v; rename that case in the suite (%s opens it), then keep again",
			nt.Path, nt.Name, keepcase.ErrNameTaken, keyName(e.keys.Run.EditCase)))
	}
	if errors.Is(err, preview.ErrPublic) {
		replace(preview.ErrPublic.Error(), preview.PublicCannotDelegate+"; "+keyName(e.keys.Layer.Audience)+" switches to the Personal or Team audience")
	}
	if msg == err.Error() {
		return err
	}
	return &browserWordedError{msg: msg, err: err}
}

// runnerUnavailable says why there is no runner.
func (e *env) runnerUnavailable() string {
	if e.opts.RunnerErr != nil {
		return e.opts.RunnerErr.Error()
	}
	return "no runs folder"
}

// scroller is a pane's scroll position: the first line shown, and, for a
// pane that can follow (the Run pane's stream), whether it keeps the end
// in view.
type scroller struct {
	offset    int
	follow    bool
	canFollow bool
}

// by scrolls n lines within total lines shown h at a time.
func (s *scroller) by(n, total, h int) {
	if s.follow {
		s.offset = max(total-h, 0)
	}
	s.offset = max(min(s.offset+n, total-h), 0)
	s.follow = s.canFollow && s.offset >= total-h
}

// top scrolls back to the first line and stops following.
func (s *scroller) top() { s.offset, s.follow = 0, false }

// window returns the first line to show of total lines, h at a time.
func (s *scroller) window(total, h int) int {
	if s.follow {
		s.offset = max(total-h, 0)
	}
	return min(s.offset, total)
}

// blocks is a pane's content as consecutive runs of lines, so that a long
// stream is shown a window at a time without being copied into one slice.
type blocks []block

// block is a run of lines, each put through render (when set) only when
// it is shown.
type block struct {
	lines  []string
	render func(string) string
}

// lines is one block of plain lines.
func lines(ls []string) blocks { return blocks{{lines: ls}} }

// len is the number of lines in all.
func (b blocks) len() int {
	n := 0
	for _, bl := range b {
		n += len(bl.lines)
	}
	return n
}

// window returns at most n lines from line from on.
func (b blocks) window(from, n int) []string {
	out := make([]string, 0, max(n, 0))
	for _, bl := range b {
		if len(out) >= n {
			break
		}
		if from >= len(bl.lines) {
			from -= len(bl.lines)
			continue
		}
		for _, l := range bl.lines[from:min(len(bl.lines), from+n-len(out))] {
			if bl.render != nil {
				l = bl.render(l)
			}
			out = append(out, l)
		}
		from = 0
	}
	return out
}

// choiceRow draws one row of a pane's list of choices (runs, test cases)
// at width w: the chosen row marked with "›" and highlighted, brighter when
// the pane has focus.
func choiceRow(st *Styles, line string, w int, chosen, focused bool) string {
	switch {
	case chosen && focused:
		return st.ListSelected.Render(fit("› "+line, w))
	case chosen:
		return st.ListCursor.Render(fit("› "+line, w))
	}
	return cut("  "+line, w)
}

// moveChoice moves *sel, the chosen one of n rows, up or down for the Up
// and Down keys, and reports whether msg was one of them.
func moveChoice(msg tea.KeyPressMsg, mv MoveKeys, sel *int, n int) bool {
	switch {
	case key.Matches(msg, mv.Up):
		*sel = max(*sel-1, 0)
	case key.Matches(msg, mv.Down):
		*sel = min(*sel+1, max(n-1, 0))
	default:
		return false
	}
	return true
}
