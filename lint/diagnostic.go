package lint

import (
	"cmp"
	"slices"
)

// Pos is a 1-based line and column in a file. Columns count characters
// (runes), not bytes. The zero Pos means "the whole file".
type Pos struct {
	Line, Column int
}

// Diagnostic is one finding about one file.
type Diagnostic struct {
	// Path is the file the finding is about, as given to the scan.
	Path string
	// Pos is where in the file; zero for the whole file.
	Pos
	// Rule is a stable rule id (see Rules).
	Rule string
	// Severity under the profile that produced the diagnostic.
	Severity Severity
	// Message says what is wrong, in the runtime's words where it has some.
	Message string
	// Hint says how to fix it, when there is a one-line fix.
	Hint string
}

// SortDiagnostics orders diagnostics by path, then line, then column, then
// rule id, which is the order every report prints them in.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column),
			cmp.Compare(a.Rule, b.Rule),
		)
	})
}

// Count returns the number of errors and warnings in ds.
func Count(ds []Diagnostic) (errors, warnings int) {
	for _, d := range ds {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		}
	}
	return errors, warnings
}
