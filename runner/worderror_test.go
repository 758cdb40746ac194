package runner

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestStartWordsItsError: Options.WordError words what Start returns (the
// command line adds flags there), and the words keep the error's type.
func TestStartWordsItsError(t *testing.T) {
	rn, err := New(Options{RunsDir: t.TempDir(), WordError: func(err error) error { return fmt.Errorf("worded: %w", err) }})
	if err != nil {
		t.Fatal(err)
	}
	_, err = rn.Start(context.Background(), Spec{})
	var se *SpecError
	if err == nil || !strings.HasPrefix(err.Error(), "worded: ") || !errors.As(err, &se) {
		t.Fatalf("Start(empty spec) = %v", err)
	}
}
