package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/atomicfile"
)

// createdMsg reports the outcome of creating an agent file.
type createdMsg struct {
	path string
	err  error
}

// editorDoneMsg reports that the editor exited.
type editorDoneMsg struct {
	path    string
	draft   *draft // a new agent's draft: moved in only if it loads
	cleanup string // a temporary folder to remove (read-only copies)
	pager   bool
	err     error
}

// askNewAgent opens the name prompt for a new agent.
func (m *Model) askNewAgent() tea.Cmd {
	dir := m.opts.Home.Agents
	m.overlays.push(&promptOverlay{
		keys:     m.keys.Prompt,
		title:    "New agent",
		help:     "Opens a draft from a template in your editor; it goes to " + Sanitize(m.shortPath(dir)) + "/<name>.md only once it is changed and loads, never over an existing file.",
		input:    lineInput{keys: m.keys.Input, limit: 64},
		validate: func(s string) error { return lint.CheckNewAgentName(m.cat, s) },
		submit: func(name string) tea.Cmd {
			return openDraftCmd(&m.env, name)
		},
	})
	return nil
}

// askDuplicate opens the name prompt for a copy of the selected agent.
func (m *Model) askDuplicate() tea.Cmd {
	f := m.list.selected()
	if f == nil {
		return nil
	}
	if f.Def == nil {
		return m.setFlash("cannot duplicate "+fileLabel(f)+": its frontmatter does not parse; fix it first", true)
	}
	if _, ok := f.Def.Field("name"); !ok {
		return m.setFlash("cannot duplicate "+fileLabel(f)+": it has no name line to change", true)
	}
	dir := m.opts.Home.Agents
	src := f
	m.overlays.push(&promptOverlay{
		keys:     m.keys.Prompt,
		title:    "Duplicate " + fileLabel(f),
		help:     "Copies the file to " + Sanitize(m.shortPath(dir)) + "/<name>.md with the new name; an existing file is never overwritten.",
		input:    lineInput{keys: m.keys.Input, value: lint.CopyName(m.cat, f.Def.Name), limit: 64},
		validate: func(s string) error { return lint.CheckNewAgentName(m.cat, s) },
		submit: func(name string) tea.Cmd {
			data, err := preview.Renamed(src, name)
			if err != nil {
				return func() tea.Msg { return createdMsg{path: src.Path, err: err} }
			}
			return createFileCmd(filepath.Join(dir, name+".md"), data, m.opts.Words.Home)
		},
	})
	return nil
}

// createFileCmd writes data to path in the background without ever
// replacing an existing file: the bytes go to a hidden temporary file in
// the same folder, which is then linked to path (atomicfile.Create). A
// reader never sees half a file.
func createFileCmd(path string, data []byte, homeFlag string) tea.Cmd {
	return func() tea.Msg {
		return createdMsg{path: path, err: createExclusive(path, data, homeFlag)}
	}
}

func createExclusive(path string, data []byte, homeFlag string) error {
	// The agents folder may be made, its home never (a home deleted while
	// the browser runs is not silently created again).
	dir := filepath.Dir(path)
	if err := homeThere(filepath.Dir(dir), homeFlag); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	err := atomicfile.Create(path, data, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: pick another name (agentdesk never overwrites a file)", path)
	}
	return err
}

// created selects a newly created file once the next scan lists it.
func (m *Model) created(msg createdMsg) tea.Cmd {
	if msg.err != nil {
		return m.setFlash(msg.err.Error(), true)
	}
	m.selectAfterScan = msg.path
	if m.list.filter != "" {
		// The new file may not match the filter: show it anyway.
		m.filter.value = ""
		m.list.setFilter("")
	}
	m.list.selectPath(msg.path)
	return tea.Batch(m.requestScan(), m.setFlash("created "+m.shortPath(msg.path)+": press "+keyName(m.keys.Author.Edit)+" to edit it", false))
}

// editorCommand builds the command line for $VISUAL, else $EDITOR, else vi.
func editorCommand(environ []string, getenv func(string) string, path string) (*exec.Cmd, error) {
	ed := strings.TrimSpace(getenv("VISUAL"))
	if ed == "" {
		ed = strings.TrimSpace(getenv("EDITOR"))
	}
	if ed == "" {
		ed = "vi"
	}
	args := strings.Fields(ed)
	bin, err := exec.LookPath(args[0])
	if err != nil {
		return nil, fmt.Errorf("editor %q not found: set $VISUAL or $EDITOR: %w", args[0], err)
	}
	c := exec.Command(bin, append(args[1:], path)...)
	c.Env = environ
	return c, nil
}

// openEditorMsg carries a prepared editor command back to Update, which
// hands the terminal to it.
type openEditorMsg struct {
	cmd     *exec.Cmd
	path    string // the file being edited (the original, for a copy)
	cleanup string // a temporary folder to remove afterwards
	warning string // shown while the editor runs and after
	pager   bool   // a pager, not an editor: nothing to rescan after
	draft   *draft // a new agent's draft
	err     error
}

// editSelected prepares the editor for the selected file in the
// background. A feed file opens as a read-only copy, with a warning: the
// next sync would overwrite an edit.
func (m *Model) editSelected() tea.Cmd {
	f := m.list.selected()
	if f == nil {
		return nil
	}
	environ, getenv := m.opts.Environ, m.getenv
	dup := keyName(m.keys.Author.Duplicate) // read here: the Cmd runs off the Update goroutine
	return func() tea.Msg {
		msg := openEditorMsg{path: f.Path}
		target := f.Path
		if f.Source.IsFeed() {
			dir, copyPath, err := readOnlyCopy(f)
			if err != nil {
				msg.err = err
				return msg
			}
			target, msg.cleanup = copyPath, dir
			msg.warning = "feed:" + f.Source.Feed + " files open read-only: the next sync overwrites any edit; duplicate it (" + dup + ") to change it"
		}
		msg.cmd, msg.err = editorCommand(environ, getenv, target)
		return msg
	}
}

// openEditor hands the terminal to the prepared editor.
func (m *Model) openEditor(msg openEditorMsg) tea.Cmd {
	if msg.err != nil {
		return tea.Batch(removeAllCmd(msg.cleanup), m.setFlash(msg.err.Error(), true))
	}
	m.editing = msg.draft
	var warn tea.Cmd
	if msg.warning != "" {
		warn = m.setFlash(msg.warning, true)
	}
	return tea.Batch(warn, execHeld(msg.cmd, func(err error) tea.Msg {
		return editorDoneMsg{path: msg.path, cleanup: msg.cleanup, pager: msg.pager, draft: msg.draft, err: err}
	}))
}

// readOnlyCopy copies a feed file to a new temporary folder, mode 0444, so
// an editor opens it read-only.
func readOnlyCopy(f *lint.File) (dir, path string, err error) {
	data, err := os.ReadFile(f.Path)
	if err != nil {
		return "", "", fmt.Errorf("reading %s: %w", f.Path, err)
	}
	dir, err = os.MkdirTemp("", "agentdesk-feed-*")
	if err != nil {
		return "", "", fmt.Errorf("making a read-only copy of %s: %w", f.Path, err)
	}
	path = filepath.Join(dir, "READ-ONLY-"+filepath.Base(f.Path))
	if err := os.WriteFile(path, data, 0o444); err != nil {
		os.RemoveAll(dir)
		return "", "", fmt.Errorf("making a read-only copy of %s: %w", f.Path, err)
	}
	return dir, path, nil
}

// removeAllCmd removes a temporary folder in the background.
func removeAllCmd(dir string) tea.Cmd {
	if dir == "" {
		return nil
	}
	return func() tea.Msg {
		os.RemoveAll(dir)
		return nil
	}
}

// editorDone rescans (the watcher may have seen the save already; a rescan
// of unchanged files costs little) and reports an editor failure.
func (m *Model) editorDone(msg editorDoneMsg) tea.Cmd {
	if msg.draft != nil {
		m.editing = nil
		cmd := finishDraftCmd(msg.draft, m.opts.Home.Base, m.opts.Words.Home, m.cat)
		if msg.err != nil {
			return tea.Sequence(m.setFlash("editor: "+msg.err.Error(), true), cmd)
		}
		return cmd
	}
	cmds := []tea.Cmd{removeAllCmd(msg.cleanup)}
	if !msg.pager {
		cmds = append(cmds, m.requestScan())
	}
	if msg.err != nil {
		what := "editor"
		if msg.pager {
			what = "pager"
		}
		cmds = append(cmds, m.setFlash(what+": "+msg.err.Error(), true))
	}
	return tea.Batch(cmds...)
}
