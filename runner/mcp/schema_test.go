package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/tools"
)

func TestSanitize(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"nullable type", `{"type":"object","properties":{"limit":{"type":["integer","null"],"default":10}}}`,
			`{"type":"object","properties":{"limit":{"type":"integer","default":10}}}`},
		{"only null", `{"properties":{"x":{"type":["null"]}}}`, `{"properties":{"x":{"type":"string"}}}`},
		{"several types", `{"properties":{"x":{"type":["string","integer","null"]}}}`, `{"properties":{"x":{"type":["string","integer"]}}}`},
		{"$schema everywhere visited", `{"$schema":"x","type":"object","properties":{"f":{"$schema":"y","type":"object"}}}`,
			`{"type":"object","properties":{"f":{"type":"object"}}}`},
		{"empty additionalProperties", `{"additionalProperties":{},"properties":{"a":{"additionalProperties":false}}}`,
			`{"additionalProperties":true,"properties":{"a":{"additionalProperties":false}}}`},
		{"non-empty additionalProperties kept as written", `{"additionalProperties":{"type":"string","pattern":"x"}}`,
			`{"additionalProperties":{"type":"string","pattern":"x"}}`},
		{"llama.cpp keywords", `{"properties":{"f":{"type":"string","description":"kept","pattern":"^a","not":{},"if":{},"then":{},"else":{},"multipleOf":2,"contentEncoding":"b","contentMediaType":"c","contentSchema":{},"patternProperties":{},"propertyNames":{}}}}`,
			`{"properties":{"f":{"type":"string","description":"kept"}}}`},
		{"a property named like a keyword stays", `{"properties":{"pattern":{"type":"string"},"not":{"type":"boolean"}}}`,
			`{"properties":{"pattern":{"type":"string"},"not":{"type":"boolean"}}}`},
		{"array items", `{"properties":{"d":{"type":"array","items":{"type":"string","pattern":"\\d"}}}}`,
			`{"properties":{"d":{"type":"array","items":{"type":"string"}}}}`},
		{"unions", `{"properties":{"u":{"oneOf":[{"type":["string","null"]},{"type":"integer","multipleOf":3}]}}}`,
			`{"properties":{"u":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`},
		{"supported keywords and order kept", `{"required":["z","a"],"properties":{"z":{"type":"string","format":"date","minLength":10},"a":{"enum":["x","y"]}},"type":"object"}`,
			`{"required":["z","a"],"properties":{"z":{"type":"string","format":"date","minLength":10},"a":{"enum":["x","y"]}},"type":"object"}`},
		{"null default kept", `{"default":null}`, `{"default":null}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Sanitize(json.RawMessage(tt.in))
			if err != nil || string(got) != tt.want {
				t.Errorf("Sanitize(%s) =\n%s (%v), want\n%s", tt.in, got, err, tt.want)
			}
		})
	}
	if _, err := Sanitize(json.RawMessage(`{"a":`)); err == nil {
		t.Error("Sanitize of broken JSON: no error")
	}
}

func TestInjectMeta(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"adds three, requires _rationale", `{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`,
			`{"type":"object","properties":{"q":{"type":"string"},"_rationale":{"type":"string"},"_timeout_seconds":{"type":"integer"},"_background":{"type":"boolean"}},"required":["q","_rationale"]}`},
		{"no properties or required", `{"type":"object"}`,
			`{"type":"object","properties":{"_rationale":{"type":"string"},"_timeout_seconds":{"type":"integer"},"_background":{"type":"boolean"}},"required":["_rationale"]}`},
		{"a server's _rationale is replaced", `{"properties":{"_rationale":{"type":"integer","description":"custom"}},"required":["_rationale"]}`,
			`{"properties":{"_rationale":{"type":"string"},"_timeout_seconds":{"type":"integer"},"_background":{"type":"boolean"}},"required":["_rationale"]}`},
		{"not an object", `[1]`,
			`{"type":"object","properties":{"_rationale":{"type":"string"},"_timeout_seconds":{"type":"integer"},"_background":{"type":"boolean"}},"required":["_rationale"]}`},
	}
	meta := []MetaProperty{
		{Name: tools.MetaRationale, Required: true, Schema: json.RawMessage(`{"type":"string"}`)},
		{Name: tools.MetaTimeout, Schema: json.RawMessage(`{"type":"integer"}`)},
		{Name: tools.MetaBackground, Schema: json.RawMessage(`{"type":"boolean"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InjectMeta(json.RawMessage(tt.in), meta); string(got) != tt.want {
				t.Errorf("InjectMeta =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestPrepareArgs(t *testing.T) {
	raw := json.RawMessage(`{"type":"object","properties":{"url":{"type":"string"},"limit":{"type":["integer","null"]},"ratio":{"type":"number"},"on":{"type":"boolean"},"zip":{"type":"string"},"tags":{"type":"array","items":{"type":"integer"}},"opts":{"type":"object","properties":{"deep":{"type":"boolean"}}}}}`)
	shown, _ := Sanitize(raw)
	got, meta, err := PrepareArgs(json.RawMessage(`{"Url":"u","LIMIT":"7","ratio":"0.5","on":"TRUE","zip":"007","tags":["1","x"],"opts":{"deep":"false"},"extra":"5","_rationale":"why","_Timeout_Seconds":9}`), shown, raw)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"url": "u", "limit": int64(7), "ratio": json.Number("0.5"), "on": true, "zip": "007",
		"tags": []any{int64(1), "x"}, "opts": map[string]any{"deep": false}, "extra": "5"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("PrepareArgs =\n%#v\nwant\n%#v", got, want)
	}
	if meta.Rationale != "why" || meta.TimeoutSeconds != 9 {
		t.Errorf("meta = %+v", meta)
	}
	for _, bad := range []string{`[1]`, `"x"`, `{`} {
		if _, _, err := PrepareArgs(json.RawMessage(bad), shown, raw); err == nil {
			t.Errorf("PrepareArgs(%s): no error", bad)
		}
	}
	if got, _, err := PrepareArgs(nil, shown, raw); err != nil || len(got) != 0 {
		t.Errorf("PrepareArgs(nil) = %v, %v", got, err)
	}
}

func TestNames(t *testing.T) {
	tests := []struct{ server, tool, name, problem string }{
		{"github", "create_issue", "github__create_issue", ""},
		{"todoist", "find-tasks", "todoist__find-tasks", ""},
		{"my.server", "get", "my.server__get", "it holds '.'"},
		{"s", "admin/tools/list", "s__admin/tools/list", "it holds '/'"},
		{"s", "x2345678901234567890123456789012345678901234567890123456789012345", "s__x2345678901234567890123456789012345678901234567890123456789012345", "OpenAI accepts at most 64"},
	}
	for _, tt := range tests {
		name := ModelName(tt.server, tt.tool)
		if name != tt.name {
			t.Errorf("ModelName(%q, %q) = %q, want %q", tt.server, tt.tool, name, tt.name)
		}
		if p := NameProblem(name); tt.problem == "" && p != "" || tt.problem != "" && !strings.Contains(p, tt.problem) {
			t.Errorf("NameProblem(%q) = %q, want %q", name, p, tt.problem)
		}
	}
	if CanonicalName("a", "b") != "a/b" {
		t.Error("CanonicalName")
	}
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{`{"type":["string","null"]}`, `{"properties":{"a":{"items":{"pattern":"x"}}}}`, `[{"anyOf":[{}]}]`, `1`, `{"a":`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Sanitize(data)
		if err != nil {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("Sanitize(%q) = %q: not JSON", data, out)
		}
		again, err := Sanitize(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("Sanitize is not idempotent: %q → %q → %q", data, out, again)
		}
		if !json.Valid(InjectMeta(out, MetaProperties)) {
			t.Fatalf("InjectMeta(%q) is not JSON", out)
		}
		_, _, _ = PrepareArgs(data, out, data)
	})
}

// An MCP tool with no parameters gets exactly the schema NetClaw's
// generator gives a first-party tool with none: the same meta properties,
// descriptions and order.
func TestInjectMetaMatchesTheGenerator(t *testing.T) {
	got := InjectMeta(json.RawMessage(`{"type":"object","properties":{}}`), MetaProperties)
	if want := request.GeneratedSchema(nil); string(got) != string(want) {
		t.Errorf("InjectMeta =\n%s\nthe generator's =\n%s", got, want)
	}
}

func TestSanitizeKeepsHTMLCharacters(t *testing.T) {
	in := `{"description":"a <b> & c — d","properties":{"x<y":{"type":"string"}}}`
	if got, _ := Sanitize(json.RawMessage(in)); string(got) != in {
		t.Errorf("Sanitize = %s, want %s", got, in)
	}
}
