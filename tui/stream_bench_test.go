package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/modeltest"
)

// streamDeltas is a reply of n deltas of about 100 bytes each: sentences
// of words, a paragraph break every few hundred bytes, as a model writes.
func streamDeltas(n int) []string {
	words := strings.Fields("the watcher debounces file system events before it rescans the agents folder and a reply may name paths like internal/ui/model.go or flags like --no-tools")
	out := make([]string, n)
	wi := 0
	for i := range out {
		var b strings.Builder
		for b.Len() < 95 {
			b.WriteString(words[wi%len(words)])
			wi++
			if wi%17 == 0 {
				b.WriteString(".")
			}
			b.WriteString(" ")
		}
		if i%6 == 5 {
			b.WriteString("\n\n")
		}
		out[i] = b.String()
	}
	return out
}

// BenchmarkStreamReply streams a reply through the Run pane as the
// program does: each text delta is one message to Update and one frame
// drawn, with the pane following the end of the stream at 120×40. The
// cost of a whole reply must grow linearly with its size: 1 MB in 10,000
// deltas against 250 KB in 2,500.
func BenchmarkStreamReply(b *testing.B) {
	for _, n := range []int{2500, 10000} {
		deltas := streamDeltas(n)
		size := 0
		for _, d := range deltas {
			size += len(d)
		}
		b.Run(fmt.Sprintf("deltas=%d/bytes=%d", n, size), func(b *testing.B) {
			rh := newRunHome(b, 120, 40)
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				rh.srv.Enqueue(modeltest.Script{Steps: []modeltest.Step{modeltest.Pause(time.Hour)}})
				rv := rh.startRun("Write a long answer", "")
				rh.waiting = nil // the events below stand in for the model's
				b.StartTimer()
				for j, d := range deltas {
					rh.Update(runEventsMsg{id: rv.id, from: j, events: []runner.Event{{Kind: runner.EventText, Text: d}}})
					_ = rh.View()
				}
				b.StopTimer()
				rv.run.Cancel()
				_, _ = rv.run.Wait()
				b.StartTimer()
			}
		})
	}
}
