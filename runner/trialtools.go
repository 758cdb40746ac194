package runner

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner/approve"
	"github.com/agentdesk/agentdesk/runner/overlay"
	"github.com/agentdesk/agentdesk/runner/tools"
)

// trialAudience parses the spec's audience ("" is Personal).
func trialAudience(s string) (preview.Audience, error) {
	if strings.TrimSpace(s) == "" {
		return preview.Personal, nil
	}
	return preview.ParseAudience(s)
}

// trialOffer returns the catalogue's tools for a sub-agent of the spec's
// audience, under the configuration's policy.
func trialOffer(s Spec) (request.Offered, error) {
	a, err := trialAudience(s.Audience)
	if err != nil {
		return request.Offered{}, err
	}
	p, err := request.PolicyFromConfig(s.Config)
	if err != nil {
		return request.Offered{}, err
	}
	o := request.NetClaw().SubAgentTools(a, p)
	if o.Reason != "" {
		return o, fmt.Errorf("a %s session offers a sub-agent no tools: %s", a, o.Reason)
	}
	return o, nil
}

// openTrialTools opens the overlay of the spec's project, in a temporary
// folder the run owns (removed when the run ends; the run folder keeps
// changes.patch), and NetClaw's tools on it for the spec's audience
// (runner/tools.FromOffered), with the spec's extra tools, gated by its
// --approve patterns and asker, checked as the runtime checks meta
// arguments, and answered first by its mocks.
func openTrialTools(s Spec, asker approve.Asker) (*tools.Set, *tools.Workspace, error) {
	offered, err := trialOffer(s)
	if err != nil {
		return nil, nil, err
	}
	tmp, release, err := ownedTempDir(overlayTempPrefix)
	if err != nil {
		return nil, nil, fmt.Errorf("making the run's overlay folder: %w (check TMPDIR's free space)", err)
	}
	ov, err := overlay.New(s.Project, tmp)
	if err != nil {
		release()
		return nil, nil, err
	}
	ws := tools.NewWorkspace(ov).WithSandbox(s.Sandbox)
	ts := tools.FromOffered(tools.Env{Workspace: ws, Offered: offered, Web: &tools.Web{Client: &http.Client{}}, Skills: trialSkills(s.Skills)})
	ts = append(ts, s.ExtraTools...)
	opts := []tools.Option{
		tools.WithGate(approve.NewGate(s.Approve, asker).Advise(s.Advice)),
		tools.WithValidator(tools.CatalogValidator(offered)),
	}
	if s.Mocks != nil {
		opts = append(opts, tools.WithMocks(s.Mocks))
	}
	set := tools.NewSet(ts, opts...)
	set.OnClose(func() error {
		err := ov.Close()
		if rerr := release(); err == nil {
			err = rerr
		}
		return err
	})
	return set, ws, nil
}

// TrialToolSpecs returns the specs of the tools a trial on a project
// offers a sub-agent of audience ("" is Personal) under the default
// policy, core ones first as the catalogue orders them: what suites
// fingerprint.
func TrialToolSpecs(audience string) []tools.Spec {
	a, err := trialAudience(audience)
	if err != nil {
		return nil
	}
	o := request.SubAgentTools(a)
	out := make([]tools.Spec, 0, len(o.Tools))
	for _, t := range o.Tools {
		if !t.Deferred {
			out = append(out, tools.SpecOf(t))
		}
	}
	return out
}

// trialSkills converts the home's loaded skills for the skill tools. It
// never returns nil: a home without skills has none to load, and
// skill_load answers so as the runtime does ("No skills are currently
// registered"), not with a stub.
func trialSkills(skills []*lint.Skill) []tools.Skill {
	out := []tools.Skill{}
	for _, sk := range skills {
		if sk == nil || sk.Status != lint.Loaded {
			continue
		}
		out = append(out, tools.Skill{Name: sk.Name, Path: sk.Path, Body: strings.TrimSpace(sk.Body), Subagent: sk.Subagent, Routed: sk.RoutingKey, Flat: sk.Flat})
	}
	return out
}
