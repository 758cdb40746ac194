package rundiff

import (
	"strings"
	"time"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Comparison is what changed from one run (Before) to another (After).
type Comparison struct {
	Before Side `json:"before"`
	After  Side `json:"after"`
	// DifferentAgent and DifferentModel are set when the two runs are of
	// different agents or models: allowed, and headed so.
	DifferentAgent bool `json:"different_agent"`
	DifferentModel bool `json:"different_model"`
	// Outcome and Reason, before and after.
	Outcome Change `json:"outcome"`
	Reason  Change `json:"reason"`
	// Request compares the request part by part.
	Request RequestDiff `json:"request"`
	// ToolCalls aligns the two runs' tool calls.
	ToolCalls CallsDiff `json:"tool_calls"`
	// Output is the reply, word by word.
	Output OutputDiff `json:"output"`
	// Metrics are the token counts and clocks, with their deltas.
	Metrics []Metric `json:"metrics"`
	// Changes compares the two changes.patch files.
	Changes PatchDiff `json:"changes"`
	// Notes say what could not be compared and why.
	Notes []string `json:"notes"`
}

// Side names one run of a comparison.
type Side struct {
	RunID     string    `json:"run_id"`
	Agent     string    `json:"agent"`
	Model     string    `json:"model"`
	State     string    `json:"state"`
	StartedAt time.Time `json:"started_at"`
	// Replay is set for a run played back from a recording; Suite names
	// the suite case a run was made for.
	Replay bool   `json:"replay,omitempty"`
	Suite  string `json:"suite,omitempty"`
	Dir    string `json:"dir"`
}

// Change is a value before and after.
type Change struct {
	Before  string `json:"before"`
	After   string `json:"after"`
	Changed bool   `json:"changed"`
}

// Part statuses.
const (
	PartSame    = "same"
	PartChanged = "changed"
	PartAdded   = "added"
	PartRemoved = "removed"
)

// Request part names besides the system prompt's own (preview/request).
const (
	// PartSystem is the whole system prompt, for a run whose record does
	// not say where its parts begin (an older agentdesk).
	PartSystem = "system-prompt"
	// PartFirstMessage is the first user message.
	PartFirstMessage = "first-message"
	// PartTools is the list of tools the first call offered, one a line.
	PartTools = "tools"
)

// RequestDiff compares the requests part by part.
type RequestDiff struct {
	// Parts are every part of either request, in the after run's order
	// (parts only the before run had follow).
	Parts []PartDiff `json:"parts"`
	// Changed names the parts that are not the same.
	Changed []string `json:"changed"`
	// Compared is false when a side's transcript kept no request.
	Compared bool `json:"compared"`
}

// PartDiff is one part of the request.
type PartDiff struct {
	Part   string `json:"part"`
	Status string `json:"status"`
	// Diff is a unified diff of the part's text ("" when the same).
	Diff string `json:"diff,omitempty"`
}

// Metric is a number before and after; nil where a run has none.
type Metric struct {
	Name   string `json:"name"`
	Unit   string `json:"unit"`
	Before *int64 `json:"before"`
	After  *int64 `json:"after"`
	Delta  *int64 `json:"delta"`
}

// PatchDiff compares the two runs' changes.patch.
type PatchDiff struct {
	BeforeFiles []string `json:"before_files"`
	AfterFiles  []string `json:"after_files"`
	Same        bool     `json:"same"`
	// Diff is a unified diff of the two patches ("" when the same).
	Diff string `json:"diff,omitempty"`
}

// Compare compares run a (before) with run b (after).
func Compare(a, b *Run) *Comparison {
	c := &Comparison{Before: side(a), After: side(b), Notes: []string{}}
	c.Notes = append(c.Notes, a.Notes...)
	c.Notes = append(c.Notes, b.Notes...)
	c.DifferentAgent = !strings.EqualFold(a.Record.Agent, b.Record.Agent)
	c.DifferentModel = a.Record.Model.ModelID != b.Record.Model.ModelID || a.Record.Model.Endpoint != b.Record.Model.Endpoint
	c.Outcome = change(vocab.OutcomeText(a.Record.Outcome), vocab.OutcomeText(b.Record.Outcome))
	c.Reason = change(a.Record.Reason, b.Record.Reason)
	c.Request = compareRequests(a, b, &c.Notes)
	c.ToolCalls = compareCalls(a.Record.ToolCalls, b.Record.ToolCalls)
	c.Output = compareOutputs(a.Record.Output, b.Record.Output)
	c.Metrics = metrics(&a.Record, &b.Record)
	c.Changes = comparePatches(a, b)
	return c
}

func side(r *Run) Side {
	s := Side{RunID: r.Record.RunID, Agent: r.Record.Agent, Model: r.Record.Model.ModelID,
		State: r.Record.State, StartedAt: r.Record.StartedAt, Replay: r.Record.Replay != nil, Dir: r.Record.Dir}
	if r.Record.Frontline != nil && s.Agent == "" {
		s.Agent = "(frontline)"
	}
	if r.Record.Suite != nil {
		s.Suite = r.Record.Suite.String()
	}
	return s
}

func change(before, after string) Change {
	return Change{Before: before, After: after, Changed: before != after}
}

// namedText is one part of a request.
type namedText struct{ name, text string }

// compareRequests diffs the two requests part by part.
func compareRequests(a, b *Run, notes *[]string) RequestDiff {
	d := RequestDiff{Parts: []PartDiff{}, Changed: []string{}}
	if a.System == "" && b.System == "" && a.FirstMessage == "" && b.FirstMessage == "" {
		return d
	}
	d.Compared = a.System != "" && b.System != ""
	pa, wholeA := requestParts(a)
	pb, wholeB := requestParts(b)
	if wholeA != wholeB {
		// One side cannot be split: compare both as one system prompt.
		pa, _ = wholeParts(a)
		pb, _ = wholeParts(b)
	}
	if wholeA || wholeB {
		*notes = append(*notes, "the system prompt is compared as one part: a run recorded by an older agentdesk does not say where its parts begin")
	}
	before := map[string]string{}
	for _, p := range pa {
		before[p.name] = p.text
	}
	seen := map[string]bool{}
	add := func(name, old, new string, inA, inB bool) {
		pd := PartDiff{Part: name}
		switch {
		case !inA:
			pd.Status, pd.Diff = PartAdded, preview.UnifiedDiff("before", "after", "", new)
		case !inB:
			pd.Status, pd.Diff = PartRemoved, preview.UnifiedDiff("before", "after", old, "")
		case old == new:
			pd.Status = PartSame
		default:
			pd.Status, pd.Diff = PartChanged, preview.UnifiedDiff("before", "after", old, new)
		}
		if pd.Status != PartSame {
			d.Changed = append(d.Changed, name)
		}
		d.Parts = append(d.Parts, pd)
	}
	for _, p := range pb {
		old, ok := before[p.name]
		seen[p.name] = true
		add(p.name, old, p.text, ok, true)
	}
	for _, p := range pa {
		if !seen[p.name] {
			add(p.name, p.text, "", true, false)
		}
	}
	return d
}

// requestParts splits a run's request into its named parts: the system
// prompt's parts (where run.json says their lengths), the first message
// and the tools. whole is set when the system prompt could not be split.
func requestParts(r *Run) (parts []namedText, whole bool) {
	if sys, ok := splitSystem(r); ok {
		return append(sys, tail(r)...), false
	}
	return wholeParts(r)
}

func wholeParts(r *Run) ([]namedText, bool) {
	var parts []namedText
	if r.System != "" {
		parts = append(parts, namedText{PartSystem, r.System})
	}
	return append(parts, tail(r)...), true
}

func tail(r *Run) []namedText {
	var parts []namedText
	if r.FirstMessage != "" {
		parts = append(parts, namedText{PartFirstMessage, r.FirstMessage})
	}
	if len(r.Tools) > 0 {
		parts = append(parts, namedText{PartTools, strings.Join(r.Tools, "\n") + "\n"})
	}
	return parts
}

// splitSystem cuts the system prompt at the lengths run.json gives its
// parts, each joined to the next by a blank line. It fails when a length
// is missing or the cuts do not land on the joins (redaction changed a
// length).
func splitSystem(r *Run) ([]namedText, bool) {
	p := r.Record.Prompt
	if p == nil || len(p.Parts) == 0 || r.System == "" {
		return nil, false
	}
	s := r.System
	var out []namedText
	for i, part := range p.Parts {
		if part.Bytes <= 0 || part.Bytes > len(s) {
			return nil, false
		}
		out = append(out, namedText{part.Part, s[:part.Bytes]})
		s = s[part.Bytes:]
		if i < len(p.Parts)-1 {
			if !strings.HasPrefix(s, "\n\n") {
				return nil, false
			}
			s = s[2:]
		}
	}
	if s != "" {
		return nil, false
	}
	return out, true
}

// metrics are the token counts and clocks of both runs.
func metrics(a, b *runfolder.Record) []Metric {
	i64 := func(v int) *int64 { x := int64(v); return &x }
	m := []Metric{
		metric("tokens in", "tokens", i64(a.Usage.InputTokens), i64(b.Usage.InputTokens)),
		metric("tokens out", "tokens", i64(a.Usage.OutputTokens), i64(b.Usage.OutputTokens)),
		metric("first delta", "ms", a.Timings.FirstDeltaMS, b.Timings.FirstDeltaMS),
		metric("wall time", "ms", wall(a), wall(b)),
		metric("model calls", "calls", i64(a.Counts.ModelCalls), i64(b.Counts.ModelCalls)),
	}
	return m
}

func wall(r *runfolder.Record) *int64 {
	if !r.Ended() {
		return nil
	}
	v := r.Timings.TotalMS
	return &v
}

func metric(name, unit string, before, after *int64) Metric {
	m := Metric{Name: name, Unit: unit, Before: before, After: after}
	if before != nil && after != nil {
		d := *after - *before
		m.Delta = &d
	}
	return m
}

// comparePatches diffs the two changes.patch files.
func comparePatches(a, b *Run) PatchDiff {
	d := PatchDiff{BeforeFiles: changedFiles(&a.Record), AfterFiles: changedFiles(&b.Record)}
	d.Same = a.Patch == b.Patch
	if !d.Same {
		d.Diff = preview.UnifiedDiff("before/changes.patch", "after/changes.patch", a.Patch, b.Patch)
	}
	return d
}

func changedFiles(r *runfolder.Record) []string {
	out := []string{}
	for _, c := range r.Changes {
		out = append(out, c.Path)
	}
	return out
}
