package rundiff

import (
	"bytes"
	"encoding/json"

	"github.com/agentdesk/agentdesk/runner/runfolder"
	"github.com/aymanbagabas/go-udiff/lcs"
)

// Call step operations.
const (
	OpSame    = "same"
	OpAdded   = "added"
	OpRemoved = "removed"
	OpChanged = "changed"
)

// CallsDiff aligns the tool calls of two runs by name: calls of the same
// name in the same place are paired, and a pair whose arguments, label or
// error differ is changed.
type CallsDiff struct {
	Steps   []CallStep `json:"steps"`
	Before  int        `json:"before"`
	After   int        `json:"after"`
	Same    int        `json:"same"`
	Added   int        `json:"added"`
	Removed int        `json:"removed"`
	Changed int        `json:"changed"`
}

// CallStep is one step of the aligned sequence.
type CallStep struct {
	Op     string    `json:"op"`
	Name   string    `json:"name"`
	Before *CallSide `json:"before,omitempty"`
	After  *CallSide `json:"after,omitempty"`
	// What lists what changed in a changed pair: arguments, label, error.
	What []string `json:"what,omitempty"`
}

// CallSide is one run's call in a step.
type CallSide struct {
	Arguments string `json:"arguments"`
	Label     string `json:"label,omitempty"`
	Error     bool   `json:"error,omitempty"`
}

func callSide(c *runfolder.ToolCall) *CallSide {
	s := &CallSide{Arguments: c.Arguments}
	if c.Result != nil {
		s.Label, s.Error = c.Result.Label, c.Result.Error
	}
	return s
}

// compareCalls aligns a and b by their names (a longest common
// subsequence), then compares each pair.
func compareCalls(a, b []runfolder.ToolCall) CallsDiff {
	d := CallsDiff{Steps: []CallStep{}, Before: len(a), After: len(b)}
	na, nb := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		na[i] = a[i].Name
	}
	for i := range b {
		nb[i] = b[i].Name
	}
	i, j := 0, 0
	for _, e := range lcs.DiffLines(na, nb) {
		for i < e.Start {
			d.addPair(&a[i], &b[j])
			i++
			j++
		}
		for ; i < e.End; i++ {
			d.Steps = append(d.Steps, CallStep{Op: OpRemoved, Name: a[i].Name, Before: callSide(&a[i])})
			d.Removed++
		}
		for ; j < e.ReplEnd; j++ {
			d.Steps = append(d.Steps, CallStep{Op: OpAdded, Name: b[j].Name, After: callSide(&b[j])})
			d.Added++
		}
	}
	for i < len(a) && j < len(b) {
		d.addPair(&a[i], &b[j])
		i++
		j++
	}
	return d
}

// addPair adds the step of a call x of the earlier run aligned with a
// call y of the later one: the same, or changed in what differs
// (arguments, label, error).
func (d *CallsDiff) addPair(x, y *runfolder.ToolCall) {
	s := CallStep{Op: OpSame, Name: y.Name, Before: callSide(x), After: callSide(y)}
	if !sameJSON(x.Arguments, y.Arguments) {
		s.What = append(s.What, "arguments")
	}
	if s.Before.Label != s.After.Label {
		s.What = append(s.What, "label")
	}
	if s.Before.Error != s.After.Error {
		s.What = append(s.What, "error")
	}
	if len(s.What) > 0 {
		s.Op = OpChanged
		d.Changed++
	} else {
		d.Same++
	}
	d.Steps = append(d.Steps, s)
}

// sameJSON reports whether two argument texts are the same JSON, spacing
// aside; texts that are not JSON compare as they are.
func sameJSON(x, y string) bool {
	if x == y {
		return true
	}
	var bx, by bytes.Buffer
	if json.Compact(&bx, []byte(x)) != nil || json.Compact(&by, []byte(y)) != nil {
		return false
	}
	return bytes.Equal(bx.Bytes(), by.Bytes())
}
