package report

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// GitHub prints each diagnostic as a GitHub Actions workflow command, which
// the Actions runner turns into an annotation on the file and line:
//
//	::error file=agents/reviewer.md,line=4,col=1,title=unknown-field::unknown key "ModelRole"%0Ahint: did you mean 'modelRole'?
//
// Warnings use ::warning, infos (such as a feed folder the runtime does
// not read) ::notice. file, line and col are left out when unknown
// (line and col for a whole-file diagnostic, all three for the
// environment). Paths are relative to opts.Dir when that is shorter, which is
// what GitHub resolves them against when agentdesk runs at the checkout's
// root. Text taken from a file goes through Escape, then GitHub's own
// escaping: % as %25, CR as %0D, LF as %0A, and in properties also : as %3A
// and , as %2C. Diagnostics with severity off are not printed.
func GitHub(w io.Writer, c *lint.Catalog, opts Options) error {
	bw := bufio.NewWriter(w)
	for _, l := range flatten(entries(c), opts.dir()) {
		var cmd string
		switch l.Severity {
		case lint.Error:
			cmd = "error"
		case lint.Warning:
			cmd = "warning"
		case lint.Info:
			cmd = "notice"
		default:
			continue
		}
		var props []string
		if !isEnvironment(l.Path) {
			props = append(props, "file="+githubProperty(termsafe.Escape(l.display)))
			if l.Line > 0 {
				props = append(props, "line="+strconv.Itoa(l.Line))
				if l.Column > 0 {
					props = append(props, "col="+strconv.Itoa(l.Column))
				}
			}
		}
		props = append(props, "title="+githubProperty(termsafe.Escape(l.Rule)))
		msg := termsafe.Escape(l.Message)
		if l.Hint != "" {
			msg += "\nhint: " + termsafe.Escape(l.Hint)
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", cmd, strings.Join(props, ","), githubData(msg))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the GitHub annotations: %w", err)
	}
	return nil
}

var (
	githubDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	githubPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// githubData escapes a workflow command's message.
func githubData(s string) string { return githubDataEscaper.Replace(s) }

// githubProperty escapes a workflow command's property value.
func githubProperty(s string) string { return githubPropertyEscaper.Replace(s) }
