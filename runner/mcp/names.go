package mcp

import (
	"fmt"
	"strconv"
)

// Separator joins a server's name and its tool's name in the model-facing
// name (NetClaw pull request #1134: the canonical name is server/tool, the
// name sent to the model is server__tool).
const Separator = "__"

// ModelName returns the name the model calls a server's tool by:
// server__tool, both halves as written. The runtime changes nothing else:
// a name with characters a provider refuses, or too long for it, is sent
// as it is (NameProblem says why a provider would refuse it).
func ModelName(server, tool string) string { return server + Separator + tool }

// CanonicalName returns the runtime's own name of a server's tool,
// server/tool: the one its error texts quote.
func CanonicalName(server, tool string) string { return server + "/" + tool }

// Provider limits on a tool's name: OpenAI accepts ^[a-zA-Z0-9_-]{1,64}$,
// Anthropic the same characters up to 128.
const (
	MaxNameOpenAI    = 64
	MaxNameAnthropic = 128
)

// NameProblem says why a model provider would refuse the model-facing
// name, or "" when both OpenAI's and Anthropic's rules accept it.
func NameProblem(name string) string {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Sprintf("it holds %s: OpenAI and Anthropic accept only letters, digits, '_' and '-' in a tool name", strconv.QuoteRune(r))
		}
	}
	switch {
	case len(name) > MaxNameAnthropic:
		return fmt.Sprintf("it is %d characters: Anthropic accepts at most %d, OpenAI %d", len(name), MaxNameAnthropic, MaxNameOpenAI)
	case len(name) > MaxNameOpenAI:
		return fmt.Sprintf("it is %d characters: OpenAI accepts at most %d", len(name), MaxNameOpenAI)
	}
	return ""
}
