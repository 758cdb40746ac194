package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// TestDotnetEnumParse: what .NET's Enum.TryParse(value, ignoreCase: true)
// makes of a value, for NetClaw's ModelRole (Main = 0, Fallback = 1,
// Compaction = 2).
func TestDotnetEnumParse(t *testing.T) {
	for _, tc := range []struct {
		in   string
		v    int32
		form enumForm
		ok   bool
	}{
		{"Main", 0, enumName, true},
		{"compaction", 2, enumName, true},
		{"  Fallback", 1, enumName, true},
		{"1", 1, enumNumber, true},
		{"42", 42, enumNumber, true},
		{"-3", -3, enumNumber, true},
		{"+2", 2, enumNumber, true},
		{" 007 ", 7, enumNumber, true},
		{"2147483647", 2147483647, enumNumber, true},
		{"2147483648", 0, 0, false}, // overflow fails outright
		{"99999999999", 0, 0, false},
		{"0x1", 0, 0, false},
		{"1,2", 0, 0, false},
		{"Main, Compaction", 2, enumList, true},
		{"Fallback,Compaction", 3, enumList, true},
		{"main , fallback", 1, enumList, true},
		{"Main,", 0, 0, false},
		{",Main", 0, 0, false},
		{"Main,,Compaction", 0, 0, false},
		{"Boss", 0, 0, false},
		{"-Main", 0, 0, false},
		{"", 0, 0, false},
		{"MAİN", 0, 0, false}, // dotted capital I is not I for OrdinalIgnoreCase
	} {
		v, form, ok := modelRoleEnum.parse(tc.in)
		if v != tc.v || form != tc.form || ok != tc.ok {
			t.Errorf("parse(%q) = %d, %d, %v; want %d, %d, %v", tc.in, v, form, ok, tc.v, tc.form, tc.ok)
		}
	}
	if got := modelRoleEnum.format(3); got != "3" {
		t.Errorf("format(3) = %q: .NET prints an undefined value as its number", got)
	}
}

// TestEnumValuesLoadAsDotnetParsesThem: the loader's TryParseModelRole and
// TryParseVisibility, on files on disk: what loads, with which effective
// value, and which warning says so.
func TestEnumValuesLoadAsDotnetParsesThem(t *testing.T) {
	cases := []struct {
		key, value string
		status     Status
		effective  string
		rules      []string
		message    string // substring of the first diagnostic's message
	}{
		{"modelRole", "Main", Loaded, "Main", nil, ""},
		{"modelRole", "compaction", Loaded, "Compaction", nil, ""},
		{"modelRole", `"  "`, Loaded, "Compaction", nil, ""},
		{"modelRole", "Fallback", Loaded, "Fallback", []string{RuleModelRole}, "not documented"},
		{"modelRole", "1", Loaded, "Fallback", []string{RuleEnumLoose}, "modelRole '1' is a number: the runtime's enum parser (.NET Enum.TryParse) accepts any number and reads Fallback"},
		{"modelRole", "42", Loaded, "42", []string{RuleEnumLoose}, "reads 42, which is not a role (Main = 0, Fallback = 1, Compaction = 2), and loads the file with it; a spawn asks for the model of that role, and the runtime gives it the Main model"},
		{"modelRole", "-3", Loaded, "-3", []string{RuleEnumLoose}, "reads -3, which is not a role"},
		{"modelRole", `"Main, Compaction"`, Loaded, "Compaction", []string{RuleEnumLoose}, "is a comma list: the runtime's enum parser (.NET Enum.TryParse) combines the members' numbers (Main = 0, Fallback = 1, Compaction = 2) and reads Compaction"},
		{"modelRole", `"Fallback, Compaction"`, Loaded, "3", []string{RuleEnumLoose}, "reads 3, which is not a role"},
		{"modelRole", `"Main,"`, Rejected, "Main,", []string{RuleModelRole}, "invalid modelRole 'Main,' (expected Main or Compaction)"},
		{"modelRole", "0x1", Rejected, "0x1", []string{RuleModelRole}, "invalid modelRole '0x1'"},
		{"modelRole", "99999999999", Rejected, "99999999999", []string{RuleModelRole}, "invalid modelRole"},
		{"modelRole", "Boss", Rejected, "Boss", []string{RuleModelRole}, "invalid modelRole 'Boss'"},
		{"visibility", "user-facing", Loaded, "user-facing", nil, ""},
		{"visibility", "UserFacing", Loaded, "user-facing", nil, ""},
		{"visibility", "INTERNAL", Loaded, "internal", nil, ""},
		{"visibility", "user-facing-", Loaded, "user-facing", []string{RuleEnumLoose}, "visibility 'user-facing-' loads only because the runtime removes every '-' before parsing it: it reads user-facing"},
		{"visibility", "-internal", Loaded, "internal", []string{RuleEnumLoose}, "removes every '-'"},
		{"visibility", "in-ternal", Loaded, "internal", []string{RuleEnumLoose}, "removes every '-'"},
		{"visibility", "0", Loaded, "user-facing", []string{RuleEnumLoose}, "is a number"},
		{"visibility", "1", Loaded, "internal", []string{RuleEnumLoose}, "is a number"},
		{"visibility", "-1", Loaded, "internal", []string{RuleEnumLoose}, "is a number"},
		{"visibility", "7", Loaded, "7", []string{RuleEnumLoose}, "hidden like an internal one"},
		{"visibility", `"internal, userfacing"`, Loaded, "internal", []string{RuleEnumLoose}, "is a comma list"},
		{"visibility", "public", Rejected, "public", []string{RuleVisibility}, "invalid visibility 'public' (expected user-facing or internal)"},
	}
	root := t.TempDir()
	files := map[string]string{}
	for i, tc := range cases {
		files["agents/a"+fmtIndex(i)+".md"] = "---\nname: a" + fmtIndex(i) + "\ndescription: d\n" + tc.key + ": " + tc.value + "\n---\n\nBody.\n"
	}
	hometest.Write(t, root, files)
	c, err := Scan(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	for i, tc := range cases {
		f := c.File(filepath.Join(root, "agents", "a"+fmtIndex(i)+".md"))
		got := f.Def.ModelRole
		if tc.key == "visibility" {
			got = f.Def.Visibility
		}
		var rules []string
		for _, d := range f.Diagnostics {
			rules = append(rules, d.Rule)
		}
		if f.Status != tc.status || got != tc.effective || !slices.Equal(rules, tc.rules) {
			t.Errorf("%s: %s: %v, effective %q, rules %v; want %v, %q, %v", tc.key, tc.value, f.Status, got, rules, tc.status, tc.effective, tc.rules)
			continue
		}
		if tc.message != "" && !strings.Contains(f.Diagnostics[0].Message, tc.message) {
			t.Errorf("%s: %s: message %q lacks %q", tc.key, tc.value, f.Diagnostics[0].Message, tc.message)
		}
		if tc.status == Rejected && !strings.Contains(f.Reason, "has invalid "+tc.key+" '") {
			t.Errorf("%s: %s: reason %q", tc.key, tc.value, f.Reason)
		}
	}
	// An undefined visibility hides the agent from the layer and from routing.
	if f := c.Agent("a" + fmtIndex(22)); f == nil || f.Def.UserFacing() {
		t.Errorf("visibility 7 must load and not be user-facing: %+v", f)
	}
}

func fmtIndex(i int) string { return string(rune('a'+i/26)) + string(rune('a'+i%26)) }
