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

// startsEnv names a file a serving test server appends a line to as it
// starts.
const startsEnv = "AGENTDESK_MCP_TEST_STARTS"

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
		if f := os.Getenv(startsEnv); f != "" {
			// Count the starts: one line per start.
			if fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				fmt.Fprintln(fh, os.Getpid())
				fh.Close()
			}
		}
		if err := mcptest.Server().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "test server:", err)
		}
		os.Exit(0)
	}
}
