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

// cfgSource is one parsed file.
type cfgSource struct {
	path string
	text string
}

// cfgEntry is one merged key.
type cfgEntry struct {
	// key is spelled as its first source wrote it, levels joined with ':'.
	key   string
	value string
	// src is the file that set the value last; nil for the environment.
	src *cfgSource
	// off is the value's byte offset in src.text.
	off int
	// envVar is the variable that set the value, when src is nil.
	envVar string
}

// pos returns the value's position, zero for the environment.
func (e *cfgEntry) pos() Pos {
	if e.src == nil {
		return Pos{}
	}
	return cfgPosAt(e.src.text, e.off)
}

// origin returns where the value came from.
func (e *cfgEntry) origin() ConfigOrigin {
	if e.src == nil {
		return ConfigOrigin{Path: ConfigEnvironment, Variable: e.envVar}
	}
	return ConfigOrigin{Path: e.src.path, Pos: e.pos()}
}

// path returns the file, or ConfigEnvironment.
func (e *cfgEntry) path() string {
	if e.src == nil {
		return ConfigEnvironment
	}
	return e.src.path
}

// cfgStore is the merged configuration.
type cfgStore struct {
	// entries by lowercased key.
	entries map[string]*cfgEntry
	// spell maps every lowercased key and key prefix ("providers",
	// "providers:openai") to its first spelling.
	spell map[string]string
	// kids maps a lowercased prefix ("" for the top) to its lowercased
	// children; built by index.
	kids map[string][]string
}

func newCfgStore() *cfgStore {
	return &cfgStore{entries: map[string]*cfgEntry{}, spell: map[string]string{}}
}

// get returns the entry of a lowercased key, or nil.
func (st *cfgStore) get(lower string) *cfgEntry { return st.entries[lower] }

// set records key = value from a source, keeping the key's first spelling.
func (st *cfgStore) set(key, value string, src *cfgSource, off int, envVar string) {
	lower := strings.ToLower(key)
	e := st.entries[lower]
	if e == nil {
		e = &cfgEntry{key: key}
		st.entries[lower] = e
		st.spellPrefixes(key)
	}
	e.value, e.src, e.off, e.envVar = value, src, off, envVar
}

// spellPrefixes records the spelling of key and of each of its prefixes
// that has none yet.
func (st *cfgStore) spellPrefixes(key string) {
	for i := 0; i <= len(key); i++ {
		if i < len(key) && key[i] != ':' {
			continue
		}
		lower := strings.ToLower(key[:i])
		if _, ok := st.spell[lower]; ok {
			continue
		}
		st.spell[lower] = key[:i]
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

// under returns the entry of a lowercased key, else the one set below it
// with the smallest key, else nil: a stand-in origin for a section.
func (st *cfgStore) under(lower string) *cfgEntry {
	if e := st.entries[lower]; e != nil {
		return e
	}
	return st.below(lower)
}

// below returns the entry set below a lowercased key with the smallest key,
// or nil.
func (st *cfgStore) below(lower string) *cfgEntry {
	for _, k := range st.kids[lower] { // sorted, so the first found is smallest
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
	src := &cfgSource{path: path, text: cfgDecodeText(data)}
	name := filepath.Base(path)
	root, err := cfgParseJSON(src.text)
	if err != nil {
		var se *cfgSyntaxError
		var pos Pos
		if errors.As(err, &se) && se.off > 0 {
			pos = cfgPosAt(src.text, se.off)
		}
		return []Diagnostic{{
			Path: path, Pos: pos, Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("%s does not parse: %v", name, err),
			Hint:    "NetClaw does not start until it parses; comments and trailing commas are fine, the rest must be JSON",
		}}
	}
	if root.kind != cfgObject {
		return []Diagnostic{{
			Path: path, Pos: cfgPosAt(src.text, root.off), Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("the top level of %s is %s: NetClaw expects a JSON object", name, cfgKindName(root.kind)),
			Hint:    `wrap the settings in { }, e.g. {"SubAgents": {"Enabled": true}}`,
		}}
	}
	var diags []Diagnostic
	dups := 0
	// seen holds, per lowercased key this file set, the offset of the name
	// that set it: .NET refuses a second value for a key (any case).
	seen := map[string]int{}
	var walk func(n *cfgNode, key string, keyOff int)
	walk = func(n *cfgNode, key string, keyOff int) {
		switch n.kind {
		case cfgObject, cfgArray:
			if len(n.members) == 0 {
				// An empty object or array sets its key to null, with no
				// duplicate check, as .NET's parser does.
				if key != "" {
					seen[strings.ToLower(key)] = keyOff
					st.set(key, "", src, n.off, "")
				}
				return
			}
			for _, m := range n.members {
				k := m.name
				if key != "" {
					k = key + ":" + m.name
				}
				walk(m.value, k, m.off)
			}
			return
		}
		lower := strings.ToLower(key)
		if first, ok := seen[lower]; ok {
			dups++
			if dups <= cfgMaxDuplicates {
				p := cfgPosAt(src.text, first)
				diags = append(diags, Diagnostic{
					Path: path, Pos: cfgPosAt(src.text, keyOff), Rule: RuleConfig, Severity: Error,
					Message: fmt.Sprintf("duplicate key %s (keys ignore case; first set at line %d, column %d): NetClaw refuses to start", cfgShowKey(key), p.Line, p.Column),
					Hint:    "keep one of the two; agentdesk uses the later value",
				})
			}
		}
		seen[lower] = keyOff
		st.set(key, n.text, src, n.off, "")
	}
	walk(root, "", 0)
	if dups > cfgMaxDuplicates {
		diags = append(diags, Diagnostic{
			Path: path, Rule: RuleConfig, Severity: Error,
			Message: fmt.Sprintf("%d more duplicate keys in %s", dups-cfgMaxDuplicates, name),
		})
	}
	return diags
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
		st.set(key[len(ConfigEnvPrefix):], value, nil, 0, name)
	}
}
