//go:build linux

package suite

import (
	"context"
	"testing"
)

// TestRunCommandWithoutNamespaces: where the kernel refuses namespaces,
// a check runs anyway, says so, and has the proxy variables pointing at a
// closed port.
func TestRunCommandWithoutNamespaces(t *testing.T) {
	was := noNamespaces.Load()
	noNamespaces.Store(true)
	defer noNamespaces.Store(was)
	dir := t.TempDir()
	script(t, dir, "env.sh", `echo "$AGENTDESK_NETWORK $HTTPS_PROXY $http_proxy" >&2; exit 1`+"\n")
	res, err := RunCommand(context.Background(), []string{"./env.sh"}, dir, checkRecord(), CommandFacts{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if res.Isolated || res.Failure == nil || res.Failure.Message != "not-isolated http://127.0.0.1:9 http://127.0.0.1:9 (exit status 1)" {
		t.Errorf("isolated %v, failure %+v", res.Isolated, res.Failure)
	}
}
