// Package sandbox runs every command a trial starts (an approved
// shell_execute, a stdio MCP server) where it cannot change the author's
// machine. On Linux, with no root and no external tool:
//
//   - user, mount, PID, IPC and (unless the network is allowed) network
//     namespaces of its own; the network namespace has loopback up, so
//     servers the command starts on 127.0.0.1 still work;
//   - the run's copy of the project shown at the project's real path
//     (Config.Binds), writable, and the same for the session folder, so
//     every absolute path the model was told reaches the copy; the rest of
//     the filesystem read-only, $HOME included; the run's temporary folder
//     as /tmp; a /dev of its own (null, zero, full, random, urandom, tty
//     and an empty /dev/shm); a /proc of its own PID namespace, so no
//     process outside it is seen; a working folder those private
//     folders would hide (agentdesk started below /tmp) shown read-only;
//   - Landlock, where the kernel has it, as a second wall: writes only
//     below the writable folders; a command that unmounts or remounts
//     anything is refused by it too;
//   - no_new_privs (a setuid program gains nothing), a process limit and
//     a file size limit;
//   - the command's user is the author's own uid, in a user namespace
//     nested in the one that set the mounts up, so it holds no capability
//     over them.
//
// It works by re-executing agentdesk's own binary (/proc/self/exe) into a
// hidden entry point (entry_linux.go): Wrap rewrites an exec.Cmd to start
// it, and runner/proctree's supervisor starts it in the new namespaces,
// so the sandbox stays in the run's process tree and dies with it. Any
// binary that imports this package (agentdesk, its tests) handles the
// hidden mode.
//
// Elsewhere than Linux, and where the kernel refuses user namespaces or
// has no Landlock, Probe says why and Wrap refuses; the run then refuses
// approved commands and stdio MCP servers unless the author passed
// --no-sandbox.
package sandbox
