//go:build !unix

package rundiff

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
