// Package lint reads a NetClaw home the way the NetClaw runtime does and says
// what the runtime will do with every sub-agent definition, skill and config
// file in it, and why, at the line.
//
// It owns the paths of a home (Home), the one-file parser (Parse), the rules
// (stable ids, severities per Profile), the directory scan in runtime order
// with duplicates and feeds (Scanner, Catalog), skill routing, and the merged
// configuration (Config), and the name rules every package above follows
// (ValidName, Kebab, CheckNewAgentName, and Suggest, agentdesk's one
// did-you-mean). It imports nothing else of agentdesk and never writes to
// disk.
package lint
