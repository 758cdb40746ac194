package rundiff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/runner/runfolder"
)

// Run is one side of a comparison: a run's record and what its folder
// kept of the request and its changes.
type Run struct {
	// Record is the run's run.json.
	Record runfolder.Record
	// System and FirstMessage are the first model call's system prompt and
	// first user message, from transcript.jsonl; "" when the transcript
	// has no request line.
	System       string
	FirstMessage string
	// Tools are the names of the tools the first model call offered.
	Tools []string
	// Patch is changes.patch; "" when the run changed nothing.
	Patch string
	// Notes say what the folder lacked (an incomplete folder, a run from
	// an older agentdesk), one sentence each.
	Notes []string
}

// maxTranscriptLine caps one transcript line; a request line holds the
// whole system prompt.
const maxTranscriptLine = 64 << 20

// Load reads the run in folder dir. A folder without a readable run.json
// is an error naming it; a missing transcript or patch is a note.
func Load(dir string) (*Run, error) {
	data, err := os.ReadFile(filepath.Join(dir, runfolder.RunFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s has no %s: it is not a run folder, or the run never started", dir, runfolder.RunFile)
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", filepath.Join(dir, runfolder.RunFile), err)
	}
	r := &Run{}
	if err := json.Unmarshal(data, &r.Record); err != nil {
		return nil, fmt.Errorf("%s: %w; the file is damaged", filepath.Join(dir, runfolder.RunFile), err)
	}
	r.Record.Dir = dir
	id := short(r.Record.RunID)
	if !r.Record.Ended() {
		r.Notes = append(r.Notes, fmt.Sprintf("run %s has not ended (state %s): it is compared as far as it got", id, stateText(r.Record.State)))
	}
	if err := r.readTranscript(filepath.Join(dir, runfolder.TranscriptFile)); err != nil {
		r.Notes = append(r.Notes, fmt.Sprintf("run %s: %v; its request is not compared", id, err))
	}
	patch, err := os.ReadFile(filepath.Join(dir, runfolder.PatchFile))
	switch {
	case err == nil:
		r.Patch = string(patch)
	case len(r.Record.Changes) > 0:
		r.Notes = append(r.Notes, fmt.Sprintf("run %s lists %d changed files but its folder has no %s", id, len(r.Record.Changes), runfolder.PatchFile))
	}
	return r, nil
}

// readTranscript takes the first request line of transcript.jsonl.
func (r *Run) readTranscript(path string) error {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("its folder has no %s", runfolder.TranscriptFile)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), maxTranscriptLine)
	for sc.Scan() {
		line := sc.Bytes()
		if !bytes.Contains(line, []byte(`"type":"request"`)) {
			continue
		}
		var e runfolder.TranscriptEntry
		if err := json.Unmarshal(line, &e); err != nil {
			return fmt.Errorf("%s has a damaged request line", runfolder.TranscriptFile)
		}
		r.System, r.FirstMessage, r.Tools = e.System, r.ownPaths(e.Message), e.Tools
		return nil
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading %s: %w", runfolder.TranscriptFile, err)
	}
	return fmt.Errorf("its %s has no request", runfolder.TranscriptFile)
}

// ownPaths replaces what every run has of its own in its first message
// (its session folders lie inside its run folder, named by its id) with
// placeholders, so two runs' messages differ only where their tasks,
// contexts and projects do.
func (r *Run) ownPaths(s string) string {
	if r.Record.Dir != "" {
		s = strings.ReplaceAll(s, r.Record.Dir, "<run folder>")
	}
	if r.Record.RunID != "" {
		s = strings.ReplaceAll(s, r.Record.RunID, "<run id>")
	}
	return s
}

// short is a run id's first eight characters.
func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func stateText(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
