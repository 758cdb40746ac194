package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/report"
	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
)

// promptSeparator is the line `agentdesk preview --agent` prints between the
// system prompt and the first user message.
const promptSeparator = "-------- first user message --------"

// previewFlags holds the flags of agentdesk preview.
type previewFlags struct {
	audience audienceFlag
	agent    string
	skill    string
	task     string
	context  string
	format   previewFormat
	tokens   bool
	spawn    string
	project  string
	netclaw  netclawFlag
	// noMCP and mcpTimeout: --no-mcp and --mcp-timeout of --spawn.
	noMCP      bool
	mcpTimeout time.Duration
}

// newPreviewCmd builds `agentdesk preview`.
func newPreviewCmd(g *globals) *cobra.Command {
	var f previewFlags
	cmd := &cobra.Command{
		Use:   "preview",
		Short: "Print the [available-subagents] layer, or the prompt a spawn receives",
		Long: `Print the [available-subagents] layer, as the frontline model reads it on
every turn. The audience is Personal unless --audience says otherwise.
Its cost in o200k_base tokens, in total and per agent, goes to stderr.
With --tokens it goes to stdout, after a blank line.

Piped, stdout holds the layer byte for byte; the layer has no final newline.
On a terminal a newline ends it.
Control characters taken from a file are shown escaped.
--format json carries the exact text.

--spawn AGENT prints the whole request a trial spawn of AGENT sends:
  - where the operating core came from, or that it is missing;
    the install is found through --netclaw-dir, $AGENTDESK_NETCLAW_DIR,
    ~/.netclaw/bin or PATH;
  - every part of the system prompt, with its source and tokens:
    operating-rules, deployment-playbook, project-instructions, body,
    skill-overlay, tool-index, execution-contract;
  - the first user message, with its working context: --task, --context,
    the --project folder (default: the working directory) and its git state;
  - the tools offered, with their JSON schemas.
--audience sets the parent session's audience; --skill overlays a routed skill.

--agent prints the system prompt a spawn of that agent receives, a separator
line, and the first user message built from --task and --context.
--skill does the same for a skill that routes through a sub-agent (its
metadata.subagent). A broken route prints the runtime's error on stderr and
exits 1.

Exit status: 0 printed; 1 an unknown or unloaded agent or skill, or a skill
that does not route; 2 bad usage; 3 internal failure.`,
		Example: `  agentdesk preview
  agentdesk preview --audience team --tokens
  agentdesk preview --format json | jq .tokens
  agentdesk preview --spawn code-analyst --task "Explain main.go" --project ~/src/app
  agentdesk preview --spawn code-analyst --audience team --format json | jq '.parts[] | {part, tokens}'
  agentdesk preview --agent code-analyst --task "Explain main.go" --context "Go 1.26 module"
  agentdesk preview --skill release-notes --task "Draft notes for v2.1"`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runPreview(cmd, g, f)
		},
	}
	fl := cmd.Flags()
	fl.Var(&f.audience, "audience", "audience whose layer to print: Public, Team or Personal (any case)")
	fl.StringVar(&f.agent, "agent", "", "print the system prompt and first user message of a spawn of this agent")
	fl.StringVar(&f.skill, "skill", "", "print the composed prompt of this routed skill (SKILL.md with metadata.subagent)")
	fl.StringVar(&f.task, "task", "", "the task of the first user message (with --agent or --skill)")
	fl.StringVar(&f.context, "context", "", "the context of the first user message (with --agent or --skill)")
	fl.Var(&f.format, "format", "output format: text or json")
	fl.StringVar(&f.spawn, "spawn", "", "print the whole request a trial spawn of this agent sends: every prompt part with its source and tokens, the first message, the tools")
	fl.BoolVar(&f.noMCP, "no-mcp", false, "with --spawn: do not start the MCP servers in netclaw.json; their index section and tools are then left out, and said to be")
	fl.DurationVar(&f.mcpTimeout, "mcp-timeout", defaultMCPListTimeout, "with --spawn: how long each MCP server gets to start and list its tools")
	fl.StringVar(&f.project, "project", "", "with --spawn, --agent or --skill: the project folder of the spawn (default: the working directory)")
	f.netclaw.add(fl)
	fl.BoolVar(&f.tokens, "tokens", false, "print the token counts on stdout after a blank line instead of on stderr (--format json always holds them)")
	return cmd
}

// runPreview checks the flag combination, scans the home and prints what
// was asked for.
func runPreview(cmd *cobra.Command, g *globals, f previewFlags) error {
	changed := cmd.Flags().Changed
	switch {
	case changed("spawn") && strings.TrimSpace(f.spawn) == "":
		return usageErrorf("--spawn is empty: give an agent's name")
	case f.spawn != "" && f.agent != "":
		return usageErrorf("--spawn and --agent cannot be used together: --spawn prints all --agent does, and more")
	case f.spawn != "" && f.tokens:
		return usageErrorf("--spawn prints every part's tokens: leave out --tokens")
	case f.spawn != "":
	case f.agent != "" && f.skill != "":
		return usageErrorf("--agent and --skill cannot be used together: pick one")
	case (changed("task") || changed("context")) && f.agent == "" && f.skill == "":
		return usageErrorf("--task and --context build a first user message: use them with --agent or --skill")
	case changed("audience") && (f.agent != "" || f.skill != ""):
		return usageErrorf("--audience chooses a layer: leave it out with --agent or --skill")
	case changed("agent") && strings.TrimSpace(f.agent) == "":
		return usageErrorf("--agent is empty: give an agent's name")
	case changed("skill") && strings.TrimSpace(f.skill) == "":
		return usageErrorf("--skill is empty: give a skill's name")
	case changed("project") && f.agent == "" && f.skill == "":
		return usageErrorf("--project is a spawn's project folder: use it with --spawn, --agent or --skill")
	}

	c, err := scanHome(g, lint.ScanOptions{Environ: g.environ})
	if err != nil {
		return err
	}
	switch {
	case f.spawn != "":
		return previewSpawn(g, f, c)
	case f.agent != "":
		return previewAgent(g, f, c)
	case f.skill != "":
		return previewSkill(g, f, c)
	}
	return previewLayer(g, f, c)
}

// previewLayer prints the layer for the audience, and its token cost.
func previewLayer(g *globals, f previewFlags, c *lint.Catalog) error {
	a := preview.Audience(f.audience)
	text := preview.Layer(c, a)
	cost := preview.LayerTokens(c, a)

	if f.format == previewJSON {
		out := layerJSON{Audience: a, Enabled: preview.Enabled(c, a), Text: text}
		out.Tokens.Total = cost.Total
		out.Tokens.Agents = make(map[string]int, len(cost.Agents))
		for _, at := range cost.Agents {
			out.Tokens.Agents[at.Name] += at.Tokens
		}
		return writeJSON(g.stdout, out)
	}

	var b strings.Builder
	b.WriteString(termsafe.EscapeLines(text))
	if text != "" && (f.tokens || isTerminal(g.stdout)) {
		b.WriteString("\n")
	}
	summary := layerSummary(c, a, cost)
	if f.tokens {
		if text != "" {
			b.WriteString("\n")
		}
		b.WriteString(dimLines(summary, g.Color(g.stdout)))
	} else {
		summary = dimLines(summary, g.Color(g.stderr))
	}
	if err := writeString(g.stdout, b.String()); err != nil {
		return err
	}
	if !f.tokens {
		if text != "" && !isTerminal(g.stdout) && sameFile(g.stdout, g.stderr) {
			// 2>&1: the layer's last line has no line break of its own.
			summary = "\n" + summary
		}
		_, _ = io.WriteString(g.stderr, summary)
	}
	return nil
}

// dimLines dims each line of text when on is set (the token summaries and
// the separator are about the output, not part of it).
func dimLines(text string, on bool) string {
	if !on {
		return text
	}
	var b strings.Builder
	for line := range strings.Lines(text) {
		body := strings.TrimSuffix(line, "\n")
		if body != "" {
			body = styleDim + body + styleReset
		}
		b.WriteString(body)
		if strings.HasSuffix(line, "\n") {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// sameFile reports whether a and b are open on the same file, pipe or
// terminal (as with 2>&1).
func sameFile(a, b io.Writer) bool {
	fa, ok1 := a.(interface{ Stat() (os.FileInfo, error) })
	fb, ok2 := b.(interface{ Stat() (os.FileInfo, error) })
	if !ok1 || !ok2 {
		return false
	}
	sa, err1 := fa.Stat()
	sb, err2 := fb.Stat()
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// layerJSON is the layer in --format json.
type layerJSON struct {
	Audience preview.Audience `json:"audience"`
	Enabled  bool             `json:"enabled"`
	Text     string           `json:"text"`
	Tokens   struct {
		Total  int            `json:"total"`
		Agents map[string]int `json:"agents"`
	} `json:"tokens"`
}

// layerSummary says what the layer costs: the total, then each agent's
// block, most expensive first, then the fixed text.
func layerSummary(c *lint.Catalog, a preview.Audience, cost preview.LayerCost) string {
	var b strings.Builder
	head := "[available-subagents] for " + a.String() + ": "
	switch {
	case a == preview.Public:
		b.WriteString(head + "empty: Public sessions see no sub-agents\n")
		return b.String()
	case !preview.Enabled(c, a):
		b.WriteString(head + "empty: SubAgents.Enabled is false (netclaw.json, secrets.json or NETCLAW_SubAgents__Enabled)\n")
		return b.String()
	}
	fmt.Fprintf(&b, "%s%s (%s) on every turn, %s\n", head, plural(cost.Total, "token"), preview.TokenEncoding, plural(len(cost.Agents), "agent"))
	rows := cost.ByCost()
	width := len(strconv.Itoa(cost.Total))
	for _, r := range rows {
		fmt.Fprintf(&b, "  %*d  %s\n", width, r.Tokens, termsafe.Escape(r.Name))
	}
	label := "header and delegation instructions"
	if len(rows) == 0 {
		label = "the no-agents text"
	}
	fmt.Fprintf(&b, "  %*d  (%s)\n", width, cost.Fixed, label)
	return b.String()
}

// previewAgent prints the system prompt and first user message of a spawn.
func previewAgent(g *globals, f previewFlags, c *lint.Catalog) error {
	file := c.Agent(f.agent)
	if file == nil {
		return unknownAgent(c, f.agent)
	}
	if !file.Def.UserFacing() {
		fmt.Fprintf(g.stderr, "note: '%s' is internal: the frontline model does not see it in [available-subagents]\n", termsafe.Escape(file.Def.Name))
	}
	r, err := f.compose(g, c, file, nil)
	if err != nil {
		return err
	}
	return writePrompt(g, f, promptJSON{
		Agent:        file.Def.Name,
		Path:         file.Path,
		SystemPrompt: r.System,
		FirstMessage: r.FirstMessage,
	})
}

// previewSkill prints the composed prompt of a routed skill, or fails with
// the runtime's routing error.
func previewSkill(g *globals, f previewFlags, c *lint.Catalog) error {
	s := c.Skill(f.skill)
	if s == nil {
		return unknownSkill(c, f.skill)
	}
	r := preview.RouteSkill(c, s)
	if !r.OK() {
		return exitWith(exitFindings, errors.New(r.Err))
	}
	req, err := f.compose(g, c, r.Agent, s)
	if err != nil {
		return err
	}
	return writePrompt(g, f, promptJSON{
		Agent:        r.Agent.Def.Name,
		Path:         r.Agent.Path,
		Skill:        s.Name,
		SkillPath:    s.Path,
		SystemPrompt: req.System,
		FirstMessage: req.FirstMessage,
	})
}

// compose composes the request of a spawn of agent (through skill, when
// set), for a Personal session in the --project folder.
func (f previewFlags) compose(g *globals, c *lint.Catalog, agent *lint.File, skill *lint.Skill) (*request.Request, error) {
	project, err := spawnProject(f.project)
	if err != nil {
		return nil, err
	}
	r, err := composeSpawn(g, c, spawnInput{agent: agent, skill: skill, audience: preview.Personal, project: project, task: f.task, context: f.context, netclaw: f.netclaw})
	if err != nil {
		return nil, err
	}
	for _, m := range r.Missing {
		g.warn("agentdesk", m.Part+" missing: "+m.Reason+netclawDirHint(m.Reason))
	}
	return r, nil
}

// previewSpawn prints the whole request of a trial spawn (--spawn).
func previewSpawn(g *globals, f previewFlags, c *lint.Catalog) error {
	file := c.Agent(f.spawn)
	if file == nil {
		return unknownRunAgent(g, c, f.spawn)
	}
	in := spawnInput{agent: file, audience: preview.Audience(f.audience), task: f.task, context: f.context, netclaw: f.netclaw}
	if f.skill != "" {
		s := c.Skill(f.skill)
		if s == nil {
			return unknownSkill(c, f.skill)
		}
		if _, failure := c.Route(s); failure != "" {
			return exitWith(exitFindings, errors.New(failure))
		}
		if !strings.EqualFold(s.Subagent, file.Def.Name) {
			return usageErrorf("skill /%s routes to '%s', not to '%s'", s.Name, s.Subagent, file.Def.Name)
		}
		in.skill = s
	}
	var err error
	if in.project, err = spawnProject(f.project); err != nil {
		return err
	}
	if f.mcpTimeout <= 0 {
		return usageErrorf("--mcp-timeout is %s: give a positive duration such as 10s, or --no-mcp", f.mcpTimeout)
	}
	in.mcp = &spawnMCP{off: f.noMCP, timeout: f.mcpTimeout, ctx: context.Background()}
	r, err := composeSpawn(g, c, in)
	if err != nil {
		return err
	}
	return writeSpawn(g, f, in, r)
}

// promptJSON is a spawn's prompts in --format json.
type promptJSON struct {
	Agent        string `json:"agent"`
	Path         string `json:"path"`
	Skill        string `json:"skill,omitempty"`
	SkillPath    string `json:"skillPath,omitempty"`
	SystemPrompt string `json:"systemPrompt"`
	FirstMessage string `json:"firstMessage"`
	Tokens       struct {
		SystemPrompt int `json:"systemPrompt"`
		FirstMessage int `json:"firstMessage"`
	} `json:"tokens"`
}

// writePrompt prints the system prompt, the separator line and the first
// user message, then the token counts (stderr, or stdout with --tokens).
func writePrompt(g *globals, f previewFlags, p promptJSON) error {
	p.Tokens.SystemPrompt = preview.CountTokens(p.SystemPrompt)
	p.Tokens.FirstMessage = preview.CountTokens(p.FirstMessage)
	if f.format == previewJSON {
		return writeJSON(g.stdout, p)
	}
	var b strings.Builder
	b.WriteString(termsafe.EscapeLines(p.SystemPrompt))
	if !strings.HasSuffix(p.SystemPrompt, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(dimLines(promptSeparator+"\n", g.Color(g.stdout)))
	b.WriteString(termsafe.EscapeLines(p.FirstMessage))
	if !strings.HasSuffix(p.FirstMessage, "\n") {
		b.WriteString("\n")
	}
	summary := fmt.Sprintf("system prompt: %s, first user message: %s (%s)\n",
		plural(p.Tokens.SystemPrompt, "token"), plural(p.Tokens.FirstMessage, "token"), preview.TokenEncoding)
	if f.tokens {
		b.WriteString("\n" + dimLines(summary, g.Color(g.stdout)))
	} else {
		summary = dimLines(summary, g.Color(g.stderr))
	}
	if err := writeString(g.stdout, b.String()); err != nil {
		return err
	}
	if !f.tokens {
		_, _ = io.WriteString(g.stderr, summary)
	}
	return nil
}

// unknownAgent explains why name does not resolve: a file declares it but
// the runtime rejects it, or no file declares it (with close names).
func unknownAgent(c *lint.Catalog, name string) error {
	if file := c.RejectedAgent(name); file != nil {
		return exitWith(exitFindings, fmt.Errorf("agent '%s' is not loaded: %s", name, rejectionAt(file)))
	}
	if file := namelessAgent(c, name); file != nil {
		return exitWith(exitFindings, fmt.Errorf("no agent named '%s' is loaded, and %s gives no name: %s", name, filepath.Base(file.Path), rejectionAt(file)))
	}
	var names []string
	for _, file := range c.Loaded() {
		names = append(names, file.Def.Name)
	}
	return exitWith(exitFindings, fmt.Errorf("no agent named '%s' is loaded from %s%s", name, c.Home.Agents, closeNames(name, names, "agent")))
}

// namelessAgent is the rejected file <name>.md whose frontmatter gives no
// name (it does not parse, or lacks the key): what the author most likely
// meant by name.
func namelessAgent(c *lint.Catalog, name string) *lint.File {
	for _, f := range c.Files {
		stem := strings.TrimSuffix(filepath.Base(f.Path), filepath.Ext(f.Path))
		if f.Status != lint.Loaded && f.Name() == "" && strings.EqualFold(stem, strings.TrimSpace(name)) {
			return f
		}
	}
	return nil
}

// rejectionAt says why the runtime skips f: its first error as
// path:line:col: message [rule], else the runtime's own log line.
func rejectionAt(f *lint.File) string {
	for _, d := range f.Diagnostics {
		switch {
		case d.Severity != lint.Error:
		case d.Line == 0:
			return fmt.Sprintf("%s: %s [%s]", d.Path, d.Message, d.Rule)
		default:
			return fmt.Sprintf("%s:%d:%d: %s [%s]", d.Path, d.Line, d.Column, d.Message, d.Rule)
		}
	}
	return f.Reason
}

// unknownSkill explains a skill name that does not resolve, with close names.
func unknownSkill(c *lint.Catalog, name string) error {
	if missing := homeMissing(c.Home, "skill"); missing != "" {
		return exitWith(exitFindings, fmt.Errorf("no skill named '%s': %s", name, missing))
	}
	names := make([]string, 0, len(c.Skills))
	for _, s := range c.Skills {
		names = append(names, s.Name)
	}
	return exitWith(exitFindings, fmt.Errorf("no skill named '%s' in %s%s", name, c.Home.Skills, closeNames(name, names, "skill")))
}

// closeNames is the tail of an unknown-name error: the close names, or how
// many names there are to choose from.
func closeNames(name string, names []string, what string) string {
	names = slices.Clone(names)
	slices.SortStableFunc(names, preview.CompareNames) // ties in runtime order
	if near := lint.Suggest(name, names, 5); len(near) > 0 {
		return ": did you mean " + quoteList(near) + "?"
	}
	return fmt.Sprintf(" (no close name among %s)", plural(len(names), what))
}

// quoteList joins names as 'a', 'b' or 'c'.
func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "'" + n + "'"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// writeJSON prints v as indented JSON with a final newline, every character
// a terminal could act on escaped (report.WriteJSON), so the text is exact
// for a JSON reader and safe on a terminal.
func writeJSON(w io.Writer, v any) error {
	if err := report.WriteJSON(w, v); err != nil {
		return exitWith(exitInternal, err)
	}
	return nil
}

// writeString writes s to w, turning a failed write into an internal error.
func writeString(w io.Writer, s string) error {
	if _, err := io.WriteString(w, s); err != nil {
		return exitWith(exitInternal, fmt.Errorf("write the output: %w", err))
	}
	return nil
}

// audienceFlag is the value of --audience.
type audienceFlag preview.Audience

// String returns the audience's name.
func (a *audienceFlag) String() string { return preview.Audience(*a).String() }

// Set parses Public, Team or Personal in any letter case.
func (a *audienceFlag) Set(s string) error {
	v, err := preview.ParseAudience(s)
	if err != nil {
		return err
	}
	*a = audienceFlag(v)
	return nil
}

// Type names the flag's value in help text.
func (a *audienceFlag) Type() string { return "Public|Team|Personal" }

// previewFormat is the value of --format for preview.
type previewFormat int

const (
	previewText previewFormat = iota
	previewJSON
)

// String returns "text" or "json".
func (p *previewFormat) String() string {
	if *p == previewJSON {
		return "json"
	}
	return "text"
}

// Set parses text or json.
func (p *previewFormat) Set(s string) error {
	switch strings.ToLower(s) {
	case "text":
		*p = previewText
	case "json":
		*p = previewJSON
	default:
		return fmt.Errorf("%q is not a format: use text or json", s)
	}
	return nil
}

// Type names the flag's value in help text.
func (p *previewFormat) Type() string { return "text|json" }
