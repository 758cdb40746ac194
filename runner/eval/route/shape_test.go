package route

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
	"github.com/agentdesk/agentdesk/runner/wire"
)

// A recording made before the layer moved to the per-turn message (its
// fingerprint has no request-shape part) is stale, and its message says
// why; one made with another shape names both. Nothing crashes.
func TestRecordingBeforeThePerTurnLayerIsStale(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	f.srv.SetChooser(chooser())
	path := f.suite(t)
	f.runSuite(t, path, SuiteOptions{Mode: evalrec.Record, Jobs: 1})
	files, err := os.ReadDir(evalrec.Folder(path))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	rewrite := func(change func(evalrec.Fingerprint) evalrec.Fingerprint) {
		for _, fi := range files {
			p := filepath.Join(evalrec.Folder(path), fi.Name())
			r, err := evalrec.Load(p)
			if err != nil {
				t.Fatal(err)
			}
			r.Fingerprint = change(r.Fingerprint)
			if err := evalrec.Save(p, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	rewrite(func(fp evalrec.Fingerprint) evalrec.Fingerprint {
		var out evalrec.Fingerprint
		for _, p := range fp {
			if p.Name != PartRequestShape {
				out = append(out, p)
			}
		}
		return out
	})
	off := f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
	for _, c := range off.Cases {
		if c.Status != Stale || !strings.Contains(c.Message, "request shape added since the recording: the recording was made when the [available-subagents] layer was a system message") {
			t.Errorf("%s: %s %q", c.Case.Name, c.Status, c.Message)
		}
	}
	rewrite(func(fp evalrec.Fingerprint) evalrec.Fingerprint {
		return append(fp, evalrec.NewPart(PartRequestShape, "layer per turn of NetClaw 0000000", ""))
	})
	off = f.runSuite(t, path, SuiteOptions{Mode: evalrec.Offline})
	for _, c := range off.Cases {
		if c.Status != Stale || !strings.Contains(c.Message, "request shape changed: layer per turn of NetClaw 0000000 → "+RequestShape) {
			t.Errorf("%s: %s %q", c.Case.Name, c.Status, c.Message)
		}
	}
}

// route --show-request: the request as sent, in text and as JSON, with the
// layer in the per-turn message (golden files).
func TestShowRequestGolden(t *testing.T) {
	f := newFixture(t, wire.OpenAI, "")
	p, err := Prepare(f.question("Please review my diff before I push.", preview.Personal))
	if err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "show-request.txt", []byte(p.Render()))
	j, err := json.MarshalIndent(p.JSON(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "show-request.json", append(j, '\n'))
	if len(p.JSON().Systems) != 1 || p.JSON().Layers[0].Name != "available-subagents" || !p.JSON().Layers[0].PerTurn ||
		p.JSON().Messages[0].Text != "[system: "+p.Frontline.Layer+"]" {
		t.Errorf("json %+v", p.JSON())
	}
}
