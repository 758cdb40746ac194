package suitefile

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/agentdesk/agentdesk/lint"
)

// RouteSuffix ends the name of a routing suite file.
const RouteSuffix = ".route.yaml"

// DefaultRouteSamples is how many times a routing case is asked when
// neither the case nor the suite says.
const DefaultRouteSamples = 5

// RouteNone is the expectation of a request the frontline should answer
// itself.
const RouteNone = "none"

// RouteSuite is a routing suite: requests and the sub-agent the frontline
// model should pick for each (agentdesk route --suite).
type RouteSuite struct {
	// Path is the file; Text its text as read.
	Path, Text string
	// Audience is the session's audience ("Personal" by default; as
	// written otherwise, checked by Check).
	Audience    string
	AudiencePos lint.Pos
	// PreambleFile is the frontline's preamble, relative to the suite; ""
	// is agentdesk's default preamble. Preamble is its text, read by Check.
	PreambleFile string
	Preamble     string
	// ModelRole is the frontline's model role ("" is Main).
	ModelRole string
	// Samples is the suite's default number of samples a case.
	Samples int
	// Cases are the cases in file order.
	Cases []*RouteCase
	// VarsFile is the vars-file the template's cases are made from,
	// resolved against the suite's folder; "" without one.
	VarsFile string
	// Keys are where each suite key's value is.
	Keys map[string]lint.Pos
	// Diagnostics are everything wrong with the file, sorted.
	Diagnostics []lint.Diagnostic
}

// RouteCase is one request of a routing suite.
type RouteCase struct {
	// Name is unique in the suite. Pos is where the case starts.
	Name string
	Pos  lint.Pos
	// Request is the user's message.
	Request string
	// Expect is the agent the frontline should spawn, or RouteNone.
	Expect string
	// MinRate is the share of samples that must pick Expect (1 by
	// default).
	MinRate float64
	// Samples is how many times the request is asked.
	Samples int
	// Keys are where each key's value is.
	Keys map[string]lint.Pos
	// Problems are the errors of this case alone.
	Problems []lint.Diagnostic
	// Vars are the row the case was made from by filling the suite's
	// template; nil for a case written out.
	Vars map[string]string
}

var (
	routeSuiteKeys = []string{"audience", "preamble-file", "model-role", "samples", "cases", "vars", "vars-file", "template"}
	routeCaseKeys  = []string{"name", "request", "expect", "min-rate", "samples"}
)

// IsRouteSuite reports whether path names a routing suite file.
func IsRouteSuite(path string) bool {
	base := filepath.Base(path)
	return strings.HasSuffix(base, RouteSuffix) && len(base) > len(RouteSuffix)
}

// LoadRoute reads and parses the routing suite at path; a file that cannot
// be read is a suite with one diagnostic.
func LoadRoute(path string) *RouteSuite {
	data, err := readFile(path)
	if err != nil {
		return &RouteSuite{Path: path, Audience: "Personal", Keys: map[string]lint.Pos{},
			Diagnostics: []lint.Diagnostic{{Path: path, Pos: lint.Pos{Line: 1, Column: 1}, Rule: RuleUnreadable, Severity: lint.Error, Message: err.Error()}}}
	}
	return ParseRoute(path, data)
}

// ParseRoute reads a routing suite's text. It never fails: what is wrong
// is in Diagnostics (and in RouteCase.Problems for a case's own errors).
func ParseRoute(path string, data []byte) *RouteSuite {
	s := &RouteSuite{Path: path, Text: lint.DecodeText(data), Audience: "Personal", Samples: DefaultRouteSamples, Keys: map[string]lint.Pos{}}
	r := &reader{path: path}
	defer func() {
		lint.SortDiagnostics(r.diags)
		s.Diagnostics = dedupe(r.diags)
	}()
	root := r.document([]byte(s.Text))
	if root == nil {
		return s
	}
	var cases *yaml.Node
	var t templated
	r.mapping(root, "the suite", routeSuiteKeys, func(key string, k, v *yaml.Node) {
		s.Keys[key] = posOf(v)
		if t.key(key, v) {
			return
		}
		switch key {
		case "audience":
			r.routeAudience(s, v)
		case "preamble-file":
			s.PreambleFile = r.trimmed(v, key)
		case "model-role":
			s.ModelRole = r.modelRole(v)
		case "samples":
			if n, ok := r.samples(v); ok {
				s.Samples = n
			}
		case "cases":
			cases = v
		}
	})
	var nodes []*yaml.Node
	if cases != nil || t.template == nil {
		nodes = r.caseNodes(root, cases, "a request and the agent to expect")
	}
	taken := explicitNames(nodes)
	gens := r.expand(t, path, taken)
	s.VarsFile = t.varsFilePath(path)
	s.Cases = readCases(r, withGenerated(nodes, gens), func(n *yaml.Node, i int) (*RouteCase, bool) {
		var g *generated
		if i > len(nodes) {
			g = &gens[i-len(nodes)-1]
			r.missingVars(*g)
		}
		c := r.routeCase(n, i, s.Samples, taken)
		if c != nil && g != nil {
			c.Vars = g.row.Values
		}
		return c, c != nil
	})
	return s
}

func (c *RouteCase) caseName() (string, lint.Pos)     { return c.Name, c.Keys["name"] }
func (c *RouteCase) setProblems(ds []lint.Diagnostic) { c.Problems = ds }

// routeAudience reads a routing suite's audience into s: Personal or
// Team, in any case. Public, which cannot delegate, and any other value
// are reported and leave the default; an empty one is ignored.
func (r *reader) routeAudience(s *RouteSuite, v *yaml.Node) {
	a, ok := r.scalar(v, "audience")
	a = strings.TrimSpace(a)
	if !ok || a == "" {
		return
	}
	i := slices.IndexFunc([]string{"Personal", "Team", "Public"}, func(x string) bool { return strings.EqualFold(x, a) })
	switch {
	case i < 0:
		r.add(RuleValue, posOf(v), fmt.Sprintf("audience %q is not an audience", a), "use Personal or Team")
	case i == 2:
		r.add(RuleValue, posOf(v), "audience Public has no [available-subagents] layer and refuses spawn_agent: the frontline cannot delegate there", "use Personal or Team")
	default:
		s.Audience = []string{"Personal", "Team"}[i]
	}
	s.AudiencePos = posOf(v)
}

// samples reads a samples value: 1 to MaxRepeat.
func (r *reader) samples(v *yaml.Node) (int, bool) {
	return r.sampleCount(v, "samples", "")
}

// explicitNames are the names the cases give themselves, lower-cased.
func explicitNames(nodes []*yaml.Node) map[string]bool {
	out := map[string]bool{}
	for _, n := range nodes {
		if n.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == "name" && n.Content[i+1].Kind == yaml.ScalarNode {
				out[strings.ToLower(strings.TrimSpace(n.Content[i+1].Value))] = true
			}
		}
	}
	return out
}

// maxDefaultName caps a name taken from a request, in characters.
const maxDefaultName = 48

// nameFromRequest is the name of case number i that gives none: its
// request on one line, cut at a word to at most maxDefaultName
// characters, made unique in the suite (taken, lower-cased, is updated)
// with the case's number.
func nameFromRequest(request string, i int, taken map[string]bool) string {
	words := strings.Fields(request)
	name := strings.Join(words, " ")
	if utf8.RuneCountInString(name) > maxDefaultName {
		cut := ""
		for _, w := range words {
			next := w
			if cut != "" {
				next = cut + " " + w
			}
			if utf8.RuneCountInString(next) > maxDefaultName-3 {
				break
			}
			cut = next
		}
		if cut == "" {
			cut = string([]rune(name)[:maxDefaultName-3])
		}
		name = cut + "…"
	}
	if taken[strings.ToLower(name)] {
		name = fmt.Sprintf("%s (case %d)", name, i)
	}
	taken[strings.ToLower(name)] = true
	return name
}

// routeCase reads case number i; samples is the suite's default. A case
// with a request and no name is named after the request (taken holds
// the names in use).
func (r *reader) routeCase(n *yaml.Node, i, samples int, taken map[string]bool) *RouteCase {
	c := &RouteCase{Pos: posOf(n), MinRate: 1, Samples: samples, Keys: map[string]lint.Pos{}}
	what := fmt.Sprintf("case %d", i)
	ok := r.mapping(n, what, routeCaseKeys, func(key string, k, v *yaml.Node) {
		c.Keys[key] = posOf(v)
		switch key {
		case "name":
			c.Name = r.trimmed(v, key)
		case "request":
			c.Request, _ = r.scalar(v, key)
		case "expect":
			c.Expect = r.trimmed(v, key)
		case "min-rate":
			if f, ok := r.minRate(v); ok {
				c.MinRate = f
			}
		case "samples":
			if n, ok := r.samples(v); ok {
				c.Samples = n
			}
		}
	})
	if !ok {
		return nil
	}
	at := func(key string) lint.Pos { return keyPos(c.Keys, key, c.Pos) }
	if c.Name == "" && strings.TrimSpace(c.Request) != "" {
		c.Name = nameFromRequest(c.Request, i, taken)
		c.Keys["name"] = at("request")
	}
	r.nameCase(&c.Name, c.Keys, c.Pos, what)
	if strings.TrimSpace(c.Request) == "" {
		r.add(RuleMissing, at("request"), fmt.Sprintf("case %q has no request", c.Name), "add request: the user's message, as they would type it")
	}
	if c.Expect == "" {
		r.add(RuleMissing, at("expect"), fmt.Sprintf("case %q does not say which agent to expect", c.Name), "add expect: the agent the frontline should spawn, or none when it should answer itself")
	}
	return c
}

// minRate reads a routing case's min-rate: a share above 0 and at most
// 1; ok is false when v is not one (one out of range is reported).
func (r *reader) minRate(v *yaml.Node) (float64, bool) {
	f, ok := r.number(v, "min-rate")
	if !ok {
		return 0, false
	}
	if f <= 0 || f > 1 {
		r.add(RuleValue, posOf(v), fmt.Sprintf("min-rate is %v; give the share of samples that must pick the agent, above 0 and at most 1 (0.8 for 80%%)", f), "")
		return 0, false
	}
	return f, true
}

// CheckRoute adds the findings that need the catalog and the disk: an
// expected agent that is not in the layer (unknown, rejected, or internal;
// with did-you-mean), a preamble-file that cannot be read (its text goes
// into s.Preamble). c may be nil (agents not checked).
func CheckRoute(s *RouteSuite, c *lint.Catalog) {
	r := &reader{path: s.Path}
	if s.PreambleFile != "" {
		r.readPreamble(s)
	}
	if c != nil {
		var listed []string
		for _, f := range c.Loaded() {
			if f.Def.UserFacing() {
				listed = append(listed, f.Def.Name)
			}
		}
		for _, cs := range s.Cases {
			if cs.Expect == "" || strings.EqualFold(cs.Expect, RouteNone) {
				continue
			}
			before := len(r.diags)
			r.checkExpected(cs, c, listed)
			cs.Problems = append(cs.Problems, r.diags[before:]...)
		}
	}
	s.Diagnostics = appendNew(s.Diagnostics, r.diags) // a template's rows share its findings
	lint.SortDiagnostics(s.Diagnostics)
}

// readPreamble reads s's preamble-file (relative to the suite) into
// s.Preamble, and reports one that cannot be read or is empty.
func (r *reader) readPreamble(s *RouteSuite) {
	p := s.PreambleFile
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(s.Path), p)
	}
	data, err := ReadSideFile(p, MaxFileSize)
	switch {
	case err != nil:
		r.add(RuleFile, s.Keys["preamble-file"], fmt.Sprintf("preamble-file %s cannot be read: %v", s.PreambleFile, err), "give a file beside the suite, or leave the key out for agentdesk's neutral preamble")
	case strings.TrimSpace(string(data)) == "":
		r.add(RuleValue, s.Keys["preamble-file"], fmt.Sprintf("preamble-file %s is empty", s.PreambleFile), "write the frontline's preamble in it, or leave the key out")
	default:
		s.Preamble = lint.DecodeText(data)
	}
}

// checkExpected reports a routing case whose expected agent the layer
// does not list: internal, rejected, or not loaded (with the nearest of
// listed, the user-facing agents, or none).
func (r *reader) checkExpected(cs *RouteCase, c *lint.Catalog, listed []string) {
	pos := cs.Keys["expect"]
	switch f := c.Agent(cs.Expect); {
	case f != nil && !f.Def.UserFacing():
		r.add(RuleAgent, pos, fmt.Sprintf("agent %q is internal: the layer hides it, and spawn_agent refuses it", cs.Expect), "expect a user-facing agent, or none")
	case f == nil && c.RejectedAgent(cs.Expect) != nil:
		rf := c.RejectedAgent(cs.Expect)
		r.add(RuleAgent, pos, fmt.Sprintf("agent %q at %s is rejected: %s", cs.Expect, rf.Path, rf.Reason), "fix the definition (agentdesk lint shows why)")
	case f == nil:
		hint := "expect an agent the layer lists, or none"
		if m := suggest(cs.Expect, append(listed, RouteNone)); m != "" {
			hint = fmt.Sprintf("did you mean '%s'?", m)
		}
		r.add(RuleAgent, pos, fmt.Sprintf("agent %q is not loaded", cs.Expect), hint)
	}
}
