package lint

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// This file finds skills the way NetClaw's SkillScanner does
// (Netclaw.Actors.Skills): the native skills folder with strict name
// matching, then each enabled SkillFeeds feed's folder under
// skills/.server-feeds, in list order, trusting the frontmatter name; a
// name the native folder or an earlier feed already has is shadowed.

// skillRoot is one folder the scanner reads.
type skillRoot struct {
	dir    string
	src    Source
	strict bool // the frontmatter name must match the folder or file name
	native bool // the skills folder itself (.system skills are system skills)
}

// scanSkills lists and checks every skill file of the home, resolves the
// routing of those the runtime lists against c, and returns them all
// sorted by path.
func (s *Scanner) scanSkills(c *Catalog) []*Skill {
	live := map[string]bool{}
	var out []*Skill
	seen := map[string]bool{} // paths already produced
	known := map[string]bool{}
	add := func(res []*Skill, shadowBy string) {
		for _, sk := range res {
			if seen[sk.Path] {
				continue
			}
			seen[sk.Path] = true
			if sk.Status == Loaded && shadowBy != "" && known[skillKey(sk.Name)] {
				s.refuse(sk, fmt.Sprintf("Skill '%s' from external source '%s' is shadowed by a higher-precedence skill.", sk.Name, shadowBy),
					sk.namePos, "a local skill, or one of an earlier feed, has the same name and wins; rename one of them")
			}
			if sk.Status == Loaded {
				known[skillKey(sk.Name)] = true
			}
			out = append(out, sk)
		}
	}
	add(s.scanSkillRoot(skillRoot{dir: s.home.Skills, strict: true, native: true}, live), "")

	read := map[string]bool{}
	for _, f := range c.Config.SkillFeeds.Feeds {
		if !f.Enabled {
			continue
		}
		dir := filepath.Join(s.home.SkillFeedsDir(), f.Name)
		if filepath.IsAbs(f.Name) {
			dir = f.Name
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		read[filepath.Clean(dir)] = true
		add(s.scanSkillRoot(skillRoot{dir: dir, src: Source{Feed: f.Name}}, live), "server-feed:"+f.Name)
	}

	// Feed folders no enabled feed names: listed as not loaded.
	ents, _ := os.ReadDir(s.home.SkillFeedsDir())
	for _, d := range ents {
		dir := filepath.Join(s.home.SkillFeedsDir(), d.Name())
		if read[dir] {
			continue
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		res := s.scanSkillRoot(skillRoot{dir: dir, src: Source{Feed: d.Name()}}, live)
		why := c.Config.FeedNotLoaded(d.Name(), true)
		n := 0
		for _, sk := range res {
			if seen[sk.Path] {
				continue
			}
			sk.Status, sk.Reason, sk.Diagnostics, sk.RouteError = NotLoaded, why, nil, ""
			n++
		}
		add(res, "")
		if note, ok := feedNotLoadedDiag(dir, d.Name(), why, n, "skill file", s.opts.Profile); ok && n > 0 {
			c.FolderDiagnostics = append(c.FolderDiagnostics, note)
		}
	}

	for p := range s.skills {
		if !live[p] {
			delete(s.skills, p)
		}
	}
	for _, sk := range out {
		resolveRoute(sk, c, s.opts.Profile)
		SortDiagnostics(sk.Diagnostics)
	}
	slices.SortFunc(out, func(a, b *Skill) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// skillKey is the key the runtime groups skill names by
// (OrdinalIgnoreCase).
func skillKey(name string) string { return strings.Map(ordinalUpper, name) }

// scanSkillRoot is SkillScanner.Scan of one folder: flat *.md files (not
// README.md, not hidden), then every sub-folder holding a SKILL.md (hidden
// ones too), then the SKILL.md files one level further down in the other
// sub-folders, skipping hidden ones except .system and .server-feeds. A
// name two skills share rejects both, unless one is a folder skill and the
// others flat files, which it shadows.
func (s *Scanner) scanSkillRoot(root skillRoot, live map[string]bool) []*Skill {
	ents, err := os.ReadDir(root.dir)
	if err != nil {
		return nil
	}
	var cands []*Skill
	// Pass 0: flat files.
	for _, d := range ents {
		name := d.Name()
		if !strings.HasSuffix(name, ".md") || strings.EqualFold(name, "README.md") || strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(root.dir, name)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue
		}
		cands = append(cands, s.skillFile(root, p, true, live))
	}
	// Pass 1: folders that own a SKILL.md; pass 2: the others' sub-folders.
	var dirs []string
	claimed := map[string]bool{}
	for _, d := range ents {
		dir := filepath.Join(root.dir, d.Name())
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		dirs = append(dirs, dir)
		if skillFileExists(filepath.Join(dir, "SKILL.md")) {
			claimed[dir] = true
			cands = append(cands, s.skillFile(root, filepath.Join(dir, "SKILL.md"), false, live))
		}
	}
	for _, dir := range dirs {
		name := filepath.Base(dir)
		if claimed[dir] || strings.HasPrefix(name, ".") && name != ".system" && name != ".server-feeds" {
			continue
		}
		nested, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, d := range nested {
			p := filepath.Join(dir, d.Name(), "SKILL.md")
			if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() || !skillFileExists(p) {
				continue
			}
			sk := s.skillFile(root, p, false, live)
			sk.System = root.native && name == ".system"
			cands = append(cands, sk)
		}
	}
	rejectDuplicateSkills(s, cands)
	return cands
}

// skillFileExists reports whether path is there and not a folder (a
// symbolic link counts: the scan then refuses it).
func skillFileExists(path string) bool {
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		if t, err := os.Stat(path); err == nil && t.IsDir() {
			return false
		}
		return true
	}
	return !fi.IsDir()
}

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

// readSkill parses the skill file at path, cached by size and
// modification time.
func (s *Scanner) readSkill(path string) (*Skill, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, describeStatError(err)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("the file is %d bytes, over the %d MiB limit", fi.Size(), MaxFileSize>>20)
	}
	if sk := s.skills[path]; sk != nil && sk.size == fi.Size() && sk.modTime.Equal(fi.ModTime()) {
		return sk, nil
	}
	data, err := readCapped(path, fi.Size())
	if err != nil {
		return nil, describeStatError(err)
	}
	sk := ParseSkill(path, data)
	sk.size, sk.modTime = fi.Size(), fi.ModTime()
	s.skills[path] = sk
	return sk, nil
}

// refuse marks a skill rejected by the scanner, with its words as the
// reason and a skill diagnostic.
func (s *Scanner) refuse(sk *Skill, reason string, pos Pos, hint string) {
	sk.Status, sk.Reason = Rejected, reason
	r, _ := RuleByID(RuleSkill)
	if sev := r.Severity(s.opts.Profile); sev != Off {
		sk.Diagnostics = append(sk.Diagnostics, Diagnostic{Path: sk.Path, Pos: pos, Rule: RuleSkill, Severity: sev,
			Message: reason + " The runtime does not list this skill.", Hint: hint})
	}
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
		g := groups[k]
		if len(g) < 2 {
			continue
		}
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
			continue
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
	var walk func(d string, depth int, linked bool) string
	walk = func(d string, depth int, linked bool) string {
		if depth > maxResourceDepth {
			return ""
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return ""
			}
			return fmt.Sprintf("Failed to enumerate resources: %v", describeStatError(err))
		}
		for _, e := range ents {
			p := filepath.Join(d, e.Name())
			isLink := e.Type()&fs.ModeSymlink != 0
			if isLink {
				if t, err := os.Stat(p); err == nil && t.IsDir() {
					if msg := walk(p, depth+1, true); msg != "" {
						return msg
					}
					continue
				}
			}
			if e.IsDir() {
				if msg := walk(p, depth+1, linked); msg != "" {
					return msg
				}
				continue
			}
			if linked || isLink {
				return "Symlink traversal is not allowed for resource file."
			}
		}
		return ""
	}
	return walk(dir, 0, false)
}
