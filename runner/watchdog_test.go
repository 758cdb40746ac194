package runner

import (
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// step is one thing that happens to a watchdog at a time offset in ms.
type step struct {
	at   int // ms since the call started
	ev   wire.Event
	wire bool // bytes only, no event
}

func text(s string) wire.Event     { return wire.Event{Kind: wire.Text, Text: s} }
func thinking(s string) wire.Event { return wire.Event{Kind: wire.Thinking, Text: s} }
func kind(k wire.Kind) wire.Event  { return wire.Event{Kind: k} }

func TestWatchdog(t *testing.T) {
	limits := Limits{
		Prefill:    1000 * time.Millisecond,
		InterDelta: 300 * time.Millisecond,
		NoProgress: 500 * time.Millisecond,
	}
	// prefill has a no-progress ceiling past the prefill budget, so the
	// prefill cases see the budget.
	prefill := Limits{Prefill: 1000 * time.Millisecond, InterDelta: 300 * time.Millisecond, NoProgress: 5000 * time.Millisecond}
	tests := []struct {
		name   string
		limits Limits
		steps  []step
		// want is the reason that falls due first and when (ms), or "" for
		// none before end.
		want   string
		wantAt int
	}{
		{name: "nothing at all: the prefill budget, no_activity_timeout", limits: prefill, want: vocab.ReasonNoActivity, wantAt: 1000},
		{
			name:   "keepalives, roles and usage refresh the prefill budget, and do not end prefill",
			limits: prefill,
			steps:  []step{{at: 100, ev: kind(wire.Keepalive)}, {at: 200, ev: kind(wire.Role)}, {at: 300, ev: wire.Event{Kind: wire.Usage}}, {at: 400, ev: kind(wire.Meta)}, {at: 500, wire: true}},
			want:   vocab.ReasonNoActivity, wantAt: 1500,
		},
		{
			name:   "white space text does not end prefill",
			limits: prefill,
			steps:  []step{{at: 100, ev: text(" \n\t\u200b")}, {at: 1050, ev: kind(wire.Keepalive)}},
			want:   vocab.ReasonNoActivity, wantAt: 2050,
		},
		{
			name:  "the no-progress ceiling runs from the call's start, through keepalives",
			steps: []step{{at: 100, ev: kind(wire.Keepalive)}, {at: 200, ev: kind(wire.Keepalive)}, {at: 300, ev: kind(wire.Keepalive)}, {at: 400, ev: kind(wire.Keepalive)}},
			want:  vocab.ReasonNoSubstantiveOutput, wantAt: 500,
		},
		{
			name:  "after the first text: inter-delta on silence",
			steps: []step{{at: 400, ev: text("Hi")}},
			want:  vocab.ReasonNoActivity, wantAt: 700,
		},
		{
			name:  "keepalives hold off inter-delta but not no-progress",
			steps: []step{{at: 100, ev: text("Hi")}, {at: 300, ev: kind(wire.Keepalive)}, {at: 500, ev: kind(wire.Keepalive)}},
			want:  vocab.ReasonNoSubstantiveOutput, wantAt: 600,
		},
		{
			name:  "raw bytes hold off inter-delta",
			steps: []step{{at: 100, ev: text("Hi")}, {at: 350, wire: true}},
			want:  vocab.ReasonNoSubstantiveOutput, wantAt: 600,
		},
		{
			name:  "role and usage frames are not progress",
			steps: []step{{at: 100, ev: text("Hi")}, {at: 300, ev: kind(wire.Role)}, {at: 550, ev: wire.Event{Kind: wire.Usage}}},
			want:  vocab.ReasonNoSubstantiveOutput, wantAt: 600,
		},
		{
			name:  "white space text is not progress",
			steps: []step{{at: 100, ev: text("Hi")}, {at: 300, ev: text("   ")}, {at: 550, ev: text("\n")}},
			want:  vocab.ReasonNoSubstantiveOutput, wantAt: 600,
		},
		{
			name:  "a tool call is progress",
			steps: []step{{at: 100, ev: text("Hi")}, {at: 350, ev: wire.Event{Kind: wire.ToolCall}}},
			want:  vocab.ReasonNoActivity, wantAt: 650,
		},
		{
			name: "thinking only: three times the ceiling from the call's start",
			steps: func() []step {
				var s []step
				for at := 200; at <= 1600; at += 200 {
					s = append(s, step{at: at, ev: thinking("hmm")})
				}
				return s
			}(),
			want: vocab.ReasonThinkingOnlyTimeout, wantAt: 1500,
		},
		{
			name: "visible text restarts the thinking-only cap",
			steps: []step{
				{at: 200, ev: thinking("a")}, {at: 400, ev: thinking("b")}, {at: 600, ev: text("ok")},
				{at: 800, ev: thinking("c")}, {at: 1000, ev: thinking("d")}, {at: 1200, ev: thinking("e")},
				{at: 1400, ev: thinking("f")}, {at: 1600, ev: thinking("g")}, {at: 1800, ev: thinking("h")},
				{at: 2000, ev: thinking("i")},
			},
			want: vocab.ReasonThinkingOnlyTimeout, wantAt: 2100,
		},
		{
			name: "white space text does not restart the cap",
			steps: []step{
				{at: 200, ev: thinking("a")}, {at: 400, ev: thinking("b")}, {at: 600, ev: text("  ")},
				{at: 800, ev: thinking("c")}, {at: 1000, ev: thinking("d")}, {at: 1200, ev: thinking("e")},
				{at: 1400, ev: thinking("f")},
			},
			want: vocab.ReasonThinkingOnlyTimeout, wantAt: 1500,
		},
		{
			name:   "explicit thinking-only cap",
			limits: Limits{NoProgress: 500 * time.Millisecond, ThinkingOnly: 700 * time.Millisecond},
			steps:  []step{{at: 100, ev: thinking("a")}, {at: 400, ev: thinking("b")}},
			want:   vocab.ReasonThinkingOnlyTimeout, wantAt: 700,
		},
		{name: "no limits at all", limits: Limits{}, steps: []step{{at: 100, ev: text("a")}}, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := tt.limits
			if l == (Limits{}) && tt.want != "" {
				l = limits
			}
			t0 := time.Unix(1000, 0)
			at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
			w := NewWatchdog(l, t0)
			// Walk through time a millisecond at a time, feeding steps as
			// they fall due and checking the limits between them.
			si := 0
			for ms := 0; ms <= 20000; ms++ {
				for si < len(tt.steps) && tt.steps[si].at == ms {
					s := tt.steps[si]
					if s.wire {
						w.Wire(at(ms))
					} else {
						w.Observe(s.ev, at(ms))
					}
					si++
				}
				if trip, ok := w.Check(at(ms)); ok {
					if trip.Reason != tt.want || ms != tt.wantAt {
						t.Fatalf("tripped %s (%s) at %d ms, want %s at %d ms", trip.Reason, trip.Limit, ms, tt.want, tt.wantAt)
					}
					if next, _ := w.Next(); !next.At.Equal(at(tt.wantAt)) {
						t.Errorf("Next says %v, want %d ms", next.At.Sub(t0), tt.wantAt)
					}
					return
				}
			}
			if tt.want != "" {
				t.Fatalf("nothing tripped, want %s at %d ms", tt.want, tt.wantAt)
			}
		})
	}
}

func TestWatchdogStatus(t *testing.T) {
	t0 := time.Unix(1000, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	w := NewWatchdog(Limits{Prefill: time.Second, InterDelta: 300 * time.Millisecond, NoProgress: 2 * time.Second}, t0)
	s := w.Status(ms(100))
	if s.HasFirstDelta || s.Next.Limit != "prefill" || s.NextIn != 900*time.Millisecond || s.Elapsed != 100*time.Millisecond {
		t.Errorf("in prefill: %+v", s)
	}
	w.Observe(thinking("x"), ms(200))
	w.Observe(kind(wire.Keepalive), ms(350))
	s = w.Status(ms(400))
	if !s.HasFirstDelta || s.FirstDelta != 200*time.Millisecond || s.SinceWire != 50*time.Millisecond ||
		s.SinceProgress != 200*time.Millisecond || s.ThinkingOnly != 400*time.Millisecond {
		t.Errorf("streaming: %+v", s)
	}
	if s.Next.Limit != "inter-delta" || s.NextIn != 250*time.Millisecond {
		t.Errorf("next: %s in %v", s.Next.Limit, s.NextIn)
	}
}

func BenchmarkWatchdogObserve(b *testing.B) {
	w := NewWatchdog(Limits{Prefill: time.Hour, InterDelta: time.Hour, NoProgress: time.Hour}, time.Now())
	e := text("word ")
	now := time.Now()
	for b.Loop() {
		w.Observe(e, now)
		w.Next()
	}
}
