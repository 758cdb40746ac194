// Package trialtools owns the read-only tools a trial run offers the model,
// and the repeat guard the run loop consults before each tool call.
//
// # Tools
//
// Specs describes file_read and file_list neutrally (name, description, a
// JSON Schema for the arguments); the run loop translates them into each
// wire protocol's tool format. A Toolbox, rooted at the project folder,
// runs the calls. Every path is confined to that folder:
//
//   - a relative path is taken from the project folder; a path whose `..`
//     elements lead out of it is refused (`a/../b` is fine, `a/../../x` is
//     not);
//   - an absolute path is accepted only when it lies inside the folder;
//   - the path is resolved with filepath.EvalSymlinks and refused when the
//     result lies outside the resolved folder, so no symlink (or chain of
//     them) leads out;
//   - the resolved path is then opened through an os.Root, which refuses
//     any escape made by swapping a component for a symlink after the
//     check, and the opened file is fstat-ed and compared with what was
//     checked: a file changed between check and open is refused;
//   - only regular files are read and only folders listed: device files,
//     FIFOs and sockets are refused before they are opened, and files are
//     opened with O_NONBLOCK so a FIFO swapped in at the last moment cannot
//     block the run;
//   - a file whose first 8 KiB hold a NUL byte or are not UTF-8 is reported
//     as binary, not dumped.
//
// file_read returns the text verbatim, at most MaxReadLines lines and
// MaxReadBytes bytes, and says, in a bracketed note after the text, where it
// cut and which start_line reads on (a single line longer than the byte cap
// is cut on a rune boundary). file_list lists one folder, or, with a glob
// holding a `/` or `**`, a tree: one project-relative path a line, folders
// marked with a trailing `/`, symbolic links and special files annotated,
// sorted by name (a tree in pre-order, a folder before what it holds), at
// most MaxListEntries entries. A walk looks at no more than MaxWalkEntries
// entries, follows no symbolic link and does not go into .git unless the
// glob names it. Names with control characters are shown Go-quoted.
//
// Any other tool name, including those of the agent's advisory `tools:`
// list, gets a refused result saying that the tool is not available in a
// trial run and naming the ones that are. Bad arguments get an error result
// naming what is wrong; nothing a model sends makes a call panic.
//
// # The repeat guard
//
// Seed 002: "Parent sessions and subagents detect repeated calls from exact
// arguments and actual results. After two equal feedback rounds, the
// runtime refuses the next matching call and returns a correction. A repeat
// after that correction ends the turn." Guard implements it thus:
//
//   - Two calls match when their tool names are equal and their arguments
//     are equal as JSON: object keys sorted, whitespace ignored, numbers
//     compared by value (1 and 1.0 are equal), strings exactly. Arguments
//     that are not JSON are compared byte for byte.
//   - A feedback round is one call that ran and whose result went back to
//     the model (Record). Two rounds are equal when they match and their
//     results are byte-for-byte equal.
//   - The guard remembers, for every distinct call, its last result and how
//     many of its rounds in a row returned exactly that result. Calls to
//     other tools or with other arguments in between do not reset it (a
//     model alternating between two reads is looping too); a different
//     result for the same call does (the file changed: that is news).
//   - Once a call has had two equal rounds, Check refuses the next matching
//     call: it is not run and Decision.Text, a correction, is returned as
//     its result. Check then remembers the correction.
//   - A matching call after that correction, at any later point of the run,
//     makes Check answer Stop: the run ends, outcome Partial, reason
//     ReasonRepeatedToolCall.
//
// So the third equal call is refused and the fourth ends the run.
package trialtools
