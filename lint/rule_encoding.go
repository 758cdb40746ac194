package lint

// This file holds the check of the rule encoding (RuleEncoding): not valid
// UTF-8: the model gets U+FFFD where the bad bytes were.

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// decode turns the file's bytes into the text the runtime reads
// (decodeText), adding an encoding diagnostic for a UTF-16 file or at the
// first invalid UTF-8 byte.
func (ps *parser) decode(data []byte) string {
	switch rest := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}); {
	case len(data) >= 2 && (data[0] == 0xFF && data[1] == 0xFE || data[0] == 0xFE && data[1] == 0xFF):
		sev := Warning
		if ps.profile == Publish {
			sev = Error
		}
		ps.addSeverity(RuleEncoding, sev, Pos{1, 1}, "the file is UTF-16: the runtime reads it, but SkillServer only accepts UTF-8", "save the file as UTF-8")
	case !utf8.Valid(rest):
		bad := firstInvalidUTF8(rest)
		ps.add(RuleEncoding, posAt(string(rest), bad),
			fmt.Sprintf("invalid UTF-8 (byte 0x%02X at offset %d): the runtime loads the file with U+FFFD in place of the bad bytes, so the model gets a different prompt; SkillServer sync refuses it", rest[bad], bad),
			"save the file as UTF-8")
	}
	return DecodeText(data)
}

func firstInvalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}
