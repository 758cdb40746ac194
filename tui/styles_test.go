package tui

import (
	"image/color"
	"regexp"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// colourSGR matches an SGR sequence that sets a colour (30–37, 38;…, 40–47,
// 48;…, 90–97, 100–107).
var colourSGR = regexp.MustCompile(`\x1b\[[0-9;:]*(?:^|;)?(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:[;:][0-9;:]*)?m`)

func TestNoColorMeansNoColour(t *testing.T) {
	for _, useColor := range []bool{false, true} {
		tmp, base := copyHome(t, "home")
		tm := newTestModel(t, tmp, base, 100, 30)
		tm.st = NewStyles(true, useColor)
		tm.opts.Color = useColor
		tm.send(tea.BackgroundColorMsg{Color: color.White}) // a light terminal
		frames := ""
		for _, k := range []string{"1", "G", "2", "?"} {
			tm.keys(k)
			frames += tm.View().Content
		}
		has := colourSGR.MatchString(frames)
		if has != useColor {
			t.Errorf("colour %v: colour sequences in the frames: %v", useColor, has)
		}
	}
}

func TestStylesFollowTheBackground(t *testing.T) {
	dark, light := NewStyles(true, true), NewStyles(false, true)
	if dark.Error.Render("x") == light.Error.Render("x") {
		t.Error("dark and light backgrounds render the same colours")
	}
	tmp, base := copyHome(t, "home")
	tm := newTestModel(t, tmp, base, 80, 24)
	tm.opts.Color = true
	tm.send(tea.BackgroundColorMsg{Color: color.White})
	if tm.st.Dark {
		t.Error("a light background should give light styles")
	}
}
