package trialtools

import (
	"path"
	"strings"
)

// glob is file_list's pattern: slash-separated segments, each a path.Match
// pattern (* ? [...] within one name) or "**" (any number of folders,
// none included).
type glob struct {
	segs []string
	deep bool // holds "**"
}

// compileGlob checks and splits a pattern; "" (and patterns such as "./")
// give nil, which matches everything in the folder.
func compileGlob(g string) (*glob, error) {
	if g == "" {
		return nil, nil
	}
	if strings.HasPrefix(g, "/") {
		return nil, argErrorf("glob %s starts with '/'; it is matched below path, so write it relative to path (e.g. \"*.md\" or \"**/*.go\")", show(g))
	}
	out := &glob{}
	for _, s := range strings.Split(g, "/") {
		switch s {
		case "", ".":
			continue
		case "..":
			return nil, argErrorf("glob %s holds '..'; it is matched below path, so set path to the folder instead", show(g))
		case "**":
			out.deep = true
			if n := len(out.segs); n > 0 && out.segs[n-1] == "**" {
				continue
			}
		default:
			if _, err := path.Match(s, ""); err != nil {
				return nil, argErrorf("glob %s is not a valid pattern (%v); use * ? [...] within a name and ** across folders", show(g), err)
			}
		}
		out.segs = append(out.segs, s)
	}
	if len(out.segs) == 0 {
		return nil, nil
	}
	return out, nil
}

// recursive reports whether g reaches below the listed folder.
func (g *glob) recursive() bool { return g != nil && (g.deep || len(g.segs) > 1) }

// matchName reports whether a name directly in the listed folder matches.
func (g *glob) matchName(name string) bool { return g.match([]string{name}) }

// match reports whether the path whose segments are s (relative to the
// listed folder) matches. It runs in O(len(g.segs)·len(s)) whatever the
// pattern.
func (g *glob) match(s []string) bool {
	if g == nil {
		return true
	}
	prev := make([]bool, len(s)+1) // prev[j]: the segments so far match s[:j]
	cur := make([]bool, len(s)+1)
	prev[0] = true
	for _, p := range g.segs {
		cur[0] = p == "**" && prev[0]
		for j := 1; j <= len(s); j++ {
			if p == "**" {
				cur[j] = prev[j] || cur[j-1]
			} else {
				cur[j] = prev[j-1] && segMatch(p, s[j-1])
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(s)]
}

// descend reports whether a walk should go into the folder whose segments
// are s: always under "**", else only while s can still be a prefix of a
// match.
func (g *glob) descend(s []string) bool {
	if g.deep {
		return true
	}
	if len(s) >= len(g.segs) {
		return false
	}
	for i, name := range s {
		if !segMatch(g.segs[i], name) {
			return false
		}
	}
	return true
}

// mentions reports whether the pattern names s literally in a segment.
func (g *glob) mentions(s string) bool {
	if g == nil {
		return false
	}
	for _, p := range g.segs {
		if strings.Contains(p, s) {
			return true
		}
	}
	return false
}

// segMatch matches one name against one checked segment pattern.
func segMatch(p, name string) bool {
	ok, _ := path.Match(p, name)
	return ok
}
