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
	call, tms, text, _, ok = appendChunk(nil, raw, func(need int) int { return need })
	return call, tms, text, ok
}

// appendChunk is fastChunk that decodes the text into arena's spare
// capacity (see jsonlit.AppendString), or, when that is short, into a
// new array of size(need) bytes: text is a slice of the arena it returns,
// capped at its own end so that an append to it never writes over the
// next chunk's text.
func appendChunk(arena, raw []byte, size func(need int) int) (call int, tms int64, text, out []byte, ok bool) {
	if len(raw) < len(chunkPrefix) || string(raw[:len(chunkPrefix)]) != string(chunkPrefix) {
		return 0, 0, nil, arena, false
	}
	rest := raw[len(chunkPrefix):]
	n, rest, ok := jsonlit.Natural(rest)
	if !ok || n > 1<<30 {
		return 0, 0, nil, arena, false
	}
	call = int(n)
	const tmsKey, textKey = `,"t_ms":`, `,"text":"`
	if len(rest) < len(tmsKey) || string(rest[:len(tmsKey)]) != tmsKey {
		return 0, 0, nil, arena, false
	}
	if tms, rest, ok = jsonlit.Natural(rest[len(tmsKey):]); !ok {
		return 0, 0, nil, arena, false
	}
	if len(rest) < len(textKey) || string(rest[:len(textKey)]) != textKey {
		return 0, 0, nil, arena, false
	}
	body := rest[len(textKey):]
	if cap(arena)-len(arena) < len(body) {
		arena = make([]byte, 0, max(size(len(body)), len(body)))
	}
	start := len(arena)
	out, rest, ok = jsonlit.AppendString(arena, body)
	if !ok || len(rest) != 1 || rest[0] != '}' {
		// out may have grown (a new array): the arena stays as it was.
		return 0, 0, nil, arena, false
	}
	return call, tms, out[start:len(out):len(out)], out, true
}

// fastHeader reads a header line exactly as Encode writes one, without
// reflection (encoding/json made it a tenth of reading a recording): ok
// is false for any other line, or any doubt, and the line then goes the
// general way, which decides. Where ok is true the header is what
// encoding/json reads (FuzzFastLines checks).
func fastHeader(raw []byte) (h headerLine, ok bool) {
	f := jsonlit.ObjectOne(raw)
	f.String("type", &h.Type, false)
	f.Int("version", &h.Version, false)
	f.Time("recorded_at", &h.RecordedAt, false)
	f.String("run_id", &h.RunID, true)
	f.String("agent", &h.Agent, true)
	f.String("agent_sha256", &h.AgentSHA256, true)
	f.String("skill", &h.Skill, true)
	f.String("task", &h.Task, true)
	f.String("context", &h.Context, true)
	f.String("protocol", &h.Protocol, false)
	f.String("provider", &h.Provider, true)
	f.String("provider_type", &h.ProviderType, true)
	f.String("endpoint", &h.Endpoint, true)
	f.String("model", &h.Model, true)
	f.String("role", &h.Role, true)
	f.Strings("tools", &h.Tools, false)
	f.Int("max_tool_iterations", &h.MaxToolIterations, true)
	f.Int("loop", &h.Loop, true)
	f.Int("max_tokens", &h.MaxTokens, true)
	f.Object("limits", false, func(o *jsonlit.Fields) {
		l := &h.Limits
		o.Int64("prefill_ms", &l.PrefillMS, false)
		o.Int64("inter_delta_ms", &l.InterDeltaMS, false)
		o.Int64("no_progress_ms", &l.NoProgressMS, false)
		o.Int64("thinking_only_ms", &l.ThinkingOnlyMS, false)
		o.Int64("max_call_ms", &l.MaxCallMS, true)
	})
	if rest, ok := f.End(); !ok || len(rest) > 0 {
		return headerLine{}, false
	}
	return h, true
}

// fastCallLine reads a response line without an error, or an end line
// without one, exactly as Encode writes them (see fastHeader): the
// members of anyLine they set.
func fastCallLine(raw []byte) (l anyLine, ok bool) {
	f := jsonlit.Object(raw)
	f.String("type", &l.Type, false)
	f.Int("call", &l.Call, false)
	f.Int64("t_ms", &l.TMS, false)
	switch l.Type {
	case "response":
		f.Int("status", &l.Status, true)
		f.String("content_type", &l.ContentType, true)
		f.Bool("reencoded", &l.Reencoded, true)
	case "end":
		f.String("how", &l.How, false)
	default:
		return anyLine{}, false
	}
	if rest, ok := f.End(); !ok || len(rest) > 0 {
		return anyLine{}, false
	}
	return l, true
}
