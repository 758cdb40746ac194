package proctree

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
)

// EnvName is the environment variable that marks the processes of one
// command: its value is unique to the command within agentdesk's life.
const EnvName = "AGENTDESK_PROCESS_TREE"

var counter atomic.Uint64

// Left says what Cleanup found of a command once it had ended.
type Left struct {
	// OutputCut is set when descendants still held the command's output
	// open when the grace after its exit (cmd.WaitDelay) ran out, and were
	// killed: the output may lack what they would have written.
	OutputCut bool
}

// Prepare makes cmd start in a process group of its own (with the
// platform's extras, see the package comment) and marks its environment
// so its descendants can be found. Call it after setting cmd.Env (nil
// means agentdesk's environment) and cmd.SysProcAttr, which it keeps.
func Prepare(cmd *exec.Cmd) {
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	token := strconv.Itoa(os.Getpid()) + "-" + strconv.FormatUint(counter.Add(1), 10)
	cmd.Env = append(env[:len(env):len(env)], EnvName+"="+token)
	prepare(cmd)
}

// tokenOf returns the mark Prepare gave cmd, "" if none.
func tokenOf(cmd *exec.Cmd) string {
	for i := len(cmd.Env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(cmd.Env[i], EnvName+"="); ok {
			return v
		}
	}
	return ""
}
