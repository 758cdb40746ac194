package netclaw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openBytes(b []byte) (*Bundle, error) { return OpenBundle(bytes.NewReader(b), int64(len(b))) }

func TestOpenBundleFixture(t *testing.T) {
	b, err := openBytes(readFixture(t, fixtureBundle))
	if err != nil {
		t.Fatal(err)
	}
	if b.Major != 6 || b.Minor != 0 || b.ID != fixtureBundleIDString || len(b.Files) != 3 {
		t.Fatalf("header = %d.%d %q with %d files", b.Major, b.Minor, b.ID, len(b.Files))
	}
	want := []struct {
		path       string
		typ        BundleFileType
		compressed bool
		data       string
	}{
		{"Netclaw.Daemon.deps.json", BundleDepsJSON, false, fixtureDepsJSON},
		{"Netclaw.Daemon.runtimeconfig.json", BundleRuntimeConfig, false, fixtureRuntimeConfig},
		{AssemblyFile, BundleAssembly, true, string(readFixture(t, fixtureDLL))},
	}
	for i, w := range want {
		f := b.Files[i]
		if f.Path != w.path || f.Type != w.typ || (f.CompressedSize != 0) != w.compressed {
			t.Errorf("file %d = %+v, want %s type %d compressed %v", i, f, w.path, w.typ, w.compressed)
		}
		got, err := b.ReadFile(f)
		if err != nil || string(got) != w.data {
			t.Errorf("ReadFile(%s) = %d bytes, %v; want the %d bytes written", f.Path, len(got), err, len(w.data))
		}
	}
}

// TestBundleVersions reads bundles of each format version the host has
// known: 1.0 (no deps.json location, no compression), 2.0 (locations, no
// compression) and 6.0 (compressed sizes).
func TestBundleVersions(t *testing.T) {
	dll := readFixture(t, fixtureDLL)
	for _, v := range []struct {
		major    uint32
		compress bool
	}{{1, false}, {2, false}, {6, false}, {6, true}} {
		raw := buildBundle(t, bundleSpec{major: v.major, id: "v", files: []bundleEntry{
			{path: "app.dll", data: []byte("not read"), typ: BundleAssembly},
			{path: AssemblyFile, data: dll, typ: BundleAssembly, compress: v.compress},
		}})
		b, err := openBytes(raw)
		if err != nil {
			t.Fatalf("version %d: %v", v.major, err)
		}
		f, ok := b.File(AssemblyFile)
		if !ok {
			t.Fatalf("version %d: no %s", v.major, AssemblyFile)
		}
		got, err := b.ReadFile(f)
		if err != nil || !bytes.Equal(got, dll) {
			t.Fatalf("version %d: ReadFile = %d bytes, %v", v.major, len(got), err)
		}
	}
}

func TestBundleBadInput(t *testing.T) {
	dll := readFixture(t, fixtureDLL)
	good := fixtureSpec(dll)
	withDLL := func(e bundleEntry) bundleSpec {
		s := fixtureSpec(dll)
		e.path, e.typ = AssemblyFile, BundleAssembly
		s.files[2] = e
		return s
	}
	i32 := func(v int32) *int32 { return &v }
	big := bytes.Repeat([]byte{0}, 8<<20)
	goodRaw := buildBundle(t, good)
	headerAt := int64(binary.LittleEndian.Uint64(goodRaw[bytes.Index(goodRaw, bundleMarker)-8:]))
	patch := func(off int64, b ...byte) []byte {
		out := append([]byte(nil), goodRaw...)
		copy(out[off:], b)
		return out
	}
	const idLenAt = 12 // after major, minor, count

	tests := []struct {
		name   string
		raw    []byte
		is     error
		want   string
		inside bool // the error shows when the DLL is taken out, not on open
	}{
		{"a text file", []byte("#!/bin/sh\necho netclawd\n"), ErrNotBundle, "no bundle marker", false},
		{"an apphost that is no bundle", apphostStub(t), ErrNotBundle, "apphost without a bundle", false},
		{"marker with no room for the offset", append(append([]byte{}, bundleMarker...), 1, 2, 3), ErrCorrupt, "no header offset", false},
		{"header offset past the end", buildBundle(t, bundleSpec{major: 6, id: "x", headerOffset: 1 << 40}), ErrCorrupt, "outside the file", false},
		{"negative header offset", buildBundle(t, bundleSpec{major: 6, id: "x", headerOffset: -5}), ErrCorrupt, "outside the file", false},
		{"truncated in the manifest", goodRaw[:len(goodRaw)-12], ErrCorrupt, "manifest ends inside", false},
		{"truncated in the header", goodRaw[:headerAt+6], ErrCorrupt, "manifest ends inside the bundle version", false},
		{"a format version from the future", buildBundle(t, bundleSpec{major: 7, id: "x"}), ErrCorrupt, "update agentdesk", false},
		{"format version zero", buildBundle(t, bundleSpec{major: 0, id: "x"}), ErrCorrupt, "not one this reader knows", false},
		{"a file count the manifest cannot hold", buildBundle(t, bundleSpec{major: 6, id: "x", count: i32(1 << 30)}), ErrCorrupt, "claims 1073741824 files", false},
		{"a negative file count", buildBundle(t, bundleSpec{major: 6, id: "x", count: i32(-1)}), ErrCorrupt, "claims -1 files", false},
		{"a bundle id longer than the file", patch(headerAt+idLenAt, 0xff, 0xff, 0x03), ErrCorrupt, "the bundle id", false},
		{"a 7-bit length that never ends", patch(headerAt+idLenAt, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff), ErrCorrupt, "not a valid 7-bit-encoded number", false},
		{"a path that is not UTF-8", buildBundle(t, bundleSpec{major: 6, id: "x", files: []bundleEntry{{path: "bad\xff.dll", data: []byte("x")}}}), ErrCorrupt, "not valid UTF-8", false},
		{"an entry offset past the end", buildBundle(t, withDLL(bundleEntry{data: dll, declare: &[3]int64{1 << 40, int64(len(dll)), 0}})), ErrCorrupt, "outside the file", false},
		{"an entry size past the end", buildBundle(t, withDLL(bundleEntry{data: dll, declare: &[3]int64{64, 1 << 40, 0}})), ErrCorrupt, "outside the file", false},
		{"a negative entry size", buildBundle(t, withDLL(bundleEntry{data: dll, declare: &[3]int64{64, -1, 0}})), ErrCorrupt, "outside the file", false},
		{"a compressed size past the end", buildBundle(t, withDLL(bundleEntry{data: dll, declare: &[3]int64{64, 10, 1 << 40}})), ErrCorrupt, "outside the file", false},
		{"deps.json location outside the file", func() []byte {
			// The deps.json location follows the id: patch its offset.
			return patch(headerAt+idLenAt+1+int64(len(fixtureBundleIDString)), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0)
		}(), ErrCorrupt, "the deps.json location", false},
		{"inflates beyond its declared size (a bomb)", buildBundle(t, withDLL(bundleEntry{stored: deflate(t, big), declare: nil, data: big[:100]})), ErrCorrupt, "inflates beyond its declared size of 100 bytes", true},
		{"inflates to fewer bytes than declared", buildBundle(t, withDLL(bundleEntry{stored: deflate(t, dll[:100]), data: dll})), ErrCorrupt, "inflates to fewer than its declared", true},
		{"a damaged deflate stream", buildBundle(t, withDLL(bundleEntry{stored: []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, data: dll})), ErrCorrupt, "does not inflate", true},
		{"a declared size beyond the reader's cap", func() []byte {
			s := withDLL(bundleEntry{stored: deflate(t, dll), data: dll})
			raw := buildBundle(t, s)
			// Rewrite the size field of the DLL's entry (the last one).
			at := int64(len(raw)) - int64(len(AssemblyFile)) - 1 - 1 - 8 - 8
			binary.LittleEndian.PutUint64(raw[at:], 1<<40)
			return append(raw, make([]byte, 0)...)
		}(), ErrCorrupt, "more than the", true},
		{"the DLL inside is not .NET", buildBundle(t, withDLL(bundleEntry{data: []byte("plain text, not an assembly"), compress: true})), ErrNotDotNet, AssemblyFile + " inside", true},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := openBytes(tc.raw)
			if tc.inside && err == nil {
				f, ok := b.File(AssemblyFile)
				if !ok {
					t.Fatalf("no %s in the crafted bundle", AssemblyFile)
				}
				_, err = b.ReadFile(f)
				if errors.Is(tc.is, ErrNotDotNet) && err == nil {
					err = errors.New("") // the reading error shows through ReadFile below
				}
			}
			if err == nil {
				t.Fatal("no error")
			}
			if !errors.Is(tc.is, ErrNotDotNet) && (!errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("err = %v; want %v containing %q", err, tc.is, tc.want)
			}
			// Through the install reader the message names the file.
			p := filepath.Join(dir, string(rune('a'+i)), DaemonBinary)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.raw, 0o755); err != nil {
				t.Fatal(err)
			}
			_, err = Open(p)
			if err == nil || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Open = %v; want %v naming %s and saying %q", err, tc.is, p, tc.want)
			}
		})
	}
}

// TestBundleWithoutAssemblyFallsBack: a bundle without
// Netclaw.Configuration.dll (some other .NET app named netclawd) is passed
// over for the DLL beside it, and without one the error says both.
func TestBundleWithoutAssemblyFallsBack(t *testing.T) {
	dir := t.TempDir()
	other := buildBundle(t, bundleSpec{major: 6, id: "other", files: []bundleEntry{{path: "Other.dll", data: []byte("x"), typ: BundleAssembly}}})
	if err := os.WriteFile(filepath.Join(dir, DaemonBinary), other, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Find(Options{Dir: dir, Getenv: noEnv, LookPath: noPath})
	if err == nil || !strings.Contains(err.Error(), "holds no "+AssemblyFile) || !strings.Contains(err.Error(), filepath.Join(dir, DaemonBinary)) {
		t.Fatalf("Find = %v; want an error saying the bundle holds no %s", err, AssemblyFile)
	}
	copyFile(t, fixtureDLL, filepath.Join(dir, AssemblyFile))
	in, err := Find(Options{Dir: dir, Getenv: noEnv, LookPath: noPath})
	if err != nil || in.Kind != KindAssembly {
		t.Fatalf("Find = %+v, %v; want the DLL beside the bundle", in, err)
	}
}

func TestBundleMarkerIsTheHostsMarker(t *testing.T) {
	// The marker is SHA-256 of ".net core bundle\n"; its first and last
	// bytes as the host's placeholder spells them.
	if len(bundleMarker) != 32 || bundleMarker[0] != 0x8b || bundleMarker[31] != 0xae {
		t.Fatalf("bundleMarker = %x", bundleMarker)
	}
}

func FuzzOpenBundle(f *testing.F) {
	dll := readFixture(f, fixtureDLL)
	f.Add(readFixture(f, fixtureBundle))
	f.Add(buildBundle(f, bundleSpec{major: 1, id: "v1", files: []bundleEntry{{path: AssemblyFile, data: dll[:64]}}}))
	f.Add(buildBundle(f, bundleSpec{major: 2, id: "v2", files: []bundleEntry{{path: "a", data: []byte("abc")}}}))
	f.Add(apphostStub(f))
	f.Add(buildBundle(f, bundleSpec{major: 6, id: "bomb", files: []bundleEntry{{path: AssemblyFile, stored: deflate(f, make([]byte, 1<<16)), data: make([]byte, 10)}}}))
	f.Add(buildBundle(f, bundleSpec{major: 6, id: "lie", files: []bundleEntry{{path: "a", data: []byte("abc"), declare: &[3]int64{1 << 40, 3, 0}}}}))
	f.Fuzz(func(t *testing.T, raw []byte) {
		b, err := openBytes(raw)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotBundle) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, f := range b.Files {
			got, err := b.ReadFile(f)
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("ReadFile(%q): untyped error %v", f.Path, err)
				}
				continue
			}
			if int64(len(got)) != f.Size {
				t.Fatalf("ReadFile(%q) = %d bytes, declared %d", f.Path, len(got), f.Size)
			}
		}
	})
}
