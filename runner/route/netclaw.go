package route

import (
	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// AsNetClaw makes q's preamble and tools the main session's, as NetClaw
// composes them (request.SessionPrompt and request.SessionTools), when nc
// holds an operating core; without one it leaves agentdesk's neutral
// default and says why in PreambleSource. project is the session's
// project folder.
func AsNetClaw(q *Question, nc runner.NetClaw, project string) error {
	if nc.Core == nil {
		why := nc.CoreMissing
		if why == "" {
			why = "no NetClaw install was found"
		}
		q.PreambleSource = "agentdesk's neutral default (" + why + ")"
		return nil
	}
	text, err := request.SessionPrompt(request.SessionInput{Paths: request.Paths{Base: nc.Home}, Audience: q.Audience, Core: nc.Core, Project: project})
	if err != nil {
		return err
	}
	var cfg *lint.Config
	if q.Catalog != nil {
		cfg = q.Catalog.Config
	}
	pol, err := request.PolicyFromConfig(cfg)
	if err != nil {
		return err
	}
	q.Tools = nil
	for _, t := range request.SessionTools(q.Audience, pol) {
		q.Tools = append(q.Tools, wire.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	q.Preamble, q.PreambleSource = text, request.SessionSource+" (core from "+nc.Core.Source+")"
	return nil
}
