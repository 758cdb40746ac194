package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// This file is the only place the browser names a key. Each view has its
// own key map implementing help.KeyMap: the footer renders its ShortHelp,
// the help overlay its FullHelp, and Update matches its bindings. A user
// could remap any key here and every view, hint and help line follows.

// KeyMap is every key map of the browser, one per view.
type KeyMap struct {
	Browser   BrowserKeys
	Move      MoveKeys
	Author    AuthorKeys
	Layer     LayerKeys
	Run       RunKeys
	Artifacts ArtifactsKeys
	Tests     TestsKeys
	Filter    FilterKeys
	Input     InputKeys
	Prompt    PromptKeys
	Approval  ApprovalKeys
	RunForm   RunFormKeys
	Viewer    ViewerKeys
	Help      HelpKeys
}

// BrowserKeys are the root model's keys: focus, panes, filter, rescan,
// help and quit.
type BrowserKeys struct {
	Focus, Back      key.Binding // into the right pane / back to the list
	NextTab, PrevTab key.Binding
	Tab1, Tab2       key.Binding
	Tab3, Tab4       key.Binding
	Tab5             key.Binding
	Filter           key.Binding
	Reload           key.Binding
	Help             key.Binding
	Quit             key.Binding
}

// MoveKeys move the list's selection or scroll a pane, the help overlay
// and the viewer.
type MoveKeys struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
}

// AuthorKeys write definitions: edit, new, duplicate.
type AuthorKeys struct {
	Edit, New, Duplicate key.Binding
}

// LayerKeys are the Layer pane's.
type LayerKeys struct {
	Audience key.Binding // cycle Personal, Team, Public
	Diff     key.Binding // toggle the diff against the previous layer
	Route    key.Binding // ask the frontline model which agent it picks for a request
}

// RunKeys are the Run pane's; Run works from every pane.
type RunKeys struct {
	Run          key.Binding // start a trial run of the selected agent
	Cancel       key.Binding // cancel the shown run
	FoldThinking key.Binding
	NextRun      key.Binding // show the agent's next run
	Open         key.Binding // open the run's artifacts in the viewer
	NoTools      key.Binding // run again without tools (a model that takes none)
	Request      key.Binding // show or hide the request the run sent
	Compare      key.Binding // compare the run shown with the one before it
	CompareBack  key.Binding // compare with a run further back
	Watch        key.Binding // re-run the last task on every save
	Keep         key.Binding // keep the run shown as a test case
	EditCase     key.Binding // open the suite of the kept case in $EDITOR
}

// ArtifactsKeys are the Artifacts pane's.
type ArtifactsKeys struct {
	Open   key.Binding // open the selected run in the viewer
	Choose key.Binding // the same, from the focused list of runs
	Pager  key.Binding // open result.md in $PAGER
	Keep   key.Binding // keep the selected run as a test case
}

// TestsKeys are the Tests pane's; Run works from every pane.
type TestsKeys struct {
	Run    key.Binding // run the selected agent's suite
	Open   key.Binding // open the chosen case's run in the viewer
	Choose key.Binding // the same, from the focused list of cases
}

// FilterKeys are the filter line's (typing goes to InputKeys).
type FilterKeys struct {
	Clear, Keep key.Binding
	Up, Down    key.Binding // move the selection while typing
	Quit        key.Binding
}

// InputKeys edit a one-line text field.
type InputKeys struct {
	DeleteChar, DeleteWord, DeleteAll key.Binding
}

// PromptKeys answer a one-line prompt.
type PromptKeys struct {
	Submit, Cancel key.Binding
}

// ApprovalKeys answer a trial's request to run a tool call that needs
// approval.
type ApprovalKeys struct {
	Once, ForRun, Deny key.Binding
	// CancelRun cancels the run that asks (the Run pane's cancel key,
	// which the prompt would otherwise swallow).
	CancelRun key.Binding
	// View opens the whole call in the viewer.
	View key.Binding
}

// RunFormKeys fill in a trial run's task and context.
type RunFormKeys struct {
	NextField, Start, Cancel key.Binding
}

// ViewerKeys browse a run's artifacts.
type ViewerKeys struct {
	Close              key.Binding
	NextFile, PrevFile key.Binding
	Pager              key.Binding
}

// HelpKeys scroll and close the help overlay.
type HelpKeys struct {
	Close key.Binding
}

// DefaultKeyMap returns the browser's standard keys.
func DefaultKeyMap() KeyMap {
	b := func(help, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
	}
	return KeyMap{
		Browser: BrowserKeys{
			Focus:   b("enter", "into pane", "enter", "right", "l"),
			Back:    b("esc", "back to list", "esc", "left", "h"),
			NextTab: b("tab", "pane", "tab"),
			PrevTab: b("shift+tab", "previous pane", "shift+tab"),
			Tab1:    b("1", "Definition", "1"),
			Tab2:    b("2", "Layer", "2"),
			Tab3:    b("3", "Run", "3"),
			Tab4:    b("4", "Artifacts", "4"),
			Tab5:    b("5", "Tests", "5"),
			Filter:  b("/", "filter", "/"),
			Reload:  b("ctrl+r", "rescan now", "ctrl+r"),
			Help:    b("?", "help", "?"),
			Quit:    b("q", "quit", "q", "ctrl+c"),
		},
		Move: MoveKeys{
			Up:       b("↑/k", "up", "up", "k"),
			Down:     b("↓/j", "down", "down", "j"),
			PageUp:   b("pgup", "page up", "pgup", "ctrl+u"),
			PageDown: b("pgdn", "page down", "pgdown", "ctrl+d", "space"),
			Top:      b("g", "top", "home", "g"),
			Bottom:   b("G", "bottom", "end", "G"),
		},
		Author: AuthorKeys{
			Edit:      b("e", "edit", "e"),
			New:       b("n", "new", "n"),
			Duplicate: b("D", "duplicate", "D"),
		},
		Layer: LayerKeys{
			Audience: b("a", "audience", "a"),
			Diff:     b("v", "diff", "v"),
			Route:    b("R", "route", "R"),
		},
		Run: RunKeys{
			Run:          b("r", "run", "r"),
			Cancel:       b("x", "cancel", "x"),
			FoldThinking: b("t", "thinking", "t"),
			NextRun:      b("]", "next run", "]"),
			Open:         b("o", "open", "o"),
			NoTools:      b("w", "again without tools", "w"),
			Request:      b("s", "request sent", "s"),
			Compare:      b("c", "compare", "c"),
			CompareBack:  b("[", "earlier run", "["),
			Watch:        b("W", "re-run on save", "W"),
			Keep:         b("K", "keep as test", "K"),
			EditCase:     b("E", "edit kept case", "E"),
		},
		Artifacts: ArtifactsKeys{
			Open:   b("o", "open", "o"),
			Choose: b("enter", "open", "enter"),
			Pager:  b("p", "pager", "p"),
			Keep:   b("K", "keep as test", "K"),
		},
		Tests: TestsKeys{
			Run:    b("T", "test", "T"),
			Open:   b("o", "open", "o"),
			Choose: b("enter", "open", "enter"),
		},
		Filter: FilterKeys{
			Clear: b("esc", "clear", "esc"),
			Keep:  b("enter", "keep", "enter"),
			Up:    b("↑", "up", "up"),
			Down:  b("↓", "down", "down"),
			Quit:  b("ctrl+c", "quit", "ctrl+c"),
		},
		Input: InputKeys{
			DeleteChar: b("backspace", "delete", "backspace", "ctrl+h"),
			DeleteWord: b("ctrl+w", "delete word", "ctrl+w"),
			DeleteAll:  b("ctrl+u", "clear", "ctrl+u"),
		},
		Prompt: PromptKeys{
			Submit: b("enter", "ok", "enter"),
			Cancel: b("esc", "cancel", "esc", "ctrl+c"),
		},
		Approval: ApprovalKeys{
			Once:   b("o", "approve once", "o", "y"),
			ForRun: b("a", "approve for this run", "a"),
			Deny:   b("d", "deny", "d", "n", "esc"),
			// ctrl+c too: it quits nowhere else while the prompt is up.
			CancelRun: b("x", "cancel the run", "x", "ctrl+c"),
			View:      b("v", "view whole call", "v"),
		},
		RunForm: RunFormKeys{
			NextField: b("tab", "next field", "tab", "shift+tab", "up", "down"),
			Start:     b("enter", "start", "enter"),
			Cancel:    b("esc", "cancel", "esc", "ctrl+c"),
		},
		Viewer: ViewerKeys{
			Close:    b("esc", "close", "esc", "q", "ctrl+c"),
			NextFile: b("tab", "next file", "tab", "right", "l", "]"),
			PrevFile: b("shift+tab", "previous file", "shift+tab", "left", "h", "["),
			Pager:    b("p", "$PAGER", "p"),
		},
		Help: HelpKeys{
			Close: b("?/esc/q", "close", "?", "esc", "q"),
		},
	}
}

// keyName is how text on screen names b's key ("r", "ctrl+r").
func keyName(b key.Binding) string { return b.Help().Key }

// relabel is b with another description: the footer says a word, the
// help overlay a phrase, for the same keys.
func relabel(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// pair is one help line for two bindings that mirror each other (up and
// down); it matches both.
func pair(a, b key.Binding, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(append(a.Keys(), b.Keys()...)...), key.WithHelp(a.Help().Key+" "+b.Help().Key, desc))
}

// delta is how far a movement key moves: a line, a page, or all the way
// to the top or bottom; false for any other key.
func (k MoveKeys) delta(msg tea.KeyPressMsg, page int) (int, bool) {
	switch {
	case key.Matches(msg, k.Up):
		return -1, true
	case key.Matches(msg, k.Down):
		return 1, true
	case key.Matches(msg, k.PageUp):
		return -page, true
	case key.Matches(msg, k.PageDown):
		return page, true
	case key.Matches(msg, k.Top):
		return -1 << 30, true
	case key.Matches(msg, k.Bottom):
		return 1 << 30, true
	}
	return 0, false
}

// ShortHelp is "↑↓ move" for the footer.
func (k MoveKeys) ShortHelp() []key.Binding {
	return []key.Binding{key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...), key.WithHelp("↑↓", "move"))}
}

// FullHelp pairs the movement keys.
func (k MoveKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{
		pair(k.Up, k.Down, "up / down"),
		pair(k.PageUp, k.PageDown, "page up / down"),
		pair(k.Top, k.Bottom, "top / bottom"),
	}}
}

// ShortHelp is the footer's start: filter and pane.
func (k BrowserKeys) ShortHelp() []key.Binding { return []key.Binding{k.Filter, k.NextTab} }

// FullHelp is the browser's own keys in two groups: moving around, and
// the rest.
func (k BrowserKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{pair(k.Focus, k.Back, "into pane / back"), pair(k.NextTab, k.PrevTab, "next / previous pane"), relabel(k.Filter, "filter the list")},
		{tabKeys(k), relabel(k.Help, "the full key map"), allKeysShown(k.Quit)},
	}
}

// tabKeys is one help line for the five pane keys.
func tabKeys(k BrowserKeys) key.Binding {
	var keys []string
	for _, b := range []key.Binding{k.Tab1, k.Tab2, k.Tab3, k.Tab4, k.Tab5} {
		keys = append(keys, b.Keys()...)
	}
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(k.Tab1.Help().Key+"-"+k.Tab5.Help().Key, "go to pane 1-5"))
}

// allKeysShown is b with every key it answers to in its help ("q ctrl+c").
func allKeysShown(b key.Binding) key.Binding {
	b.SetHelp(strings.Join(b.Keys(), " "), b.Help().Desc)
	return b
}

// tail is what the footer always keeps, however narrow: help and quit.
func (k BrowserKeys) tail() []key.Binding { return []key.Binding{k.Help, k.Quit} }

// ShortHelp is the Definition pane's footer: the author keys.
func (k AuthorKeys) ShortHelp() []key.Binding { return []key.Binding{k.Edit, k.New, k.Duplicate} }

// FullHelp describes the author keys.
func (k AuthorKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{relabel(k.Edit, "edit in $EDITOR"), relabel(k.New, "new agent"), relabel(k.Duplicate, "duplicate")}}
}

// ShortHelp is the Layer pane's footer.
func (k LayerKeys) ShortHelp() []key.Binding { return []key.Binding{k.Audience, k.Diff, k.Route} }

// FullHelp describes the Layer pane's keys.
func (k LayerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{relabel(k.Audience, "cycle audience"), relabel(k.Diff, "diff vs previous layer"), relabel(k.Route, "which agent the frontline picks")}}
}

// ShortHelp is the Run pane's footer.
// The request key comes before the thinking key: where the footer is
// narrow, thinking is the one cut (its fold line names its key).
func (k RunKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Run, k.Cancel, relabel(k.Request, "request"), k.FoldThinking}
}

// FullHelp describes the Run pane's keys.
func (k RunKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{relabel(k.Run, "start a trial run"), relabel(k.Cancel, "cancel run"), relabel(k.FoldThinking, "fold thinking"), k.NextRun, relabel(k.Open, "open in viewer"), relabel(k.NoTools, "run again without tools"), relabel(k.Request, "show the request sent"),
		relabel(k.Compare, "compare with the run before (and back)"), relabel(k.CompareBack, "compare with an earlier run"),
		relabel(k.Watch, "re-run the last task on every save (on/off)"), relabel(k.Keep, "keep the run as a test case"),
		relabel(k.EditCase, "open the kept case's suite in $EDITOR")}}
}

// ShortHelp is the Artifacts pane's footer.
func (k ArtifactsKeys) ShortHelp() []key.Binding { return []key.Binding{k.Open, k.Pager} }

// FullHelp describes the Artifacts pane's keys.
func (k ArtifactsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{relabel(k.Open, "open in viewer"), relabel(k.Pager, "open in $PAGER"), relabel(k.Keep, "keep the run as a test case")}}
}

// ShortHelp is the Tests pane's footer.
func (k TestsKeys) ShortHelp() []key.Binding { return []key.Binding{k.Run, k.Open} }

// FullHelp describes the Tests pane's keys.
func (k TestsKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{relabel(k.Run, "run the agent's test suite"), relabel(k.Open, "open the case's run")}}
}

// ShortHelp is the filter line's hint.
func (k FilterKeys) ShortHelp() []key.Binding { return []key.Binding{k.Keep, k.Clear} }

// FullHelp lists the filter line's keys.
func (k FilterKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Keep, k.Clear, k.Up, k.Down}}
}

// ShortHelp is the prompt's hint.
func (k PromptKeys) ShortHelp() []key.Binding { return []key.Binding{k.Submit, k.Cancel} }

// FullHelp lists the prompt's keys.
func (k PromptKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the approval prompt's hint.
func (k ApprovalKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Once, k.ForRun, k.Deny, k.CancelRun, k.View}
}

// FullHelp lists the approval prompt's keys.
func (k ApprovalKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the run form's hint.
func (k RunFormKeys) ShortHelp() []key.Binding { return []key.Binding{k.NextField, k.Start, k.Cancel} }

// FullHelp lists the run form's keys.
func (k RunFormKeys) FullHelp() [][]key.Binding { return [][]key.Binding{k.ShortHelp()} }

// ShortHelp is the viewer's hint, its close key first so that it is
// never cut.
func (k ViewerKeys) ShortHelp() []key.Binding {
	return []key.Binding{k.Close, k.NextFile, k.Pager}
}

// FullHelp lists the viewer's keys.
func (k ViewerKeys) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Close, pair(k.NextFile, k.PrevFile, "next / previous file"), k.Pager}}
}

// ShortHelp is the help overlay's hint.
func (k HelpKeys) ShortHelp() []key.Binding { return []key.Binding{k.Close} }

// FullHelp lists the help overlay's keys.
func (k HelpKeys) FullHelp() [][]key.Binding { return [][]key.Binding{{k.Close}} }

// keyHelp is one titled group of the help overlay.
type keyHelp struct {
	title string
	keys  help.KeyMap
}

// helpGroups is the help overlay's content: every view's key map, titled.
func (k KeyMap) helpGroups() []keyHelp {
	return []keyHelp{
		{"Move", joinedKeys{k.Move, browserMoveKeys(k.Browser)}},
		{"Author", joinedKeys{k.Author, reloadKeys(k.Browser)}},
		{"Layer", k.Layer},
		{"Run", k.Run},
		{"Artifacts", k.Artifacts},
		{"Tests", k.Tests},
		{"General", generalKeys(k.Browser)},
	}
}

// joinedKeys shows two key maps as one group.
type joinedKeys [2]help.KeyMap

func (j joinedKeys) ShortHelp() []key.Binding {
	return append(j[0].ShortHelp(), j[1].ShortHelp()...)
}

func (j joinedKeys) FullHelp() [][]key.Binding {
	var out []key.Binding
	for _, g := range append(j[0].FullHelp(), j[1].FullHelp()...) {
		out = append(out, g...)
	}
	return [][]key.Binding{out}
}

// bindings is a fixed list of bindings as a help.KeyMap.
type bindings []key.Binding

func (b bindings) ShortHelp() []key.Binding  { return b }
func (b bindings) FullHelp() [][]key.Binding { return [][]key.Binding{b} }

func browserMoveKeys(k BrowserKeys) help.KeyMap { return bindings(k.FullHelp()[0]) }
func generalKeys(k BrowserKeys) help.KeyMap     { return bindings(k.FullHelp()[1]) }
func reloadKeys(k BrowserKeys) help.KeyMap      { return bindings{relabel(k.Reload, "rescan now")} }
