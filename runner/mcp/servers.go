package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// Defaults of Options.
const (
	// DefaultStartTimeout bounds starting a server: the command, the MCP
	// handshake and the tool list (the SDK the runtime uses gives the
	// handshake 60 seconds).
	DefaultStartTimeout = 60 * time.Second
	// DefaultCallTimeout bounds a call that sets no _timeout_seconds.
	DefaultCallTimeout = 120 * time.Second
	// DefaultMaxCallTimeout caps _timeout_seconds.
	DefaultMaxCallTimeout = 600 * time.Second
	// DefaultMaxMessageBytes caps one message from a server; a bigger one
	// breaks the connection (the SDK's own default is 16 MiB).
	DefaultMaxMessageBytes = 8 << 20
	// DefaultMaxResultBytes caps the text of one result handed to the
	// model.
	DefaultMaxResultBytes = 1 << 20
	// DefaultMaxDescription caps a tool's description, in UTF-16 code
	// units, as the runtime's MaxToolDescriptionChars does (2048, Claude
	// Code's cap; see ClampDescription).
	DefaultMaxDescription = 2048
	// DefaultGrace is how long a stopping server gets after its input
	// closes, and again after SIGTERM, before SIGKILL.
	DefaultGrace = 2 * time.Second
)

// Options configures Start. The zero value starts every enabled server
// Personal may use, with the defaults above.
type Options struct {
	// Audience is the run's audience ("Personal", "Team", "Public"); ""
	// is Personal. Only servers (and tools) it may use are started and
	// offered, as Tools.AudienceProfiles says (lint.Config.McpToolAllowed).
	Audience string
	// Config holds the audience profiles; nil gives the runtime's
	// defaults.
	Config *lint.Config
	// Environ is the environment a stdio server starts with, before its
	// EnvironmentVariables; nil is agentdesk's own.
	Environ []string
	// Dir is a stdio server's working folder; "" is agentdesk's own.
	Dir string
	// StartTimeout, CallTimeout and MaxCallTimeout: see the defaults.
	StartTimeout, CallTimeout, MaxCallTimeout time.Duration
	// StartTimeouts gives a server, by its name as configured, a start
	// limit of its own in place of StartTimeout: a server known to start
	// slowly (or, in a test, one that never answers) need not set the
	// limit of every other.
	StartTimeouts map[string]time.Duration
	// MaxMessageBytes and MaxResultBytes: see the defaults.
	MaxMessageBytes, MaxResultBytes int
	// Grace: see DefaultGrace.
	Grace time.Duration
	// HTTPTransport carries the requests of sse and http servers; nil is
	// http.DefaultTransport.
	HTTPTransport http.RoundTripper
	// Redact is applied to every note (a server's stderr may echo a
	// secret); nil leaves notes as they are.
	Redact func(string) string
	// Note, when set, is called with each note as it is made, from the
	// goroutine that made it.
	Note func(string)
	// Meta are the meta properties injected into every schema; nil is
	// MetaProperties.
	Meta []MetaProperty
	// Sandbox, when set, confines each stdio server before it starts: it
	// rewrites the command (runner/sandbox.Wrap), or returns why the
	// server may not start, which is then its failure. server is the
	// server's name.
	Sandbox func(cmd *exec.Cmd, server string) error
	// AfterCall, when set, is called after each call to a stdio server's
	// tool returns (the run reads what the server wrote back into its
	// overlay).
	AfterCall func()
	// Catalog, when set, is a probe of the servers made once for a batch
	// of runs (Probe): a server it holds, configured alike, is not
	// started by Start; its probed tools are offered and the server
	// starts on its first call, or it failed as the probe found.
	Catalog *Catalog
}

func (o *Options) environ() []string {
	if o.Environ != nil {
		return o.Environ
	}
	return os.Environ()
}

// startTimeout is the start limit of the server named server.
func (o *Options) startTimeout(server string) time.Duration {
	if d, ok := o.StartTimeouts[server]; ok && d > 0 {
		return d
	}
	return orDefault(o.StartTimeout, DefaultStartTimeout)
}

func (o *Options) grace() time.Duration { return orDefault(o.Grace, DefaultGrace) }

func (o *Options) callTimeout(meta tools.Meta) time.Duration {
	if meta.TimeoutSeconds > 0 {
		return min(time.Duration(meta.TimeoutSeconds)*time.Second, orDefault(o.MaxCallTimeout, DefaultMaxCallTimeout))
	}
	return orDefault(o.CallTimeout, DefaultCallTimeout)
}

func (o *Options) maxMessage() int {
	if o.MaxMessageBytes > 0 {
		return o.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

func (o *Options) maxResult() int {
	if o.MaxResultBytes > 0 {
		return o.MaxResultBytes
	}
	return DefaultMaxResultBytes
}

func (o *Options) audience() string {
	if o.Audience == "" {
		return "Personal"
	}
	return o.Audience
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}

// Servers are the MCP servers of one run. Its methods are safe for
// concurrent use.
type Servers struct {
	opts    Options
	servers []*server
	ctx     context.Context

	mu    sync.Mutex
	notes []string
	// startNotes marks the notes of notes that say a server did not
	// start (its Status.Err says it too).
	startNotes map[int]bool
	tools      []tools.Tool
	closed     bool
}

// Status is one configured server as the run sees it.
type Status struct {
	// Name and Transport as configured; Transport is the one the runtime
	// uses (lint.McpServer.McpTransport).
	Name, Transport string
	// Skipped says why the server was not started ("" when it was):
	// disabled, or not for the audience.
	Skipped string
	// Err says why it failed to start ("" when it did).
	Err string
	// Tools are the tools it offers, as the model sees them.
	Tools []tools.Spec
	// Hidden are the tools the audience's McpServerToolGrants leave out.
	Hidden []string
	// PID is a stdio server's process (and group) id; 0 for the others.
	PID int
}

// Start starts, at once, every server in cfgs that is enabled and that
// the audience may use, and waits until each has started or failed
// (within Options.StartTimeout). It never fails: a server that cannot
// start leaves a note and offers no tools. ctx bounds the starting only;
// the servers live until Close.
func Start(ctx context.Context, cfgs []lint.McpServer, opts Options) *Servers {
	s := &Servers{opts: opts, ctx: context.WithoutCancel(ctx)}
	for _, c := range cfgs {
		s.servers = append(s.servers, &server{cfg: c, opts: &s.opts, set: s})
	}
	var wg sync.WaitGroup
	errs := make([]error, len(s.servers))
	for i, srv := range s.servers {
		if srv.skipped() != "" {
			continue
		}
		if e, ok := opts.Catalog.lookup(srv.cfg); ok {
			// Probed for the batch: the tools are known, the server
			// starts on its first call (live).
			srv.tools, srv.lastErr, srv.probed = e.tools, e.err, true
			if e.err != "" {
				errs[i] = errors.New(e.err)
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = srv.start(ctx)
		}()
	}
	wg.Wait()
	// The notes come in the configuration's order, whichever server
	// failed first.
	for i, err := range errs {
		if err != nil {
			s.noteStartFailure(s.servers[i], err)
		}
	}
	s.buildTools()
	return s
}

// start connects to the server and keeps the connection and its tools,
// or the error, which it returns.
func (srv *server) start(ctx context.Context) error {
	c, list, err := srv.connect(ctx)
	srv.mu.Lock()
	srv.starts++
	if err != nil {
		srv.lastErr = err.Error()
	} else {
		srv.conn, srv.tools = c, list
	}
	srv.mu.Unlock()
	return err
}

// noteStartFailure notes that srv did not start, marked as a note that
// its Status tells too (OtherNotes leaves it out).
func (s *Servers) noteStartFailure(srv *server, err error) {
	s.note("MCP server '%s' did not start, so its tools are not offered: %v", srv.cfg.Name, err)
	s.mu.Lock()
	if s.startNotes == nil {
		s.startNotes = map[int]bool{}
	}
	s.startNotes[len(s.notes)-1] = true
	s.mu.Unlock()
}

// skipped says why a server is not started, or "".
func (srv *server) skipped() string {
	o := srv.opts
	switch {
	case !srv.cfg.Enabled:
		return "disabled (Enabled is false)"
	case !o.Config.McpServerAllowed(srv.cfg.Name, o.audience()):
		return fmt.Sprintf("the %s audience may not use it (Tools.AudienceProfiles.%s: McpServersMode Allowlist, and AllowedMcpServers does not name it)", o.audience(), o.audience())
	}
	return ""
}

// buildTools makes the tools of the started servers, noting names a
// provider would refuse and names two tools share.
func (s *Servers) buildTools() {
	seen := map[string]string{}
	for _, srv := range s.servers {
		srv.mu.Lock()
		list := srv.tools
		started := srv.conn != nil || srv.probed && srv.lastErr == ""
		srv.mu.Unlock()
		if started {
			s.addTools(srv, list, seen)
		}
	}
}

// addTools makes the tools of the started server srv (its list) that the
// audience may use, noting a tool that cannot be made, a model-facing
// name an earlier tool took (seen maps names taken to the tools that
// took them), and names a provider would refuse.
func (s *Servers) addTools(srv *server, list []*sdk.Tool, seen map[string]string) {
	var bad []string
	for _, t := range list {
		if !s.opts.Config.McpToolAllowed(srv.cfg.Name, t.Name, s.opts.audience()) {
			continue
		}
		mt, err := newTool(srv, t)
		if err != nil {
			s.note("MCP tool '%s' is not offered: %v", CanonicalName(srv.cfg.Name, t.Name), err)
			continue
		}
		name := mt.spec.Name
		if other, dup := seen[name]; dup {
			s.note("MCP tools '%s' and '%s' both have the model-facing name %s: the first is offered", other, CanonicalName(srv.cfg.Name, t.Name), name)
			continue
		}
		seen[name] = CanonicalName(srv.cfg.Name, t.Name)
		if NameProblem(name) != "" {
			bad = append(bad, name)
		}
		s.tools = append(s.tools, mt)
	}
	if len(bad) > 0 {
		s.note("MCP server '%s' offers tools whose model-facing names a model provider may refuse, as it would at the runtime (%s): %s", srv.cfg.Name, NameProblem(bad[0]), strings.Join(bad, ", "))
	}
}

// Tools returns the tools of the started servers, as the model is offered
// them (deferred, each call gated by approval), in the order of the
// configuration and of each server's list.
func (s *Servers) Tools() []tools.Tool {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]tools.Tool(nil), s.tools...)
}

// Notes returns the notes made so far, oldest first.
func (s *Servers) Notes() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.notes...)
}

// OtherNotes returns the notes that Statuses does not tell, oldest
// first: all but those saying a server did not start (its Status.Err
// says why), so a listing of both says each thing once.
func (s *Servers) OtherNotes() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for i, n := range s.notes {
		if !s.startNotes[i] {
			out = append(out, n)
		}
	}
	return out
}

// Statuses describes every configured server, in the configuration's
// order; Err is redacted as the notes are.
func (s *Servers) Statuses() []Status {
	if s == nil {
		return nil
	}
	byServer := map[*server][]tools.Spec{}
	s.mu.Lock()
	for _, t := range s.tools {
		mt := t.(*tool)
		byServer[mt.srv] = append(byServer[mt.srv], mt.spec)
	}
	s.mu.Unlock()
	var out []Status
	for _, srv := range s.servers {
		out = append(out, s.status(srv, byServer[srv]))
	}
	return out
}

// status describes the server srv, offering specs: why it was skipped
// or failed (redacted), its process, and the tools the audience may not
// use.
func (s *Servers) status(srv *server, specs []tools.Spec) Status {
	st := Status{Name: srv.cfg.Name, Transport: srv.cfg.McpTransport(), Skipped: srv.skipped(), Tools: specs}
	srv.mu.Lock()
	st.Err = srv.lastErr
	if srv.conn == nil && srv.lastErr == "" && st.Skipped == "" && !srv.probed {
		st.Err = "not started"
	}
	if srv.conn != nil && srv.conn.proc != nil {
		st.PID = srv.conn.proc.pid()
	}
	for _, t := range srv.tools {
		if !s.opts.Config.McpToolAllowed(srv.cfg.Name, t.Name, s.opts.audience()) {
			st.Hidden = append(st.Hidden, t.Name)
		}
	}
	srv.mu.Unlock()
	if s.opts.Redact != nil && st.Err != "" {
		st.Err = s.opts.Redact(st.Err)
	}
	return st
}

// Close stops every server, stdio ones with their whole process group,
// and waits until they are gone. Later calls get the unavailable error.
func (s *Servers) Close() error {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, srv := range s.servers {
		srv.mu.Lock()
		c := srv.conn
		srv.conn = nil
		srv.mu.Unlock()
		if c == nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.close(s.opts.grace())
		}()
	}
	wg.Wait()
	return nil
}

// isClosed reports whether Close has begun.
func (s *Servers) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// note records one note, redacted.
func (s *Servers) note(format string, a ...any) {
	msg := fmt.Sprintf(format, a...)
	if s.opts.Redact != nil {
		msg = s.opts.Redact(msg)
	}
	s.mu.Lock()
	s.notes = append(s.notes, msg)
	s.mu.Unlock()
	if s.opts.Note != nil {
		s.opts.Note(msg)
	}
}

// sdkTool is the SDK's tool description.
type sdkTool = sdk.Tool
