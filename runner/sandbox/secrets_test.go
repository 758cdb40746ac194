package sandbox

import (
	"slices"
	"testing"
)

// The values of secret-looking variables are redacted from
// MinSecretValueLen characters (spaces around them aside), counted as
// characters, not bytes; shorter ones are words, not keys.
func TestSecretValuesFromSixCharacters(t *testing.T) {
	for _, tt := range []struct {
		name, value string
		kept        bool
	}{
		{"AGENTDESK_TEST_TOKEN_A", "abcdef", true},
		{"AGENTDESK_TEST_TOKEN_B", "abcde", false},
		{"AGENTDESK_TEST_TOKEN_C", "  abcde  ", false},
		{"AGENTDESK_TEST_TOKEN_D", "ééééé", false}, // 5 characters, 10 bytes
		{"AGENTDESK_TEST_TOKEN_E", "éééééé", true},
		{"AGENTDESK_TEST_PLAIN", "abcdefgh", false}, // the name does not look secret
	} {
		t.Setenv(tt.name, tt.value)
		if got := slices.Contains(SecretValues(), tt.value); got != tt.kept {
			t.Errorf("%s=%q: among SecretValues %v, want %v", tt.name, tt.value, got, tt.kept)
		}
	}
}
