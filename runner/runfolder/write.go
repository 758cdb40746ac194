package runfolder

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/agentdesk/agentdesk/preview/atomicfile"
)

// Write writes the artifacts of a finished run, run.json last;
// tape is the cassette's text, when recording; extra are more files, by
// slash-separated path inside the folder (changes.patch, the session
// folder's files).
func Write(rec *Record, transcript []TranscriptEntry, tape []byte, extra map[string][]byte) error {
	var errs []error
	write := func(name string, data []byte) {
		if err := atomicfile.Replace(filepath.Join(rec.Dir, name), data, 0o600); err != nil {
			errs = append(errs, err)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(extra)) {
		full := filepath.Join(rec.Dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
			errs = append(errs, err)
			continue
		}
		write(filepath.FromSlash(name), extra[name])
	}
	for _, f := range rec.Files {
		switch f {
		case TruncatedOutputFile:
			write(f, []byte(TruncatedMarkdown(rec)))
		case StreamFile:
			write(f, tape)
		}
	}
	if data, err := EncodeTranscript(transcript); err != nil {
		errs = append(errs, fmt.Errorf("encoding the transcript of run %s: %w", rec.RunID, err))
	} else {
		write(TranscriptFile, data)
	}
	write(ResultFile, []byte(ResultMarkdown(rec)))
	if err := WriteRecord(rec); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// WriteRecord writes run.json.
func WriteRecord(rec *Record) error {
	data, err := rec.MarshalIndent()
	if err != nil {
		return err
	}
	return atomicfile.Replace(filepath.Join(rec.Dir, RunFile), data, 0o600)
}
