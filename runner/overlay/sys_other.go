//go:build !unix

package overlay

const oNonblock = 0

func isNotDir(error) bool { return false }

func isLoop(err error) bool { return err != nil && contains(err.Error(), "too many links") }
