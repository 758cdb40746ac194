package demo

import (
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/lint/suitefile"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// FrontlineSuite is the demo's routing suite, in its agents folder. Its
// recordings are the demo's recorded frontline: they answer `agentdesk
// route --demo REQUEST` and the browser's R for the requests it holds.
const FrontlineSuite = "frontline.route.yaml"

// frontlineSuite reads the embedded routing suite.
func frontlineSuite() *suitefile.RouteSuite {
	data, err := fs.ReadFile(Home(), "agents/"+FrontlineSuite)
	if err != nil {
		return &suitefile.RouteSuite{}
	}
	return suitefile.ParseRoute(FrontlineSuite, data)
}

// FrontlineRequests lists the requests the demo has recorded the
// frontline's answers to, in the suite's order. It reads the embedded
// home, not a disk.
func FrontlineRequests() []string {
	var out []string
	for _, c := range frontlineSuite().Cases {
		out = append(out, strings.TrimSpace(c.Request))
	}
	return out
}

// TestedAgents lists the agents the demo's test suites are for
// (<agent>.test.yaml in its agents folder), sorted. It reads the embedded
// home, not a disk.
func TestedAgents() []string {
	names, _ := fs.Glob(Home(), "agents/*.test.yaml")
	out := make([]string, 0, len(names))
	for _, n := range names {
		out = append(out, strings.TrimSuffix(path.Base(n), ".test.yaml"))
	}
	return out // fs.Glob sorts
}

// FrontlineReplays returns the recorded frontline's answers to request in
// the demo home h (made by Setup): the run tapes of the routing suite's
// case with that request (compared without regard to case or surrounding
// space), one per sample, and the recordings they come from. A request
// the demo has not recorded is an error that lists the ones it has.
func FrontlineReplays(h lint.Home, request string) (tapes []*cassette.Cassette, sources []string, err error) {
	path := filepath.Join(h.Agents, FrontlineSuite)
	s := suitefile.LoadRoute(path)
	want := strings.TrimSpace(request)
	for _, c := range s.Cases {
		if !strings.EqualFold(strings.TrimSpace(c.Request), want) {
			continue
		}
		for n := 1; n <= c.Samples; n++ {
			rec := evalrec.Path(path, c.Name, n)
			r, err := evalrec.Load(rec)
			if err != nil {
				return nil, nil, fmt.Errorf("the demo's recording of %q: %w", c.Name, err)
			}
			tape := r.Tape(evalrec.TapeRun)
			if tape == nil {
				return nil, nil, fmt.Errorf("the demo's recording %s holds no run", rec)
			}
			tapes, sources = append(tapes, tape), append(sources, rec)
		}
		return tapes, sources, nil
	}
	var quoted []string
	for _, r := range FrontlineRequests() {
		quoted = append(quoted, fmt.Sprintf("%q", r))
	}
	return nil, nil, fmt.Errorf("the demo has no model to ask, only the frontline's recorded answers to %s: ask one of these", strings.Join(quoted, ", "))
}
