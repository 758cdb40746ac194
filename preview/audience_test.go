package preview

import (
	"encoding/json"
	"testing"
)

func TestParseAudience(t *testing.T) {
	tests := []struct {
		in      string
		want    Audience
		wantErr bool
	}{
		{"Personal", Personal, false},
		{"personal", Personal, false},
		{"PERSONAL", Personal, false},
		{"Team", Team, false},
		{"tEaM", Team, false},
		{"public", Public, false},
		{" Public ", Public, false},
		{"", Personal, true},
		{"private", Personal, true},
		{"Publics", Personal, true},
		{"Team\x00", Personal, true},
	}
	for _, tt := range tests {
		got, err := ParseAudience(tt.in)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("ParseAudience(%q) = %v, %v; want %v, error %v", tt.in, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestAudienceText(t *testing.T) {
	for _, a := range Audiences {
		b, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != `"`+a.String()+`"` {
			t.Errorf("json of %v = %s", a, b)
		}
		var back Audience
		if err := json.Unmarshal(b, &back); err != nil || back != a {
			t.Errorf("round trip of %v = %v, %v", a, back, err)
		}
	}
	if _, err := json.Marshal(Audience(9)); err == nil {
		t.Error("encoding an invalid audience should fail")
	}
	if got := Audience(9).String(); got != "Audience(9)" {
		t.Errorf("String of an invalid audience = %q", got)
	}
}

func FuzzParseAudience(f *testing.F) {
	for _, s := range []string{"Public", "team", "PERSONAL", "", "x", "Ｔeam"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAudience(s)
		if err != nil {
			return
		}
		// Whatever parses prints back to a canonical name that parses to
		// the same audience.
		back, err := ParseAudience(a.String())
		if err != nil || back != a {
			t.Fatalf("%q parsed to %v, which reparses to %v, %v", s, a, back, err)
		}
	})
}
