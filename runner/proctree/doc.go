// Package proctree owns the lifetime of the processes agentdesk starts
// for a run (shell_execute commands, `expect: command:` checks, MCP stdio
// servers): each starts in a process group of its own, and everything it
// started dies with it, including descendants that left the group.
//
// Prepare marks a command before it starts; Start starts it; Kill stops
// it and its descendants (use it as exec.Cmd.Cancel); Cleanup, called
// after exec.Cmd.Wait, kills what is left and reaps it.
//
// On Linux:
//   - the command gets a parent-death signal (SIGKILL), so if agentdesk is
//     killed outright the command's leader dies too. The kernel ties that
//     signal to the OS thread that started the child; Start holds the
//     thread for the start, and the Go runtime only ends a thread when a
//     goroutine locked to it exits, which agentdesk does not do.
//   - agentdesk becomes a child subreaper on the first Prepare, so a
//     process orphaned by its parent (a `setsid cmd &` that the shell left
//     behind) is re-parented to agentdesk rather than to init.
//   - every command carries a unique AGENTDESK_PROCESS_TREE variable in its
//     environment; its descendants inherit it, so Kill finds them in /proc
//     even after setsid, and kills them. Cleanup reaps those that were
//     re-parented to agentdesk; it never waits for a pid that an exec.Cmd
//     owns (only pids it killed itself, never the command's own).
//
// Limits: a descendant that clears its environment (env -i) and leaves the
// group is not found; when agentdesk is killed outright, only the leader
// gets the parent-death signal — the rest of its group is left to the
// kernel's usual orphan handling. Elsewhere than Linux, the process group
// is all there is.
package proctree
