package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The README is a landing page: at most 15 KB, with short sentences.
const (
	readmeMaxBytes     = 15 * 1024
	readmeMaxMedianLen = 15 // words; the median must stay under it
)

var (
	codeSpan     = regexp.MustCompile("`[^`]*`")
	mdLink       = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
	sentenceEnd  = regexp.MustCompile(`([.!?])\s+`)
	listItemMark = regexp.MustCompile(`^([-*]|\d+\.)\s+`)
)

// sentenceLengths returns the length in words of each sentence of a
// Markdown text's prose: code blocks, tables, headings and HTML comments
// are left out; a list item or a paragraph ends a sentence; a code span or
// a link counts as one word.
func sentenceLengths(md string) []int {
	var out []int
	var para []string
	flush := func() {
		if len(para) == 0 {
			return
		}
		text := codeSpan.ReplaceAllString(strings.Join(para, " "), "X")
		text = mdLink.ReplaceAllString(text, "$1")
		for _, s := range strings.Split(sentenceEnd.ReplaceAllString(text, "$1\n"), "\n") {
			if n := len(strings.Fields(s)); n > 0 {
				out = append(out, n)
			}
		}
		para = para[:0]
	}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		s := strings.TrimSpace(line)
		if strings.HasPrefix(s, "```") {
			fenced = !fenced
			flush()
			continue
		}
		if fenced {
			continue
		}
		if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "|") || strings.HasPrefix(s, "<!--") {
			flush()
			continue
		}
		if listItemMark.MatchString(s) {
			flush()
			s = listItemMark.ReplaceAllString(s, "")
		}
		para = append(para, s)
	}
	flush()
	return out
}

// median is the middle value of xs (the mean of the two middle ones for an
// even count).
func median(xs []int) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}

func TestSentenceLengths(t *testing.T) {
	got := sentenceLengths("# Title\n\nOne two three. Four `five six` five.\n\n```sh\nnot counted at all\n```\n\n| a | b |\n\n- [a link](x.md) item\n- next one here\n")
	if want := []int{3, 3, 3, 3}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if m := median([]int{1, 9, 3}); m != 3 {
		t.Errorf("median %v", m)
	}
}

// TestREADMEIsALandingPage reports the README's size and median sentence
// length, and fails above 15 KB or at a median of 15 words or more. It
// reports the pages of docs/ too, and holds them to the same median.
func TestREADMEIsALandingPage(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	lens := sentenceLengths(string(data))
	m := median(lens)
	t.Logf("README.md: %d bytes, %d sentences, median %.1f words", len(data), len(lens), m)
	if len(data) > readmeMaxBytes {
		t.Errorf("README.md is %d bytes, over %d: move reference material into docs/", len(data), readmeMaxBytes)
	}
	if m >= readmeMaxMedianLen {
		t.Errorf("README.md's median sentence is %.1f words, not under %d: one fact a sentence", m, readmeMaxMedianLen)
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	for _, p := range pages {
		text, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		l := sentenceLengths(string(text))
		t.Logf("docs/%s: %d bytes, %d sentences, median %.1f words", filepath.Base(p), len(text), len(l), median(l))
		if m := median(l); m >= readmeMaxMedianLen {
			t.Errorf("docs/%s's median sentence is %.1f words, not under %d: one fact a sentence", filepath.Base(p), m, readmeMaxMedianLen)
		}
	}
}

// TestCIRunsTheREADMEsTestCommand: .ci/run runs exactly the test command
// of the README's set-up block.
func TestCIRunsTheREADMEsTestCommand(t *testing.T) {
	root := filepath.Join("..", "..")
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	var cmd string
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.HasSuffix(l, "# the whole test suite") {
			cmd = strings.TrimSpace(strings.TrimSuffix(l, "# the whole test suite"))
		}
	}
	if cmd == "" || !strings.HasPrefix(cmd, "go vet ./...") {
		t.Fatalf("the README has no line ending '# the whole test suite' that starts with go vet: %q", cmd)
	}
	if !slices.Contains(strings.Split(string(ci), "\n"), cmd) {
		t.Errorf(".ci/run does not run the README's test command as a line of its own:\n%s", cmd)
	}
}

var (
	relLink     = regexp.MustCompile(`\]\(([^)#\s]*)(#[^)\s]*)?\)`)
	headingLine = regexp.MustCompile(`(?m)^#{1,6} +(.+)$`)
	slugDrop    = regexp.MustCompile(`[^\p{L}\p{N} _-]`)
)

// anchors lists the GitHub anchors of a Markdown text's headings.
func anchors(md string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if m := headingLine.FindStringSubmatch(line); m != nil && !fenced {
			slug := strings.ReplaceAll(slugDrop.ReplaceAllString(strings.ToLower(strings.TrimSpace(m[1])), ""), " ", "-")
			out[slug] = true
		}
	}
	return out
}

// TestDocLinksResolve: every relative link of README.md and docs/ names a
// file that exists, and a heading of it when it has an anchor.
func TestDocLinksResolve(t *testing.T) {
	root := filepath.Join("..", "..")
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "docs", "commands", "*.md"))
	pages = append(append([]string{filepath.Join(root, "README.md")}, pages...), more...)
	for _, p := range pages {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range relLink.FindAllStringSubmatch(string(data), -1) {
			target, anchor := m[1], strings.TrimPrefix(m[2], "#")
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file := p
			if target != "" {
				file = filepath.Join(filepath.Dir(p), filepath.FromSlash(target))
			}
			text, err := os.ReadFile(file)
			if err != nil {
				if fi, serr := os.Stat(file); serr == nil && fi.IsDir() && anchor == "" {
					continue
				}
				t.Errorf("%s links to %s, which does not exist", p, m[0])
				continue
			}
			if anchor != "" && !anchors(string(text))[anchor] {
				t.Errorf("%s links to %s: %s has no heading #%s", p, m[0], file, anchor)
			}
		}
	}
}
