package lint

// This file holds the check of the rule agents-folder (RuleAgentsFolder):
// the agents folder does not exist or holds no agent file.

// agentsFolderDiagnostics says, in the runtime's words, that the agents
// folder does not exist, or (read is the number of agent files the runtime
// reads) holds no agent file.
func (s *Scanner) agentsFolderDiagnostics(read int) []Diagnostic {
	r, _ := RuleByID(RuleAgentsFolder)
	sev := r.Severity(s.opts.Profile)
	switch {
	case sev == Off:
		return nil
	case s.agentsMissing:
		return []Diagnostic{{Path: s.home.Agents, Rule: RuleAgentsFolder, Severity: sev,
			Message: "Agents directory does not exist: " + s.home.Agents, Hint: "create the folder and put one <name>.md file in it per sub-agent"}}
	case read == 0:
		return []Diagnostic{{Path: s.home.Agents, Rule: RuleAgentsFolder, Severity: sev,
			Message: "No agent definition files found in " + s.home.Agents, Hint: "put one <name>.md file per sub-agent in the folder"}}
	}
	return nil
}
