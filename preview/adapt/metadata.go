package adapt

import (
	"strconv"
	"strings"
)

// valueKind is the type a target gives one of its scalar keys.
type valueKind int

const (
	kindString valueKind = iota
	kindInt
	kindNumber
	kindBool
)

// String names the kind for messages.
func (k valueKind) String() string {
	switch k {
	case kindInt:
		return "a whole number"
	case kindNumber:
		return "a number"
	case kindBool:
		return "true or false"
	}
	return "a string"
}

// valid checks text, kept under metadata as a string, against the kind and
// returns the text to write back. Numbers and booleans are written as they
// were read, so the value survives the round trip exactly.
func (k valueKind) valid(text string) (string, bool) {
	switch k {
	case kindInt:
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return "", false
		}
	case kindNumber:
		if _, err := strconv.ParseFloat(text, 64); err != nil || strings.ContainsAny(text, "_xXpP") || !digitAt(text) {
			return "", false
		}
	case kindBool:
		if text != "true" && text != "false" {
			return "", false
		}
	}
	return text, true
}

// digitAt reports whether a number's text starts (after a sign) and ends
// with a digit, which every YAML and TOML reader takes as a number.
func digitAt(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && s[0] >= '0' && s[0] <= '9' && s[len(s)-1] >= '0' && s[len(s)-1] <= '9'
}

// metaKey is one scalar key of a target that NetClaw has no key for and
// that import keeps under metadata as "<target>.<key>".
type metaKey struct {
	key  string
	kind valueKind
}

// restored is a metadata entry written back as a target key.
type restored struct {
	key  string
	kind valueKind
	text string
}

// findMetaKey finds key among keys. With ns set, key is a metadata key and
// must read "<ns>.<key>".
func findMetaKey(keys []metaKey, ns, key string) (metaKey, bool) {
	if ns != "" {
		rest, ok := strings.CutPrefix(key, ns+".")
		if !ok {
			return metaKey{}, false
		}
		key = rest
	}
	for _, mk := range keys {
		if mk.key == key {
			return mk, true
		}
	}
	return metaKey{}, false
}

// The scalar keys each importable target has and NetClaw does not, as the
// versions named in the tool tables document them (Claude Code 2.1.328,
// OpenCode 1.18.33, Gemini CLI 0.61.0, Codex 0.169.0). Gemini CLI refuses
// a file with a key its schema does not have, so its list holds only keys
// of that schema. OpenCode's mode is kept only when it is not subagent.
var (
	claudeCodeKeys = []metaKey{{"model", kindString}, {"color", kindString}, {"permissionMode", kindString},
		{"maxTurns", kindInt}, {"memory", kindString}, {"background", kindBool}, {"isolation", kindString}, {"effort", kindString},
		{"initialPrompt", kindString}, {"omitClaudeMd", kindBool}, {"autoCompactWindow", kindInt}}
	openCodeKeys = []metaKey{{"model", kindString}, {"variant", kindString}, {"temperature", kindNumber}, {"top_p", kindNumber},
		{"steps", kindInt}, {"maxSteps", kindInt}, {"color", kindString}, {"disable", kindBool}, {"hidden", kindBool},
		{"mode", kindString}}
	geminiKeys = []metaKey{{"model", kindString}, {"display_name", kindString}, {"temperature", kindNumber},
		{"max_turns", kindInt}, {"timeout_mins", kindInt}}
	codexKeys = []metaKey{{"model", kindString}, {"model_provider", kindString}, {"model_reasoning_effort", kindString},
		{"model_verbosity", kindString}, {"sandbox_mode", kindString}, {"approval_policy", kindString},
		{"background_terminal_max_timeout", kindInt}}
)
