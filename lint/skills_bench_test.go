package lint

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/agentdesk/agentdesk/lint/hometest"
)

// BenchmarkRescanSkills measures what every file event costs in skills:
// Rescan re-lists and re-checks 300 skills (200 folder skills with three
// resource files each, 50 flat files, 50 in a feed), reading none again.
func BenchmarkRescanSkills(b *testing.B) {
	root := b.TempDir()
	files := map[string]string{
		"agents/helper.md":    agent("helper", "Helps."),
		"config/netclaw.json": skillFeeds("acme"),
	}
	for i := range 200 {
		name := fmt.Sprintf("skill-%03d", i)
		files["skills/"+name+"/SKILL.md"] = "---\nname: " + name + "\ndescription: d\nmetadata:\n  subagent: helper\n---\n\nDo it.\n"
		for _, r := range []string{"scripts/run.sh", "references/a.md", "assets/b.txt"} {
			files["skills/"+name+"/"+r] = "x"
		}
	}
	for i := range 50 {
		files[fmt.Sprintf("skills/flat-%03d.md", i)] = skill(fmt.Sprintf("flat-%03d", i), "d")
		files[fmt.Sprintf("skills/.server-feeds/acme/feed-%03d/SKILL.md", i)] = skill(fmt.Sprintf("feed-%03d", i), "d")
	}
	hometest.Write(b, root, files)
	s := NewScanner(NewHome(root, ""), ScanOptions{Environ: []string{}})
	if _, err := s.Scan(); err != nil {
		b.Fatal(err)
	}
	changed := []string{filepath.Join(root, "agents", "helper.md")}
	b.ResetTimer()
	for b.Loop() {
		c, err := s.Rescan(changed)
		if err != nil || len(c.Skills) != 300 {
			b.Fatal(err, len(c.Skills))
		}
	}
}
