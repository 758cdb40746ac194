// Package proctree owns the lifetime of the processes agentdesk starts
// for a run (shell_execute commands, `expect: command:` checks, MCP stdio
// servers): each starts in a process group of its own, and everything it
// started dies with it — when it ends, when the run kills it, and when
// agentdesk itself is killed outright.
//
// Prepare marks a command before it starts; Start starts it; Kill stops
// it and its descendants (use it as exec.Cmd.Cancel); Cleanup, called
// after exec.Cmd.Wait, makes sure nothing is left and says whether the
// output was cut.
//
// On Linux, Start starts the command through a process supervisor:
// agentdesk's own executable (/proc/self/exe) run again in a hidden mode
// (see supervise_linux.go), which starts the command and stays its
// parent. The supervisor is a child subreaper, so every descendant the
// command orphans is re-parented to it and found by parentage, whatever
// its process group or environment (`setsid`, `env -i`, double forks);
// it holds one end of a socket whose other end only agentdesk holds, so
// when agentdesk dies — SIGKILL and the OOM killer included — the kernel
// closes agentdesk's end and the supervisor kills the command's whole
// tree, reaps it and exits. After the command exits by itself the
// supervisor gives descendants that still hold its output the command's
// WaitDelay to finish writing (the runtime's post-exit drain), then kills
// what is left; it exits as the command did, once nothing is left. The
// command itself gets a parent-death signal (SIGKILL) from the
// supervisor, in case the supervisor is killed.
//
// The parent-death signal alone is not enough: the kernel sends it only
// to the process that asked for it, not to its children. Cgroups would
// need a writable, delegated cgroup v2 hierarchy (often absent: a
// container, cgroup v1, no systemd user session) and still someone alive
// to kill the group; a PID namespace would need unprivileged user
// namespaces (often refused) and would change what the command sees.
//
// Every command also carries a unique AGENTDESK_PROCESS_TREE variable in
// its environment: when there is no supervisor (no /proc/self/exe; then
// agentdesk makes itself a child subreaper) or it was killed, Kill kills
// the command's group and every process carrying its mark, and Cleanup
// reaps those re-parented to agentdesk; a descendant that cleared its
// environment and left the group is then not found. Elsewhere than Linux,
// the process group is all there is.
package proctree
