package adapt

import (
	"path/filepath"
	"strings"
)

// NextSteps says what the user must do before the target's tool loads the
// files an export wrote into dir (an absolute folder); home is the user's
// home folder. Nothing, for a target that loads them as they are. The
// facts are those of the versions the tool tables name: Codex CLI reads a
// project's .codex/agents only once the project is trusted (its user
// folder, $CODEX_HOME/agents, needs no trust); Gemini CLI
// registers a project's agents only after the user acknowledges each one,
// by the SHA-256 of its file (so every changed file asks again), and only
// in a trusted folder when folder trust is on; its user folder
// ~/.gemini/agents needs neither.
func (t Target) NextSteps(dir, home string) []string {
	dir = filepath.Clean(dir)
	switch t.ID {
	case "codex":
		root := projectOf(dir, filepath.Join(".codex", "agents"))
		if root == "" {
			return []string{"Codex CLI reads agents from a project's .codex/agents folder (or ~/.codex/agents): move the files there"}
		}
		if home != "" && root == filepath.Clean(home) {
			return nil
		}
		return []string{"Codex CLI reads " + dir + " only in a trusted project: start codex in " + root +
			" and trust it when asked (codex exec --trust, headless), or add [projects.\"" + root + "\"] with trust_level = \"trusted\" to ~/.codex/config.toml." +
			" Agents in ~/.codex/agents need no trust"}
	case "gemini":
		if home != "" && dir == filepath.Join(home, ".gemini", "agents") {
			return nil
		}
		root := projectOf(dir, filepath.Join(".gemini", "agents"))
		if root == "" {
			return []string{"Gemini CLI reads agents from a project's .gemini/agents folder or from ~/.gemini/agents: move the files there"}
		}
		return []string{"Gemini CLI registers the agents of " + dir + " only after you acknowledge them: start gemini in " + root +
			" and accept each new or changed agent (it asks again for every file an export changes, by its hash); with folder trust on, the folder must be trusted too." +
			" Agents in ~/.gemini/agents need no acknowledgement"}
	}
	return nil
}

// projectOf returns the project folder of dir when dir is <project>/<sub>,
// else "".
func projectOf(dir, sub string) string {
	if !strings.HasSuffix(dir, string(filepath.Separator)+sub) {
		return ""
	}
	return strings.TrimSuffix(dir, string(filepath.Separator)+sub)
}
