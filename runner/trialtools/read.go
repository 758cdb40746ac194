package trialtools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// sniffBytes is how much of a file's start decides whether it is binary.
const sniffBytes = 8 << 10

// fileRead runs file_read.
func (tb *Toolbox) fileRead(ctx context.Context, raw json.RawMessage) Result {
	a, err := parseReadArgs(raw)
	if err != nil {
		return errorResult("file_read: %v", err)
	}
	t, err := tb.resolve(a.Path)
	if err != nil {
		return pathResult("file_read", err)
	}
	f, info, err := tb.open(t, wantFile)
	if err != nil {
		return pathResult("file_read", err)
	}
	defer f.Close()
	return readText(ctx, f, info.Size(), t.show, a)
}

// pathResult turns an error from resolve or open into a result.
func pathResult(tool string, err error) Result {
	var r *refusal
	if errors.As(err, &r) {
		return refusedResult("%s refused: %s", tool, r.msg)
	}
	return errorResult("%s: %v", tool, err)
}

// readText reads the lines a asks for from r (a file of size bytes shown as
// show), within the caps.
func readText(ctx context.Context, r io.Reader, size int64, show string, a readArgs) Result {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(sniffBytes)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return errorResult("file_read: %s cannot be read: %v", showPath(show), unwrapPath(err))
	}
	if binary(head, err == io.EOF) {
		return errorResult("file_read: %s is a binary file (%s); file_read returns text only", showPath(show), byteCount(size))
	}
	if len(head) == 0 {
		if a.StartLine > 1 {
			return errorResult("file_read: %s is empty; start_line %d is past its end", showPath(show), a.StartLine)
		}
		return Result{Text: fmt.Sprintf("[file_read: %s is empty]", showPath(show))}
	}

	start, end := max(a.StartLine, 1), a.EndLine
	var out bytes.Buffer
	out.Grow(int(min(size, MaxReadBytes) + 64))
	var (
		line      = 1    // the line the next piece belongs to
		inLine    bool   // a piece of line has been written
		lineStart int    // where line begins in out
		shown     int    // lines written (whole or in part)
		cut       string // why the output was cut, "" when it was not
		next      int    // the start_line that reads on after a cut
		atEOF     bool   // the whole file was read
		partial   bool   // the last piece read did not end a line
		lastShown int    // the last line written
		readErr   error  // a read error
		pieces    = 0    // pieces read, for cancellation checks
		want      = func(n int) bool { return n >= start && (end == 0 || n <= end) }
	)
loop:
	for {
		if pieces++; pieces&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return errorResult("file_read: %s: %v", showPath(show), err)
			}
		}
		piece, err := br.ReadSlice('\n')
		if len(piece) > 0 {
			partial = piece[len(piece)-1] != '\n'
			if want(line) {
				if !inLine {
					if shown == MaxReadLines {
						cut, next = fmt.Sprintf("cut at %d lines", MaxReadLines), line
						break loop
					}
					lineStart, inLine = out.Len(), true
					shown++
				}
				if room := MaxReadBytes - out.Len(); len(piece) > room {
					if lineStart > 0 {
						out.Truncate(lineStart) // drop the partial line: it is read again from next
						lastShown = line - 1
						cut, next = fmt.Sprintf("cut at %d KiB", MaxReadBytes>>10), line
					} else {
						out.Write(piece[:runeBoundary(piece, room)])
						lastShown = line
						cut, next = fmt.Sprintf("line %d is longer than %d KiB and was cut", line, MaxReadBytes>>10), line+1
					}
					break loop
				}
				out.Write(piece)
				lastShown = line
			}
			if !partial {
				line++
				inLine = false
			}
		}
		switch {
		case err == io.EOF:
			atEOF = true
			break loop
		case err == bufio.ErrBufferFull:
		case err != nil:
			readErr = err
			break loop
		}
		if end != 0 && line > end {
			break loop
		}
	}
	if readErr != nil {
		return errorResult("file_read: %s cannot be read: %v", showPath(show), unwrapPath(readErr))
	}
	total := line - 1 // lines in the file, when atEOF
	if atEOF && partial {
		total = line
	}
	if atEOF && start > total {
		return errorResult("file_read: %s has %d lines; start_line %d is past its end", showPath(show), total, start)
	}

	text := out.Bytes()
	if at := bytes.IndexByte(text, 0); at >= 0 {
		return errorResult("file_read: %s holds binary data (a NUL byte at line %d); file_read returns text only",
			showPath(show), start+bytes.Count(text[:at], []byte{'\n'}))
	}
	res := Result{Text: string(text)}
	if !utf8.Valid(text) {
		res.Text = string(bytes.ToValidUTF8(text, []byte("\uFFFD")))
	}
	note := ""
	switch {
	case cut != "":
		span := fmt.Sprintf("lines %d-%d", start, lastShown)
		if lastShown == start {
			span = fmt.Sprintf("line %d", start)
		}
		note = fmt.Sprintf("[file_read: %s: this shows %s of %s (%s); call file_read with start_line %d to read on]",
			cut, span, showPath(show), byteCount(size), next)
	case atEOF && end > total:
		note = fmt.Sprintf("[file_read: %s ends at line %d]", showPath(show), total)
	}
	if note != "" {
		if res.Text != "" && res.Text[len(res.Text)-1] != '\n' {
			res.Text += "\n"
		}
		res.Text += note
		res.Cut = cut != ""
	}
	return res
}

// binary reports whether a file that starts with head is binary: a NUL byte,
// or bytes that are not UTF-8 (a rune cut at the end of head, when the file
// goes on, is not held against it).
func binary(head []byte, whole bool) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if !whole {
		for i := len(head) - 1; i >= 0 && i >= len(head)-utf8.UTFMax; i-- {
			if utf8.RuneStart(head[i]) {
				if !utf8.FullRune(head[i:]) {
					head = head[:i]
				}
				break
			}
		}
	}
	return !utf8.Valid(head)
}

// runeBoundary returns the largest n ≤ limit at which b can be cut without
// splitting a UTF-8 sequence.
func runeBoundary(b []byte, limit int) int {
	if limit >= len(b) {
		return len(b)
	}
	n := limit
	for n > 0 && n > limit-utf8.UTFMax && !utf8.RuneStart(b[n]) {
		n--
	}
	if !utf8.RuneStart(b[n]) {
		return limit // not UTF-8 here anyway
	}
	return n
}

// byteCount writes a size for people and models: "812 bytes", "12.4 KiB".
func byteCount(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}
