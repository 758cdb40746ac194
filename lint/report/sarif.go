package report

import (
	"io"
	"net/url"
	"path/filepath"
	"slices"

	"github.com/agentdesk/agentdesk/lint"
)

// SARIF constants.
const (
	sarifSchema  = "https://json.schemastore.org/sarif-2.1.0.json"
	sarifVersion = "2.1.0"
	// InformationURI is the tool's home page, reported in SARIF output.
	InformationURI = "https://github.com/agentdesk/agentdesk"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifText          `json:"shortDescription"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex int             `json:"ruleIndex"`
	Level     string          `json:"level"`
	Message   sarifText       `json:"message"`
	Locations []sarifLocation `json:"locations,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// SARIF prints c as a SARIF 2.1.0 log with one run: tool.driver lists every
// rule of lint.Rules and of c.ExtraRules (id, shortDescription, and its level under the
// catalog's profile as defaultConfiguration), and each diagnostic is a
// result with ruleId, ruleIndex, level, message and one location. A file
// inside opts.Dir has a relative URI with forward slashes (what GitHub code
// scanning expects, relative to the checkout); a file outside it has an
// absolute file:// URI. A diagnostic about the whole file has no region; one
// about the environment has no location. A hint follows the message on a
// second line. The document is indented by two spaces and ends with a
// newline.
func SARIF(w io.Writer, c *lint.Catalog, opts Options) error {
	dir := opts.dir()
	index := make(map[string]int, len(lint.Rules))
	driver := sarifDriver{
		Name:           "agentdesk",
		Version:        opts.Version,
		InformationURI: InformationURI,
		Rules:          make([]sarifRule, 0, len(lint.Rules)),
	}
	for _, r := range append(slices.Clip(lint.Rules), c.ExtraRules...) {
		if _, dup := index[r.ID]; dup {
			continue
		}
		index[r.ID] = len(driver.Rules)
		driver.Rules = append(driver.Rules, sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifText{r.Summary},
			DefaultConfiguration: sarifConfiguration{sarifLevel(r.Severity(c.Profile))},
		})
	}
	results := []sarifResult{}
	for _, l := range flatten(entries(c), dir) {
		i, ok := index[l.Rule]
		if !ok {
			// A rule lint.Rules does not list: add it so that ruleIndex
			// stays valid.
			i = len(driver.Rules)
			index[l.Rule] = i
			driver.Rules = append(driver.Rules, sarifRule{
				ID:                   l.Rule,
				ShortDescription:     sarifText{l.Rule},
				DefaultConfiguration: sarifConfiguration{sarifLevel(l.Severity)},
			})
		}
		res := sarifResult{
			RuleID:    l.Rule,
			RuleIndex: i,
			Level:     sarifLevel(l.Severity),
			Message:   sarifText{withHint(l.Message, l.Hint)},
		}
		if !isEnvironment(l.Path) {
			loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{
				ArtifactLocation: sarifArtifactLocation{URI: fileURI(l.Path, dir)},
			}}
			if l.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: l.Line, StartColumn: l.Column}
			}
			res.Locations = []sarifLocation{loc}
		}
		results = append(results, res)
	}
	doc := sarifLog{
		Schema:  sarifSchema,
		Version: sarifVersion,
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	}
	return writeJSON(w, doc, "SARIF report")
}

// sarifLevel maps a severity to a SARIF level.
func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	case lint.Info:
		return "note"
	}
	return "none"
}

// withHint returns message, and the hint on a second line when there is one.
func withHint(message, hint string) string {
	if hint == "" {
		return message
	}
	return message + "\nhint: " + hint
}

// fileURI returns path as a URI: relative with forward slashes when it lies
// inside dir, else an absolute file:// URI. Characters a URI cannot hold
// raw are percent-encoded.
func fileURI(path, dir string) string {
	if rel, ok := insideDir(path, dir); ok {
		return (&url.URL{Path: rel}).EscapedPath()
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}
