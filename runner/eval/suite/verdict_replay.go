package suite

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// replayedReply is the judge's recorded reply: the text of the last model
// call on its tape, decoded by the same wire decoder a run uses. A replay
// reads the verdict from it without a run folder of its own (the judge's
// live run has one); the tape was redacted when it was recorded.
func replayedReply(tape *cassette.Cassette) (string, error) {
	proto := wire.Recorded(tape.Header.Protocol)
	if len(tape.Calls) == 0 {
		return "", errors.New("the judge's tape holds no model call")
	}
	c := tape.Calls[len(tape.Calls)-1]
	if c.Error != "" || c.Status < 200 || c.Status > 299 {
		return "", fmt.Errorf("the judge's recorded call failed: %s", strings.TrimSpace(c.Error+" "+statusText(c.Status)))
	}
	var body bytes.Buffer
	for _, ch := range c.Chunks {
		body.Write(ch.Data)
	}
	dec := wire.NewDecoder(proto, &body)
	var text strings.Builder
	finish, finished := "", false
	for {
		e, err := dec.Next()
		if err != nil {
			break
		}
		switch e.Kind {
		case wire.Text:
			text.WriteString(e.Text)
		case wire.Finish:
			finish, finished = e.Finish, true
		case wire.Error:
			return "", fmt.Errorf("the judge's recorded stream ended in an error: %v", e.Err)
		}
	}
	switch {
	case !finished:
		return "", errors.New("the judge's recorded reply never finished")
	case finish == "length" || finish == "max_tokens":
		return "", errors.New("the judge's recorded reply was cut off at the output limit")
	}
	return text.String(), nil
}

func statusText(code int) string {
	if code == 0 {
		return ""
	}
	return fmt.Sprintf("HTTP %d", code)
}
