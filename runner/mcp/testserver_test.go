package mcp

import (
	"context"
	"fmt"
	"os"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentdesk/agentdesk/runner/mcp/mcptest"
)

// The test binary is also the stdio MCP server of the tests: run with
// serverEnv set to a mode, TestMain serves instead of testing.
const serverEnv = "AGENTDESK_MCP_TEST_SERVER"

func TestMain(m *testing.M) {
	switch mode := os.Getenv(serverEnv); mode {
	case "":
		os.Exit(m.Run())
	case "garbage":
		// Not JSON-RPC: the handshake cannot succeed.
		fmt.Println("hello! this is not JSON")
		fmt.Println("{\"neither\": is this}")
		select {}
	case "silent":
		// Reads its input and never answers.
		_, _ = os.Stdin.Read(make([]byte, 1<<20))
		select {}
	case "die":
		fmt.Fprintln(os.Stderr, "fatal: missing API key")
		os.Exit(2)
	default:
		if err := mcptest.Server().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
		}
		os.Exit(0)
	}
}
