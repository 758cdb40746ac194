package suitefile

import "flag"

// This package has no golden files; it accepts -update so that
// "go test ./... -update" (which rewrites the golden files of the others)
// runs here too.
var _ = flag.Bool("update", false, "accepted for go test ./... -update; nothing to rewrite here")
