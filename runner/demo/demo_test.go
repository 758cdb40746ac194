package demo

import (
	"io/fs"
	"strings"
	"testing"
)

func TestCassettes(t *testing.T) {
	names := Names()
	if strings.Join(names, ",") != CompletedToolCall+","+OutputTruncated+","+ThinkingOnly {
		t.Fatalf("names %v", names)
	}
	for _, n := range names {
		c, err := Load(n)
		if err != nil {
			t.Fatal(err)
		}
		if c.Header.Agent == "" || c.Header.Task == "" || len(c.Calls) == 0 || c.Header.RunID == "" {
			t.Errorf("%s: header %+v, %d calls", n, c.Header, len(c.Calls))
		}
		if _, err := fs.Stat(Cassettes(), n); err != nil {
			t.Error(err)
		}
	}
	if c, _ := Load(CompletedToolCall); len(c.Header.Tools) == 0 || len(c.Calls) != 2 || len(c.Calls[0].Tools) != 1 {
		t.Errorf("the tool-call demo has tools %v and %d calls", c.Header.Tools, len(c.Calls))
	}
	if _, err := Load("nope.cassette"); err == nil || !strings.Contains(err.Error(), "no demo cassette nope.cassette") {
		t.Errorf("unknown name: %v", err)
	}
}
