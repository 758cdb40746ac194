package suitefile

import (
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// kind is one kind of suite file agentdesk lint checks.
type kind struct {
	suffix, name string
	// check reads and checks the file at path against the catalog (nil:
	// no catalog) and audit (nil: approve: items are not checked against
	// audiences), returning its text and diagnostics.
	check func(path string, c *lint.Catalog, audit ApproveAudit) (text string, diags []lint.Diagnostic)
}

// kinds lists the suite kinds; a new kind adds its line here.
var kinds = []kind{
	{TestSuffix, "test suite", func(path string, c *lint.Catalog, audit ApproveAudit) (string, []lint.Diagnostic) {
		s := Load(path)
		if len(s.Diagnostics) == 0 || s.Text != "" {
			Check(s, c)
			CheckApproveAudience(s, audit, "")
		}
		return s.Text, s.Diagnostics
	}},
	{RouteSuffix, "routing suite", func(path string, c *lint.Catalog, _ ApproveAudit) (string, []lint.Diagnostic) {
		s := LoadRoute(path)
		if len(s.Diagnostics) == 0 || s.Text != "" {
			CheckRoute(s, c)
		}
		return s.Text, s.Diagnostics
	}},
}

// IsSuite reports whether path names a suite file of any kind.
func IsSuite(path string) bool { return kindOf(path) != nil }

func kindOf(path string) *kind {
	base := filepath.Base(path)
	for i := range kinds {
		if strings.HasSuffix(base, kinds[i].suffix) && len(base) > len(kinds[i].suffix) {
			return &kinds[i]
		}
	}
	return nil
}

// FindAll returns the suite files of every kind in dir (top level only),
// sorted by name.
func FindAll(dir string) ([]string, error) {
	var out []string
	for _, k := range kinds {
		found, err := Find(dir, k.suffix)
		if err != nil {
			return nil, err
		}
		out = append(out, found...)
	}
	return out, nil
}

// AddTo checks the suite files at paths against c and adds them to
// c.Extra with their diagnostics, and the suite rules to c.ExtraRules, so
// that agentdesk lint reports them with everything else. check is the
// catalog the agents are looked up in (nil: not checked); most often c.
// audit checks approve: items against the audience a suite or case names
// (nil: not checked).
func AddTo(c *lint.Catalog, check *lint.Catalog, paths []string, audit ApproveAudit) {
	for _, p := range paths {
		k := kindOf(p)
		if k == nil {
			continue
		}
		text, diags := k.check(p, check, audit)
		c.Extra = append(c.Extra, &lint.ExtraFile{Path: p, Kind: k.name, Text: text, Diagnostics: diags})
	}
	for _, r := range Rules {
		if !hasRule(c.ExtraRules, r.ID) {
			c.ExtraRules = append(c.ExtraRules, r)
		}
	}
}

func hasRule(rs []lint.Rule, id string) bool {
	for _, r := range rs {
		if r.ID == id {
			return true
		}
	}
	return false
}
