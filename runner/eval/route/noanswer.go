package route

import (
	"fmt"

	"github.com/agentdesk/agentdesk/lint/vocab"
	"github.com/agentdesk/agentdesk/runner/eval/evalrec"
)

// notAPick ends the reason of a sample that got no answer: it is not one
// of the frontline's picks, so no share, rate or confusion counts it.
const notAPick = " (not counted as a pick)"

// NoAnswer says why the sample got no reply to classify, "" when it got
// one: its run did not start, was cancelled, or its model call failed
// (the server down, refusing or failing), as evalrec.NoVerdict tells. Such
// a sample says nothing about the frontline's choice: it is an error with
// this reason, not a pick. A reply the model cut short or left empty is
// the model's doing, and stays a (failed) pick.
func (s Sample) NoAnswer() string {
	if s.Pick.Kind != Failed {
		return ""
	}
	switch why := evalrec.NoVerdict(&s.Run); {
	case s.Run.RunID == "" && s.Pick.Error != "":
		return "the run did not start: " + s.Pick.Error + notAPick
	case why == "":
		return ""
	case s.Run.Reason == vocab.ReasonCancelledByParent:
		return "cancelled: the run was stopped before it ended" + notAPick
	default:
		return why + notAPick
	}
}

// noAnswers says why samples got no answer: the first such sample's
// reason and how many there were; "" when every sample got one.
func noAnswers(samples []Sample) string {
	first, n := -1, 0
	for k, smp := range samples {
		if smp.NoAnswer() != "" {
			n++
			if first < 0 {
				first = k
			}
		}
	}
	if first < 0 {
		return ""
	}
	msg := fmt.Sprintf("sample %d of %d got no answer: %s", first+1, len(samples), samples[first].NoAnswer())
	if n > 1 {
		msg += fmt.Sprintf("; %d of %d samples got no answer", n, len(samples))
	}
	return msg
}

// NoAnswerLabel is the label of a sample that got no answer, where a
// pick's label would be (a sample list, a report's sample).
const NoAnswerLabel = "no answer"

// Label is the sample's pick's label, or NoAnswerLabel.
func (s Sample) Label() string {
	if s.NoAnswer() != "" {
		return NoAnswerLabel
	}
	return s.Pick.Label()
}

// Describe says what the frontline did, or why the sample got no answer.
func (s Sample) Describe() string {
	if why := s.NoAnswer(); why != "" {
		return "no answer: " + why
	}
	return s.Pick.Describe()
}
