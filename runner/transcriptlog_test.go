package runner

import (
	"reflect"
	"testing"

	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// TestTranscriptLog: pieces and whole lines come back in the order they
// were added, each as the entry it stands for.
func TestTranscriptLog(t *testing.T) {
	finish := "stop"
	want := []runfolder.TranscriptEntry{
		{TMS: 0, Type: "request", Call: 1, URL: "http://h/v1", Tools: []string{"file_read"}},
		{TMS: 1, Type: "thinking", Call: 1, Text: "hmm"},
		{TMS: 2, Type: "text", Call: 1, Text: "Hello "},
		{TMS: 2, Type: "text", Call: 1, Text: ""},
		{TMS: 3, Type: "finish", Call: 1, Finish: &finish},
		{TMS: 4, Type: "text", Call: 2, Text: "world"},
		{TMS: 5, Type: "outcome", Outcome: "completed"},
	}
	var l transcriptLog
	l.grow(2, 1)
	for _, e := range want {
		if e.Type == "text" || e.Type == "thinking" {
			l.addPiece(e.TMS, e.Call, e.Type == "thinking", e.Text)
		} else {
			l.add(e)
		}
	}
	if got := l.entries(); !reflect.DeepEqual(got, want) {
		t.Fatalf("entries:\n got %+v\nwant %+v", got, want)
	}
	var empty transcriptLog
	if got := empty.entries(); len(got) != 0 {
		t.Fatalf("an empty log has entries %+v", got)
	}
}
