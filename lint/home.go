package lint

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
)

// Home holds every path of a NetClaw home that agentdesk reads.
type Home struct {
	// Base is the NetClaw base folder ($NETCLAW_HOME, else ~/.netclaw).
	Base string
	// Agents is the user-authored agents folder (<base>/agents unless overridden).
	Agents string
	// Skills is the skills folder (<base>/skills).
	Skills string
	// ConfigDir is <base>/config.
	ConfigDir string
}

// HomeUnknownError is ResolveHome's answer when no home was given,
// NETCLAW_HOME is unset and the user's home folder is unknown. The command
// line words it with the flag that names a home.
type HomeUnknownError struct {
	// Err is why the user's home folder is unknown.
	Err error
}

// Error says what to set.
func (e *HomeUnknownError) Error() string {
	return "cannot find the NetClaw home: set NETCLAW_HOME: " + e.Err.Error()
}

// Unwrap returns the cause.
func (e *HomeUnknownError) Unwrap() error { return e.Err }

// ResolveHome works out the home from the --home and --agents flags, then
// $NETCLAW_HOME, then ~/.netclaw. getenv may be nil (os.Getenv is used).
func ResolveHome(home, agents string, getenv func(string) string) (Home, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if home == "" {
		home = getenv("NETCLAW_HOME")
	}
	if home == "" {
		dir, err := os.UserHomeDir()
		if err != nil {
			return Home{}, &HomeUnknownError{Err: err}
		}
		home = filepath.Join(dir, ".netclaw")
	}
	return NewHome(home, agents), nil
}

// NewHome returns the paths of the home at base. A non-empty agents overrides
// the agents folder.
func NewHome(base, agents string) Home {
	base = filepath.Clean(base)
	if agents == "" {
		agents = filepath.Join(base, "agents")
	}
	return Home{
		Base:      base,
		Agents:    filepath.Clean(agents),
		Skills:    filepath.Join(base, "skills"),
		ConfigDir: filepath.Join(base, "config"),
	}
}

// Rel returns path relative to the home's base when it lies inside it
// (agents/x.md), else path as it is: how a message quotes a file.
func (h Home) Rel(path string) string {
	if h.Base != "" {
		if rel, err := filepath.Rel(h.Base, path); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return path
}

// FeedsDir is the folder that holds the server-synced feeds: <agents>/.server-feeds.
func (h Home) FeedsDir() string { return filepath.Join(h.Agents, ".server-feeds") }

// FeedDir is the folder of one feed.
func (h Home) FeedDir(feed string) string { return filepath.Join(h.FeedsDir(), feed) }

// SyncStatePath is the .sync-state.json of one feed.
func (h Home) SyncStatePath(feed string) string {
	return filepath.Join(h.FeedDir(feed), ".sync-state.json")
}

// ConfigFile is <base>/config/netclaw.json.
func (h Home) ConfigFile() string { return filepath.Join(h.ConfigDir, "netclaw.json") }

// SecretsFile is <base>/config/secrets.json.
func (h Home) SecretsFile() string { return filepath.Join(h.ConfigDir, "secrets.json") }

// SystemSkillsDir is <base>/skills/.system.
func (h Home) SystemSkillsDir() string { return filepath.Join(h.Skills, ".system") }

// SkillFeedsDir is <base>/skills/.server-feeds.
func (h Home) SkillFeedsDir() string { return filepath.Join(h.Skills, ".server-feeds") }

// Exists reports whether the base folder exists. A missing home is not an
// error for lint (there is simply nothing to load), but callers may say so.
func (h Home) Exists() bool {
	_, err := os.Stat(h.Base)
	return !errors.Is(err, os.ErrNotExist)
}

// LooksLikeHome reports whether dir looks like a NetClaw base folder rather
// than an agents folder: it has an agents subfolder and no *.md file of its
// own. Linting such a folder as an agents folder finds nothing, which would
// pass a CI check that checks nothing.
func LooksLikeHome(dir string) bool {
	if fi, err := os.Stat(filepath.Join(dir, "agents")); err != nil || !fi.IsDir() {
		return false
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".md") && !e.IsDir() {
			return false
		}
	}
	return true
}
