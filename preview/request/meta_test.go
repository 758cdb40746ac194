package request

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

func mustArgs(t *testing.T, text string) Args {
	t.Helper()
	a, err := ParseArgs([]byte(text))
	if err != nil {
		t.Fatalf("ParseArgs(%s): %v", text, err)
	}
	return a
}

// The runtime's refusal of a call without a usable _rationale, and the
// other meta checks, before the tool runs.
func TestExtractMeta(t *testing.T) {
	fileRead, _ := NetClaw().Tool("file_read")
	mcpTimeout, err := MCPTool("srv", "wait", "Wait.", json.RawMessage(`{"type":"object","properties":{"timeout":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		tool    Tool
		args    string
		refusal string
		meta    Meta
		clean   string
	}{
		{"no arguments", fileRead, ``, RequiredRationaleError, Meta{}, ""},
		{"no rationale", fileRead, `{"Path":"a.go"}`, RequiredRationaleError, Meta{}, ""},
		{"empty rationale", fileRead, `{"Path":"a.go","_rationale":""}`, RequiredRationaleError, Meta{}, ""},
		{"blank rationale", fileRead, `{"Path":"a.go","_rationale":" \t\u00a0"}`, RequiredRationaleError, Meta{}, ""},
		{"null rationale", fileRead, `{"Path":"a.go","_rationale":null}`, RequiredRationaleError, Meta{}, ""},
		{"number rationale", fileRead, `{"Path":"a.go","_rationale":7}`, RequiredRationaleError, Meta{}, ""},
		{"rationale", fileRead, `{"Path":"a.go","_rationale":"Read the entry point."}`, "", Meta{Rationale: "Read the entry point."}, `{"Path":"a.go"}`},
		{"all meta", fileRead, `{"_background":true,"Path":"a.go","_timeout_seconds":30,"_rationale":"r"}`, "", Meta{Rationale: "r", TimeoutSeconds: 30, Background: true}, `{"Path":"a.go"}`},
		{"near-miss spellings", fileRead, `{"Rationale":"r","TimeoutSeconds":"45","background":"TRUE","Path":"a.go"}`, "", Meta{Rationale: "r", TimeoutSeconds: 45, Background: true}, `{"Path":"a.go"}`},
		{"timeout alias", fileRead, `{"_rationale":"r","timeout":5}`, "", Meta{Rationale: "r", TimeoutSeconds: 5}, `{}`},
		{"null meta values pass", fileRead, `{"_rationale":"r","_timeout_seconds":null,"_background":null}`, "", Meta{Rationale: "r"}, `{}`},
		{"two keys for one field", fileRead, `{"_rationale":"r","_timeout_seconds":5,"TimeoutSeconds":6}`,
			"Error: Arguments '_timeout_seconds' and 'TimeoutSeconds' both map to the meta field '_timeout_seconds'. Supply only one. The tool was NOT executed.", Meta{}, ""},
		{"zero timeout", fileRead, `{"_rationale":"r","_timeout_seconds":0}`,
			"Error: Meta argument '_timeout_seconds' value '0' is not a valid positive integer. The tool was NOT executed.", Meta{}, ""},
		{"fractional timeout", fileRead, `{"_rationale":"r","_timeout_seconds":1.5}`,
			"Error: Meta argument '_timeout_seconds' value '1.5' is not a valid positive integer. The tool was NOT executed.", Meta{}, ""},
		{"text timeout", fileRead, `{"_rationale":"r","Timeout_Seconds":"soon"}`,
			"Error: Meta argument 'Timeout_Seconds' value '\"soon\"' is not a valid positive integer. The tool was NOT executed.", Meta{}, ""},
		{"bad background", fileRead, `{"_rationale":"r","_background":"yes"}`,
			"Error: Meta argument '_background' value '\"yes\"' is not a valid boolean. The tool was NOT executed.", Meta{}, ""},
		{"value errors before the rationale", fileRead, `{"_background":1}`,
			"Error: Meta argument '_background' value '1' is not a valid boolean. The tool was NOT executed.", Meta{}, ""},
		{"a declared parameter is not meta", mcpTimeout, `{"_rationale":"r","timeout":5}`, "", Meta{Rationale: "r"}, `{"timeout":5}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			meta, clean, refusal := ExtractMeta(tc.tool, mustArgs(t, tc.args))
			if refusal != tc.refusal {
				t.Fatalf("refusal\n got %q\nwant %q", refusal, tc.refusal)
			}
			if meta != tc.meta {
				t.Errorf("meta %+v, want %+v", meta, tc.meta)
			}
			if tc.refusal == "" && string(clean.Encode()) != tc.clean {
				t.Errorf("arguments left %s, want %s", clean.Encode(), tc.clean)
			}
		})
	}
}

// The exact refusal text REFERENCE.md quotes.
func TestRequiredRationaleText(t *testing.T) {
	const want = "Error: Required meta argument '_rationale' must be a non-empty string. Supply one sentence that states the tool call intent. The tool was NOT executed."
	if RequiredRationaleError != want {
		t.Errorf("got %q", RequiredRationaleError)
	}
}

// Arguments bind to parameters as ToolArgumentHelper finds them: exact
// (the last of repeated keys), then ignoring case, then by letters and
// digits ignoring case.
func TestArgsLookup(t *testing.T) {
	a := mustArgs(t, `{"path":"lower","Path":"exact1","Path":"exact2","start_line":"12","LIMIT":3,"flag":" True ","n":null,"big":3000000000,"f":2.0,"msg":1,"text":"hi"}`)
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"Path", "exact2", true}, {"PATH", "lower", true}, {"StartLine", "12", true}, {"Limit", "3", true},
		{"N", "", false}, {"Missing", "", false}, {"Message", "hi", true}, {"Flag", " True ", true},
	} {
		if got, ok := a.String(tc.name); got != tc.want || ok != tc.ok {
			t.Errorf("String(%q) = %q, %v; want %q, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
	if n, ok, err := a.Int("StartLine"); n != 12 || !ok || err != nil {
		t.Errorf("Int(StartLine) = %d %v %v", n, ok, err)
	}
	if _, ok, err := a.Int("N"); ok || err != nil {
		t.Errorf("Int of null: %v %v", ok, err)
	}
	for name, text := range map[string]string{
		"Big": "Parameter 'Big' value '3000000000' is not a valid integer. The tool was NOT executed.",
		"F":   "Parameter 'F' value '2.0' is not a valid integer. The tool was NOT executed.",
	} {
		if _, _, err := a.Int(name); err == nil || err.Error() != text {
			t.Errorf("Int(%s) error %v, want %q", name, err, text)
		}
	}
	if b, ok, err := a.Bool("flag"); !b || !ok || err != nil {
		t.Errorf("Bool(flag) = %v %v %v", b, ok, err)
	}
	if _, _, err := a.Bool("Limit"); err == nil || !strings.Contains(err.Error(), "is not a valid boolean") {
		t.Errorf("Bool(Limit): %v", err)
	}
	if got := ParseError("file_read", MissingParameter("Path")); got != "Error parsing arguments for tool 'file_read': Required parameter 'Path' is missing." {
		t.Errorf("ParseError = %q", got)
	}
	long := mustArgs(t, `{"N":"`+strings.Repeat("x", 200)+`"}`)
	if _, _, err := long.Int("N"); err == nil || !strings.Contains(err.Error(), strings.Repeat("x", 99)+"…'") {
		t.Errorf("a long value is cut at 100 characters: %v", err)
	}
}

func TestParseArgsRefuses(t *testing.T) {
	for _, text := range []string{`[1]`, `"x"`, `{"a":`, `{"a":1} {}`, `nul`, `1`} {
		if _, err := ParseArgs([]byte(text)); !errors.Is(err, ErrArgsNotObject) {
			t.Errorf("ParseArgs(%s) = %v, want ErrArgsNotObject", text, err)
		}
	}
	if a, err := ParseArgs([]byte(" \n")); err != nil || len(a) != 0 {
		t.Errorf("blank: %v %v", a, err)
	}
	if _, err := ParseArgs(make([]byte, MaxArgs+1)); !errors.Is(err, ErrArgsNotObject) {
		t.Errorf("oversized: %v", err)
	}
}

func FuzzParseArgs(f *testing.F) {
	for _, s := range []string{``, `{}`, `{"Path":"a","_rationale":"r"}`, `{"a":{"b":[1,2]},"a":null}`, `[`, `{"\u0000":"\ud800"}`} {
		f.Add([]byte(s))
	}
	tool, _ := NetClaw().Tool("file_edit")
	f.Fuzz(func(t *testing.T, text []byte) {
		a, err := ParseArgs(text)
		if err != nil {
			if !errors.Is(err, ErrArgsNotObject) {
				t.Fatalf("error %v does not wrap ErrArgsNotObject", err)
			}
			return
		}
		enc := a.Encode()
		if !json.Valid(enc) {
			t.Fatalf("Encode gave invalid JSON: %s", enc)
		}
		back, err := ParseArgs(enc)
		if err != nil || len(back) != len(a) {
			t.Fatalf("round trip: %v, %d vs %d members", err, len(back), len(a))
		}
		_, clean, refusal := CheckCall(tool, a)
		if refusal == "" {
			for _, arg := range clean {
				if MetaField(tool, arg.Key) != "" {
					t.Fatalf("meta key %q left in the arguments", arg.Key)
				}
			}
		}
		for _, name := range []string{"Path", "OldString", "ReplaceAll"} {
			a.String(name)
			_, _, _ = a.Int(name)
			_, _, _ = a.Bool(name)
		}
	})
}

// NetClaw's ToolCallMetaExtractorTests (the newest stored), ported: what
// extraction takes out of the arguments and binds, with the executor's
// schema-aware resolver.
func TestSplitMetaPortedFromNetClaw(t *testing.T) {
	shell, _ := NetClaw().Tool("shell_execute")
	webSearch, _ := NetClaw().Tool("web_search")
	cases := []struct {
		name  string
		tool  Tool
		args  string
		meta  Meta
		clean string
	}{
		{"all meta fields", shell, `{"Command":"dotnet test","_rationale":"running tests","_timeout_seconds":300,"_background":true}`,
			Meta{Rationale: "running tests", TimeoutSeconds: 300, Background: true}, `{"Command":"dotnet test"}`},
		{"only rationale", webSearch, `{"query":"test","_rationale":"searching docs"}`,
			Meta{Rationale: "searching docs"}, `{"query":"test"}`},
		{"no meta fields", shell, `{"Command":"ls"}`, Meta{}, `{"Command":"ls"}`},
		{"no arguments", shell, ``, Meta{}, `{}`},
		{"zero timeout is no hint, and is stripped", shell, `{"Command":"ls","_timeout_seconds":0}`, Meta{}, `{"Command":"ls"}`},
		{"timeout alone is not background", shell, `{"Command":"dotnet build","_rationale":"building project","_timeout_seconds":300}`,
			Meta{Rationale: "building project", TimeoutSeconds: 300}, `{"Command":"dotnet build"}`},
		{"background false", shell, `{"Command":"dotnet build","_rationale":"building","_background":false}`,
			Meta{Rationale: "building"}, `{"Command":"dotnet build"}`},
		{"misnamed meta fields are consumed", shell, `{"Command":"dotnet test","Rationale":"running tests","TimeoutSeconds":"1200","Background":true}`,
			Meta{Rationale: "running tests", TimeoutSeconds: 1200, Background: true}, `{"Command":"dotnet test"}`},
		{"bare Timeout", shell, `{"Command":"sleep 5","Timeout":600}`, Meta{TimeoutSeconds: 600}, `{"Command":"sleep 5"}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			meta, clean := SplitMeta(tc.tool, mustArgs(t, tc.args))
			if meta != tc.meta || string(clean.Encode()) != tc.clean {
				t.Errorf("got %+v %s, want %+v %s", meta, clean.Encode(), tc.meta, tc.clean)
			}
		})
	}
	// Every canonical meta name binds (ExtractFrom's default case never
	// throws).
	for name, value := range map[string]string{MetaRationale: `"because"`, MetaTimeout: `30`, MetaBackground: `true`} {
		meta, clean := SplitMeta(shell, Args{{"Command", json.RawMessage(`"ls"`)}, {name, json.RawMessage(value)}})
		if meta == (Meta{}) || len(clean) != 1 {
			t.Errorf("%s: %+v %s", name, meta, clean.Encode())
		}
	}
}

// ToolArgumentValidator.ValidateArgumentKeys: keys that bind, meta
// spellings and aliases pass; anything else is refused with a suggestion
// within two edits and the list of valid arguments.
func TestUnknownArguments(t *testing.T) {
	fileRead, _ := NetClaw().Tool("file_read")
	valid := " The tool was NOT executed. Valid arguments: Path, StartLine, Limit, _rationale, _timeout_seconds, _background."
	msgTool := builtin("send", "builtin", KindEffect, false, Always, "test", "Send.", req("Message", "string", "m"))
	mcp, _ := MCPTool("s", "t", "", json.RawMessage(`{"type":"object","properties":{"a":{}}}`))
	for _, tc := range []struct {
		tool Tool
		args string
		want string
	}{
		{fileRead, `{"path":"a","start_line":3,"LIMIT":2,"Rationale":"r","timeout":5,"_background":false}`, ""},
		{fileRead, `{"Pth":"a","_rationale":"r"}`, "Error: Unrecognized argument 'Pth' for tool 'file_read'. Did you mean 'Path'?" + valid},
		{fileRead, `{"Path":"a","offset":1,"Limt":9}`, "Error: Unrecognized argument 'offset' for tool 'file_read'. Unrecognized argument 'Limt' for tool 'file_read'. Did you mean 'Limit'?" + valid},
		{msgTool, `{"text":"hi"}`, ""},
		{mcp, `{"zzz":1}`, ""},
		{fileRead, ``, ""},
	} {
		if got := UnknownArguments(tc.tool, mustArgs(t, tc.args)); got != tc.want {
			t.Errorf("%s %s\n got %q\nwant %q", tc.tool.Name, tc.args, got, tc.want)
		}
	}
	// CheckCall: meta first, then keys.
	if _, _, r := CheckCall(fileRead, mustArgs(t, `{"Pth":"a"}`)); r != RequiredRationaleError {
		t.Errorf("CheckCall without rationale: %q", r)
	}
	if _, _, r := CheckCall(fileRead, mustArgs(t, `{"Pth":"a","_rationale":"r"}`)); !strings.HasPrefix(r, "Error: Unrecognized argument 'Pth'") {
		t.Errorf("CheckCall with an unknown key: %q", r)
	}
	if m, clean, r := CheckCall(fileRead, mustArgs(t, `{"Path":"a","_rationale":"r"}`)); r != "" || m.Rationale != "r" || string(clean.Encode()) != `{"Path":"a"}` {
		t.Errorf("CheckCall: %+v %s %q", m, clean.Encode(), r)
	}
}

// A frontline's spawn_agent call is checked as any tool's: no _rationale,
// or a key no parameter binds, is refused before the spawn.
func TestCheckSpawnAgentCall(t *testing.T) {
	tests := []struct{ args, want string }{
		{`{"Agent":"a","Task":"t","_rationale":"r"}`, ""},
		{`{"agent":"a","task":"t","context":"c","Rationale":"r"}`, ""},
		{`{"agent":"a","task":"t"}`, RequiredRationaleError},
		{`{"agent":"a","task":"t","_rationale":"  "}`, RequiredRationaleError},
		{`{"agent_name":"a","task":"t","_rationale":"r"}`, "Error: Unrecognized argument 'agent_name' for tool 'spawn_agent'."},
		{`{"Agnt":"a","Task":"t","_rationale":"r"}`, "Error: Unrecognized argument 'Agnt' for tool 'spawn_agent'. Did you mean 'Agent'? The tool was NOT executed. Valid arguments: Agent, Task, Context, _rationale, _timeout_seconds, _background."},
		{`not json`, ""},
	}
	if string(spawnAgent.Schema()) != preview.SpawnAgentParameters {
		t.Fatalf("the spawn_agent checked is not the one offered:\n%s\n%s", spawnAgent.Schema(), preview.SpawnAgentParameters)
	}
	for _, tt := range tests {
		got := CheckSpawnAgentCall(tt.args)
		if tt.want == "" && got != "" || tt.want != "" && !strings.HasPrefix(got, tt.want) {
			t.Errorf("CheckSpawnAgentCall(%s) = %q, want %q", tt.args, got, tt.want)
		}
	}
}
