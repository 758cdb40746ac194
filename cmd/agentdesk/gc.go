package main

import (
	"os"
	"runtime/debug"
)

// batchGCPercent is the collector's target for a command that runs a
// suite: each sample leaves its recording, its run and its events
// behind, and little of it lives on, so the collector running half as
// often (at twice the live heap's growth, not once) saves a sixth of a
// 1,000-case replay's CPU for some 10 MiB of peak memory.
const batchGCPercent = 200

// batchGC sets batchGCPercent, unless GOGC says otherwise.
func batchGC() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(batchGCPercent)
	}
}
