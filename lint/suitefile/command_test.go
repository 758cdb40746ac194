package suitefile

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

func TestParseCommand(t *testing.T) {
	tests := []struct {
		name, expect string
		argv         []string
		want         []string
	}{
		{"one value splits at spaces", "command: ./check.sh  8080 --strict", []string{"./check.sh", "8080", "--strict"}, nil},
		{"a list is word for word", "command: [./check.sh, 'two words']", []string{"./check.sh", "two words"}, nil},
		{"empty", "command: ''", nil, []string{"5:16 suite-value command is empty; give the check program to run, relative to the suite's folder (command: ./check.sh)"}},
		{"null", "command:", nil, []string{"5:15 suite-value command is empty"}},
		{"a mapping", "command: {run: x}", nil, []string{"5:16 suite-yaml command is a mapping; give a program and its arguments, or a list of them"}},
		{"a list of lists", "command: [[a]]", nil, []string{"5:17 suite-yaml command item is a list"}},
		{"misspelt", "comand: ./check.sh", nil, []string{`5:7 suite-unknown-key unknown key "comand" in the expect of case "a" (did you mean 'command'?)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Parse("x.test.yaml", []byte("cases:\n  - name: a\n    task: b\n    expect:\n      "+tt.expect+"\n"))
			got := diagLines(s.Diagnostics)
			if len(got) != len(tt.want) {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tt.want[i]) {
					t.Errorf("got %q, want %q", got[i], tt.want[i])
				}
			}
			if len(s.Cases) != 1 || !slices.Equal(s.Cases[0].Expect.Command, tt.argv) {
				t.Errorf("command %q, want %q", s.Cases[0].Expect.Command, tt.argv)
			}
		})
	}
}

func TestCheckCommand(t *testing.T) {
	home := t.TempDir()
	agents := filepath.Join(home, "agents")
	hometest.WriteFile(t, filepath.Join(agents, "code-analyst.md"), "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n")
	hometest.WriteFile(t, filepath.Join(agents, "checks", "ok.sh"), "#!/bin/sh\nexit 0\n")
	if err := os.Chmod(filepath.Join(agents, "checks", "ok.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.WriteFile(t, filepath.Join(agents, "checks", "plain.sh"), "#!/bin/sh\nexit 0\n")
	c, err := lint.Scan(lint.NewHome(home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := `cases:
  - name: fine
    task: b
    expect:
      command: ./checks/ok.sh --strict
  - name: on PATH
    task: b
    expect:
      command: [sh, -c, 'exit 0']
  - name: missing
    task: b
    expect:
      command: ./checks/gone.sh
  - name: not executable
    task: b
    expect:
      command: [./checks/plain.sh]
  - name: a folder
    task: b
    expect: {command: ./checks}
  - name: not on PATH
    task: b
    expect:
      command: agentdesk-no-such-check
`
	s := Parse(filepath.Join(agents, "code-analyst.test.yaml"), []byte(src))
	Check(s, c)
	want := []string{
		"13:16 suite-command check program ./checks/gone.sh is not there (paths are relative to the suite's folder)",
		"17:16 suite-command check program ./checks/plain.sh is not executable (chmod +x ./checks/plain.sh (a script starts with a #! line, such as #!/bin/sh))",
		"20:23 suite-command check program ./checks is a folder, not a program (name the program inside it)",
		"24:16 suite-command check program agentdesk-no-such-check is not found on PATH (install it, or give a path: ./agentdesk-no-such-check runs the file beside the suite)",
	}
	if got := diagLines(s.Diagnostics); !slices.Equal(got, want) {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i, cs := range s.Cases {
		if bad := len(cs.Problems) > 0; bad != (i >= 2) {
			t.Errorf("case %q problems: %v", cs.Name, diagLines(cs.Problems))
		}
	}
}

// TestCheckTemplateFindingOnce: a template's check program, project or
// context-file that is wrong is one finding at the template's line, not one
// per row (10,000 rows made 10,000 identical errors), while every row's
// case still carries it as its problem.
func TestCheckTemplateFindingOnce(t *testing.T) {
	home := t.TempDir()
	agents := filepath.Join(home, "agents")
	hometest.WriteFile(t, filepath.Join(agents, "code-analyst.md"), "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n")
	c, err := lint.Scan(lint.NewHome(home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	src := `template:
  task: port {{port}}
  project: ../gone
  expect:
    command: ./checks/gone.sh {{port}}
vars:
  - {port: 1}
  - {port: 2}
  - {port: 3}
`
	s := Parse(filepath.Join(agents, "code-analyst.test.yaml"), []byte(src))
	Check(s, c)
	want := []string{
		"3:12 suite-file project ../gone is not a folder (paths are relative to the suite)",
		"5:14 suite-command check program ./checks/gone.sh is not there (paths are relative to the suite's folder)",
	}
	if got := diagLines(s.Diagnostics); !slices.Equal(got, want) {
		t.Fatalf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, cs := range s.Cases {
		if len(cs.Problems) != 2 {
			t.Errorf("case %q problems: %v", cs.Name, diagLines(cs.Problems))
		}
	}
}

// TestCheckRouteTemplateFindingOnce: a routing template that expects an
// agent that is not loaded is one finding, whatever the number of rows.
func TestCheckRouteTemplateFindingOnce(t *testing.T) {
	home := t.TempDir()
	agents := filepath.Join(home, "agents")
	hometest.WriteFile(t, filepath.Join(agents, "code-analyst.md"), "---\nname: code-analyst\ndescription: Reads code.\n---\nYou read code.\n")
	c, err := lint.Scan(lint.NewHome(home, ""), lint.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := ParseRoute(filepath.Join(agents, "front.route.yaml"), []byte("template: {request: '{{q}}', expect: code-anlyst}\nvars: [{q: a}, {q: b}, {q: c}]\n"))
	CheckRoute(s, c)
	if got := diagLines(s.Diagnostics); len(got) != 1 || !strings.HasPrefix(got[0], `1:38 suite-agent agent "code-anlyst" is not loaded`) {
		t.Errorf("got %q", got)
	}
	for _, cs := range s.Cases {
		if len(cs.Problems) != 1 {
			t.Errorf("case %q problems: %v", cs.Name, diagLines(cs.Problems))
		}
	}
}
