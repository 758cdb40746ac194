// Package runfolder owns a trial run's folder and its records:
// <runs-dir>/<run-id>/ with run.json (Record), result.md (ResultMarkdown),
// transcript.jsonl (TranscriptEntry), truncated-output.md and the other
// artifacts, each written atomically (Write), and reading past runs back
// (ListRuns, LoadRun, ResolveRunID, ArtifactFiles). Everything it is given
// to write is already redacted.
package runfolder
