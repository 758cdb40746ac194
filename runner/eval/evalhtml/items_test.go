package evalhtml

import (
	"math"
	"regexp"
	"strconv"
	"testing"
	"unicode/utf8"
)

// The chart is wide enough for its longest value text ("12/13 samples,
// 5/6 cases" in the per-model chart): nothing is clipped at its right.
func TestChartFitsItsValues(t *testing.T) {
	c := NewChart("Pass rate per model", []Bar{
		{Label: "Main", Rate: 0.9, Text: "120/130 samples, 55/60 cases", Status: "fail"},
		{Label: "cheap", Rate: 1, Text: "2/2 samples, 1/1 cases", Status: "pass"},
	})
	for _, b := range c.Bars {
		// 12px system-ui: at most about 7.5px a character.
		need := b.ValueX + int(math.Ceil(float64(utf8.RuneCountInString(b.Text))*7.5))
		if c.Width < need {
			t.Errorf("chart width %d clips %q, which needs %d", c.Width, b.Text, need)
		}
	}
}

// Links keep WCAG AA contrast (4.5:1) on the page's background, in the
// light and in the dark colour scheme.
func TestLinkContrast(t *testing.T) {
	light := regexp.MustCompile(`:root \{[^}]*--bg:(#[0-9a-f]{6})[^}]*--link:(#[0-9a-f]{6})`).FindStringSubmatch(css)
	dark := regexp.MustCompile(`prefers-color-scheme: dark\) \{ :root \{[^}]*--bg:(#[0-9a-f]{6})[^}]*--link:(#[0-9a-f]{6})`).FindStringSubmatch(css)
	if light == nil || dark == nil {
		t.Fatal("the page sets no --link colour for both schemes")
	}
	for _, m := range [][]string{light, dark} {
		if r := contrast(m[1], m[2]); r < 4.5 {
			t.Errorf("link %s on %s: contrast %.2f, want at least 4.5", m[2], m[1], r)
		}
	}
	if !regexp.MustCompile(`\ba \{[^}]*color: var\(--link\)`).MatchString(css) {
		t.Error("links do not use --link")
	}
}

func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	var l float64
	for i, w := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}
