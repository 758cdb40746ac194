package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Styles holds every style the browser renders with, built once for a
// light or dark background, with or without colour. Panes never build
// styles of their own.
type Styles struct {
	// Dark says which background the colours were chosen for.
	Dark bool
	// Color is false when NO_COLOR or --color never asked for no colour;
	// then only bold, faint, underline and reverse are used.
	Color bool

	Header     lipgloss.Style // the top line
	HeaderDemo lipgloss.Style // the DEMO badge
	HeaderDim  lipgloss.Style

	ListItem     lipgloss.Style
	ListSelected lipgloss.Style // the selected row when the list has focus
	ListCursor   lipgloss.Style // the selected row when another pane has focus
	ListSection  lipgloss.Style // "Loaded (3)" headings
	MarkLoaded   lipgloss.Style
	MarkWarning  lipgloss.Style
	MarkRejected lipgloss.Style
	Source       lipgloss.Style
	FilterPrompt lipgloss.Style

	TabActive   lipgloss.Style
	TabInactive lipgloss.Style
	Separator   lipgloss.Style

	Footer    lipgloss.Style
	FooterKey lipgloss.Style
	Flash     lipgloss.Style
	FlashBad  lipgloss.Style

	Title     lipgloss.Style // a heading inside a pane
	Label     lipgloss.Style // a field name
	Default   lipgloss.Style // "(default)" next to a value the file did not set
	Dim       lipgloss.Style
	Error     lipgloss.Style
	Warning   lipgloss.Style
	Hint      lipgloss.Style
	Highlight lipgloss.Style // the offending line of a rejected file
	LineNo    lipgloss.Style

	Banner     lipgloss.Style // neutral notices ("disabled by config")
	BannerGood lipgloss.Style // a completed run
	BannerBad  lipgloss.Style // a failed or partial run
	Thinking   lipgloss.Style
	Tool       lipgloss.Style
	DiffAdd    lipgloss.Style
	DiffDel    lipgloss.Style
	DiffHunk   lipgloss.Style

	Overlay      lipgloss.Style // the box around help and prompts
	OverlayTitle lipgloss.Style
}

// palette is the handful of colours the styles draw from.
type palette struct {
	accent, fg, dim, subtle, good, warn, bad, selBg, selFg, hiBg color.Color
}

func newPalette(dark bool) palette {
	ld := lipgloss.LightDark(dark)
	return palette{
		accent: ld(lipgloss.Color("#5A3FC0"), lipgloss.Color("#9D8CFF")),
		fg:     ld(lipgloss.Color("#1C1C1C"), lipgloss.Color("#E4E4E4")),
		dim:    ld(lipgloss.Color("#6C6C6C"), lipgloss.Color("#8A8A8A")),
		subtle: ld(lipgloss.Color("#D0D0D0"), lipgloss.Color("#3A3A3A")),
		good:   ld(lipgloss.Color("#1E7B34"), lipgloss.Color("#5FD787")),
		warn:   ld(lipgloss.Color("#8A5A00"), lipgloss.Color("#FFC24B")),
		bad:    ld(lipgloss.Color("#B3261E"), lipgloss.Color("#FF6B6B")),
		selBg:  ld(lipgloss.Color("#E3DDFF"), lipgloss.Color("#3B2F7A")),
		selFg:  ld(lipgloss.Color("#1C1C1C"), lipgloss.Color("#FFFFFF")),
		hiBg:   ld(lipgloss.Color("#FFE3E0"), lipgloss.Color("#5A1E1E")),
	}
}

// NewStyles returns the styles for a dark or light background. With
// useColor false every style is colourless (NO_COLOR).
func NewStyles(dark, useColor bool) Styles {
	s := Styles{Dark: dark, Color: useColor}
	plain := lipgloss.NewStyle()
	if !useColor {
		s.Header = plain.Reverse(true)
		s.HeaderDemo = plain.Reverse(true).Bold(true)
		s.HeaderDim = plain.Reverse(true)
		s.ListItem = plain
		s.ListSelected = plain.Reverse(true)
		s.ListCursor = plain.Underline(true)
		s.ListSection = plain.Bold(true)
		s.MarkLoaded, s.MarkWarning, s.MarkRejected = plain, plain, plain.Bold(true)
		s.Source = plain
		s.FilterPrompt = plain.Bold(true)
		s.TabActive = plain.Reverse(true).Bold(true)
		s.TabInactive = plain
		s.Separator = plain
		s.Footer = plain
		s.FooterKey = plain.Bold(true)
		s.Flash = plain.Bold(true)
		s.FlashBad = plain.Bold(true)
		s.Title = plain.Bold(true)
		s.Label = plain.Bold(true)
		s.Default = plain
		s.Dim = plain
		s.Error = plain.Bold(true)
		s.Warning = plain
		s.Hint = plain
		s.Highlight = plain.Reverse(true)
		s.LineNo = plain
		s.Banner = plain.Reverse(true)
		s.BannerGood = plain.Reverse(true)
		s.BannerBad = plain.Reverse(true).Bold(true)
		s.Thinking = plain.Faint(true)
		s.Tool = plain.Bold(true)
		s.DiffAdd, s.DiffDel, s.DiffHunk = plain, plain, plain.Bold(true)
		s.Overlay = plain.Border(lipgloss.NormalBorder()).Padding(0, 1)
		s.OverlayTitle = plain.Bold(true)
		return s
	}
	p := newPalette(dark)
	s.Header = plain.Background(p.accent).Foreground(lipgloss.Color("#FFFFFF")).Bold(true)
	s.HeaderDemo = plain.Background(p.warn).Foreground(lipgloss.Color("#000000")).Bold(true)
	s.HeaderDim = plain.Background(p.accent).Foreground(lipgloss.Color("#E0DAFF"))
	s.ListItem = plain.Foreground(p.fg)
	s.ListSelected = plain.Background(p.selBg).Foreground(p.selFg).Bold(true)
	s.ListCursor = plain.Background(p.subtle).Foreground(p.fg)
	s.ListSection = plain.Foreground(p.accent).Bold(true)
	s.MarkLoaded = plain.Foreground(p.good)
	s.MarkWarning = plain.Foreground(p.warn)
	s.MarkRejected = plain.Foreground(p.bad).Bold(true)
	s.Source = plain.Foreground(p.dim)
	s.FilterPrompt = plain.Foreground(p.accent).Bold(true)
	s.TabActive = plain.Background(p.accent).Foreground(lipgloss.Color("#FFFFFF")).Bold(true)
	s.TabInactive = plain.Foreground(p.dim)
	s.Separator = plain.Foreground(p.subtle)
	s.Footer = plain.Foreground(p.dim)
	s.FooterKey = plain.Foreground(p.accent).Bold(true)
	s.Flash = plain.Foreground(p.good).Bold(true)
	s.FlashBad = plain.Foreground(p.bad).Bold(true)
	s.Title = plain.Foreground(p.accent).Bold(true)
	s.Label = plain.Foreground(p.fg).Bold(true)
	s.Default = plain.Foreground(p.dim).Italic(true)
	s.Dim = plain.Foreground(p.dim)
	s.Error = plain.Foreground(p.bad).Bold(true)
	s.Warning = plain.Foreground(p.warn).Bold(true)
	s.Hint = plain.Foreground(p.good)
	s.Highlight = plain.Background(p.hiBg).Foreground(p.fg)
	s.LineNo = plain.Foreground(p.dim)
	s.Banner = plain.Background(p.subtle).Foreground(p.fg).Bold(true)
	s.BannerGood = plain.Background(p.good).Foreground(lipgloss.Color("#000000")).Bold(true)
	s.BannerBad = plain.Background(p.bad).Foreground(lipgloss.Color("#FFFFFF")).Bold(true)
	s.Thinking = plain.Foreground(p.dim).Faint(true)
	s.Tool = plain.Foreground(p.accent)
	s.DiffAdd = plain.Foreground(p.good)
	s.DiffDel = plain.Foreground(p.bad)
	s.DiffHunk = plain.Foreground(p.accent)
	s.Overlay = plain.Border(lipgloss.RoundedBorder()).BorderForeground(p.accent).Padding(0, 1)
	s.OverlayTitle = plain.Foreground(p.accent).Bold(true)
	return s
}

// styledLines renders each of lines in style s, in place, and returns
// them.
func styledLines(s lipgloss.Style, lines []string) []string {
	for i, l := range lines {
		lines[i] = s.Render(l)
	}
	return lines
}
