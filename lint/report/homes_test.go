package report

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint"
)

// repoRoot is the repository's top folder, relative to this package.
const repoRoot = "../.."

// TestGoldenHomes prints, in every format, the catalogs lint.Scan builds from
// the sample homes under the repository's testdata, with paths relative to
// the repository's root (as in CI).
func TestGoldenHomes(t *testing.T) {
	for _, name := range []string{"good", "bad", "feeds", "skills", "skillfeeds", "yaml"} {
		for _, profile := range []lint.Profile{lint.Runtime, lint.Publish} {
			home := lint.NewHome(filepath.Join(repoRoot, "testdata", "homes", name), "")
			c, err := lint.Scan(home, lint.ScanOptions{Profile: profile, Environ: []string{}})
			if err != nil {
				t.Fatalf("scan %s: %v", name, err)
			}
			for _, f := range formats {
				t.Run(name+"/"+profile.String()+"/"+f.name, func(t *testing.T) {
					var b bytes.Buffer
					if err := f.write(&b, c, Options{Dir: repoRoot}); err != nil {
						t.Fatal(err)
					}
					assertSafe(t, b.String())
					checkGolden(t, "home-"+name+"-"+profile.String()+"."+f.ext, b.Bytes())
				})
			}
		}
	}
}
