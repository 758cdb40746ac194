package preview

import (
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint/golden"
)

// checkGolden compares got with testdata/<name> byte for byte, or rewrites
// the file with -update. The expected layers were written by hand from
// REFERENCE section 4; review any -update diff against it.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden.Check(t, path, []byte(got))
}
