package request

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// search_tools and load_tool, answered from the tools a session is offered
// as the tiered runtime answers them from its registry
// (src/Netclaw.Actors/Tools/SearchToolsTool.cs, LoadToolTool.cs and
// ToolRegistry.cs in salma-marei/netclaw
// @ba08b016c9d3286e62ce64e5013d63d298264231; see CoreTools): search_tools
// lists and loads nothing, load_tool exposes one tool; both show a tool by
// the name the model calls it by (an MCP tool's "<server>__<tool>") and
// match it by its canonical name. The runtime searches every registered
// tool it may show; a trial searches what the sub-agent is offered, the
// same set.

const (
	maxSearchResults = 10
	maxServerBrowse  = 30
)

var (
	nonWord = regexp.MustCompile(`[^a-z0-9_]+`)
	spaces  = regexp.MustCompile(`\s+`)
)

// normalizeSearch is ToolRegistry.NormalizeSearchText.
func normalizeSearch(s string) string {
	if strings.TrimFunc(s, unicode.IsSpace) == "" {
		return ""
	}
	v := strings.ToLower(strings.TrimFunc(s, unicode.IsSpace))
	v = strings.ReplaceAll(v, "mcp:", "")
	v = nonWord.ReplaceAllString(v, " ")
	return strings.TrimSpace(spaces.ReplaceAllString(v, " "))
}

// listedName is the name the registry matches a query against: an MCP
// tool's canonical "<server>/<tool>". search_tools and load_tool show
// t.Name, the LLM-facing name.
func listedName(t Tool) string {
	if t.Canonical != "" {
		return t.Canonical
	}
	return t.Name
}

// SearchTools answers a search_tools call (Query, Server) over the offered
// tools. It returns the text and the tools the answer lists (exact matches
// and server browses, not suggestions); it loads none of them.
func SearchTools(o Offered, query, server string) (string, []Tool) {
	query = strings.TrimFunc(query, unicode.IsSpace)
	filter := normalizeServerFilter(server)
	switch control := controlQuery(query); control {
	case "", "server", "servers", "mcp", "mcp server", "mcp servers", "capabilities":
		return serverCatalog(o.Tools, ""), nil
	case "all", "list", "list all", "*":
		if filter == "" {
			return serverCatalog(o.Tools, "To browse tools, call search_tools(query: \"all\", server: \"<server_name>\")."), nil
		}
		return browseServer(o.Tools, filter)
	}
	found := matchTools(o.Tools, query, filter, maxSearchResults)
	if len(found) > 0 {
		return toolList(found, "Found "+strconv.Itoa(len(found))+" tool(s):"), found
	}
	return suggestTools(o.Tools, query, filter), nil
}

// browseServer answers search_tools(query: "all", server: filter): the
// server's tools by name, at most maxServerBrowse of them.
func browseServer(tools []Tool, filter string) (string, []Tool) {
	var found []Tool
	for _, t := range tools {
		if t.IsMCP() && strings.EqualFold(t.Server, filter) {
			found = append(found, t)
		}
	}
	slices.SortStableFunc(found, func(a, b Tool) int { return compareOrdinal(listedName(a), listedName(b)) })
	if len(found) > maxServerBrowse {
		found = found[:maxServerBrowse]
	}
	if len(found) == 0 {
		return "No tools found for server '" + filter + "' in the current trust context.", nil
	}
	return toolList(found, "Found "+strconv.Itoa(len(found))+" tool(s) in server '"+filter+"':"), found
}

// suggestTools answers a search that matched no tool: the tools similar
// to the query (not loaded), or where to browse when none is.
func suggestTools(tools []Tool, query, filter string) string {
	sugg := suggest(tools, query, filter)
	if len(sugg) == 0 {
		if filter == "" {
			return "No tools found matching '" + query + "'. Try search_tools(query: \"servers\") to browse MCP capabilities."
		}
		return "No tools found matching '" + query + "' in server '" + filter + "'. Try search_tools(query: \"all\", server: \"" + filter + "\") to browse tools."
	}
	var b strings.Builder
	b.WriteString("No exact tools found matching '" + query + "'.\n\nDid you mean:\n\n")
	for _, t := range sugg {
		b.WriteString("  ? " + t.Name + " :: " + cut80(t.Description) + parameterHint(t) + "\n")
	}
	b.WriteString("\nSuggestions are not loaded yet. Call load_tool with one of the exact tool names above.\n")
	return b.String()
}

// matchTools is ToolRegistry.SearchTools: the first max tools whose name
// or description, lower-cased, holds any word of the normalized query.
func matchTools(tools []Tool, query, filter string, max int) []Tool {
	parts := strings.Fields(normalizeSearch(query))
	var found []Tool
	for _, t := range tools {
		if len(parts) == 0 || len(found) >= max {
			break
		}
		if filter != "" && !(t.IsMCP() && strings.EqualFold(t.Server, filter)) {
			continue
		}
		name, desc := strings.ToLower(listedName(t)), strings.ToLower(t.Description)
		if slices.ContainsFunc(parts, func(p string) bool { return strings.Contains(name, p) || strings.Contains(desc, p) }) {
			found = append(found, t)
		}
	}
	return found
}

func controlQuery(q string) string {
	t := strings.TrimFunc(q, unicode.IsSpace)
	if t == "*" {
		return "*"
	}
	return strings.Join(strings.Fields(strings.ToLower(t)), " ")
}

func normalizeServerFilter(s string) string {
	v := strings.TrimFunc(s, unicode.IsSpace)
	switch {
	case v == "", v == "*", strings.EqualFold(v, "default"), strings.EqualFold(v, "all"), strings.EqualFold(v, "any"):
		return ""
	case len(v) >= 4 && strings.EqualFold(v[:4], "mcp:"):
		return v[4:]
	}
	return v
}

func serverCatalog(tools []Tool, hint string) string {
	sums := ServerSummaries(tools)
	if len(sums) == 0 {
		return "No MCP servers are currently registered."
	}
	var b strings.Builder
	b.WriteString("Available MCP servers (" + strconv.Itoa(len(sums)) + "):\n\n")
	for _, s := range sums {
		b.WriteString("  " + s.Server + " (" + strconv.Itoa(s.Tools) + " tools): " + s.Description + "\n")
	}
	b.WriteString("\nTo browse one server, call search_tools(query: \"all\", server: \"<server_name>\").\n")
	b.WriteString("To find tools, call search_tools(query: \"<intent>\", server: \"<server_name>\"), then load_tool(\"<name>\") to expose its schema.\n")
	if strings.TrimSpace(hint) != "" {
		b.WriteString("\n" + hint + "\n")
	}
	return b.String()
}

func toolList(tools []Tool, heading string) string {
	var b strings.Builder
	b.WriteString(heading + "\n\n")
	for _, t := range tools {
		b.WriteString("  " + t.Name + " — " + cut80(t.Description) + parameterHint(t) + "\n")
	}
	b.WriteString("\nTo expose a selected tool schema, call load_tool(\"<tool_name>\"). Normal authorization still runs at dispatch.\n")
	return b.String()
}

// cut80 cuts a description longer than 80 UTF-16 units to 77 and "...".
func cut80(s string) string {
	u := utf16.Encode([]rune(s))
	if len(u) <= 80 {
		return s
	}
	return string(utf16.Decode(u[:77])) + "..."
}

// parameterHint lists the schema's first four property names, meta
// properties included: " (params: A, B, C, D, +n more)".
func parameterHint(t Tool) string {
	names := schemaProperties(t.schema)
	if len(names) == 0 {
		return ""
	}
	shown := names
	if len(names) > 4 {
		shown = append(slices.Clone(names[:4]), "+"+strconv.Itoa(len(names)-4)+" more")
	}
	return " (params: " + strings.Join(shown, ", ") + ")"
}

// schemaProperties returns the property names of a JSON schema object, in
// the order written.
func schemaProperties(schema json.RawMessage) []string {
	dec := json.NewDecoder(bytes.NewReader(schema))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		if key, _ := tok.(string); key != "properties" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil
			}
			continue
		}
		return objectKeys(dec)
	}
	return nil
}

// objectKeys reads the JSON object next in dec and returns its keys in
// the order written; nil when it is not an object or does not decode.
func objectKeys(dec *json.Decoder) []string {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	var names []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		name, _ := tok.(string)
		names = append(names, name)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil
		}
	}
	return names
}

// suggest is ToolRegistry.SuggestTools: tools whose normalized name, short
// name or description is at least 40% similar (Levenshtein) to the query,
// best first, then by name.
func suggest(tools []Tool, query, filter string) []Tool {
	q := normalizeSearch(query)
	if q == "" {
		return nil
	}
	type scored struct {
		t     Tool
		score float64
	}
	var all []scored
	for _, t := range tools {
		if filter != "" && !(t.IsMCP() && strings.EqualFold(t.Server, filter)) {
			continue
		}
		name := listedName(t)
		full := normalizeSearch(name)
		short := full
		if i := strings.LastIndexByte(name, '/'); i >= 0 && i+1 < len(name) {
			short = normalizeSearch(name[i+1:])
		}
		s := max(similarity(q, full), similarity(q, short), similarity(q, normalizeSearch(t.Description)))
		if s >= 0.40 {
			all = append(all, scored{t, s})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int {
		switch {
		case a.score > b.score:
			return -1
		case a.score < b.score:
			return 1
		}
		return compareOrdinal(listedName(a.t), listedName(b.t))
	})
	var out []Tool
	for i := 0; i < len(all) && i < maxSearchResults; i++ {
		out = append(out, all[i].t)
	}
	return out
}

func similarity(a, b string) float64 {
	if a == "" || b == "" {
		return 0
	}
	if a == b {
		return 1
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	d := levenshtein(ua, ub)
	return 1 - float64(d)/float64(max(len(ua), len(ub)))
}

// levenshtein is the edit distance between a and b (insertions, deletions
// and substitutions of one element each): over UTF-16 code units for
// search_tools' similarity, over runes for the closest argument name.
func levenshtein[T comparable](a, b []T) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
