package trialtools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Tool names offered in a trial run.
const (
	FileRead = "file_read"
	FileList = "file_list"
)

// Caps on what one call returns.
const (
	// MaxReadBytes caps the text file_read returns.
	MaxReadBytes = 64 << 10
	// MaxReadLines caps the lines file_read returns.
	MaxReadLines = 2000
	// MaxListEntries caps the entries file_list returns.
	MaxListEntries = 1000
	// MaxListBytes caps the text file_list returns.
	MaxListBytes = 64 << 10
	// MaxWalkEntries caps the entries file_list looks at in one call (a
	// huge folder, or a tree walked for a `**` glob).
	MaxWalkEntries = 100_000
)

// Spec describes one tool neutrally; the run loop translates it into each
// wire protocol's tool format.
type Spec struct {
	// Name is the tool's name as the model calls it.
	Name string
	// Description tells the model what the tool does and its caps.
	Description string
	// Parameters is a JSON Schema object describing the arguments.
	Parameters json.RawMessage
}

// Specs returns the tools a trial run offers, file_read then file_list. The
// slice and its schemas are fresh on every call.
func Specs() []Spec {
	return []Spec{
		{
			Name: FileRead,
			Description: fmt.Sprintf("Read a text file inside the project folder. Returns the file's text verbatim, "+
				"at most %d lines and %d KiB per call; a bracketed note after the text says where it was cut and "+
				"which start_line reads on. Binary files are reported, not returned. Read-only.", MaxReadLines, MaxReadBytes>>10),
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"The file, relative to the project folder (an absolute path inside it also works)."},` +
				`"start_line":{"type":"integer","minimum":1,"description":"First line to return, counting from 1. Default 1."},` +
				`"end_line":{"type":"integer","minimum":1,"description":"Last line to return, inclusive. Default: the end of the file."}` +
				`},"required":["path"],"additionalProperties":false}`),
		},
		{
			Name: FileList,
			Description: fmt.Sprintf("List a folder inside the project folder: one path a line, relative to the project "+
				"folder, sorted, folders ending in '/'. A glob filters the entries: '*.md' matches names in the folder, "+
				"'**/*.go' or 'docs/*.md' match paths below it. At most %d entries per call. Read-only.", MaxListEntries),
			Parameters: json.RawMessage(`{"type":"object","properties":{` +
				`"path":{"type":"string","description":"The folder, relative to the project folder. Default: the project folder itself."},` +
				`"glob":{"type":"string","description":"Optional pattern (* ? [...] within a name, ** across folders), relative to path."}` +
				`},"additionalProperties":false}`),
		},
	}
}

// Names returns the names of the tools Specs describes.
func Names() []string { return []string{FileRead, FileList} }

// Result is what one tool call returns.
type Result struct {
	// Text is the tool result handed back to the model.
	Text string
	// IsError is set when the call failed: bad arguments, a missing file,
	// a refusal.
	IsError bool
	// Refused is set when the call was not run at all: a path outside the
	// project folder, a device file, a tool not available in a trial run.
	// A refused result is an error result too.
	Refused bool
	// Cut is set when the text was cut at one of the caps.
	Cut bool
}

// Toolbox runs the trial tools inside one project folder. Its methods are
// safe to use from several goroutines. A nil *Toolbox offers no tools: its
// Call refuses every call.
type Toolbox struct {
	root     *os.Root
	absRoot  string // the folder as given, made absolute and cleaned
	realRoot string // absRoot with every symlink resolved
}

// New opens a Toolbox rooted at the project folder root ("" means the
// working directory). Close it when the run is over.
func New(root string) (*Toolbox, error) {
	if root == "" {
		root = "."
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w (pass an existing folder with --project)", root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w (pass an existing folder with --project)", abs, err)
	}
	info, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w (pass an existing folder with --project)", abs, err)
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("project folder %s is not a folder (pass a folder with --project)", abs)
	}
	r, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("project folder %s: %w (check its permissions)", abs, err)
	}
	return &Toolbox{root: r, absRoot: abs, realRoot: real}, nil
}

// Root returns the project folder, absolute, as it was given to New.
func (tb *Toolbox) Root() string {
	if tb == nil {
		return ""
	}
	return tb.absRoot
}

// Close releases the project folder. Calls after Close return errors.
func (tb *Toolbox) Close() error {
	if tb == nil {
		return nil
	}
	return tb.root.Close()
}

// Call runs the tool name with the JSON arguments args. It never panics on
// what a model sends: bad arguments, unknown tools and paths outside the
// project folder all come back as error results that say what to do.
func (tb *Toolbox) Call(ctx context.Context, name string, args json.RawMessage) Result {
	if tb == nil {
		return refusedResult("%s is not available: this trial run offers no tools. Answer from what you already have.", showName(name))
	}
	if err := ctx.Err(); err != nil {
		return errorResult("%s was not run: %v", showName(name), err)
	}
	switch name {
	case FileRead:
		return tb.fileRead(ctx, args)
	case FileList:
		return tb.fileList(ctx, args)
	}
	return refusedResult("%s is not available in a trial run. The tools available here are %s (read-only, inside the project folder); "+
		"use them or answer from what you already have.", showName(name), strings.Join(Names(), " and "))
}

// errorResult is an error result with a formatted text.
func errorResult(format string, a ...any) Result {
	return Result{Text: fmt.Sprintf(format, a...), IsError: true}
}

// refusedResult is a refused result with a formatted text.
func refusedResult(format string, a ...any) Result {
	return Result{Text: fmt.Sprintf(format, a...), IsError: true, Refused: true}
}
