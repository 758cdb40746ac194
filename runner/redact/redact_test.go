package redact

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestRedactorString(t *testing.T) {
	r := New("planted-key-123456", "ab", "", "   ")
	tests := []struct{ in, want string }{
		{"key is planted-key-123456.", "key is [REDACTED]."},
		{"short ab values stay", "short ab values stay"},
		{"openai sk-proj-AbCdEfGhIjKlMnOpQrSt", "openai [REDACTED]"},
		{"anthropic sk-ant-api03-AbCdEfGhIjKlMnOpQr_x", "anthropic [REDACTED]"},
		{"gh ghp_0123456789abcdefghijABCDEFGHIJ012345", "gh [REDACTED]"},
		{"pat github_pat_11ABCDEFG0123456789_abcdefghij", "pat [REDACTED]"},
		{"aws AKIAIOSFODNN7EXAMPLE done", "aws [REDACTED] done"},
		{"Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y", "Authorization: Bearer [REDACTED]"},
		{"authorization: Basic dXNlcjpwYXNz", "authorization: Basic [REDACTED]"},
		{`{"x-api-key": "abc123def456"}`, `{"x-api-key": "[REDACTED]"}`},
		{"api_key=0123456789abcdef&x=1", "api_key=[REDACTED]&x=1"},
		{"a task-list and sk-learn and the bearer of news", "a task-list and sk-learn and the bearer of news"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("%q\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

// TestRedactorShortValuesOnlyAsTokens: a configured value shorter than
// MinSubstringSecretLen (an MCP server's argument "serve", a 6-character
// password) is redacted where it stands as a whole token, never inside
// another word ("server" stays "server"); a longer one is redacted
// wherever it appears, glued to other text too; one shorter than
// MinSecretLen is not redacted.
func TestRedactorShortValuesOnlyAsTokens(t *testing.T) {
	r := New("serve", "pa55wd", "planted-key-123456", "über", "ab")
	tests := []struct{ name, in, want string }{
		{"inside a word", "the MCP server is up; observe it", "the MCP server is up; observe it"},
		{"a whole word", "npx my-mcp serve --port 80", "npx my-mcp [REDACTED] --port 80"},
		{"after =", "ARG=serve", "ARG=[REDACTED]"},
		{"quoted", `{"args":["serve"]}`, `{"args":["[REDACTED]"]}`},
		{"between hyphens", "run-serve-now", "run-[REDACTED]-now"},
		{"before a digit", "serve2 and pa55wd1", "serve2 and pa55wd1"},
		{"after _", "my_serve", "my_serve"},
		{"a password in a URL", "https://bob:pa55wd@example.com", "https://bob:[REDACTED]@example.com"},
		{"a letter outside ASCII next to it", "überall über", "überall [REDACTED]"},
		{"twice, one glued", "serve served serve", "[REDACTED] served [REDACTED]"},
		{"a long value glued to words", "xplanted-key-123456y", "x[REDACTED]y"},
		{"a long value in a URL", "https://h/?k=planted-key-123456&z=1", "https://h/?k=[REDACTED]&z=1"},
		{"too short to redact", "ab cab ab", "ab cab ab"},
	}
	for _, tt := range tests {
		if got := r.String(tt.in); got != tt.want {
			t.Errorf("%s: %q\n got %q\nwant %q", tt.name, tt.in, got, tt.want)
		}
	}
}

func TestStreamRedactorSplitsAnywhere(t *testing.T) {
	secret := "planted-key-123456"
	r := New(secret, "two words secret", "serve")
	texts := []string{
		"Use planted-key-123456 here and then Authorization: Bearer abcdefghijklmnop end",
		"x-api-key: zzzzzzzzzzzz and sk-ant-api03-AbCdEfGhIjKlMnOpQr then two words secret.",
		"no secrets at all, just words\nand lines\n",
		"héllo wörld планted",
		"the server: serve --port=serve,served;xserve serve",
	}
	for _, text := range texts {
		want := r.String(text)
		// Split the text at every pair of positions: three pieces.
		for i := 0; i <= len(text); i++ {
			for j := i; j <= len(text); j += 3 {
				s := r.Stream()
				got := s.Write(text[:i]) + s.Write(text[i:j]) + s.Write(text[j:]) + s.Flush()
				if got != want {
					t.Fatalf("split at %d,%d of %q:\n got %q\nwant %q", i, j, text, got, want)
				}
			}
		}
	}
}

func TestStreamRedactorNeverShowsASecret(t *testing.T) {
	secret := "planted-key-123456"
	r := New(secret)
	text := "before planted-key-123456 after"
	s := r.Stream()
	var shown strings.Builder
	for i := 0; i < len(text); i++ {
		out := s.Write(text[i : i+1])
		shown.WriteString(out)
		if strings.Contains(shown.String(), "planted") {
			t.Fatalf("after %d bytes the stream showed %q", i+1, shown.String())
		}
	}
	shown.WriteString(s.Flush())
	if shown.String() != "before [REDACTED] after" {
		t.Errorf("got %q", shown.String())
	}
}

func TestStreamRedactorLetsLongRunsThrough(t *testing.T) {
	s := New().Stream()
	blob := strings.Repeat("A", maxHold+10)
	out := s.Write(blob)
	if len(out) != len(blob)-holdTail {
		t.Errorf("held back %d bytes, want %d", len(blob)-len(out), holdTail)
	}
	if out+s.Flush() != blob {
		t.Error("text changed")
	}
}

func BenchmarkRedactorString(b *testing.B) {
	r := New("planted-key-123456", "another-secret-value")
	text := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.redact(text)
	}
}

// BenchmarkRedactorContext redacts a text that says "api" without a key,
// as every NetClaw context does: no pattern's hint is in it, so no
// expression runs.
func BenchmarkRedactorContext(b *testing.B) {
	r := New("planted-key-123456")
	text := strings.Repeat("Call the tool api through MCP; the GitHub API answers. ", 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.redact(text)
	}
}

// BenchmarkRedactorStringAgain redacts the same long text (a system
// prompt) with a new redactor of the same secrets each time, as a suite's
// runs do: the memo answers.
func BenchmarkRedactorStringAgain(b *testing.B) {
	text := strings.Repeat("Use the task- tools and the API; never print sk- keys. ", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		New("planted-key-123456", "another-secret-value").String(text)
	}
}

func BenchmarkStreamRedactor(b *testing.B) {
	r := New("planted-key-123456")
	words := strings.Fields(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 200))
	b.ReportAllocs()
	for b.Loop() {
		s := r.Stream()
		for _, w := range words {
			s.Write(w + " ")
		}
		s.Flush()
	}
}

// FuzzStreamRedactor checks that a stream, split anywhere, redacts exactly
// as the whole text is redacted, and never lets the planted key through.
func FuzzStreamRedactor(f *testing.F) {
	f.Add("key planted-key-123456 and Bearer abcdefghijk", uint16(5), uint16(17))
	f.Add("x-api-key: zzzzzzzzzzzzzz sk-ant-api03-AbCdEfGhIjKlMnOpQr", uint16(0), uint16(30))
	f.Add("api_key=0123456789abcdef&planted-key-123456", uint16(12), uint16(12))
	f.Add("server serve xserve serve_ serve", uint16(5), uint16(11))
	f.Fuzz(func(t *testing.T, text string, a, b uint16) {
		r := New("planted-key-123456", "serve")
		i, j := int(a)%(len(text)+1), int(b)%(len(text)+1)
		if i > j {
			i, j = j, i
		}
		s := r.Stream()
		got := s.Write(text[:i]) + s.Write(text[i:j]) + s.Write(text[j:]) + s.Flush()
		if want := r.String(text); got != want {
			t.Fatalf("split at %d,%d of %q:\n got %q\nwant %q", i, j, text, got, want)
		}
		if strings.Contains(got, "planted-key-123456") {
			t.Fatalf("the key got through: %q", got)
		}
	})
}

// TestStreamRedactorLongRunKeepsSecretsWhole streams a run of text with no
// white space, longer than a stream holds back, with a secret where the
// hold would cut: the secret comes out redacted, not in two halves.
func TestStreamRedactorLongRunKeepsSecretsWhole(t *testing.T) {
	secret := "planted-key-0123456789abcdef0123"
	r := New(secret)
	for _, tail := range []int{holdTail - len(secret) + 1, holdTail - len(secret)/2, holdTail - 1} {
		for _, pieces := range []int{1, 7} {
			text := strings.Repeat("A", maxHold) + secret + strings.Repeat("B", tail)
			s := r.Stream()
			var out strings.Builder
			step := len(text)/pieces + 1
			for i := 0; i < len(text); i += step {
				out.WriteString(s.Write(text[i:min(i+step, len(text))]))
			}
			out.WriteString(s.Flush())
			if got, want := out.String(), r.String(text); got != want {
				t.Errorf("tail %d, %d pieces: the secret came out as %q", tail, pieces, got[maxHold-4:min(maxHold+len(secret)+4, len(got))])
			}
		}
	}
}

// Long texts are remembered by the redactor's secrets: the same text
// redacted again, by this redactor or another with the same secrets, reads
// the same, and a redactor with other secrets redacts its own.
func TestRedactorStringMemo(t *testing.T) {
	long := strings.Repeat("a system prompt of some length, ", 64)
	tests := []struct {
		name    string
		secrets []string
		text    string
		want    string
	}{
		{"no secret in it", []string{"planted-key-123456"}, long + "end", long + "end"},
		{"a configured secret", []string{"planted-key-123456"}, long + "planted-key-123456", long + Redacted},
		{"the same text, another secret", []string{"some-other-secret"}, long + "planted-key-123456", long + "planted-key-123456"},
		{"the same secret among two", []string{"some-other-secret", "planted-key-123456"}, long + "planted-key-123456", long + Redacted},
		{"secrets that join alike", []string{"planted-key-1", "23456"}, long + "planted-key-123456", long + Redacted + Redacted},
		{"a pattern", nil, long + "sk-proj-AbCdEfGhIjKlMnOpQrSt", long + Redacted},
	}
	for round := 0; round < 2; round++ {
		for _, tt := range tests {
			if got := New(tt.secrets...).String(tt.text); got != tt.want {
				t.Errorf("round %d, %s: got ...%q, want ...%q", round, tt.name, got[len(long):], tt.want[len(long):])
			}
		}
	}
	// Past the memo's size it starts again: every answer still right.
	for i := 0; i < 2*redactMemoEntries; i++ {
		text := fmt.Sprintf("%s %d planted-key-123456", long, i)
		if got, want := New("planted-key-123456").String(text), fmt.Sprintf("%s %d %s", long, i, Redacted); got != want {
			t.Fatalf("text %d: got ...%q", i, got[len(long):])
		}
	}
}

// TestStreamRedactorLongRunShortValue: in a run with no white space, cut
// where a stream's hold ends, a short value is judged by the characters
// around it in the whole text: hidden as a token, kept inside a word.
func TestStreamRedactorLongRunShortValue(t *testing.T) {
	r := New("serve")
	for _, around := range []struct{ before, after string }{{"/", "/"}, {"/", "r"}, {"x", "/"}, {"/", ""}} {
		// The hold cuts at maxHold+shift: before the value, just after
		// it, and one further.
		for _, shift := range []int{1, 6, 7} {
			for _, pieces := range []int{1} {
				body := strings.Repeat("A", maxHold) + around.before + "serve" + around.after
				text := body + strings.Repeat("/", max(holdTail+shift-len(around.before)-5-len(around.after), 0))
				s := r.Stream()
				var out strings.Builder
				step := len(text)/pieces + 1
				for i := 0; i < len(text); i += step {
					out.WriteString(s.Write(text[i:min(i+step, len(text))]))
				}
				out.WriteString(s.Flush())
				if got, want := out.String(), r.String(text); got != want {
					t.Errorf("%q…%q, shift %d, %d pieces: got …%q, want …%q", around.before, around.after, shift, pieces, got[maxHold-2:maxHold+12], want[maxHold-2:maxHold+12])
				}
			}
		}
	}
	if got := r.String("/serve/"); got != "/[REDACTED]/" {
		t.Errorf("got %q", got)
	}
}

// mayEndInLabel is never false where labelAtEnd matches.
func TestMayEndInLabel(t *testing.T) {
	for _, s := range labelSeeds {
		checkMayEndInLabel(t, s)
	}
	for _, s := range []string{"Authorization: Bearer ", "x-api-key: '", "BASIC\t", "api_key=", "toKen \"", "baſic "} {
		if !mayEndInLabel(s) {
			t.Errorf("%q: a label at the end not seen", s)
		}
	}
	for _, s := range []string{"the answer is 42 ", "a bearer of news.", "", " \t"} {
		if mayEndInLabel(s) {
			t.Errorf("%q: no label at the end, but the expression would run", s)
		}
	}
}

var labelSeeds = []string{"", "x", "Bearer", "bearer ", "BEARER\t\"", "a bearer", "xbearer ", "basic", "Basic '", "token", "TOKEN \n",
	"authorization:", `authorization" = '`, "x-api-key=", "api-key :", "apikey=\"", "api_key: ", "toKen ", "to\u212aen ", "baſic", "foo: ", "bar= ", "clinic ", "open "}

func checkMayEndInLabel(t *testing.T, s string) {
	t.Helper()
	if labelAtEnd.MatchString(s) && !mayEndInLabel(s) {
		t.Fatalf("%q ends in a label, and mayEndInLabel says it cannot", s)
	}
}

func FuzzMayEndInLabel(f *testing.F) {
	for _, s := range labelSeeds {
		f.Add(s)
	}
	f.Fuzz(checkMayEndInLabel)
}

// BenchmarkRedactorShortSecret redacts a text full of a short secret's
// near misses ("server") and a few whole ones: the whole-token path.
func BenchmarkRedactorShortSecret(b *testing.B) {
	r := New("planted-key-123456", "serve")
	text := strings.Repeat("The MCP server is up; run serve --port 80 and observe the server log. ", 100)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.redact(text)
	}
}

// hintSeeds hold a match of each secret pattern, some in folded case
// (the Kelvin sign folds to k, the long s to s).
var hintSeeds = []string{
	"sk-ant-api03-AbCdEfGhIjKlMnOpQr", "ghp_abcdefghijklmnopqrstuvwxyz", "github_pat_abcdefghijklmnopqrstuvwxyz",
	"AKIAABCDEFGHIJKLMNOP", "ASIAABCDEFGHIJKLMNOP", "BEARER abcdefghijk", "Authorization: Basic abc",
	"x-api-key: zzzzzzzzzzzzzz", "API_KEY=0123456789abcdef", "api-key: 'abcdefghij'", "ApiKey=abcdefghij",
	"api\u212aey=abcdefghij", "\"api_key\": \"abcdefghijkl\"", "The API is up; its key: abcdefghijkl",
}

// checkHints fails when a secret pattern matches s but its hints say it
// cannot: the hints would skip a secret.
func checkHints(t *testing.T, s string) {
	t.Helper()
	lower := lowerOnce(&s)
	set := patternsIn(s)
	for i := range secretPatterns {
		p := &secretPatterns[i]
		if p.re.MatchString(s) && !p.applies(s, lower) {
			t.Fatalf("pattern %s matches %q, and its hints %q say it cannot", p.re, s, p.hints)
		}
		if in := set&(1<<i) != 0; in != p.applies(s, lower) {
			t.Fatalf("patternsIn(%q) says pattern %s applies: %v; its hints say %v", s, p.re, in, !in)
		}
	}
}

// TestFoldsToASCII: the runes outside ASCII that lowercase to ASCII are
// exactly foldsToASCII, on which patternsIn's single pass relies.
func TestFoldsToASCII(t *testing.T) {
	var got []string
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if utf8.ValidRune(r) && unicode.ToLower(r) < utf8.RuneSelf {
			got = append(got, string(r))
		}
	}
	if !slices.Equal(got, foldsToASCII) {
		t.Fatalf("runes that lowercase to ASCII: %+q; foldsToASCII holds %+q", got, foldsToASCII)
	}
}

// TestPatternsIn: the one pass finds what each pattern's hints find, in
// either case, at the start, the end, split by other text, and beside
// the runes that lowercase to ASCII.
func TestPatternsIn(t *testing.T) {
	texts := []string{"", "plain words", "sk", "sk-", "xsk-y", "GHP_", "ghp_", "Github_Pat_", "github_pat_", "akia AKIA", "asIA ASIA",
		"BeArEr", "bearer", "bear er", "AUTHORIZATION", "X-API-KEY", "x-api-ke", "APIKEY", "Api_Key", "api-KEY", "api key",
		"api\u212aey", "x-api-\u212aey", "\u0130apikey", "authorization\u0130", "b\u00e9arer bearer", "\u212a", "\xffbearer\xff"}
	for _, s := range texts {
		checkHints(t, s)
		checkHints(t, strings.ToUpper(s))
		checkHints(t, "héllo "+s+" wörld")
	}
	for _, s := range hintSeeds {
		checkHints(t, s)
		checkHints(t, strings.ToLower(s))
	}
}

// TestSecretPatternHints: every match of a pattern holds one of its
// hints, and a NetClaw context, which says "api" without a key, runs no
// pattern.
func TestSecretPatternHints(t *testing.T) {
	for _, s := range hintSeeds {
		checkHints(t, s)
	}
	ctx := "Use the GitHub API and the MCP server's api; call tools through the tool api."
	lower := lowerOnce(&ctx)
	for i := range secretPatterns {
		if p := &secretPatterns[i]; p.applies(ctx, lower) {
			t.Errorf("pattern %s runs on a text it cannot match", p.re)
		}
	}
}

func FuzzSecretPatternHints(f *testing.F) {
	for _, s := range hintSeeds {
		f.Add(s)
	}
	f.Fuzz(checkHints)
}

// Shared gives the same redactor for the same secrets, a new one for
// others (order, count or a length boundary told apart), and each
// redacts as New's does.
func TestSharedIsNewOnce(t *testing.T) {
	text := "key sk-abcdef0123456789 and hunter2hunter2 and ab:cdefghijklmnop"
	a := Shared("sk-abcdef0123456789", "hunter2hunter2")
	if b := Shared("sk-abcdef0123456789", "hunter2hunter2"); b != a {
		t.Error("the same secrets gave two redactors")
	}
	for _, other := range [][]string{{"hunter2hunter2", "sk-abcdef0123456789"}, {"sk-abcdef0123456789"}, {"ab:cdefghijklmnop"}, {"ab", "cdefghijklmnop"}} {
		o := Shared(other...)
		if o == a {
			t.Errorf("%q gave the redactor of other secrets", other)
		}
		if got, want := o.String(text), New(other...).String(text); got != want {
			t.Errorf("%q: Shared redacts %q, New %q", other, got, want)
		}
	}
	if got, want := a.String(text), New("sk-abcdef0123456789", "hunter2hunter2").String(text); got != want {
		t.Errorf("Shared redacts %q, New %q", got, want)
	}
}
