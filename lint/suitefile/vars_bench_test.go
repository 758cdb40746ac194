package suitefile

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkReadVars reads vars-files of 10,000 rows (the cap), as CSV and
// as JSON Lines.
//
//	go test -run '^$' -bench BenchmarkReadVars ./lint/suite/
func BenchmarkReadVars(b *testing.B) {
	var csv, jsonl strings.Builder
	csv.WriteString("port,file,word\n")
	for i := range MaxVarRows {
		fmt.Fprintf(&csv, "%d,file%d.go,\"word, %d\"\n", i, i, i)
		fmt.Fprintf(&jsonl, `{"port": %d, "file": "file%d.go", "word": "word, %d"}`+"\n", i, i, i)
	}
	for _, f := range []struct{ name, data string }{{"rows.csv", csv.String()}, {"rows.jsonl", jsonl.String()}} {
		b.Run(f.name, func(b *testing.B) {
			b.SetBytes(int64(len(f.data)))
			for b.Loop() {
				if rows, ds := ReadVars(f.name, []byte(f.data)); len(rows) != MaxVarRows || len(ds) > 0 {
					b.Fatal(len(rows), ds)
				}
			}
		})
	}
}

// BenchmarkParseTemplate parses a suite whose template is filled by 1,000
// inline rows.
//
//	go test -run '^$' -bench BenchmarkParseTemplate ./lint/suite/
func BenchmarkParseTemplate(b *testing.B) {
	var src strings.Builder
	src.WriteString("template:\n  task: Which port does {{file}} use?\n  expect:\n    contains: \"{{port}}\"\nvars:\n")
	for i := range 1000 {
		fmt.Fprintf(&src, "  - {port: %d, file: f%d.go}\n", i, i)
	}
	data := []byte(src.String())
	for b.Loop() {
		if s := Parse("a.test.yaml", data); len(s.Cases) != 1000 {
			b.Fatal(len(s.Cases), s.Diagnostics)
		}
	}
}
