package suite

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
)

// A suite's findings are annotated as lint annotates them: a warning is
// ::warning, and the column is given.
func TestGitHubFindingsKeepSeverityAndColumn(t *testing.T) {
	s := &suitefile.Suite{Path: "agents/a.test.yaml", Agent: "a"}
	rs := []*SuiteResult{{Suite: s, Findings: []lint.Diagnostic{
		{Path: s.Path, Pos: lint.Pos{Line: 1, Column: 8}, Rule: suitefile.RuleAgentName, Severity: lint.Warning, Message: "the file name says a, agent: says b", Hint: "rename"},
		{Path: s.Path, Pos: lint.Pos{Line: 3, Column: 5}, Rule: suitefile.RuleValue, Severity: lint.Error, Message: "repeat is 0"},
	}}}
	var b strings.Builder
	if err := GitHub(&b, rs, ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"::warning file=agents/a.test.yaml,line=1,col=8,title=suite-agent-name::the file name says a, agent: says b%0Ahint: rename\n",
		"::error file=agents/a.test.yaml,line=3,col=5,title=suite-value::repeat is 0\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("annotations lack %q:\n%s", want, b.String())
		}
	}
}
