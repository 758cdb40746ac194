// Package rundiff compares two trial runs from their run folders: the
// outcome and reason, the request part by part, the tool calls as an
// aligned sequence, the output word by word, the token counts and clocks,
// and changes.patch as a diff of diffs. It reads run folders and never
// writes; `agentdesk runs --diff` and the browser's comparison view render
// what it returns.
package rundiff
