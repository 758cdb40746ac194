package evalrec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Names of the fingerprint parts the suites use. A suite runner may add
// parts of its own; Compare matches parts by name.
const (
	PartSystemPrompt = "system prompt"
	PartFirstMessage = "first message"
	PartTools        = "tools offered"
	PartModel        = "model"
	PartLimits       = "limits"
	PartJudge        = "judge"
	PartLayer        = "layer"
	PartPreamble     = "preamble"
	// PartLoopRules is the version of the rules by which the run loop
	// ends a run (cassette.LoopRules): a recording made under older rules
	// may end where today's loop goes on.
	PartLoopRules = "loop rules"
)

// LoopRulesValue is the loop rules part's value now: NetClaw's rules
// (TurnStateTracker, a36cc1ee), version 1 of cassette.LoopRules.
const LoopRulesValue = "1: NetClaw's cycle guard and nudges, no cap on tool rounds"

// Part is one thing that was sent, by digest. Short one-line values are
// kept too, so a change can say what it was and what it is.
type Part struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	// Value is the value itself when it is short (at most MaxValue bytes,
	// one line); "" otherwise.
	Value string `json:"value,omitempty"`
	// Source says where the value comes from (a definition's path, "the
	// case's task"), for the message of a change. It is not written: a
	// change is told with where the value comes from now, and a committed
	// recording must not carry the recording machine's paths.
	Source string `json:"-"`
	// Default marks the value a recording that lacks the part had: the
	// part was added to fingerprints after such recordings were made
	// (mocks), and "none" must not make them stale. It is not written.
	Default bool `json:"-"`
	// Why says what a recording that lacks the part missed, for the
	// message of a stale recording made before the part was added ("the
	// layer moved to the per-turn message"). It is not written.
	Why string `json:"-"`
}

// MaxValue caps the value a Part keeps verbatim.
const MaxValue = 120

// NewPart returns the part name for value, which comes from source.
func NewPart(name, value, source string) Part {
	sum := sha256.Sum256([]byte(value))
	p := Part{Name: name, SHA256: hex.EncodeToString(sum[:]), Source: source}
	if len(value) <= MaxValue && !strings.ContainsAny(value, "\r\n") && utf8.ValidString(value) {
		p.Value = value
	}
	return p
}

// NewDigest returns the part name for value by digest alone, never
// keeping the value (a prompt, a message: text a recording must not carry
// twice).
func NewDigest(name, value, source string) Part {
	p := NewPart(name, value, source)
	p.Value = ""
	return p
}

// Fingerprint is what a sample sent (system prompt, first message, tools
// offered, model, limits, …), part by part.
type Fingerprint []Part

// Get returns the part with that name.
func (f Fingerprint) Get(name string) (Part, bool) {
	for _, p := range f {
		if p.Name == name {
			return p, true
		}
	}
	return Part{}, false
}

// MissingNow follows a part's Source when the part is missing now (the
// operating core of an install that is not found): a change then says
// so instead of "edited".
const MissingNow = " is missing now"

// Change is one part that differs between a recording and now.
type Change struct {
	// Name is the part's name.
	Name string
	// Was and Now are the values when both were kept; "" otherwise.
	Was, Now string
	// Source is where the value comes from now.
	Source string
	// Added is set for a part the recording does not have.
	Added bool
	// Why is the part's Why, for an Added part.
	Why string
}

// String says what changed: where the part comes from when that is known
// ("system prompt changed: agents/x.md edited"), else the values when both
// were kept ("model changed: qwen3:30b → llama3.3"); "judge added since
// the recording" for a part the recording lacks, followed by the part's
// Why when it has one.
func (c Change) String() string {
	switch {
	case c.Name == PartLoopRules:
		// Recordings made before the part existed lack it.
		return "loop rules changed since the recording: today's runs end as NetClaw's do (" + LoopRulesValue +
			"), so a recorded run may have ended where a run now goes on; record it again"
	case c.Added && c.Why != "":
		return c.Name + " added since the recording: " + c.Why
	case c.Added:
		return c.Name + " added since the recording"
	case strings.Contains(c.Source, MissingNow):
		return fmt.Sprintf("%s changed: %s", c.Name, c.Source)
	case c.Source != "":
		return fmt.Sprintf("%s changed: %s edited", c.Name, c.Source)
	case c.Was != "" && c.Now != "" && c.Was != c.Now:
		return fmt.Sprintf("%s changed: %s → %s", c.Name, c.Was, c.Now)
	}
	return c.Name + " changed"
}

// Compare returns what differs between the recorded fingerprint and now,
// in now's order. A part now has and the recording lacks is a change
// (Added), unless it is a Default part; a part the recording has and now
// lacks is not compared (it cannot be computed now: a model that does not
// resolve offline).
func Compare(recorded, now Fingerprint) []Change {
	var out []Change
	for _, p := range now {
		r, ok := recorded.Get(p.Name)
		switch {
		case !ok && p.Default:
		case !ok:
			out = append(out, Change{Name: p.Name, Source: p.Source, Added: true, Why: p.Why})
		case r.SHA256 != p.SHA256:
			out = append(out, Change{Name: p.Name, Was: r.Value, Now: p.Value, Source: p.Source})
		}
	}
	return out
}

// ChangeList joins changes for one line: "system prompt changed: …; model
// changed: …".
func ChangeList(cs []Change) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = c.String()
	}
	return strings.Join(s, "; ")
}
