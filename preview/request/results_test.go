package request

import (
	"fmt"
	"strings"
	"testing"
)

func TestResultTexts(t *testing.T) {
	many := make([]string, MaxListEntries+1)
	for i := range many {
		many[i] = fmt.Sprintf("f%04d", i)
	}
	for _, tc := range []struct{ got, want string }{
		{NumberedLine(7, "package main"), "     7\tpackage main"},
		{NumberedLine(1234567, ""), "1234567\t"},
		{FileReadRangeCut(40), "\n[output truncated at line 40 — use StartLine=40 with Limit to continue reading]"},
		{FileReadHeadCut(50000), "\n[output truncated at 50000 chars — read a specific range with StartLine and Limit, or grep the file, for the rest]"},
		{FileListing("/p", []string{"src", "Docs"}, []string{"b.go", "A.md"}),
			"Directory listing for /p (4 entries):\n[dir]  Docs/\n[dir]  src/\n[file] A.md\n[file] b.go"},
		{FileListing("/p", nil, []string{"x"}), "Directory listing for /p (1 entry):\n[file] x"},
		{FileListing("/p", nil, nil), "Directory is empty: /p"},
		{ShellResult(0, "out", ""), "Exit code: 0\nout"},
		{ShellResult(2, "", "err"), "Exit code: 2\nerr"},
		{ShellResult(1, "out", "err"), "Exit code: 1\nout\nerr"},
		{ShellTimedOut(60), "Error: Command timed out after 60 seconds."},
		{Wrote(12, "/p/a"), "Successfully wrote 12 bytes to /p/a"},
		{Edited("/p/a", 2), "Successfully edited /p/a: replaced 2 occurrence(s)"},
		{EditAmbiguous("/p/a", 3), "Error: OldString matches 3 locations in /p/a. Provide more surrounding context to create a unique match, or set ReplaceAll=true."},
		{PathRequired("file_read"), "Error: 'path' parameter is required."},
		{PathRequired("file_edit"), "Error: 'Path' parameter is required."},
		{NotText("/p/x.png", "image/png", "Image", "1.0 KiB", "g"), "File is not readable as plain text.\nPath: /p/x.png\nType: image/png (Image)\nSize: 1.0 KiB\ng"},
		{WebSearchResults("q", nil), "No results found for: q"},
		{WebSearchResults("q", []SearchResult{{"T", "https://x", "s"}, {"U", "https://y", ""}}),
			"Search results for: q\n\n1. T\n   URL: https://x\n   s\n\n2. U\n   URL: https://y"},
	} {
		if tc.got != tc.want {
			t.Errorf("got  %q\nwant %q", tc.got, tc.want)
		}
	}
	long := FileListing("/p", nil, many)
	if !strings.HasSuffix(long, "\n[file] f0999\n[listing truncated — showing 1000 of 1001 entries]") {
		t.Errorf("a long listing ends %q", long[len(long)-80:])
	}
}
