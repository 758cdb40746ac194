package request

import (
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/agentdesk/agentdesk/lint"
	"github.com/agentdesk/agentdesk/preview"
)

// The main session's context layers, as NetClaw assembles them for the
// frontline. The facts follow NetClaw's source, netclaw-dev/netclaw (the
// newest stored version of each file found):
//   - the order and timing of the layers: the daemon's composition root,
//     src/Netclaw.Daemon/Program.cs (the version that registers
//     SkillInventoryRefresher and IWorkingContextSnapshotProvider): the tool
//     index, the skill index, the memory layer (all OnceAtStart), the
//     sub-agent discovery layer and the current time (both EveryTurn: the
//     newest SubAgentDiscoveryContextLayer's Timing is EveryTurn, see
//     preview.Frontline);
//   - how they reach the wire: SessionMessageAssembler (the version whose
//     ContextAssemblyInput takes SessionStoragePaths and a
//     WorkingContextBlock): system message 0 is the persisted prompt,
//     system message 1 the OnceAtStart layers, each trimmed, the blank ones
//     left out, then the [session] block and, when file_read is granted,
//     the [attachments] hint, joined by a blank line; the per-turn block
//     (memory recall, skill hint, the EveryTurn layers, the working
//     context, ...) is BuildVolatileContextBlock, which LlmSessionActor
//     puts into the history as a user message "[system: <block>]"
//     immediately before the user's message (SessionState
//     .AddVolatileContextNudge, SystemNudgePrefix "[system:", in the
//     SessionState.cs that has PendingInputs);
//   - the tool index: ToolIndexContextLayer.GetContextLayer(audience) @
//     ebaac6d6a456b565fce5e589691850e9fb4f8fcf, which writes
//     ToolRegistry.GenerateCompressedIndex(audience, policy); the tiered
//     registry's index (TieredIndex) is stored only in the fork
//     salma-marei/netclaw (netclaw-dev's newest stored ToolRegistry.cs,
//     @a18e4a67, has no tiers, but its newer SubAgentSpawner.cs and tests
//     use them: see CoreTools);
//   - the core tier: CoreTools; spawn_agent is registered deferred
//     (ToolIndexUpdater.StartAsync, Register);
//   - the skill index: SkillRegistry.GenerateIndex (the version with
//     SkillIndexPublisher and MCP prompt skills), the skill fields from
//     SkillScanner @ d053ec9a3c191d2c44bc1675a8dd15566937a508;
//     SkillIndexContextLayer is empty for Public and with SkillSync
//     disabled (the version taking SkillSyncConfig);
//   - the memory layer: MemoryIndexContextLayer (the version taking
//     MemoryConfig, states SqlitePrimary and SqliteDegraded); Memory.Enabled
//     defaults to true (MemoryConfigDefaultsTests);
//   - the current time: CurrentTimeContextLayer in the
//     ISystemPromptProvider.cs whose GetContextLayer takes the audience;
//   - the [attachments] hint: SessionMessageAssembler.AttachmentContextHint
//     (the same version as above).

// TieredIndex returns the compressed tool index NetClaw's tiered registry
// writes for these tools, in registration order (BuildCompressedIndex of
// the ToolRegistry.cs with RegisterCore and ToolExposureTier: see
// CoreTools for the commits), "\n" line ends. The frontline's tool-index
// layer and a sub-agent's tool-index part are both this text:
//
//	[directly callable core tools]
//	<grant>: <name>, <name>, ...         the core tools, a line a grant,
//	                                     grants in order of first appearance
//
//	[deferred first-party tools - discover with search_tools]
//	<name>: <hint>                       the other first-party tools, by name
//
//	[MCP capability servers - discover tools with search_tools]
//	...                                  as Index
//
// A hint is the description on one line (runs of white space made one
// space), cut to 80 UTF-16 units (77 and "..."); a blank description
// gives "No description available.". No tools give "".
func TieredIndex(tools []Tool) string {
	var b strings.Builder
	grants, deferred, mcp := tierTools(tools)
	if len(grants) > 0 {
		writeCoreTools(&b, grants)
	}
	if len(deferred) > 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		writeDeferredTools(&b, tools, deferred)
	}
	if len(mcp) > 0 {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		// The MCP section is the same in both registries' indexes.
		m := make([]Tool, len(mcp))
		for j, i := range mcp {
			m[j] = tools[i]
		}
		b.WriteString(Index(m))
	}
	return b.String()
}

// grantGroup is the core tools of one grant, in registration order.
type grantGroup struct {
	grant string
	names []string
}

// tierTools sorts tools into the tiers of the index: the core tools by
// grant (grants in order of first appearance), and the indexes in tools
// of the deferred first-party tools and of the MCP tools.
func tierTools(tools []Tool) (grants []grantGroup, deferred, mcp []int) {
	for i := range tools {
		t := &tools[i]
		switch {
		case t.IsMCP():
			mcp = append(mcp, i)
		case IsCore(t.Name):
			at := slices.IndexFunc(grants, func(g grantGroup) bool { return g.grant == t.Grant })
			if at < 0 {
				at = len(grants)
				grants = append(grants, grantGroup{grant: t.Grant})
			}
			grants[at].names = append(grants[at].names, t.Name)
		default:
			deferred = append(deferred, i)
		}
	}
	return grants, deferred, mcp
}

// writeCoreTools writes the index's core section: a line a grant.
func writeCoreTools(b *strings.Builder, grants []grantGroup) {
	b.WriteString("[directly callable core tools]\n")
	for _, g := range grants {
		b.WriteString(g.grant)
		b.WriteString(": ")
		for j, n := range g.names {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString(n)
		}
		b.WriteByte('\n')
	}
}

// writeDeferredTools writes the index's deferred section: the tools at
// the indexes deferred (sorted in place by name), each with its hint.
func writeDeferredTools(b *strings.Builder, tools []Tool, deferred []int) {
	b.WriteString("[deferred first-party tools - discover with search_tools]\n")
	slices.SortStableFunc(deferred, func(x, y int) int { return compareOrdinal(tools[x].Name, tools[y].Name) })
	for _, i := range deferred {
		b.WriteString(tools[i].Name)
		b.WriteString(": ")
		writeHint(b, tools[i].Description)
		b.WriteByte('\n')
	}
}

// compactHint is BuildCompactHint: the description trimmed, its runs of
// white space made one space, cut to 80 UTF-16 units (77 and "...").
func compactHint(description string) string {
	var b strings.Builder
	writeHint(&b, description)
	return b.String()
}

// writeHint writes compactHint(description) to b without building the
// intermediate strings: a first pass counts the collapsed text's UTF-16
// units (up to 81), a second writes it, cut at 77 units when it is longer
// than 80. A cut inside a surrogate pair leaves the lone half, which
// becomes U+FFFD, as .NET's string slice and UTF-8 encoding do.
func writeHint(b *strings.Builder, description string) {
	if netBlank(description) {
		b.WriteString("No description available.")
		return
	}
	if units := hintUnits(description); units <= 80 {
		writeCollapsed(b, description, units, false)
		return
	}
	writeCollapsed(b, description, 77, true)
	b.WriteString("...")
}

// writeCollapsed writes description with its white space trimmed and its
// runs made one space, up to limit UTF-16 units. cut says the text is cut
// there: its runes are written re-encoded; else they are copied as
// written.
func writeCollapsed(b *strings.Builder, description string, limit int, cut bool) {
	written := 0
	pending, started := false, false
	for i, r := range description {
		if preview.IsDotNetSpace(r) {
			pending = started
			continue
		}
		if pending {
			if written+1 > limit {
				return
			}
			b.WriteByte(' ')
			written++
			pending = false
		}
		started = true
		n := utf16Len(r)
		if written+n > limit {
			if written < limit {
				b.WriteRune(utf8.RuneError) // half a surrogate pair
			}
			return
		}
		writeHintRune(b, description, i, r, cut)
		written += n
	}
}

// writeHintRune writes the rune r at byte i of description: re-encoded
// when the hint is cut, else its bytes as written.
func writeHintRune(b *strings.Builder, description string, i int, r rune, cut bool) {
	if cut {
		b.WriteRune(r)
		return
	}
	_, w := utf8.DecodeRuneInString(description[i:])
	b.WriteString(description[i : i+w])
}

// hintUnits counts the UTF-16 units of description with its white space
// trimmed and its runs made one space, stopping once it passes 80.
func hintUnits(description string) int {
	units, pending, started := 0, false, false
	for _, r := range description {
		if preview.IsDotNetSpace(r) {
			pending = started
			continue
		}
		if pending {
			units++
			pending = false
		}
		started = true
		units += utf16Len(r)
		if units > 80 {
			break
		}
	}
	return units
}

// cutUTF16 returns s when it is at most n UTF-16 units long, else its
// first n-3 units and "..." (C#'s s[..(n-3)] + "...").
func cutUTF16(s string, n int) string {
	units := utf16.Encode([]rune(s))
	if len(units) <= n {
		return s
	}
	return string(utf16.Decode(units[:n-3])) + "..."
}

// utf16Len is the number of UTF-16 units r takes.
func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// SkillEntry is a skill as the skill index lists it.
type SkillEntry struct {
	// Name is the runtime's name for the skill.
	Name string
	// Category is the folder the skill's folder sits in, relative to the
	// skills root ("" for a skill at the root and for a flat file):
	// ".system" for a system skill, a category folder's name.
	Category string
	// Description is the frontmatter's description, trimmed.
	Description string
	// ArgumentHint is the frontmatter's argument-hint.
	ArgumentHint string
	// Hidden is disable-model-invocation: the index leaves the skill out.
	Hidden bool
}

// SessionSkills returns the skills the runtime lists in c (those its
// scanner accepts), as the skill index needs them.
func SessionSkills(c *lint.Catalog) []SkillEntry {
	if c == nil {
		return nil
	}
	var out []SkillEntry
	for _, s := range c.Skills {
		if s.Status != lint.Loaded {
			continue
		}
		out = append(out, SkillEntry{
			Name: s.Name, Category: skillCategory(c.Home, s), Description: s.Description,
			ArgumentHint: s.ArgumentHint, Hidden: s.DisableModelInvocation,
		})
	}
	return out
}

// skillCategory is SkillScanner's category: the path from the scanned
// root to the folder that holds the skill's folder, "/"-separated; none
// for a flat file or a skill folder at the root.
func skillCategory(h lint.Home, s *lint.Skill) string {
	if s.Flat {
		return ""
	}
	root := h.Skills
	if s.Source.IsFeed() {
		root = filepath.Join(h.SkillFeedsDir(), s.Source.Feed)
	}
	rel, err := filepath.Rel(root, filepath.Dir(filepath.Dir(s.Path)))
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return ""
	}
	return filepath.ToSlash(rel)
}

// SkillIndex returns the skill index NetClaw's registry writes
// (SkillRegistry.GenerateIndex), "\n" line ends: a header of four lines,
// then each category (a skill without one is in "user"), in ordinal
// order, with its skills by name:
//
//	[skills]|invoke via /name
//	|Load skill guidance with skill_load(name) BEFORE using related features.
//	|Read bundled resources with skill_read_resource(skillName, resourcePath).
//	|Skills routed to a subagent require a concrete task when loaded.
//	|<category>:
//	|  <name>[ <argument-hint>]: <description, cut to 120 UTF-16 units>
//
// Skills with disable-model-invocation are left out; none left give "".
func SkillIndex(skills []SkillEntry) string {
	var visible []SkillEntry
	for _, s := range skills {
		if !s.Hidden {
			if s.Category == "" {
				s.Category = "user"
			}
			visible = append(visible, s)
		}
	}
	if len(visible) == 0 {
		return ""
	}
	slices.SortStableFunc(visible, func(x, y SkillEntry) int {
		if c := compareOrdinal(x.Category, y.Category); c != 0 {
			return c
		}
		return compareOrdinal(x.Name, y.Name)
	})
	var b strings.Builder
	b.WriteString("[skills]|invoke via /name\n" +
		"|Load skill guidance with skill_load(name) BEFORE using related features.\n" +
		"|Read bundled resources with skill_read_resource(skillName, resourcePath).\n" +
		"|Skills routed to a subagent require a concrete task when loaded.\n")
	category := ""
	for i, s := range visible {
		if i == 0 || s.Category != category {
			category = s.Category
			b.WriteString("|" + category + ":\n")
		}
		b.WriteString(skillLine(s))
	}
	return b.String()
}

// skillLine is a skill's line of the skill index: its name, with its
// argument hint, and its description cut to 120 UTF-16 units (or "(no
// description)").
func skillLine(s SkillEntry) string {
	desc := "(no description)"
	if !netBlank(s.Description) {
		desc = cutUTF16(netTrim(s.Description), 120)
	}
	sig := s.Name
	if !netBlank(s.ArgumentHint) {
		sig += " " + s.ArgumentHint
	}
	return "|  " + sig + ": " + desc + "\n"
}

// MemoryLayer is the memory layer NetClaw's daemon shows while its SQLite
// memory store is healthy (MemoryContextState.SqlitePrimary).
const MemoryLayer = "[memories — sqlite-backed with automatic recall]\n" +
	"Tools: find_memories, get_memories, store_memory, update_memory\n" +
	"Durable memory recall is automatic before each user-facing turn.\n" +
	"Use explicit memory tools only for deliberate manual control.\n" +
	"Automatic recall injects durable_fact and evidence memories, and only\n" +
	"injects items that clear a relevance floor — many turns inject nothing.\n" +
	"Deliberate find_memories searches may return durable_fact plus evidence.\n" +
	"Trace data is excluded from normal search results.\n" +
	"Expired evidence is hidden from normal find_memories results unless explicitly requested for audit/debug review.\n" +
	"\n" +
	"Use find_memories/get_memories when automatic recall is insufficient or the\n" +
	"user explicitly asks what you remember.\n" +
	"\n" +
	"Use store_memory only for explicit remember/save requests.\n" +
	"Use update_memory only for corrections, supersede, tombstone, or metadata changes.\n" +
	"\n" +
	"Do not call explicit memory write tools as a reflex on every turn.\n" +
	"\n" +
	"For full guidance: file_read netclaw-memory.\n" +
	"On errors or degraded memory: file_read netclaw-operations."

// AttachmentsHint is the [attachments] block the static context ends with
// when the session's audience is granted file_read.
const AttachmentsHint = "[attachments]\n" +
	"Your session working directory contains an `inbox/` subdirectory where user-uploaded files are placed.\n" +
	"Each attachment is announced in the inbound message as a single line of the form:\n" +
	"    [attachment] name=\"...\" mime=\"...\" size=... path=\"inbox/...\" inlined=\"true|false\" [note=\"...\"]\n" +
	"The announced `path` is authoritative, relative to `session_dir`, and already includes any collision-safe filename change. " +
	"Use `{session_dir}/{path}` when you need the absolute path on the host; do not search other session subdirectories for another copy.\n" +
	"When `inlined=\"true\"` you can see the file content natively in this turn.\n" +
	"When `inlined=\"false\"`:\n" +
	"  - If `note` begins with \"current model has no\": the file exists on disk but you cannot render it natively. " +
	"Acknowledge the attachment to the user by name in your reply and explain the limitation. Offer tool-based " +
	"workarounds where applicable (for example, `shell_execute pdftotext` for a PDF on a non-PDF model).\n" +
	"  - If `note` begins with \"format not inlineable\": use `file_read` or `shell_execute` to process the bytes. " +
	"This is the normal path for docx, zip, archive, and media files.\n" +
	"Never silently ignore an attachment the user sent — always acknowledge what you received by name, " +
	"even if you cannot fully process it."

// CurrentTimeLayer is CurrentTimeContextLayer's text for the instant now
// in the zone loc, whose IANA name is zoneID (TimeZoneInfo.Local.Id):
//
//	[current-time]
//	utc: 2026-12-02T05:48:54.1234567+00:00      DateTimeOffset "O", offset zero
//	local: 2026-12-02 06:48:54 +01:00
//	day_of_week: Wednesday
//	timezone: Europe/Berlin
func CurrentTimeLayer(now time.Time, loc *time.Location, zoneID string) string {
	utc := now.UTC()
	local := now.In(loc)
	return "[current-time]\n" +
		"utc: " + utc.Format("2006-01-02T15:04:05.0000000") + "+00:00\n" +
		"local: " + local.Format("2006-01-02 15:04:05 -07:00") + "\n" +
		"day_of_week: " + local.Weekday().String() + "\n" +
		"timezone: " + zoneID
}

// SystemNudge wraps a per-turn block as the user message NetClaw puts
// into the history before the user's message: "[system: " + block + "]"
// (preview.SystemNudge).
func SystemNudge(block string) string { return preview.SystemNudge(block) }
