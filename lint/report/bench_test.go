package report

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// bigCatalog is 10,000 agent files of about 2 KB, every other one with two
// diagnostics, the size of the scan benchmark lint uses.
func bigCatalog() *lint.Catalog {
	body := strings.Repeat("You review pull requests and say what is wrong, line by line.\n", 30)
	c := &lint.Catalog{Config: &lint.Config{}}
	for i := range 10000 {
		path := fmt.Sprintf("/home/u/.netclaw/agents/agent-%05d.md", i)
		text := fmt.Sprintf("---\nname: agent-%05d\ndescription: Agent number %d.\nModelRole: Main\n---\n%s", i, i, body)
		f := &lint.File{Path: path, Def: &lint.Definition{Name: fmt.Sprintf("agent-%05d", i)}, Text: text}
		if i%2 == 0 {
			f.Diagnostics = []lint.Diagnostic{
				{Path: path, Pos: lint.Pos{Line: 4, Column: 1}, Rule: lint.RuleUnknownField, Severity: lint.Warning,
					Message: `unknown key "ModelRole": the runtime ignores it`, Hint: "did you mean 'modelRole'?"},
				{Path: path, Pos: lint.Pos{Line: 3, Column: 14}, Rule: lint.RuleDescriptionLong, Severity: lint.Warning,
					Message: "description over 1024 characters"},
			}
		}
		c.Files = append(c.Files, f)
	}
	return c
}

func BenchmarkFormats(b *testing.B) {
	c := bigCatalog()
	opts := Options{Dir: "/home/u/proj"}
	for _, f := range []struct {
		name  string
		write func(io.Writer, *lint.Catalog, Options) error
	}{{"text", Text}, {"json", JSON}, {"sarif", SARIF}, {"github", GitHub}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				if err := f.write(io.Discard, c, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
