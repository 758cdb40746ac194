package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agentdesk/agentdesk/lint"
)

// homeToRead resolves the home from --home, --agents, $NETCLAW_HOME and
// ~/.netclaw, and refuses as bad usage (exit 2) one that is not there to
// read, so that a mistyped path never passes a CI check that read
// nothing:
//
//   - without --agents, the home must be a folder holding at least one of
//     agents/, skills/ or config/;
//   - with --agents, that folder must exist; the home may be missing, and
//     what needs it (the config, the skills) says so when it is used
//     (homeMissing);
//   - an agents path that is there must be a folder.
//
// hint ends the message of a home that is not there (such as the demo's
// name for the browser).
func homeToRead(g *globals, hint string) (lint.Home, error) {
	h, err := g.Home()
	if err != nil {
		return h, exitWith(exitUsage, err)
	}
	fix := "pass --home DIR or set NETCLAW_HOME" + hint
	fi, err := os.Stat(h.Base)
	switch {
	case errors.Is(err, fs.ErrNotExist) && g.agents != "":
		// --agents names what to read; the home is optional.
	case errors.Is(err, fs.ErrNotExist):
		return h, usageErrorf("the NetClaw home %s does not exist: %s", h.Base, fix)
	case err != nil:
		return h, usageErrorf("cannot read the NetClaw home %s: %v: %s", h.Base, err, fix)
	case !fi.IsDir():
		return h, usageErrorf("the NetClaw home %s is not a folder: %s", h.Base, fix)
	case g.agents == "" && !holdsHomeFolder(h):
		return h, usageErrorf("%s is not a NetClaw home: it holds none of agents/, skills/ or config/: %s", h.Base, fix)
	}
	switch fi, err := os.Stat(h.Agents); {
	case err == nil && !fi.IsDir():
		return h, usageErrorf("the agents folder %s is not a folder: pass --agents DIR", h.Agents)
	case errors.Is(err, fs.ErrNotExist) && g.agents != "":
		return h, usageErrorf("the agents folder %s does not exist: check --agents, or leave it out to read %s", h.Agents, lint.NewHome(h.Base, "").Agents)
	}
	return h, nil
}

// holdsHomeFolder reports whether any of agents/, skills/ or config/ is in
// the home's base folder.
func holdsHomeFolder(h lint.Home) bool {
	for _, dir := range []string{"agents", "skills", "config"} {
		if _, err := os.Lstat(filepath.Join(h.Base, dir)); err == nil {
			return true
		}
	}
	return false
}

// homeMissing is what a feature that needs the home says when --agents
// was read without one: "" when the home exists.
func homeMissing(h lint.Home, what string) string {
	if h.Exists() {
		return ""
	}
	return fmt.Sprintf("the NetClaw home %s does not exist (only --agents %s was read), so there is no %s: pass --home DIR", h.Base, h.Agents, what)
}
