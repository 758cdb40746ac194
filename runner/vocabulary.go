package runner

// The words a run is shown with, the same in `agentdesk runs`, the closing
// line of `agentdesk run`, result.md and the browser: its state (Running,
// Completed, Partial, Failed, Cancelled, and Lost or Unreadable as read
// back), its outcome (Completed, Partial, Failed; none while it runs) and
// its reason (a reason id; none for a Completed run). A Cancelled run's
// outcome is Failed and its reason cancelled_by_parent, as the runtime
// writes it. run.json holds the same values, with "" for none.

// None is how an empty outcome or reason is shown.
const None = "none"

// ReasonText is a reason as shown: the id, or None.
func ReasonText(reason string) string {
	if reason == "" {
		return None
	}
	return reason
}

// OutcomeText is an outcome as shown: Completed, Partial, Failed, or None
// for a run that has not ended.
func OutcomeText(o Outcome) string {
	if o == "" {
		return None
	}
	return string(o)
}

// StatusText is a run in one phrase: its state, then its reason when it
// has one ("Completed", "Cancelled · cancelled_by_parent", "Failed ·
// output_truncated", "Running", "Lost").
func StatusText(r *Record) string {
	s := r.State
	if s == "" {
		s = OutcomeText(r.Outcome)
	}
	if r.Reason != "" {
		s += " · " + r.Reason
	}
	return s
}
