package route

import (
	"os"
	"time"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// AsNetClaw makes q's preamble, context layers and tools the main
// session's, as NetClaw composes them (request.SessionPrompt,
// request.ComposeSessionContext and request.SessionTools), when nc holds
// an operating core; without one it leaves agentdesk's neutral default
// (the preamble, the layer and spawn_agent alone) and says why in
// PreambleSource. project is the session's project folder. The
// current-time layer tells q.Now, else the time of the call, in the local
// time zone.
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
	now := q.Now
	if now.IsZero() {
		now = time.Now()
	}
	sc := request.ComposeSessionContext(request.SessionContextInput{
		Catalog: q.Catalog, Audience: q.Audience, Policy: pol, Tools: request.NetClaw().Tools(),
		Project: project, Now: now, Location: time.Local, ZoneID: request.LocalZoneID(os.Getenv), Git: nc.Git,
	})
	q.Context = &sc
	q.Tools = nil
	for _, t := range request.SessionTools(q.Audience, pol) {
		q.Tools = append(q.Tools, wire.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	q.Preamble, q.PreambleSource = text, request.SessionSource+", with its context layers (core from "+nc.Core.Source+")"
	return nil
}
