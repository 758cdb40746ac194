package runfolder

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ArtifactFiles lists what a run folder holds to show, for path: for a folder,
// result.md, truncated-output.md, transcript.jsonl and run.json first, then
// every other regular file, by name; for a file, just that file. The error
// names the path and what to open instead (`agentdesk open` reports it
// before the viewer starts).
func ArtifactFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s does not exist: give a run folder or one of its files ('agentdesk runs' lists the runs)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", path, err)
	}
	var names []string
	sub := ""
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.Type().IsRegular() {
			names = append(names, e.Name())
		} else if e.IsDir() && sub == "" {
			sub = e.Name()
		}
	}
	if len(names) == 0 {
		if sub != "" {
			// The runs folder itself, most likely: point at one run.
			return nil, fmt.Errorf("%s holds folders, not files: open one run folder, like %s", path, filepath.Join(path, sub))
		}
		return nil, fmt.Errorf("%s holds no files to show: give a run folder or one of its files", path)
	}
	slices.SortStableFunc(names, artifactOrder)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = filepath.Join(path, n)
	}
	return out, nil
}

// shownFirst are the files of a run folder that ArtifactFiles lists
// first, in this order.
var shownFirst = []string{ResultFile, TruncatedOutputFile, TranscriptFile, RunFile}

// artifactOrder orders a run folder's file names: those of shownFirst
// first, in its order, then the others by name.
func artifactOrder(a, b string) int {
	ia, ib := slices.Index(shownFirst, a), slices.Index(shownFirst, b)
	switch {
	case ia >= 0 && ib >= 0:
		return ia - ib
	case ia >= 0:
		return -1
	case ib >= 0:
		return 1
	}
	return strings.Compare(a, b)
}
