//go:build !unix

package request

import "os"

// openNonBlocking opens path for reading.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
