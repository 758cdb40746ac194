package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/watch"
)

// agentText is a definition of about 600 bytes.
func agentText(i int, broken bool) string {
	body := "You are a helper. Read the files named in the task and report what matters.\n\n## Guidelines\n\n- Be brief.\n- Quote paths.\n"
	if broken {
		body = ""
	}
	return fmt.Sprintf("---\nname: agent-%05d\ndescription: Agent number %d, which helps with one narrow kind of task and says so in a sentence that is long enough to be realistic.\ntools:\n  - file_read\n---\n\n%s", i, i, body)
}

// bigCatalog parses n definitions in memory, every tenth one rejected.
func bigCatalog(b *testing.B, n int) *lint.Catalog {
	b.Helper()
	c := &lint.Catalog{Home: lint.NewHome("/h", "")}
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("/h/agents/agent-%05d.md", i)
		c.Files = append(c.Files, lint.Parse(path, []byte(agentText(i, i%10 == 9)), lint.Runtime))
	}
	return c
}

// benchModel is a browser showing c at 120×40.
func benchModel(b *testing.B, c *lint.Catalog) *Model {
	b.Helper()
	m := New(Options{Home: c.Home, Now: func() time.Time { return fixedNow }})
	m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	_, cmd := m.Update(catalogMsg{cat: c})
	// Build the layers now, as the program would in the background.
	for _, msg := range collect(cmd) {
		if lm, ok := msg.(layerMsg); ok {
			m.Update(lm)
		}
	}
	return m
}

// collect runs cmd and the commands in its batches, returning their messages.
func collect(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, collect(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// BenchmarkFrame10000Agents renders one frame of a home of 10,000 agents,
// the list in the middle, on each pane.
func BenchmarkFrame10000Agents(b *testing.B) {
	c := bigCatalog(b, 10000)
	for _, tc := range []struct{ name, keys string }{
		{"definition", "1"},
		{"layer", "2"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := benchModel(b, c)
			m.Update(keyPress(tc.keys))
			for i := 0; i < 5000; i++ {
				m.Update(keyPress("down"))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				_ = m.View()
			}
		})
	}
}

// BenchmarkKeyAndFrame10000Agents is a key press (move down) and the frame
// it causes, as the user feels it.
func BenchmarkKeyAndFrame10000Agents(b *testing.B) {
	c := bigCatalog(b, 10000)
	for _, tc := range []struct{ name, keys string }{
		{"definition", "1"},
		{"layer", "2"}, // a new selection highlights another block: the layer's lines are rebuilt
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := benchModel(b, c)
			m.Update(keyPress(tc.keys))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := "down"
				if (i/4000)%2 == 1 {
					k = "up"
				}
				m.Update(keyPress(k))
				_ = m.View()
			}
		})
	}
}

// BenchmarkApplyCatalog10000Agents puts a fresh catalog of 10,000 agents
// on screen (rows, filter, selection) and draws the frame; the layer is
// built in the background and not counted.
func BenchmarkApplyCatalog10000Agents(b *testing.B) {
	c := bigCatalog(b, 10000)
	m := benchModel(b, c)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.applyCatalog(catalogMsg{cat: c})
		_ = m.View()
	}
}

// BenchmarkWriteToUpdatedList is the time from a file write to the list
// showing it: the watcher's event and debounce (100 ms), the incremental
// rescan, and the catalog applied. The home holds 1,000 or 10,000 agents.
func BenchmarkWriteToUpdatedList(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("agents=%d", n), func(b *testing.B) {
			base := filepath.Join(b.TempDir(), "netclaw")
			h := lint.NewHome(base, "")
			if err := os.MkdirAll(h.Agents, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := 0; i < n; i++ {
				p := filepath.Join(h.Agents, fmt.Sprintf("agent-%05d.md", i))
				if err := os.WriteFile(p, []byte(agentText(i, false)), 0o644); err != nil {
					b.Fatal(err)
				}
			}
			sc := lint.NewScanner(h, lint.ScanOptions{Environ: []string{}})
			m := New(Options{Home: h, Scanner: sc, Now: time.Now})
			m.tick = func(time.Duration, func(time.Time) tea.Msg) tea.Cmd { return nil }
			m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
			c, err := sc.Scan()
			if err != nil {
				b.Fatal(err)
			}
			m.Update(catalogMsg{cat: c})
			w, err := watch.Start(h, 100*time.Millisecond)
			if err != nil {
				b.Fatal(err)
			}
			defer w.Close()
			target := filepath.Join(h.Agents, "agent-00042.md")
			// One turn of the loop the program runs: the watcher's change
			// becomes a rescan of its paths, whose catalog is applied and drawn.
			apply := func(c watch.Change) {
				for _, msg := range collect(m.requestRescan(c.Paths, false)) {
					if cm, ok := msg.(catalogMsg); ok {
						m.Update(cm)
					}
				}
				_ = m.View()
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				broken := i%2 == 0
				if err := os.WriteFile(target, []byte(agentText(42, broken)), 0o644); err != nil {
					b.Fatal(err)
				}
				for {
					select {
					case c := <-w.Changes():
						apply(c)
					case <-time.After(10 * time.Second):
						b.Fatal("the list never showed the write")
					}
					// The rescan may have raced the write's last bytes; the
					// next event brings the rest, as in the browser.
					if f := m.cat.File(target); f != nil && (f.Status == lint.Rejected) == broken {
						break
					}
				}
			}
		})
	}
}

// BenchmarkViewerFrame draws the viewer over a 1 MiB log file at 120×40,
// one key press (a line down) and one frame at a time: what scrolling
// through a run's artifacts costs.
func BenchmarkViewerFrame(b *testing.B) {
	m := benchModel(b, bigCatalog(b, 10))
	line := "2026-12-01T10:00:00Z tool file_read path=internal/ui/model.go bytes=4096 took=3ms and some more words to wrap\n"
	var text []byte
	for len(text) < 1<<20 {
		text = append(text, line...)
	}
	p := "/run/output.log"
	v := &viewer{keys: m.keys, root: "/run", title: "/run", files: []string{p}, loaded: true,
		docs: map[string]*viewerDoc{p: {text: string(text), digest: "x"}}, md: &m.md, stGen: &m.stGen}
	m.overlays.push(v)
	down := keyPress("j")
	m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m.Update(down)
		m.View()
	}
}

// BenchmarkScrollLayer10000Agents scrolls the focused Layer pane of a home
// of 10,000 agents a line at a time, and draws each frame: the pane's lines
// are built once, so a key costs a window's worth of work.
func BenchmarkScrollLayer10000Agents(b *testing.B) {
	m := benchModel(b, bigCatalog(b, 10000))
	m.Update(keyPress("2"))
	m.Update(keyPress("enter"))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := "j"
		if (i/4000)%2 == 1 {
			k = "k"
		}
		m.Update(keyPress(k))
		_ = m.View()
	}
}
