package runner

import (
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Limits are the watchdog's limits for one model call. A zero limit is not
// enforced.
type Limits struct {
	// Prefill is the budget of wire silence before the call's first
	// substantive event (visible text, thinking or a tool call): the
	// agent's prefillTimeoutSeconds, else SubAgents.PrefillTimeoutSeconds
	// (1800 s). Keepalives refresh it (SubAgentActor's two-phase watchdog,
	// 502847bf).
	// Breaking it is no_activity_timeout, as NetClaw reports it.
	Prefill time.Duration
	// InterDelta is the budget of wire silence once the reply has started:
	// Session.FirstTokenTimeoutSeconds (600 s). Keepalives and any bytes
	// count as activity. Breaking it is no_activity_timeout.
	InterDelta time.Duration
	// NoProgress is the no-progress ceiling of the call, from its start:
	// SubAgents.NoProgressTimeoutSeconds (1200 s). Only visible text,
	// thinking and tool calls refresh it (seed 002; SubAgentActor, 502847bf, arms it
	// with the prefill budget when the call starts). Breaking it is
	// no_substantive_output_timeout.
	NoProgress time.Duration
	// ThinkingOnly caps a call that streams only thinking, counted from the
	// start of the call (or the last visible text or tool call). Zero means
	// three times NoProgress, as the runtime has it. Breaking it is
	// thinking_only_timeout.
	ThinkingOnly time.Duration
}

// ThinkingOnlyCap returns ThinkingOnly, or three times NoProgress when it
// is zero.
func (l Limits) ThinkingOnlyCap() time.Duration {
	if l.ThinkingOnly > 0 {
		return l.ThinkingOnly
	}
	return 3 * l.NoProgress
}

// Override returns l with every non-zero limit of o in place of its own.
func (l Limits) Override(o Limits) Limits {
	pick := func(a, b time.Duration) time.Duration {
		if b != 0 {
			return b
		}
		return a
	}
	return Limits{
		Prefill:      pick(l.Prefill, o.Prefill),
		InterDelta:   pick(l.InterDelta, o.InterDelta),
		NoProgress:   pick(l.NoProgress, o.NoProgress),
		ThinkingOnly: pick(l.ThinkingOnly, o.ThinkingOnly),
	}
}

// LimitsFor returns the limits the runtime applies to a spawn of def under
// cfg (nil means the runtime's defaults).
func LimitsFor(cfg *lint.Config, def *lint.Definition) Limits {
	if cfg == nil {
		cfg = lint.DefaultConfig()
	}
	sec := func(n int) time.Duration { return time.Duration(n) * time.Second }
	l := Limits{
		Prefill:    sec(cfg.SubAgents.PrefillTimeoutSeconds),
		InterDelta: sec(cfg.Session.FirstTokenTimeoutSeconds),
		NoProgress: sec(cfg.SubAgents.NoProgressTimeoutSeconds),
	}
	if def != nil && def.PrefillTimeoutSeconds > 0 {
		l.Prefill = sec(def.PrefillTimeoutSeconds)
	}
	return l
}

// limitsRecord is l as run.json writes it.
func limitsRecord(l Limits) runfolder.LimitsRecord {
	return runfolder.LimitsRecord{
		PrefillMS:      l.Prefill.Milliseconds(),
		InterDeltaMS:   l.InterDelta.Milliseconds(),
		NoProgressMS:   l.NoProgress.Milliseconds(),
		ThinkingOnlyMS: l.ThinkingOnlyCap().Milliseconds(),
	}
}
