package tools

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Skill is one skill the runtime lists, as the skill tools need it.
type Skill struct {
	// Name is the runtime's name (lower case).
	Name string
	// Path is the skill file (SKILL.md, or a flat <name>.md).
	Path string
	// Body is its markdown body, frontmatter stripped.
	Body string
	// Subagent is the sub-agent the skill routes to; Routed is set when
	// the frontmatter has metadata.subagent at all.
	Subagent string
	Routed   bool
	// Flat is set for a flat skills/<name>.md file, which has no
	// resources.
	Flat bool
}

// skillResourceDirs are the folders of a skill whose files are resources.
var skillResourceDirs = []string{"references", "scripts", "assets"}

// SkillTools returns skill_load and skill_read_resource over the skills:
// a skill that does not route is read for real (its body and its list of
// resources, as NetClaw's SkillLoadTool gives them,
// src/Netclaw.Actors/Tools/SkillLoadTool.cs @ff1d1310); one that routes to
// a sub-agent gets a stub that says so. Resources are read confined to
// the skill's folder.
func SkillTools(skills []Skill) []Tool {
	st := &skillTools{byName: map[string]Skill{}}
	for _, s := range skills {
		st.byName[strings.ToLower(s.Name)] = s
		st.names = append(st.names, s.Name)
	}
	return []Tool{
		&builtin{spec: Spec{Name: "skill_load"}, call: st.load},
		&builtin{spec: Spec{Name: "skill_read_resource"}, call: st.read},
	}
}

type skillTools struct {
	byName map[string]Skill
	names  []string
}

func (st *skillTools) find(name string) (Skill, string) {
	name = strings.ToLower(strings.TrimSpace(name))
	if s, ok := st.byName[name]; ok {
		return s, ""
	}
	if len(st.names) == 0 {
		return Skill{}, "Skill '" + name + "' not found. No skills are currently registered."
	}
	return Skill{}, "Skill '" + name + "' not found. Available skills: " + strings.Join(st.names, ", ")
}

func (st *skillTools) load(_ context.Context, a args, _ Meta) Result {
	name, _, _ := a.str("Name")
	s, missing := st.find(name)
	if missing != "" {
		return Result{Text: missing, IsError: true}
	}
	if s.Routed {
		target := s.Subagent
		if target == "" {
			target = "a sub-agent"
		}
		return Result{Text: StubNote + " skill '" + s.Name + "' routes to " + target + " (metadata.subagent): in NetClaw loading it would have run it through that sub-agent, which this trial does not spawn.", Label: LabelStubbed}
	}
	var b strings.Builder
	b.WriteString("## " + s.Name + "\n\n" + s.Body + "\n")
	if res := resources(s); len(res) > 0 {
		b.WriteString("\n### Available Resources\nLoad via skill_read_resource(skillName, resourcePath):\n")
		for _, r := range res {
			b.WriteString("- " + safe(r) + "\n")
		}
	}
	return Result{Text: b.String(), Label: LabelReal}
}

// resources lists a skill's resource files, relative to its folder,
// sorted; no link is followed.
func resources(s Skill) []string {
	if s.Flat {
		return nil
	}
	l := resourceList{dir: filepath.Dir(s.Path)}
	for _, sub := range skillResourceDirs {
		filepath.WalkDir(filepath.Join(l.dir, sub), l.visit)
	}
	sort.Strings(l.files)
	return l.files
}

// resourceList gathers the resource files of the skill folder dir.
type resourceList struct {
	dir   string
	files []string
}

// visit is the filepath.WalkDirFunc that lists the regular files met,
// relative to the skill's folder, up to a bound; it follows no link and
// walks past what it cannot read.
func (l *resourceList) visit(p string, d fs.DirEntry, err error) error {
	if err != nil || d.Type()&fs.ModeSymlink != 0 {
		return nil
	}
	if d.Type().IsRegular() {
		if rel, err := filepath.Rel(l.dir, p); err == nil {
			l.files = append(l.files, filepath.ToSlash(rel))
		}
	}
	if len(l.files) > 1000 {
		return filepath.SkipAll
	}
	return nil
}

func (st *skillTools) read(_ context.Context, a args, _ Meta) Result {
	name, _, _ := a.str("SkillName")
	rp, _, _ := a.str("ResourcePath")
	s, missing := st.find(name)
	if missing != "" {
		return Result{Text: missing, IsError: true}
	}
	if strings.TrimSpace(rp) == "" {
		return Errorf("Error: 'ResourcePath' parameter is required.")
	}
	if s.Flat {
		return Errorf("Error: Skill '%s' has no resource files.", s.Name)
	}
	root, err := os.OpenRoot(filepath.Dir(s.Path))
	if err != nil {
		return Errorf("Error: Failed to read the skill's folder: %v", err)
	}
	defer root.Close()
	clean := filepath.Clean(filepath.FromSlash(rp))
	if filepath.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return Refusef("Error: Resource path '%s' leads outside the skill's folder.", safe(rp))
	}
	fi, err := root.Stat(clean)
	if err != nil || !fi.Mode().IsRegular() {
		if err != nil && strings.Contains(err.Error(), "escapes") {
			return Refusef("Error: Resource path '%s' leads outside the skill's folder.", safe(rp))
		}
		return Errorf("Error: Resource '%s' not found in skill '%s'.", safe(rp), s.Name)
	}
	if fi.Size() > MaxReadChars*4 {
		return Errorf("Error: Resource '%s' is too large to read (%s).", safe(rp), humanSize(fi.Size()))
	}
	data, err := root.ReadFile(clean)
	if err != nil {
		return Errorf("Error: Failed to read resource '%s': %v", safe(rp), err)
	}
	return Result{Text: strings.ToValidUTF8(string(data), "\uFFFD"), Label: LabelReal}
}
