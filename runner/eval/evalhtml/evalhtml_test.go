package evalhtml

import (
	"bytes"
	"html/template"
	"strings"
	"testing"

	_ "github.com/agentdesk/agentdesk/lint/golden"
)

func TestNewChart(t *testing.T) {
	c := NewChart("t", []Bar{{Label: "a", Rate: 1, Status: "pass"}, {Label: strings.Repeat("long ", 20), Rate: 0, Status: "not recorded"}, {Label: "x", Rate: 7, Status: "weird"}})
	tests := []struct {
		got, want any
	}{
		{c.Height, 3*rowHeight + 8},
		{c.Bars[0].W, barWidth},
		{c.Bars[1].W, 3}, // a rate of 0 still shows its colour
		{c.Bars[1].Class, "not-recorded"},
		{len([]rune(c.Bars[1].Short)), labelRunes},
		{c.Bars[2].W, barWidth}, // capped at 1
		{c.Bars[2].Class, "error"},
		{c.Bars[1].Y - c.Bars[0].Y, rowHeight},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: %v, want %v", i, tt.got, tt.want)
		}
	}
}

// TestChartEscapes: a label is text in the SVG, never markup.
func TestChartEscapes(t *testing.T) {
	tpl := template.Must(template.New("x").Funcs(Funcs()).Parse(Base + `{{template "chart" .}}`))
	var b bytes.Buffer
	if err := tpl.Execute(&b, NewChart(`<b>"t"</b>`, []Bar{{Label: `</text><script>x</script>`, Rate: .5, Text: "1/2", Status: "fail"}})); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<script>") || strings.Contains(b.String(), "<b>") || !strings.Contains(b.String(), "&lt;script&gt;") {
		t.Errorf("not escaped:\n%s", b.String())
	}
}

func TestPercent(t *testing.T) {
	if Percent(2.0/3) != "67%" || Percent(0) != "0%" || StatusClass("pass") != "pass" {
		t.Error("Percent or StatusClass")
	}
}
