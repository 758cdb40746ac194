package request

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// MaxInstructionFile caps the playbook and project-instructions files
// Compose reads. NetClaw reads any size; a file this large is a mistake
// (a log, a dump), and reading it whole would stall every trial.
const MaxInstructionFile = 4 << 20

// errNotThere is readInstructions' "no such file" (File.Exists false).
var errNotThere = errors.New("no such file")

// refusedFile marks a file readInstructions refuses itself (a FIFO,
// socket or device; one over MaxInstructionFile) where NetClaw would
// block or read it all: its message says what to do, and it is not a read
// NetClaw fails on.
type refusedFile struct{ msg string }

func (e *refusedFile) Error() string { return e.msg }

// refused makes a refusedFile.
func refused(format string, a ...any) error { return &refusedFile{fmt.Sprintf(format, a...)} }

// isRefused reports whether err is readInstructions' own refusal.
func isRefused(err error) bool {
	var r *refusedFile
	return errors.As(err, &r)
}

// readInstructions reads a text file as NetClaw's File.ReadAllText does
// (lint.DecodeText), after the checks File.Exists makes: a missing path or
// a folder is errNotThere. A FIFO, socket or device is refused before it
// is opened (NetClaw would block on a FIFO; a trial must not), the file is
// opened non-blocking in case one is swapped in, and a file larger than
// MaxInstructionFile is refused.
func readInstructions(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", errNotThere
		}
		return "", err
	}
	if fi.IsDir() {
		return "", errNotThere
	}
	if !fi.Mode().IsRegular() {
		return "", refused("%s is a %s, not a regular file: NetClaw would block or fail reading it; replace it with a file or remove it", path, fileKind(fi.Mode()))
	}
	if fi.Size() > MaxInstructionFile {
		return "", refused("%s is %d bytes, more than the %d MiB agentdesk reads: NetClaw would put all of it in every prompt; shorten it", path, fi.Size(), MaxInstructionFile>>20)
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", refused("%s changed into a %s while it was read: try again", path, fileKind(fi.Mode()))
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxInstructionFile+1))
	if err != nil {
		return "", err
	}
	if len(data) > MaxInstructionFile {
		return "", refused("%s grew past the %d MiB agentdesk reads while it was read: shorten it", path, MaxInstructionFile>>20)
	}
	return lint.DecodeText(data), nil
}

// fileKind names a mode that is not a regular file.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "device"
	}
	return "special file"
}

// netTrim is .NET's String.Trim().
func netTrim(s string) string { return strings.TrimFunc(s, preview.IsDotNetSpace) }

// netTrimEnd is .NET's String.TrimEnd().
func netTrimEnd(s string) string { return strings.TrimRightFunc(s, preview.IsDotNetSpace) }

// netBlank is .NET's string.IsNullOrWhiteSpace.
func netBlank(s string) bool { return netTrim(s) == "" }
