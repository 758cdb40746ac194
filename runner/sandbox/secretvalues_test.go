package sandbox

import (
	"slices"
	"testing"
)

// TestSecretValuesFollowTheEnvironment: the values are asked again
// whenever the environment changes, and a caller's changes to the answer
// do not reach the next one.
func TestSecretValuesFollowTheEnvironment(t *testing.T) {
	t.Setenv("AGENTDESK_TEST_TOKEN", "first-value-1")
	if got := SecretValues(); !slices.Contains(got, "first-value-1") {
		t.Fatalf("SecretValues() = %q, want the token's value", got)
	}
	t.Setenv("AGENTDESK_TEST_TOKEN", "second-value-2")
	got := SecretValues()
	if !slices.Contains(got, "second-value-2") || slices.Contains(got, "first-value-1") {
		t.Fatalf("SecretValues() = %q after the token changed", got)
	}
	for i := range got {
		got[i] = "changed"
	}
	if again := SecretValues(); !slices.Contains(again, "second-value-2") {
		t.Fatalf("SecretValues() = %q after a caller changed its answer", again)
	}
}
