package preview

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/agentdesk/agentdesk/lint"
)

// Manifest entry constants (REFERENCE section 3).
const (
	// EntryKind is the kind of a SkillServer manifest entry for one
	// published sub-agent version.
	EntryKind = "subagent-version"
	// EntryType is the artifact type of a single markdown definition.
	EntryType = "agent-md"
	// ArtifactFile is the file name every published definition has at its URL.
	ArtifactFile = "agent.md"
)

// Entry is one SkillServer `subagent-version` manifest entry. Its fields
// marshal to JSON in the order SkillServer prints them:
//
//	{"kind":"subagent-version","name":"...","version":"...","type":"agent-md",
//	 "description":"...","url":"/subagents/<name>/<version>/agent.md","digest":"sha256:<hex>"}
type Entry struct {
	// Kind is always EntryKind.
	Kind string `json:"kind"`
	// Name is the definition's name.
	Name string `json:"name"`
	// Version is the published version.
	Version string `json:"version"`
	// Type is always EntryType.
	Type string `json:"type"`
	// Description is the definition's description.
	Description string `json:"description"`
	// URL is where the version's agent.md is served (see ArtifactURL).
	URL string `json:"url"`
	// Digest is "sha256:" and the hex SHA-256 of the exact file bytes.
	Digest string `json:"digest"`
}

// ErrNoVersion is wrapped by ManifestEntry and EntryVersion when neither the
// caller nor the file gives a version.
var ErrNoVersion = errors.New("no version")

// ErrVersionConflict is wrapped when the caller's version and the file's
// version (or metadata.version) differ.
var ErrVersionConflict = errors.New("version conflict")

// ValidVersion reports whether v is a version SkillServer accepts: 1 to 64
// characters of A-Z, a-z, 0-9, '.', '-' and '+' (lint.ValidVersion, the
// check the publish profile makes).
func ValidVersion(v string) bool { return lint.ValidVersion(v) }

// DigestOf returns the SkillServer digest of data: "sha256:" and the
// lowercase hex SHA-256 of the exact bytes (a byte-order mark and CRLF line
// endings included).
func DigestOf(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// FileDigest returns the digest of the bytes lint read for f, in the
// manifest's "sha256:<hex>" form, or "" when lint could not read the file.
func FileDigest(f *lint.File) string {
	if f == nil || len(f.SHA256) != 64 {
		return ""
	}
	return "sha256:" + strings.ToLower(f.SHA256)
}

// ArtifactPath returns where a published version lives, relative to the
// server root and without a leading slash: subagents/<name>/<version>/agent.md.
func ArtifactPath(name, version string) string {
	return "subagents/" + name + "/" + version + "/" + ArtifactFile
}

// ArtifactURL returns the manifest URL of a published version: urlPrefix
// (its trailing slashes dropped) followed by /subagents/<name>/<version>/agent.md.
func ArtifactURL(urlPrefix, name, version string) string {
	return strings.TrimRight(urlPrefix, "/") + "/" + ArtifactPath(name, version)
}

// EntryVersion works out the version to publish f under: version when the
// caller gives one, else the file's own version (its `version` key, else
// metadata.version). A caller's version that differs from the file's is an
// error naming both (wrapping ErrVersionConflict); no version at all wraps
// ErrNoVersion. The version is not checked for SkillServer's format here;
// ManifestEntry does that.
func EntryVersion(f *lint.File, version string) (string, error) {
	var own string
	if f != nil && f.Def != nil {
		own = f.Def.Version
	}
	switch {
	case version != "" && own != "" && version != own:
		return "", &VersionConflictError{Path: pathOf(f), Given: version, Own: own}
	case version != "":
		return version, nil
	case own != "":
		return own, nil
	}
	return "", &NoVersionError{Path: pathOf(f)}
}

// VersionConflictError is a caller's version that differs from the
// file's; it wraps ErrVersionConflict. The command line words it with the
// flag that gave the version.
type VersionConflictError struct {
	// Path is the file; Given the caller's version; Own the file's.
	Path, Given, Own string
}

// Error names both versions and says what to do.
func (e *VersionConflictError) Error() string { return e.Message("the version") }

// Message is the error with given naming where the caller's version came
// from ("the version", or a flag).
func (e *VersionConflictError) Message(given string) string {
	return fmt.Sprintf("%s: %s %q differs from the file's version %q: %v (drop %s, or change the file's version)", e.Path, given, e.Given, e.Own, ErrVersionConflict, given)
}

// Unwrap returns ErrVersionConflict.
func (e *VersionConflictError) Unwrap() error { return ErrVersionConflict }

// NoVersionError is a file to publish with no version from the caller or
// the file; it wraps ErrNoVersion. The command line words it with the flag
// that gives one.
type NoVersionError struct {
	// Path is the file.
	Path string
}

// Error names the file and says what to do.
func (e *NoVersionError) Error() string { return e.Message("give a version") }

// Message is the error with give as the first way to give a version.
func (e *NoVersionError) Message(give string) string {
	return fmt.Sprintf("%s: %v: %s or set metadata.version in the frontmatter", e.Path, ErrNoVersion, give)
}

// Unwrap returns ErrNoVersion.
func (e *NoVersionError) Unwrap() error { return ErrNoVersion }

// ManifestEntry returns the SkillServer manifest entry for publishing f as
// version (or the file's own version when version is ""): name and
// description from the definition, url under urlPrefix, digest of the exact
// bytes lint read. It refuses a file the runtime rejects, a name or version
// SkillServer refuses, and a file whose bytes lint could not read; it does
// not run the publish rules (lint with the Publish profile does).
func ManifestEntry(f *lint.File, version, urlPrefix string) (Entry, error) {
	if f == nil {
		return Entry{}, errors.New("no file to publish")
	}
	if f.Status != lint.Loaded || f.Def == nil {
		reason := f.Reason
		if reason == "" {
			reason = "the runtime does not load it"
		}
		return Entry{}, fmt.Errorf("%s cannot be published: %s", f.Path, reason)
	}
	digest := FileDigest(f)
	if digest == "" {
		return Entry{}, fmt.Errorf("%s cannot be published: its bytes were not read, so it has no digest", f.Path)
	}
	if !lint.ValidName(f.Def.Name) {
		return Entry{}, fmt.Errorf("%s: name %q is not lowercase kebab-case of at most 64 characters: SkillServer refuses it", f.Path, f.Def.Name)
	}
	v, err := EntryVersion(f, version)
	if err != nil {
		return Entry{}, err
	}
	if !ValidVersion(v) {
		return Entry{}, fmt.Errorf("%s: version %q is not 1–64 characters of A-Z a-z 0-9 . - +: SkillServer refuses it", f.Path, v)
	}
	return Entry{
		Kind:        EntryKind,
		Name:        f.Def.Name,
		Version:     v,
		Type:        EntryType,
		Description: f.Def.Description,
		URL:         ArtifactURL(urlPrefix, f.Def.Name, v),
		Digest:      digest,
	}, nil
}

func pathOf(f *lint.File) string {
	if f == nil {
		return "(no file)"
	}
	return f.Path
}

// SyncState says how a feed file's bytes compare with its feed's
// .sync-state.json.
type SyncState int

// A feed file either has no sync entry, matches the digest its entry
// recorded, differs from it (edited since the sync; the next sync
// overwrites it), or has an entry without a digest to compare.
const (
	NotSynced SyncState = iota
	SyncMatches
	SyncModified
	SyncNoDigest
)

// String names the state for a person: "not synced", "matches",
// "modified since sync" or "no digest recorded".
func (s SyncState) String() string {
	switch s {
	case SyncMatches:
		return "matches"
	case SyncModified:
		return "modified since sync"
	case SyncNoDigest:
		return "no digest recorded"
	}
	return "not synced"
}

// FeedSync is what a feed file's sync state says about it.
type FeedSync struct {
	// Feed is the feed's folder name.
	Feed string
	// Version is the version the feed synced.
	Version string
	// SyncedAt is the sync time as the state file wrote it.
	SyncedAt string
	// Recorded is the digest the sync recorded ("sha256:<hex>"), or "".
	Recorded string
	// Current is the digest of the bytes on disk now, or "".
	Current string
	// State compares the two.
	State SyncState
}

// SyncOf reports the sync state of a feed file: false for a local file.
// lint fills File.Sync from the feed's .sync-state.json; a feed file with no
// entry there comes back as NotSynced.
func SyncOf(f *lint.File) (FeedSync, bool) {
	if f == nil || !f.Source.IsFeed() {
		return FeedSync{}, false
	}
	fs := FeedSync{Feed: f.Source.Feed, Current: FileDigest(f)}
	if f.Sync == nil {
		return fs, true
	}
	fs.Version, fs.SyncedAt = f.Sync.Version, f.Sync.SyncedAtUTC
	recorded := strings.ToLower(strings.TrimPrefix(f.Sync.SHA256, "sha256:"))
	switch {
	case recorded == "" || fs.Current == "":
		fs.State = SyncNoDigest
	case "sha256:"+recorded == fs.Current:
		fs.State = SyncMatches
	default:
		fs.State = SyncModified
	}
	if recorded != "" {
		fs.Recorded = "sha256:" + recorded
	}
	return fs, true
}
