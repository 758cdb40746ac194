package wire

import (
	"bytes"
	"io"
)

// SSEFrame is one dispatched server-sent event, or one comment line.
type SSEFrame struct {
	// Comment is set for a comment line (": keep-alive"). Data then holds
	// the comment's text without the colon and one leading space; Event is
	// empty. A comment is reported on its own, at once, and does not
	// disturb the event being assembled around it.
	Comment bool
	// Event is the value of the frame's last `event:` line, or "".
	Event string
	// Data is the frame's `data:` lines joined with "\n". It is valid until
	// the next call to Next.
	Data []byte
	// Line is the 1-based line number of the frame's last data line (of
	// the comment, for a comment; of the blank line, for a frame without
	// data).
	Line int
}

// SSEReader frames a server-sent event stream: lines ended by LF, CRLF or
// CR; `data:` lines joined with "\n"; `event:`; comments; one optional space
// after the colon removed; `id:`, `retry:` and unknown fields ignored. A
// frame is dispatched at a blank line when it has data or an event name,
// and at the end of the stream when one is pending (a last frame without its
// blank line is kept, not dropped).
type SSEReader struct {
	lines *LineReader
	data  []byte
	event string
	// pending is set while a frame is being assembled; dataLines counts
	// its data lines (an empty first data line still counts).
	pending   bool
	dataLines int
	dataLine  int
	// reset is set after a dispatch: the frame's data is handed out and
	// cleared at the next call.
	reset bool
	err   error
}

// NewSSEReader returns a framer over r with a line cap of max bytes (MaxLine
// when max <= 0).
func NewSSEReader(r io.Reader, max int) *SSEReader {
	return &SSEReader{lines: NewLineReader(r, max)}
}

// Next returns the next frame. At the end of the stream it returns io.EOF;
// a read error or a line past the cap is returned as is (see LineReader).
func (s *SSEReader) Next() (SSEFrame, error) {
	if s.reset {
		s.data = s.data[:0]
		s.reset = false
	}
	if s.err != nil {
		return SSEFrame{}, s.err
	}
	for {
		line, err := s.lines.ReadLine()
		if err != nil {
			s.err = err
			if err == io.EOF && s.pending {
				return s.dispatch(), nil
			}
			return SSEFrame{}, err
		}
		if len(line) == 0 {
			if s.pending {
				return s.dispatch(), nil
			}
			continue
		}
		if line[0] == ':' {
			c := line[1:]
			if len(c) > 0 && c[0] == ' ' {
				c = c[1:]
			}
			return SSEFrame{Comment: true, Data: c, Line: s.lines.Line()}, nil
		}
		field, value := line, []byte(nil)
		if i := bytes.IndexByte(line, ':'); i >= 0 {
			field, value = line[:i], line[i+1:]
			if len(value) > 0 && value[0] == ' ' {
				value = value[1:]
			}
		}
		switch string(field) {
		case "data":
			if s.dataLines > 0 {
				s.data = append(s.data, '\n')
			}
			s.data = append(s.data, value...)
			s.dataLines++
			s.dataLine = s.lines.Line()
			s.pending = true
		case "event":
			if s.event != string(value) {
				s.event = string(value)
			}
			s.pending = true
		}
	}
}

func (s *SSEReader) dispatch() SSEFrame {
	f := SSEFrame{Event: s.event, Data: s.data, Line: s.lines.Line()}
	if s.dataLines > 0 {
		f.Line = s.dataLine
	}
	s.reset = true
	s.event = ""
	s.pending = false
	s.dataLines = 0
	return f
}
