package evalrec

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentdesk/agentdesk/runner"
	"github.com/agentdesk/agentdesk/runner/cassette"
	"github.com/agentdesk/agentdesk/runner/runfolder"
)

func sampleTape(text string) *cassette.Cassette {
	return &cassette.Cassette{
		Header: cassette.Header{Version: 1, Protocol: "openai", Model: "m", Tools: []string{}},
		Calls: []*cassette.Call{{N: 1, Status: 200, ContentType: "text/event-stream",
			Chunks: []cassette.Chunk{{At: 5 * time.Millisecond, Data: []byte("data: " + text + "\n\n")}},
			End:    &cassette.End{At: 900 * time.Millisecond, How: cassette.EndEOF}}},
	}
}

func TestRecordingRoundTrip(t *testing.T) {
	rec := &Recording{
		Kind: "test", Suite: "a.test.yaml", Case: "finds it", Sample: 2,
		RecordedAt:  time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Fingerprint: Fingerprint{NewPart(PartModel, "p/m", ""), NewPart(PartSystemPrompt, strings.Repeat("long ", 100), "agents/a.md")},
		Tapes:       []Tape{{TapeRun, sampleTape("one")}, {TapeJudge, sampleTape("two\nlines")}},
	}
	path := Path(filepath.Join(t.TempDir(), "agents", "a.test.yaml"), rec.Case, rec.Sample)
	if err := Save(path, rec); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join("a.test.recordings", "finds-it-"); !strings.Contains(path, want) {
		t.Errorf("path %s lacks %s", path, want)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Case != rec.Case || got.Sample != 2 || got.Kind != "test" || !got.RecordedAt.Equal(rec.RecordedAt) {
		t.Errorf("header: %+v", got)
	}
	if len(Compare(got.Fingerprint, rec.Fingerprint)) != 0 {
		t.Errorf("fingerprint changed in the round trip: %+v", got.Fingerprint)
	}
	for _, name := range []string{TapeRun, TapeJudge} {
		a, _ := rec.Tape(name).Encode()
		b, _ := got.Tape(name).Encode()
		if !bytes.Equal(a, b) {
			t.Errorf("tape %s:\n%s\nwant\n%s", name, b, a)
		}
	}
	if got.Tape("nope") != nil {
		t.Error("a tape that is not there")
	}
	if p, _ := got.Fingerprint.Get(PartSystemPrompt); p.Value != "" {
		t.Error("a long value is kept verbatim")
	}
	if p, _ := got.Fingerprint.Get(PartModel); p.Value != "p/m" {
		t.Errorf("short value: %q", p.Value)
	}
}

func TestParseErrors(t *testing.T) {
	good, _ := (&Recording{Tapes: []Tape{{TapeRun, sampleTape("x")}}}).Encode()
	lines := strings.SplitAfter(string(good), "\n")
	tests := []struct{ name, text, want string }{
		{"empty", "", "line 1: empty"},
		{"not a header", `{"type":"cassette"}` + "\n", "line 1: not a recording header"},
		{"newer", `{"type":"recording","version":9}` + "\n", "version 9"},
		{"no tape line", lines[0] + lines[2], "line 2: expected a tape line"},
		{"too few lines", lines[0] + strings.Replace(lines[1], `"lines":`, `"lines":9`, 1) + strings.Join(lines[2:], ""), "says 9"},
		{"bad cassette", lines[0] + lines[1] + lines[2] + `{"type":"chunk","call":7}` + "\n" + strings.Join(lines[4:], ""), "line 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.text))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err %v, want %q", err, tt.want)
			}
		})
	}
}

func TestDecide(t *testing.T) {
	dir := t.TempDir()
	suite := filepath.Join(dir, "a.test.yaml")
	now := Fingerprint{NewPart(PartSystemPrompt, "be brief", "agents/a.md"), NewPart(PartModel, "p/m1", "")}
	path := Path(suite, "c", 1)
	if err := Save(path, &Recording{Fingerprint: now, Tapes: []Tape{{TapeRun, sampleTape("x")}}}); err != nil {
		t.Fatal(err)
	}
	missing := Path(suite, "other", 1)
	broken := Path(suite, "broken", 1)
	os.WriteFile(broken, []byte("garbage\n"), 0o644)
	edited := Fingerprint{NewPart(PartSystemPrompt, "be very brief", "agents/a.md"), NewPart(PartModel, "p/m2", "")}
	tests := []struct {
		name   string
		mode   Mode
		path   string
		now    Fingerprint
		action Action
		save   bool
		msg    string
	}{
		{"record runs live and saves", Record, path, now, Live, true, ""},
		{"live-only runs the recorded live and keeps nothing", LiveOnly, path, now, Live, false, ""},
		{"live-only runs the stale live", LiveOnly, path, edited, Live, false, ""},
		{"live-only runs the missing live", LiveOnly, missing, now, Live, false, ""},
		{"default replays", Default, path, now, Replay, false, ""},
		{"offline replays", Offline, path, now, Replay, false, ""},
		{"default runs the missing live", Default, missing, now, Live, false, ""},
		{"offline reports the missing", Offline, missing, now, Missing, false, "record it with --record"},
		{"broken", Default, broken, now, Broken, false, "not a recording header"},
		{"broken says how to record again", Default, broken, now, Broken, false, "; record it again with --record"},
		{"stale offline", Offline, path, edited, Stale, false, "system prompt changed: agents/a.md edited; model changed: p/m1 → p/m2"},
		{"stale default", Default, path, edited, Stale, false, "system prompt changed"},
		{"part added", Offline, path, append(now, NewPart(PartJudge, "is it kind?", "")), Stale, false, "judge added since the recording"},
		{"part the recording has and now lacks is not compared", Offline, path, now[:1], Replay, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.mode, tt.path, tt.now, testWords)
			if d.Action != tt.action || d.Save != tt.save {
				t.Fatalf("got %v save=%v, want %v save=%v (%v)", d.Action, d.Save, tt.action, tt.save, d.Err)
			}
			msg := ChangeList(d.Changes)
			if d.Err != nil {
				msg = d.Err.Error()
			}
			if !strings.Contains(msg, tt.msg) {
				t.Errorf("message %q lacks %q", msg, tt.msg)
			}
			if (tt.action == Replay || tt.action == Stale) && d.Recording == nil {
				t.Error("no recording")
			}
		})
	}
}

func TestModeFor(t *testing.T) {
	if _, err := ModeFor(true, true); err == nil {
		t.Error("both flags accepted")
	}
	for _, tt := range []struct {
		r, o bool
		want Mode
	}{{false, false, Default}, {true, false, Record}, {false, true, Offline}} {
		if m, _ := ModeFor(tt.r, tt.o); m != tt.want {
			t.Errorf("ModeFor(%v,%v) = %v", tt.r, tt.o, m)
		}
	}
}

func TestFileName(t *testing.T) {
	tests := []struct{ name, want string }{
		{"finds-the-port", "finds-the-port.1.recording"},
		{"Finds the port", "finds-the-port-"},
		{"../../etc/passwd", "etc-passwd-"},
		{"日本語", ""},
		{"", ""},
	}
	seen := map[string]string{}
	for _, tt := range tests {
		got := FileName(tt.name, 1)
		if !strings.HasPrefix(got, tt.want) || strings.ContainsAny(got, `/\ `) || strings.HasPrefix(got, ".") {
			t.Errorf("FileName(%q) = %q, want prefix %q and a plain name", tt.name, got, tt.want)
		}
		if other, ok := seen[got]; ok {
			t.Errorf("%q and %q share %s", tt.name, other, got)
		}
		seen[got] = tt.name
	}
	if FileName("a", 1) == FileName("a", 2) {
		t.Error("samples share a file")
	}
	if got := Folder("agents/x.test.yaml"); got != filepath.Join("agents", "x.test.recordings") {
		t.Errorf("Folder = %s", got)
	}
}

func TestLimiter(t *testing.T) {
	const n, jobs = 3, 20
	l := NewLimiter(n)
	var mu sync.Mutex
	inFlight := map[string]int{}
	peak := map[string]int{}
	var wg sync.WaitGroup
	var done atomic.Int32
	// Each job holds its slot until n jobs of its key hold theirs (or all
	// of them have finished), so the peak reaches n exactly when the limit
	// holds.
	gates := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	for i := 0; i < jobs; i++ {
		key := []string{"a", "b"}[i%2]
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := l.Acquire(context.Background(), key)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inFlight[key]++
			peak[key] = max(peak[key], inFlight[key])
			if inFlight[key] == n {
				select {
				case <-gates[key]:
				default:
					close(gates[key])
				}
			}
			mu.Unlock()
			<-gates[key]
			mu.Lock()
			inFlight[key]--
			mu.Unlock()
			release()
			release() // twice is harmless
			done.Add(1)
		}()
	}
	wg.Wait()
	if peak["a"] != n || peak["b"] != n || done.Load() != jobs {
		t.Errorf("peaks %v, done %d; want %d each, %d", peak, done.Load(), n, jobs)
	}
	// A full key waits for ctx.
	full := NewLimiter(1)
	r1, _ := full.Acquire(context.Background(), "k")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := full.Acquire(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
	r1()
	if ProviderKey(runfolder.Model{Type: runner.ReplayProviderType}) != "replay" || ProviderKey(runfolder.Model{Provider: "Ollama", Endpoint: "x"}) != "ollama x" {
		t.Error("ProviderKey")
	}
}

func TestWriteJUnitParses(t *testing.T) {
	var b bytes.Buffer
	err := WriteJUnit(&b, "agentdesk test", []JUnitSuite{{
		Name: "agents/a.test.yaml", File: "agents/a.test.yaml", Time: 1500 * time.Millisecond,
		Cases: []JUnitCase{
			{Name: "passes", Line: 3, Time: time.Second},
			{Name: "fails <&>", Line: 9, Status: JUnitFailure, Type: "fail", Message: "contains \"x\"\nmore", Detail: "output:\x01 bad\x1b[31m"},
			{Name: "errs", Status: JUnitError, Type: "error", Message: "boom"},
			{Name: "stale", Status: JUnitFailure, Type: "stale", Message: "system prompt changed"},
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name    string `xml:"name,attr"`
				Line    int    `xml:"line,attr"`
				Failure *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct{} `xml:"error"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if got.Tests != 4 || got.Failures != 2 || got.Errors != 1 || len(got.Suites) != 1 || len(got.Suites[0].Cases) != 4 {
		t.Fatalf("counts: %+v", got)
	}
	c := got.Suites[0].Cases[1]
	if c.Name != "fails <&>" || c.Line != 9 || c.Failure == nil || c.Failure.Message != `contains "x"` || c.Failure.Type != "fail" {
		t.Errorf("case: %+v %+v", c, c.Failure)
	}
	if got.Suites[0].Cases[2].Error == nil {
		t.Error("error case")
	}
}

func TestGitHubAnnotation(t *testing.T) {
	var b bytes.Buffer
	GitHubAnnotation(&b, "error", "agents/a,b.test.yaml", 4, "case: one", "50% failed\nsecond")
	want := "::error file=agents/a%2Cb.test.yaml,line=4,title=case%3A one::50%25 failed%0Asecond\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

func FuzzParse(f *testing.F) {
	good, _ := (&Recording{Kind: "test", Fingerprint: Fingerprint{NewPart("a", "b", "")}, Tapes: []Tape{{TapeRun, sampleTape("x")}}}).Encode()
	f.Add(good)
	f.Add([]byte(`{"type":"recording","version":1}` + "\n" + `{"type":"tape","name":"run","lines":1}` + "\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Parse(data)
		if err != nil {
			return
		}
		out, err := r.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(out); err != nil {
			t.Fatalf("re-encoded recording does not parse: %v\n%s", err, out)
		}
	})
}

// TestParseKeepsNoData: what Parse returns holds none of its input's
// bytes, so Load may read the next file into the same buffer.
func TestParseKeepsNoData(t *testing.T) {
	rec := &Recording{Kind: "test", Suite: "a.test.yaml", Case: "c", Sample: 1,
		Fingerprint: Fingerprint{NewPart(PartModel, "p/m", "")},
		Tapes:       []Tape{{TapeRun, sampleTape(`{"choices":[{"delta":{"content":"word"}}]}`)}, {TapeJudge, sampleTape("two\nlines \u00e9")}}}
	data, err := rec.Encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := got.Encode()
	for i := range data {
		data[i] = 'X'
	}
	if again, _ := got.Encode(); !bytes.Equal(again, want) {
		t.Errorf("the parsed recording changed with its input:\n%s\nwant\n%s", again, want)
	}
}

// BenchmarkLoad reads and parses a recording file, as each sample of an
// offline replay does.
func BenchmarkLoad(b *testing.B) {
	tape := sampleTape("x")
	for i := 0; i < 200; i++ {
		tape.Calls[0].Chunks = append(tape.Calls[0].Chunks, cassette.Chunk{At: time.Duration(i+5) * time.Millisecond, Data: []byte(`data: {"choices":[{"delta":{"content":"word "}}]}` + "\n\n")})
	}
	path := filepath.Join(b.TempDir(), "r.recording")
	if err := Save(path, &Recording{Fingerprint: Fingerprint{NewPart("a", "b", "")}, Tapes: []Tape{{TapeRun, tape}}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Load(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkParse(b *testing.B) {
	tape := sampleTape("x")
	for i := 0; i < 200; i++ {
		tape.Calls[0].Chunks = append(tape.Calls[0].Chunks, cassette.Chunk{At: time.Duration(i+5) * time.Millisecond, Data: []byte(`data: {"choices":[{"delta":{"content":"word "}}]}` + "\n\n")})
	}
	data, _ := (&Recording{Fingerprint: Fingerprint{NewPart("a", "b", "")}, Tapes: []Tape{{TapeRun, tape}}}).Encode()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Parse(data); err != nil {
			b.Fatal(err)
		}
	}
}

// testWords are the command line's words as cmd/agentdesk fills them
// (evalWords; its tests assert them in what the commands print).
var testWords = Words{Test: "agentdesk test", Route: "agentdesk route --suite", Record: "--record", Case: "--case", Models: "--models", Demo: "--demo"}
