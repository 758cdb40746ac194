package mcp

import (
	"context"
	"reflect"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/lint"
)

// Catalog is what one probe of the configured servers found: each
// server's tools, or why it did not start. A batch of runs (the samples
// of a test invocation) probes once and hands the Catalog to every run
// (Options.Catalog): a run then offers the probed tools at once and
// starts a server only on its first call, so a server that hangs at
// start costs the batch one start limit, not one a sample, and a healthy
// one costs nothing in the samples that do not call it. A Catalog is
// read-only once made and safe for concurrent use.
type Catalog struct {
	servers  []catalogEntry
	statuses []Status
}

// catalogEntry is one probed server.
type catalogEntry struct {
	cfg   lint.McpServer
	tools []*sdk.Tool
	err   string
}

// Probe starts every enabled server of cfgs at once (whatever the
// audience: each run filters by its own), waits until each has listed
// its tools or failed (within Options.StartTimeout), and stops them all
// before it returns. Options.Note hears each failure as it is known.
func Probe(ctx context.Context, cfgs []lint.McpServer, opts Options) *Catalog {
	// No configuration: Personal, whose default may use every server.
	opts.Audience, opts.Config, opts.Catalog = "", nil, nil
	s := Start(ctx, cfgs, opts)
	cat := &Catalog{statuses: s.Statuses()}
	for _, srv := range s.servers {
		srv.mu.Lock()
		e := catalogEntry{cfg: srv.cfg, err: srv.lastErr}
		if srv.conn != nil {
			e.tools = srv.tools
		}
		srv.mu.Unlock()
		cat.servers = append(cat.servers, e)
	}
	_ = s.Close()
	return cat
}

// Statuses describes the probed servers as Servers.Statuses does (PID is
// the probe's process, stopped since).
func (c *Catalog) Statuses() []Status {
	if c == nil {
		return nil
	}
	return append([]Status(nil), c.statuses...)
}

// Failed returns the names of the enabled servers the probe could not
// start, in the configuration's order.
func (c *Catalog) Failed() []string {
	if c == nil {
		return nil
	}
	var out []string
	for _, e := range c.servers {
		if e.err != "" {
			out = append(out, e.cfg.Name)
		}
	}
	return out
}

// lookup returns the probe of a server configured exactly as cfg.
func (c *Catalog) lookup(cfg lint.McpServer) (catalogEntry, bool) {
	if c == nil {
		return catalogEntry{}, false
	}
	for _, e := range c.servers {
		if strings.EqualFold(e.cfg.Name, cfg.Name) && reflect.DeepEqual(e.cfg, cfg) {
			return e, true
		}
	}
	return catalogEntry{}, false
}

// Startable returns the names of the servers of cfgs that Start would
// start for opts' audience (enabled, and allowed to the audience), in the
// configuration's order: a command says which servers it is waiting for.
func Startable(cfgs []lint.McpServer, opts Options) []string {
	var out []string
	for _, c := range cfgs {
		if (&server{cfg: c, opts: &opts}).skipped() == "" {
			out = append(out, c.Name)
		}
	}
	return out
}
