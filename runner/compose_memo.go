package runner

import (
	"strings"
	"sync"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
)

// ComposeMemo remembers the requests composed for a batch of runs that
// go together (one suite run), so that runs sending the same system
// prompt and tools compose them once: the playbook and the project's
// instructions read once, the prompt's parts assembled and their tokens
// counted once, the tool catalogue's policy and offer worked out once.
// Only the first message, which carries each run's task, is made per
// run. What the request is made of is read when the memo first composes
// it, so a memo is for runs that start together: make a new one for the
// next batch (a watch's next round sees the edits). It is safe for
// concurrent use.
//
// A run that inspects its project's git state (a live run with a
// project and no fixed state) or offers MCP tools composes its own
// request, as without a memo.
type ComposeMemo struct {
	mu sync.Mutex
	m  map[composeKey]*composed
}

// NewComposeMemo returns an empty memo.
func NewComposeMemo() *ComposeMemo {
	return &ComposeMemo{m: map[composeKey]*composed{}}
}

// composed is one memo entry: the request composed with no task, or why
// it could not be.
type composed struct {
	once sync.Once
	req  *request.Request
	err  error
}

// composeKey is everything composeRequest reads besides the task and
// context: definitions, skills, the operating core and the config by
// identity (they do not change while a batch runs).
type composeKey struct {
	def         *lint.Definition
	agentPath   string
	skill       *lint.Skill
	config      *lint.Config
	home        string
	audience    preview.Audience
	core        *request.Core
	coreMissing string
	project     string
	recentFiles string
	git         *request.GitState
	shell       *request.Shell
	// noTools: a run that offers no tools composes with an empty offer.
	noTools bool
}

// compose returns the request for s and f through the memo, and false
// when s is one the memo does not keep (see ComposeMemo).
// Without message, the request's FirstMessage is left empty, for
// WithSession to set (request.WithTask).
func (m *ComposeMemo) compose(s Spec, f *lint.File, noTools bool, extra []request.Tool, message bool) (*request.Request, bool, error) {
	n := s.NetClaw
	if m == nil || len(extra) > 0 || (n.Git == nil && s.Project != "") {
		return nil, false, nil
	}
	k := composeKey{
		def: f.Def, agentPath: f.Path, skill: s.Skill, config: s.Config,
		home: n.Home, audience: n.Audience, core: n.Core, coreMissing: n.CoreMissing,
		project: s.Project, recentFiles: strings.Join(n.RecentFiles, "\x00"), git: n.Git, shell: n.Shell,
		noTools: noTools,
	}
	if len(n.RecentFiles) > 0 {
		// Tell [] from [""].
		k.recentFiles += "\x00"
	}
	m.mu.Lock()
	e := m.m[k]
	if e == nil {
		e = &composed{}
		m.m[k] = e
	}
	m.mu.Unlock()
	e.once.Do(func() {
		t := s
		t.Task, t.Context = "", ""
		e.req, e.err = composeNow(t, f, noTools)
	})
	if e.err != nil {
		return nil, true, e.err
	}
	if !message {
		return e.req.WithTask(s.Task, s.Context), true, nil
	}
	return e.req.ForTask(s.Task, s.Context, nil), true, nil
}
