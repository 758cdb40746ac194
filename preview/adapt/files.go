package adapt

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
)

// File modes of what agentdesk writes.
const (
	fileMode = 0o644
	dirMode  = 0o755
)

// sha256Hex is the lowercase hex SHA-256 of data.
func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// writeFile writes data to path atomically: over the file there with
// replace, else only where nothing is yet (atomicfile).
func writeFile(path string, data []byte, replace bool) error {
	if replace {
		return atomicfile.Replace(path, data, fileMode)
	}
	return atomicfile.Create(path, data, fileMode)
}

// TreeFile is one file of a tree to write: a slash-separated path relative
// to the tree's folder, and its bytes.
type TreeFile struct {
	Path string
	Data []byte
}

// TreeResult says what WriteTree did with one file.
type TreeResult struct {
	// Path is the file's path on disk.
	Path string
	// Action is "created", "replaced" or "unchanged".
	Action string
}

// ErrRefused is wrapped by every error that refuses to touch a file:
// one agentdesk did not write, one edited since it wrote it, or one whose
// bytes differ where overwriting needs a flag.
var ErrRefused = errors.New("refused")

// DifferError is WriteTree's refusal of files that exist with different
// bytes; it wraps ErrRefused. The command line words it with the flag that
// sets force.
type DifferError struct {
	// Paths are the files that differ.
	Paths []string
}

// Error names the files and says nothing was written.
func (e *DifferError) Error() string { return e.Message("set force to replace them") }

// Message is the error with fix as what replaces the files.
func (e *DifferError) Message(fix string) string {
	problems := make([]string, len(e.Paths))
	for i, p := range e.Paths {
		problems[i] = p + " exists with different bytes"
	}
	return fmt.Sprintf("%v: %s (nothing was written; %s)", ErrRefused, strings.Join(problems, "; "), fix)
}

// Unwrap returns ErrRefused.
func (e *DifferError) Unwrap() error { return ErrRefused }

// WriteTree writes files under dir, creating folders as needed. A file that
// exists with the same bytes is left alone; one with different bytes is
// replaced only with force. Every path is checked before anything is
// written, so a refusal writes nothing; each write is atomic.
func WriteTree(dir string, files []TreeFile, force bool) ([]TreeResult, error) {
	results := make([]TreeResult, len(files))
	var differ []string
	for i, f := range files {
		rel := filepath.FromSlash(f.Path)
		if !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s is not a path inside %s", f.Path, dir)
		}
		path := filepath.Join(dir, rel)
		results[i] = TreeResult{Path: path, Action: "created"}
		old, err := os.ReadFile(path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("read %s: %w", path, err)
		case bytes.Equal(old, f.Data):
			results[i].Action = "unchanged"
		case force:
			results[i].Action = "replaced"
		default:
			differ = append(differ, path)
		}
	}
	if len(differ) > 0 {
		return nil, &DifferError{Paths: differ}
	}
	for i, f := range files {
		r := results[i]
		if r.Action == "unchanged" {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(r.Path), dirMode); err != nil {
			return results[:i], fmt.Errorf("create the folder of %s: %w", r.Path, err)
		}
		if err := writeFile(r.Path, f.Data, r.Action == "replaced"); err != nil {
			return results[:i], err
		}
	}
	return results, nil
}
