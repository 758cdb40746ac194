package wire

import (
	"strings"
	"testing"
)

// TestTableDescribesEveryProtocol: each protocol has one row, its name
// parses back to it, each of its provider types resolves to it, and the
// row is complete.
func TestTableDescribesEveryProtocol(t *testing.T) {
	if got := Protocols(); len(got) != 3 {
		t.Fatalf("Protocols() = %v, want the three", got)
	}
	for _, p := range Protocols() {
		sp := p.Spec()
		if sp == nil || sp.Protocol != p || sp.Path == nil || sp.Auth == nil || sp.Accept == "" ||
			sp.body == nil || sp.newDecoder == nil || sp.newEncoder == nil || sp.Finish.Stop == "" {
			t.Fatalf("%v: incomplete row %+v", p, sp)
		}
		if got, err := Parse(p.String()); err != nil || got != p {
			t.Errorf("Parse(%q) = %v, %v", p.String(), got, err)
		}
		for _, pt := range sp.ProviderTypes {
			if got, err := ProtocolFor(strings.ToUpper(pt)); err != nil || got != p {
				t.Errorf("ProtocolFor(%q) = %v, %v, want %v", pt, got, err, p)
			}
		}
	}
	if Protocol(9).Spec() != nil || Protocol(9).String() != "protocol(9)" {
		t.Error("a value that is no protocol has a row")
	}
	if _, err := Parse("gemini"); err == nil || err.Error() != `protocol "gemini" is not ollama, openai or anthropic` {
		t.Errorf("Parse(gemini): %v", err)
	}
	if Recorded("") != Ollama || Recorded("anthropic") != Anthropic {
		t.Error("Recorded: an unknown name is Ollama's, a known one its own")
	}
	_, err := ProtocolFor("gemini")
	if want := `unknown provider type "gemini": use ollama, openai, openai-compatible, openrouter, veniceai or anthropic`; err == nil || err.Error() != want {
		t.Errorf("ProtocolFor(gemini): %v, want %s", err, want)
	}
}
