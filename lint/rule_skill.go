package lint

// This file holds the check of the rule skill (RuleSkill): a skill the
// runtime's skill scanner refuses (no description, name mismatch,
// duplicate, symbolic link ...).

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// skillFile reads and checks one skill file as the scanner's ParseSkillFile
// (or ParseFlatSkillFile) does: symbolic links refused, frontmatter
// present and binding, a description, a name matching the folder (or file)
// under strict matching, and no symbolic link among its resources.
func (s *Scanner) skillFile(root skillRoot, path string, flat bool, live map[string]bool) *Skill {
	label := "skill file"
	if flat {
		label = "flat skill file"
	}
	base := &Skill{Path: path, Source: root.src, Flat: flat, Name: normalizeSkillName(skillFolderName(path, flat))}
	if containsSymlink(path, root.dir) {
		s.refuse(base, fmt.Sprintf("Symlink traversal is not allowed for %s.", label), Pos{}, "replace the symbolic link with the file or folder it points to")
		return base
	}
	parsed, err := s.readSkill(path)
	if err != nil {
		what := "skill file"
		if flat {
			what = "flat skill file"
		}
		s.refuse(base, fmt.Sprintf("Failed to read %s: %v", what, err), Pos{}, "check the file and its permissions")
		return base
	}
	live[path] = true
	sk := *parsed
	sk.Source, sk.Flat, sk.Status, sk.Reason, sk.Diagnostics = root.src, flat, Loaded, "", nil
	expected := normalizeSkillName(skillFolderName(path, flat))
	hasName := strings.TrimSpace(sk.frontName) != ""
	switch {
	case sk.fm == frontmatterMissing && flat:
		s.refuse(&sk, "Flat .md file found but lacks valid YAML frontmatter. Add frontmatter with name and description, or move into a skill-name/SKILL.md directory.", Pos{1, 1}, "")
	case sk.fm == frontmatterMissing:
		s.refuse(&sk, "Skill file must start with YAML frontmatter.", Pos{1, 1}, "start the file with '---', then 'name:' and 'description:', then a closing '---' line")
	case sk.fm == frontmatterInvalid && flat:
		s.refuse(&sk, "Flat .md file found but lacks valid YAML frontmatter. Add frontmatter with name and description, or move into a skill-name/SKILL.md directory.", sk.fmPos, sk.fmErr)
	case sk.fm == frontmatterInvalid:
		s.refuse(&sk, "Skill frontmatter is invalid or unparseable.", sk.fmPos, "fix the frontmatter: "+sk.fmErr)
	case !sk.hasDesc && flat:
		s.refuse(&sk, "Flat .md file has frontmatter but missing description field.", sk.descPos, "add 'description:' with one line saying when to use the skill")
	case !sk.hasDesc:
		s.refuse(&sk, "Skill frontmatter must include a non-empty description.", sk.descPos, "add 'description:' with one line saying when to use the skill")
	case root.strict && hasName && !ordinalFold(sk.Name, expected) && flat:
		s.refuse(&sk, fmt.Sprintf("Frontmatter name '%s' does not match file name '%s'.", sk.Name, expected), sk.namePos,
			fmt.Sprintf("write 'name: %s', or rename the file to %s.md", expected, sk.Name))
	case root.strict && hasName && !ordinalFold(sk.Name, expected):
		s.refuse(&sk, fmt.Sprintf("Frontmatter name '%s' does not match directory name '%s'.", sk.Name, expected), sk.namePos,
			fmt.Sprintf("write 'name: %s', or rename the folder to %s", expected, sk.Name))
	case !flat:
		if msg := resourceProblem(filepath.Dir(path)); msg != "" {
			s.refuse(&sk, msg, Pos{}, "replace the symbolic link with the file or folder it points to")
		}
	}
	return &sk
}

// skillFolderName is the name a skill file takes when its frontmatter has
// none: its folder's, or a flat file's own without .md.
func skillFolderName(path string, flat bool) string {
	if flat {
		return strings.TrimSuffix(filepath.Base(path), ".md")
	}
	return filepath.Base(filepath.Dir(path))
}

// refuse marks a skill rejected by the scanner, with its words as the
// reason and a skill diagnostic.
func (s *Scanner) refuse(sk *Skill, reason string, pos Pos, hint string) {
	sk.Status, sk.Reason = Rejected, reason
	r, _ := RuleByID(RuleSkill)
	if sev := r.Severity(s.opts.Profile); sev != Off {
		sk.Diagnostics = append(sk.Diagnostics, Diagnostic{Path: sk.Path, Pos: pos, Rule: RuleSkill, Severity: sev,
			Message: sentence(reason) + " The runtime does not list this skill.", Hint: hint})
	}
}

// sentence is s ending with a full stop (the scanner's duplicate message,
// a list of paths, has none).
func sentence(s string) string {
	if strings.HasSuffix(s, ".") {
		return s
	}
	return s + "."
}

// rejectDuplicateSkills applies the scanner's duplicate rule to the skills
// of one folder it accepted: a folder skill shadows flat files of its name;
// otherwise every skill of a shared name is rejected.
func rejectDuplicateSkills(s *Scanner, cands []*Skill) {
	groups := map[string][]*Skill{}
	var order []string
	for _, sk := range cands {
		if sk.Status != Loaded {
			continue
		}
		k := skillKey(sk.Name)
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], sk)
	}
	for _, k := range order {
		if g := groups[k]; len(g) >= 2 {
			refuseDuplicates(s, g)
		}
	}
}

// refuseDuplicates refuses the skills of g, two or more of one folder
// that share a name: the flat files when one folder skill shadows them,
// else all of them.
func refuseDuplicates(s *Scanner, g []*Skill) {
	var dirs, flats []*Skill
	for _, sk := range g {
		if sk.Flat {
			flats = append(flats, sk)
		} else {
			dirs = append(dirs, sk)
		}
	}
	if len(dirs) == 1 {
		for _, f := range flats {
			s.refuse(f, fmt.Sprintf("Flat file '%s' is shadowed by directory skill '%s'.", f.Path, dirs[0].Path), f.namePos,
				"delete the flat file, or rename one of the two skills")
		}
		return
	}
	paths := make([]string, len(g))
	for i, sk := range g {
		paths[i] = sk.Path
	}
	for _, sk := range g {
		s.refuse(sk, fmt.Sprintf("Skill name '%s' is duplicated across: %s", sk.Name, strings.Join(paths, ", ")), sk.namePos,
			"the runtime lists none of them: rename all but one")
	}
}

// containsSymlink reports whether path, or a folder between it and root
// (root included), is a symbolic link, as the scanner's ContainsSymlink
// does.
func containsSymlink(path, root string) bool {
	root = filepath.Clean(root)
	for cur := filepath.Clean(path); ; cur = filepath.Dir(cur) {
		if cur != root && !strings.HasPrefix(cur, root+string(filepath.Separator)) {
			return false
		}
		if fi, err := os.Lstat(cur); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
		if cur == root || filepath.Dir(cur) == cur {
			return false
		}
	}
}

// maxResourceDepth bounds the walk of a skill's folder, so a link loop
// cannot hang the scan.
const maxResourceDepth = 32

// resourceProblem walks a folder skill's files (its resources) as the
// scanner does and returns its words for the first that it refuses: a
// file reached through a symbolic link, or a folder it cannot list. ""
// when all is well.
func resourceProblem(dir string) string {
	return walkResources(dir, 0, false)
}

// walkResources checks the entries of d, a folder depth levels below a
// folder skill's own, and returns the first refusal ("" for none). linked
// says d was reached through a symbolic link.
func walkResources(d string, depth int, linked bool) string {
	if depth > maxResourceDepth {
		return ""
	}
	ents, err := os.ReadDir(d)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ""
		}
		return fmt.Sprintf("Failed to enumerate resources: %v", DescribeStatError(err))
	}
	for _, e := range ents {
		if msg := resourceEntryProblem(filepath.Join(d, e.Name()), e, depth, linked); msg != "" {
			return msg
		}
	}
	return ""
}

// resourceEntryProblem checks the entry e at p of a resource folder at
// depth: a folder, or a link to one, is walked (what lies below a link
// counts as linked); a file reached through a link is refused.
func resourceEntryProblem(p string, e fs.DirEntry, depth int, linked bool) string {
	isLink := e.Type()&fs.ModeSymlink != 0
	if isLink {
		if t, err := os.Stat(p); err == nil && t.IsDir() {
			return walkResources(p, depth+1, true)
		}
	}
	if e.IsDir() {
		return walkResources(p, depth+1, linked)
	}
	if linked || isLink {
		return "Symlink traversal is not allowed for resource file."
	}
	return ""
}
