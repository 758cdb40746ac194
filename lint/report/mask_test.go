package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// A source line printed under a diagnostic never shows a secret of the
// configuration, and the caret stays under its column.
func TestTextMasksSecretsInSourceLines(t *testing.T) {
	base := t.TempDir()
	h := lint.NewHome(base, "")
	for path, text := range map[string]string{
		filepath.Join(h.Agents, "a.md"): "---\nname: a\ndescription: b\n---\nbody\n",
		h.ConfigFile():                  `{"McpServers": {"gh": {"Command": "/bin/sh", "EnvironmentVariables": {"GITHUB_TOKEN": "ghp_abcdefgh12345"}}}}`,
		h.SecretsFile():                 `{"Providers": {"p": {"Type": "nope", "ApiKey": "sk-live-0123456789"}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{"PATH=/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Text(&out, c, Options{Dir: base}); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, secret := range []string{"ghp_abcdefgh12345", "sk-live-0123456789"} {
		if strings.Contains(text, secret) {
			t.Errorf("the report shows %q:\n%s", secret, text)
		}
	}
	if !strings.Contains(text, `{"GITHUB_TOKEN": "*****************"}`) || !strings.Contains(text, `"ApiKey": "******************"`) {
		t.Errorf("the secrets are not masked in place:\n%s", text)
	}
	// The caret of the credential warning sits under the masked value.
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.Contains(l, "GITHUB_TOKEN\": \"*") && i+1 < len(lines) {
			src, caret := l, lines[i+1]
			at := strings.Index(caret, "^")
			if at < 0 || at >= len(src) || src[at] != '"' || src[at+1] != '*' {
				t.Errorf("caret not under the value:\n%s\n%s", src, caret)
			}
		}
	}
}

// A short secret (under lint.MinSubstringSecretLen) is masked in a source
// line only where it stands as a whole token: an API key "serve" is
// starred, the word "server" beside it is not garbled.
func TestTextMasksShortSecretsOnlyAsTokens(t *testing.T) {
	base := t.TempDir()
	h := lint.NewHome(base, "")
	for path, text := range map[string]string{
		filepath.Join(h.Agents, "a.md"): "---\nname: a\ndescription: b\n---\nbody\n",
		h.SecretsFile():                 `{"Providers": {"p": {"Type": "nope", "Endpoint": "http://server.local", "ApiKey": "serve"}}}`,
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := lint.Scan(h, lint.ScanOptions{Environ: []string{"PATH=/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Text(&out, c, Options{Dir: base}); err != nil {
		t.Fatal(err)
	}
	if text := out.String(); !strings.Contains(text, `"Endpoint": "http://server.local", "ApiKey": "*****"`) {
		t.Errorf("the short key is not masked as a token alone:\n%s", text)
	}
}
