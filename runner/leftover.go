package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A run keeps two folders in the system's temporary folder while it runs:
// its copy of the project (the overlay and the work tree shell commands
// run in) and the overlay of its session folder. It removes them when it
// ends; a run killed with SIGKILL cannot, so the next agentdesk that
// starts does (SweepLeftovers).
//
// Each such folder holds an owner lock: the file owner.lock, locked
// (flock) by the process that made the folder for as long as it lives.
// The kernel drops the lock when the process dies, however it dies, so a
// folder whose lock can be taken has no living owner. The lock is taken
// before the file gets its name (a temporary name, locked, then renamed),
// so a sweep never finds a live run's lock file unlocked.
const (
	overlayTempPrefix = "agentdesk-overlay-"
	sessionTempPrefix = "agentdesk-session-"
	// trashTempPrefix names a leftover folder a sweep took over: renamed
	// first (one step, under the lock), then removed, so that a sweep cut
	// short leaves a folder the next one removes.
	trashTempPrefix = "agentdesk-trash-"
	ownerLockFile   = "owner.lock"
)

// ownedTempDir makes a temporary folder named prefix and a random tail,
// with its owner lock held by this process. release removes the folder
// and drops the lock.
func ownedTempDir(prefix string) (dir string, release func() error, err error) {
	dir, err = os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	lock, err := holdOwnerLock(dir)
	if err != nil {
		os.RemoveAll(dir)
		return "", nil, fmt.Errorf("locking %s for this run: %w", dir, err)
	}
	release = func() error {
		err := removeTree(dir)
		if lock != nil {
			lock.Close()
		}
		return err
	}
	return dir, release, nil
}

// holdOwnerLock writes dir's owner lock, naming this process, and holds
// it until the file is closed (or the process dies). Where the system has
// no file locks, it returns a nil file: such a folder is never swept.
func holdOwnerLock(dir string) (*os.File, error) {
	tmp := filepath.Join(dir, ownerLockFile+".new")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	ok, err := tryLock(f)
	if err != nil || !ok {
		f.Close()
		os.Remove(tmp)
		switch {
		case errors.Is(err, errNoLocks):
			return nil, nil
		case err == nil:
			err = fmt.Errorf("%s is locked by another process", tmp)
		}
		return nil, err
	}
	fmt.Fprintf(f, "pid %d\n", os.Getpid())
	if err := os.Rename(tmp, filepath.Join(dir, ownerLockFile)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// SweepLeftovers removes the temporary folders of runs whose process is
// gone (killed with SIGKILL, or a crash), and returns them. A folder whose
// owner lives is never touched, nor one without an owner lock (made by
// another program, or being made right now). It reads the temporary
// folder's names once and opens only the folders of runs, so it costs
// next to nothing when there is nothing to remove.
func SweepLeftovers() []string {
	root := os.TempDir()
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var removed []string
	for _, e := range ents {
		name := e.Name()
		if !e.IsDir() {
			continue
		}
		dir := filepath.Join(root, name)
		switch {
		case strings.HasPrefix(name, trashTempPrefix):
			if removeTree(dir) == nil {
				removed = append(removed, dir)
			}
		case strings.HasPrefix(name, overlayTempPrefix), strings.HasPrefix(name, sessionTempPrefix):
			if sweepOne(root, dir) {
				removed = append(removed, dir)
			}
		}
	}
	return removed
}

// sweepOne removes dir when its owner lock can be taken.
func sweepOne(root, dir string) bool {
	f, err := os.OpenFile(filepath.Join(dir, ownerLockFile), os.O_RDWR, 0)
	if err != nil {
		return false // no lock: not a folder this sweep may judge
	}
	defer f.Close()
	if ok, err := tryLock(f); err != nil || !ok {
		return false // its owner lives
	}
	trash := filepath.Join(root, trashTempPrefix+filepath.Base(dir))
	if err := os.Rename(dir, trash); err != nil {
		return false
	}
	return removeTree(trash) == nil
}

// removeTree removes dir and all below it, folders a command left without
// write permission too.
func removeTree(dir string) error {
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o700)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
