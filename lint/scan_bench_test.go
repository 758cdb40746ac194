package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// benchHomeMade is set once benchHome has run.
var benchHomeMade bool

// benchHome is a generated home of 10,000 definitions of about 2 KB each,
// made once per test binary.
var benchHome = sync.OnceValues(func() (string, error) {
	benchHomeMade = true
	dir, err := os.MkdirTemp("", "agentdesk-bench-home-")
	if err != nil {
		return "", err
	}
	agents := filepath.Join(dir, "agents")
	if err := os.MkdirAll(agents, 0o755); err != nil {
		return "", err
	}
	para := strings.Repeat("Read the files you need, quote paths and lines, and keep the answer short. ", 25)
	for i := range 10000 {
		text := fmt.Sprintf("---\nname: agent-%05d\ndescription: Generated agent number %d for the scan benchmark.\ntools: [file_read, web_fetch]\nmodelRole: Compaction\nvisibility: user-facing\n---\n\nYou are agent %d.\n\n## Guidelines\n\n%s\n", i, i, i, para)
		if err := os.WriteFile(filepath.Join(agents, fmt.Sprintf("agent-%05d.md", i)), []byte(text), 0o644); err != nil {
			return "", err
		}
	}
	return dir, nil
})

func benchScanner(b *testing.B) (*Scanner, string) {
	dir, err := benchHome()
	if err != nil {
		b.Fatal(err)
	}
	return NewScanner(NewHome(dir, ""), ScanOptions{Environ: []string{}}), dir
}

// BenchmarkScanFull scans 10,000 definitions from scratch.
func BenchmarkScanFull(b *testing.B) {
	_, dir := benchScanner(b)
	b.ResetTimer()
	for b.Loop() {
		c, err := Scan(NewHome(dir, ""), ScanOptions{Environ: []string{}})
		if err != nil || len(c.Files) != 10000 {
			b.Fatal(err, len(c.Files))
		}
	}
}

// BenchmarkReadOnly reads the same 10,000 files and does nothing else: the
// floor a scan is measured against.
func BenchmarkReadOnly(b *testing.B) {
	_, dir := benchScanner(b)
	agents := filepath.Join(dir, "agents")
	b.ResetTimer()
	for b.Loop() {
		ents, err := os.ReadDir(agents)
		if err != nil {
			b.Fatal(err)
		}
		for _, e := range ents {
			if _, err := os.ReadFile(filepath.Join(agents, e.Name())); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRescanOneChange rescans after one file changed.
func BenchmarkRescanOneChange(b *testing.B) {
	s, dir := benchScanner(b)
	if _, err := s.Scan(); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "agents", "agent-05000.md")
	orig, _ := os.ReadFile(path)
	defer os.WriteFile(path, orig, 0o644)
	i := 0
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		i++
		touch(b, path, string(orig)+strings.Repeat("\n", i%7+1))
		b.StartTimer()
		c, err := s.Scan()
		if err != nil || len(c.Files) != 10000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkParse parses one 2 KB definition.
func BenchmarkParse(b *testing.B) {
	dir, err := benchHome()
	if err != nil {
		b.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "agents", "agent-00001.md"))
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		Parse("a.md", data, Runtime)
	}
}

// TestMain removes the generated benchmark home, if a benchmark made one.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchHomeMade {
		if dir, err := benchHome(); err == nil {
			os.RemoveAll(dir)
		}
	}
	os.Exit(code)
}

// BenchmarkRescanHinted rescans after one change that a watcher reported:
// only that file is stat-ed.
func BenchmarkRescanHinted(b *testing.B) {
	s, dir := benchScanner(b)
	if _, err := s.Scan(); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "agents", "agent-05000.md")
	orig, _ := os.ReadFile(path)
	defer os.WriteFile(path, orig, 0o644)
	i := 0
	for b.Loop() {
		b.StopTimer()
		i++
		touch(b, path, string(orig)+strings.Repeat("\n", i%7+1))
		b.StartTimer()
		c, err := s.Rescan([]string{path})
		if err != nil || len(c.Files) != 10000 {
			b.Fatal(err)
		}
	}
}
