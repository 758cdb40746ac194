package report

import (
	"bytes"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

func TestGitHubEscaping(t *testing.T) {
	tests := []struct {
		name string
		d    lint.Diagnostic
		want string
	}{
		{
			name: "error with position",
			d:    lint.Diagnostic{Path: "/w/agents/a.md", Pos: lint.Pos{Line: 3, Column: 7}, Rule: "yaml", Severity: lint.Error, Message: "bad"},
			want: "::error file=agents/a.md,line=3,col=7,title=yaml::bad\n",
		},
		{
			name: "whole file warning",
			d:    lint.Diagnostic{Path: "/w/agents/a.md", Rule: "feed-modified", Severity: lint.Warning, Message: "changed"},
			want: "::warning file=agents/a.md,title=feed-modified::changed\n",
		},
		{
			name: "percent and newline in message, hint on a second line",
			d:    lint.Diagnostic{Path: "/w/a.md", Pos: lint.Pos{Line: 1, Column: 1}, Rule: "r", Severity: lint.Error, Message: "100% bad\r\n", Hint: "fix: it"},
			want: "::error file=a.md,line=1,col=1,title=r::100%25 bad\\r\\n%0Ahint: fix: it\n",
		},
		{
			name: "comma and colon in the path",
			d:    lint.Diagnostic{Path: "/w/a,b:c%.md", Pos: lint.Pos{Line: 2}, Rule: "r", Severity: lint.Error, Message: "m"},
			want: "::error file=a%2Cb%3Ac%25.md,line=2,title=r::m\n",
		},
		{
			name: "escape sequence in message",
			d:    lint.Diagnostic{Path: "/w/a.md", Rule: "r", Severity: lint.Warning, Message: "\x1b[2Jx"},
			want: "::warning file=a.md,title=r::\\x1b[2Jx\n",
		},
		{
			name: "severity off is not printed",
			d:    lint.Diagnostic{Path: "/w/a.md", Rule: "version", Severity: lint.Off, Message: "m"},
			want: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := &lint.Catalog{Files: []*lint.File{{Path: tt.d.Path, Diagnostics: []lint.Diagnostic{tt.d}}}}
			var b bytes.Buffer
			if err := GitHub(&b, c, Options{Dir: "/w"}); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got  %q\nwant %q", b.String(), tt.want)
			}
		})
	}
}
