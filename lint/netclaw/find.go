package netclaw

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// The names NetClaw installs and builds (scripts/install.sh at 1abeaaad puts
// the components "netclaw" and "netclawd" into INSTALL_DIR, by default
// ~/.netclaw/bin; scripts/build/publish-binaries.sh at 2ad24e89 publishes
// them self-contained with PublishSingleFile and
// EnableCompressionInSingleFile).
const (
	// DaemonBinary is the daemon's single-file binary; it runs the sessions
	// and sub-agents, so it is read first.
	DaemonBinary = "netclawd"
	// CLIBinary is the command-line client's single-file binary.
	CLIBinary = "netclaw"
	// AssemblyFile is the assembly that embeds the operating core, inside the
	// bundles or, in a developer build, a plain file.
	AssemblyFile = "Netclaw.Configuration.dll"
	// EnvDir is the environment variable naming a folder to read NetClaw from.
	EnvDir = "AGENTDESK_NETCLAW_DIR"
)

// Where an install was found, in the order Find looks.
const (
	// ViaDir is a folder or file named with Options.Dir; the command line
	// words it with its flag (FolderError.Message).
	ViaDir  = "named folder"
	ViaEnv  = EnvDir
	ViaHome = "<home>/bin"
	// ViaInstallDir is the install script's INSTALL_DIR default,
	// $HOME/.netclaw/bin, whatever NETCLAW_HOME is.
	ViaInstallDir = "~/.netclaw/bin"
	ViaPath       = "PATH"
)

// ErrNotFound marks the answer "no NetClaw installation here": nothing in
// <home>/bin and nothing on PATH, when no folder was named. A folder named
// through Options.Dir or AGENTDESK_NETCLAW_DIR that holds nothing usable is a
// different error (the user asked for that folder), so callers can tell a
// missing install (run on, say the operating rules are missing) from a wrong
// flag.
var ErrNotFound = errors.New("NetClaw installation not found")

// Options says where Find looks. The zero value looks only on PATH (through
// os.Getenv and exec.LookPath).
type Options struct {
	// Dir is the folder the user named (--netclaw-dir): it must hold
	// netclawd, netclaw or Netclaw.Configuration.dll.
	Dir string
	// Home is the NetClaw home (NETCLAW_HOME, else ~/.netclaw); Find looks in
	// Home/bin, where the installer puts the binaries. Empty skips it.
	Home string
	// Getenv reads the environment (AGENTDESK_NETCLAW_DIR); nil means os.Getenv.
	Getenv func(string) string
	// LookPath finds a program on PATH; nil means exec.LookPath.
	LookPath func(string) (string, error)
}

// Find locates the NetClaw installation and reads it (once per process for
// each file; see the package comment). It looks, in order:
//
//  1. o.Dir, when set;
//  2. else the folder in AGENTDESK_NETCLAW_DIR, when set;
//  3. else Home/bin;
//  4. else $HOME/.netclaw/bin, where NetClaw's install script puts the
//     binaries whatever NETCLAW_HOME is (INSTALL_DIR's default);
//  5. else netclawd, then netclaw, on PATH.
//
// A Dir that names netclawd, netclaw or Netclaw.Configuration.dll itself
// is taken as that file.
//
// In a folder it takes netclawd, else netclaw, when the file is a
// single-file bundle holding Netclaw.Configuration.dll, else the plain
// Netclaw.Configuration.dll beside it (a developer build, whose apphost is
// no bundle). The error of a named folder that holds none of these says what
// it holds and what to do; when nothing is found without a named folder the
// error wraps ErrNotFound and lists where Find looked. A file that is found
// but cannot be read (truncated, corrupt, not .NET) is an error naming it.
func Find(o Options) (*Install, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	lookPath := o.LookPath
	if lookPath == nil {
		lookPath = exec.LookPath
	}
	if o.Dir != "" {
		if isFile(o.Dir) {
			return findFile(o.Dir)
		}
		return findInDir(o.Dir, ViaDir, true)
	}
	if d := getenv(EnvDir); d != "" {
		return findInDir(d, ViaEnv, true)
	}
	in, looked, err := findInHomes(o.Home, getenv("HOME"))
	if in != nil || err != nil {
		return in, err
	}
	if in, err := findOnPath(lookPath); in != nil || err != nil {
		return in, err
	}
	looked = append(looked, fmt.Sprintf("%s and %s on PATH", DaemonBinary, CLIBinary))
	return nil, &NotFoundError{Looked: looked}
}

// NotFoundError is Find's answer when no folder was named and nothing was
// found; it wraps ErrNotFound. The command line words it with the flag
// that names a folder.
type NotFoundError struct {
	// Looked lists where Find looked, in order.
	Looked []string
}

// Error says where Find looked and what to do.
func (e *NotFoundError) Error() string { return e.Message(EnvDir) }

// Message is the error with how names the ways to name a folder
// ("AGENTDESK_NETCLAW_DIR" or "--netclaw-dir DIR or AGENTDESK_NETCLAW_DIR").
func (e *NotFoundError) Message(how string) string {
	return fmt.Sprintf("%v (looked in %s): install NetClaw, or name the folder holding %s or %s with %s",
		ErrNotFound, strings.Join(e.Looked, ", "), DaemonBinary, AssemblyFile, how)
}

// Unwrap returns ErrNotFound.
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// FolderError is a folder named with Options.Dir or AGENTDESK_NETCLAW_DIR,
// or one where NetClaw lives, that holds no usable install. The command
// line words Via (ViaDir) with its flag.
type FolderError struct {
	// Dir is the folder.
	Dir string
	// Via says how Find came to it: ViaDir, ViaEnv, ViaHome, ViaInstallDir
	// or ViaPath.
	Via string
	// Err is why the folder cannot be read (missing, not a folder), or nil.
	Err error
	// Why says what the folder holds instead, when Err is nil.
	Why string
}

// Error says which folder, how it was named, and what to do.
func (e *FolderError) Error() string { return e.Message(e.Via) }

// Message is the error with via naming how the folder came to be read.
func (e *FolderError) Message(via string) string {
	if e.Err != nil {
		return fmt.Sprintf("NetClaw folder %s (%s): %v; name the folder holding %s or %s", e.Dir, via, e.Err, DaemonBinary, AssemblyFile)
	}
	return fmt.Sprintf("NetClaw folder %s (%s) has no usable %s, %s or %s: %s; name the folder of a NetClaw install (%s by default) or of a build holding %s",
		e.Dir, via, DaemonBinary, CLIBinary, AssemblyFile, e.Why, filepath.Join("~", ".netclaw", "bin"), AssemblyFile)
}

// Unwrap returns the cause, when there is one.
func (e *FolderError) Unwrap() error { return e.Err }

// findInHomes looks in the NetClaw home's bin folder (home "" for none),
// then in the install script's folder under the user's home folder
// userHome, unless that is the same. It returns the folders it looked in.
func findInHomes(home, userHome string) (*Install, []string, error) {
	var looked []string
	if home != "" {
		bin := filepath.Join(home, "bin")
		in, err := findInDir(bin, ViaHome, false)
		if in != nil || err != nil {
			return in, nil, err
		}
		looked = append(looked, bin)
	}
	if userHome == "" {
		return nil, looked, nil
	}
	bin := filepath.Join(userHome, ".netclaw", "bin")
	if home != "" && filepath.Clean(bin) == filepath.Clean(filepath.Join(home, "bin")) {
		return nil, looked, nil
	}
	in, err := findInDir(bin, ViaInstallDir, false)
	if in != nil || err != nil {
		return in, nil, err
	}
	return nil, append(looked, bin), nil
}

// findOnPath looks in the folder of netclawd, then of netclaw, found on
// PATH by lookPath (after symbolic links).
func findOnPath(lookPath func(string) (string, error)) (*Install, error) {
	for _, name := range []string{DaemonBinary, CLIBinary} {
		p, err := lookPath(exe(name))
		if err != nil || p == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		in, err := findInDir(filepath.Dir(p), ViaPath, false)
		if in != nil || err != nil {
			return in, err
		}
	}
	return nil, nil
}

// findFile reads a file named through Options.Dir: the assembly, or a
// single-file bundle (netclawd, netclaw).
func findFile(p string) (*Install, error) {
	if strings.EqualFold(filepath.Base(p), AssemblyFile) {
		return open(p, KindAssembly, ViaDir)
	}
	in, err := open(p, KindBundle, ViaDir)
	if err != nil {
		if dll := filepath.Join(filepath.Dir(p), AssemblyFile); isFile(dll) {
			// A developer build's apphost is no bundle: its DLL is beside it.
			return open(dll, KindAssembly, ViaDir)
		}
		return nil, fmt.Errorf("%w; name the folder holding %s or %s", err, DaemonBinary, AssemblyFile)
	}
	return in, nil
}

// exe adds the platform's executable suffix.
func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// findInDir reads the first usable candidate in dir. With named false, a
// folder that is missing or holds no candidate gives (nil, nil) so the search
// goes on; with named true it is an error saying what the folder holds.
func findInDir(dir, via string, named bool) (*Install, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		if !named {
			return nil, nil
		}
		if err == nil {
			err = errors.New("not a folder")
		}
		return nil, &FolderError{Dir: dir, Via: via, Err: err}
	}
	in, skipped, err := openBundleIn(dir, via)
	if in != nil || err != nil {
		return in, err
	}
	if p := filepath.Join(dir, AssemblyFile); isFile(p) {
		return open(p, KindAssembly, via)
	}
	if !named && len(skipped) == 0 {
		return nil, nil
	}
	why := "it holds none of them"
	if len(skipped) > 0 {
		why = strings.Join(skipped, "; ") + "; and no " + AssemblyFile + " beside them"
	}
	return nil, &FolderError{Dir: dir, Via: via, Why: why}
}

// openBundleIn reads netclawd, else netclaw, in dir when it is a
// single-file bundle holding the assembly. skipped says why each file
// there was not one; another failure to read one is an error.
func openBundleIn(dir, via string) (in *Install, skipped []string, err error) {
	for _, name := range []string{exe(DaemonBinary), exe(CLIBinary)} {
		p := filepath.Join(dir, name)
		if !isFile(p) {
			continue
		}
		in, err := open(p, KindBundle, via)
		if err == nil {
			return in, nil, nil
		}
		if !errors.Is(err, ErrNotBundle) && !errors.Is(err, errNoAssemblyInBundle) {
			return nil, nil, err
		}
		skipped = append(skipped, err.Error())
	}
	return nil, skipped, nil
}

// isFile reports whether p is a regular file (after symlinks).
func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().Type()&fs.ModeType == 0
}
