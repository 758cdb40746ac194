package adapt

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// carryPrefix starts the one comment line that keeps the NetClaw fields a
// target file has no place for: "# netclaw: {json}".
const carryPrefix = "netclaw:"

// carried holds the NetClaw fields an export could not represent in the
// target's own keys. It is written as one comment line of JSON, and Import
// restores every field it holds over whatever the target file says.
type carried struct {
	Name                   string            `json:"name,omitempty"`
	Description            string            `json:"description,omitempty"`
	Tools                  []string          `json:"tools,omitempty"`
	ModelRole              string            `json:"modelRole,omitempty"`
	Visibility             string            `json:"visibility,omitempty"`
	EmitStructuredFindings bool              `json:"emitStructuredFindings,omitempty"`
	PrefillTimeoutSeconds  int               `json:"prefillTimeoutSeconds,omitempty"`
	Version                string            `json:"version,omitempty"`
	Metadata               map[string]string `json:"metadata,omitempty"`
}

// empty reports whether nothing needs carrying.
func (c *carried) empty() bool {
	return c.Name == "" && c.Description == "" && c.Tools == nil && c.ModelRole == "" && c.Visibility == "" &&
		!c.EmitStructuredFindings && c.PrefillTimeoutSeconds == 0 && c.Version == "" && len(c.Metadata) == 0
}

// comment returns the comment line, "# netclaw: {...}", without a line
// ending, or "" when nothing is carried. The JSON escapes every character
// that YAML or TOML do not allow in a comment, so the line is safe in both.
func (c *carried) comment() string {
	if c.empty() {
		return ""
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c); err != nil {
		// Strings, ints and bools only: encoding cannot fail.
		return ""
	}
	return "# " + carryPrefix + " " + escapeForComment(strings.TrimSuffix(buf.String(), "\n"))
}

// escapeForComment rewrites, inside JSON text, every character that YAML or
// TOML refuse in a comment (controls, DEL, C1 controls, line separators,
// byte-order marks, noncharacters) as a \uXXXX escape, which JSON reads back
// as the same character.
func escapeForComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// findCarried looks for the netclaw comment among comment texts (without
// their '#'). It returns nil when there is none; a comment that does not
// parse is reported in a warning and ignored.
func findCarried(comments []string) (*carried, []string) {
	for _, c := range comments {
		rest, ok := strings.CutPrefix(strings.TrimSpace(c), carryPrefix)
		if !ok {
			continue
		}
		var out carried
		dec := json.NewDecoder(strings.NewReader(rest))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out); err != nil || !utf8.ValidString(rest) {
			return nil, []string{fmt.Sprintf("the '# netclaw:' comment does not parse (%v): ignored, so fields it kept are not restored", err)}
		}
		return &out, nil
	}
	return nil, nil
}
