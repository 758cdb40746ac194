package adapt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Installed says what Install did with one imported definition.
type Installed struct {
	*Imported
	// Path is the file written.
	Path string
	// Replaced is true when an existing file was replaced (with force).
	Replaced bool
	// Notes are warnings about the folder, such as a feed agent the new
	// file shadows.
	Notes []string
}

// Install writes imported definitions into an agents folder as
// <name>.md. It never replaces an existing file unless force is set (and
// then atomically), and refuses a name that another file in the folder
// already declares (the runtime would skip one of the two) or that two of
// the imports share. Everything is checked first: a refusal, wrapping
// ErrRefused and naming every problem, writes nothing.
func Install(dir string, items []*Imported, force bool) ([]Installed, error) {
	declared, feeds, err := declaredNames(dir)
	if err != nil {
		return nil, err
	}
	var problems []ImportProblem
	out := make([]Installed, 0, len(items))
	seen := map[string]string{}
	for _, it := range items {
		key := strings.ToLower(it.Name)
		if other, dup := seen[key]; dup {
			problems = append(problems, ImportProblem{Text: fmt.Sprintf("%s and %s both import as '%s'", other, it.Source, it.Name)})
			continue
		}
		seen[key] = it.Source
		in, why := planInstall(it, dir, force)
		problems = append(problems, why...)
		for _, d := range declaredElsewhere(it.Name, in.Path, declared[key]) {
			problems = append(problems, ImportProblem{Text: d})
		}
		if feed := feeds[key]; feed != "" {
			in.Notes = append(in.Notes, fmt.Sprintf("'%s' shadows the agent of the same name from feed '%s': the local file wins", it.Name, feed))
		}
		out = append(out, in)
	}
	if len(problems) > 0 {
		return nil, &ImportRefusedError{Dir: dir, Problems: problems}
	}
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return nil, fmt.Errorf("create the agents folder %s: %w", dir, err)
	}
	for i, in := range out {
		if err := writeFile(in.Path, in.Data, in.Replaced); err != nil {
			return out[:i], err
		}
	}
	return out, nil
}

// ImportProblem is one reason Install refuses: a file already there that
// only force replaces (Exists), or another problem (Text).
type ImportProblem struct {
	// Exists is the path of a file already there, when force was not set.
	Exists string
	// Text says what else is wrong, when Exists is empty.
	Text string
}

// ImportRefusedError is Install's refusal, naming every problem; it wraps
// ErrRefused. The command line words it with the flag that sets force.
type ImportRefusedError struct {
	// Dir is the agents folder.
	Dir string
	// Problems are the reasons, in the order of the imports.
	Problems []ImportProblem
}

// Error lists the problems and says nothing was written.
func (e *ImportRefusedError) Error() string { return e.Message("set force to replace it") }

// Message is the error with fix as what replaces a file already there.
func (e *ImportRefusedError) Message(fix string) string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.Text
		if p.Exists != "" {
			lines[i] = fmt.Sprintf("%s already exists (%s)", p.Exists, fix)
		}
	}
	return fmt.Sprintf("%v to import into %s:\n  %s\nnothing was written", ErrRefused, e.Dir, strings.Join(lines, "\n  "))
}

// Unwrap returns ErrRefused.
func (e *ImportRefusedError) Unwrap() error { return ErrRefused }

// planInstall plans writing it into dir: a new file, or with force the
// replacement of a regular file already there. Anything else there is a
// problem, which it returns.
func planInstall(it *Imported, dir string, force bool) (Installed, []ImportProblem) {
	path := filepath.Join(dir, it.File)
	in := Installed{Imported: it, Path: path}
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return in, []ImportProblem{{Text: fmt.Sprintf("%s: %v", path, err)}}
	case !force:
		return in, []ImportProblem{{Exists: path}}
	case !fi.Mode().IsRegular():
		return in, []ImportProblem{{Text: fmt.Sprintf("%s is not a regular file: not replacing it", path)}}
	default:
		in.Replaced = true
	}
	return in, nil
}

// declaredElsewhere is a problem for each of files, those of the folder
// that declare name, other than path, which an import would write.
func declaredElsewhere(name, path string, files []string) []string {
	var out []string
	for _, other := range files {
		if other != path {
			out = append(out, fmt.Sprintf("%s already declares the name '%s': the runtime would skip one of the two", other, name))
		}
	}
	return out
}

// declaredNames lists the names the folder's own definitions declare
// (lower-cased, with the files declaring them) and the feed each feed
// agent comes from.
func declaredNames(dir string) (local map[string][]string, feeds map[string]string, err error) {
	local, feeds = map[string][]string{}, map[string]string{}
	if fi, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return local, feeds, nil
	} else if err != nil {
		return nil, nil, fmt.Errorf("read the agents folder %s: %w", dir, err)
	} else if !fi.IsDir() {
		return nil, nil, fmt.Errorf("%s is not a folder", dir)
	}
	c, err := lint.ScanPaths([]string{dir}, lint.ScanOptions{Environ: []string{}})
	if err != nil {
		return nil, nil, fmt.Errorf("read the agents folder %s: %w", dir, err)
	}
	for _, f := range c.Files {
		name := strings.ToLower(strings.TrimSpace(f.Name()))
		if name == "" {
			continue
		}
		if f.Source.IsFeed() {
			if feeds[name] == "" {
				feeds[name] = f.Source.Feed
			}
			continue
		}
		local[name] = append(local[name], f.Path)
	}
	return local, feeds, nil
}
