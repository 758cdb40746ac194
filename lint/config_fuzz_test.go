package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// cfgFuzzSeeds adds the sample configurations and a few awkward texts.
func cfgFuzzSeeds(f *testing.F, add func(data []byte)) {
	files, _ := filepath.Glob(filepath.Join("testdata", "config", "*", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		add(data)
	}
	for _, s := range []string{
		``, `{}`, `[]`, `{"a":1,}`, `{"a":[1,2,],}`, `/* x */ {"a" /* y */ : // z
1}`, `{"a":"\ud83d\ude00\ud800\u0041"}`, `{"a":-0.5e+10}`, `{"a":01}`, `{"a":tru}`,
		`{"a":{},"A":1}`, `{"a":1,"a":2}`, `{"a":"x` + "\n" + `"}`, `{"a":1} x`, `{"a":[,]}`,
		"\xef\xbb\xbf{}", "\xff\xfe{\x00}\x00", `{"a":"\x"}`, `{"a" 1}`, `{,}`, `{"a":1,,}`,
		`{"SubAgents":{"Enabled":"maybe","PrefillTimeoutSeconds":"0"},"Models":{"Roles":{"Main":"x"}}}`,
	} {
		add([]byte(s))
	}
}

// FuzzConfigJSON checks the JSON reader against encoding/json: whatever
// encoding/json accepts, the reader accepts with the same values; whatever
// the reader accepts is JSON once its comments and trailing commas are
// blanked; offsets point at what they claim; errors are positioned inside
// the text. It must never panic or hang.
func FuzzConfigJSON(f *testing.F) {
	cfgFuzzSeeds(f, func(data []byte) { f.Add(data) })
	f.Fuzz(func(t *testing.T, data []byte) {
		text := DecodeText(data)
		var skipped []cfgSpan
		r := cfgReader{text: text, skipped: &skipped}
		root, err := r.document()
		bom := bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}) || bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF})
		if err != nil {
			var se *cfgSyntaxError
			if !errors.As(err, &se) || se.off < 0 || se.off > len(text) {
				t.Fatalf("error %v is not a positioned syntax error inside the text", err)
			}
			if strings.ContainsFunc(se.msg, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("error message carries a control character: %q", se.msg)
			}
			if !bom && json.Valid(data) && !strings.Contains(se.msg, "levels deep") {
				t.Fatalf("encoding/json accepts %q, the reader says %v", data, err)
			}
			return
		}
		cfgCheckOffsets(t, text, root)
		clean := []byte(text)
		for _, s := range skipped {
			for i := s.start; i < s.end; i++ {
				if clean[i] != '\n' && clean[i] != '\r' {
					clean[i] = ' '
				}
			}
		}
		if !json.Valid(clean) {
			t.Fatalf("the reader accepts %q, but blanking its comments and trailing commas leaves %q, which is not JSON", text, clean)
		}
		dec := json.NewDecoder(bytes.NewReader(clean))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatal(err)
		}
		if got := cfgToAny(root); !reflect.DeepEqual(got, want) {
			t.Fatalf("values differ from encoding/json for %q:\n got %#v\nwant %#v", clean, got, want)
		}
	})
}

// cfgCheckOffsets checks every node's offset points at its first character.
func cfgCheckOffsets(t *testing.T, text string, n *cfgNode) {
	t.Helper()
	if n.off < 0 || n.off >= len(text) {
		t.Fatalf("offset %d outside the text", n.off)
	}
	want := map[cfgKind]string{cfgObject: "{", cfgArray: "[", cfgString: `"`, cfgNumber: "-0123456789", cfgBool: "tf", cfgNull: "n"}[n.kind]
	if !strings.ContainsRune(want, rune(text[n.off])) {
		t.Fatalf("a kind %d value at offset %d starts with %q", n.kind, n.off, text[n.off])
	}
	for _, m := range n.members {
		if n.kind == cfgObject && text[m.off] != '"' {
			t.Fatalf("property %q at offset %d starts with %q", m.name, m.off, text[m.off])
		}
		cfgCheckOffsets(t, text, m.value)
	}
}

// cfgToAny converts a node to what encoding/json decodes (UseNumber; a
// later duplicate property wins).
func cfgToAny(n *cfgNode) any {
	switch n.kind {
	case cfgObject:
		m := map[string]any{}
		for _, p := range n.members {
			m[p.name] = cfgToAny(p.value)
		}
		return m
	case cfgArray:
		a := []any{}
		for _, e := range n.members {
			a = append(a, cfgToAny(e.value))
		}
		return a
	case cfgString:
		return n.text
	case cfgNumber:
		return json.Number(n.text)
	case cfgBool:
		return n.text == "true"
	}
	return nil
}

// FuzzLoadConfig runs the whole merge and bind over arbitrary netclaw.json,
// secrets.json and environment: no panic, no hang, and every diagnostic is
// a positioned config error with no control character and no secret.
func FuzzLoadConfig(f *testing.F) {
	cfgFuzzSeeds(f, func(data []byte) {
		f.Add(data, []byte(`{"Providers":{"p":{"ApiKey":"secret-value"}}}`), "NETCLAW_SubAgents__Enabled=maybe")
	})
	f.Add([]byte(`{"Providers":{"p":{"Type":"secret-value"}}}`), []byte(`{"p":{"Token":"secret-value"}}`), "NETCLAW_Models__Roles__Main=x\nNETCLAW_=y\nnetclaw_a__b__c=d")
	f.Add([]byte(`{"SkillFeeds":{"Feeds":["a",{"Name":"../x","Enabled":"maybe"},{"Name":"a"}]}}`), []byte(`{"SkillFeeds":{"Feeds":{"k":{"Name":"b","ApiKey":"secret-value"}}}}`), "NETCLAW_SkillFeeds__Feeds__10__Name=c")
	f.Add([]byte(`{"McpServers":{"a\u0007":{"Transport":"Stdio","Command":"x"},"b":{"Transport":"http","Url":"/x","Headers":{"Authorization":"Bearer abc"}}},"Tools":{"AudienceProfiles":{"Team":{"McpServersMode":"x","McpServerToolGrants":{"a":["t"]}}}}}`),
		[]byte(`{"McpServers":{"b":{"Transport":"secret-value","EnvironmentVariables":{"K":"secret-value"}}}}`), "NETCLAW_McpServers__c__Command=/nonexistent")
	f.Fuzz(func(t *testing.T, netclaw, secrets []byte, env string) {
		files := []cfgFile{
			{path: "netclaw.json", data: netclaw, exists: true},
			{path: "secrets.json", data: secrets, exists: len(secrets) > 0},
		}
		c := cfgLoad(files, strings.Split(env, "\n"))
		secretsList := c.Secrets()
		for _, d := range c.Diagnostics {
			if d.Rule != RuleConfig && d.Rule != RuleMcpServer || d.Severity != Error && d.Severity != Warning {
				t.Fatalf("diagnostic %+v is not a config or mcp-server error or warning", d)
			}
			switch d.Path {
			case "netclaw.json", "secrets.json":
				if d.Line < 0 || d.Column < 0 || (d.Line == 0) != (d.Column == 0) {
					t.Fatalf("bad position %+v", d)
				}
			case ConfigEnvironment:
				if d.Pos != (Pos{}) {
					t.Fatalf("environment diagnostic with a position: %+v", d)
				}
			default:
				t.Fatalf("diagnostic path %q", d.Path)
			}
			text := d.Message + "\n" + d.Hint
			if strings.ContainsFunc(d.Message+d.Hint, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
				t.Fatalf("diagnostic carries a control character: %q", text)
			}
			masked := strings.ReplaceAll(text, "[REDACTED]", "\x00")
			for _, s := range secretsList {
				if len(s) >= 4 && !strings.Contains(s, "\x00") && utf8.ValidString(s) && strings.Contains(masked, s) {
					t.Fatalf("diagnostic carries the secret %q: %q", s, text)
				}
			}
		}
		for _, k := range c.Keys() {
			if _, ok := c.Lookup(k); !ok {
				t.Fatalf("Keys() lists %q, Lookup does not find it", k)
			}
			if _, ok := c.Origin(k); !ok {
				t.Fatalf("Keys() lists %q, Origin does not find it", k)
			}
		}
		if c.SubAgents.PrefillTimeoutSeconds <= 0 || c.SubAgents.NoProgressTimeoutSeconds <= 0 ||
			c.Session.FirstTokenTimeoutSeconds <= 0 {
			t.Fatalf("a limit is not positive: %+v %+v", c.SubAgents, c.Session)
		}
		for name, p := range c.Providers {
			if p.Type == "" || p.Name != name {
				t.Fatalf("provider %q = %+v", name, p)
			}
		}
	})
}
