package trialtools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// benchProject is a project folder holding big.txt (lines lines of 80
// bytes) and, when files > 0, big/ with that many files in one folder and
// tree/ with that many files spread over 100 folders.
func benchProject(b *testing.B, lines, files int) *Toolbox {
	b.Helper()
	root := b.TempDir()
	if lines > 0 {
		out, err := os.Create(filepath.Join(root, "big.txt"))
		if err != nil {
			b.Fatal(err)
		}
		w := bufio.NewWriter(out)
		for i := range lines {
			fmt.Fprintf(w, "%08d %s\n", i+1, strings.Repeat("lorem ipsum ", 6)[:70])
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
		out.Close()
	}
	for i := range files {
		writeFile(b, filepath.Join(root, "big", fmt.Sprintf("file-%06d.md", i)), "")
		writeFile(b, filepath.Join(root, "tree", fmt.Sprintf("d%02d", i%100), fmt.Sprintf("f-%06d.%s", i, []string{"md", "go"}[i%2])), "")
	}
	tb, err := New(root)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { tb.Close() })
	return tb
}

// benchCall runs one call per iteration and fails on an error result.
func benchCall(b *testing.B, tb *Toolbox, name, args string) {
	b.Helper()
	ctx := context.Background()
	raw := json.RawMessage(args)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if r := tb.Call(ctx, name, raw); r.IsError {
			b.Fatal(r.Text)
		}
	}
}

// 400,000 lines of 80 bytes: a 32 MB file.
const benchLines = 400_000

func BenchmarkFileReadLargeHead(b *testing.B) {
	tb := benchProject(b, benchLines, 0)
	b.SetBytes(MaxReadBytes)
	benchCall(b, tb, FileRead, `{"path":"big.txt"}`)
}

func BenchmarkFileReadLargeTail(b *testing.B) {
	tb := benchProject(b, benchLines, 0)
	b.SetBytes(benchLines * 80)
	benchCall(b, tb, FileRead, fmt.Sprintf(`{"path":"big.txt","start_line":%d}`, benchLines-100))
}

func BenchmarkFileReadSmall(b *testing.B) {
	tb := benchProject(b, 200, 0)
	benchCall(b, tb, FileRead, `{"path":"big.txt"}`)
}

func BenchmarkFileListBigFolder(b *testing.B) {
	tb := benchProject(b, 0, 10_000)
	benchCall(b, tb, FileList, `{"path":"big"}`)
}

func BenchmarkFileListBigFolderGlob(b *testing.B) {
	tb := benchProject(b, 0, 10_000)
	benchCall(b, tb, FileList, `{"path":"big","glob":"file-0099*"}`)
}

func BenchmarkFileListTreeGlob(b *testing.B) {
	tb := benchProject(b, 0, 10_000)
	benchCall(b, tb, FileList, `{"path":"tree","glob":"**/*.go"}`)
}

func BenchmarkGuardCheckRecord(b *testing.B) {
	g := NewGuard()
	args := make([]json.RawMessage, 64)
	for i := range args {
		args[i] = json.RawMessage(fmt.Sprintf(`{"path":"docs/file-%d.md", "start_line": %d, "end_line": 200}`, i, i))
	}
	result := strings.Repeat("a result line\n", 2000)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		a := args[i%len(args)]
		i++
		if g.Check(FileRead, a).Action == Allow {
			g.Record(FileRead, a, result)
		}
	}
}
