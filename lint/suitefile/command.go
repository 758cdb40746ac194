package suitefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"strings"

	"gopkg.in/yaml.v3"
)

// command reads expect: command: one value, split at white space into
// the program and its arguments (no shell, no quoting), or a list, taken
// word for word (an argument with spaces).
func (r *reader) command(v *yaml.Node) []string {
	var argv []string
	switch v.Kind {
	case yaml.ScalarNode:
		s, ok := r.scalar(v, "command")
		if !ok {
			return nil
		}
		argv = strings.Fields(s)
	case yaml.SequenceNode:
		var ok bool
		if argv, ok = r.list(v, "command"); !ok {
			return nil
		}
	default:
		r.add(RuleYAML, posOf(v), fmt.Sprintf("command is %s; give a program and its arguments, or a list of them", kindName(v)), "")
		return nil
	}
	if len(argv) == 0 || strings.TrimSpace(argv[0]) == "" {
		r.add(RuleValue, posOf(v), "command is empty; give the check program to run, relative to the suite's folder", "command: ./check.sh")
		return nil
	}
	for _, a := range argv {
		if strings.ContainsRune(a, 0) {
			r.add(RuleValue, posOf(v), "command holds a NUL byte", "")
			return nil
		}
	}
	return argv
}

// FindCommand returns the program a check runs (the first word of expect:
// command:): a name with a slash is a path relative to the suite's folder
// dir (or absolute), which must be an executable regular file; a bare name
// is looked up on PATH, as a shell would. The error says what is wrong and
// what to do.
func FindCommand(dir, program string) (string, error) {
	p, msg, hint := findCommand(dir, program)
	if msg != "" {
		return "", fmt.Errorf("%s: %s", msg, hint)
	}
	return p, nil
}

// findCommand is FindCommand, with the message and the hint apart.
func findCommand(dir, program string) (path, msg, hint string) {
	if !strings.ContainsRune(program, '/') {
		p, err := exec.LookPath(program)
		if err != nil {
			return "", fmt.Sprintf("check program %s is not found on PATH", program), "install it, or give a path: ./" + program + " runs the file beside the suite"
		}
		return p, "", ""
	}
	p := Resolve(dir, program)
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", fmt.Sprintf("check program %s is not there", program), "paths are relative to the suite's folder"
	case err != nil:
		return "", fmt.Sprintf("check program %s cannot be read: %v", program, err), "fix its permissions"
	case fi.IsDir():
		return "", fmt.Sprintf("check program %s is a folder, not a program", program), "name the program inside it"
	case !fi.Mode().IsRegular():
		return "", fmt.Sprintf("check program %s is %s, not a program", program, typeName(fi.Mode())), "put the program there"
	case fi.Mode().Perm()&0o111 == 0:
		return "", fmt.Sprintf("check program %s is not executable", program), "chmod +x " + program + " (a script starts with a #! line, such as #!/bin/sh)"
	}
	return p, "", ""
}
