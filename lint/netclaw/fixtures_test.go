package netclaw

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The shared fixtures live at the top of the repository, in testdata/netclaw:
//
//	src/                           agentdesk's own texts and Fixture.cs
//	build.sh                       the mcs command that builds the DLL
//	dev/Netclaw.Configuration.dll  the assembly (a developer build's folder)
//	dev/netclawd                   an apphost stub that is no bundle
//	home/bin/netclawd              a single-file bundle around the DLL (a fake
//	                               NetClaw home, as the installer lays it out)
//
// `go test ./lint/netclaw/ -run TestGenerateFixtures -generate` rewrites the
// two stubs from the committed DLL; build.sh rebuilds the DLL.

var generate = flag.Bool("generate", false, "rewrite testdata/netclaw's bundle and apphost stub from the committed DLL")

// fixtureDir is testdata/netclaw at the top of the repository.
var fixtureDir = filepath.Join("..", "..", "testdata", "netclaw")

var (
	fixtureDLL    = filepath.Join(fixtureDir, "dev", AssemblyFile)
	fixtureDevDir = filepath.Join(fixtureDir, "dev")
	fixtureHome   = filepath.Join(fixtureDir, "home")
	fixtureBundle = filepath.Join(fixtureDir, "home", "bin", DaemonBinary)
)

// Fixed facts of the fixture, asserted by the tests.
const (
	fixtureCoreLast       = "Last line of the fixture core: pelican-7.\n"
	fixturePublicLast     = "Last line of the fixture public core: heron-3.\n"
	fixtureVersion        = "0.42.1-fixture+agentdesk"
	fixtureAssemblyVer    = "0.42.1.0"
	fixtureDepsJSON       = `{"runtimeTarget":{"name":".NETCoreApp,Version=v10.0/linux-x64"},"libraries":{"Netclaw.Configuration/0.42.1-fixture":{"type":"project"}}}` + "\n"
	fixtureRuntimeConfig  = `{"runtimeOptions":{"tfm":"net10.0"}}` + "\n"
	fixtureStubText       = "agentdesk test fixture: an apphost-like stub, not a program.\n"
	fixtureBundleIDString = "agentdesk-fixture-bundle"
)

// bundleEntry is one file the test writer puts into a bundle.
type bundleEntry struct {
	path     string
	data     []byte
	typ      BundleFileType
	compress bool
	// stored, when set, is written as the entry's compressed bytes as is.
	stored []byte
	// declare, when set, is written into the manifest instead of the real
	// offset, size and compressed size (for manifests that lie).
	declare *[3]int64
}

// bundleSpec is what the test writer builds: a stub, then the files, then the
// header and manifest, as the format describes.
type bundleSpec struct {
	major, minor uint32
	id           string
	files        []bundleEntry
	// headerOffset, when not zero, replaces the real header offset in the
	// stub (for files that lie about it); -1 writes zero (no bundle).
	headerOffset int64
	// count, when set, is written as the file count instead of the real one.
	count *int32
}

// writeString writes a BinaryWriter string: 7-bit-encoded length, UTF-8.
func writeString(w *bytes.Buffer, s string) {
	n := uint64(len(s))
	for n >= 0x80 {
		w.WriteByte(byte(n) | 0x80)
		n >>= 7
	}
	w.WriteByte(byte(n))
	w.WriteString(s)
}

func putI64(w *bytes.Buffer, v int64) { _ = binary.Write(w, binary.LittleEndian, v) }

// deflate compresses raw DEFLATE, as .NET's DeflateStream does.
func deflate(t testing.TB, b []byte) []byte {
	var out bytes.Buffer
	zw, err := flate.NewWriter(&out, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// buildBundle writes a single-file bundle from the format's description.
func buildBundle(t testing.TB, s bundleSpec) []byte {
	var w bytes.Buffer
	w.WriteString(fixtureStubText)
	for w.Len()%16 != 0 {
		w.WriteByte(0)
	}
	placeholder := w.Len()
	w.Write(make([]byte, 8))
	w.Write(bundleMarker)
	for w.Len()%16 != 0 {
		w.WriteByte(0)
	}
	type placed struct {
		off, size, csize int64
	}
	where := make([]placed, len(s.files))
	var deps, rtc placed
	for i, f := range s.files {
		for w.Len()%16 != 0 {
			w.WriteByte(0)
		}
		p := placed{off: int64(w.Len()), size: int64(len(f.data))}
		if f.stored != nil {
			p.csize = int64(len(f.stored))
			w.Write(f.stored)
		} else if f.compress {
			c := deflate(t, f.data)
			p.csize = int64(len(c))
			w.Write(c)
		} else {
			w.Write(f.data)
		}
		if f.declare != nil {
			p = placed{off: f.declare[0], size: f.declare[1], csize: f.declare[2]}
		}
		where[i] = p
		switch f.typ {
		case BundleDepsJSON:
			deps = p
		case BundleRuntimeConfig:
			rtc = p
		}
	}
	header := int64(w.Len())
	_ = binary.Write(&w, binary.LittleEndian, s.major)
	_ = binary.Write(&w, binary.LittleEndian, s.minor)
	count := int32(len(s.files))
	if s.count != nil {
		count = *s.count
	}
	_ = binary.Write(&w, binary.LittleEndian, count)
	writeString(&w, s.id)
	if s.major >= 2 {
		putI64(&w, deps.off)
		putI64(&w, deps.size)
		putI64(&w, rtc.off)
		putI64(&w, rtc.size)
		putI64(&w, 0) // flags
	}
	for i, f := range s.files {
		putI64(&w, where[i].off)
		putI64(&w, where[i].size)
		if s.major >= 6 {
			putI64(&w, where[i].csize)
		}
		w.WriteByte(byte(f.typ))
		writeString(&w, f.path)
	}
	out := w.Bytes()
	switch {
	case s.headerOffset == -1:
		header = 0
	case s.headerOffset != 0:
		header = s.headerOffset
	}
	binary.LittleEndian.PutUint64(out[placeholder:], uint64(header))
	return out
}

// fixtureSpec is the committed bundle's layout around a DLL.
func fixtureSpec(dll []byte) bundleSpec {
	return bundleSpec{major: 6, minor: 0, id: fixtureBundleIDString, files: []bundleEntry{
		{path: "Netclaw.Daemon.deps.json", data: []byte(fixtureDepsJSON), typ: BundleDepsJSON},
		{path: "Netclaw.Daemon.runtimeconfig.json", data: []byte(fixtureRuntimeConfig), typ: BundleRuntimeConfig},
		{path: AssemblyFile, data: dll, typ: BundleAssembly, compress: true},
	}}
}

// apphostStub is an apphost-like file whose header offset is zero: the
// apphost of a developer build, with its assemblies beside it.
func apphostStub(t testing.TB) []byte {
	return buildBundle(t, bundleSpec{major: 6, id: "unused", headerOffset: -1})
}

func readFixture(t testing.TB, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("reading fixture %s: %v (run testdata/netclaw/build.sh, then this package's tests with -generate)", p, err)
	}
	return b
}

// TestGenerateFixtures rewrites the bundle and stub with -generate; without
// it, checks that the committed bundle holds the committed DLL, so the two
// never drift apart.
func TestGenerateFixtures(t *testing.T) {
	dll := readFixture(t, fixtureDLL)
	if *generate {
		if err := os.MkdirAll(filepath.Dir(fixtureBundle), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(fixtureBundle, buildBundle(t, fixtureSpec(dll)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fixtureDevDir, DaemonBinary), apphostStub(t), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(fixtureBundle)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b, err := OpenBundle(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	e, ok := b.File(AssemblyFile)
	if !ok {
		t.Fatalf("%s holds no %s", fixtureBundle, AssemblyFile)
	}
	inner, err := b.ReadFile(e)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inner, dll) {
		t.Fatalf("%s holds a different %s from %s: run with -generate", fixtureBundle, AssemblyFile, fixtureDLL)
	}
}

// TestMcsBuildsFixture rebuilds the assembly from its sources with mcs, as
// build.sh does, and reads the result: the sources, the command and the
// committed DLL agree. It skips where mcs is not installed.
func TestMcsBuildsFixture(t *testing.T) {
	mcs, err := exec.LookPath("mcs")
	if err != nil {
		t.Skip("mcs not installed (apt-get install mono-mcs); the committed DLL covers the other tests")
	}
	out := filepath.Join(t.TempDir(), AssemblyFile)
	src := filepath.Join(fixtureDir, "src")
	cmd := exec.Command(mcs, "-target:library", "-nologo", "-deterministic", "-out:"+out,
		"-resource:"+filepath.Join(src, "AGENTS.md")+","+ResourceAgents,
		"-resource:"+filepath.Join(src, "AGENTS.public.md")+","+ResourceAgentsPublic,
		filepath.Join(src, "Fixture.cs"))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mcs: %v\n%s", err, b)
	}
	built, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	a, err := ParseAssembly(built)
	if err != nil {
		t.Fatal(err)
	}
	want := readFixture(t, filepath.Join(src, "AGENTS.md"))
	got, ok := a.resource(ResourceAgents)
	if !ok || !bytes.Equal(got, want) {
		t.Fatalf("the freshly built assembly's %s = %q, want the source file's bytes", ResourceAgents, got)
	}
	if a.InformationalVersion != fixtureVersion {
		t.Fatalf("InformationalVersion = %q, want %q", a.InformationalVersion, fixtureVersion)
	}
	committed := readFixture(t, fixtureDLL)
	if ca, err := ParseAssembly(committed); err != nil || !bytes.Equal(ca.resources[0].data, want) {
		t.Fatalf("the committed %s does not embed src/AGENTS.md as built (err %v): run testdata/netclaw/build.sh", fixtureDLL, err)
	}
}
