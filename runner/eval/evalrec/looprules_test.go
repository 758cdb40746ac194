package evalrec

import "testing"

// TestLoopRulesChange: a recording made before the loop-rules part existed
// is stale, and the message says the loop's rules changed what it means.
func TestLoopRulesChange(t *testing.T) {
	limits := NewPart(PartLimits, "prefill 30m0s, inter-delta 10m0s, no-progress 20m0s, max tokens 0", "")
	old := Fingerprint{NewPart(PartModel, "m", ""), limits}
	now := Fingerprint{NewPart(PartModel, "m", ""), limits, NewPart(PartLoopRules, LoopRulesValue, "")}
	cs := Compare(old, now)
	if len(cs) != 1 {
		t.Fatalf("changes %+v", cs)
	}
	want := "loop rules changed since the recording: today's runs end as NetClaw's do (" + LoopRulesValue +
		"), so a recorded run may have ended where a run now goes on; record it again"
	if got := ChangeList(cs); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if cs := Compare(now, now); len(cs) != 0 {
		t.Errorf("a recording under today's rules: %+v", cs)
	}
}
