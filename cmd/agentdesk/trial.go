package main

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/netclaw"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
)

// netclawFlag is --netclaw-dir, shared by every command that composes a
// spawn's request (run, test, route, preview --spawn, the browser).
type netclawFlag struct{ dir string }

// add registers --netclaw-dir.
func (n *netclawFlag) add(fl *pflag.FlagSet) {
	fl.StringVar(&n.dir, "netclaw-dir", "", "folder holding NetClaw's netclawd/netclaw binaries or Netclaw.Configuration.dll (or one of those files), for the operating core (default: $AGENTDESK_NETCLAW_DIR, <home>/bin, ~/.netclaw/bin, then PATH)")
}

// install finds the NetClaw install as --netclaw-dir, AGENTDESK_NETCLAW_DIR,
// <home>/bin and PATH say (netclaw.Find reads each file once per process).
func (n netclawFlag) install(g *globals, home lint.Home) (*netclaw.Install, error) {
	return netclaw.Find(netclaw.Options{Dir: n.dir, Home: home.Base, Getenv: g.Getenv})
}

// spawnNetClaw says how a spawn's request is composed for an audience:
// the home's playbook and the install's operating core, or why the core
// is missing. An install that cannot be found or read is not an error
// (the trial runs, and every surface says the operating rules are
// missing) unless --netclaw-dir named it: then it is a usage error.
func (n netclawFlag) spawnNetClaw(g *globals, home lint.Home, a preview.Audience) (runner.NetClaw, error) {
	out := runner.NetClaw{Home: home.Base, Audience: a}
	in, err := n.install(g, home)
	if err == nil {
		var core netclaw.Core
		if core, err = in.OperatingCore(a == preview.Public); err == nil {
			out.Core = coreOf(core)
			return out, nil
		}
	}
	if n.dir != "" {
		return out, usageErrorf("--netclaw-dir %s: %w", termsafe.Escape(n.dir), err)
	}
	out.CoreMissing = flagWorded(err)
	return out, nil
}

// coreOf converts the install's core to the composer's.
func coreOf(c netclaw.Core) *request.Core {
	src := c.Source
	if c.Resource != "" {
		src += " (" + c.Resource + ")"
	}
	return &request.Core{Text: c.Text, Source: src, Version: c.Version}
}

// netclawDirHint is "(give --netclaw-dir)" after a reason the operating
// rules are missing, unless the reason names that flag already.
func netclawDirHint(reason string) string {
	if strings.Contains(reason, "--netclaw-dir") {
		return ""
	}
	return " (give --netclaw-dir)"
}
