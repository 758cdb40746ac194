package netclaw

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestParseAssemblyFixture(t *testing.T) {
	a, err := ParseAssembly(readFixture(t, fixtureDLL))
	if err != nil {
		t.Fatal(err)
	}
	if a.Name != "Netclaw.Configuration" || a.Version != fixtureAssemblyVer || a.InformationalVersion != fixtureVersion {
		t.Fatalf("identity = %q %q %q", a.Name, a.Version, a.InformationalVersion)
	}
	for _, r := range []struct{ name, file string }{{ResourceAgents, "AGENTS.md"}, {ResourceAgentsPublic, "AGENTS.public.md"}} {
		got, ok := a.resource(r.name)
		if want := readFixture(t, filepath.Join(fixtureDir, "src", r.file)); !ok || !bytes.Equal(got, want) {
			t.Errorf("resource %s = %q, want the bytes of src/%s", r.name, got, r.file)
		}
	}
}

// offsetIn returns where sub starts inside img (sub must be a subslice).
func offsetIn(img, sub []byte) int { return cap(img) - cap(sub) }

// layout locates the structures of the fixture DLL, for the tests that
// damage one of them.
type layout struct {
	img                      []byte
	peOff, cliDir, cliHeader int
	metaRoot, tables         int
	resRow, resDir           int
	strings                  int
}

func fixtureLayout(t *testing.T) layout {
	t.Helper()
	img := readFixture(t, fixtureDLL)
	p := peImage{b: img}
	c, err := p.cliHeader()
	if err != nil {
		t.Fatal(err)
	}
	l := layout{img: img, peOff: int(binary.LittleEndian.Uint32(img[0x3c:]))}
	l.cliDir = l.peOff + 24 + 96 + 14*8 // PE32, as mcs writes
	cli, _ := p.at(binary.LittleEndian.Uint32(img[l.cliDir:]), 72, "cli")
	l.cliHeader = offsetIn(img, cli)
	md, err := p.metadata(c)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := p.at(c.metaRVA, c.metaSize, "md")
	l.metaRoot = offsetIn(img, root)
	l.tables = offsetIn(img, md.tables)
	l.strings = offsetIn(img, md.strings)
	tabs, err := parseTables(md.tables)
	if err != nil {
		t.Fatal(err)
	}
	l.resRow = offsetIn(img, tabs.data[tabManifestResource])
	res, _ := p.at(c.resRVA, c.resSize, "res")
	l.resDir = offsetIn(img, res)
	return l
}

// buildAssemblyWithout returns the fixture DLL with one resource renamed
// (so it is missing) and a few bytes appended (so its size differs).
func buildAssemblyWithout(t *testing.T, name string) []byte {
	t.Helper()
	img := readFixture(t, fixtureDLL)
	mangled := strings.Replace(name, "AGENTS", "AGENTX", 1)
	out := bytes.Replace(img, []byte(name+"\x00"), []byte(mangled+"\x00"), 1)
	if bytes.Equal(out, img) {
		t.Fatalf("%s not found in the fixture's #Strings", name)
	}
	return append(out, make([]byte, 16)...)
}

func TestAssemblyBadInput(t *testing.T) {
	l := fixtureLayout(t)
	edit := func(f func(b []byte) []byte) []byte {
		b := append([]byte(nil), l.img...)
		return f(b)
	}
	put32 := func(off int, v uint32) []byte {
		return edit(func(b []byte) []byte { binary.LittleEndian.PutUint32(b[off:], v); return b })
	}
	tests := []struct {
		name string
		img  []byte
		is   error
		want string
	}{
		{"empty file", nil, ErrNotDotNet, "no MZ header"},
		{"a text file", readFixture(t, filepath.Join(fixtureDir, "src", "AGENTS.md")), ErrNotDotNet, "no MZ header"},
		{"MZ without PE", append([]byte("MZ"), make([]byte, 100)...), ErrNotDotNet, "no PE header"},
		{"truncated in the PE header", l.img[:l.peOff+10], ErrNotDotNet, "no PE header"},
		{"truncated in the section table", l.img[:l.peOff+24+224+10], ErrCorrupt, "section table"},
		{"truncated before the metadata", l.img[:l.metaRoot+8], ErrCorrupt, "metadata"},
		{"truncated in the tables", l.img[:l.tables+30], ErrCorrupt, ""},
		{"native PE: no CLI header", put32(l.cliDir, 0), ErrNotDotNet, "no CLI header"},
		{"CLI header in no section", put32(l.cliDir, 0x7fff0000), ErrCorrupt, "in no section"},
		{"metadata signature damaged", put32(l.metaRoot, 0xdeadbeef), ErrCorrupt, "BSJB"},
		{"metadata size beyond its section", put32(l.cliHeader+12, 0x00ffffff), ErrCorrupt, "metadata"},
		{"resources directory beyond its section", put32(l.cliHeader+28, 0x00ffffff), ErrCorrupt, "resources directory"},
		{"resource offset outside the resources", put32(l.resRow, 0x00ffff00), ErrCorrupt, "starts outside the resources directory"},
		{"resource length lying", put32(l.resDir, 0x7fffffff), ErrCorrupt, "runs past the resources directory"},
		{"row count lying", put32(l.tables+24, 0x00ffffff), ErrCorrupt, "runs past the table stream"},
		{"unterminated strings heap", edit(func(b []byte) []byte {
			// Overwrite everything from the start of #Strings with non-NUL bytes.
			for i := l.strings; i < len(b); i++ {
				b[i] = 'x'
			}
			return b
		}), ErrCorrupt, ""},
	}
	dir := t.TempDir()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseAssembly(tc.img)
			if err == nil || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ParseAssembly = %v; want %v containing %q", err, tc.is, tc.want)
			}
			// Through the install reader, the message names the file.
			p := filepath.Join(dir, string(rune('a'+i)), AssemblyFile)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, tc.img, 0o644); err != nil {
				t.Fatal(err)
			}
			_, err = Open(p)
			if err == nil || !errors.Is(err, tc.is) || !strings.Contains(err.Error(), p) {
				t.Fatalf("Open = %v; want %v naming %s", err, tc.is, p)
			}
		})
	}
}

// TestAssemblyEveryTruncation cuts the fixture at every length: each read
// either succeeds (only padding was cut) or fails with a typed error.
func TestAssemblyEveryTruncation(t *testing.T) {
	img := readFixture(t, fixtureDLL)
	for n := 0; n < len(img); n++ {
		a, err := ParseAssembly(img[:n])
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotDotNet) {
				t.Fatalf("cut at %d: untyped error %v", n, err)
			}
			continue
		}
		if len(a.resources) != 2 {
			t.Fatalf("cut at %d: parsed with %d resources", n, len(a.resources))
		}
	}
}

func TestDecodeText(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"plain UTF-8", []byte("héllo"), "héllo"},
		{"UTF-8 BOM dropped", []byte("\xef\xbb\xbfhi"), "hi"},
		{"UTF-16 LE", []byte{0xff, 0xfe, 'h', 0, 'i', 0}, "hi"},
		{"UTF-16 BE", []byte{0xfe, 0xff, 0, 'h', 0, 'i'}, "hi"},
		{"UTF-32 LE", []byte{0xff, 0xfe, 0, 0, 'h', 0, 0, 0}, "h"},
		{"UTF-32 BE", []byte{0, 0, 0xfe, 0xff, 0, 0, 0, 'h'}, "h"},
		{"invalid UTF-8 replaced", []byte("a\xffb"), "a\uFFFDb"},
		{"odd UTF-16 tail", []byte{0xff, 0xfe, 'h', 0, 'i'}, "h\uFFFD"},
	}
	for _, tc := range tests {
		if got := decodeText(tc.in); got != tc.want {
			t.Errorf("%s: decodeText = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func FuzzParseAssembly(f *testing.F) {
	img := readFixture(f, fixtureDLL)
	f.Add(img)
	f.Add(img[:len(img)/2])
	f.Add([]byte("MZ"))
	f.Fuzz(func(t *testing.T, b []byte) {
		a, err := ParseAssembly(b)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotDotNet) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		for _, r := range a.resources {
			if offsetIn(b, r.data) < 0 || offsetIn(b, r.data)+len(r.data) > len(b) {
				t.Fatalf("resource %q outside the image", r.name)
			}
		}
	})
}
