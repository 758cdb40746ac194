package rundiff

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint/termsafe"
)

const (
	sgrReset = "\x1b[0m"
	sgrBold  = "\x1b[1m"
	sgrDim   = "\x1b[2m"
	sgrRed   = "\x1b[31m"
	sgrGreen = "\x1b[32m"
)

// contextWords is how many unchanged words the output diff shows on each
// side of a change; longer unchanged stretches are folded.
const contextWords = 12

// painter colours text when on is set.
type painter bool

func (p painter) paint(sgr, s string) string {
	if !p || s == "" {
		return s
	}
	return sgr + s + sgrReset
}

// Text renders the comparison for a terminal or a file: a summary, then
// a section per thing that changed. Text taken from runs is escaped.
// With color, changes are coloured (red before, green after); without,
// the output diff marks them [-so-] and {+so+}.
func Text(c *Comparison, color bool) string {
	p := painter(color)
	var b strings.Builder
	esc := termsafe.Escape
	fmt.Fprintf(&b, "%s %s → %s\n", p.paint(sgrBold, "Comparing runs"), short(c.Before.RunID), short(c.After.RunID))
	for _, s := range []struct {
		label string
		side  Side
	}{{"before", c.Before}, {"after ", c.After}} {
		fmt.Fprintf(&b, "  %s %s  %s · %s · %s%s\n", s.label, s.side.RunID, esc(s.side.Agent), esc(orDash(s.side.Model)),
			startedText(s.side), tags(s.side))
	}
	if c.DifferentAgent {
		fmt.Fprintf(&b, "  %s\n", p.paint(sgrBold, fmt.Sprintf("Different agents: %s → %s", esc(c.Before.Agent), esc(c.After.Agent))))
	}
	if c.DifferentModel {
		fmt.Fprintf(&b, "  %s\n", p.paint(sgrBold, fmt.Sprintf("Different models: %s → %s", esc(orDash(c.Before.Model)), esc(orDash(c.After.Model)))))
	}
	b.WriteString("\n")
	for _, r := range SummaryRows(c) {
		fmt.Fprintf(&b, "%-12s %s\n", r[0], r[1])
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note: %s\n", esc(n))
	}
	for _, pd := range c.Request.Parts {
		if pd.Status == PartSame {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", p.paint(sgrBold, "## Request: "+pd.Part+" ("+pd.Status+")"))
		writeUnified(&b, p, pd.Diff)
	}
	if c.ToolCalls.Added+c.ToolCalls.Removed+c.ToolCalls.Changed > 0 {
		fmt.Fprintf(&b, "\n%s\n", p.paint(sgrBold, "## Tool calls"))
		writeCalls(&b, p, c.ToolCalls)
	}
	if !c.Output.Same {
		fmt.Fprintf(&b, "\n%s\n", p.paint(sgrBold, "## Output"))
		writeWords(&b, p, c.Output)
	}
	if !c.Changes.Same {
		fmt.Fprintf(&b, "\n%s\n", p.paint(sgrBold, "## Changes (a diff of the two changes.patch)"))
		writeUnified(&b, p, c.Changes.Diff)
	}
	return b.String()
}

// SummaryRows are the comparison's summary, a label and a line each:
// outcome, request, tool calls, output, the metrics, changes. The text is
// not escaped.
func SummaryRows(c *Comparison) [][2]string {
	rows := [][2]string{
		{"Outcome", outcomeLine(c)},
		{"Request", requestLine(c.Request)},
		{"Tool calls", callsLine(c.ToolCalls)},
		{"Output", outputLine(c.Output)},
	}
	for _, m := range c.Metrics {
		rows = append(rows, [2]string{capital(m.Name), metricLine(m)})
	}
	return append(rows, [2]string{"Changes", patchLine(c.Changes)})
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func startedText(s Side) string {
	if s.StartedAt.IsZero() {
		return "-"
	}
	return s.StartedAt.Local().Format("2006-01-02 15:04:05")
}

func tags(s Side) string {
	var t []string
	if s.Replay {
		t = append(t, "replay")
	}
	if s.Suite != "" {
		t = append(t, termsafe.Escape(s.Suite))
	}
	if len(t) == 0 {
		return ""
	}
	return " (" + strings.Join(t, ", ") + ")"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func outcomeLine(c *Comparison) string {
	before := withReason(c.Outcome.Before, c.Reason.Before)
	after := withReason(c.Outcome.After, c.Reason.After)
	if before == after {
		return before + " (unchanged)"
	}
	return before + " → " + after
}

func withReason(outcome, reason string) string {
	outcome = orDash(outcome)
	if reason == "" {
		return outcome
	}
	return outcome + " (" + termsafe.Escape(reason) + ")"
}

func requestLine(r RequestDiff) string {
	if len(r.Parts) == 0 {
		return "not compared (no request kept)"
	}
	if len(r.Changed) == 0 {
		return fmt.Sprintf("the same (%d parts)", len(r.Parts))
	}
	return fmt.Sprintf("%d of %d parts changed: %s", len(r.Changed), len(r.Parts), strings.Join(r.Changed, ", "))
}

func callsLine(d CallsDiff) string {
	s := fmt.Sprintf("%d → %d", d.Before, d.After)
	var parts []string
	for _, x := range []struct {
		n    int
		what string
	}{{d.Added, "added"}, {d.Removed, "removed"}, {d.Changed, "changed"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.n, x.what))
		}
	}
	if len(parts) == 0 {
		if d.Before == 0 {
			return "none"
		}
		return s + " (the same sequence)"
	}
	return s + ": " + strings.Join(parts, ", ")
}

func outputLine(d OutputDiff) string {
	if d.Same {
		return fmt.Sprintf("the same (%s words)", thousands(int64(d.AfterWords)))
	}
	return fmt.Sprintf("%s → %s words (%s): %s added, %s removed", thousands(int64(d.BeforeWords)), thousands(int64(d.AfterWords)),
		signed(int64(d.AfterWords-d.BeforeWords)), thousands(int64(d.Added)), thousands(int64(d.Removed)))
}

func metricLine(m Metric) string {
	v := func(x *int64) string {
		if x == nil {
			return "-"
		}
		return quantity(*x, m.Unit)
	}
	s := v(m.Before) + " → " + v(m.After)
	if m.Delta != nil {
		if *m.Delta == 0 {
			return s + " (unchanged)"
		}
		return s + " (" + signedQuantity(*m.Delta, m.Unit) + ")"
	}
	return s
}

func quantity(x int64, unit string) string {
	if unit == "ms" {
		if x >= 10_000 || x <= -10_000 {
			return strconv.FormatFloat(float64(x)/1000, 'f', 1, 64) + " s"
		}
		return thousands(x) + " ms"
	}
	return thousands(x)
}

func signedQuantity(x int64, unit string) string {
	q := quantity(x, unit)
	if x > 0 {
		return "+" + q
	}
	return strings.Replace(q, "-", "−", 1)
}

func signed(x int64) string { return signedQuantity(x, "") }

func thousands(x int64) string {
	s := strconv.FormatInt(x, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

func patchLine(d PatchDiff) string {
	if d.Same {
		if len(d.AfterFiles) == 0 {
			return "none in either run"
		}
		return fmt.Sprintf("the same %d files", len(d.AfterFiles))
	}
	return fmt.Sprintf("%d → %d files changed; the patches differ", len(d.BeforeFiles), len(d.AfterFiles))
}

// writeUnified writes a unified diff, escaped, colouring its lines.
func writeUnified(b *strings.Builder, p painter, diff string) {
	for _, line := range strings.SplitAfter(diff, "\n") {
		if line == "" {
			continue
		}
		text := termsafe.Escape(strings.TrimSuffix(line, "\n"))
		switch {
		case strings.HasPrefix(line, "+++"), strings.HasPrefix(line, "---"):
			text = p.paint(sgrBold, text)
		case strings.HasPrefix(line, "@@"):
			text = p.paint(sgrDim, text)
		case strings.HasPrefix(line, "+"):
			text = p.paint(sgrGreen, text)
		case strings.HasPrefix(line, "-"):
			text = p.paint(sgrRed, text)
		}
		b.WriteString(text + "\n")
	}
}

// writeCalls writes the aligned call sequence: "=" same, "+" added,
// "-" removed, "~" changed (with both sides).
func writeCalls(b *strings.Builder, p painter, d CallsDiff) {
	for _, s := range d.Steps {
		name := termsafe.Escape(s.Name)
		switch s.Op {
		case OpSame:
			fmt.Fprintf(b, "  = %s %s\n", name, p.paint(sgrDim, callText(s.After)))
		case OpAdded:
			b.WriteString(p.paint(sgrGreen, "  + "+name+" "+callText(s.After)) + "\n")
		case OpRemoved:
			b.WriteString(p.paint(sgrRed, "  - "+name+" "+callText(s.Before)) + "\n")
		case OpChanged:
			fmt.Fprintf(b, "  ~ %s (%s changed)\n", name, strings.Join(s.What, ", "))
			b.WriteString(p.paint(sgrRed, "      before: "+callText(s.Before)) + "\n")
			b.WriteString(p.paint(sgrGreen, "      after:  "+callText(s.After)) + "\n")
		}
	}
}

// callText is a call's arguments, cut to one line, and its label.
func callText(c *CallSide) string {
	if c == nil {
		return ""
	}
	args := strings.Join(strings.Fields(c.Arguments), " ")
	if r := []rune(args); len(r) > 160 {
		args = string(r[:159]) + "…"
	}
	s := termsafe.Escape(args)
	if c.Label != "" {
		s += " [" + termsafe.Escape(c.Label) + "]"
	}
	if c.Error {
		s += " (error)"
	}
	return s
}

// writeWords writes the output's word diff, folding long unchanged
// stretches to contextWords words on each side. Each span is escaped
// before it is coloured, so nothing from the model reaches the terminal
// raw.
func writeWords(b *strings.Builder, p painter, d OutputDiff) {
	last := ""
	for i, s := range d.Spans {
		text := s.Text
		if s.Op == SpanEqual {
			text = fold(text, i > 0, i < len(d.Spans)-1)
		}
		text = termsafe.EscapeLines(text)
		switch {
		case s.Op == SpanAdded && bool(p):
			text = sgrGreen + text + sgrReset
		case s.Op == SpanAdded:
			text = "{+" + text + "+}"
		case s.Op == SpanRemoved && bool(p):
			text = sgrRed + text + sgrReset
		case s.Op == SpanRemoved:
			text = "[-" + text + "-]"
		}
		b.WriteString(text)
		last = text
	}
	if !strings.HasSuffix(last, "\n") {
		b.WriteString("\n")
	}
}

// fold keeps the words of an unchanged stretch next to a change (at its
// end when before is set: a change comes before it; at its start when
// after is set) and folds the rest into a count.
func fold(text string, before, after bool) string {
	head, tail := 0, 0
	if before {
		head = contextWords
	}
	if after {
		tail = contextWords
	}
	// Cut after the head-th word from the start and before the tail-th
	// word from the end; fold only when enough words lie between.
	cutHead := wordsFromStart(text, head)
	cutTail := wordsFromEnd(text, tail)
	if cutTail <= cutHead {
		return text
	}
	folded := countWords(text[cutHead:cutTail])
	if folded <= 2 {
		return text
	}
	return text[:cutHead] + fmt.Sprintf(" …(%s unchanged words)… ", thousands(int64(folded))) + text[cutTail:]
}

// wordsFromStart returns the index just past the n-th word of s.
func wordsFromStart(s string, n int) int {
	seen, inWord := 0, false
	for i := 0; i < len(s); {
		sp, size := spaceAt(s, i)
		if inWord && sp {
			seen++
			if seen == n {
				return i
			}
		}
		inWord = !sp
		i += size
	}
	if n == 0 {
		return 0
	}
	return len(s)
}

// wordsFromEnd returns the index where the n-th word from the end of s
// starts.
func wordsFromEnd(s string, n int) int {
	if n == 0 {
		return len(s)
	}
	seen, inWord := 0, false
	for i := len(s); i > 0; {
		r, size := utf8.DecodeLastRuneInString(s[:i])
		sp := unicode.IsSpace(r)
		if inWord && sp {
			seen++
			if seen == n {
				return i
			}
		}
		inWord = !sp
		i -= size
	}
	return 0
}

// countWords counts the words of s.
func countWords(s string) int {
	n, inWord := 0, false
	for i := 0; i < len(s); {
		c := s[i]
		sp, size := false, 1
		if c < utf8.RuneSelf {
			sp = asciiSpace[c]
		} else {
			sp, size = spaceAt(s, i)
		}
		if !sp && !inWord {
			n++
		}
		inWord = !sp
		i += size
	}
	return n
}
