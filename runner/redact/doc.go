// Package redact hides secrets in everything a trial writes or shows: the
// configured values (literally, or as whole tokens when short) and the
// patterns of common keys and tokens, in whole strings (Redactor.String)
// and in streams cut at arbitrary points (Redactor.Stream).
package redact
