package suite

import (
	"errors"
	"regexp"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// JudgePrompt is the judge's system prompt. It is part of every judged
// sample's fingerprint: changing it makes the recorded verdicts stale.
const JudgePrompt = `You are a strict test judge for an AI sub-agent. You are given a rubric and the output the sub-agent produced for a task. Decide whether the output meets the rubric. Judge only against the rubric, not against your own preferences.

Answer with exactly one line, and nothing else:
PASS: <one sentence saying why>
or
FAIL: <one sentence saying what is missing or wrong>`

// judgeName is the judge's name in its runs.
const judgeName = "agentdesk-judge"

// judgeAgent is the definition the judge runs as.
func judgeAgent() *lint.File {
	return &lint.File{
		Path:   "(agentdesk judge)",
		Status: lint.Loaded,
		Def:    &lint.Definition{Name: judgeName, Description: "Judges a sub-agent's output against a rubric.", Body: JudgePrompt, ModelRole: "Main"},
	}
}

// judgeTask is the judge's task for a rubric and an output.
func judgeTask(rubric, task, output string) string {
	return "Rubric:\n" + rubric + "\n\nThe sub-agent's task:\n" + task + "\n\nThe sub-agent's output:\n<<<\n" + output + "\n>>>\n\nDoes the output meet the rubric? Answer PASS: or FAIL: with one sentence."
}

// Verdict is a judge's answer.
type Verdict struct {
	// Pass is the verdict; Reason the judge's sentence.
	Pass   bool
	Reason string
}

var verdictRE = regexp.MustCompile(`(?i)^\W*(pass|fail)(?:ed)?\W*[:\-–—]\s*(.*)$`)

// ParseVerdict reads a judge's reply: its first non-blank line must be
// "PASS: reason" or "FAIL: reason" (any case, markdown emphasis allowed).
// Anything else is an error that quotes the reply: it never counts as a
// pass.
func ParseVerdict(reply string) (Verdict, error) {
	for _, l := range strings.Split(reply, "\n") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		m := verdictRE.FindStringSubmatch(l)
		if m == nil {
			break
		}
		reason := strings.TrimSpace(strings.Trim(m[2], "*_ "))
		return Verdict{Pass: strings.EqualFold(m[1], "pass"), Reason: reason}, nil
	}
	shown := strings.TrimSpace(reply)
	if r := []rune(shown); len(r) > 300 {
		shown = string(r[:300]) + "…"
	}
	if shown == "" {
		return Verdict{}, errors.New("the judge's reply is empty, not a verdict")
	}
	return Verdict{}, errors.New("the judge's reply is not a verdict (PASS: or FAIL:): " + shown)
}
