//go:build !unix

package runner

import (
	"errors"
	"os"
)

// errNoLocks says the system offers no file locks.
var errNoLocks = errors.New("file locks are not supported here")

// tryLock reports that this system has no file locks agentdesk uses: the
// folders of runs are removed when they end, and not swept.
func tryLock(*os.File) (bool, error) { return false, errNoLocks }
