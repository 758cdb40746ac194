package preview

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/agentdesk/agentdesk/lint"
)

// SpawnArgs are the arguments of a spawn_agent call as the runtime binds
// them (NetClaw's ToolArgumentHelper): each parameter is found by its exact
// name, else by the first member whose name matches without regard to
// case, else by the first whose letters and digits match without regard to
// case (agent, AGENT, a_gent). A JSON string is its text; null or absence
// is no value; any other JSON value is its JSON text.
type SpawnArgs struct {
	Agent, Task, Context string
	// HasAgent and HasTask are false when the parameter is absent or null:
	// the runtime refuses the call before it looks at the agent.
	HasAgent, HasTask bool
}

// ErrNotObject is returned by ParseSpawnArgs for argument text that is not
// one JSON object.
var ErrNotObject = errors.New("the arguments are not a JSON object")

// MaxSpawnArgs caps the argument text ParseSpawnArgs reads.
const MaxSpawnArgs = 1 << 20

// ParseSpawnArgs reads the argument text of a spawn_agent call. Text that
// is not one valid JSON object (a call cut off at the output limit, or
// malformed) is an error wrapping ErrNotObject; "" is an object with no
// members.
func ParseSpawnArgs(text string) (SpawnArgs, error) {
	if len(text) > MaxSpawnArgs {
		return SpawnArgs{}, fmt.Errorf("%w: %d bytes, more than %d", ErrNotObject, len(text), MaxSpawnArgs)
	}
	if strings.TrimSpace(text) == "" {
		return SpawnArgs{}, nil
	}
	if !json.Valid([]byte(text)) {
		return SpawnArgs{}, fmt.Errorf("%w: not valid JSON", ErrNotObject)
	}
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return SpawnArgs{}, fmt.Errorf("%w: a JSON %s", ErrNotObject, jsonKind(text))
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return SpawnArgs{}, fmt.Errorf("%w: %v", ErrNotObject, err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return SpawnArgs{}, fmt.Errorf("%w: %v", ErrNotObject, err)
		}
		members = append(members, member{key, raw})
	}
	var a SpawnArgs
	a.Agent, a.HasAgent = lookupArg(members, "Agent")
	a.Task, a.HasTask = lookupArg(members, "Task")
	a.Context, _ = lookupArg(members, "Context")
	return a, nil
}

type member struct {
	key string
	raw json.RawMessage
}

// lookupArg finds a parameter the way the runtime does (see SpawnArgs).
func lookupArg(members []member, name string) (string, bool) {
	found := findArg(members, name)
	if found < 0 {
		return "", false
	}
	return argText(members[found].raw)
}

// findArg returns the index of the member that binds to parameter name:
// the last with exactly that key, else the first equal ignoring case, else
// the first equal in letters and digits; -1 for none.
func findArg(members []member, name string) int {
	for i := len(members) - 1; i >= 0; i-- {
		if members[i].key == name {
			return i
		}
	}
	for i := range members {
		if strings.EqualFold(members[i].key, name) {
			return i
		}
	}
	norm := normalizeKey(name)
	for i := range members {
		if strings.EqualFold(normalizeKey(members[i].key), norm) {
			return i
		}
	}
	return -1
}

// argText is an argument's value as text: a JSON string's value, else the
// JSON as written; ok is false for null.
func argText(raw json.RawMessage) (string, bool) {
	raw = bytes.TrimSpace(raw)
	switch {
	case string(raw) == "null":
		return "", false
	case len(raw) > 0 && raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	}
	return string(raw), true
}

// normalizeKey keeps a name's letters and digits.
func normalizeKey(k string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, k)
}

// jsonKind names the kind of a valid JSON text's value.
func jsonKind(text string) string {
	switch s := strings.TrimSpace(text); {
	case strings.HasPrefix(s, "["):
		return "array"
	case strings.HasPrefix(s, `"`):
		return "string"
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "boolean"
	}
	return "number"
}

// SpawnRefusal returns the text the runtime's spawn_agent hands back to the
// frontline model, instead of spawning, for a call with these arguments in
// a session of audience a; "" and the definition it would run when it
// spawns. In the runtime's order: a required parameter that is absent or
// null; the Public audience or SubAgents.Enabled false; a blank agent or
// task; an agent that is not loaded or is internal (the text lists the
// user-facing agents, or says none are available).
func SpawnRefusal(c *lint.Catalog, a Audience, args SpawnArgs) (string, *lint.Definition) {
	switch {
	case !args.HasAgent:
		return "Error parsing arguments for tool 'spawn_agent': Required parameter 'Agent' is missing.", nil
	case !args.HasTask:
		return "Error parsing arguments for tool 'spawn_agent': Required parameter 'Task' is missing.", nil
	case !Enabled(c, a):
		return "Error: This tool is not available.", nil
	case dotNetTrim(args.Agent) == "":
		return "Error: 'agent' parameter is required.", nil
	case dotNetTrim(args.Task) == "":
		return "Error: 'task' parameter is required.", nil
	}
	if f := c.Agent(args.Agent); f != nil && f.Def.UserFacing() {
		return "", f.Def
	}
	listed := Listed(c, a)
	if len(listed) == 0 {
		return fmt.Sprintf("Error: No subagents are available. Agent '%s' not found. Author one at %s/*.md or define a skill with metadata.subagent once #661 lands.", args.Agent, c.Home.Agents), nil
	}
	names := make([]string, len(listed))
	for i, d := range listed {
		names[i] = d.Name
	}
	return fmt.Sprintf("Error: Unknown agent '%s'. Available agents: %s", args.Agent, strings.Join(names, ", ")), nil
}
