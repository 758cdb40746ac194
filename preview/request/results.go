package request

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The runtime's result texts where they are plain text, for runner/tools
// to answer as NetClaw would. Paths in them are the resolved absolute
// paths the runtime shows. The runtime builds lines with "\n" on Linux and
// macOS. Sources: the tool files named in tools.go at the commits there.

// NotAvailable is the answer of a tool the session may not use
// (Public, or a subsystem that is off).
const NotAvailable = "Error: This tool is not available."

// FileNotFound is file_read's and file_edit's answer for a missing file.
func FileNotFound(path string) string { return "Error: File not found: " + path }

// PermissionDenied is the file tools' answer when the OS refuses access.
func PermissionDenied(path string) string { return "Error: Permission denied: " + path }

// PathRequired is the answer of file_read, file_list and attach_file to a
// blank Path ('path' in lower case, as the runtime writes it);
// file_write and file_edit write 'Path'.
func PathRequired(tool string) string {
	if tool == "file_write" || tool == "file_edit" {
		return "Error: 'Path' parameter is required."
	}
	return "Error: 'path' parameter is required."
}

// NumberedLine is one line of file_read's answer when StartLine or Limit
// is given: the 1-based line number right-aligned in six columns, a tab,
// the line ("{n,6}\t{line}"); lines are joined with "\n". Without StartLine
// and Limit file_read returns the text as it is, unnumbered.
func NumberedLine(n int, line string) string {
	return fmt.Sprintf("%6d\t%s", n, line)
}

// FileReadRangeCut is appended to file_read's numbered answer cut at
// maxChars characters (the text is cut there first), at line n.
func FileReadRangeCut(n int) string {
	return "\n[output truncated at line " + strconv.Itoa(n) + " — use StartLine=" + strconv.Itoa(n) + " with Limit to continue reading]"
}

// FileReadHeadCut is appended to file_read's whole-file answer cut after
// maxChars characters.
func FileReadHeadCut(maxChars int) string {
	return "\n[output truncated at " + strconv.Itoa(maxChars) + " chars — read a specific range with StartLine and Limit, or grep the file, for the rest]"
}

// NotText is file_read's answer for a file that is not text: the path, the
// MIME type and category, the size (as the runtime formats it), and one
// line of guidance, such as "File is not readable as UTF-8 text. Raw binary
// output is not returned by file_read."
func NotText(path, mime, category, size, guidance string) string {
	return "File is not readable as plain text.\nPath: " + path + "\nType: " + mime + " (" + category + ")\nSize: " + size + "\n" + guidance
}

// MaxListEntries is how many entries file_list shows.
const MaxListEntries = 1000

// FileListing is file_list's answer for directory dir holding these
// subdirectories and files (names only): folders first, then files, each
// group sorted ignoring case; "Directory is empty: <dir>" for none; at most
// MaxListEntries entries, then a note of how many there were.
func FileListing(dir string, dirs, files []string) string {
	total := len(dirs) + len(files)
	if total == 0 {
		return "Directory is empty: " + dir
	}
	sortFold := func(s []string) []string {
		s = slices.Clone(s)
		slices.SortStableFunc(s, func(a, b string) int { return compareOrdinal(strings.ToUpper(a), strings.ToUpper(b)) })
		return s
	}
	var b strings.Builder
	noun := "entries"
	if total == 1 {
		noun = "entry"
	}
	fmt.Fprintf(&b, "Directory listing for %s (%d %s):", dir, total, noun)
	shown := 0
	for _, d := range sortFold(dirs) {
		if shown >= MaxListEntries {
			break
		}
		b.WriteString("\n[dir]  " + d + "/")
		shown++
	}
	for _, f := range sortFold(files) {
		if shown >= MaxListEntries {
			break
		}
		b.WriteString("\n[file] " + f)
		shown++
	}
	if total > MaxListEntries {
		fmt.Fprintf(&b, "\n[listing truncated — showing %d of %d entries]", MaxListEntries, total)
	}
	return b.String()
}

// NotADirectory and DirectoryNotFound are file_list's answers for a path
// that is a file or does not exist.
func NotADirectory(path string) string {
	return "Error: Not a directory (use file_read for files): " + path
}

// DirectoryNotFound is file_list's answer for a missing directory.
func DirectoryNotFound(path string) string { return "Error: Directory not found: " + path }

// Wrote is file_write's (and file_edit's full-write) answer: the byte count
// of the UTF-8 content written.
func Wrote(n int, path string) string {
	return "Successfully wrote " + strconv.Itoa(n) + " bytes to " + path
}

// Edited is file_edit's answer after replacing n occurrences.
func Edited(path string, n int) string {
	return "Successfully edited " + path + ": replaced " + strconv.Itoa(n) + " occurrence(s)"
}

// file_edit's refusals, in the order it checks them.
const (
	EditExclusive = "Error: 'Content' and 'OldString'/'NewString'/'ReplaceAll' are mutually exclusive. " +
		"Use Content for a full file write, or OldString/NewString for targeted replacement."
	EditNeedsOldOrContent = "Error: either 'OldString' (for targeted edit) or 'Content' (for full write) is required."
	EditNeedsNew          = "Error: 'NewString' is required when using OldString for targeted replacement."
	EditSame              = "Error: 'NewString' must be different from 'OldString'."
)

// EditNotFound is file_edit's answer when OldString does not occur.
func EditNotFound(path string) string { return "Error: The specified text was not found in " + path }

// EditAmbiguous is file_edit's answer when OldString occurs n > 1 times
// and ReplaceAll is not true.
func EditAmbiguous(path string, n int) string {
	return "Error: OldString matches " + strconv.Itoa(n) + " locations in " + path + ". " +
		"Provide more surrounding context to create a unique match, or set ReplaceAll=true."
}

// ShellResult is shell_execute's answer: the exit code, a newline, then
// stdout and stderr (joined by a newline when both are non-empty).
func ShellResult(exitCode int, stdout, stderr string) string {
	out := stdout
	if stderr != "" {
		if out != "" {
			out += "\n"
		}
		out += stderr
	}
	return "Exit code: " + strconv.Itoa(exitCode) + "\n" + out
}

// ShellTimedOut is shell_execute's answer when the command ran out of
// time; ShellCancelled when the call was cancelled.
func ShellTimedOut(seconds int) string {
	return "Error: Command timed out after " + strconv.Itoa(seconds) + " seconds."
}

// ShellCancelled is shell_execute's answer to a cancelled call.
const ShellCancelled = "Error: Command cancelled."

// CommandRequired is shell_execute's answer to a blank Command.
const CommandRequired = "Error: 'command' parameter is required."

// SearchResult is one web_search hit.
type SearchResult struct{ Title, URL, Snippet string }

// WebSearchResults is web_search's answer: "No results found for: <q>", or
// a numbered list of titles with their URL and snippet.
func WebSearchResults(query string, results []SearchResult) string {
	if len(results) == 0 {
		return "No results found for: " + query
	}
	var b strings.Builder
	b.WriteString("Search results for: " + query + "\n\n")
	for i, r := range results {
		fmt.Fprintf(&b, "%d. %s\n   URL: %s\n", i+1, r.Title, r.URL)
		if r.Snippet != "" {
			b.WriteString("   " + r.Snippet + "\n")
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), " \t\r\n")
}

// LoadToolResult is load_tool's answer to a call naming name, as the
// tiered LoadToolTool answers (salma-marei/netclaw @ba08b016; see
// CoreTools): the name the model calls the tool by (an MCP tool's
// "<server>__<tool>"; either form is accepted), which exposes it, or why
// not. A tool the session may not see is not found, like one that does
// not exist; the suggestions are the first three visible tools the
// registry's search matches. c is the whole catalogue (the runtime's
// registry); o what the session is offered.
func LoadToolResult(c *Catalog, o Offered, name string) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return "Error: tool name is required."
	}
	t, ok := c.Tool(name)
	if !ok || !slices.ContainsFunc(o.Tools, func(x Tool) bool { return x.Name == t.Name }) {
		if sugg := matchTools(o.Tools, name, "", 3); len(sugg) > 0 {
			names := make([]string, len(sugg))
			for i, s := range sugg {
				names[i] = s.Name
			}
			return "Tool '" + name + "' not found. Did you mean: " + strings.Join(names, ", ") + "?"
		}
		return "Tool '" + name + "' not found. Use search_tools to find available tools."
	}
	return t.Name
}
