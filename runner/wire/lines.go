package wire

import (
	"bytes"
	"fmt"
	"io"
)

// LineReader splits a byte stream into lines ended by LF, CRLF or a lone CR,
// as the SSE specification asks, with a cap on the length of one line. A
// CRLF split across two reads is still one line ending. The last line of a
// stream needs no ending.
type LineReader struct {
	rd   io.Reader
	buf  []byte
	r, w int
	max  int
	// skipLF is set after a line that ended in a CR at the end of the
	// buffered data: an LF that arrives next belongs to that ending.
	skipLF bool
	err    error
	line   int
}

// NewLineReader returns a LineReader over rd with a line cap of max bytes
// (MaxLine when max <= 0).
func NewLineReader(rd io.Reader, max int) *LineReader {
	if max <= 0 {
		max = MaxLine
	}
	// The buffer starts small and doubles for a longer line: a stream
	// (a replay's above all) is many short lines, and a reader per model
	// call that began at 64 KiB was a fifth of an offline suite's garbage.
	size := 4 << 10
	if size > max+1 {
		size = max + 1
	}
	return &LineReader{rd: rd, buf: make([]byte, size), max: max}
}

// Line returns the 1-based number of the line ReadLine returned last.
func (l *LineReader) Line() int { return l.line }

// ReadLine returns the next line without its ending. The slice is valid
// until the next call. At the end of the stream it returns io.EOF; a line
// longer than the cap returns an error matching ErrLineTooLong; a failed read
// returns its error. Errors are sticky.
func (l *LineReader) ReadLine() ([]byte, error) {
	for {
		if l.skipLF && l.r < l.w {
			if l.buf[l.r] == '\n' {
				l.r++
			}
			l.skipLF = false
		}
		data := l.buf[l.r:l.w]
		lf := bytes.IndexByte(data, '\n')
		scope := data
		if lf >= 0 {
			scope = data[:lf]
		}
		if cr := bytes.IndexByte(scope, '\r'); cr >= 0 {
			line := data[:cr]
			if cr+1 < len(data) {
				if data[cr+1] == '\n' {
					l.r += cr + 2
				} else {
					l.r += cr + 1
				}
			} else {
				l.r += cr + 1
				l.skipLF = true
			}
			return l.emit(line)
		}
		if lf >= 0 {
			l.r += lf + 1
			return l.emit(data[:lf])
		}
		// No complete line buffered.
		if len(data) > l.max {
			l.err = fmt.Errorf("%w (%d MiB): the server sent a line of more than %d bytes", ErrLineTooLong, l.max>>20, l.max)
			return nil, l.err
		}
		if l.err != nil {
			// The last line of a stream needs no ending, but a line cut
			// by a broken connection is not a line.
			if l.err == io.EOF && len(data) > 0 {
				l.r = l.w
				return l.emit(data)
			}
			return nil, l.err
		}
		l.fill()
	}
}

func (l *LineReader) emit(line []byte) ([]byte, error) {
	if len(line) > l.max {
		l.err = fmt.Errorf("%w (%d MiB): the server sent a line of more than %d bytes", ErrLineTooLong, l.max>>20, l.max)
		return nil, l.err
	}
	l.line++
	return line, nil
}

// fill reads more data, compacting or growing the buffer first.
func (l *LineReader) fill() {
	if l.r > 0 {
		n := copy(l.buf, l.buf[l.r:l.w])
		l.r, l.w = 0, n
	}
	if l.w == len(l.buf) {
		size := 2 * len(l.buf)
		if size > l.max+1 {
			size = l.max + 1
		}
		nb := make([]byte, size)
		copy(nb, l.buf[:l.w])
		l.buf = nb
	}
	for range 100 {
		n, err := l.rd.Read(l.buf[l.w:])
		l.w += n
		if err != nil {
			l.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	l.err = io.ErrNoProgress
}
