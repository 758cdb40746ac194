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

// writeTemp writes data to a new temporary file in dir and returns its path.
func writeTemp(dir string, data []byte) (string, error) {
	tmp, err := os.CreateTemp(dir, ".agentdesk-*.tmp")
	if err != nil {
		return "", err
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(name)
		return "", err
	}
	if err := os.Chmod(name, fileMode); err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// CreateFile writes data to path only if nothing is there yet: the bytes go
// to a temporary file in the same folder, which is then linked to path, so
// that path either does not exist or holds all of data, and an existing
// file is never replaced (the error then wraps fs.ErrExist). The folder
// must exist.
func CreateFile(path string, data []byte) error {
	tmp, err := writeTemp(filepath.Dir(path), data)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, path)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: %w", path, fs.ErrExist)
	}
	// No hard links here (some network and FAT file systems): claim the
	// name with an exclusive create, then rename the full file over the
	// empty one we own.
	f, cerr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fileMode)
	if cerr != nil {
		if errors.Is(cerr, fs.ErrExist) {
			return fmt.Errorf("%s already exists: %w", path, fs.ErrExist)
		}
		return fmt.Errorf("write %s: %w", path, errors.Join(err, cerr))
	}
	f.Close()
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(path)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// ReplaceFile writes data to path atomically: a temporary file in the same
// folder renamed over path. The folder must exist.
func ReplaceFile(path string, data []byte) error {
	tmp, err := writeTemp(filepath.Dir(path), data)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeFile writes data to path atomically: over the file there with
// replace (ReplaceFile), else only where nothing is yet (CreateFile).
func writeFile(path string, data []byte, replace bool) error {
	if replace {
		return ReplaceFile(path, data)
	}
	return CreateFile(path, data)
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

// WriteTree writes files under dir, creating folders as needed. A file that
// exists with the same bytes is left alone; one with different bytes is
// replaced only with force. Every path is checked before anything is
// written, so a refusal writes nothing; each write is atomic.
func WriteTree(dir string, files []TreeFile, force bool) ([]TreeResult, error) {
	results := make([]TreeResult, len(files))
	var problems []string
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
			problems = append(problems, fmt.Sprintf("%s exists with different bytes", path))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("%w: %s (nothing was written; pass --force to replace them)", ErrRefused, strings.Join(problems, "; "))
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
