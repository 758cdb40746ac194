package suitefile

import (
	"strings"
	"testing"
)

func TestMocksAndChanges(t *testing.T) {
	src := `mocks:
  - {tool: web_search, result: "no results"}
cases:
  - name: fetches
    task: summarise the page
    project: proj
    mocks:
      - tool: web_fetch
        args: {Url: "https://example.test/*"}
        result: "<html>ok</html>"
      - {tool: web_fetch, args: {Url: "https://down.test/*"}, error: "Error: refused"}
    expect:
      tools: [web_fetch]
      changes:
        - {path: notes/summary.md, contains: "Summary"}
        - {path: src/, unchanged: true}
`
	s := Parse("a.test.yaml", []byte(src))
	if len(s.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", diagLines(s.Diagnostics))
	}
	c := s.Cases[0]
	if len(c.Mocks) != 3 || c.Mocks[0].Tool != "web_fetch" || c.Mocks[0].Result != "<html>ok</html>" || c.Mocks[0].Args["Url"] != "https://example.test/*" ||
		!c.Mocks[1].IsError || c.Mocks[1].Error != "Error: refused" || c.Mocks[2].Tool != "web_search" {
		t.Errorf("mocks %+v", c.Mocks)
	}
	ch := c.Expect.Changes
	if len(ch) != 2 || ch[0].Path != "notes/summary.md" || ch[0].Contains != "Summary" || ch[1].Path != "src/" || !ch[1].Unchanged || ch[0].Pos.Line != 15 {
		t.Errorf("changes %+v", ch)
	}
}

func TestMocksAndChangesFindings(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"mock without tool", "cases:\n  - name: a\n    task: b\n    mocks:\n      - {result: x}\n", []string{"5:9 suite-mock a mocks item has no tool"}},
		{"mock with both", "cases:\n  - name: a\n    task: b\n    mocks:\n      - {tool: t, result: x, error: y}\n", []string{"5:9 suite-mock the mock of t gives both result and error"}},
		{"mock with neither", "cases:\n  - name: a\n    task: b\n    mocks:\n      - {tool: t}\n", []string{"5:9 suite-mock the mock of t gives neither result nor error"}},
		{"mock args not a mapping", "cases:\n  - name: a\n    task: b\n    mocks:\n      - {tool: t, args: [1], result: x}\n", []string{"5:25 suite-mock args is a list"}},
		{"mocks not a list", "mocks: x\ncases:\n  - name: a\n    task: b\n", []string{"1:8 suite-mock mocks is a single value"}},
		{"mock unknown key", "cases:\n  - name: a\n    task: b\n    mocks:\n      - {tool: t, reslt: x}\n", []string{"5:9 suite-mock the mock of t gives neither result nor error", `5:19 suite-unknown-key unknown key "reslt" in a mocks item (did you mean 'result'?)`}},
		{"change escapes", "cases:\n  - name: a\n    task: b\n    project: p\n    expect:\n      changes:\n        - {path: ../x, unchanged: true}\n", []string{`7:11 suite-change path "../x" is not inside the project`}},
		{"change both", "cases:\n  - name: a\n    task: b\n    project: p\n    expect:\n      changes:\n        - {path: x, contains: y, unchanged: true}\n", []string{"7:11 suite-change the changes item of x gives both or neither"}},
		{"change no path", "cases:\n  - name: a\n    task: b\n    project: p\n    expect:\n      changes:\n        - {contains: y}\n", []string{"7:11 suite-change a changes item has no path"}},
		{"changes without project", "cases:\n  - name: a\n    task: b\n    expect:\n      changes:\n        - {path: x, contains: y}\n", []string{`6:9 suite-change case "a" expects changes but has no project`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := diagLines(Parse("x.test.yaml", []byte(tt.src)).Diagnostics)
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for i, w := range tt.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("got %q, want it to start %q", got[i], w)
				}
			}
			for _, d := range Parse("x.test.yaml", []byte(tt.src)).Diagnostics {
				if !ruleIDs[d.Rule] {
					t.Errorf("rule %s is not in Rules", d.Rule)
				}
			}
		})
	}
}
