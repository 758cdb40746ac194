package request

import (
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
)

// joinedModelContext and joinedFirstMessage are ModelContext and
// FirstMessage as BuildModelContext and BuildUserMessage read: the
// non-blank pieces, joined by a blank line.
func joinedModelContext(a preview.Audience, w WorkingContext, storage *SessionStorage) string {
	if a == preview.Public {
		return ""
	}
	session := ""
	if storage != nil {
		session = storage.Block("")
	}
	var blocks []string
	for _, s := range []string{w.Block(), session} {
		if !netBlank(s) {
			blocks = append(blocks, s)
		}
	}
	return strings.Join(blocks, "\n\n")
}

func joinedFirstMessage(runtimeContext, modelContext, task string) string {
	var parts []string
	for _, s := range []string{runtimeContext, modelContext} {
		if !netBlank(s) {
			parts = append(parts, netTrim(s))
		}
	}
	if len(parts) == 0 {
		return task
	}
	return "Context:\n" + strings.Join(parts, "\n\n") + "\n\nTask:\n" + task
}

// The first message, made in one piece, is the joined pieces' message
// for every audience, with and without storage, a working context and a
// runtime context, blank or padded.
func TestFirstMessageIsTheJoinedPieces(t *testing.T) {
	st := ChildStorage("/runs/r1/session", "r1")
	works := []WorkingContext{{}, {Project: "/p", Git: GitState{Kind: GitNotRepository}}, {Project: "/p\x01", Git: GitState{Kind: GitSkipped}}}
	for _, a := range []preview.Audience{preview.Public, preview.Personal, preview.Team} {
		for _, w := range works {
			for _, storage := range []*SessionStorage{nil, &st} {
				want := joinedModelContext(a, w, storage)
				if got := ModelContext(a, w, storage); got != want {
					t.Fatalf("%v %+v %v: ModelContext\n%q\nwant\n%q", a, w, storage != nil, got, want)
				}
				for _, rc := range []string{"", "  \n", " the context \n"} {
					for _, task := range []string{"", "the task", " padded task \n"} {
						want := joinedFirstMessage(rc, want, task)
						r := &Request{Audience: a, runtimeContext: rc, task: task, working: w, workingBlock: w.Block()}
						if got := r.WithSession(storage).FirstMessage; got != want {
							t.Fatalf("%v %+v %v %q %q: first message\n%q\nwant\n%q", a, w, storage != nil, rc, task, got, want)
						}
						if got := FirstMessage(rc, ModelContext(a, w, storage), task); got != want {
							t.Fatalf("%v %q %q: FirstMessage\n%q\nwant\n%q", a, rc, task, got, want)
						}
					}
				}
			}
		}
	}
}

// BenchmarkWithSession names a trial's storage in its first message, as
// every sample of a suite does once its run folder exists.
func BenchmarkWithSession(b *testing.B) {
	r := &Request{Audience: preview.Personal, runtimeContext: "ctx", task: "Which port does service-1 listen on?",
		working: WorkingContext{Project: "/p", Git: GitState{Kind: GitNotRepository}}}
	r.workingBlock = r.working.Block()
	st := ChildStorage("/runs/r1/session", "r1")
	b.ReportAllocs()
	for b.Loop() {
		r.WithTask(r.task, r.runtimeContext).WithSession(&st)
	}
}
