package main

import (
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint/golden"
)

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, []byte(got))
}
