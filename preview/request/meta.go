package request

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The runtime's texts for a call whose arguments it refuses before running
// the tool (src/Netclaw.Actors/Sessions/Pipelines/ToolCallMetaExtractor.cs,
// the version with RequiredRationaleError; Netclaw.Tools/ToolArgumentHelper.cs
// and ToolCallMeta.cs, the newest versions stored).
const (
	// RequiredRationaleError answers a call without a usable _rationale.
	RequiredRationaleError = "Error: Required meta argument '_rationale' must be a non-empty string. " +
		"Supply one sentence that states the tool call intent. The tool was NOT executed."
)

// ParseError is the text the runtime returns when a tool's generated
// ParseArguments throws (a required parameter missing, a value of the wrong
// type): "Error parsing arguments for tool '<tool>': <message>".
func ParseError(tool, message string) string {
	return "Error parsing arguments for tool '" + tool + "': " + message
}

// MissingParameter is the message of a required parameter that is absent
// or null: "Required parameter '<Name>' is missing."
func MissingParameter(name string) string {
	return "Required parameter '" + name + "' is missing."
}

// Arg is one argument of a tool call.
type Arg struct {
	Key string
	// Value is the argument's JSON text.
	Value json.RawMessage
}

// Args are a tool call's arguments in the order the model wrote them.
type Args []Arg

// ErrArgsNotObject is wrapped by ParseArgs for argument text that is not
// one JSON object.
var ErrArgsNotObject = errors.New("the arguments are not a JSON object")

// MaxArgs caps the argument text ParseArgs reads.
const MaxArgs = 4 << 20

// ParseArgs reads a tool call's argument text: one JSON object, its
// members in order (a repeated key is kept twice). Blank text is an object
// with no members. Anything else is an error wrapping ErrArgsNotObject.
func ParseArgs(text []byte) (Args, error) {
	if len(text) > MaxArgs {
		return nil, fmt.Errorf("%w: %d bytes, more than %d", ErrArgsNotObject, len(text), MaxArgs)
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return Args{}, nil
	}
	if !json.Valid(text) {
		return nil, fmt.Errorf("%w: not valid JSON", ErrArgsNotObject)
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%w: a JSON %s", ErrArgsNotObject, kindOf(bytes.TrimSpace(text)))
	}
	args := Args{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArgsNotObject, err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrArgsNotObject, err)
		}
		args = append(args, Arg{Key: key, Value: raw})
	}
	return args, nil
}

// kindOf names the kind of a valid JSON text's value.
func kindOf(v []byte) string {
	switch {
	case len(v) == 0:
		return "nothing"
	case v[0] == '[':
		return "array"
	case v[0] == '"':
		return "string"
	case v[0] == 'n':
		return "null"
	case v[0] == 't' || v[0] == 'f':
		return "boolean"
	case v[0] == '{':
		return "object"
	}
	return "number"
}

// Encode returns the arguments as one JSON object, in order.
func (a Args) Encode() json.RawMessage {
	b := []byte{'{'}
	for i, arg := range a {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, arg.Key)
		b = append(b, ':')
		v := bytes.TrimSpace(arg.Value)
		if len(v) == 0 {
			v = []byte("null")
		}
		b = append(b, v...)
	}
	return append(b, '}')
}

// NormalizeKey keeps a name's letters and digits (ToolArgumentHelper.NormalizeKey):
// ChannelId, channel_id and channel-id all become a form that compares equal
// ignoring case.
func NormalizeKey(k string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, k)
}

// Find returns the index of the argument the runtime binds to parameter
// name (ToolArgumentHelper.TryGetValueFlexible): the member named exactly
// name (the last such, as a JSON object read into a dictionary keeps it),
// else the first whose name equals it ignoring case, else the first whose
// letters and digits equal its letters and digits ignoring case; -1 if
// none.
func (a Args) Find(name string) int {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].Key == name {
			return i
		}
	}
	for i := range a {
		if strings.EqualFold(a[i].Key, name) {
			return i
		}
	}
	norm := NormalizeKey(name)
	for i := range a {
		if strings.EqualFold(NormalizeKey(a[i].Key), norm) {
			return i
		}
	}
	return -1
}

// Value returns the JSON text of the argument bound to parameter name; ok
// is false when it is absent or JSON null (the runtime's "no value").
func (a Args) Value(name string) (json.RawMessage, bool) {
	i := a.Find(name)
	if i < 0 {
		return nil, false
	}
	v := bytes.TrimSpace(a[i].Value)
	if len(v) == 0 || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// String returns a string parameter as the runtime binds it
// (ToolArgumentHelper.GetString): a JSON string's text; true and false as
// .NET writes them ("True", "False"); any other value as its JSON text. ok
// is false when the argument is absent or null. A parameter named Message
// that is absent is read from "text".
func (a Args) String(name string) (string, bool) {
	v, ok := a.Value(name)
	if !ok && strings.EqualFold(name, "Message") && a.Find(name) < 0 {
		v, ok = a.Value("text")
	}
	if !ok {
		return "", false
	}
	switch {
	case v[0] == '"':
		var s string
		if json.Unmarshal(v, &s) == nil {
			return s, true
		}
	case string(v) == "true":
		return "True", true
	case string(v) == "false":
		return "False", true
	}
	return string(v), true
}

// Int returns an integer parameter as the generated ParseArguments binds
// it (ToolArgumentHelper.GetIntStrict): a JSON number with no fraction or
// exponent that fits 32 bits, or a string that parses as one. ok is false
// when it is absent or null; a value that is neither is an error whose text
// is the runtime's ("Parameter 'X' value '...' is not a valid integer. The
// tool was NOT executed.").
func (a Args) Int(name string) (n int, ok bool, err error) {
	v, ok := a.Value(name)
	if !ok {
		return 0, false, nil
	}
	if n, good := coerceInt(v); good {
		return n, true, nil
	}
	return 0, false, errors.New(invalidValue(name, v, "integer"))
}

// Bool returns a boolean parameter as the generated ParseArguments binds
// it (ToolArgumentHelper.GetBoolStrict): true, false, or a string that
// says "true" or "false" in any case. Absent or null: ok false; anything
// else an error with the runtime's text.
func (a Args) Bool(name string) (b bool, ok bool, err error) {
	v, ok := a.Value(name)
	if !ok {
		return false, false, nil
	}
	if b, good := coerceBool(v); good {
		return b, true, nil
	}
	return false, false, errors.New(invalidValue(name, v, "boolean"))
}

// coerceInt accepts what GetIntStrict and TryCoerceInt accept from JSON.
func coerceInt(v json.RawMessage) (int, bool) {
	if len(v) > 0 && v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return 0, false
		}
		s = strings.TrimFunc(s, unicode.IsSpace)
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return 0, false
		}
		return int(n), true
	}
	// A JSON number with a fraction or an exponent is refused, as
	// JsonElement.TryGetInt32 refuses it.
	n, err := strconv.ParseInt(string(v), 10, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}

// coerceBool accepts what GetBoolStrict and TryCoerceBool accept from JSON.
func coerceBool(v json.RawMessage) (bool, bool) {
	switch string(v) {
	case "true":
		return true, true
	case "false":
		return false, true
	}
	if len(v) > 0 && v[0] == '"' {
		var s string
		if json.Unmarshal(v, &s) != nil {
			return false, false
		}
		switch strings.ToLower(strings.TrimFunc(s, func(r rune) bool { return unicode.IsSpace(r) || r == 0 })) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}
	return false, false
}

// invalidValue is ToolArgumentHelper.InvalidValue's message: the value's
// JSON text, cut to 100 characters and "…".
func invalidValue(name string, v json.RawMessage, want string) string {
	return fmt.Sprintf("Parameter '%s' value '%s' is not a valid %s. The tool was NOT executed.", name, renderValue(v), want)
}

func renderValue(v json.RawMessage) string {
	r := []rune(string(v))
	if len(r) > 100 {
		return string(r[:100]) + "…"
	}
	return string(r)
}

// Meta is the meta arguments of a call: why the model calls the tool, the
// timeout it asks for, and whether to run it in the background.
type Meta struct {
	Rationale string
	// TimeoutSeconds is 0 when none was asked for.
	TimeoutSeconds int
	Background     bool
}

// metaNames maps a meta key's letters and digits, lower-cased, to the meta
// field (ToolArgumentValidator's NormalizedMetaFields: the three names and
// "timeout").
var metaNames = map[string]string{
	"rationale":      MetaRationale,
	"timeoutseconds": MetaTimeout,
	"background":     MetaBackground,
	"timeout":        MetaTimeout,
}

// MetaField returns the meta field an argument key addresses for this tool
// ("_rationale", "_timeout_seconds", "_background"), or "": the key's
// letters and digits compared ignoring case (Rationale, TimeoutSeconds,
// timeout and _background all count), unless the tool declares a parameter
// of that name, which then keeps it (ToolArgumentValidator.ResolveMetaField).
func MetaField(t Tool, key string) string {
	f, ok := metaNames[strings.ToLower(NormalizeKey(key))]
	if !ok {
		return ""
	}
	if key == f {
		return f
	}
	norm := NormalizeKey(key)
	for _, name := range t.paramNames() {
		if !strings.HasPrefix(name, "_") && strings.EqualFold(NormalizeKey(name), norm) {
			return ""
		}
	}
	return f
}

// paramNames returns the names the tool declares, in order: its Params,
// or an MCP tool's schema properties.
func (t Tool) paramNames() []string {
	if t.Params != nil || len(t.schema) == 0 {
		names := make([]string, len(t.Params))
		for i, p := range t.Params {
			names[i] = p.Name
		}
		return names
	}
	return schemaProperties(t.schema)
}

// SplitMeta takes a call's meta arguments out, as ToolCallMeta.ExtractFrom
// does with the executor's schema-aware resolver (MetaField): every key
// that addresses a meta field is removed from the arguments, whatever its
// value; a value that does not bind (a timeout that is not a positive
// integer, a background that is not a boolean, a rationale that is null)
// is ignored. It checks nothing: ExtractMeta does.
func SplitMeta(t Tool, args Args) (Meta, Args) {
	var m Meta
	clean := make(Args, 0, len(args))
	for _, a := range args {
		f := MetaField(t, a.Key)
		if f == "" {
			clean = append(clean, a)
			continue
		}
		m.bind(f, bytes.TrimSpace(a.Value))
	}
	return m, clean
}

// bind sets the meta field f from its trimmed value v: a rationale's
// string (else its text), a positive timeout, a boolean background. A
// null or empty value, or one that does not bind, is ignored.
func (m *Meta) bind(f string, v []byte) {
	if len(v) == 0 || string(v) == "null" {
		return
	}
	switch f {
	case MetaRationale:
		var s string
		if v[0] == '"' && json.Unmarshal(v, &s) == nil {
			m.Rationale = s
		} else {
			m.Rationale = string(v)
		}
	case MetaTimeout:
		if n, ok := coerceInt(v); ok && n > 0 {
			m.TimeoutSeconds = n
		}
	case MetaBackground:
		if b, ok := coerceBool(v); ok {
			m.Background = b
		}
	}
}

// ExtractMeta checks a call's meta arguments and strips them, as the
// runtime does before it runs a tool. It returns the meta, the arguments
// the tool binds (every key that addresses a meta field removed), and ""
// when the call may run; otherwise the text the runtime answers instead of
// running the tool:
//
//   - two keys for one meta field: "Error: Arguments 'a' and 'b' both map
//     to the meta field '_x'. Supply only one. The tool was NOT executed."
//   - a _timeout_seconds that is not a positive integer, or a _background
//     that is not a boolean: "Error: Meta argument 'k' value 'v' is not a
//     valid positive integer|boolean. The tool was NOT executed."
//     (ToolCallMetaExtractor.ValidateMetaValues; null values pass);
//   - no _rationale, or one that is not a non-blank string:
//     RequiredRationaleError (ValidateRequiredRationale).
//
// The value checks come before the rationale check.
func ExtractMeta(t Tool, args Args) (Meta, Args, string) {
	firstKey := map[string]string{}
	valueError := ""
	rationaleOK := false
	for _, a := range args {
		f := MetaField(t, a.Key)
		if f == "" {
			continue
		}
		if k, seen := firstKey[f]; seen && k != a.Key {
			return Meta{}, nil, fmt.Sprintf("Error: Arguments '%s' and '%s' both map to the meta field '%s'. Supply only one. The tool was NOT executed.", k, a.Key, f)
		}
		firstKey[f] = a.Key
		v := bytes.TrimSpace(a.Value)
		if f == MetaRationale {
			rationaleOK = validRationale(v)
		} else if valueError == "" {
			valueError = metaValueError(f, a.Key, v)
		}
	}
	switch {
	case valueError != "":
		return Meta{}, nil, valueError
	case !rationaleOK:
		return Meta{}, nil, RequiredRationaleError
	}
	m, clean := SplitMeta(t, args)
	return m, clean, ""
}

// validRationale reports whether the trimmed value v of _rationale is a
// string that is not blank.
func validRationale(v []byte) bool {
	var s string
	return len(v) > 0 && string(v) != "null" && v[0] == '"' && json.Unmarshal(v, &s) == nil && strings.TrimFunc(s, unicode.IsSpace) != ""
}

// metaValueError is the runtime's refusal of the value v (trimmed) of
// key, which addresses the meta field f: a timeout that is not a positive
// integer, a background that is not a boolean. "" when it is valid or
// null.
func metaValueError(f, key string, v []byte) string {
	if len(v) == 0 || string(v) == "null" {
		return ""
	}
	switch f {
	case MetaTimeout:
		if n, ok := coerceInt(v); !(ok && n > 0) {
			return fmt.Sprintf("Error: Meta argument '%s' value '%s' is not a valid positive integer. The tool was NOT executed.", key, renderValue(v))
		}
	case MetaBackground:
		if _, ok := coerceBool(v); !ok {
			return fmt.Sprintf("Error: Meta argument '%s' value '%s' is not a valid boolean. The tool was NOT executed.", key, renderValue(v))
		}
	}
	return ""
}

// aliasGroups are the parameter names binding treats as one
// (ToolArgumentHelper's text↔message group), by their normalized form.
var aliasGroups = [][]string{{"text", "message"}}

// UnknownArguments checks a first-party tool's argument keys as
// ToolArgumentValidator.ValidateArgumentKeys does: a key is recognized when
// it is a schema property, binds to a declared parameter ignoring case and
// punctuation (or to its alias), or is a spelling of a meta argument.
// Otherwise it returns the runtime's refusal: "Error: Unrecognized
// argument 'k' for tool 't'. [Did you mean 'p'? ]... The tool was NOT
// executed. Valid arguments: a, b, ...." (the suggestion is the closest
// property within two edits). "" when every key is recognized, and always
// for an MCP tool (the runtime checks native tools only).
func UnknownArguments(t Tool, args Args) string {
	if t.IsMCP() || len(args) == 0 {
		return ""
	}
	valid := schemaProperties(t.schema)
	if valid == nil {
		return ""
	}
	declared := declaredParameters(valid)
	var b strings.Builder
	seen := map[string]bool{}
	for _, a := range args {
		if seen[a.Key] {
			continue
		}
		seen[a.Key] = true
		norm := NormalizeKey(a.Key)
		if recognizedArgument(a.Key, norm, valid, declared) {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("Error: ")
		}
		fmt.Fprintf(&b, "Unrecognized argument '%s' for tool '%s'.", a.Key, t.Name)
		if s := suggestArgument(norm, valid); s != "" {
			fmt.Fprintf(&b, " Did you mean '%s'?", s)
		}
		b.WriteByte(' ')
	}
	if b.Len() == 0 {
		return ""
	}
	b.WriteString("The tool was NOT executed. Valid arguments: " + strings.Join(valid, ", ") + ".")
	return b.String()
}

// declaredParameters returns the normalized, lower-cased names the
// schema's properties valid bind to (not those starting with '_'), with
// the other members of an alias group any of them is in.
func declaredParameters(valid []string) map[string]bool {
	declared := map[string]bool{}
	for _, name := range valid {
		if !strings.HasPrefix(name, "_") {
			declared[strings.ToLower(NormalizeKey(name))] = true
		}
	}
	for _, group := range aliasGroups {
		if slices.ContainsFunc(group, func(member string) bool { return declared[member] }) {
			for _, other := range group {
				declared[other] = true
			}
		}
	}
	return declared
}

// recognizedArgument reports whether the argument key (norm, normalized)
// is a schema property of valid, binds to a declared parameter, or is a
// spelling of a meta argument.
func recognizedArgument(key, norm string, valid []string, declared map[string]bool) bool {
	if containsString(valid, key) || declared[strings.ToLower(norm)] {
		return true
	}
	_, meta := metaNames[strings.ToLower(norm)]
	return meta
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggestArgument is the first valid name whose letters and digits are
// fewest edits (at most two, case ignored) from the key's.
func suggestArgument(norm string, valid []string) string {
	best, bestDistance := "", 3
	a := []rune(strings.ToLower(norm))
	for _, name := range valid {
		d := levenshtein(a, []rune(strings.ToLower(NormalizeKey(name))))
		if d < bestDistance {
			best, bestDistance = name, d
		}
	}
	return best
}

// CheckCall runs every check the runtime makes on a call's arguments
// before the tool runs, in this order: the meta values and the required
// _rationale (ExtractMeta), then, for a first-party tool, the argument
// keys (UnknownArguments). It returns the meta and the arguments the tool
// binds, or the refusal the model receives instead of a result. (That the
// key check comes after the meta checks is read from the runtime's
// comments; the dispatcher that orders them was not copied.)
func CheckCall(t Tool, args Args) (Meta, Args, string) {
	m, clean, refusal := ExtractMeta(t, args)
	if refusal != "" {
		return Meta{}, nil, refusal
	}
	if refusal := UnknownArguments(t, args); refusal != "" {
		return Meta{}, nil, refusal
	}
	return m, clean, ""
}
