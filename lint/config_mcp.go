package lint

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
)

// This file binds the McpServers section and the MCP half of
// Tools.AudienceProfiles, and checks McpServers as `netclaw doctor` does.
//
// Facts followed (netclaw-dev/netclaw):
//   - McpServerEntry (src/Netclaw.Configuration/McpServerEntry.cs, commit
//     03957ac9b6c8ec268b2e1146a261a33cbfbb7295): Transport (default
//     "stdio"), Command, Arguments, Url, EnvironmentVariables, Headers,
//     Enabled (default true), GrantCategory (default "mcp:<name>").
//   - McpServersDoctorCheck (src/Netclaw.Cli/Doctor, commit
//     798c1b68978f5d294f363220905d172645fdeecf): the transport must be
//     exactly stdio, sse or http; stdio needs Command; sse and http need
//     Url; then every enabled server is probed.
//   - McpClientManager.CreateTransport (src/Netclaw.Daemon/Mcp, commit
//     0c72b2947abfe6c0bfd3392f963c73244b1e2b19): Transport is compared
//     exactly: "stdio" starts Command, "sse" is the SSE transport, anything
//     else is streamable HTTP at Url.
//   - ToolAudienceProfiles (src/Netclaw.Configuration, commit
//     fe1c54447eb9f84dd55b7a9c316f15cf87e8ae23) and
//     ToolAudienceProfileResolver (src/Netclaw.Actors/Tools, commit
//     2f76fbb2ed539f25b5775f130141a1de1f5e4de7): Personal may use every
//     server (McpServersMode All); Team and Public only those named in
//     AllowedMcpServers (Allowlist, empty by default), names ignoring case;
//     McpServerToolGrants narrows a server to the listed tools (exact case).

// McpServer is one McpServers.<name> entry, netclaw.json overlaid by
// secrets.json and the environment.
type McpServer struct {
	// Name is the entry's key under McpServers, as first written.
	Name string
	// Transport as written; "stdio" when unset. The runtime compares it
	// exactly: see McpTransport.
	Transport string
	// Command and Arguments start a stdio server.
	Command   string
	Arguments []string
	// EnvironmentVariables overlay the started command's environment.
	EnvironmentVariables map[string]string
	// URL is the endpoint of an sse or http server (bound from Url).
	URL string
	// Headers are sent with every request to an sse or http server.
	Headers map[string]string
	// Enabled is true unless the entry sets it to false.
	Enabled bool
	// GrantCategory is "mcp:<name>" unless set.
	GrantCategory string
	// Origin is where the entry starts (its first key as written).
	Origin ConfigOrigin
	// NotObject is set when the entry is a plain value ("fs": "npx x")
	// rather than an object: NetClaw ignores the value, so the server has
	// no Command.
	NotObject bool
	// Listed is set when McpServers was written as a JSON list: NetClaw
	// reads its elements as servers named 0, 1, ...
	Listed bool
}

// mcpServerShape is the object an McpServers entry should be.
const mcpServerShape = "{Transport, Command, Arguments, EnvironmentVariables, Url, Headers, Enabled}"

// Problem says, in lint's words and naming the file and position, why the
// runtime cannot start s: a value where the server's object belongs, a
// stdio server with no Command, an sse or http server with no Url. It
// returns "" when s can be started (or tried).
func (s McpServer) Problem() string {
	msg, hint := s.problem()
	if msg == "" {
		return ""
	}
	where := s.Origin.Path
	if where != ConfigEnvironment && s.Origin.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d", where, s.Origin.Line, s.Origin.Column)
	} else if s.Origin.Variable != "" {
		where = s.Origin.Variable
	}
	if where != "" {
		msg = where + ": " + msg
	}
	return msg + " (" + hint + ")"
}

// problem returns the message and the fix of Problem, without the place.
func (s McpServer) problem() (msg, hint string) {
	name := cfgPrintable(s.Name)
	switch {
	case s.NotObject:
		return fmt.Sprintf("McpServers:%s is a value, not an object: NetClaw expects %s here and ignores the value", name, mcpServerShape),
			`write it as an object, e.g. {"Command": "npx", "Arguments": ["-y", "<package>"]}`
	case s.McpTransport() == McpStdio && strings.TrimSpace(s.Command) == "":
		return fmt.Sprintf("%s: stdio transport requires 'Command'", name),
			`set Command to the server's executable, e.g. "npx", with Arguments ["-y", "<package>"]`
	case s.McpTransport() != McpStdio && strings.TrimSpace(s.URL) == "" && (s.Transport == McpSSE || s.Transport == McpHTTP):
		return fmt.Sprintf("%s: %s transport requires 'Url'", name, s.Transport),
			`set Url to the server's endpoint, e.g. "https://example.com/mcp"`
	}
	return "", ""
}

// MCP transports as the runtime spells them.
const (
	McpStdio = "stdio"
	McpSSE   = "sse"
	McpHTTP  = "http"
)

// McpTransport returns the transport the runtime actually uses for s:
// McpStdio only for Transport exactly "stdio", McpSSE only for exactly
// "sse", McpHTTP for anything else (so "Stdio" is an HTTP server to the
// runtime, which then fails for want of a Url).
func (s McpServer) McpTransport() string {
	switch s.Transport {
	case McpStdio:
		return McpStdio
	case McpSSE:
		return McpSSE
	}
	return McpHTTP
}

// McpAccess is the MCP part of one Tools.AudienceProfiles.<audience>
// profile.
type McpAccess struct {
	// All is McpServersMode All: every server is allowed.
	All bool
	// Allowed is AllowedMcpServers (matched ignoring case).
	Allowed []string
	// ToolGrants is McpServerToolGrants: per server (ignoring case), the
	// only tools allowed (exact case). Nil when unset.
	ToolGrants map[string][]string
}

// McpAudiences are the audiences, in the order NetClaw lists them.
var McpAudiences = []string{"Public", "Team", "Personal"}

// defaultMcpAccess is the runtime's default profile of an audience.
func defaultMcpAccess(audience string) McpAccess {
	return McpAccess{All: strings.EqualFold(audience, "Personal")}
}

// McpServer returns the McpServers entry called name, ignoring case.
func (c *Config) McpServer(name string) (McpServer, bool) {
	if c == nil {
		return McpServer{}, false
	}
	for _, s := range c.McpServers {
		if strings.EqualFold(s.Name, name) {
			return s, true
		}
	}
	return McpServer{}, false
}

// McpAccessFor returns the MCP access of audience ("Public", "team", ...):
// the configured profile, else the runtime's default. An unknown audience
// gets Public's, as the runtime does.
func (c *Config) McpAccessFor(audience string) McpAccess {
	known := ""
	for _, a := range McpAudiences {
		if strings.EqualFold(a, audience) {
			known = a
		}
	}
	if known == "" {
		known = "Public"
	}
	if c != nil {
		if a, ok := c.McpProfiles[known]; ok {
			return a
		}
	}
	return defaultMcpAccess(known)
}

// McpServerAllowed reports whether audience may use server at all.
func (c *Config) McpServerAllowed(server, audience string) bool {
	a := c.McpAccessFor(audience)
	if a.All {
		return true
	}
	return slices.ContainsFunc(a.Allowed, func(s string) bool { return strings.EqualFold(s, server) })
}

// McpToolAllowed reports whether audience may use tool (its name on the
// server) of server: the server is allowed and McpServerToolGrants, when
// it names the server, lists the tool.
func (c *Config) McpToolAllowed(server, tool, audience string) bool {
	if !c.McpServerAllowed(server, audience) {
		return false
	}
	a := c.McpAccessFor(audience)
	if a.ToolGrants == nil {
		return true
	}
	grants, ok := cfgFold(a.ToolGrants, server)
	if !ok {
		return true
	}
	return slices.Contains(grants, tool)
}

// mcpServers binds McpServers.<name>.
func (b *cfgBinder) mcpServers() {
	b.section("mcpservers", "{<name>: "+mcpServerShape+", ...}")
	listed := b.st.lists["mcpservers"]
	if listed != nil {
		b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{
			Path: listed.path(), Pos: listed.pos, Rule: RuleMcpServer, Severity: Warning,
			Message: "McpServers is a list: NetClaw reads it as servers named 0, 1, ..., and their tools as 0__<tool>",
			Hint:    `write an object keyed by name, e.g. "McpServers": {"files": {"Command": "npx", "Arguments": ["-y", "<package>"]}}`,
		})
	}
	kids := slices.Clone(b.st.children("mcpservers"))
	slices.SortFunc(kids, cfgCompareKeys)
	for _, lower := range kids {
		e := b.st.get(lower)
		s := McpServer{
			Name:      b.st.name(lower),
			Transport: McpStdio,
			Command:   b.str(lower + ":command"),
			URL:       b.str(lower + ":url"),
			Enabled:   true,
			NotObject: e != nil && strings.TrimSpace(e.value) != "" && len(b.st.children(lower)) == 0,
			Listed:    listed != nil,
		}
		if !s.NotObject {
			b.section(lower, mcpServerShape)
		}
		s.GrantCategory = "mcp:" + s.Name
		if t := b.scalar(lower+":transport", "stdio, sse or http"); t != nil {
			s.Transport = t.value
		}
		if g := b.str(lower + ":grantcategory"); strings.TrimSpace(g) != "" {
			s.GrantCategory = g
		}
		b.boolean(lower+":enabled", &s.Enabled)
		s.Arguments = b.strList(lower + ":arguments")
		s.EnvironmentVariables = b.strMap(lower + ":environmentvariables")
		s.Headers = b.strMap(lower + ":headers")
		if at := b.st.under(lower); at != nil {
			s.Origin = at.origin()
		}
		b.c.McpServers = append(b.c.McpServers, s)
	}
}

// strList binds a list of strings: the children of key in index order.
// A value where the list belongs is reported.
func (b *cfgBinder) strList(lower string) []string {
	if e := b.st.get(lower); e != nil && strings.TrimSpace(e.value) != "" {
		b.report(e, fmt.Sprintf("%s is a value, not a list: NetClaw expects [\"arg\", ...] here and passes no arguments", b.subject(e)),
			"write the arguments as a JSON list of strings")
		return nil
	}
	kids := slices.Clone(b.st.children(lower))
	slices.SortFunc(kids, cfgCompareKeys)
	var out []string
	for _, k := range kids {
		if e := b.scalar(k, "a string"); e != nil {
			out = append(out, e.value)
		} else if b.st.get(k) != nil {
			out = append(out, "")
		}
	}
	return out
}

// strMap binds an object of strings.
func (b *cfgBinder) strMap(lower string) map[string]string {
	b.section(lower, "{<name>: <value>, ...}")
	kids := b.st.children(lower)
	if len(kids) == 0 {
		return nil
	}
	out := make(map[string]string, len(kids))
	for _, k := range kids {
		if e := b.scalar(k, "a string"); e != nil {
			out[b.st.name(k)] = e.value
		} else {
			out[b.st.name(k)] = ""
		}
	}
	return out
}

// mcpProfiles binds Tools.AudienceProfiles.<audience>.{McpServersMode,
// AllowedMcpServers, McpServerToolGrants}.
func (b *cfgBinder) mcpProfiles() {
	for _, aud := range McpAudiences {
		lower := "tools:audienceprofiles:" + strings.ToLower(aud)
		if len(b.st.children(lower)) == 0 {
			continue
		}
		a := defaultMcpAccess(aud)
		if e := b.scalar(lower+":mcpserversmode", "All or Allowlist"); e != nil {
			b.mcpServersMode(e, &a)
		}
		for _, s := range b.strList(lower + ":allowedmcpservers") {
			if strings.TrimSpace(s) != "" {
				a.Allowed = append(a.Allowed, s)
			}
		}
		if grants := b.toolGrants(lower + ":mcpservertoolgrants"); grants != nil {
			a.ToolGrants = grants
		}
		if b.c.McpProfiles == nil {
			b.c.McpProfiles = map[string]McpAccess{}
		}
		b.c.McpProfiles[aud] = a
	}
}

// mcpServersMode binds McpServersMode, e, into a: All (or 1) or
// Allowlist (or 0), in any case; anything else is reported and leaves a's
// default.
func (b *cfgBinder) mcpServersMode(e *cfgEntry, a *McpAccess) {
	switch v := strings.TrimSpace(e.value); {
	case strings.EqualFold(v, "All") || v == "1":
		a.All = true
	case strings.EqualFold(v, "Allowlist") || v == "0":
		a.All = false
	default:
		b.report(e, fmt.Sprintf("%s is %s: expected All or Allowlist; NetClaw does not start with it", b.subject(e), b.quote(e.value)),
			b.hint(v, []string{"All", "Allowlist"}, "write All or Allowlist"))
	}
}

// toolGrants binds McpServerToolGrants = {<server>: [<tool>, ...]}. Its
// list elements lie one level deeper than the store indexes, so they are
// found among the entries by prefix.
func (b *cfgBinder) toolGrants(lower string) map[string][]string {
	kids := b.st.children(lower)
	if len(kids) == 0 {
		return nil
	}
	type item struct{ key, value string }
	byServer := map[string][]item{}
	for k, e := range b.st.entries {
		rest, ok := strings.CutPrefix(k, lower+":")
		if !ok {
			continue
		}
		server, index, _ := strings.Cut(rest, ":")
		if strings.Contains(index, ":") {
			continue
		}
		byServer[server] = append(byServer[server], item{index, e.value})
	}
	out := make(map[string][]string, len(kids))
	for _, k := range kids {
		items := byServer[k[len(lower)+1:]]
		slices.SortFunc(items, func(x, y item) int { return cfgCompareKeys(x.key, y.key) })
		tools := []string{}
		for _, it := range items {
			if it.key != "" && strings.TrimSpace(it.value) != "" {
				tools = append(tools, it.value)
			}
		}
		out[b.st.name(k)] = tools
	}
	return out
}

// checkMcpServers reports McpServers entries as netclaw doctor does, and
// what else would make a server fail or leak at run time. lookPath finds a
// command ("" when it is not found).
func (b *cfgBinder) checkMcpServers(lookPath func(string) string) {
	for _, s := range b.c.McpServers {
		m := &mcpCheck{b: b, s: s, lower: "mcpservers:" + strings.ToLower(s.Name), name: cfgPrintable(s.Name)}
		if s.NotObject {
			msg, hint := s.problem()
			e := b.st.get(m.lower)
			b.c.Diagnostics = append(b.c.Diagnostics, Diagnostic{Path: e.path(), Pos: e.pos, Rule: RuleConfig, Severity: Error, Message: msg, Hint: hint})
			continue
		}
		if !m.knownTransport() || !s.Enabled {
			continue
		}
		var ok bool
		if s.Transport == McpStdio {
			ok = m.checkStdio(lookPath)
		} else {
			ok = m.checkRemote()
		}
		if !ok {
			continue
		}
		if bad := mcpNameProblem(s.Name); bad != "" {
			m.report(b.st.under(m.lower), Warning, fmt.Sprintf("%s: the model-facing names of its tools (%s__<tool>) %s", m.name, m.name, bad),
				"rename the server with letters, digits, '_' and '-' only, and keep it short")
		}
		b.checkMcpSecretsInConfig(s, m.lower, m.report)
	}
}

// mcpCheck is the check of one McpServers entry: the server, its key
// (lower-cased) in the store, and its name as printed.
type mcpCheck struct {
	b     *cfgBinder
	s     McpServer
	lower string
	name  string
}

// at returns the entry of the server's key, or the server's own entry
// when the key is not set.
func (m *mcpCheck) at(key string) *cfgEntry {
	if e := m.b.st.get(m.lower + ":" + key); e != nil {
		return e
	}
	return m.b.st.under(m.lower)
}

// report adds a finding about the server at entry e (none when e is nil).
func (m *mcpCheck) report(e *cfgEntry, sev Severity, msg, hint string) {
	if e == nil {
		return
	}
	m.b.c.Diagnostics = append(m.b.c.Diagnostics, Diagnostic{Path: e.path(), Pos: e.pos, Rule: RuleMcpServer, Severity: sev, Message: msg, Hint: hint})
}

// knownTransport reports a transport that is not stdio, sse or http (with
// the exact spelling when only its case or spaces differ), and says
// whether it is one.
func (m *mcpCheck) knownTransport() bool {
	known := []string{McpStdio, McpSSE, McpHTTP}
	if slices.Contains(known, m.s.Transport) {
		return true
	}
	hint := "use stdio (a command), sse or http (a URL)"
	for _, k := range known {
		if strings.EqualFold(strings.TrimSpace(m.s.Transport), k) {
			hint = fmt.Sprintf("write %q: the runtime compares the transport exactly and treats anything but stdio and sse as an http server", k)
		}
	}
	m.report(m.at("transport"), Error, fmt.Sprintf("%s: invalid transport '%s' (must be stdio, sse, or http)", m.name, cfgPrintable(m.s.Transport)), hint)
	return false
}

// checkStdio reports a stdio server without a command (and then says
// false), a command not found by lookPath, and a Url it ignores.
func (m *mcpCheck) checkStdio(lookPath func(string) string) bool {
	if msg, hint := m.s.problem(); msg != "" {
		m.report(m.at("command"), Error, msg, hint)
		return false
	}
	if lookPath != nil && lookPath(m.s.Command) == "" {
		m.report(m.at("command"), Warning, fmt.Sprintf("%s: command '%s' is not found on PATH: the server cannot start", m.name, cfgPrintable(m.s.Command)),
			"install it, or give its absolute path")
	}
	if strings.TrimSpace(m.s.URL) != "" {
		m.report(m.at("url"), Warning, fmt.Sprintf("%s: Url is ignored by a stdio server", m.name), "remove Url, or set Transport to http or sse")
	}
	return true
}

// checkRemote reports an sse or http server without a Url (and then says
// false), a Url that is not an absolute http or https one, and a Command
// it ignores.
func (m *mcpCheck) checkRemote() bool {
	if msg, hint := m.s.problem(); msg != "" {
		m.report(m.at("url"), Error, msg, hint)
		return false
	}
	if u, err := url.Parse(m.s.URL); err != nil || !u.IsAbs() || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		m.report(m.at("url"), Error, fmt.Sprintf("%s: Url %s is not an absolute http or https URL: the server cannot be reached", m.name, m.b.quote(m.s.URL)),
			"write the full endpoint, e.g. \"https://example.com/mcp\"")
	}
	if strings.TrimSpace(m.s.Command) != "" {
		m.report(m.at("command"), Warning, fmt.Sprintf("%s: Command is ignored by an %s server", m.name, m.s.Transport), "remove Command, or set Transport to stdio")
	}
	return true
}

// checkMcpSecretsInConfig warns of credentials written in netclaw.json
// (`netclaw mcp add` keeps environment variables and headers in
// secrets.json). The value is never quoted.
func (b *cfgBinder) checkMcpSecretsInConfig(s McpServer, lower string, report func(*cfgEntry, Severity, string, string)) {
	check := func(kind string, m map[string]string) {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if !mcpSecretName(k) || strings.TrimSpace(m[k]) == "" {
				continue
			}
			e := b.st.get(lower + ":" + strings.ToLower(kind) + ":" + strings.ToLower(k))
			if e == nil || e.file == "" || filepath.Base(e.file) != "netclaw.json" {
				continue
			}
			report(e, Warning, fmt.Sprintf("%s: %s %s holds a credential in netclaw.json", cfgPrintable(s.Name), kind, cfgShowKey(k)),
				"move it to secrets.json under the same key path, where netclaw mcp add keeps it")
		}
	}
	check("Headers", s.Headers)
	check("EnvironmentVariables", s.EnvironmentVariables)
}

// mcpSecretName reports whether a header or variable name names a
// credential.
func mcpSecretName(name string) bool {
	l := strings.ToLower(name)
	if l == "authorization" || l == "cookie" || l == "proxy-authorization" {
		return true
	}
	for _, w := range []string{"key", "token", "secret", "password", "passwd", "credential", "auth"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// mcpNameProblem says what is wrong with a server name as the first half
// of model-facing tool names: providers accept only ^[a-zA-Z0-9_-]{1,64}$
// (OpenAI; Anthropic allows 128).
func mcpNameProblem(name string) string {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return fmt.Sprintf("carry %s, which model providers refuse in tool names (they accept letters, digits, '_' and '-')", strconv.QuoteRune(r))
		}
	}
	if len(name) > 40 {
		return fmt.Sprintf("start with %d characters, leaving little of the 64 OpenAI accepts for the tool's own name", len(name)+2)
	}
	return ""
}

// mcpSecrets returns the McpServers values the runner must never write or
// print: every header, environment variable, Url and argument set by
// secrets.json or the environment, and every header or variable whose name
// names a credential, wherever it is set.
func (c *Config) mcpSecrets() []string {
	if c == nil || c.store == nil {
		return nil
	}
	var out []string
	for k, e := range c.store.entries {
		if strings.TrimSpace(e.value) == "" {
			continue
		}
		fromSecrets := e.file == "" || filepath.Base(e.file) == "secrets.json"
		if mcpSecretKey(k, fromSecrets) {
			out = append(out, e.value)
		}
	}
	return out
}

// mcpSecretKey reports whether the McpServers value at key k (lower
// case) is a secret: a header, environment variable, Url or argument set
// by secrets.json or the environment (fromSecrets), or a header or
// variable whose name names a credential.
func mcpSecretKey(k string, fromSecrets bool) bool {
	if !strings.HasPrefix(k, "mcpservers:") {
		return false
	}
	parts := strings.Split(k, ":")
	if len(parts) < 3 {
		return false
	}
	valued := parts[2] == "headers" || parts[2] == "environmentvariables" || parts[2] == "url" || parts[2] == "arguments"
	named := len(parts) == 4 && (parts[2] == "headers" || parts[2] == "environmentvariables") && mcpSecretName(parts[3])
	return fromSecrets && valued || named
}

// cfgLookPath returns a finder of commands on the PATH that environ sets
// (else the process's), as the runtime would start them: a bare name is
// searched in each PATH folder, an absolute path is checked as it is, and
// a relative path with a separator is not checked (it depends on the
// daemon's working folder). It returns "" for a command not found; the
// finder only reads file metadata.
func cfgLookPath(environ []string) func(string) string {
	path, set := "", false
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path, set = v, true
		}
	}
	if !set {
		path = os.Getenv("PATH")
	}
	return func(cmd string) string { return cfgFindCommand(path, cmd) }
}

// cfgFindCommand finds cmd as cfgLookPath's finder does, searching the
// folders of the PATH value path.
func cfgFindCommand(path, cmd string) string {
	switch {
	case filepath.IsAbs(cmd):
		if cfgExecutable(cmd) {
			return cmd
		}
		return ""
	case strings.ContainsRune(cmd, filepath.Separator) || strings.ContainsRune(cmd, '/'):
		return cmd
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if p := filepath.Join(dir, cmd); cfgExecutable(p) {
			return p
		}
	}
	return ""
}

// cfgExecutable reports whether p is a file someone may execute.
func cfgExecutable(p string) bool {
	info, err := os.Stat(p)
	if err != nil || info.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || info.Mode().Perm()&0o111 != 0
}
