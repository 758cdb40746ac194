// Package wire speaks the three streaming protocols a trial run talks to a
// model with, on net/http and encoding/json alone: OpenAI chat completions
// over server-sent events (also used by openai-compatible, openrouter and
// veniceai providers), Anthropic Messages over server-sent events, and
// Ollama's native /api/chat NDJSON.
//
// It owns the line reader (LF, CRLF and CR endings, a 16 MiB line cap), the
// SSE framer, one request encoder per protocol, and one Decoder per protocol
// that turns raw bytes into the same Event values: keepalive, role, meta,
// text, thinking, tool-call fragments and completed calls, finish with the
// raw reason, usage, and error. Decoders classify; they never judge: whether
// a stream ended well is the runner's call.
//
// Each protocol is described once, in a table (Spec, Protocol.Spec): its
// name (Parse), the provider types that speak it (ProtocolFor), the path
// and headers of a request, its body, decoder and encoder, its finish
// reasons. Adding a protocol is a row there and the files of its body,
// decoder and encoder (and, for tests, its renderer in runner/modeltest).
package wire
