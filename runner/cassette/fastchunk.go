package cassette

import "github.com/agentdesk/agentdesk/runner/internal/jsonlit"

// chunkPrefix starts every chunk line Encode writes with text.
var chunkPrefix = []byte(`{"type":"chunk","call":`)

// fastChunk reads a chunk line exactly as Encode writes one with text —
// {"type":"chunk","call":N,"t_ms":N,"text":"…"} — without reflection: a
// replay reads a chunk line for every streamed piece of every call, and
// encoding/json made that a quarter of an offline suite's time. ok is
// false for any other line, or any doubt (a key out of order, an escape
// it does not know, a byte JSON does not allow in a string, text that is
// not UTF-8), and the line then goes the general way, which decides. Where
// ok is true the result is what encoding/json gives (FuzzFastChunk checks).
func fastChunk(raw []byte) (call int, tms int64, text []byte, ok bool) {
	if len(raw) < len(chunkPrefix) || string(raw[:len(chunkPrefix)]) != string(chunkPrefix) {
		return 0, 0, nil, false
	}
	rest := raw[len(chunkPrefix):]
	n, rest, ok := jsonlit.Natural(rest)
	if !ok || n > 1<<30 {
		return 0, 0, nil, false
	}
	call = int(n)
	const tmsKey, textKey = `,"t_ms":`, `,"text":"`
	if len(rest) < len(tmsKey) || string(rest[:len(tmsKey)]) != tmsKey {
		return 0, 0, nil, false
	}
	if tms, rest, ok = jsonlit.Natural(rest[len(tmsKey):]); !ok {
		return 0, 0, nil, false
	}
	if len(rest) < len(textKey) || string(rest[:len(textKey)]) != textKey {
		return 0, 0, nil, false
	}
	text, rest, ok = jsonlit.String(rest[len(textKey):])
	if !ok || len(rest) != 1 || rest[0] != '}' {
		return 0, 0, nil, false
	}
	return call, tms, text, true
}
