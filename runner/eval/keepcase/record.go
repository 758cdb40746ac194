package keepcase

import (
	"context"
	"fmt"

	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/eval/suite"
)

// Record records case name of the suite at path from a run's recording
// (tape, read from source): a suite run in Record mode whose one sample
// replays the tape and keeps it as the case's recording, so that `agentdesk
// test --offline` replays it. o carries the runner, catalog and NetClaw;
// its Mode, Select and Seed are set here. It returns the case's result.
func Record(ctx context.Context, o suite.Options, path, name string, tape *cassette.Cassette, source string) (*suite.CaseResult, error) {
	s := suitefile.Load(path)
	suitefile.Check(s, o.Catalog)
	if s.Broken() {
		return nil, &BrokenError{Path: path, Diagnostics: errorsOf(s.Diagnostics)}
	}
	o.Mode = evalrec.Record
	o.Select = func(_, c string) bool { return c == name }
	o.Seed = func(_, c string, n int) (*cassette.Cassette, string) {
		if c != name || n != 1 {
			return nil, ""
		}
		return tape, source
	}
	for _, r := range suite.Run(ctx, []*suitefile.Suite{s}, o) {
		for _, c := range r.Cases {
			if c.Case.Name == name {
				return c, nil
			}
		}
		if r.Err != "" {
			return nil, fmt.Errorf("%s: %s", path, r.Err)
		}
	}
	return nil, fmt.Errorf("%s has no case %q after keeping it", path, name)
}
