package lint

import (
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
	l := &skillList{seen: map[string]bool{}, known: map[string]bool{}}
	l.add(s, s.scanSkillRoot(skillRoot{dir: s.home.Skills, strict: true, native: true}, live), "")
	read := s.scanFeeds(c, l, live)
	s.scanUnnamedFeeds(c, l, live, read)
	for p := range s.skills {
		if !live[p] {
			delete(s.skills, p)
		}
	}
	for _, sk := range l.out {
		resolveRoute(sk, c, s.opts.Profile)
		SortDiagnostics(sk.Diagnostics)
	}
	slices.SortFunc(l.out, func(a, b *Skill) int { return strings.Compare(a.Path, b.Path) })
	return l.out
}

// skillList gathers the home's skills in the runtime's order of
// precedence: each path once, and the names of those loaded so far, which
// shadow a later feed's skill of the same name.
type skillList struct {
	out   []*Skill
	seen  map[string]bool // paths already produced
	known map[string]bool // skillKey of the names loaded
}

// add appends the skills of res not produced yet. When shadowBy names a
// feed, a loaded one whose name is already known is refused as shadowed.
func (l *skillList) add(s *Scanner, res []*Skill, shadowBy string) {
	for _, sk := range res {
		if l.seen[sk.Path] {
			continue
		}
		l.seen[sk.Path] = true
		if sk.Status == Loaded && shadowBy != "" && l.known[skillKey(sk.Name)] {
			s.refuse(sk, fmt.Sprintf("Skill '%s' from external source '%s' is shadowed by a higher-precedence skill.", sk.Name, shadowBy),
				sk.namePos, "a local skill, or one of an earlier feed, has the same name and wins; rename one of them")
		}
		if sk.Status == Loaded {
			l.known[skillKey(sk.Name)] = true
		}
		l.out = append(l.out, sk)
	}
}

// scanFeeds adds to l the skills of each enabled feed whose folder is
// there, in the config's order, and returns the folders it read.
func (s *Scanner) scanFeeds(c *Catalog, l *skillList, live map[string]bool) map[string]bool {
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
		l.add(s, s.scanSkillRoot(skillRoot{dir: dir, src: Source{Feed: f.Name}}, live), "server-feed:"+f.Name)
	}
	return read
}

// scanUnnamedFeeds adds to l the skills of the feed folders no enabled
// feed named (read holds those that were), as not loaded, with a note on
// the folder for each that holds any.
func (s *Scanner) scanUnnamedFeeds(c *Catalog, l *skillList, live, read map[string]bool) {
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
			if l.seen[sk.Path] {
				continue
			}
			sk.Status, sk.Reason, sk.Diagnostics, sk.RouteError = NotLoaded, why, nil, ""
			n++
		}
		l.add(s, res, "")
		if note, ok := feedNotLoadedDiag(dir, d.Name(), why, n, "skill file", s.opts.Profile); ok && n > 0 {
			c.FolderDiagnostics = append(c.FolderDiagnostics, note)
		}
	}
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
	cands := s.flatSkills(root, ents, live)
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
		cands = append(cands, s.nestedSkills(root, dir, live)...)
	}
	rejectDuplicateSkills(s, cands)
	return cands
}

// flatSkills reads the flat skill files among a skill root's entries:
// *.md files that are not README.md, hidden or folders.
func (s *Scanner) flatSkills(root skillRoot, ents []fs.DirEntry, live map[string]bool) []*Skill {
	var out []*Skill
	for _, d := range ents {
		name := d.Name()
		if !strings.HasSuffix(name, ".md") || strings.EqualFold(name, "README.md") || strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(root.dir, name)
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			continue
		}
		out = append(out, s.skillFile(root, p, true, live))
	}
	return out
}

// nestedSkills reads the SKILL.md of each sub-folder of dir, a folder of
// a skill root that owns none itself. Those under the skills folder's
// .system are system skills.
func (s *Scanner) nestedSkills(root skillRoot, dir string, live map[string]bool) []*Skill {
	nested, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []*Skill
	for _, d := range nested {
		p := filepath.Join(dir, d.Name(), "SKILL.md")
		if fi, err := os.Stat(filepath.Dir(p)); err != nil || !fi.IsDir() || !skillFileExists(p) {
			continue
		}
		sk := s.skillFile(root, p, false, live)
		sk.System = root.native && filepath.Base(dir) == ".system"
		out = append(out, sk)
	}
	return out
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

// readSkill parses the skill file at path, cached by size and
// modification time.
func (s *Scanner) readSkill(path string) (*Skill, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, DescribeStatError(err)
	}
	if fi.Size() > MaxFileSize {
		return nil, fmt.Errorf("the file is %d bytes, over the %d MiB limit", fi.Size(), MaxFileSize>>20)
	}
	if sk := s.skills[path]; sk != nil && sk.size == fi.Size() && sk.modTime.Equal(fi.ModTime()) {
		return sk, nil
	}
	data, err := readCapped(path, fi.Size())
	if err != nil {
		return nil, DescribeStatError(err)
	}
	sk := ParseSkill(path, data)
	sk.size, sk.modTime = fi.Size(), fi.ModTime()
	s.skills[path] = sk
	return sk, nil
}
