package netclaw

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// copyFile copies a fixture into a temporary layout.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b := readFixture(t, from)
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// noEnv and noPath keep a test away from the real environment.
func noEnv(string) string           { return "" }
func noPath(string) (string, error) { return "", exec.ErrNotFound }
func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// pathOf finds programs in the given folders only, as exec.LookPath would.
func pathOf(dirs ...string) func(string) (string, error) {
	return func(name string) (string, error) {
		for _, d := range dirs {
			p := filepath.Join(d, name)
			if isFile(p) {
				return p, nil
			}
		}
		return "", exec.ErrNotFound
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	bundleDir := filepath.Join(root, "release")
	copyFile(t, fixtureBundle, filepath.Join(bundleDir, DaemonBinary))
	cliOnly := filepath.Join(root, "cli-only")
	copyFile(t, fixtureBundle, filepath.Join(cliOnly, CLIBinary))
	devDir := filepath.Join(root, "dev")
	copyFile(t, filepath.Join(fixtureDevDir, DaemonBinary), filepath.Join(devDir, DaemonBinary))
	copyFile(t, fixtureDLL, filepath.Join(devDir, AssemblyFile))
	dllOnly := filepath.Join(root, "dll-only")
	copyFile(t, fixtureDLL, filepath.Join(dllOnly, AssemblyFile))
	home := filepath.Join(root, "home")
	copyFile(t, fixtureBundle, filepath.Join(home, "bin", DaemonBinary))
	userHome := filepath.Join(root, "user")
	copyFile(t, fixtureBundle, filepath.Join(userHome, ".netclaw", "bin", DaemonBinary))
	emptyHome := filepath.Join(root, "empty-home")
	if err := os.MkdirAll(emptyHome, 0o755); err != nil {
		t.Fatal(err)
	}
	linkDir := filepath.Join(root, "on-path")
	if err := os.MkdirAll(linkDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(devDir, DaemonBinary), filepath.Join(linkDir, DaemonBinary)); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name       string
		opts       Options
		wantSource string
		wantKind   Kind
		wantVia    string
	}{
		{"named folder with the daemon bundle", Options{Dir: bundleDir, Home: home, Getenv: noEnv, LookPath: noPath},
			filepath.Join(bundleDir, DaemonBinary), KindBundle, ViaDir},
		{"named folder with only the CLI bundle", Options{Dir: cliOnly, Getenv: noEnv, LookPath: noPath},
			filepath.Join(cliOnly, CLIBinary), KindBundle, ViaDir},
		{"developer build: apphost without bundle, DLL beside it", Options{Dir: devDir, Getenv: noEnv, LookPath: noPath},
			filepath.Join(devDir, AssemblyFile), KindAssembly, ViaDir},
		{"folder with the DLL alone", Options{Dir: dllOnly, Getenv: noEnv, LookPath: noPath},
			filepath.Join(dllOnly, AssemblyFile), KindAssembly, ViaDir},
		{"the flag wins over the environment", Options{Dir: dllOnly, Getenv: envOf(map[string]string{EnvDir: bundleDir}), LookPath: noPath},
			filepath.Join(dllOnly, AssemblyFile), KindAssembly, ViaDir},
		{"the environment wins over the home", Options{Home: home, Getenv: envOf(map[string]string{EnvDir: dllOnly}), LookPath: noPath},
			filepath.Join(dllOnly, AssemblyFile), KindAssembly, ViaEnv},
		{"the home's bin", Options{Home: home, Getenv: noEnv, LookPath: pathOf(cliOnly)},
			filepath.Join(home, "bin", DaemonBinary), KindBundle, ViaHome},
		{"PATH when the home has no bin", Options{Home: emptyHome, Getenv: noEnv, LookPath: pathOf(cliOnly)},
			filepath.Join(cliOnly, CLIBinary), KindBundle, ViaPath},
		{"a symlink on PATH is followed to its folder", Options{Getenv: noEnv, LookPath: pathOf(linkDir)},
			filepath.Join(devDir, AssemblyFile), KindAssembly, ViaPath},
		{"the committed fake home", Options{Home: fixtureHome, Getenv: noEnv, LookPath: noPath},
			fixtureBundle, KindBundle, ViaHome},
		{"the installer's ~/.netclaw/bin when the home is elsewhere", Options{Home: emptyHome, Getenv: envOf(map[string]string{"HOME": userHome}), LookPath: pathOf(cliOnly)},
			filepath.Join(userHome, ".netclaw", "bin", DaemonBinary), KindBundle, ViaInstallDir},
		{"the named binary itself", Options{Dir: filepath.Join(bundleDir, DaemonBinary), Getenv: noEnv, LookPath: noPath},
			filepath.Join(bundleDir, DaemonBinary), KindBundle, ViaDir},
		{"the named assembly itself", Options{Dir: filepath.Join(dllOnly, AssemblyFile), Getenv: noEnv, LookPath: noPath},
			filepath.Join(dllOnly, AssemblyFile), KindAssembly, ViaDir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Find(tc.opts)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := filepath.Abs(tc.wantSource)
			if in.Source != want || in.Kind != tc.wantKind || in.Via != tc.wantVia {
				t.Fatalf("Find = %s (%s, via %s), want %s (%s, via %s)", in.Source, in.Kind, in.Via, want, tc.wantKind, tc.wantVia)
			}
			if in.Version != fixtureVersion || in.AssemblyVersion != fixtureAssemblyVer {
				t.Fatalf("versions = %q, %q; want %q, %q", in.Version, in.AssemblyVersion, fixtureVersion, fixtureAssemblyVer)
			}
			core, err := in.OperatingCore(false)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(core.Text, fixtureCoreLast) || core.Source != want || core.Resource != ResourceAgents || core.Version != fixtureVersion {
				t.Fatalf("core = %+v", core)
			}
		})
	}
}

func TestFindErrors(t *testing.T) {
	root := t.TempDir()
	empty := filepath.Join(root, "empty")
	if err := os.MkdirAll(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	stubOnly := filepath.Join(root, "stub-only")
	copyFile(t, filepath.Join(fixtureDevDir, DaemonBinary), filepath.Join(stubOnly, DaemonBinary))
	notDotNet := filepath.Join(root, "not-dotnet")
	copyFile(t, filepath.Join(fixtureDir, "src", "AGENTS.md"), filepath.Join(notDotNet, AssemblyFile))
	truncated := filepath.Join(root, "truncated")
	b := readFixture(t, fixtureBundle)
	if err := os.MkdirAll(truncated, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(truncated, DaemonBinary), b[:len(b)-10], 0o755); err != nil {
		t.Fatal(err)
	}
	brokenHome := filepath.Join(root, "broken-home")
	copyFile(t, filepath.Join(fixtureDevDir, DaemonBinary), filepath.Join(brokenHome, "bin", DaemonBinary))
	aFile := filepath.Join(root, "a-file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}

	tests := []struct {
		name     string
		opts     Options
		notFound bool     // wraps ErrNotFound
		want     []string // in the message
	}{
		{"named folder without binaries or DLL", Options{Dir: empty, LookPath: noPath, Getenv: noEnv},
			false, []string{empty, "(" + ViaDir + ")", "holds none of them", "name the folder"}},
		{"named folder that does not exist", Options{Dir: filepath.Join(root, "nope"), LookPath: noPath, Getenv: noEnv},
			false, []string{filepath.Join(root, "nope"), "no such file"}},
		{"named path that is a file but no NetClaw binary", Options{Dir: aFile, LookPath: noPath, Getenv: noEnv},
			false, []string{aFile, "not a .NET single-file bundle", "name the folder holding netclawd"}},
		{"environment folder without binaries", Options{Getenv: envOf(map[string]string{EnvDir: empty}), LookPath: noPath},
			false, []string{empty, EnvDir}},
		{"apphost that is no bundle, no DLL beside it", Options{Dir: stubOnly, LookPath: noPath, Getenv: noEnv},
			false, []string{filepath.Join(stubOnly, DaemonBinary), "apphost without a bundle", "no " + AssemblyFile}},
		{"a DLL that is not .NET", Options{Dir: notDotNet, LookPath: noPath, Getenv: noEnv},
			false, []string{filepath.Join(notDotNet, AssemblyFile), "not a .NET assembly", "reinstall NetClaw"}},
		{"a truncated bundle", Options{Dir: truncated, LookPath: noPath, Getenv: noEnv},
			false, []string{filepath.Join(truncated, DaemonBinary), "corrupt or truncated", "reinstall NetClaw"}},
		{"a home whose netclawd is no bundle", Options{Home: brokenHome, LookPath: noPath, Getenv: noEnv},
			false, []string{filepath.Join(brokenHome, "bin", DaemonBinary), "apphost without a bundle"}},
		{"nothing anywhere", Options{Home: empty, LookPath: noPath, Getenv: noEnv},
			true, []string{filepath.Join(empty, "bin"), "netclawd and netclaw on PATH", EnvDir}},
		{"no home, nothing on PATH", Options{LookPath: noPath, Getenv: noEnv},
			true, []string{"on PATH", "install NetClaw"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in, err := Find(tc.opts)
			if err == nil {
				t.Fatalf("Find = %+v, want an error", in)
			}
			if errors.Is(err, ErrNotFound) != tc.notFound {
				t.Fatalf("errors.Is(err, ErrNotFound) = %v, want %v: %v", !tc.notFound, tc.notFound, err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
	// The command line words these with its flag: the typed errors carry
	// what it needs.
	_, err := Find(Options{Dir: empty, LookPath: noPath, Getenv: noEnv})
	if fe, ok := errors.AsType[*FolderError](err); !ok || fe.Dir != empty || fe.Via != ViaDir || fe.Why != "it holds none of them" ||
		!strings.Contains(fe.Message("X-VIA"), empty+" (X-VIA) has no usable") {
		t.Errorf("a named folder holding nothing: %#v", err)
	}
	_, err = Find(Options{Dir: filepath.Join(root, "nope"), LookPath: noPath, Getenv: noEnv})
	if fe, ok := errors.AsType[*FolderError](err); !ok || fe.Via != ViaDir || !errors.Is(err, fs.ErrNotExist) ||
		!strings.HasPrefix(fe.Message("X-VIA"), "NetClaw folder "+filepath.Join(root, "nope")+" (X-VIA): ") {
		t.Errorf("a named folder that does not exist: %#v", err)
	}
	_, err = Find(Options{Home: empty, LookPath: noPath, Getenv: noEnv})
	if nf, ok := errors.AsType[*NotFoundError](err); !ok || len(nf.Looked) == 0 || nf.Looked[0] != filepath.Join(empty, "bin") ||
		!strings.HasSuffix(nf.Message("X-HOW"), "name the folder holding netclawd or "+AssemblyFile+" with X-HOW") {
		t.Errorf("nothing anywhere: %#v", err)
	}
}

func TestOperatingCoreAndResources(t *testing.T) {
	in, err := Open(fixtureBundle)
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(fixtureDir, "src")
	tests := []struct {
		public   bool
		resource string
		file     string
		last     string
	}{
		{false, ResourceAgents, "AGENTS.md", fixtureCoreLast},
		{true, ResourceAgentsPublic, "AGENTS.public.md", fixturePublicLast},
	}
	for _, tc := range tests {
		core, err := in.OperatingCore(tc.public)
		if err != nil {
			t.Fatal(err)
		}
		raw := string(readFixture(t, filepath.Join(src, tc.file)))
		if want := strings.TrimPrefix(raw, "\ufeff"); core.Text != want {
			t.Errorf("OperatingCore(%v).Text = %q, want the source text without its byte-order mark %q", tc.public, core.Text, want)
		}
		if core.Resource != tc.resource || !strings.HasSuffix(core.Text, tc.last) {
			t.Errorf("OperatingCore(%v) = %+v", tc.public, core)
		}
		b, err := in.Resource(tc.resource)
		if err != nil || string(b) != raw {
			t.Errorf("Resource(%s) = %q, %v; want the raw bytes", tc.resource, b, err)
		}
	}
	_, err = in.Resource("Netclaw.Configuration.Resources.SOUL.md")
	if !errors.Is(err, ErrNoResource) || !strings.Contains(err.Error(), in.Source) || !strings.Contains(err.Error(), ResourceAgentsPublic) || !strings.Contains(err.Error(), "name another NetClaw install") {
		t.Fatalf("missing resource error = %v; want ErrNoResource naming the file and listing the resources", err)
	}
	if mr, ok := errors.AsType[*MissingResourceError](err); !ok || mr.Source != in.Source || mr.Name != "Netclaw.Configuration.Resources.SOUL.md" || len(mr.Have) != 2 ||
		!strings.HasSuffix(mr.Message("X-OTHER"), "update agentdesk, or X-OTHER") {
		t.Fatalf("missing resource error = %#v; want a *MissingResourceError with the file, the name and the resources", err)
	}
	if got := in.ResourceNames(); len(got) != 2 || got[0] != ResourceAgents || got[1] != ResourceAgentsPublic {
		t.Fatalf("ResourceNames = %q", got)
	}
}

// TestCacheReadsOnce checks the process-wide cache: a second Find of an
// unchanged file reuses what was read, and a changed file is read again.
func TestCacheReadsOnce(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, AssemblyFile)
	copyFile(t, fixtureDLL, p)
	a, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if a.asm != b.asm {
		t.Fatal("a second read of an unchanged file parsed it again")
	}
	// Replace the file with one lacking the public core: the cache must notice.
	other := buildAssemblyWithout(t, ResourceAgentsPublic)
	if err := os.WriteFile(p, other, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	if c.asm == a.asm {
		t.Fatal("a changed file was served from the cache")
	}
	if _, err := c.OperatingCore(true); !errors.Is(err, ErrNoResource) {
		t.Fatalf("OperatingCore(public) on an assembly without it = %v, want ErrNoResource", err)
	}
}

func TestFindCore(t *testing.T) {
	core, missing, err := FindCore(Options{Home: fixtureHome, Getenv: noEnv, LookPath: noPath}, true)
	if err != nil || missing != "" || core.Resource != ResourceAgentsPublic || !strings.HasSuffix(core.Text, fixturePublicLast) {
		t.Fatalf("FindCore = %+v, %q, %v", core, missing, err)
	}
	core, missing, err = FindCore(Options{Home: t.TempDir(), Getenv: noEnv, LookPath: noPath}, false)
	if err != nil || core.Text != "" || !strings.HasPrefix(missing, "the operating rules are missing: NetClaw installation not found") {
		t.Fatalf("FindCore without an install = %+v, %q, %v; want a missing sentence", core, missing, err)
	}
	_, missing, err = FindCore(Options{Dir: t.TempDir(), Getenv: noEnv, LookPath: noPath}, false)
	if err == nil || missing != "" {
		t.Fatalf("FindCore with an empty named folder = %q, %v; want an error", missing, err)
	}
}
