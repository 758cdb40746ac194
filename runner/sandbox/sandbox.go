package sandbox

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Limits a sandboxed command runs under.
const (
	// MaxProcesses caps the processes of one command (RLIMIT_NPROC, and
	// the PID namespace's pid_max where the kernel has it): a fork bomb
	// stops there.
	MaxProcesses = 512
	// MaxFileSize caps one file a command writes (RLIMIT_FSIZE).
	MaxFileSize = 1 << 30
)

// OutputCutNote is what a sandboxed command's stderr ends with when
// processes it left still held its output when the grace (the command's
// WaitDelay) ran out, and were stopped.
const OutputCutNote = "\n[output cut: a background process kept the output open after the command ended; it was stopped]\n"

// ProcessLimitNote is what a sandboxed command's stderr ends with when it
// left the PID namespace near its process limit (a fork bomb): the
// processes are stopped with it.
var ProcessLimitNote = "\n[agentdesk: the command reached the sandbox's limit of " + strconv.Itoa(MaxProcesses) + " processes; they were all stopped]\n"

// Bind shows the folder Source at the path Target inside the sandbox,
// writable. Source and Target may be the same path.
type Bind struct {
	Source, Target string
}

// Config says what one sandboxed command may reach.
type Config struct {
	// Binds are the writable folders: the run's copy of the project shown
	// at the project's path, the session folder. Everything else is
	// read-only.
	Binds []Bind
	// TempDir is the run's temporary folder: the command's /tmp. It must
	// exist. Without one the command's /tmp is an empty one of its own.
	TempDir string
	// Network lets the command reach the network; without it the command
	// has a network of its own with only loopback.
	Network bool
	// MaxFileSize caps one file the command writes (RLIMIT_FSIZE); 0 is
	// the package's MaxFileSize.
	MaxFileSize int64
	// PassEnv names environment variables that are kept although their
	// names look secret.
	PassEnv []string
}

// Report says what the sandbox was, for run.json, result.md, the run's
// stderr and the Run pane.
type Report struct {
	// Namespaces is set when commands run in user, mount, PID and network
	// namespaces of their own.
	Namespaces bool `json:"namespaces"`
	// Landlock is the Landlock ABI version that confines writes (0: none).
	Landlock int `json:"landlock,omitempty"`
	// Network says whether commands may reach the network: "off", "on",
	// or "off, on for mcp:NAME,…".
	Network string `json:"network,omitempty"`
	// Unsandboxed is set when the author turned the sandbox off
	// (--no-sandbox): commands run on the real filesystem, as the author.
	Unsandboxed bool `json:"unsandboxed,omitempty"`
	// Unavailable says why this machine cannot sandbox ("" when it can).
	Unavailable string `json:"unavailable,omitempty"`
}

// Available reports whether commands can run sandboxed.
func (r Report) Available() bool { return r.Namespaces && r.Landlock > 0 && r.Unavailable == "" }

// String is the one-line label, e.g. "sandbox: namespaces+landlock (ABI
// 7), network off" or "sandbox: none (--no-sandbox): commands run
// unsandboxed".
func (r Report) String() string {
	switch {
	case r.Unsandboxed:
		return "sandbox: none (--no-sandbox): commands run unsandboxed, on the real filesystem"
	case !r.Available():
		why := r.Unavailable
		if why == "" {
			why = "not available"
		}
		return "sandbox: unavailable (" + why + "): commands and stdio MCP servers are refused; pass --no-sandbox to run them unsandboxed"
	}
	net := r.Network
	if net == "" {
		net = "off"
	}
	return fmt.Sprintf("sandbox: namespaces+landlock (ABI %d), network %s", r.Landlock, net)
}

// Short is the label without the details, for narrow places (the Run
// pane): "sandboxed, network off", "unsandboxed (--no-sandbox)" or
// "refused: this machine cannot sandbox (see run.json)".
func (r Report) Short() string {
	switch {
	case r.Unsandboxed:
		return "unsandboxed (--no-sandbox)"
	case !r.Available():
		return "refused: this machine cannot sandbox them (result.md says why)"
	}
	net := r.Network
	if net == "" {
		net = "off"
	}
	return "sandboxed, network " + net
}

// WithNetwork returns r with its network state: on for the whole run, or
// off with the servers (mcp:NAME) that may reach it.
func (r Report) WithNetwork(all bool, servers []string) Report {
	switch {
	case all:
		r.Network = "on"
	case len(servers) > 0:
		s := slices.Clone(servers)
		sort.Strings(s)
		r.Network = "off, on for mcp:" + strings.Join(s, ", mcp:")
	default:
		r.Network = "off"
	}
	return r
}

// ErrUnavailable is wrapped by the error Wrap returns where this machine
// cannot sandbox a command.
var ErrUnavailable = errors.New("the sandbox is not available")

// ServerRefusedError is a stdio MCP server not started because this
// machine cannot sandbox it; it wraps ErrUnavailable. Its text is kept in
// run.json (the server's state) and shown as the run's note, so it names
// the flag that runs the server unsandboxed.
type ServerRefusedError struct {
	// Server is the server's name; Why is Report.Unavailable.
	Server, Why string
}

// Error says which server, why, and what the author can do.
func (e *ServerRefusedError) Error() string {
	return fmt.Sprintf("MCP server '%s' was not started: agentdesk cannot sandbox it on this machine (%s); pass --no-sandbox to run it unsandboxed: %v", e.Server, e.Why, ErrUnavailable)
}

// Unwrap returns ErrUnavailable.
func (e *ServerRefusedError) Unwrap() error { return ErrUnavailable }

// Refusal is the message a command or a stdio MCP server gets instead of
// running, where the sandbox is not available (r.Unavailable says why).
func Refusal(r Report) string {
	return "Error: agentdesk cannot sandbox commands on this machine (" + r.Unavailable + "), so it did not run this one: a trial never runs a command outside its sandbox. The author can pass --no-sandbox to run commands unsandboxed."
}

// secretWords are the name parts that make an environment variable look
// secret (compared in upper case).
var secretWords = []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "PRIVATE"}

// secretPrefixes are cloud providers' credential variables.
var secretPrefixes = []string{"AWS_", "AZURE_", "GOOGLE_APPLICATION_CREDENTIALS", "GCP_", "GCLOUD_", "ARM_CLIENT", "DIGITALOCEAN_", "HCLOUD_", "OS_PASSWORD"}

// SecretName reports whether an environment variable's name looks like
// it holds a secret: *_KEY, *TOKEN*, *SECRET*, *PASSWORD*,
// *CREDENTIAL*, and cloud providers' credentials (AWS_*, AZURE_*,
// GOOGLE_APPLICATION_CREDENTIALS, …).
func SecretName(name string) bool {
	u := strings.ToUpper(name)
	if strings.HasSuffix(u, "_KEY") || strings.HasSuffix(u, "APIKEY") || strings.HasSuffix(u, "_KEYS") {
		return true
	}
	for _, w := range secretWords {
		if strings.Contains(u, w) {
			return true
		}
	}
	for _, p := range secretPrefixes {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// Scrub returns env (NAME=VALUE entries) without the variables whose
// names look secret (SecretName), except those pass names, and the names
// it dropped.
func Scrub(env []string, pass []string) (kept []string, dropped []string) {
	kept = make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if SecretName(name) && !slices.Contains(pass, name) {
			dropped = append(dropped, name)
			continue
		}
		kept = append(kept, kv)
	}
	return kept, dropped
}

// MinSecretValueLen is the length, in characters and without the spaces
// around it, under which the value of a secret-looking variable is not
// redacted: a variable such as DEBUG_TOKEN=false or PAGER_KEY=less
// holds a word, not a key, and hiding it would mask ordinary words.
const MinSecretValueLen = 6

// SecretValues returns the values of agentdesk's own environment
// variables whose names look secret (SecretName), for the run's
// redactor: a command that prints one (a passed one, or one it read
// elsewhere) never has it stored. Values shorter than MinSecretValueLen
// characters are left out. The answer is kept for as long as the
// environment does not change: every run of a suite asks.
func SecretValues() []string {
	env := os.Environ()
	secretMemo.mu.Lock()
	defer secretMemo.mu.Unlock()
	if secretMemo.env == nil || !slices.Equal(env, secretMemo.env) {
		secretMemo.env, secretMemo.values = env, secretValues(env)
	}
	return slices.Clone(secretMemo.values)
}

// secretMemo is SecretValues' last environment and answer.
var secretMemo struct {
	mu     sync.Mutex
	env    []string
	values []string
}

// secretValues is SecretValues of env.
func secretValues(env []string) []string {
	var out []string
	for _, kv := range env {
		name, value, _ := strings.Cut(kv, "=")
		if SecretName(name) && utf8.RuneCountInString(strings.TrimSpace(value)) >= MinSecretValueLen {
			out = append(out, value)
		}
	}
	return out
}
