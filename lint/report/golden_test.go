package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/golden"
)

// format is one report format, as the tests call it.
type format struct {
	name  string
	ext   string
	write func(*bytes.Buffer, *lint.Catalog, Options) error
}

var formats = []format{
	{"text", "txt", func(b *bytes.Buffer, c *lint.Catalog, o Options) error { return Text(b, c, o) }},
	{"json", "json", func(b *bytes.Buffer, c *lint.Catalog, o Options) error { return JSON(b, c, o) }},
	{"sarif", "sarif", func(b *bytes.Buffer, c *lint.Catalog, o Options) error { return SARIF(b, c, o) }},
	{"github", "github", func(b *bytes.Buffer, c *lint.Catalog, o Options) error { return GitHub(b, c, o) }},
}

// checkGolden compares got with testdata/golden/name, or rewrites it with
// -update.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	golden.Check(t, path, got)
}

func wd(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGoldenHandCatalog(t *testing.T) {
	c := handCatalog(t)
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.write(&b, c, Options{Dir: wd(t)}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "hand."+f.ext, b.Bytes())
		})
	}
	t.Run("text-color", func(t *testing.T) {
		var b bytes.Buffer
		if err := Text(&b, c, Options{Dir: wd(t), Color: true}); err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "hand-color.txt", b.Bytes())
	})
	t.Run("sarif-version", func(t *testing.T) {
		var b bytes.Buffer
		if err := SARIF(&b, c, Options{Dir: wd(t), Version: "v1.2.3"}); err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(b.Bytes(), []byte(`"version": "v1.2.3"`)) {
			t.Errorf("tool.driver.version missing:\n%s", b.Bytes())
		}
	})
}

func TestEmptyCatalog(t *testing.T) {
	c := &lint.Catalog{}
	for _, f := range formats {
		t.Run(f.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.write(&b, c, Options{Dir: wd(t)}); err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "empty."+f.ext, b.Bytes())
		})
	}
}
