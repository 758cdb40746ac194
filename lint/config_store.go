package lint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// This file flattens configuration sources into one case-insensitive
// key → value map, the way Microsoft.Extensions.Configuration does: nested
// names joined with ':', array elements keyed "0", "1", ..., later sources
// winning key by key.

// cfgFile is one configuration file as read from disk.
type cfgFile struct {
	path   string
	data   []byte
	exists bool
	// diag is set when the file exists but cannot be read.
	diag *Diagnostic
}

// cfgReadFile reads path. A missing file, or a folder where the file should
// be (the runtime's file provider does not see folders), does not exist; a
// file that cannot be read, or is over MaxFileSize, gets an unreadable
// diagnostic.
func cfgReadFile(path string) cfgFile {
	f := cfgFile{path: path}
	unreadable := func(msg, hint string) cfgFile {
		f.diag = &Diagnostic{Path: path, Rule: RuleUnreadable, Severity: Error, Message: msg, Hint: hint}
		return f
	}
	name := filepath.Base(path)
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f
	case err != nil:
		f.exists = true
		return unreadable(fmt.Sprintf("cannot read %s: %v", name, err), "check the file and its folder's permissions")
	case info.IsDir():
		return unreadable(fmt.Sprintf("%s is a folder, not a file: NetClaw ignores it and uses no %s", name, name), "remove the folder or put a JSON file there")
	}
	f.exists = true
	if info.Size() > MaxFileSize {
		return unreadable(fmt.Sprintf("%s is %d bytes, over agentdesk's %d-byte limit for a configuration file", name, info.Size(), MaxFileSize), "a NetClaw configuration is a few kilobytes: check that this is the right file")
	}
	file, err := os.Open(path)
	if err != nil {
		return unreadable(fmt.Sprintf("cannot read %s: %v", name, err), "check the file's permissions")
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, MaxFileSize+1))
	if err != nil {
		return unreadable(fmt.Sprintf("cannot read %s: %v", name, err), "check the file and the disk")
	}
	if len(data) > MaxFileSize {
		return unreadable(fmt.Sprintf("%s grew past agentdesk's %d-byte limit while being read", name, MaxFileSize), "check that this is the right file")
	}
	f.data = data
	return f
}

// cfgEntry is one merged key.
type cfgEntry struct {
	// key is spelled as its first source wrote it, levels joined with ':'.
	key   string
	value string
	// file is the file that set the value last; "" for the environment.
	file string
	// pos is where the value starts in file.
	pos Pos
	// envVar is the variable that set the value, when file is "".
	envVar string
}

// origin returns where the value came from.
func (e *cfgEntry) origin() ConfigOrigin {
	if e.file == "" {
		return ConfigOrigin{Path: ConfigEnvironment, Variable: e.envVar}
	}
	return ConfigOrigin{Path: e.file, Pos: e.pos}
}

// path returns the file, or ConfigEnvironment.
func (e *cfgEntry) path() string {
	if e.file == "" {
		return ConfigEnvironment
	}
	return e.file
}

// cfgIndexDepth is how many key levels the store indexes for binding
// (Models:Definitions:<name>:ContextWindow is 4, and one more level shows
// an object where a value belongs). Deeper keys are stored and looked up
// like any other, but their prefixes are not indexed, so a key of a
// million levels costs no more than its length.
const cfgIndexDepth = 5

// cfgStore is the merged configuration.
type cfgStore struct {
	// entries by lowercased key.
	entries map[string]*cfgEntry
	// spell maps every lowercased key prefix of up to cfgIndexDepth levels
	// ("providers", "providers:openai") to its first spelling.
	spell map[string]string
	// deep maps a prefix of cfgIndexDepth levels to the first entry set
	// below it.
	deep map[string]*cfgEntry
	// kids maps a lowercased prefix ("" for the top) to its lowercased
	// children, sorted; built by index.
	kids map[string][]string
	// lists maps a lowercased key that a file wrote as a non-empty JSON
	// array to where the array starts (the binder reads its elements as
	// keys "0", "1", ...).
	lists map[string]*cfgEntry
}

func newCfgStore() *cfgStore {
	return &cfgStore{entries: map[string]*cfgEntry{}, spell: map[string]string{}, deep: map[string]*cfgEntry{}, lists: map[string]*cfgEntry{}}
}

// get returns the entry of a lowercased key, or nil.
func (st *cfgStore) get(lower string) *cfgEntry { return st.entries[lower] }

// set records key = value from a file at pos, or from the variable envVar
// when file is "", keeping the key's first spelling.
func (st *cfgStore) set(key, value, file string, pos Pos, envVar string) {
	lower := strings.ToLower(key)
	e := st.entries[lower]
	if e == nil {
		e = &cfgEntry{key: key}
		st.entries[lower] = e
		st.spellPrefixes(key, e)
	}
	e.value, e.file, e.pos, e.envVar = value, file, pos, envVar
}

// spellPrefixes records the spelling of each prefix of key, up to
// cfgIndexDepth levels, that has none yet.
func (st *cfgStore) spellPrefixes(key string, e *cfgEntry) {
	level, last := 0, ""
	for i := 0; i <= len(key); i++ {
		if i < len(key) && key[i] != ':' {
			continue
		}
		if level == cfgIndexDepth {
			if _, ok := st.deep[last]; !ok {
				st.deep[last] = e
			}
			return
		}
		level++
		last = strings.ToLower(key[:i])
		if _, ok := st.spell[last]; !ok {
			st.spell[last] = key[:i]
		}
	}
}

// index builds the children lists from the spelled prefixes.
func (st *cfgStore) index() {
	st.kids = map[string][]string{}
	for lower := range st.spell {
		if lower == "" {
			continue // the root, set only by a key "" or ":..."
		}
		parent := ""
		if i := strings.LastIndexByte(lower, ':'); i >= 0 {
			parent = lower[:i]
		}
		st.kids[parent] = append(st.kids[parent], lower)
	}
	for _, kids := range st.kids {
		slices.Sort(kids)
	}
}

// children returns the lowercased child keys of a lowercased prefix.
func (st *cfgStore) children(lower string) []string { return st.kids[lower] }

// name returns the last level of a lowercased key, as first spelled.
func (st *cfgStore) name(lower string) string {
	s := st.spell[lower]
	return s[strings.LastIndexByte(s, ':')+1:]
}

// under returns the entry of a lowercased key, else one set below it, else
// nil: a stand-in origin for a section.
func (st *cfgStore) under(lower string) *cfgEntry {
	if e := st.entries[lower]; e != nil {
		return e
	}
	if e := st.deep[lower]; e != nil {
		return e
	}
	return st.below(lower)
}

// below returns an entry set below a lowercased key (the first found
// depth-first in key order), or nil.
func (st *cfgStore) below(lower string) *cfgEntry {
	for _, k := range st.kids[lower] {
		if e := st.under(k); e != nil {
			return e
		}
	}
	return nil
}

// cfgMaxDuplicates caps the duplicate-key diagnostics of one file.
const cfgMaxDuplicates = 20

// addFile parses one file and merges its keys. A file that does not parse,
// or whose top level is not an object, adds nothing (NetClaw would not start
// with it) and gets one diagnostic. Duplicate keys, which stop NetClaw too,
// are reported; the later value is kept.
func (st *cfgStore) addFile(path string, data []byte) []Diagnostic {
	text := DecodeText(data)
	name := filepath.Base(path)
	root, err := cfgParseJSON(text)
	if err != nil {
		var se *cfgSyntaxError
		var pos Pos
		if errors.As(err, &se) && se.off > 0 {
			pos = posAt(text, se.off)
		}
		return []Diagnostic{{
			Path: path, Pos: pos, Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("%s does not parse: %v", name, err),
			Hint:    "NetClaw does not start until it parses; comments and trailing commas are fine, the rest must be JSON",
		}}
	}
	if root.kind != cfgObject {
		return []Diagnostic{{
			Path: path, Pos: posAt(text, root.off), Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("the top level of %s is %s: NetClaw expects a JSON object", name, cfgKindName(root.kind)),
			Hint:    `wrap the settings in { }, e.g. {"SubAgents": {"Enabled": true}}`,
		}}
	}
	// The walk meets names and values in text order, so one tracker gives
	// every position in a single pass over the text.
	w := &cfgFileWalk{st: st, path: path, at: cfgPosTracker{text: text, pos: Pos{Line: 1, Column: 1}}, seen: map[string]Pos{}}
	w.walk(root, "", Pos{})
	if w.dups > cfgMaxDuplicates {
		w.diags = append(w.diags, Diagnostic{
			Path: path, Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("%d more duplicate keys in %s", w.dups-cfgMaxDuplicates, name),
		})
	}
	return w.diags
}

// cfgFileWalk merges the keys of one parsed file into st, in text order,
// and gathers its duplicate-key findings.
type cfgFileWalk struct {
	st   *cfgStore
	path string
	at   cfgPosTracker
	// seen holds, per lowercased key this file set, where the name that
	// set it is: .NET refuses a second value for a key (any case).
	seen  map[string]Pos
	diags []Diagnostic
	dups  int
}

// walk merges node n, the value of key (a colon path, "" at the top
// level) whose name is at keyPos: an object's or array's members under
// their paths, anything else as the key's value.
func (w *cfgFileWalk) walk(n *cfgNode, key string, keyPos Pos) {
	if n.kind != cfgObject && n.kind != cfgArray {
		w.leaf(n, key, keyPos)
		return
	}
	if len(n.members) == 0 {
		// An empty object or array sets its key to null, with no
		// duplicate check, as .NET's parser does.
		if key != "" {
			w.seen[strings.ToLower(key)] = keyPos
			w.st.set(key, "", w.path, w.at.at(n.off), "")
		}
		return
	}
	if n.kind == cfgArray && key != "" {
		w.st.lists[strings.ToLower(key)] = &cfgEntry{key: key, file: w.path, pos: w.at.at(n.off)}
	}
	for _, m := range n.members {
		k := m.name
		if key != "" {
			k = key + ":" + m.name
		}
		w.walk(m.value, k, w.at.at(m.off))
	}
}

// leaf sets key to the scalar n, and reports the key when this file set
// it before (the first cfgMaxDuplicates times; the rest are counted).
func (w *cfgFileWalk) leaf(n *cfgNode, key string, keyPos Pos) {
	lower := strings.ToLower(key)
	if first, ok := w.seen[lower]; ok {
		w.dups++
		if w.dups <= cfgMaxDuplicates {
			w.diags = append(w.diags, Diagnostic{
				Path: w.path, Pos: keyPos, Rule: RuleConfig, Severity: Error,
				Message: fmt.Sprintf("duplicate key %s (keys ignore case; first set at line %d, column %d): NetClaw refuses to start", cfgShowKey(key), first.Line, first.Column),
				Hint:    "keep one of the two; agentdesk uses the later value",
			})
		}
	}
	w.seen[lower] = keyPos
	w.st.set(key, n.text, w.path, w.at.at(n.off), "")
}

// cfgPosTracker turns increasing byte offsets of one text into positions,
// scanning each byte once.
type cfgPosTracker struct {
	text string
	off  int
	pos  Pos
}

// at returns the position of off. Offsets should not decrease; one that
// does is computed from the start.
func (p *cfgPosTracker) at(off int) Pos {
	off = min(max(off, 0), len(p.text))
	if off < p.off {
		return posAt(p.text, off)
	}
	seg := p.text[p.off:off]
	if nl := strings.Count(seg, "\n"); nl > 0 {
		p.pos.Line += nl
		p.pos.Column = utf8.RuneCountInString(seg[strings.LastIndexByte(seg, '\n')+1:]) + 1
	} else {
		p.pos.Column += utf8.RuneCountInString(seg)
	}
	p.off = off
	return p.pos
}

// cfgKindName names a JSON kind for a message.
func cfgKindName(k cfgKind) string {
	switch k {
	case cfgObject:
		return "an object"
	case cfgArray:
		return "an array"
	case cfgString:
		return "a string"
	case cfgNumber:
		return "a number"
	case cfgBool:
		return "a boolean"
	}
	return "null"
}

// addEnviron merges the NETCLAW_ variables of environ ("NAME=value"), in
// order, as .NET's environment provider does: "__" becomes ':' first, then
// the prefix is matched ignoring case and dropped.
func (st *cfgStore) addEnviron(environ []string) {
	for _, kv := range environ {
		eq := strings.IndexByte(kv, '=')
		if eq <= 0 {
			continue
		}
		name, value := kv[:eq], kv[eq+1:]
		key := strings.ReplaceAll(name, "__", ":")
		if len(key) <= len(ConfigEnvPrefix) || !strings.EqualFold(key[:len(ConfigEnvPrefix)], ConfigEnvPrefix) {
			continue
		}
		st.set(key[len(ConfigEnvPrefix):], value, "", Pos{}, name)
	}
}
