// Package report prints a lint.Catalog's diagnostics for people and for
// machines: text with the source line and a caret (Text), JSON (JSON),
// SARIF 2.1.0 (SARIF) and GitHub Actions workflow commands (GitHub).
//
// Every string that came from a file is printed through Escape, so a report
// never carries a control character or escape sequence taken from a file.
package report
