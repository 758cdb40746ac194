// Package route asks the frontline model which sub-agent it would pick for
// a user's request, the way a NetClaw session puts the question: a
// preamble, the [available-subagents] layer as a system message of its own,
// the spawn_agent tool (preview.FrontlineRequest), and the request as the
// user's message. With a NetClaw install (AsNetClaw) the question is the
// main session's first turn instead: its prompt, its static context layers
// as the second system message, its per-turn block as a user message
// before the request, its core tools and spawn_agent; Render and JSON show
// exactly what is sent. Each sample is one frontline run of the runner (its own
// run folder, watchdog, redaction, record and replay); Classify reads its
// first reply as the runtime would: a spawn of a listed agent (with the
// task and context the model wrote), a call the runtime refuses (an agent
// that is missing or internal, a required argument left out, with the
// runtime's refusal text), an answer of its own, a call of another tool,
// or arguments that are not valid JSON. Ask runs the samples in parallel
// and reports their distribution.
//
// Rank is the offline heuristic: a lexical (BM25) ranking of the listed
// agents' names and descriptions for a request, with no model; Similar
// finds descriptions too alike to tell apart.
package route
