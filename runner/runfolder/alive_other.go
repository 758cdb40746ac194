//go:build !unix

package runfolder

import "os"

// processAlive reports whether a process with that id exists.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
