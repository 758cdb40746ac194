package demo

import (
	"context"
	"fmt"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	// The sandbox's hidden entry point (its init) must run before this
	// package's: a sandboxed tracker's stage processes carry TrackerEnv
	// too, and must set the sandbox up before serving.
	_ "github.com/agentdesk/agentdesk/runner/sandbox"
)

// TrackerEnv is the hidden entry point of the demo's MCP server: a binary
// that links this package and is started with it set serves the tracker
// on its standard input and output, then exits (see init). Setup
// configures the server "tracker" as agentdesk's own executable with this
// variable, so the demo's MCP server needs nothing installed.
const TrackerEnv = "AGENTDESK_DEMO_MCP_SERVER"

// TrackerServer is the name of the demo's MCP server in McpServers.
const TrackerServer = "tracker"

func init() {
	if os.Getenv(TrackerEnv) != TrackerServer {
		return
	}
	if err := Tracker().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "agentdesk demo tracker:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// issues are the demo tracker's issues, by number.
var issues = map[int]string{
	7: "#7 watch.md leaves out deleted folders (open)\n\n" +
		"The notes in watch.md say what the watcher registers and how events settle, " +
		"but not what happens when a watched folder is deleted and created again. " +
		"It is watched anew. Add that as its own sentence at the end of the notes.",
	8: "#8 the Tests pane cuts long case names at 40 columns (closed)",
}

// Tracker returns the demo's MCP server: an issue tracker with one tool,
//
//	get_issue {number}   the issue's title, state and text
func Tracker() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "agentdesk-demo-tracker", Version: "1"}, nil)
	type issueArgs struct {
		Number int `json:"number" jsonschema:"the issue's number"`
	}
	sdk.AddTool(s, &sdk.Tool{Name: "get_issue", Description: "Read an issue of the project's tracker: its title, state and text."},
		func(_ context.Context, _ *sdk.CallToolRequest, a issueArgs) (*sdk.CallToolResult, any, error) {
			text, ok := issues[a.Number]
			if !ok {
				return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: fmt.Sprintf("no issue #%d", a.Number)}}}, nil, nil
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}}, nil, nil
		})
	return s
}
