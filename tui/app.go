package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/watch"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// CatalogScanner gives the browser a fresh catalog of the home. A
// *lint.Scanner satisfies it (and re-parses only the files that changed);
// the browser calls it from one goroutine at a time.
type CatalogScanner interface {
	Scan() (*lint.Catalog, error)
}

// Options configure a browser.
type Options struct {
	// Home is the NetClaw home being browsed.
	Home lint.Home
	// NoHome is set when Home's base folder did not exist at the start and
	// only its agents folder (--agents) is read: the home is then never
	// reported as gone.
	NoHome bool
	// Scanner produces the catalog; required.
	Scanner CatalogScanner
	// Watch starts the file watcher so that saved files show at once.
	Watch bool
	// Debounce is how long the watcher waits for events to settle
	// (default 100 ms).
	Debounce time.Duration
	// Demo marks the header DEMO (agentdesk --demo).
	Demo bool
	// FastReplay plays the browser's replays (a model of type replay, the
	// demo's recordings) without their recorded pauses, on a clock that
	// follows the recorded timeline (runner.Spec.Fast): the same run, at
	// once. Tests set it; false plays at recorded speed.
	FastReplay bool
	// Color is false for NO_COLOR or --color never.
	Color bool
	// Environ is the environment ($VISUAL, $EDITOR, $PAGER, $HOME); nil
	// means none.
	Environ []string
	// Now is the clock (default time.Now); tests fix it.
	Now func() time.Time
	// Runner starts trial runs and knows the runs folder; nil turns the
	// Run and Artifacts panes off, and RunnerErr says why.
	Runner    *runner.Runner
	RunnerErr error
	// Project is the folder the trial tools work in (writes go to the
	// run's overlay, never to the folder); "" offers the model no tools.
	Project string
	// Approve approves the calls of the browser's trials that these
	// --approve patterns match; any other call that needs approval is put
	// to the author in an approval prompt.
	Approve []approve.Pattern
	// Sandbox is how the browser's trials confine approved commands and
	// stdio MCP servers (--no-sandbox, --allow-network, …); the Run
	// pane's network key switches the network for new runs.
	Sandbox tools.Sandbox
	// NetClaw says how a trial's request is composed (the audience, the
	// operating core or why it is missing); found once by the caller, so
	// no run looks for the install inside Update.
	NetClaw runner.NetClaw
	// OpenPath, when set, makes the browser a viewer of that artifacts
	// folder or file (agentdesk open): no home is scanned.
	OpenPath string
	// DraftsDir is where new agents wait until they load (default: a
	// drafts folder beside the default runs folder).
	DraftsDir string
	// WordError words an error of a lower layer before the browser shows
	// it: the command line adds the flag that mends it, as it does for its
	// own errors. nil shows errors as they are.
	WordError func(error) error
	// Words are the command line's words in the browser's hints; the
	// command line fills them.
	Words Words
}

// Words are the command line's words in the browser's hints: the commands
// and flags that do on the command line what a screen explains. Library
// packages name no flag; the command line fills these.
type Words struct {
	// Eval words the hints of test results (how to record a case).
	Eval evalrec.Words
	// Approve approves calls unasked ("--approve").
	Approve string
	// Home opens another home ("--home").
	Home string
	// NetClawDir names the NetClaw install ("--netclaw-dir").
	NetClawDir string
	// Spawn composes a spawn and starts its MCP servers
	// ("agentdesk preview --spawn").
	Spawn string
}

// tab is one of the right-hand panes.
type tab int

const (
	tabDefinition tab = iota
	tabLayer
	tabRun
	tabArtifacts
	tabTests
	tabCount
)

var tabNames = [tabCount]string{"Definition", "Layer", "Run", "Artifacts", "Tests"}

// focus says which part of the screen keys go to when no overlay is open.
type focus int

const (
	focusList focus = iota
	focusPane
	focusFilter
)

// flashDuration is how long a one-line notice stays in the footer.
const flashDuration = 6 * time.Second

// flash is the one-line notice in the footer.
type flash struct {
	text string
	bad  bool
	id   int
}

// Model is the browser's root model: it owns the catalog, the focus, the
// layout and the overlay stack, routes every message to the part it is
// for, and draws the panes where they go. Panes own their own state.
type Model struct {
	env

	width, height int

	loadedAt time.Time // when cat arrived
	// loaded, rejected and notLoaded count cat's files, once per catalog.
	loaded, rejected, notLoaded int
	scanErr                     error
	scanning                    bool
	rescan                      bool // another scan was asked for while one ran
	// rescanPaths and rescanFull say what that scan must cover.
	rescanPaths []string
	rescanFull  bool

	list   listPane
	def    definitionPane
	layer  layerPane
	runs   runPane
	arts   artifactsPane
	tests  testsPane
	filter lineInput
	tab    tab
	focus  focus

	overlays overlayStack
	flash    flash
	md       markdownCache
	prompts  promptCache

	watcher *watch.Watcher
	// editing is the new agent's draft while the editor has it.
	editing *draft
	// selectAfterScan is a file to select once a scan lists it (a file
	// just created).
	selectAfterScan string
}

// New returns a browser over opts.Home. Nothing is read until the program
// runs Init.
func New(opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 100 * time.Millisecond
	}
	m := &Model{}
	m.env = env{opts: opts, keys: DefaultKeyMap(), st: NewStyles(true, opts.Color), tick: tea.Tick}
	m.env.selected = m.list.selected
	m.env.notify = m.setFlash
	m.env.openViewer = m.openViewer
	m.env.push = m.overlays.push
	m.env.drop = m.overlays.drop
	m.env.show = m.setTab
	m.env.activeTab = func() tab { return m.tab }
	m.filter.keys = m.keys.Input
	m.def = definitionPane{e: &m.env, md: &m.md, prompt: &m.prompts}
	m.layer = layerPane{e: &m.env}
	m.runs = newRunPane(&m.env)
	m.arts = artifactsPane{e: &m.env}
	m.tests = testsPane{e: &m.env}
	return m
}

// pane returns the pane of tab t.
func (m *Model) pane(t tab) pane {
	switch t {
	case tabLayer:
		return &m.layer
	case tabRun:
		return &m.runs
	case tabArtifacts:
		return &m.arts
	case tabTests:
		return &m.tests
	}
	return &m.def
}

// Init scans the home, starts the watcher and asks the terminal for its
// background colour.
func (m *Model) Init() tea.Cmd {
	if m.opts.OpenPath != "" {
		return tea.Batch(m.openViewer(m.opts.OpenPath), tea.RequestBackgroundColor)
	}
	cmds := []tea.Cmd{m.requestScan(), tea.RequestBackgroundColor}
	if m.opts.Watch {
		cmds = append(cmds, startWatcherCmd(m.opts.Home, m.opts.Debounce))
	}
	return tea.Batch(cmds...)
}

// Close stops the watcher, cancels the runs still going
// (cancelled_by_parent) and waits until their folders are written. Call it
// after the program has returned.
func (m *Model) Close() error {
	m.tests.close()
	m.runs.close()
	if m.watcher != nil {
		return m.watcher.Close()
	}
	return nil
}

// Catalog returns the catalog on screen (nil before the first scan).
func (m *Model) Catalog() *lint.Catalog { return m.cat }

// flashExpiredMsg clears the flash it was set for.
type flashExpiredMsg struct{ id int }

// Update routes one message: overlays see key presses and pastes first,
// then the focused part of the screen; every other message goes to the
// part it is for. Update does no I/O: that happens in the Cmds it returns.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.st = NewStyles(msg.IsDark(), m.opts.Color)
		m.stGen++
	case catalogMsg:
		cmds = append(cmds, m.applyCatalog(msg))
	case watcherStartedMsg:
		cmds = append(cmds, m.watcherStarted(msg))
	case homeChangedMsg:
		cmds = append(cmds, m.requestRescan(msg.change.Paths, false), waitForChange(m.watcher))
	case watcherErrMsg:
		cmds = append(cmds, m.setFlash("watcher: "+msg.err.Error()+m.rescanHint(), true), waitForChange(m.watcher))
	case runStartedMsg:
		cmds = append(cmds, m.runs.started(msg))
	case runEventsMsg:
		cmd, ended := m.runs.events(msg)
		if ended {
			m.arts.invalidate() // the run's folder is there now
		}
		cmds = append(cmds, cmd)
	case recordedLimitsMsg:
		m.runs.storeRecorded(msg)
	case compareMsg:
		m.runs.compared(msg)
	case keptMsg:
		cmds = append(cmds, m.runs.kept(msg))
	case runTickMsg:
		cmds = append(cmds, m.runs.tickClocks())
	case artifactsMsg:
		m.arts.listed(msg)
	case testsReadMsg:
		cmds = append(cmds, m.tests.read(msg))
	case testsCaseMsg:
		cmds = append(cmds, m.tests.caseDone(msg))
		m.arts.invalidate() // the case's runs are there now
	case viewerListedMsg, viewerReadMsg:
		m.viewerMsg(msg)
	case viewTextMsg:
		m.openViewerText(msg)
	case layerMsg:
		m.layer.apply(msg)
	case layerDiffMsg:
		m.layer.storeDiff(msg)
	case routeMsg:
		cmds = append(cmds, m.layer.routed(msg))
	case markdownMsg:
		m.md.store(msg)
	case promptMsg:
		m.prompts.store(msg)
	case flashExpiredMsg:
		if msg.id == m.flash.id {
			m.flash = flash{id: m.flash.id}
		}
	case openEditorMsg:
		cmds = append(cmds, m.openEditor(msg))
	case editorDoneMsg:
		cmds = append(cmds, m.editorDone(msg))
	case createdMsg:
		cmds = append(cmds, m.created(msg))
	case draftDoneMsg:
		cmds = append(cmds, m.draftDone(msg))
	case tea.KeyPressMsg, tea.PasteMsg:
		cmds = append(cmds, m.input(msg))
	}
	cmds = append(cmds, m.followUp())
	return m, tea.Batch(cmds...)
}

// input routes a key press or a paste: to the overlay on top when there
// is one (closing it when it is done, and the program with it when the
// viewer was the program), else a key to the key map and a paste into the
// filter while it has the focus.
func (m *Model) input(msg tea.Msg) tea.Cmd {
	if top := m.overlays.top(); top != nil {
		cmd, done := top.update(msg)
		if done {
			m.overlays.pop()
			if m.opts.OpenPath != "" && len(m.overlays) == 0 {
				cmd = tea.Batch(cmd, tea.Quit) // the viewer was the program
			}
		}
		return cmd
	}
	if k, ok := msg.(tea.KeyPressMsg); ok {
		return m.handleKey(k)
	}
	if p, ok := msg.(tea.PasteMsg); ok && m.focus == focusFilter {
		m.filter.insert(p.Content)
		m.list.setFilter(m.filter.value)
	}
	return nil
}

// followUp runs after every message: it asks for whatever the next frame
// will need and is not ready (a rendering, a listing, a diff) and lays
// out the active pane's content now, so that View only draws.
func (m *Model) followUp() tea.Cmd {
	m.paneFocused = m.focus == focusPane
	if v, ok := m.overlays.top().(*viewer); ok && m.width > 0 {
		return v.need(m.viewerWidth())
	}
	if m.width == 0 || m.opts.OpenPath != "" {
		return nil
	}
	w, h := m.paneSize()
	p := m.pane(m.tab)
	cmd := p.need(w)
	if m.tab == tabLayer {
		m.layer.jump(w, h)
	}
	p.content(w)
	return cmd
}

// setFlash shows text in the footer for a few seconds.
func (m *Model) setFlash(text string, bad bool) tea.Cmd {
	m.flash = flash{text: Sanitize(text), bad: bad, id: m.flash.id + 1}
	id := m.flash.id
	return m.tick(flashDuration, func(time.Time) tea.Msg { return flashExpiredMsg{id} })
}

// viewerMsg hands a file listing or a file read to the viewer that asked.
func (m *Model) viewerMsg(msg tea.Msg) {
	for _, o := range m.overlays {
		v, ok := o.(*viewer)
		if !ok {
			continue
		}
		switch msg := msg.(type) {
		case viewerListedMsg:
			if v.root == msg.root && !v.loaded {
				v.loaded, v.files, v.err = true, msg.files, msg.err
			}
		case viewerReadMsg:
			if _, asked := v.docs[msg.path]; asked && v.docs[msg.path] == nil {
				v.docs[msg.path] = msg.doc
			}
		}
	}
}

// viewerWidth is the width of the viewer's text at this screen size.
func (m *Model) viewerWidth() int {
	if m.opts.OpenPath != "" {
		return max(m.width-4, 6)
	}
	return max(m.width-8, 6)
}
