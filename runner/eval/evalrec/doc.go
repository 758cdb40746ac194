// Package evalrec is the machinery that agentdesk's evaluations (test
// suites, runner/suite; routing suites, runner/route) share: the three
// modes, the recording of one case sample in a file beside its suite, the
// fingerprint of what was sent and the staleness it tells, the
// per-provider limit on concurrent model calls, and the JUnit and GitHub
// writers of a report.
//
// # How a suite runner uses it
//
// For every sample of every case:
//
//	now := evalrec.Fingerprint{
//		evalrec.NewPart(evalrec.PartSystemPrompt, system, "agents/x.md"),
//		evalrec.NewPart(evalrec.PartModel, model.Provider+"/"+model.ModelID, ""),
//	}
//	path := evalrec.Path(suitePath, caseName, sample)
//	d := evalrec.Decide(mode, path, now)
//	switch d.Action {
//	case evalrec.Replay:  // play d.Recording.Tape("run") (runner.Spec.Replay, Fast)
//	case evalrec.Live:    // run against the model (runner.Spec.Record) and, when
//	                      // d.Save, keep the run's stream.cassette:
//	                      // evalrec.Save(path, &evalrec.Recording{…, Fingerprint: now,
//	                      //     Tapes: []evalrec.Tape{{Name: "run", Cassette: tape}}})
//	case evalrec.Stale:   // report d.Changes (never a pass)
//	case evalrec.Missing: // report d.Err (it says how to record)
//	case evalrec.Broken:  // report d.Err (a recording that does not read)
//	}
//
// Model calls go through a Limiter keyed by provider (ProviderKey), so that
// --jobs N means at most N calls per provider at once:
//
//	release, err := lim.Acquire(ctx, evalrec.ProviderKey(model))
//	defer release()
//
// # Where recordings live
//
// Beside the suite, in a folder named after it: the recordings of
// agents/code-analyst.test.yaml are in agents/code-analyst.test.recordings/,
// one file per case and sample (<case>.<sample>.recording, see FileName).
// The runtime reads only the top-level *.md files of the agents folder, so
// it ignores both the suite and the folder. They are meant to be committed:
// everything in them was redacted by the runner when it was recorded.
//
// # The recording file (version 1)
//
// UTF-8 text, one JSON object a line. The first line is the header:
//
//	{"type":"recording","version":1,"kind":"test","suite":"code-analyst.test.yaml",
//	 "case":"finds the port","sample":1,"recorded_at":"…",
//	 "fingerprint":[{"name":"system prompt","sha256":"…"},{"name":"model","sha256":"…","value":"ollama/qwen3:30b"},…]}
//
// Then each tape (a cassette, format runner/cassette) as a tape line that
// says how many lines follow, and those lines:
//
//	{"type":"tape","name":"run","lines":12}
//	{"type":"cassette",…}
//	…
package evalrec
