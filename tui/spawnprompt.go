package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/mcp"
)

// promptKey identifies a composed system prompt: the file as scanned, the
// scan (the playbook, the configuration), and how the request is composed.
type promptKey struct {
	path, sha string
	catGen    int
}

// promptResult is a composed request's parts, or why it could not be
// composed.
type promptResult struct {
	parts   []request.Part
	missing []request.Missing
	// mcp are the MCP servers the audience may use, which the pane never
	// starts; mcpTokens estimates their index section, at the least.
	mcp       []string
	mcpTokens int
	err       error
}

// promptMsg carries a composed request back to Update.
type promptMsg struct {
	key promptKey
	res promptResult
}

// promptCache keeps composed system prompts, so the Definition pane never
// composes (composing reads the playbook and the project's instructions).
type promptCache struct {
	done    map[promptKey]promptResult
	pending map[promptKey]bool
}

func (c *promptCache) get(k promptKey) (promptResult, bool) {
	r, ok := c.done[k]
	return r, ok
}

// request returns a Cmd that composes f's request as a trial would (the
// browser's audience, core and project), or nil when k is cached or under
// way.
func (c *promptCache) request(k promptKey, f *lint.File, cfg *lint.Config, nc runner.NetClaw, project string) tea.Cmd {
	if c.done == nil {
		c.done = map[promptKey]promptResult{}
		c.pending = map[promptKey]bool{}
	}
	if _, ok := c.done[k]; ok || c.pending[k] {
		return nil
	}
	c.pending[k] = true
	return func() tea.Msg {
		return promptMsg{key: k, res: composeParts(f, cfg, nc, project)}
	}
}

// composeParts composes the system prompt of a spawn of f.
func composeParts(f *lint.File, cfg *lint.Config, nc runner.NetClaw, project string) promptResult {
	pol, err := request.PolicyFromConfig(cfg)
	if err != nil {
		return promptResult{err: err}
	}
	offer, err := request.OfferFor(nc.Audience, pol)
	if err != nil {
		return promptResult{err: err}
	}
	r, err := request.Compose(request.Input{
		Agent: f.Def, AgentPath: f.Path, Paths: request.Paths{Base: nc.Home}, Audience: nc.Audience,
		Core: nc.Core, CoreMissing: nc.CoreMissing, Project: project, Offer: &offer,
		Git: &request.GitState{Kind: request.GitSkipped}, // the pane shows the system prompt only
	})
	if err != nil {
		return promptResult{err: err}
	}
	res := promptResult{parts: r.Parts, missing: r.Missing}
	if cfg != nil {
		// Starting servers takes seconds: the pane names them instead.
		res.mcp = mcp.Startable(cfg.McpServers, mcp.Options{Audience: nc.Audience.String(), Config: cfg})
		res.mcpTokens = preview.CountTokens(request.MCPSectionEstimate(res.mcp))
	}
	return res
}

// store records a composed request.
func (c *promptCache) store(m promptMsg) {
	delete(c.pending, m.key)
	if len(c.done) > 256 {
		clear(c.done)
	}
	c.done[m.key] = m.res
}

// promptLines lists a system prompt's parts with their tokens and
// sources, and the parts it lacks, for the Definition pane.
func promptLines(st *Styles, c *lint.Catalog, r promptResult, audience string, words Words, w int) []string {
	if r.err != nil {
		return wrapStyled(st.Error, "The request cannot be composed: "+Sanitize(r.err.Error()), w)
	}
	total := 0
	for _, p := range r.parts {
		total += p.Tokens
	}
	out := []string{st.Title.Render(fmt.Sprintf("System prompt of a spawn (%s): %d parts, %d tokens", audience, len(r.parts), total))}
	width := len(strconv.Itoa(total))
	for _, p := range r.parts {
		line := fmt.Sprintf("  %*d  %-20s %s", width, p.Tokens, p.Part, st.Dim.Render(Sanitize(homeRelative(c, p.Source))))
		out = append(out, cut(line, w))
	}
	for _, m := range r.missing {
		out = append(out, wrapStyled(st.Warning, "  "+m.Part+" missing: "+Sanitize(homeNamed(c, m.Reason))+netclawDirHint(m.Reason, words.NetClawDir), w)...)
	}
	if len(r.mcp) > 0 {
		s := ""
		if len(r.mcp) > 1 {
			s = "s"
		}
		out = append(out, wrapStyled(st.Dim, fmt.Sprintf("  MCP server%s %s: not started here, so the tool index's MCP section and its server__tool tools are left out (at least %d tokens more; %s starts them)",
			s, Sanitize(strings.Join(r.mcp, ", ")), r.mcpTokens, words.Spawn), w)...)
	}
	return out
}

// wrapStyled wraps text at w and styles each line.
func wrapStyled(style interface{ Render(...string) string }, text string, w int) []string {
	var out []string
	for _, l := range wrap(text, w) {
		out = append(out, style.Render(l))
	}
	return out
}

// netclawDirHint is "; start agentdesk with " and flag (the flag that
// names the NetClaw install) after a reason the operating rules are
// missing, unless the reason names that flag already.
func netclawDirHint(reason, flag string) string {
	if strings.Contains(reason, flag) {
		return ""
	}
	return "; start agentdesk with " + flag
}
