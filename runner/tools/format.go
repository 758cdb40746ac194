package tools

import (
	"fmt"
	"strconv"
	"strings"
)

// The runtime's result texts used by the built-in tools. They follow
// NetClaw's tool sources (src/Netclaw.Actors/Tools/FileReadTool.cs
// @1806907f, FileListTool.cs, FileWriteTool.cs @0ef13406, FileEditTool.cs
// and ShellTool.cs @8a459b11), as the catalogue in preview/request
// records them.

func fileNotFound(path string) string      { return "Error: File not found: " + path }
func permissionDenied(path string) string  { return "Error: Permission denied: " + path }
func directoryNotFound(path string) string { return "Error: Directory not found: " + path }
func notADirectory(path string) string {
	return "Error: Not a directory (use file_read for files): " + path
}
func wrote(n int, path string) string {
	return "Successfully wrote " + strconv.Itoa(n) + " bytes to " + path
}
func edited(path string, n int) string {
	return "Successfully edited " + path + ": replaced " + strconv.Itoa(n) + " occurrence(s)"
}
func editNotFound(path string) string {
	return "Error: The specified text was not found in " + path
}
func editAmbiguous(path string, n int) string {
	return "Error: OldString matches " + strconv.Itoa(n) + " locations in " + path + ". " +
		"Provide more surrounding context to create a unique match, or set ReplaceAll=true."
}

// file_edit's refusals, in the order it checks them.
const (
	editExclusive = "Error: 'Content' and 'OldString'/'NewString'/'ReplaceAll' are mutually exclusive. " +
		"Use Content for a full file write, or OldString/NewString for targeted replacement."
	editNeedsOldOrContent = "Error: either 'OldString' (for targeted edit) or 'Content' (for full write) is required."
	editNeedsNew          = "Error: 'NewString' is required when using OldString for targeted replacement."
	editSame              = "Error: 'NewString' must be different from 'OldString'."
)

func pathRequired(tool string) string {
	if tool == FileWrite || tool == FileEdit {
		return "Error: 'Path' parameter is required."
	}
	return "Error: 'path' parameter is required."
}

// numberedLine is one line of file_read's answer with StartLine or Limit.
func numberedLine(n int, line string) string { return fmt.Sprintf("%6d\t%s", n, line) }

func fileReadRangeCut(n int) string {
	return "\n[output truncated at line " + strconv.Itoa(n) + " — use StartLine=" + strconv.Itoa(n) + " with Limit to continue reading]"
}

func fileReadHeadCut(maxChars int) string {
	return "\n[output truncated at " + strconv.Itoa(maxChars) + " chars — read a specific range with StartLine and Limit, or grep the file, for the rest]"
}

func notText(path, mime, category, size, guidance string) string {
	return "File is not readable as plain text.\nPath: " + path + "\nType: " + mime + " (" + category + ")\nSize: " + size + "\n" + guidance
}

// shellResult is shell_execute's answer.
func shellResult(exitCode int, output string) string {
	return "Exit code: " + strconv.Itoa(exitCode) + "\n" + output
}

func shellTimedOut(seconds int) string {
	return "Error: Command timed out after " + strconv.Itoa(seconds) + " seconds."
}

const (
	shellCancelled  = "Error: Command cancelled."
	commandRequired = "Error: 'command' parameter is required."
)

// fileListing is file_list's answer: folders first, then files, each
// sorted ignoring case.
func fileListing(dir string, dirs, files []string, max int) string {
	total := len(dirs) + len(files)
	if total == 0 {
		return "Directory is empty: " + dir
	}
	var b strings.Builder
	noun := "entries"
	if total == 1 {
		noun = "entry"
	}
	fmt.Fprintf(&b, "Directory listing for %s (%d %s):", dir, total, noun)
	shown := 0
	for _, d := range dirs {
		if shown >= max {
			break
		}
		b.WriteString("\n[dir]  " + d + "/")
		shown++
	}
	for _, f := range files {
		if shown >= max {
			break
		}
		b.WriteString("\n[file] " + f)
		shown++
	}
	if total > max {
		fmt.Fprintf(&b, "\n[listing truncated — showing %d of %d entries]", max, total)
	}
	return b.String()
}

// humanSize formats a byte count.
func humanSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
