package netclaw

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// This file reads a .NET assembly (a PE/COFF image with CLI metadata) far
// enough to list and extract its embedded manifest resources and to read its
// version. It follows the layout ECMA-335 (6th edition), partition II,
// describes: §25 (the PE file format and the CLI header), §24.2 (the metadata
// root and its streams) and §22 (the metadata tables and their columns).
// Every offset and length it reads is checked against the image before use.

// ErrNotDotNet marks an image that is not a .NET assembly: no PE header, or no
// CLI header in it.
var ErrNotDotNet = errors.New("not a .NET assembly")

// ErrCorrupt marks an image or bundle whose structure points outside itself
// or contradicts itself: truncated, damaged, or crafted.
var ErrCorrupt = errors.New("corrupt or truncated")

// Assembly is one parsed .NET assembly: its identity and its embedded
// resources. The resource bytes alias the image it was parsed from.
type Assembly struct {
	// Name is the assembly's simple name from its Assembly table row
	// (for example "Netclaw.Configuration").
	Name string
	// Version is the four-part assembly version, "major.minor.build.revision".
	Version string
	// InformationalVersion is the [AssemblyInformationalVersion] attribute's
	// text when the assembly carries it (a .NET build stamps the package
	// version there, such as "0.19.0-beta.1+abc123"), else "".
	InformationalVersion string

	resources []resource
}

// resource is one embedded manifest resource: its name and its bytes.
type resource struct {
	name string
	data []byte
}

// ResourceNames lists the names of the resources embedded in the assembly,
// in metadata order.
func (a *Assembly) ResourceNames() []string {
	names := make([]string, len(a.resources))
	for i, r := range a.resources {
		names[i] = r.name
	}
	return names
}

// resource returns the bytes of the resource with exactly this name (names
// are case-sensitive, as GetManifestResourceStream matches them).
func (a *Assembly) resource(name string) ([]byte, bool) {
	for _, r := range a.resources {
		if r.name == name {
			return r.data, true
		}
	}
	return nil, false
}

// ParseAssembly reads a .NET assembly image. An image that is not PE, or PE
// without a CLI header, gives an error wrapping ErrNotDotNet; one whose
// structures point outside the image gives an error wrapping ErrCorrupt. The
// error does not name a file: the caller knows which file the image came from.
func ParseAssembly(img []byte) (*Assembly, error) {
	p := peImage{b: img}
	cli, err := p.cliHeader()
	if err != nil {
		return nil, err
	}
	md, err := p.metadata(cli)
	if err != nil {
		return nil, err
	}
	tabs, err := parseTables(md.tables)
	if err != nil {
		return nil, err
	}
	h := heaps{strings: md.strings, blob: md.blob}
	a := &Assembly{}
	if err := a.readIdentity(tabs, h); err != nil {
		return nil, err
	}
	if err := a.readResources(&p, cli, tabs, h); err != nil {
		return nil, err
	}
	a.InformationalVersion = informationalVersion(tabs, h)
	return a, nil
}

// corrupt wraps ErrCorrupt with what was wrong.
func corrupt(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
}

// ---- PE ----

// peImage is the raw image with its section table, once read.
type peImage struct {
	b        []byte
	sections []section
}

// section is one row of the PE section table.
type section struct {
	va, vsize, raw, rawSize uint32
}

// cliHeaderInfo holds the CLI header fields the reader uses (ECMA-335 II.25.3.3).
type cliHeaderInfo struct {
	metaRVA, metaSize uint32
	resRVA, resSize   uint32
}

func u16(b []byte, off int) uint16 { return binary.LittleEndian.Uint16(b[off:]) }
func u32(b []byte, off int) uint32 { return binary.LittleEndian.Uint32(b[off:]) }

// span returns b[off:off+n] when that lies inside b.
func span(b []byte, off, n uint64) ([]byte, bool) {
	if off > uint64(len(b)) || n > uint64(len(b))-off {
		return nil, false
	}
	return b[off : off+n], true
}

// cliHeader finds the PE headers, the section table and the CLI header
// (data directory 14).
func (p *peImage) cliHeader() (cliHeaderInfo, error) {
	var c cliHeaderInfo
	b := p.b
	if len(b) < 0x40 || b[0] != 'M' || b[1] != 'Z' {
		return c, fmt.Errorf("%w: no MZ header", ErrNotDotNet)
	}
	pe := uint64(u32(b, 0x3c))
	sig, ok := span(b, pe, 4+20)
	if !ok || string(sig[:4]) != "PE\x00\x00" {
		return c, fmt.Errorf("%w: no PE header", ErrNotDotNet)
	}
	coff := sig[4:]
	nsect := uint64(u16(coff, 2))
	optSize := uint64(u16(coff, 16))
	opt, ok := span(b, pe+24, optSize)
	if !ok || optSize < 2 {
		return c, corrupt("the PE optional header runs past the end of the image")
	}
	var dirs, ndirOff int
	switch u16(opt, 0) {
	case 0x10b: // PE32
		dirs, ndirOff = 96, 92
	case 0x20b: // PE32+
		dirs, ndirOff = 112, 108
	default:
		return c, fmt.Errorf("%w: unknown PE optional header magic %#x", ErrNotDotNet, u16(opt, 0))
	}
	if len(opt) < dirs {
		return c, corrupt("the PE optional header is too short")
	}
	ndirs := u32(opt, ndirOff)
	const cliDir = 14
	if ndirs <= cliDir || len(opt) < dirs+(cliDir+1)*8 {
		return c, fmt.Errorf("%w: no CLI header (a native binary)", ErrNotDotNet)
	}
	cliRVA, cliSize := u32(opt, dirs+cliDir*8), u32(opt, dirs+cliDir*8+4)
	if cliRVA == 0 || cliSize == 0 {
		return c, fmt.Errorf("%w: no CLI header (a native binary)", ErrNotDotNet)
	}
	st, ok := span(b, pe+24+optSize, nsect*40)
	if !ok {
		return c, corrupt("the PE section table runs past the end of the image")
	}
	p.sections = make([]section, nsect)
	for i := range p.sections {
		s := st[i*40:]
		p.sections[i] = section{vsize: u32(s, 8), va: u32(s, 12), rawSize: u32(s, 16), raw: u32(s, 20)}
	}
	h, err := p.at(cliRVA, 72, "CLI header")
	if err != nil {
		return c, err
	}
	c.metaRVA, c.metaSize = u32(h, 8), u32(h, 12)
	c.resRVA, c.resSize = u32(h, 24), u32(h, 28)
	return c, nil
}

// at returns n bytes at a relative virtual address, through the section that
// holds it; what is named goes into the error.
func (p *peImage) at(rva, n uint32, what string) ([]byte, error) {
	for _, s := range p.sections {
		size := s.rawSize
		if s.vsize != 0 && s.vsize < size {
			size = s.vsize
		}
		if rva >= s.va && uint64(rva)-uint64(s.va) < uint64(size) {
			if uint64(rva)-uint64(s.va)+uint64(n) > uint64(size) {
				return nil, corrupt("the %s runs past the end of its section", what)
			}
			out, ok := span(p.b, uint64(s.raw)+uint64(rva-s.va), uint64(n))
			if !ok {
				return nil, corrupt("the %s lies past the end of the image", what)
			}
			return out, nil
		}
	}
	return nil, corrupt("the %s (RVA %#x) is in no section of the image", what, rva)
}

// ---- metadata root and streams (II.24.2) ----

// streams holds the metadata streams the reader uses.
type streams struct {
	tables, strings, blob []byte
}

// streamHeader reads metadata stream header i at off in the metadata
// md: the stream's name and bytes, and the offset of the next header.
func streamHeader(md []byte, off uint64, i int) (name string, data []byte, next uint64, err error) {
	h, ok := span(md, off, 8)
	if !ok {
		return "", nil, 0, corrupt("metadata stream header %d runs past the metadata", i)
	}
	soff, ssize := uint64(u32(h, 0)), uint64(u32(h, 4))
	off += 8
	// The name is NUL-terminated, at most 32 bytes, padded to 4.
	end := off
	for end < uint64(len(md)) && end-off < 32 && md[end] != 0 {
		end++
	}
	if end >= uint64(len(md)) || md[end] != 0 {
		return "", nil, 0, corrupt("metadata stream header %d has an unterminated name", i)
	}
	name = string(md[off:end])
	data, ok = span(md, soff, ssize)
	if !ok {
		return "", nil, 0, corrupt("metadata stream %q lies outside the metadata", name)
	}
	return name, data, (end + 1 + 3) &^ 3, nil
}

// metadata reads the metadata root the CLI header points at, and finds
// the table, string and blob streams in it.
func (p *peImage) metadata(c cliHeaderInfo) (streams, error) {
	var s streams
	md, err := p.at(c.metaRVA, c.metaSize, "metadata")
	if err != nil {
		return s, err
	}
	if len(md) < 16 || u32(md, 0) != 0x424A5342 { // "BSJB"
		return s, corrupt("the metadata root has no BSJB signature")
	}
	vlen := uint64(u32(md, 12))
	off := 16 + vlen
	hdr, ok := span(md, off, 4)
	if !ok {
		return s, corrupt("the metadata root's version string runs past the metadata")
	}
	n := int(u16(hdr, 2))
	off += 4
	for i := 0; i < n; i++ {
		var name string
		var data []byte
		name, data, off, err = streamHeader(md, off, i)
		if err != nil {
			return s, err
		}
		switch name {
		case "#~", "#-":
			s.tables = data
		case "#Strings":
			s.strings = data
		case "#Blob":
			s.blob = data
		}
	}
	if s.tables == nil {
		return s, corrupt("the metadata has no table stream (#~)")
	}
	return s, nil
}

// heaps resolves indexes into the #Strings and #Blob heaps.
type heaps struct {
	strings, blob []byte
}

// str returns the NUL-terminated UTF-8 string at index i of #Strings.
func (h heaps) str(i uint32) (string, error) {
	if uint64(i) >= uint64(len(h.strings)) {
		if i == 0 {
			return "", nil
		}
		return "", corrupt("string index %#x is outside the #Strings heap", i)
	}
	rest := h.strings[i:]
	for j, c := range rest {
		if c == 0 {
			return string(rest[:j]), nil
		}
	}
	return "", corrupt("string at %#x in #Strings is not terminated", i)
}

// blobAt returns the blob at index i of #Blob (II.24.2.4: a compressed
// length, then that many bytes).
func (h heaps) blobAt(i uint32) ([]byte, error) {
	n, used, ok := compressedUint(h.blob, uint64(i))
	if !ok {
		return nil, corrupt("blob index %#x is outside the #Blob heap", i)
	}
	b, ok := span(h.blob, uint64(i)+uint64(used), uint64(n))
	if !ok {
		return nil, corrupt("blob at %#x runs past the #Blob heap", i)
	}
	return b, nil
}

// compressedUint decodes ECMA-335's compressed unsigned integer (II.23.2) at
// b[off:]: its value and how many bytes it used.
func compressedUint(b []byte, off uint64) (uint32, int, bool) {
	if off >= uint64(len(b)) {
		return 0, 0, false
	}
	c := b[off]
	switch {
	case c&0x80 == 0:
		return uint32(c), 1, true
	case c&0xc0 == 0x80:
		x, ok := span(b, off, 2)
		if !ok {
			return 0, 0, false
		}
		return uint32(c&0x3f)<<8 | uint32(x[1]), 2, true
	case c&0xe0 == 0xc0:
		x, ok := span(b, off, 4)
		if !ok {
			return 0, 0, false
		}
		return uint32(c&0x1f)<<24 | uint32(x[1])<<16 | uint32(x[2])<<8 | uint32(x[3]), 4, true
	}
	return 0, 0, false
}

// ---- resources (II.22.24) and identity (II.22.2) ----

func (a *Assembly) readIdentity(t *tables, h heaps) error {
	if t.rows[tabAssembly] == 0 {
		return fmt.Errorf("%w: a module without an Assembly table row (a .netmodule, not an assembly)", ErrNotDotNet)
	}
	r := t.row(tabAssembly, 0)
	a.Version = fmt.Sprintf("%d.%d.%d.%d", r.u(1), r.u(2), r.u(3), r.u(4))
	name, err := h.str(r.u(7))
	if err != nil {
		return err
	}
	a.Name = name
	return nil
}

func (a *Assembly) readResources(p *peImage, c cliHeaderInfo, t *tables, h heaps) error {
	n := t.rows[tabManifestResource]
	if n == 0 {
		return nil
	}
	var section []byte
	for i := uint32(0); i < n; i++ {
		r := t.row(tabManifestResource, i)
		name, err := h.str(r.u(2))
		if err != nil {
			return err
		}
		if r.u(3) != 0 {
			continue // kept in another file or assembly, not embedded here
		}
		if section == nil {
			if section, err = p.at(c.resRVA, c.resSize, "resources directory"); err != nil {
				return err
			}
		}
		off := uint64(r.u(0))
		lb, ok := span(section, off, 4)
		if !ok {
			return corrupt("resource %q starts outside the resources directory", name)
		}
		data, ok := span(section, off+4, uint64(u32(lb, 0)))
		if !ok {
			return corrupt("resource %q runs past the resources directory", name)
		}
		a.resources = append(a.resources, resource{name: name, data: data})
	}
	return nil
}

// informationalVersion returns the fixed string argument of the assembly's
// System.Reflection.AssemblyInformationalVersionAttribute, or "" when it has
// none or the attribute cannot be read (the version is a nicety: a damaged
// attribute never fails the read of the resources).
func informationalVersion(t *tables, h heaps) string {
	const assemblyParent = 1<<5 | 14 // HasCustomAttribute: Assembly (tag 14), row 1
	for i := uint32(0); i < t.rows[tabCustomAttribute]; i++ {
		r := t.row(tabCustomAttribute, i)
		if r.u(0) != assemblyParent || r.u(1)&7 != 3 { // CustomAttributeType: MemberRef
			continue
		}
		ns, name, ok := memberRefType(t, h, r.u(1)>>3)
		if !ok || name != "AssemblyInformationalVersionAttribute" || ns != "System.Reflection" {
			continue
		}
		v, err := h.blobAt(r.u(2))
		if err != nil {
			return ""
		}
		return fixedStringArg(v)
	}
	return ""
}

// memberRefType returns the namespace and name of the type that declares
// MemberRef row mr (1-based), when that is a TypeRef; ok is false when a
// row is out of range, the parent is another kind, or a name cannot be
// read.
func memberRefType(t *tables, h heaps, mr uint32) (ns, name string, ok bool) {
	if mr == 0 || mr > t.rows[tabMemberRef] {
		return "", "", false
	}
	class := t.row(tabMemberRef, mr-1).u(0)
	if class&7 != 1 { // MemberRefParent: TypeRef
		return "", "", false
	}
	tr := class >> 3
	if tr == 0 || tr > t.rows[tabTypeRef] {
		return "", "", false
	}
	ref := t.row(tabTypeRef, tr-1)
	name, err1 := h.str(ref.u(1))
	ns, err2 := h.str(ref.u(2))
	return ns, name, err1 == nil && err2 == nil
}

// fixedStringArg returns the first fixed argument of a custom attribute's
// blob v, a string, trimmed; "" when it is null or cannot be read.
func fixedStringArg(v []byte) string {
	if len(v) < 3 || v[0] != 1 || v[1] != 0 {
		return ""
	}
	if v[2] == 0xff { // a null string
		return ""
	}
	n, used, ok := compressedUint(v, 2)
	if !ok {
		return ""
	}
	s, ok := span(v, 2+uint64(used), uint64(n))
	if !ok || !utf8.Valid(s) {
		return ""
	}
	return strings.TrimSpace(string(s))
}
