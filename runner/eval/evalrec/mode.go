package evalrec

import (
	"errors"
	"fmt"
	"io/fs"
)

// Mode says where a suite's samples come from.
type Mode int

const (
	// Default replays what is recorded and runs live what is not (without
	// keeping it).
	Default Mode = iota
	// Record runs every sample live and keeps its recording, replacing the
	// one before.
	Record
	// Offline replays only: a sample that is not recorded is reported, and
	// no model is called.
	Offline
	// LiveOnly runs every sample live and keeps nothing: what the agent
	// does now, recordings or not (agentdesk test --watch --live).
	LiveOnly
)

// String returns "default", "record" or "offline".
func (m Mode) String() string {
	switch m {
	case Record:
		return "record"
	case Offline:
		return "offline"
	case LiveOnly:
		return "live"
	}
	return "default"
}

// ErrModeConflict is ModeFor's answer to record and offline at once. The
// command line words it with the two flags.
var ErrModeConflict = errors.New("recording runs live and offline replays only: give one of them")

// ModeFor returns the mode of the record and offline choices (the
// command line's flags); both at once is ErrModeConflict.
func ModeFor(record, offline bool) (Mode, error) {
	switch {
	case record && offline:
		return Default, ErrModeConflict
	case record:
		return Record, nil
	case offline:
		return Offline, nil
	}
	return Default, nil
}

// Action is what to do with one sample.
type Action int

const (
	// Replay plays the recording (Decision.Recording).
	Replay Action = iota + 1
	// Live runs the sample against the model; Decision.Save says whether
	// to keep its recording.
	Live
	// Stale: the recording was made with something that has changed since
	// (Decision.Changes); the sample is not run.
	Stale
	// Missing: there is no recording and the mode is Offline; Decision.Err
	// says how to make one.
	Missing
	// Broken: the recording cannot be read; Decision.Err says why.
	Broken
)

// String names the action.
func (a Action) String() string {
	switch a {
	case Replay:
		return "replay"
	case Live:
		return "live"
	case Stale:
		return "stale"
	case Missing:
		return "not recorded"
	case Broken:
		return "broken recording"
	}
	return "?"
}

// Decision is what Decide says about one sample.
type Decision struct {
	Action Action
	// Save is set with Live in Record mode: keep the recording.
	Save bool
	// Recording is the recording read (Replay, Stale).
	Recording *Recording
	// Changes say what changed since the recording (Stale).
	Changes []Change
	// Err says why (Missing, Broken).
	Err error
}

// Decide says what to do with the sample recorded at path under mode,
// given the fingerprint of what would be sent now. Record mode runs live
// and saves; LiveOnly runs live and keeps nothing; otherwise the recording is read: missing, it runs live
// (Default) or is reported Missing (Offline); recorded with anything that
// differs from now, it is Stale in both modes; else it is replayed.
//
// The hints in Err use w.
func Decide(mode Mode, path string, now Fingerprint, w Words) Decision {
	switch mode {
	case Record:
		return Decision{Action: Live, Save: true}
	case LiveOnly:
		return Decision{Action: Live}
	}
	rec, err := Load(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if mode == Offline {
			return Decision{Action: Missing, Err: fmt.Errorf("not recorded: no %s; record it with %s (it calls the model once) and commit the file", path, w.Record)}
		}
		return Decision{Action: Live}
	case err != nil:
		return Decision{Action: Broken, Err: fmt.Errorf("%w; %s", err, w.RecordAgain())}
	}
	if ch := Compare(rec.Fingerprint, now); len(ch) > 0 {
		return Decision{Action: Stale, Recording: rec, Changes: ch}
	}
	return Decision{Action: Replay, Recording: rec}
}
