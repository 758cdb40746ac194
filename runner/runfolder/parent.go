package runfolder

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf16"

	"github.com/agentdesk/agentdesk/lint/termsafe"
	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/preview"
	"github.com/agentdesk/agentdesk/preview/request"
)

// ParentRecord is what the parent session receives for a run, as NetClaw
// would hand it over (preview.AcceptanceRecord, preview.TerminalRecord,
// preview.ParentNotice: the commits are there): the acceptance record its
// spawn_agent call returns at once, the notice that arrives as a user
// message when the run ends, the terminal record, and the file handoff.
// A frontline run (agentdesk route) has none. Runs made before agentdesk
// recorded it have none either (run.json has no "parent").
type ParentRecord struct {
	// Acceptance is spawn_agent's result, before the run starts.
	Acceptance preview.AcceptanceRecord `json:"acceptance"`
	// Notice is the user message that tells the parent the run ended.
	Notice string `json:"notice"`
	// Terminal is the terminal record (ChildRunDelivery.TerminalBody);
	// check_agent_run returns it too.
	Terminal preview.TerminalRecord `json:"terminal"`
	// Handoff is what the run read and changed, whatever its outcome; the
	// parent receives it (working_context) only for a Completed or
	// Partial run.
	Handoff FileHandoff `json:"handoff"`
}

// FileHandoff is the structured file handoff, as NetClaw builds it
// (SubAgentActor's ChildFileActivityTracker
// @502847bf6f99092f50944cea1460acdb89819e23, the newest netclaw-dev
// version stored, and SubAgentSpawner.EnrichWorkingContextResultAsync
// @28ddf700169220c86c596debd17d5d8dc03bfe7c): absolute paths, each list
// sorted by ordinal (UTF-16 code unit) order.
type FileHandoff struct {
	// Read are the files the run read with successful file_read calls
	// (ReadFiles).
	Read []string `json:"read"`
	// Changed are the files successful file_write and file_edit calls
	// changed (ConfirmedChangedFiles), in the project or elsewhere (the
	// session folder): a shell command's writes are not among them.
	Changed []string `json:"changed"`
	// Observed are the files git shows changed in the run's copy of the
	// project, less those git showed changed in the project and the
	// confirmed ones (ObservedChangedFiles); none when the project is not
	// a git repository. Runs made before agentdesk recorded it have none.
	Observed []string `json:"observed,omitempty"`
}

// SourceOperation is the operation that started the run, as the terminal
// record names it: spawn_agent, or skill_load for a routed skill
// (ChildRunDelivery.ToolName @28ddf700 names skill_load for a skill's
// run; inferred for a skill the model loads itself).
func (r *Record) SourceOperation() string {
	if r.Skill != "" {
		return "skill_load"
	}
	return preview.SpawnAgentTool
}

// NewParentRecord builds what the parent receives for the ended run rec
// (rec.Dir is its folder); nil for a frontline run. git is the project's
// git state at the end (nil when unknown): the working context's
// worktree, branch and head. observed are the files git shows changed in
// the run's copy beyond the project's own changes (the runner works them
// out from the overlay: ObservedChanges); the confirmed ones are taken
// out here.
func NewParentRecord(rec *Record, git *request.GitState, observed []string) *ParentRecord {
	if rec.Frontline != nil || rec.RunID == "" {
		return nil
	}
	p := &ParentRecord{Acceptance: preview.Acceptance(rec.RunID, rec.Agent), Handoff: handoff(rec, observed)}
	reason := rec.Reason
	p.Notice = preview.ParentNotice(rec.RunID, rec.Agent, string(rec.Outcome), reason, filepath.Join(rec.Dir, ResultFile))
	t := preview.TerminalRecord{
		RunID: rec.RunID, ScopeID: p.Acceptance.ScopeID, State: rec.State, SourceOperation: rec.SourceOperation(),
		Outcome: string(rec.Outcome), Output: rec.Output, Findings: []string{},
	}
	if reason != "" {
		t.Reason = &reason
	}
	if rec.Outcome == vocab.Completed || rec.Outcome == vocab.Partial {
		// A successful run carries its working context and its
		// locations: its log (the transcript) and its artifact folder.
		wc := &preview.WorkingContextDelta{ReadFiles: p.Handoff.Read, ConfirmedChangedFiles: p.Handoff.Changed, ObservedChangedFiles: p.Handoff.Observed}
		if project := handoffProject(rec); project != "" {
			wc.ProjectDirectory = ptr(project)
		}
		if git != nil && git.Kind == request.GitAvailable {
			wc.Worktree, wc.Branch, wc.Head = ptr(git.Worktree), optional(git.Branch), optional(git.Head)
		}
		t.WorkingContext = wc
		t.LogPath, t.ArtifactDirectory = ptr(filepath.Join(rec.Dir, TranscriptFile)), ptr(rec.Dir)
	} else if rec.Error != "" {
		// A failed run's output is its failure text.
		t.Output = rec.Error
	}
	p.Terminal = t
	return p
}

// handoffProject is the project folder the files rec hands over are in:
// its own, or for a replay with none the recorded run's, whose tool calls
// and changes the replay shows (so it hands over what the recorded run's
// parent received).
func handoffProject(rec *Record) string {
	if rec.Project == "" && rec.Replay != nil {
		return rec.Replay.Project
	}
	return rec.Project
}

// handoff is what rec hands over, in handoffProject: the files its
// answered file_read calls read, the files its answered file_write and
// file_edit calls changed, and observed less the changed ones, each list
// without repeats, in ordinal order (ChildFileActivityTracker.BuildResult
// @502847bf; EnrichWorkingContextResultAsync @28ddf700 takes the
// confirmed files out of the observed ones and orders the rest).
func handoff(rec *Record, observed []string) FileHandoff {
	h := FileHandoff{Read: []string{}, Changed: []string{}, Observed: []string{}}
	for _, tc := range rec.ToolCalls {
		path := callPath(rec, tc)
		switch {
		case path == "":
		case tc.Name == "file_read":
			h.Read = appendNew(h.Read, path)
		default:
			h.Changed = appendNew(h.Changed, path)
		}
	}
	for _, path := range observed {
		if !slices.Contains(h.Changed, path) {
			h.Observed = appendNew(h.Observed, path)
		}
	}
	for _, l := range [][]string{h.Read, h.Changed, h.Observed} {
		SortOrdinal(l)
	}
	return h
}

// appendNew appends s to l unless l holds it.
func appendNew(l []string, s string) []string {
	if slices.Contains(l, s) {
		return l
	}
	return append(l, s)
}

// SortOrdinal sorts paths as .NET's StringComparer.Ordinal orders them:
// by UTF-16 code unit, which differs from Go's byte order only for
// characters from U+E000 up.
func SortOrdinal(paths []string) {
	slices.SortFunc(paths, func(a, b string) int {
		return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
	})
}

// callPath is the clean absolute path an answered, complete file_read,
// file_write or file_edit call of rec names (the tracker's Begin: a
// relative path is taken in the project), or "" for any other call, one
// that failed or was refused, or one naming no path (or a relative one,
// in a run with no project, recorded or its own).
func callPath(rec *Record, tc ToolCall) string {
	switch tc.Name {
	case "file_read", "file_write", "file_edit":
	default:
		return ""
	}
	if tc.Result == nil || tc.Result.Error || tc.Result.Refused || !tc.Complete {
		return ""
	}
	path := argPath(tc.Arguments)
	if path == "" {
		return ""
	}
	if !filepath.IsAbs(path) {
		project := handoffProject(rec)
		if project == "" {
			return ""
		}
		path = filepath.Join(project, path)
	}
	return filepath.Clean(path)
}

// argPath is the Path argument of a call, found as the runtime finds
// arguments (exact name, else without regard to case); "" for none.
func argPath(args string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	raw, ok := m["Path"]
	if !ok {
		for k, v := range m {
			if strings.EqualFold(k, "path") {
				raw, ok = v, true
				break
			}
		}
	}
	var s string
	if !ok || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return strings.TrimSpace(s)
}

func ptr(s string) *string { return &s }

// optional is nil for "", else &s.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Lines render what the parent receives for a person to read, one item a
// line, control characters made visible: the acceptance record, the
// notice, the terminal record (NetClaw's JSON), the files read, changed
// with file_write and file_edit, and changed otherwise (seen by git). result.md, run's report and the Run pane show them.
func (p *ParentRecord) Lines() []string {
	if p == nil {
		return nil
	}
	files := func(fs []string) string {
		if len(fs) == 0 {
			return "none"
		}
		return strings.Join(fs, ", ")
	}
	handedOver := "the parent gets them in working_context"
	if p.Terminal.WorkingContext == nil {
		handedOver = "not handed over: the run did not succeed"
	}
	return []string{
		"spawn_agent returns at once: " + termsafe.Escape(p.Acceptance.Text()),
		"notice (user message): " + termsafe.Escape(p.Notice),
		"terminal record: " + termsafe.Escape(p.Terminal.Text()),
		"files read: " + termsafe.Escape(files(p.Handoff.Read)),
		"files changed (file_write, file_edit): " + termsafe.Escape(files(p.Handoff.Changed)),
		"files changed otherwise (git): " + termsafe.Escape(files(p.Handoff.Observed)) + " (" + handedOver + ")",
	}
}

// Summary says in one line what the parent receives, for the Run pane
// (result.md and run.json hold the records themselves):
//
//	spawn_agent → Accepted (check_agent_run) · notice: Completed, result.md · files: 1 read, 1 changed
func (p *ParentRecord) Summary() string {
	if p == nil {
		return ""
	}
	outcome := p.Terminal.Outcome
	if p.Terminal.Reason != nil {
		outcome += " (" + *p.Terminal.Reason + ")"
	}
	handoff := fmt.Sprintf("%d read, %d changed", len(p.Handoff.Read), len(p.Handoff.Changed))
	if n := len(p.Handoff.Observed); n > 0 {
		handoff += fmt.Sprintf(", %d changed otherwise", n)
	}
	if p.Terminal.WorkingContext == nil {
		handoff += ", not handed over"
	}
	return termsafe.Escape(fmt.Sprintf("spawn_agent → %s (%s) · notice: %s, %s · files: %s",
		p.Acceptance.State, p.Acceptance.ControlTool, outcome, ResultFile, handoff))
}
