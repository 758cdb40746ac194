// Package modeltest is a scriptable model server for tests and demos: a real
// HTTP server on loopback that speaks OpenAI chat completions SSE
// (POST …/chat/completions), Anthropic Messages SSE (POST …/v1/messages) and
// Ollama NDJSON (POST …/api/chat), and plays a Script for each request: text,
// thinking, tool calls, keepalives, pauses, error frames, disconnects,
// chosen finish reasons, non-2xx answers. It records every request it gets,
// parsed, so tests can check the system prompt, the first user message, the
// headers and the API key.
//
//	srv := modeltest.NewServer()
//	defer srv.Close()
//	srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{
//		modeltest.Thinking("hmm"), modeltest.Text("Hello"), modeltest.Stop(),
//	}})
//	// point a provider at srv.Endpoint(wire.OpenAI) ...
//	req := srv.Requests()[0]
package modeltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	"github.com/agentdesk/agentdesk/runner/wire"
)

// Server is a running model server. Its methods are safe for concurrent use.
type Server struct {
	// URL is the server's base URL, http://127.0.0.1:<port>.
	URL string

	srv *httptest.Server

	mu       sync.Mutex
	queue    []Script
	byModel  map[string]Script
	fallback *Script
	choose   func(Request) (Script, bool)
	requests []Request
	arrived  chan struct{}
}

// NewServer starts a server on a loopback port. Close it when done.
func NewServer() *Server {
	s := &Server{byModel: map[string]Script{}, arrived: make(chan struct{})}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	return s
}

// Close shuts the server down, ending any stream still playing.
func (s *Server) Close() {
	s.srv.CloseClientConnections()
	s.srv.Close()
}

// Endpoint returns the provider Endpoint to configure for protocol p:
// URL + "/v1" for OpenAI, URL for Anthropic and Ollama.
func (s *Server) Endpoint(p wire.Protocol) string {
	return s.URL + server(p).endpoint
}

// Enqueue adds scripts to the queue: each request that no ForModel script
// claims takes the next one.
func (s *Server) Enqueue(scripts ...Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, scripts...)
}

// ForModel plays sc for every request for model (exact match), however
// many there are. Concurrent tests give each run its own model name.
func (s *Server) ForModel(model string, sc Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byModel[model] = sc
}

// SetDefault plays sc for requests that neither ForModel nor the queue
// answer. Without a default such a request gets a 500 saying no script is
// left.
func (s *Server) SetDefault(sc Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.fallback = &sc
}

// SetChooser installs a function asked first for every request; it returns
// the script to play and true, or false to fall through to ForModel, the
// queue and the default.
func (s *Server) SetChooser(f func(Request) (Script, bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.choose = f
}

// Requests returns every request received so far, in arrival order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// WaitRequests waits until n requests have arrived or timeout passes, and
// returns the requests received.
func (s *Server) WaitRequests(n int, timeout time.Duration) []Request {
	deadline := time.After(timeout)
	for {
		s.mu.Lock()
		got, ch := len(s.requests), s.arrived
		s.mu.Unlock()
		if got >= n {
			return s.Requests()
		}
		select {
		case <-ch:
		case <-deadline:
			return s.Requests()
		}
	}
}

// Request is one request the server received, with its body parsed.
type Request struct {
	// Protocol is the protocol the path asked for.
	Protocol wire.Protocol
	Method   string
	Path     string
	Header   http.Header
	Body     []byte
	// Model is the body's "model".
	Model string
	// System is the system prompt: OpenAI's and Ollama's system message,
	// Anthropic's "system".
	System string
	// Messages are the other messages, in order: user, assistant (with
	// their tool calls) and tool turns, the same shape whatever the
	// protocol (an Anthropic tool_result block is a "tool" turn).
	Messages []wire.Message
	// APIKey is the bearer token or x-api-key header.
	APIKey string
	// MaxTokens is max_tokens, max_completion_tokens or options.num_predict.
	MaxTokens int
	// Stream is the body's "stream".
	Stream bool
	// Tools are the names of the tools offered, in order.
	Tools []string
	// ToolChoice is tool_choice: the string (OpenAI), or the "type" of the
	// object (Anthropic); "" when absent.
	ToolChoice string
	// ParseError says why the body did not parse, when it did not.
	ParseError string
}

// FirstUser returns the text of the first user message that is not a
// per-turn "[system: …]" block (the frontline's context, which NetClaw
// sends as a user message just before the user's), or "".
func (r Request) FirstUser() string {
	for _, m := range r.Messages {
		if m.Role == "user" && !strings.HasPrefix(m.Text, "[system: ") {
			return m.Text
		}
	}
	return ""
}

func protocolOf(path string) (wire.Protocol, bool) {
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return wire.OpenAI, true
	case strings.HasSuffix(path, "/v1/messages"):
		return wire.Anthropic, true
	case strings.HasSuffix(path, "/api/chat"):
		return wire.Ollama, true
	}
	return 0, false
}

func parseRequest(p wire.Protocol, r *http.Request, body []byte) Request {
	req := Request{Protocol: p, Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	if k, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		req.APIKey = k
	} else if k := r.Header.Get("x-api-key"); k != "" {
		req.APIKey = k
	}
	var b struct {
		Model               string          `json:"model"`
		System              json.RawMessage `json:"system"`
		Messages            []bodyMessage   `json:"messages"`
		Stream              bool            `json:"stream"`
		MaxTokens           int             `json:"max_tokens"`
		MaxCompletionTokens int             `json:"max_completion_tokens"`
		Options             struct {
			NumPredict int `json:"num_predict"`
		} `json:"options"`
		Tools []struct {
			Name     string `json:"name"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &b); err != nil {
		req.ParseError = err.Error()
		return req
	}
	req.Model, req.Stream = b.Model, b.Stream
	req.MaxTokens = max(b.MaxTokens, b.MaxCompletionTokens, b.Options.NumPredict)
	req.System = contentText(b.System)
	for _, t := range b.Tools {
		name := t.Name
		if name == "" {
			name = t.Function.Name
		}
		req.Tools = append(req.Tools, name)
	}
	var choice struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(b.ToolChoice, &req.ToolChoice) != nil && json.Unmarshal(b.ToolChoice, &choice) == nil {
		req.ToolChoice = choice.Type
	}
	for _, m := range b.Messages {
		if m.Role == "system" && (p.Spec() == nil || !p.Spec().SystemApart) {
			req.System = contentText(m.Content)
			continue
		}
		req.Messages = append(req.Messages, m.turns()...)
	}
	return req
}

// bodyMessage is one message of a request body, in any of the protocols.
type bodyMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolName   string          `json:"tool_name"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// contentBlock is one block of an Anthropic content list.
type contentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// turns returns the message as wire messages: an OpenAI or Ollama message
// as it is (tool calls with their arguments as JSON text); an Anthropic
// message's tool_use blocks as tool calls, and its tool_result blocks as
// "tool" turns ahead of the user text that follows them.
func (m bodyMessage) turns() []wire.Message {
	msg := wire.Message{Role: m.Role, Text: contentText(m.Content), ToolCallID: m.ToolCallID, ToolName: m.ToolName}
	for i, tc := range m.ToolCalls {
		args := string(tc.Function.Arguments)
		var s string
		if json.Unmarshal(tc.Function.Arguments, &s) == nil {
			args = s
		}
		msg.ToolCalls = append(msg.ToolCalls, wire.ToolCallPart{Index: i, ID: tc.ID, Name: tc.Function.Name, Arguments: args, Complete: true})
	}
	var blocks []contentBlock
	if json.Unmarshal(m.Content, &blocks) != nil {
		return []wire.Message{msg}
	}
	var out []wire.Message
	for _, bl := range blocks {
		switch bl.Type {
		case "tool_use":
			msg.ToolCalls = append(msg.ToolCalls, wire.ToolCallPart{Index: len(msg.ToolCalls), ID: bl.ID, Name: bl.Name, Arguments: string(bl.Input), Complete: true})
		case "tool_result":
			out = append(out, wire.Message{Role: "tool", ToolCallID: bl.ToolUseID, Text: contentText(bl.Content), IsError: bl.IsError})
		}
	}
	if len(out) == 0 || msg.Text != "" || len(msg.ToolCalls) > 0 {
		out = append(out, msg)
	}
	return out
}

// contentText reads a content value: a string, or an array of blocks whose
// "text" members are joined.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var b strings.Builder
		for _, bl := range blocks {
			if bl.Type == "" || bl.Type == "text" {
				b.WriteString(bl.Text)
			}
		}
		return b.String()
	}
	return ""
}

// pick chooses the script for req and records req.
func (s *Server) pick(req Request) (Script, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.requests = append(s.requests, req)
	close(s.arrived)
	s.arrived = make(chan struct{})
	if s.choose != nil {
		if sc, ok := s.choose(req); ok {
			return sc, true
		}
	}
	if sc, ok := s.byModel[req.Model]; ok {
		return sc, true
	}
	if len(s.queue) > 0 {
		sc := s.queue[0]
		s.queue = s.queue[1:]
		return sc, true
	}
	if s.fallback != nil {
		return *s.fallback, true
	}
	return Script{}, false
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	p, ok := protocolOf(r.URL.Path)
	if !ok || r.Method != http.MethodPost {
		http.Error(w, fmt.Sprintf("modeltest: no protocol at %s %s (POST …/chat/completions, …/v1/messages or …/api/chat)", r.Method, r.URL.Path), http.StatusNotFound)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	if err != nil {
		http.Error(w, "modeltest: reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := parseRequest(p, r, body)
	sc, ok := s.pick(req)
	if !ok {
		http.Error(w, errorBody(p, 500, "modeltest: no script left for this request"), http.StatusInternalServerError)
		return
	}
	s.play(w, r, p, req, &sc)
}

// play answers req with the script sc: its error, or its stream,
// rendered step by step at the script's pace, each step flushed.
func (s *Server) play(w http.ResponseWriter, r *http.Request, p wire.Protocol, req Request, sc *Script) {
	ctx := r.Context()
	if !sleep(ctx.Done(), sc.HeaderDelay) {
		return
	}
	if sc.Status != 0 && sc.Status != http.StatusOK {
		writeScriptedError(w, p, sc)
		return
	}
	rd := newRenderer(p, sc, req.Model)
	w.Header().Set("Content-Type", rd.contentType())
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	out := &stream{w: w, ctx: ctx}
	out.flusher, _ = w.(http.Flusher)
	rd.preamble(&out.buf)
	if !out.flush() {
		return
	}
	for _, st := range sc.Steps {
		if !sleep(ctx.Done(), sc.Gap) {
			return
		}
		switch st.kind {
		case stepPause:
			if !sleep(ctx.Done(), st.d) {
				return
			}
			continue
		case stepDisconnect:
			out.flush()
			// Abort the handler: the server drops the connection without
			// ending the chunked body.
			panic(http.ErrAbortHandler)
		}
		rd.step(&out.buf, st)
		if !out.flush() {
			return
		}
	}
	rd.terminator(&out.buf)
	out.flush()
}

// writeScriptedError answers with the script's error status and body
// (the protocol's error body for its message when it gives none).
func writeScriptedError(w http.ResponseWriter, p wire.Protocol, sc *Script) {
	body := sc.ErrorBody
	if body == "" {
		body = errorBody(p, sc.Status, sc.ErrorMessage)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(sc.Status)
	io.WriteString(w, body)
}

// stream is a streamed answer: what is rendered collects in buf until
// flush sends it.
type stream struct {
	w       http.ResponseWriter
	flusher http.Flusher
	ctx     context.Context
	buf     bytes.Buffer
}

// flush sends what was rendered and flushes it to the client; it reports
// whether the client is still there.
func (st *stream) flush() bool {
	if st.buf.Len() > 0 {
		if _, err := st.w.Write(st.buf.Bytes()); err != nil {
			return false
		}
		st.buf.Reset()
	}
	if st.flusher != nil {
		st.flusher.Flush()
	}
	return st.ctx.Err() == nil
}

// sleep waits d; it returns false when done closes first.
func sleep(done <-chan struct{}, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}
