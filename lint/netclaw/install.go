package netclaw

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// The resources NetClaw embeds in Netclaw.Configuration.dll
// (Netclaw.Configuration.csproj at 013299cf: <EmbeddedResource> of
// Resources/AGENTS.md and Resources/AGENTS.public.md; FileSystemPromptProvider
// in ISystemPromptProvider.cs reads them with GetManifestResourceStream).
// They are the only embedded prompt text: SOUL.md, TOOLING.md and the
// deployment playbook are files in the home (see the package comment).
const (
	// ResourceAgents is the operating core for the Personal and Team audiences.
	ResourceAgents = "Netclaw.Configuration.Resources.AGENTS.md"
	// ResourceAgentsPublic is the stripped-down operating core for Public.
	ResourceAgentsPublic = "Netclaw.Configuration.Resources.AGENTS.public.md"
)

// ErrNoResource marks an assembly that lacks a resource asked for.
var ErrNoResource = errors.New("no such embedded resource")

// errNoAssemblyInBundle marks a bundle without Netclaw.Configuration.dll, so
// Find can try the next candidate.
var errNoAssemblyInBundle = errors.New("holds no " + AssemblyFile)

// Kind says what kind of file an Install reads.
type Kind int

// The kinds of file an Install reads.
const (
	// KindBundle is a single-file binary (netclawd or netclaw) with
	// Netclaw.Configuration.dll inside.
	KindBundle Kind = iota + 1
	// KindAssembly is a plain Netclaw.Configuration.dll (a developer build).
	KindAssembly
)

// String names the kind for messages.
func (k Kind) String() string {
	switch k {
	case KindBundle:
		return "single-file binary"
	case KindAssembly:
		return "assembly"
	}
	return "unknown"
}

// Install is one NetClaw installation as found and read by Find.
type Install struct {
	// Source is the absolute path of the file the resources come from: the
	// netclawd or netclaw binary, or Netclaw.Configuration.dll.
	Source string
	// Kind says whether Source is a bundle or the plain assembly.
	Kind Kind
	// Via says where Find found it: ViaDir, ViaEnv, ViaHome or ViaPath.
	Via string
	// Version is NetClaw's version as the assembly says it: its
	// informational version (for example "0.19.0-beta.1+abc123") when it
	// has one, else its four-part assembly version.
	Version string
	// AssemblyVersion is Netclaw.Configuration's four-part assembly version.
	AssemblyVersion string

	asm *Assembly
}

// Core is an operating core: the text of the audience's embedded AGENTS
// resource, as NetClaw reads it (byte-order mark dropped), before
// placeholder substitution, with where it came from.
type Core struct {
	// Text is the resource's text.
	Text string
	// Source is the file it was read from (Install.Source).
	Source string
	// Resource is the resource's name (ResourceAgents or ResourceAgentsPublic).
	Resource string
	// Version is NetClaw's version (Install.Version).
	Version string
}

// Resource returns the bytes of one embedded resource of
// Netclaw.Configuration.dll. A missing resource is an error wrapping
// ErrNoResource that names the file and lists the resources there are.
func (in *Install) Resource(name string) ([]byte, error) {
	b, ok := in.asm.resource(name)
	if !ok {
		return nil, &MissingResourceError{Source: in.Source, Name: name, Have: in.asm.ResourceNames()}
	}
	return append([]byte(nil), b...), nil
}

// MissingResourceError is a resource Netclaw.Configuration.dll does not
// embed; it wraps ErrNoResource. The command line words it with the flag
// that names another install.
type MissingResourceError struct {
	// Source is the file read (Install.Source).
	Source string
	// Name is the resource asked for.
	Name string
	// Have lists the resources the assembly embeds.
	Have []string
}

// Error names the file, lists the resources there are, and says what to do.
func (e *MissingResourceError) Error() string { return e.Message("name another NetClaw install") }

// Message is the error with other as the fix after updating agentdesk.
func (e *MissingResourceError) Message(other string) string {
	list := "none"
	if len(e.Have) > 0 {
		list = strings.Join(e.Have, ", ")
	}
	return fmt.Sprintf("%s: %v %s in %s (it has: %s); this NetClaw may be older or newer than agentdesk knows: update agentdesk, or %s",
		e.Source, ErrNoResource, e.Name, AssemblyFile, list, other)
}

// Unwrap returns ErrNoResource.
func (e *MissingResourceError) Unwrap() error { return ErrNoResource }

// ResourceNames lists the resources embedded in Netclaw.Configuration.dll.
func (in *Install) ResourceNames() []string { return in.asm.ResourceNames() }

// OperatingCore returns the audience's embedded operating core:
// AGENTS.public.md for Public (public true), else AGENTS.md. NetClaw then
// substitutes its {{...}} placeholders and appends the deployment playbook;
// that is composing, left to the caller.
func (in *Install) OperatingCore(public bool) (Core, error) {
	name := ResourceAgents
	if public {
		name = ResourceAgentsPublic
	}
	b, ok := in.asm.resource(name)
	if !ok {
		_, err := in.Resource(name)
		return Core{}, err
	}
	return Core{Text: decodeText(b), Source: in.Source, Resource: name, Version: in.Version}, nil
}

// ---- reading, once per process ----

// cacheKey identifies one version of one file.
type cacheKey struct {
	path  string
	size  int64
	mtime time.Time
}

// DamagedError is a NetClaw binary or assembly found where NetClaw lives
// but corrupt, truncated or not .NET; it wraps ErrCorrupt or
// ErrNotDotNet. The command line words it with the flag that names
// another install.
type DamagedError struct {
	// Err says what is wrong with which file.
	Err error
}

// Error says what is wrong and what to do.
func (e *DamagedError) Error() string { return e.Message("name a sound install") }

// Message is the error with other as the fix after reinstalling.
func (e *DamagedError) Message(other string) string {
	return e.Err.Error() + "; reinstall NetClaw (its installer puts netclawd in ~/.netclaw/bin), or " + other
}

// Unwrap returns the cause.
func (e *DamagedError) Unwrap() error { return e.Err }

// cache holds every assembly read in this process, by the file it came
// from; a file that changes (size or modification time) is read again and
// its old entry dropped.
var cache = struct {
	sync.Mutex
	m map[cacheKey]*Assembly
}{m: map[cacheKey]*Assembly{}}

// open reads the file at p (a bundle or the assembly), through the cache.
func open(p string, kind Kind, via string) (*Install, error) {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	st, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("NetClaw %s %s: %w", kind, p, err)
	}
	key := cacheKey{path: p, size: st.Size(), mtime: st.ModTime()}
	cache.Lock()
	defer cache.Unlock()
	asm, ok := cache.m[key]
	if !ok {
		asm, err = load(p, kind)
		if err != nil {
			if errors.Is(err, ErrCorrupt) || errors.Is(err, ErrNotDotNet) {
				// Found where NetClaw lives but unreadable: say what to do.
				err = &DamagedError{Err: err}
			}
			return nil, err
		}
		for k := range cache.m {
			if k.path == p {
				delete(cache.m, k)
			}
		}
		cache.m[key] = asm
	}
	in := &Install{Source: p, Kind: kind, Via: via, AssemblyVersion: asm.Version, Version: asm.InformationalVersion, asm: asm}
	if in.Version == "" {
		in.Version = asm.Version
	}
	return in, nil
}

// load reads the assembly out of the file, uncached. Its errors name the file.
func load(p string, kind Kind) (*Assembly, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("NetClaw %s %s: %w", kind, p, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("NetClaw %s %s: %w", kind, p, err)
	}
	var img []byte
	if kind == KindBundle {
		img, err = bundledAssembly(f, st.Size(), p)
	} else {
		img, err = plainAssembly(f, st.Size(), p)
	}
	if err != nil {
		return nil, err
	}
	asm, err := ParseAssembly(img)
	if err != nil {
		if kind == KindBundle {
			return nil, fmt.Errorf("%s: %s inside: %w", p, AssemblyFile, err)
		}
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return asm, nil
}

// bundledAssembly takes the assembly out of the single-file bundle f
// (size bytes) at path p. Its errors name the file.
func bundledAssembly(f *os.File, size int64, p string) ([]byte, error) {
	b, err := OpenBundle(f, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	e, ok := b.File(AssemblyFile)
	if !ok {
		return nil, fmt.Errorf("%s: a single-file bundle that %w", p, errNoAssemblyInBundle)
	}
	img, err := b.ReadFile(e)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	return img, nil
}

// plainAssembly reads the assembly file f (size bytes) at path p whole,
// up to the size this reader takes. Its errors name the file.
func plainAssembly(f *os.File, size int64, p string) ([]byte, error) {
	if size > maxEntryBytes {
		return nil, fmt.Errorf("%s: %w: %d bytes, more than an assembly this reader takes (%d)", p, ErrCorrupt, size, maxEntryBytes)
	}
	img := make([]byte, size)
	if _, err := f.ReadAt(img, 0); err != nil {
		return nil, fmt.Errorf("NetClaw %s %s: %w", KindAssembly, p, err)
	}
	return img, nil
}

// Open reads the NetClaw install at exactly this file, a single-file
// binary or Netclaw.Configuration.dll (told apart by the file's name),
// through the process-wide cache. Find is the usual way in; this is for a
// caller that already knows the file.
func Open(path string) (*Install, error) {
	kind := KindBundle
	if strings.EqualFold(filepath.Ext(path), ".dll") {
		kind = KindAssembly
	}
	return open(path, kind, "")
}

// dropCache empties the process-wide cache (for tests and benchmarks that
// measure a first read).
func dropCache() {
	cache.Lock()
	cache.m = map[cacheKey]*Assembly{}
	cache.Unlock()
}

// FindCore is Find followed by OperatingCore, shaped for a caller that
// composes a request: the audience's core (public true for Public); or,
// when no NetClaw is installed at all (ErrNotFound), a zero Core and
// missing, a sentence saying so and where Find looked, for every surface to
// show while the trial runs on; or an error for everything else (a named
// folder without NetClaw, a file that cannot be read, a missing resource),
// which names the file.
func FindCore(o Options, public bool) (core Core, missing string, err error) {
	in, err := Find(o)
	if errors.Is(err, ErrNotFound) {
		return Core{}, "the operating rules are missing: " + err.Error(), nil
	}
	if err != nil {
		return Core{}, "", err
	}
	core, err = in.OperatingCore(public)
	return core, "", err
}
