package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/agentdesk/agentdesk/lint/golden"
	"github.com/agentdesk/agentdesk/lint/hometest"
)

// cfgHome writes the named files (netclaw.json, secrets.json) into a new
// home's config folder, which it makes even when files is empty, and
// returns the home.
func cfgHome(t testing.TB, files map[string]string) Home {
	t.Helper()
	h := NewHome(t.TempDir(), "")
	if err := os.MkdirAll(h.ConfigDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hometest.Write(t, h.ConfigDir, files)
	return h
}

func TestDefaultConfig(t *testing.T) {
	c := DefaultConfig()
	want := SubAgentsConfig{Enabled: true, PrefillTimeoutSeconds: 1800, NoProgressTimeoutSeconds: 1200}
	if c.SubAgents != want {
		t.Errorf("SubAgents = %+v, want %+v", c.SubAgents, want)
	}
	if want := (SessionConfig{FirstTokenTimeoutSeconds: 600}); c.Session != want {
		t.Errorf("Session = %+v, want %+v", c.Session, want)
	}
	if len(c.Providers)+len(c.Models.Roles)+len(c.Models.Definitions)+len(c.Models.Legacy)+len(c.Diagnostics) != 0 || c.Present {
		t.Errorf("DefaultConfig has providers, models, diagnostics or Present: %+v", c)
	}
	if r, ok := RuleByID(RuleConfig); !ok || r.Runtime != Error || r.Publish != Error {
		t.Errorf("rule %s = %+v, want Error under both profiles", RuleConfig, r)
	}
}

func TestLoadConfigDefaults(t *testing.T) {
	for name, h := range map[string]Home{
		"no home":           NewHome(filepath.Join(t.TempDir(), "missing"), ""),
		"empty config dir":  cfgHome(t, nil),
		"zero Home":         {},
		"only empty object": cfgHome(t, map[string]string{"netclaw.json": "{}"}),
	} {
		t.Run(name, func(t *testing.T) {
			c := LoadConfig(h, []string{"PATH=/usr/bin", "HOME=/root"})
			if len(c.Diagnostics) != 0 {
				t.Fatalf("diagnostics: %v", c.Diagnostics)
			}
			d := DefaultConfig()
			if c.SubAgents != d.SubAgents || c.Session != d.Session || len(c.Providers) != 0 || len(c.Models.Roles) != 0 {
				t.Errorf("got %+v, want the defaults", c)
			}
			if c.Present != (name == "only empty object") {
				t.Errorf("Present = %v", c.Present)
			}
			if len(c.Keys()) != 0 || len(c.Secrets()) != 0 {
				t.Errorf("keys %v, secrets %v, want none", c.Keys(), c.Secrets())
			}
		})
	}
}

// TestLoadConfigLayers checks netclaw.json < secrets.json < environment,
// per leaf key.
func TestLoadConfigLayers(t *testing.T) {
	const netclaw = `{
  "SubAgents": { "Enabled": true, "PrefillTimeoutSeconds": 900, "NoProgressTimeoutSeconds": 100 },
  "Providers": {
    "openai": { "Type": "openai", "Endpoint": "https://api.openai.com/v1", "ApiKey": "from-file" }
  }
}`
	const secrets = `{
  "subagents": { "prefilltimeoutseconds": "120" },
  "Providers": { "OpenAI": { "ApiKey": "from-secrets" } }
}`
	tests := []struct {
		name    string
		files   map[string]string
		environ []string
		check   func(t *testing.T, h Home, c *Config)
	}{{
		name:  "netclaw.json alone",
		files: map[string]string{"netclaw.json": netclaw},
		check: func(t *testing.T, h Home, c *Config) {
			cfgWantProvider(t, c, "OPENAI", Provider{Name: "openai", Type: "openai", Endpoint: "https://api.openai.com/v1", APIKey: "from-file"})
			cfgWantInt(t, "PrefillTimeoutSeconds", c.SubAgents.PrefillTimeoutSeconds, 900)
			cfgWantOrigin(t, c, "Providers:openai:ApiKey", ConfigOrigin{Path: h.ConfigFile(), Pos: Pos{4, 86}})
		},
	}, {
		name:  "secrets.json overrides netclaw.json key by key",
		files: map[string]string{"netclaw.json": netclaw, "secrets.json": secrets},
		check: func(t *testing.T, h Home, c *Config) {
			cfgWantProvider(t, c, "openai", Provider{Name: "openai", Type: "openai", Endpoint: "https://api.openai.com/v1", APIKey: "from-secrets"})
			cfgWantInt(t, "PrefillTimeoutSeconds", c.SubAgents.PrefillTimeoutSeconds, 120)
			cfgWantOrigin(t, c, "providers:openai:apikey", ConfigOrigin{Path: h.SecretsFile(), Pos: Pos{3, 40}})
			if len(c.Providers) != 1 {
				t.Errorf("providers %v, want one (names ignore case)", c.Providers)
			}
			if got := c.Keys(); !reflect.DeepEqual(got, []string{
				"Providers:openai:ApiKey", "Providers:openai:Endpoint", "Providers:openai:Type",
				"SubAgents:Enabled", "SubAgents:NoProgressTimeoutSeconds", "SubAgents:PrefillTimeoutSeconds",
			}) {
				t.Errorf("Keys() = %q", got)
			}
		},
	}, {
		name:  "environment overrides both",
		files: map[string]string{"netclaw.json": netclaw, "secrets.json": secrets},
		environ: []string{
			"NETCLAW_SubAgents__Enabled=false",
			"NETCLAW_Providers__openai__ApiKey=from-env",
			"NETCLAW_SUBAGENTS__PREFILLTIMEOUTSECONDS=42",
		},
		check: func(t *testing.T, h Home, c *Config) {
			if c.SubAgents.Enabled {
				t.Error("SubAgents.Enabled = true, want false from the environment")
			}
			cfgWantProvider(t, c, "openai", Provider{Name: "openai", Type: "openai", Endpoint: "https://api.openai.com/v1", APIKey: "from-env"})
			cfgWantInt(t, "PrefillTimeoutSeconds", c.SubAgents.PrefillTimeoutSeconds, 42)
			cfgWantOrigin(t, c, "Providers:OpenAI:ApiKey", ConfigOrigin{Path: ConfigEnvironment, Variable: "NETCLAW_Providers__openai__ApiKey"})
			if v, _ := c.Lookup("subagents:enabled"); v != "false" {
				t.Errorf("Lookup(subagents:enabled) = %q", v)
			}
		},
	}, {
		name: "environment alone, prefix in any case, later variables win",
		environ: []string{
			"netclaw_subagents__enabled=false",
			"NETCLAW_Providers__groq__Type=openai-compatible",
			"NETCLAW_Providers__groq__Endpoint=https://api.groq.com/openai/v1",
			"NETCLAW_Session__FirstTokenTimeoutSeconds=10",
			"NETCLAW_SESSION__FIRSTTOKENTIMEOUTSECONDS=12",
		},
		check: func(t *testing.T, h Home, c *Config) {
			if c.SubAgents.Enabled {
				t.Error("netclaw_subagents__enabled=false not applied")
			}
			cfgWantProvider(t, c, "groq", Provider{Name: "groq", Type: "openai-compatible", Endpoint: "https://api.groq.com/openai/v1"})
			cfgWantInt(t, "FirstTokenTimeoutSeconds", c.Session.FirstTokenTimeoutSeconds, 12)
			if c.Present {
				t.Error("Present without netclaw.json")
			}
		},
	}, {
		name: "variables that are not NETCLAW_ configuration",
		environ: []string{
			"NETCLAW__SubAgents__Enabled=false", // "__" becomes ':' before the prefix is matched
			"NETCLAWX_SubAgents__Enabled=false",
			"NETCLAW_=x",
			"NETCLAW_SubAgents__Enabled",
			"=NETCLAW_SubAgents__Enabled=false",
			"SubAgents__Enabled=false",
		},
		check: func(t *testing.T, h Home, c *Config) {
			if !c.SubAgents.Enabled || len(c.Keys()) != 0 {
				t.Errorf("Enabled = %v, keys %q; want the default and no keys", c.SubAgents.Enabled, c.Keys())
			}
		},
	}, {
		name:    "an empty variable empties a value: the default stands",
		files:   map[string]string{"netclaw.json": netclaw},
		environ: []string{"NETCLAW_SubAgents__PrefillTimeoutSeconds="},
		check: func(t *testing.T, h Home, c *Config) {
			cfgWantInt(t, "PrefillTimeoutSeconds", c.SubAgents.PrefillTimeoutSeconds, 1800)
			if v, ok := c.Lookup("SubAgents:PrefillTimeoutSeconds"); !ok || v != "" {
				t.Errorf("Lookup = %q, %v; want \"\", true", v, ok)
			}
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := cfgHome(t, tt.files)
			c := LoadConfig(h, tt.environ)
			if len(c.Diagnostics) != 0 {
				t.Fatalf("diagnostics: %v", c.Diagnostics)
			}
			tt.check(t, h, c)
		})
	}
}

func cfgWantInt(t *testing.T, what string, got, want int) {
	t.Helper()
	if got != want {
		t.Errorf("%s = %d, want %d", what, got, want)
	}
}

func cfgWantProvider(t *testing.T, c *Config, name string, want Provider) {
	t.Helper()
	got, ok := c.Provider(name)
	if !ok || got != want {
		t.Errorf("Provider(%q) = %+v, %v; want %+v", name, got, ok, want)
	}
}

func cfgWantOrigin(t *testing.T, c *Config, key string, want ConfigOrigin) {
	t.Helper()
	got, ok := c.Origin(key)
	if !ok || got != want {
		t.Errorf("Origin(%q) = %+v, %v; want %+v", key, got, ok, want)
	}
}

// TestConfigCaseInsensitive checks keys, names and lookups ignore case, as
// Microsoft.Extensions.Configuration does.
func TestConfigCaseInsensitive(t *testing.T) {
	h := cfgHome(t, map[string]string{"netclaw.json": `{
  "subagents": { "ENABLED": "False", "noProgressTimeoutSeconds": " 300 " },
  "PROVIDERS": { "Local": { "type": "OLLAMA", "ENDPOINT": "http://127.0.0.1:11434" } },
  "models": {
    "roles": { "main": "Qwen" },
    "DEFINITIONS": {
      "qwen": { "PROVIDER": "local", "modelID": "qwen3:30b", "contextwindow": "8192" },
      "other": { "provider": "LOCAL", "ModelId": "a" },
      "third": { "Provider": "Local", "MODELID": "b" }
    }
  }
}`})
	c := LoadConfig(h, nil)
	if len(c.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", c.Diagnostics)
	}
	if c.SubAgents.Enabled || c.SubAgents.NoProgressTimeoutSeconds != 300 {
		t.Errorf("SubAgents = %+v", c.SubAgents)
	}
	cfgWantProvider(t, c, "LOCAL", Provider{Name: "Local", Type: "ollama", Endpoint: "http://127.0.0.1:11434"})
	if role, ok := c.Role("MAIN"); !ok || role != "Qwen" {
		t.Errorf("Role(MAIN) = %q, %v", role, ok)
	}
	want := map[string]ModelDefinition{
		"QWEN":  {Provider: "local", ModelID: "qwen3:30b", ContextWindow: 8192},
		"Other": {Provider: "LOCAL", ModelID: "a"},
		"third": {Provider: "Local", ModelID: "b"},
	}
	for name, w := range want {
		if d, ok := c.Definition(name); !ok || d != w {
			t.Errorf("Definition(%q) = %+v, %v; want %+v", name, d, ok, w)
		}
	}
	if v, ok := c.Lookup("Models:Definitions:Qwen:ModelId"); !ok || v != "qwen3:30b" {
		t.Errorf("Lookup = %q, %v", v, ok)
	}
	if _, ok := c.Lookup("Models.Definitions.qwen.ModelId"); ok {
		t.Error("Lookup accepted '.' as a level separator")
	}
}

// TestConfigJSONValues checks how JSON values become flat keys.
func TestConfigJSONValues(t *testing.T) {
	h := cfgHome(t, map[string]string{"netclaw.json": `// leading comment
{
  /* block
     comment with "quotes", // and a { brace */
  "Text": "a // not a comment /* nor this */, }",
  "Escapes": "caf\u00e9\n\t\"q\" \ud83d\ude00 \ud800",
  "Numbers": { "Int": 12, "Neg": -0.5, "Exp": 1E+3, "Zero": 0 },
  "Flags": [ true, false, null, ],
  "Empty": {},
  "EmptyList": [ ],
  "Nested": { "Deep": [ { "Name": "x", }, [ 1, 2 ] ] },
  "A:B": "colon in a name is a level",
  "Trailing": { "Comma": 1, }, // trailing commas are fine
}
// trailing comment`})
	c := LoadConfig(h, nil)
	if len(c.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", c.Diagnostics)
	}
	for key, want := range map[string]string{
		"Text":               "a // not a comment /* nor this */, }",
		"Escapes":            "café\n\t\"q\" 😀 \uFFFD",
		"Numbers:Int":        "12",
		"Numbers:Neg":        "-0.5",
		"Numbers:Exp":        "1E+3",
		"Numbers:Zero":       "0",
		"Flags:0":            "true",
		"Flags:1":            "false",
		"Flags:2":            "",
		"Empty":              "",
		"EmptyList":          "",
		"Nested:Deep:0:Name": "x",
		"Nested:Deep:1:1":    "2",
		"a:b":                "colon in a name is a level",
		"Trailing:Comma":     "1",
	} {
		if got, ok := c.Lookup(key); !ok || got != want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", key, got, ok, want)
		}
	}
	for _, key := range []string{"Flags", "Flags:3", "Nested", "Nested:Deep", "Numbers"} {
		if v, ok := c.Lookup(key); ok {
			t.Errorf("Lookup(%q) = %q, true; a section holds no value", key, v)
		}
	}
	if o, _ := c.Origin("Nested:Deep:1:1"); o.Pos != (Pos{11, 48}) {
		t.Errorf("Origin(Nested:Deep:1:1).Pos = %v, want 11:48", o.Pos)
	}
}

// TestConfigEncodings checks byte-order marks and invalid UTF-8, as .NET's
// StreamReader reads them.
func TestConfigEncodings(t *testing.T) {
	utf16le := func(s string) string {
		b := []byte{0xFF, 0xFE}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	utf16be := func(s string) string {
		b := []byte{0xFE, 0xFF}
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u>>8), byte(u))
		}
		return string(b)
	}
	const doc = `{"Providers": {"x": {"Endpoint": "http://é"}}}`
	for name, tc := range map[string]struct{ file, want string }{
		"UTF-8 BOM":    {"\xEF\xBB\xBF" + doc, "http://é"},
		"UTF-16 LE":    {utf16le(doc), "http://é"},
		"UTF-16 BE":    {utf16be(doc), "http://é"},
		"invalid byte": {`{"Providers": {"x": {"Endpoint": "http://` + "\xff\xfe" + `"}}}`, "http://\uFFFD\uFFFD"},
	} {
		t.Run(name, func(t *testing.T) {
			c := LoadConfig(cfgHome(t, map[string]string{"netclaw.json": tc.file}), nil)
			if len(c.Diagnostics) != 0 {
				t.Fatalf("diagnostics: %v", c.Diagnostics)
			}
			if p, _ := c.Provider("x"); p.Endpoint != tc.want {
				t.Errorf("Endpoint = %q, want %q", p.Endpoint, tc.want)
			}
		})
	}
}

// cfgWant is one expected diagnostic.
type cfgWant struct {
	file      string // "netclaw.json", "secrets.json" or ConfigEnvironment
	line, col int
	rule      string // RuleConfig when empty
	contains  []string
}

func TestConfigDiagnostics(t *testing.T) {
	tests := []struct {
		name    string
		netclaw string
		secrets string
		environ []string
		want    []cfgWant
		check   func(t *testing.T, c *Config)
	}{{
		name: "syntax: missing comma",
		netclaw: `{
  "SubAgents": {
    "Enabled": false
    "PrefillTimeoutSeconds": 60
  }
}`,
		want: []cfgWant{{"netclaw.json", 4, 5, "", []string{"netclaw.json does not parse", `expected ',' or '}' after the value of Enabled, found '"'`}}},
		check: func(t *testing.T, c *Config) {
			if !c.SubAgents.Enabled || len(c.Keys()) != 0 || !c.Present {
				t.Errorf("a file that does not parse must add nothing: Enabled %v, keys %q", c.SubAgents.Enabled, c.Keys())
			}
		},
	}, {
		name:    "syntax: unclosed block comment",
		netclaw: "{\n  /* unfinished\n  \"a\": 1\n}",
		want:    []cfgWant{{"netclaw.json", 2, 3, "", []string{"/* comment is never closed"}}},
	}, {
		name:    "syntax: unclosed object",
		netclaw: `{"SubAgents": {"Enabled": true}`,
		want:    []cfgWant{{"netclaw.json", 1, 32, "", []string{"end of file", "object opened at line 1, column 1 is never closed"}}},
	}, {
		name:    "syntax: a word that is not a literal, quoted one character at most",
		netclaw: `{"a": tru}`,
		want:    []cfgWant{{"netclaw.json", 1, 7, "", []string{`unexpected 't': expected a value`}}},
	}, {
		name:    "syntax: an unquoted key is never echoed beyond one character",
		netclaw: "{\"Providers\": {\"x\": {\"ApiKey\": sk-live-abcdef123456}}}",
		want:    []cfgWant{{"netclaw.json", 1, 32, "", []string{`unexpected 's'`}}},
		check: func(t *testing.T, c *Config) {
			if strings.Contains(c.Diagnostics[0].Message, "abcdef") {
				t.Errorf("message echoes the text: %s", c.Diagnostics[0].Message)
			}
		},
	}, {
		name:    "syntax: text after the object",
		netclaw: "{} {}",
		want:    []cfgWant{{"netclaw.json", 1, 4, "", []string{"unexpected '{' after the end of the top-level value"}}},
	}, {
		name:    "syntax: control character in a string, column counts runes",
		netclaw: "{\"é\": \"a\tb\"}",
		want:    []cfgWant{{"netclaw.json", 1, 9, "", []string{`control character '\t' inside a string`}}},
	}, {
		name:    "syntax: a comma with nothing before it",
		netclaw: `{"a": [,]}`,
		want:    []cfgWant{{"netclaw.json", 1, 8, "", []string{"unexpected ','"}}},
	}, {
		name:    "syntax: two trailing commas",
		netclaw: `{"a": 1,,}`,
		want:    []cfgWant{{"netclaw.json", 1, 9, "", []string{"expected a property name in double quotes, found ','"}}},
	}, {
		name:    "syntax: leading zero",
		netclaw: `{"a": 012}`,
		want:    []cfgWant{{"netclaw.json", 1, 7, "", []string{"invalid number"}}},
	}, {
		name:    "syntax: nested deeper than 64 levels",
		netclaw: `{"a":` + strings.Repeat("[", 64) + strings.Repeat("]", 64) + "}",
		want:    []cfgWant{{"netclaw.json", 1, 69, "", []string{"more than 64 levels"}}},
	}, {
		name:    "empty file",
		netclaw: "",
		want:    []cfgWant{{"netclaw.json", 0, 0, "", []string{"holds no JSON value"}}},
	}, {
		name:    "only comments",
		netclaw: "// nothing here\n/* at all */\n",
		want:    []cfgWant{{"netclaw.json", 0, 0, "", []string{"holds no JSON value"}}},
	}, {
		name:    "top level not an object",
		netclaw: "\n  [1, 2]",
		want:    []cfgWant{{"netclaw.json", 2, 3, "", []string{"the top level of netclaw.json is an array"}}},
	}, {
		name: "duplicate key, ignoring case",
		netclaw: `{
  "SubAgents": { "Enabled": true },
  "subagents": { "ENABLED": false }
}`,
		want: []cfgWant{{"netclaw.json", 3, 18, "", []string{"duplicate key subagents:ENABLED", "first set at line 2, column 18", "refuses to start"}}},
		check: func(t *testing.T, c *Config) {
			if c.SubAgents.Enabled {
				t.Error("the later duplicate should win")
			}
		},
	}, {
		name: "empty object then a value for the same key is a duplicate",
		netclaw: `{"a": {},
 "A": 1}`,
		want: []cfgWant{{"netclaw.json", 2, 2, "", []string{"duplicate key A"}}},
	}, {
		name: "wrong types keep the defaults",
		netclaw: `{"SubAgents": {
  "Enabled": "maybe",
  "NoProgressTimeoutSeconds": "soon",
  "MaxLlmCallSeconds": 1.5,
  "PrefillTimeoutSeconds": 99999999999
}}`,
		want: []cfgWant{
			{"netclaw.json", 2, 14, "", []string{`SubAgents:Enabled is "maybe": expected true or false; agentdesk uses the default, true`}},
			{"netclaw.json", 3, 31, "", []string{`SubAgents:NoProgressTimeoutSeconds is "soon": expected a whole number of seconds; agentdesk uses the default, 1200`}},
			{"netclaw.json", 4, 24, "", []string{`SubAgents:MaxLlmCallSeconds is obsolete`}},
			{"netclaw.json", 5, 28, "", []string{`SubAgents:PrefillTimeoutSeconds is "99999999999": too large`}},
		},
		check: func(t *testing.T, c *Config) {
			if c.SubAgents != DefaultConfig().SubAgents {
				t.Errorf("SubAgents = %+v, want the defaults", c.SubAgents)
			}
		},
	}, {
		name: "timeouts must be positive",
		netclaw: `{"SubAgents": {"PrefillTimeoutSeconds": 0, "MaxLlmCallSeconds": -1},
"Session": {"FirstTokenTimeoutSeconds": "-5", "MaxToolIterationsPerTurn": 0}}`,
		want: []cfgWant{
			{"netclaw.json", 1, 41, "", []string{"SubAgents:PrefillTimeoutSeconds is 0: it must be a positive number of seconds; agentdesk uses the default, 1800"}},
			{"netclaw.json", 1, 65, "", []string{"SubAgents:MaxLlmCallSeconds is obsolete"}},
			{"netclaw.json", 2, 41, "", []string{"Session:FirstTokenTimeoutSeconds is -5"}},
			{"netclaw.json", 2, 75, "", []string{"Session:MaxToolIterationsPerTurn is obsolete", "no cap on tool rounds"}},
		},
		check: func(t *testing.T, c *Config) {
			if c.SubAgents != DefaultConfig().SubAgents || c.Session != DefaultConfig().Session {
				t.Errorf("got %+v %+v, want the defaults", c.SubAgents, c.Session)
			}
		},
	}, {
		name:    "a section that is a value",
		netclaw: `{"SubAgents": 5, "Providers": {"openai": "sk-secret-pasted-here"}}`,
		want: []cfgWant{
			{"netclaw.json", 1, 15, "", []string{"SubAgents is a value, not an object"}},
			{"netclaw.json", 1, 42, "", []string{"Providers:openai is a value, not an object"}},
		},
		check: func(t *testing.T, c *Config) {
			for _, d := range c.Diagnostics {
				if strings.Contains(d.Message, "sk-secret") {
					t.Errorf("message quotes the value: %s", d.Message)
				}
			}
		},
	}, {
		name:    "an object where a value belongs",
		netclaw: `{"SubAgents": {"Enabled": {"Value": true}}}`,
		want:    []cfgWant{{"netclaw.json", 1, 37, "", []string{"SubAgents:Enabled is an object: expected true or false"}}},
	}, {
		name: "a role naming no definition",
		netclaw: `{"Models": {
  "Roles": {"Main": "gpt4", "Compaction": "nothing-like-it", "Fallback": " GPT-4o"},
  "Definitions": {"gpt-4o": {"Provider": "openai", "ModelId": "gpt-4o"}}
},
"Providers": {"openai": {"Type": "openai"}}}`,
		want: []cfgWant{
			{"netclaw.json", 2, 21, "", []string{`Models:Roles:Main names the model definition "gpt4", which is not under Models:Definitions`}},
			{"netclaw.json", 2, 43, "", []string{`Models:Roles:Compaction names the model definition "nothing-like-it"`}},
			{"netclaw.json", 2, 74, "", []string{`Models:Roles:Fallback names the model definition " GPT-4o"`}},
		},
		check: func(t *testing.T, c *Config) {
			if h := c.Diagnostics[0].Hint; h != `did you mean "gpt-4o"?` {
				t.Errorf("hint = %q", h)
			}
			if h := c.Diagnostics[1].Hint; !strings.Contains(h, "known: gpt-4o") {
				t.Errorf("hint = %q", h)
			}
			if r, _ := c.Role("main"); r != "gpt4" {
				t.Errorf("Role(main) = %q: the role is kept as written", r)
			}
		},
	}, {
		name: "a definition naming no provider",
		netclaw: `{"Providers": {"openai": {"Type": "openai"}},
"Models": {"Definitions": {
  "mini": {"Provider": "azure", "ModelId": "gpt-4o-mini", "ContextWindow": "big"}}}}`,
		want: []cfgWant{
			{"netclaw.json", 3, 24, "", []string{`Models:Definitions:mini:Provider names the provider "azure", which is not under Providers`}},
			{"netclaw.json", 3, 76, "", []string{`Models:Definitions:mini:ContextWindow is "big": expected a whole number of tokens; the key is ignored`}},
		},
	}, {
		name:    "legacy shape naming no provider",
		netclaw: `{"Models": {"Main": {"Provider": "ollama-box", "ModelId": "qwen3:30b"}}}`,
		want:    []cfgWant{{"netclaw.json", 1, 34, "", []string{`Models:Main:Provider names the provider "ollama-box", which is not under Providers`}}},
		check: func(t *testing.T, c *Config) {
			if h := c.Diagnostics[0].Hint; h != "add Providers:<name> = {Type, Endpoint, ApiKey}" {
				t.Errorf("hint = %q", h)
			}
		},
	}, {
		name:    "unknown provider type",
		netclaw: `{"Providers": {"a": {"Type": "open-ai"}, "b": {"Type": "bedrock"}, "c": {"Type": " Anthropic"}}}`,
		want: []cfgWant{
			{"netclaw.json", 1, 30, "", []string{`Providers:a:Type is "open-ai": not a provider type (known: ollama, openai-compatible, openrouter, openai, anthropic, github-copilot, veniceai, replay)`}},
			{"netclaw.json", 1, 56, "", []string{`Providers:b:Type is "bedrock"`}},
			{"netclaw.json", 1, 82, "", []string{`Providers:c:Type is " Anthropic"`}},
		},
		check: func(t *testing.T, c *Config) {
			if h := c.Diagnostics[0].Hint; h != `did you mean "openai"?` {
				t.Errorf("hint = %q", h)
			}
			if h := c.Diagnostics[2].Hint; h != `did you mean "anthropic"?` {
				t.Errorf("hint = %q", h)
			}
			if p, _ := c.Provider("b"); p.Type != "bedrock" {
				t.Errorf("Type = %q, want it kept as written", p.Type)
			}
		},
	}, {
		name:    "replay without an Endpoint",
		netclaw: `{"Providers": {"rec": {"Type": "Replay"}, "ok": {"Type": "replay", "Endpoint": "runs/x/cassette.jsonl"}}}`,
		want:    []cfgWant{{"netclaw.json", 1, 32, "", []string{"Providers:rec:Type makes provider rec of type replay, but it has no Endpoint"}}},
		check: func(t *testing.T, c *Config) {
			if p, _ := c.Provider("rec"); p.Type != "replay" {
				t.Errorf("Type = %q, want replay", p.Type)
			}
		},
	}, {
		name:    "environment values name the variable",
		environ: []string{"NETCLAW_SubAgents__Enabled=maybe", "NETCLAW_Providers__x__Type=nope", "NETCLAW_SubAgents__MaxLlmCallSeconds__Value=5"},
		want: []cfgWant{
			{ConfigEnvironment, 0, 0, "", []string{`NETCLAW_SubAgents__Enabled is "maybe": expected true or false`}},
			{ConfigEnvironment, 0, 0, "", []string{"NETCLAW_SubAgents__MaxLlmCallSeconds__Value (SubAgents:MaxLlmCallSeconds) is obsolete"}},
			{ConfigEnvironment, 0, 0, "", []string{`NETCLAW_Providers__x__Type is "nope"`}},
		},
	}, {
		name:    "secrets.json that does not parse",
		netclaw: `{"SubAgents": {"Enabled": false}}`,
		secrets: "{\n  \"Providers\": {\n    \"openai\": { \"ApiKey\": \"sk-x\" }\n  }\n",
		want:    []cfgWant{{"secrets.json", 5, 1, "", []string{"secrets.json does not parse", "object opened at line 1, column 1 is never closed"}}},
		check: func(t *testing.T, c *Config) {
			if c.SubAgents.Enabled {
				t.Error("netclaw.json must still apply when secrets.json does not parse")
			}
			if len(c.Secrets()) != 0 {
				t.Errorf("secrets from a file that does not parse: %q", c.Secrets())
			}
		},
	}, {
		name:    "a value from secrets.json is reported at its line there",
		netclaw: `{"SubAgents": {"PrefillTimeoutSeconds": 60}}`,
		secrets: "{\n\"SubAgents\": {\"PrefillTimeoutSeconds\": \"1h\"}}",
		want:    []cfgWant{{"secrets.json", 2, 40, "", []string{`SubAgents:PrefillTimeoutSeconds is "1h"`}}},
	}, {
		name:    "control characters are escaped in messages",
		netclaw: `{"SubAgents": {"Enabled": "\u001b[31mred\u0007"}, "Providers": {"p\u001bq": {"Type": "x"}}}`,
		want: []cfgWant{
			{"netclaw.json", 1, 27, "", []string{`SubAgents:Enabled is "\x1b[31mred\a"`}},
			{"netclaw.json", 1, 86, "", []string{`"Providers:p\x1bq:Type" is "x"`}},
		},
	}, {
		name: "a secret is never put in a message",
		netclaw: `{"Providers": {"openai": {"Type": "sk-live-0123456789abcdef", "ApiKey": "sk-live-0123456789abcdef"},
  "long": {"Type": "` + strings.Repeat("k", 70) + `"}}}`,
		secrets: `{"Slack": {"BotToken": "` + strings.Repeat("k", 70) + `"}}`,
		want: []cfgWant{
			{"netclaw.json", 1, 35, "", []string{`Providers:openai:Type is "[REDACTED]"`}},
			{"netclaw.json", 2, 20, "", []string{`Providers:long:Type is "[REDACTED]"`}},
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{}
			if tt.netclaw != "" || tt.name == "empty file" {
				files["netclaw.json"] = tt.netclaw
			}
			if tt.secrets != "" {
				files["secrets.json"] = tt.secrets
			}
			h := cfgHome(t, files)
			c := LoadConfig(h, tt.environ)
			cfgCheckDiagnostics(t, h, c, tt.want)
			if tt.check != nil && !t.Failed() {
				tt.check(t, c)
			}
		})
	}
}

func cfgCheckDiagnostics(t *testing.T, h Home, c *Config, want []cfgWant) {
	t.Helper()
	if len(c.Diagnostics) != len(want) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(c.Diagnostics), len(want), cfgRender(c.Diagnostics, ""))
	}
	for i, w := range want {
		d := c.Diagnostics[i]
		path := w.file
		switch w.file {
		case "netclaw.json":
			path = h.ConfigFile()
		case "secrets.json":
			path = h.SecretsFile()
		}
		rule := w.rule
		if rule == "" {
			rule = RuleConfig
		}
		// A key NetClaw no longer reads is a warning, every other
		// finding an error.
		sev := Error
		if strings.Contains(strings.Join(w.contains, " "), "is obsolete") {
			sev = Warning
		}
		if d.Path != path || d.Line != w.line || d.Column != w.col || d.Rule != rule || d.Severity != sev {
			t.Errorf("diagnostic %d = %s:%d:%d %s %v, want %s:%d:%d %s %v\n  %s", i, d.Path, d.Line, d.Column, d.Rule, d.Severity, path, w.line, w.col, rule, sev, d.Message)
		}
		for _, s := range w.contains {
			if !strings.Contains(d.Message, s) {
				t.Errorf("diagnostic %d message %q lacks %q", i, d.Message, s)
			}
		}
		for _, s := range c.Secrets() {
			if strings.Contains(d.Message, s) || strings.Contains(d.Hint, s) {
				t.Errorf("diagnostic %d carries a secret: %q / %q", i, d.Message, d.Hint)
			}
		}
		if strings.ContainsFunc(d.Message+d.Hint, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			t.Errorf("diagnostic %d carries a control character: %q", i, d.Message)
		}
	}
}

func TestConfigUnreadable(t *testing.T) {
	t.Run("netclaw.json is a folder", func(t *testing.T) {
		h := cfgHome(t, nil)
		if err := os.Mkdir(h.ConfigFile(), 0o755); err != nil {
			t.Fatal(err)
		}
		c := LoadConfig(h, nil)
		cfgCheckDiagnostics(t, h, c, []cfgWant{{"netclaw.json", 0, 0, RuleUnreadable, []string{"netclaw.json is a folder, not a file"}}})
		if c.Present {
			t.Error("Present for a folder")
		}
	})
	t.Run("secrets.json over the size limit", func(t *testing.T) {
		h := cfgHome(t, map[string]string{"netclaw.json": `{"SubAgents": {"Enabled": false}}`})
		f, err := os.Create(h.SecretsFile())
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(MaxFileSize + 1); err != nil {
			t.Fatal(err)
		}
		f.Close()
		c := LoadConfig(h, nil)
		cfgCheckDiagnostics(t, h, c, []cfgWant{{"secrets.json", 0, 0, RuleUnreadable, []string{"over agentdesk's 8388608-byte limit"}}})
		if c.SubAgents.Enabled || !c.Present {
			t.Error("netclaw.json must still apply")
		}
	})
	t.Run("netclaw.json without read permission", func(t *testing.T) {
		h := cfgHome(t, map[string]string{"netclaw.json": `{}`})
		if err := os.Chmod(h.ConfigFile(), 0); err != nil {
			t.Fatal(err)
		}
		if f, err := os.Open(h.ConfigFile()); err == nil {
			f.Close()
			t.Skip("running with privileges that read any file")
		}
		c := LoadConfig(h, nil)
		cfgCheckDiagnostics(t, h, c, []cfgWant{{"netclaw.json", 0, 0, RuleUnreadable, []string{"cannot read netclaw.json", "permission denied"}}})
	})
}

func TestConfigLegacyShape(t *testing.T) {
	c := LoadConfig(Home{ConfigDir: filepath.Join("testdata", "config", "legacy")}, nil)
	if len(c.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", c.Diagnostics)
	}
	want := map[string]ModelDefinition{
		"Main":       {Provider: "vllm", ModelID: "Qwen/Qwen3-32B"},
		"Compaction": {Provider: "vllm", ModelID: "Qwen/Qwen3-8B"},
	}
	if !reflect.DeepEqual(c.Models.Legacy, want) {
		t.Errorf("Legacy = %+v, want %+v", c.Models.Legacy, want)
	}
	if len(c.Models.Roles)+len(c.Models.Definitions) != 0 {
		t.Errorf("Roles %v, Definitions %v: want none", c.Models.Roles, c.Models.Definitions)
	}
	cfgWantProvider(t, c, "VLLM", Provider{Name: "vllm", Type: "openai-compatible", Endpoint: "http://gpu-box.lan:8000/v1", APIKey: "vllm-local-test-token"})
	cfgWantInt(t, "NoProgressTimeoutSeconds", c.SubAgents.NoProgressTimeoutSeconds, 600)

	// Legacy keys of other spellings, and Models keys that are not models.
	c = LoadConfig(cfgHome(t, map[string]string{"netclaw.json": `{
  "Providers": {"p": {}},
  "Models": {"MAIN": {"Provider": "p"}, "fallback": {"ModelId": "m"}, "Custom": {"Provider": "p"}, "Note": "x", "Other": {"Size": 1}}
}`}), nil)
	if len(c.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %v", c.Diagnostics)
	}
	want = map[string]ModelDefinition{"Main": {Provider: "p"}, "Fallback": {ModelID: "m"}, "Custom": {Provider: "p"}}
	if !reflect.DeepEqual(c.Models.Legacy, want) {
		t.Errorf("Legacy = %+v, want %+v", c.Models.Legacy, want)
	}
	cfgWantProvider(t, c, "p", Provider{Name: "p", Type: "ollama"})
}

// TestConfigSamples loads the sample configurations other packages reuse.
func TestConfigSamples(t *testing.T) {
	h := Home{ConfigDir: filepath.Join("testdata", "config", "roles")}
	c := LoadConfig(h, []string{"NETCLAW_Providers__local-ollama__Endpoint=http://127.0.0.1:11434"})
	// The sample still sets two keys NetClaw no longer reads.
	var got []string
	for _, d := range c.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s %s: %s (%s)", d.Pos.Line, d.Pos.Column, d.Severity, d.Rule, d.Message, d.Hint))
	}
	want := []string{
		"9:26 warning config: SubAgents:MaxLlmCallSeconds is obsolete: NetClaw no longer caps the length of a model call, and ignores it; a call ends on the prefill, inter-delta and no-progress budgets (remove the key)",
		"13:33 warning config: Session:MaxToolIterationsPerTurn is obsolete: NetClaw has no cap on tool rounds (a run ends on its deadlines, on cancellation and by the cycle guard), and its configuration schema no longer accepts the key (remove the key; netclaw doctor removes it and keeps the rest of the file)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !c.Present {
		t.Error("Present = false")
	}
	if want := (SubAgentsConfig{true, 900, 1200}); c.SubAgents != want {
		t.Errorf("SubAgents = %+v, want %+v", c.SubAgents, want)
	}
	if want := (SessionConfig{300}); c.Session != want {
		t.Errorf("Session = %+v, want %+v", c.Session, want)
	}
	wantProviders := map[string]Provider{
		"local-ollama": {Name: "local-ollama", Type: "ollama", Endpoint: "http://127.0.0.1:11434"},
		"anthropic":    {Name: "anthropic", Type: "anthropic", Endpoint: "https://api.anthropic.com", APIKey: "sk-ant-api03-test-0000-not-a-real-key"},
		"openrouter":   {Name: "openrouter", Type: "openrouter", Endpoint: "https://openrouter.ai/api/v1", APIKey: "sk-or-v1-test-0000-not-a-real-key"},
	}
	if !reflect.DeepEqual(c.Providers, wantProviders) {
		t.Errorf("Providers = %+v", c.Providers)
	}
	if want := map[string]string{"Main": "sonnet", "Compaction": "qwen-local", "Fallback": "deepseek"}; !reflect.DeepEqual(c.Models.Roles, want) {
		t.Errorf("Roles = %v", c.Models.Roles)
	}
	if d, _ := c.Definition("deepseek"); d != (ModelDefinition{"openrouter", "deepseek/deepseek-chat-v3.1", 131072}) {
		t.Errorf("Definition(deepseek) = %+v", d)
	}
	if v, _ := c.Lookup("slack:allowedchannels:1"); v != "C0987654321" {
		t.Errorf("Lookup(slack:allowedchannels:1) = %q", v)
	}
	want = []string{"sk-ant-api03-test-0000-not-a-real-key", "sk-or-v1-test-0000-not-a-real-key", "xoxb-test-0000-not-a-real-token"}
	if got := c.Secrets(); !reflect.DeepEqual(got, want) {
		t.Errorf("Secrets() = %q, want %q", got, want)
	}
}

func TestConfigSecrets(t *testing.T) {
	h := cfgHome(t, map[string]string{
		"netclaw.json": `{
  "Providers": {"a": {"ApiKey": "key-a"}, "b": {"apikey": ""}, "c": {"ApiKey": "   "}},
  "Session": {"MaxTokens": 4096},
  "Slack": {"BotToken": "xoxb-1", "SigningSecret": "sign", "AppToken": "key-a"},
  "Db": {"Password": "hunter2hunter2", "PasswordHint": "not a secret"},
  "Other": {"OpenAIApiKey": "k2"}
}`,
	})
	c := LoadConfig(h, []string{"NETCLAW_Providers__b__ApiKey=from-env-longest"})
	want := []string{"from-env-longest", "hunter2hunter2", "xoxb-1", "key-a", "sign", "k2"}
	if got := c.Secrets(); !reflect.DeepEqual(got, want) {
		t.Errorf("Secrets() = %q, want %q", got, want)
	}
	hand := &Config{Providers: map[string]Provider{"x": {APIKey: "hand-key"}, "y": {}}}
	if got := hand.Secrets(); !reflect.DeepEqual(got, []string{"hand-key"}) {
		t.Errorf("hand-built Secrets() = %q", got)
	}
}

// TestConfigHandBuilt checks the accessors on a Config written by hand and
// on a nil *Config.
func TestConfigHandBuilt(t *testing.T) {
	c := &Config{
		Providers: map[string]Provider{"OpenAI": {Name: "OpenAI", Type: "openai"}, "openai": {Name: "openai"}},
		Models: ModelsConfig{
			Roles:       map[string]string{"Main": "big"},
			Definitions: map[string]ModelDefinition{"Big": {Provider: "openai", ModelID: "gpt"}},
		},
	}
	if p, ok := c.Provider("OPENAI"); !ok || p.Name != "OpenAI" {
		t.Errorf("Provider(OPENAI) = %+v, %v; want the smallest key of equal ones", p, ok)
	}
	if p, ok := c.Provider("openai"); !ok || p.Name != "openai" {
		t.Errorf("Provider(openai) = %+v, %v; want the exact key", p, ok)
	}
	if d, ok := c.Definition("big"); !ok || d.ModelID != "gpt" {
		t.Errorf("Definition(big) = %+v, %v", d, ok)
	}
	if r, ok := c.Role("main"); !ok || r != "big" {
		t.Errorf("Role(main) = %q, %v", r, ok)
	}
	if _, ok := c.Role("Fallback"); ok {
		t.Error("Role(Fallback) found")
	}
	if _, ok := c.Lookup("Providers:OpenAI:Type"); ok {
		t.Error("Lookup on a hand-built Config found a key")
	}
	var nilConfig *Config
	if _, ok := nilConfig.Provider("x"); ok {
		t.Error("nil Provider")
	}
	if _, ok := nilConfig.Definition("x"); ok {
		t.Error("nil Definition")
	}
	if _, ok := nilConfig.Role("Main"); ok {
		t.Error("nil Role")
	}
	if _, ok := nilConfig.Lookup("x"); ok {
		t.Error("nil Lookup")
	}
	if _, ok := nilConfig.Origin("x"); ok {
		t.Error("nil Origin")
	}
	if nilConfig.Secrets() != nil || nilConfig.Keys() != nil {
		t.Error("nil Secrets or Keys")
	}
	if got := ProviderTypes(); len(got) != 8 || got[0] != "ollama" || got[7] != "replay" {
		t.Errorf("ProviderTypes() = %q", got)
	}
}

// TestConfigGolden renders the diagnostics of the broken sample, plus bad
// environment variables, against testdata/config/broken.golden.
func TestConfigGolden(t *testing.T) {
	dir := filepath.Join("testdata", "config", "broken")
	c := LoadConfig(Home{ConfigDir: dir}, []string{
		"NETCLAW_Session__FirstTokenTimeoutSeconds=10m",
		"NETCLAW_Providers__recorded__Type=Replay",
	})
	got := cfgRender(c.Diagnostics, filepath.ToSlash(dir)+"/")
	golden.Check(t, filepath.Join("testdata", "config", "broken.golden"), []byte(got))
}

// cfgRender prints diagnostics one a line (path:line:col: severity: message
// [rule], then the hint), trimming prefix from paths.
func cfgRender(ds []Diagnostic, prefix string) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", strings.TrimPrefix(filepath.ToSlash(d.Path), prefix), d.Line, d.Column, d.Severity, d.Message, d.Rule)
		if d.Hint != "" {
			fmt.Fprintf(&b, "    hint: %s\n", d.Hint)
		}
	}
	return b.String()
}

func BenchmarkLoadConfig(b *testing.B) {
	h := Home{ConfigDir: filepath.Join("testdata", "config", "roles")}
	environ := append(os.Environ(),
		"NETCLAW_SubAgents__NoProgressTimeoutSeconds=900",
		"NETCLAW_Providers__openrouter__ApiKey=sk-or-v1-bench",
		"NETCLAW_HOME=/home/u/.netclaw",
	)
	b.ReportAllocs()
	for b.Loop() {
		c := LoadConfig(h, environ)
		// The sample sets two obsolete keys (TestConfigSamples): their
		// warnings are part of the work measured, and nothing else.
		if len(c.Diagnostics) != 2 || c.Diagnostics[0].Severity != Warning || c.Diagnostics[1].Severity != Warning {
			b.Fatal(c.Diagnostics)
		}
	}
}

// BenchmarkConfigParse measures the JSON reader alone on a large file (200
// providers and definitions), reporting throughput.
func BenchmarkConfigParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("{\n  // generated\n  \"Providers\": {\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "    \"p%d\": { \"Type\": \"openai-compatible\", \"Endpoint\": \"http://host-%d.lan:8000/v1\", \"ApiKey\": \"key-%d\" },\n", i, i, i)
	}
	sb.WriteString("  },\n  \"Models\": { \"Definitions\": {\n")
	for i := range 200 {
		fmt.Fprintf(&sb, "    \"m%d\": { \"Provider\": \"p%d\", \"ModelId\": \"org/model-\\u00e9-%d\", \"ContextWindow\": %d },\n", i, i, i, 8192+i)
	}
	sb.WriteString("  } }\n}\n")
	text := sb.String()
	b.Run("reader", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cfgParseJSON(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The same text through encoding/json into an any, for scale (its
	// comment line blanked, its trailing commas removed).
	plain := strings.NewReplacer("// generated", "", "},\n  }", "}\n  }").Replace(text)
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(plain)))
		b.ReportAllocs()
		for b.Loop() {
			var v any
			if err := json.Unmarshal([]byte(plain), &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestConfigLargeFile loads a one-line file with thousands of bad
// references and secrets, and keys thousands of levels deep: every problem
// is reported once and no secret leaks. (It has no timing assertion; it
// would crawl if a check were quadratic.)
func TestConfigLargeFile(t *testing.T) {
	const n = 5000
	var b strings.Builder
	b.WriteString(`{"Providers":{`)
	for i := range n {
		fmt.Fprintf(&b, `"p%d":{"Type":"bogus-%d","ApiKey":"secret-key-%06d"},`, i, i, i)
	}
	b.WriteString(`},"Models":{"Roles":{`)
	for i := range n {
		fmt.Fprintf(&b, `"R%d":"missing-%d",`, i, i)
	}
	b.WriteString(`},"Definitions":{`)
	for i := range n {
		fmt.Fprintf(&b, `"d%d":{"Provider":"nowhere-%d","ModelId":"secret-key-%06d"},`, i, i, i)
	}
	b.WriteString(`}},"` + strings.Repeat("deep:", 100000) + `end":1}`)
	h := cfgHome(t, map[string]string{"netclaw.json": b.String()})
	c := LoadConfig(h, []string{"NETCLAW_" + strings.Repeat("x__", 100000) + "y=1"})
	if got, want := len(c.Diagnostics), 3*n; got != want {
		t.Fatalf("got %d diagnostics, want %d", got, want)
	}
	if len(c.Secrets()) != n {
		t.Errorf("got %d secrets, want %d", len(c.Secrets()), n)
	}
	for _, d := range c.Diagnostics {
		if strings.Contains(d.Message, "secret-key-") || d.Line != 1 || d.Column < 1 {
			t.Fatalf("diagnostic %s:%d:%d %q", d.Path, d.Line, d.Column, d.Message)
		}
	}
	last := c.Diagnostics[len(c.Diagnostics)-1]
	if !strings.Contains(last.Message, "Models:Definitions:d4999:Provider") {
		t.Errorf("last diagnostic %q", last.Message)
	}
	if want := strings.Index(b.String(), `"nowhere-4999"`) + 1; last.Column != want {
		t.Errorf("last column %d, want %d", last.Column, want)
	}
	if v, ok := c.Lookup(strings.Repeat("DEEP:", 100000) + "end"); !ok || v != "1" {
		t.Errorf("deep key: %q, %v", v, ok)
	}
	if v, ok := c.Lookup(strings.Repeat("x:", 100000) + "y"); !ok || v != "1" {
		t.Errorf("deep variable: %q, %v", v, ok)
	}
}
