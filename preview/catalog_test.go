package preview

import (
	"fmt"
	"math/rand/v2"

	"github.com/agentdesk/agentdesk/lint"
)

// agentSpec describes one hand-built agent file of a test catalog.
type agentSpec struct {
	name, desc string
	timeout    int    // 0: the default, 60
	internal   bool   // visibility internal
	rejected   bool   // the runtime skips the file
	feed       string // "" for a local file
	body       string
}

// handCatalog builds a catalog by hand, the way lint.Scan would fill one,
// with the runtime's default configuration unless cfg is given.
func handCatalog(agentsDir string, cfg *lint.Config, specs ...agentSpec) *lint.Catalog {
	c := &lint.Catalog{
		Home:   lint.NewHome("/home/u/.netclaw", agentsDir),
		Config: cfg,
	}
	for i, s := range specs {
		vis := lint.DefaultVisibility
		if s.internal {
			vis = "internal"
		}
		timeout := s.timeout
		if timeout == 0 {
			timeout = lint.DefaultTimeoutSeconds
		}
		body := s.body
		if body == "" {
			body = "You are " + s.name + ".\n"
		}
		f := &lint.File{
			Path:   fmt.Sprintf("%s/%03d-%s.md", c.Home.Agents, i, s.name),
			Source: lint.Source{Feed: s.feed},
			Def: &lint.Definition{
				Name:           s.name,
				Description:    s.desc,
				ModelRole:      lint.DefaultModelRole,
				TimeoutSeconds: timeout,
				Visibility:     vis,
				Body:           body,
			},
		}
		if s.rejected {
			f.Status = lint.Rejected
			f.Reason = "rejected for the test"
		}
		c.Files = append(c.Files, f)
	}
	return c
}

// enabledConfig is the runtime's default configuration as far as the layer
// cares: sub-agents enabled.
func enabledConfig() *lint.Config {
	return &lint.Config{SubAgents: lint.SubAgentsConfig{Enabled: true}}
}

// words is a small vocabulary for generated descriptions.
var words = []string{
	"review", "the", "diff", "for", "security", "issues", "summarise", "logs",
	"and", "report", "failing", "tests", "with", "citations", "from", "web",
	"sources", "plan", "release", "notes", "refactor", "Go", "code", "carefully",
}

// bigCatalog returns a catalog of n user-facing agents with realistic names
// and descriptions of 10–40 words, in a fixed pseudo-random order.
func bigCatalog(n int, seed uint64) *lint.Catalog {
	r := rand.New(rand.NewPCG(seed, 1))
	specs := make([]agentSpec, n)
	for i := range specs {
		desc := ""
		for w := range 10 + r.IntN(30) {
			if w > 0 {
				desc += " "
			}
			desc += words[r.IntN(len(words))]
		}
		specs[i] = agentSpec{
			name:    fmt.Sprintf("%s-agent-%05d", words[r.IntN(len(words))], r.IntN(1_000_000)),
			desc:    desc + ".",
			timeout: 60 + 60*r.IntN(5),
		}
	}
	return handCatalog("/home/u/.netclaw/agents", enabledConfig(), specs...)
}
