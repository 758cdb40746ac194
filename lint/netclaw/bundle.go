package netclaw

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// This file reads a .NET single-file bundle (what `dotnet publish
// -p:PublishSingleFile=true` writes, and NetClaw ships as netclawd and
// netclaw) from the format's public description:
//
//   - The apphost at the start of the file carries a fixed placeholder: an
//     8-byte little-endian bundle header offset followed by a 32-byte marker,
//     the SHA-256 of ".net core bundle\n". The SDK finds the marker when it
//     writes the bundle and stores the header's offset in front of it; an
//     apphost that is not a bundle keeps the offset zero. That marker is the
//     only thing this reader searches for.
//   - The header: major and minor version (uint32 each), the number of files
//     (int32), the bundle id (a string); from version 2 on, the location
//     (offset, size: int64 each) of the deps.json and of the
//     runtimeconfig.json, and flags (uint64).
//   - The manifest, right after the header, one entry per file: offset, size,
//     from version 6 on the compressed size (int64 each; 0 means stored
//     uncompressed), the file type (one byte), the relative path (a string).
//   - Strings are .NET BinaryWriter strings: a 7-bit-encoded length, then
//     that many bytes of UTF-8.
//   - A compressed file is raw DEFLATE (RFC 1951, no zlib header), as .NET's
//     DeflateStream writes it, inflating to exactly its size.
//
// Every offset, size and count is checked against the file before it is
// used, and an entry that inflates beyond its declared size is an error.

// ErrNotBundle marks a file that is not a single-file bundle: no bundle
// marker at all (not an apphost), or an apphost whose header offset is zero
// (a framework-dependent or developer build, whose assemblies sit beside it).
var ErrNotBundle = errors.New("not a .NET single-file bundle")

// bundleMarker is the 32-byte marker in every apphost: SHA-256 of
// ".net core bundle\n".
var bundleMarker = func() []byte { s := sha256.Sum256([]byte(".net core bundle\n")); return s[:] }()

// Limits that keep a crafted file from making the reader allocate or work
// without bound. Real bundles stay far below them.
const (
	maxManifestBytes  = 16 << 20  // the header and manifest together
	maxBundleString   = 64 << 10  // one path or the bundle id
	maxEntryBytes     = 512 << 20 // one file taken out of the bundle
	markerChunk       = 1 << 20   // read size while looking for the marker
	latestBundleMajor = 6
)

// BundleFileType is the manifest's file type byte.
type BundleFileType uint8

// The file types a bundle manifest names.
const (
	BundleUnknown       BundleFileType = 0
	BundleAssembly      BundleFileType = 1
	BundleNativeBinary  BundleFileType = 2
	BundleDepsJSON      BundleFileType = 3
	BundleRuntimeConfig BundleFileType = 4
	BundleSymbols       BundleFileType = 5
)

// BundleFile is one manifest entry.
type BundleFile struct {
	// Path is the file's path relative to the app, with '/' separators.
	Path string
	// Offset and Size say where the file's stored bytes start in the bundle
	// and how long the file is once taken out.
	Offset, Size int64
	// CompressedSize is the stored length of a compressed file; 0 when the
	// file is stored as is.
	CompressedSize int64
	// Type is the manifest's type byte.
	Type BundleFileType
}

// Bundle is the parsed header and manifest of a single-file bundle, reading
// file contents on demand from the underlying file.
type Bundle struct {
	// Major and Minor are the bundle format version (6.0 since .NET 6).
	Major, Minor uint32
	// ID is the bundle id the SDK wrote (unique per build).
	ID string
	// Files lists the manifest entries in manifest order.
	Files []BundleFile

	r    io.ReaderAt
	size int64
}

// OpenBundle reads the bundle header and manifest of a file of the given
// size. A file without the marker, or an apphost whose header offset is
// zero, gives an error wrapping ErrNotBundle; a header or manifest that
// points outside the file or contradicts itself gives one wrapping
// ErrCorrupt. Errors do not name the file; the caller does.
func OpenBundle(r io.ReaderAt, size int64) (*Bundle, error) {
	at, err := findMarker(r, size)
	if err != nil {
		return nil, err
	}
	if at < 8 {
		return nil, corrupt("the bundle marker has no header offset in front of it")
	}
	var ob [8]byte
	if _, err := r.ReadAt(ob[:], at-8); err != nil {
		return nil, fmt.Errorf("reading the bundle header offset: %w", err)
	}
	hoff := int64(binary.LittleEndian.Uint64(ob[:]))
	if hoff == 0 {
		return nil, fmt.Errorf("%w: an apphost without a bundle (its assemblies are files beside it)", ErrNotBundle)
	}
	if hoff < 0 || hoff >= size {
		return nil, corrupt("the bundle header offset %d is outside the file (%d bytes)", hoff, size)
	}
	n := size - hoff
	if n > maxManifestBytes {
		n = maxManifestBytes
	}
	buf := make([]byte, n)
	if _, err := r.ReadAt(buf, hoff); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading the bundle manifest: %w", err)
	}
	b, err := parseManifest(buf, size)
	if err != nil {
		return nil, err
	}
	b.r, b.size = r, size
	return b, nil
}

// findMarker returns the offset of the first bundle marker in the file.
func findMarker(r io.ReaderAt, size int64) (int64, error) {
	keep := int64(len(bundleMarker) - 1)
	buf := make([]byte, min(size, markerChunk+keep))
	for pos := int64(0); pos < size; pos += markerChunk {
		n := int64(len(buf))
		if pos+n > size {
			n = size - pos
		}
		if _, err := r.ReadAt(buf[:n], pos); err != nil && !errors.Is(err, io.EOF) {
			return 0, fmt.Errorf("reading while looking for the bundle marker: %w", err)
		}
		if i := bytes.Index(buf[:n], bundleMarker); i >= 0 {
			return pos + int64(i), nil
		}
	}
	return 0, fmt.Errorf("%w: no bundle marker (not a .NET apphost)", ErrNotBundle)
}

// manifestReader decodes little-endian fields from the manifest bytes.
type manifestReader struct {
	b   []byte
	off int
	err error
}

func (m *manifestReader) take(n int, what string) []byte {
	if m.err != nil {
		return nil
	}
	if n > len(m.b)-m.off {
		m.err = corrupt("the bundle manifest ends inside %s", what)
		return nil
	}
	s := m.b[m.off : m.off+n]
	m.off += n
	return s
}

func (m *manifestReader) u32(what string) uint32 {
	if s := m.take(4, what); s != nil {
		return binary.LittleEndian.Uint32(s)
	}
	return 0
}

func (m *manifestReader) i64(what string) int64 {
	if s := m.take(8, what); s != nil {
		return int64(binary.LittleEndian.Uint64(s))
	}
	return 0
}

// str reads a BinaryWriter string: a 7-bit-encoded length, then UTF-8.
func (m *manifestReader) str(what string) string {
	var n uint64
	for shift := 0; ; shift += 7 {
		s := m.take(1, what)
		if s == nil {
			return ""
		}
		if shift == 35 {
			m.err = corrupt("the length of %s is not a valid 7-bit-encoded number", what)
			return ""
		}
		n |= uint64(s[0]&0x7f) << shift
		if s[0]&0x80 == 0 {
			break
		}
	}
	if n > maxBundleString {
		m.err = corrupt("%s is %d bytes long (more than %d)", what, n, maxBundleString)
		return ""
	}
	s := m.take(int(n), what)
	if s == nil {
		return ""
	}
	if !utf8.Valid(s) {
		m.err = corrupt("%s is not valid UTF-8", what)
		return ""
	}
	return string(s)
}

// parseManifest decodes the header and manifest; fileSize bounds every
// location it names.
func parseManifest(buf []byte, fileSize int64) (*Bundle, error) {
	m := &manifestReader{b: buf}
	b := &Bundle{}
	b.Major = m.u32("the bundle version")
	b.Minor = m.u32("the bundle version")
	count := int32(m.u32("the file count"))
	b.ID = m.str("the bundle id")
	if m.err != nil {
		return nil, m.err
	}
	if b.Major == 0 || b.Major > latestBundleMajor {
		return nil, corrupt("bundle format version %d.%d is not one this reader knows (1 to %d); if NetClaw is newer than agentdesk, update agentdesk", b.Major, b.Minor, latestBundleMajor)
	}
	if b.Major >= 2 {
		if err := m.v2Header(fileSize); err != nil {
			return nil, err
		}
	}
	if m.err != nil {
		return nil, m.err
	}
	// Each entry takes at least 8+8+1+1 bytes: a count the rest of the
	// manifest cannot hold is a lie, caught before anything is allocated.
	if count < 0 || int64(count)*18 > int64(len(buf)-m.off) {
		return nil, corrupt("the bundle manifest claims %d files, more than it has room for", count)
	}
	b.Files = make([]BundleFile, 0, count)
	for i := int32(0); i < count; i++ {
		f, err := m.entry(i, b.Major, fileSize)
		if err != nil {
			return nil, err
		}
		b.Files = append(b.Files, f)
	}
	return b, nil
}

// v2Header reads what a version 2 header adds: the locations of
// deps.json and runtimeconfig.json, which must lie inside the file of
// fileSize bytes, and the bundle flags.
func (m *manifestReader) v2Header(fileSize int64) error {
	for _, what := range []string{"the deps.json location", "the runtimeconfig.json location"} {
		off, size := m.i64(what), m.i64(what)
		if m.err == nil && (off < 0 || size < 0 || off > fileSize || size > fileSize-off) {
			return corrupt("%s (%d bytes at %d) is outside the file (%d bytes)", what, size, off, fileSize)
		}
	}
	m.take(8, "the bundle flags")
	return nil
}

// entry reads manifest entry i of a bundle of format version major: its
// offset, sizes (a compressed size from version 6), type and path. What
// it stores must lie inside the file of fileSize bytes.
func (m *manifestReader) entry(i int32, major uint32, fileSize int64) (BundleFile, error) {
	var f BundleFile
	what := fmt.Sprintf("manifest entry %d", i)
	f.Offset = m.i64(what)
	f.Size = m.i64(what)
	if major >= 6 {
		f.CompressedSize = m.i64(what)
	}
	if t := m.take(1, what); t != nil {
		f.Type = BundleFileType(t[0])
	}
	f.Path = m.str(what + "'s path")
	if m.err != nil {
		return f, m.err
	}
	stored := f.Size
	if f.CompressedSize != 0 {
		stored = f.CompressedSize
	}
	if f.Offset < 0 || f.Size < 0 || f.CompressedSize < 0 || f.Offset > fileSize || stored > fileSize-f.Offset {
		return f, corrupt("the manifest puts %q (%d bytes at offset %d) outside the file (%d bytes)", f.Path, stored, f.Offset, fileSize)
	}
	return f, nil
}

// File returns the manifest entry with exactly this relative path.
func (b *Bundle) File(path string) (BundleFile, bool) {
	for _, f := range b.Files {
		if f.Path == path {
			return f, true
		}
	}
	return BundleFile{}, false
}

// ReadFile takes one file out of the bundle, inflating it when it is stored
// compressed. A compressed entry that inflates to more or fewer bytes than
// its declared size, or whose stream is damaged, is an error wrapping
// ErrCorrupt; so is a declared size beyond what this reader accepts.
func (b *Bundle) ReadFile(f BundleFile) ([]byte, error) {
	if f.Size > maxEntryBytes {
		return nil, corrupt("%q declares %d bytes (more than the %d this reader takes out of a bundle)", f.Path, f.Size, maxEntryBytes)
	}
	if f.CompressedSize == 0 {
		// Stored as is: the manifest check keeps Size within the file.
		out := make([]byte, f.Size)
		if _, err := b.r.ReadAt(out, f.Offset); err != nil {
			if errors.Is(err, io.EOF) {
				return nil, corrupt("%q ends before its %d bytes", f.Path, f.Size)
			}
			return nil, fmt.Errorf("reading %q from the bundle: %w", f.Path, err)
		}
		return out, nil
	}
	// Inflate into a buffer that grows with what actually comes out, never
	// past one byte more than declared: a lying size costs nothing up front.
	zr := flate.NewReader(io.NewSectionReader(b.r, f.Offset, f.CompressedSize))
	defer zr.Close()
	var out bytes.Buffer
	out.Grow(int(min(f.Size, 4*f.CompressedSize+4096)))
	n, err := io.Copy(&out, io.LimitReader(zr, f.Size+1))
	switch {
	case err != nil:
		return nil, corrupt("%q does not inflate: %v", f.Path, err)
	case n > f.Size:
		return nil, corrupt("%q inflates beyond its declared size of %d bytes", f.Path, f.Size)
	case n < f.Size:
		return nil, corrupt("%q inflates to fewer than its declared %d bytes (%d)", f.Path, f.Size, n)
	}
	return out.Bytes(), nil
}
