package runner

import "github.com/agentdesk/agentdesk/runner/runfolder"

// transcriptLog is a run's transcript as it grows. A piece of text or
// thinking, most of a streamed reply's lines, is a small line of its
// own; any other line is kept whole. A TranscriptEntry is 240 bytes,
// mostly the fields of a request line: a replay's transcript was a
// quarter of the memory a suite's sample takes, made and collected for
// a transcript written only when the sample does not pass.
type transcriptLog struct {
	lines []logLine
	whole []runfolder.TranscriptEntry
}

// logLine is a piece (text or thinking set) or, else, whole[at].
type logLine struct {
	tms      int64
	call     int
	at       int
	thinking bool
	piece    bool
	text     string
}

// grow makes room for n lines, calls model calls' worth of them whole
// (a request, a response, a role, a finish, a usage) and the outcome.
func (l *transcriptLog) grow(n, calls int) {
	l.lines = make([]logLine, 0, n)
	l.whole = make([]runfolder.TranscriptEntry, 0, 5*calls+1)
}

// add appends e whole.
func (l *transcriptLog) add(e runfolder.TranscriptEntry) {
	l.lines = append(l.lines, logLine{at: len(l.whole)})
	l.whole = append(l.whole, e)
}

// addPiece appends a text (or thinking) line: the entry
// {TMS: tms, Type: "text" or "thinking", Call: call, Text: text}.
func (l *transcriptLog) addPiece(tms int64, call int, thinking bool, text string) {
	l.lines = append(l.lines, logLine{tms: tms, call: call, thinking: thinking, piece: true, text: text})
}

// entries returns the transcript's lines, in order.
func (l *transcriptLog) entries() []runfolder.TranscriptEntry {
	out := make([]runfolder.TranscriptEntry, len(l.lines))
	for i, ln := range l.lines {
		if !ln.piece {
			out[i] = l.whole[ln.at]
			continue
		}
		typ := "text"
		if ln.thinking {
			typ = "thinking"
		}
		out[i] = runfolder.TranscriptEntry{TMS: ln.tms, Type: typ, Call: ln.call, Text: ln.text}
	}
	return out
}
