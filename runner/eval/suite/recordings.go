package suite

import (
	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// CaseRecordings says how a case's recordings stand against the catalog
// now, without running anything: how many of its samples are recorded,
// and what changed since, when a recording is stale.
type CaseRecordings struct {
	Case *suitefile.Case
	// Recorded counts the samples with an up-to-date recording; Stale
	// those recorded with something that has changed since (Changes says
	// what, for the first).
	Recorded, Stale int
	Changes         []string
	// Err says why the case cannot run (a broken case, an agent that is
	// not loaded), or why a recording cannot be read.
	Err string
}

// Recordings reads the recordings of every case of s and compares them
// with what a sample would send now (o.Catalog), as --offline would.
func Recordings(s *suitefile.Suite, o Options) []CaseRecordings {
	if o.JudgeRole == "" {
		o.JudgeRole = "Main"
	}
	x := &execution{o: o, memo: newRequestMemo()}
	agent, why := agentOf(o.Catalog, s.Agent)
	out := make([]CaseRecordings, len(s.Cases))
	for i, c := range s.Cases {
		cr := &out[i]
		cr.Case = c
		if err := caseError(c, agent, why); err != "" {
			cr.Err = err
			continue
		}
		for n := 1; n <= c.Repeat; n++ {
			d, err := x.decideOffline(s, c, agent, n)
			if err != nil {
				cr.Err = err.Error()
				break
			}
			cr.add(d)
		}
	}
	return out
}

// decideOffline decides, as --offline would, what becomes of sample n of
// case c of s (run by agent): what it would send now, fingerprinted,
// against its recording.
func (x *execution) decideOffline(s *suitefile.Suite, c *suitefile.Case, agent *lint.File, n int) (evalrec.Decision, error) {
	snt, err := x.resolve(s, c, nil, agent, n)
	if err != nil {
		return evalrec.Decision{}, err
	}
	now, err := x.sampleFingerprint(snt, c, agent)
	if err != nil {
		return evalrec.Decision{}, err
	}
	return evalrec.Decide(evalrec.Offline, evalrec.Path(s.Path, c.Name, n), now, x.o.Words), nil
}

// add counts a sample's decision: recorded, stale (the changes of the
// first stale one kept), or a recording that cannot be read.
func (cr *CaseRecordings) add(d evalrec.Decision) {
	switch d.Action {
	case evalrec.Replay:
		cr.Recorded++
	case evalrec.Stale:
		cr.Stale++
		if cr.Changes == nil {
			for _, ch := range d.Changes {
				cr.Changes = append(cr.Changes, ch.String())
			}
		}
	case evalrec.Broken:
		cr.Err = d.Err.Error()
	}
}
