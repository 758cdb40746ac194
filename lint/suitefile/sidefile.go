package suitefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"github.com/agentdesk/agentdesk/lint"
)

// ReadSideFile reads a file a suite or a command names beside the suite
// (a case's context-file, a routing suite's preamble-file, route's
// --system-file) as a suite file is read: anything but a regular file (a
// FIFO, a device, a socket, a folder) is an error saying what it is, never
// a read that blocks or runs on forever; the file is opened without
// blocking, so a FIFO swapped in after the check cannot hang the reader
// either; a file over max bytes is refused. The errors do not name the
// file (the caller does, with its key or flag).
func ReadSideFile(path string, max int64) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			return nil, errors.New("no such file")
		}
		return nil, lint.DescribeStatError(err)
	}
	if err := checkSideMode(fi, max); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, lint.DescribeStatError(err)
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := checkSideMode(fi, max); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("it grew past %d KiB while it was read", max>>10)
	}
	return data, nil
}

// checkSideMode refuses what ReadSideFile cannot read.
func checkSideMode(fi fs.FileInfo, max int64) error {
	switch {
	case fi.IsDir():
		return errors.New("it is a folder, not a file")
	case !fi.Mode().IsRegular():
		return fmt.Errorf("it is %s, not a regular file: reading it could block or never end; give a file", typeName(fi.Mode()))
	case fi.Size() > max:
		return fmt.Errorf("it is %d bytes, more than the %d KiB agentdesk reads", fi.Size(), max>>10)
	}
	return nil
}
