package main

import (
	"fmt"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

// warn prints "subject: warning: message" on stderr, with subject and
// message escaped, and "warning" in bold yellow (as lint prints it) when
// stderr is coloured: --color always, or a terminal under auto.
func (g *globals) warn(subject, message string) {
	word := "warning"
	if g.Color(g.stderr) {
		word = styleYellow + word + styleReset
	}
	fmt.Fprintf(g.stderr, "%s: %s: %s\n", termsafe.Escape(subject), word, termsafe.Escape(message))
}
