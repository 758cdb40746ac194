// Package atomicfile writes whole files so that a reader or a crash never
// sees half of one: the bytes go to a hidden temporary file in the target's
// folder, synced, then moved into place. Create never replaces what is
// there; Replace does. Neither ever writes into the target itself. Every
// file agentdesk writes where the user keeps files goes through it: run
// folders, exported and imported agents, recordings, drafts and new
// definitions. Only the demo's fresh temporary home and the editor's
// read-only copy of a feed file, both in folders agentdesk just made, are
// written directly.
package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// link is os.Link; a test replaces it to try a file system without hard
// links.
var link = os.Link

// Create writes data to path with the permission bits perm, only if
// nothing is there yet: the temporary file is hard-linked to path, so path
// either does not exist or holds all of data. Where the file system has no
// hard links, the name is claimed with an exclusive create and the full
// temporary file renamed over that empty file (so there, for a moment, path
// is an empty file; its bytes are never written in place). When path exists, the error
// wraps fs.ErrExist and the file is untouched. The folder must exist.
func Create(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = link(tmp, path)
	if err == nil {
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists: %w", path, fs.ErrExist)
	}
	// No hard links here (some network and FAT file systems): claim the
	// name, then move the full file over the empty one we own.
	f, cerr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
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

// Replace writes data to path with the permission bits perm, over whatever
// file is there: the temporary file is renamed over path, so path holds
// either its old bytes or all of data. The folder must exist.
func Replace(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// writeTemp writes data to a new hidden file beside path (".name.tmp-…"),
// with the permission bits perm, synced to disk, and returns its name.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	dir, base := filepath.Split(path)
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(perm)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("write %s: %w", path, werr)
	}
	return tmp, nil
}
