package netclaw

import "math/bits"

// The metadata tables (ECMA-335 II.22 and II.24.2.6). A row's width depends on
// the row counts of other tables (indexes are 2 bytes while they fit, else 4)
// and on the heap-size flags, so reaching one table means knowing the column
// types of every table before it. The schema below is the standard's, tables
// 0x00 to 0x2C; an assembly holds no other tables before ManifestResource.

// Table numbers the reader uses.
const (
	tabTypeRef          = 0x01
	tabMemberRef        = 0x0A
	tabCustomAttribute  = 0x0C
	tabAssembly         = 0x20
	tabManifestResource = 0x28
	numKnownTables      = 0x2D
)

// Column kinds: a fixed width, a heap index, an index into one table
// (colTable|table) or a coded index (colCoded|kind).
const (
	col2      = 1
	col4      = 2
	colString = 3
	colGUID   = 4
	colBlob   = 5
	colTable  = 0x100
	colCoded  = 0x200
)

// Coded index kinds (II.24.2.6): the tables each can point at, in tag order.
// -1 marks a tag the standard leaves unused.
const (
	ciTypeDefOrRef = iota
	ciHasConstant
	ciHasCustomAttribute
	ciHasFieldMarshal
	ciHasDeclSecurity
	ciMemberRefParent
	ciHasSemantics
	ciMethodDefOrRef
	ciMemberForwarded
	ciImplementation
	ciCustomAttributeType
	ciResolutionScope
	ciTypeOrMethodDef
)

var codedTables = [...][]int{
	ciTypeDefOrRef:       {0x02, 0x01, 0x1B},
	ciHasConstant:        {0x04, 0x08, 0x17},
	ciHasCustomAttribute: {0x06, 0x04, 0x01, 0x02, 0x08, 0x09, 0x0A, 0x00, 0x0E, 0x17, 0x14, 0x11, 0x1A, 0x1B, 0x20, 0x23, 0x26, 0x27, 0x28, 0x2A, 0x2C, 0x2B},
	ciHasFieldMarshal:    {0x04, 0x08},
	ciHasDeclSecurity:    {0x02, 0x06, 0x20},
	ciMemberRefParent:    {0x02, 0x01, 0x1A, 0x06, 0x1B},
	ciHasSemantics:       {0x14, 0x17},
	ciMethodDefOrRef:     {0x06, 0x0A},
	ciMemberForwarded:    {0x04, 0x06},
	ciImplementation:     {0x26, 0x23, 0x27},
	// CustomAttributeType has five tags: 0, 1 and 4 unused, 2 MethodDef, 3 MemberRef.
	ciCustomAttributeType: {-1, -1, 0x06, 0x0A, -1},
	ciResolutionScope:     {0x00, 0x1A, 0x23, 0x01},
	ciTypeOrMethodDef:     {0x02, 0x06},
}

func tab(t int) int  { return colTable | t }
func code(k int) int { return colCoded | k }

// schema lists each table's column kinds (II.22.2 to II.22.39).
var schema = [numKnownTables][]int{
	0x00: {col2, colString, colGUID, colGUID, colGUID},                             // Module
	0x01: {code(ciResolutionScope), colString, colString},                          // TypeRef
	0x02: {col4, colString, colString, code(ciTypeDefOrRef), tab(0x04), tab(0x06)}, // TypeDef
	0x03: {tab(0x04)},                                                              // FieldPtr
	0x04: {col2, colString, colBlob},                                               // Field
	0x05: {tab(0x06)},                                                              // MethodPtr
	0x06: {col4, col2, col2, colString, colBlob, tab(0x08)},                        // MethodDef
	0x07: {tab(0x08)},                                                              // ParamPtr
	0x08: {col2, col2, colString},                                                  // Param
	0x09: {tab(0x02), code(ciTypeDefOrRef)},                                        // InterfaceImpl
	0x0A: {code(ciMemberRefParent), colString, colBlob},                            // MemberRef
	0x0B: {col2, code(ciHasConstant), colBlob},                                     // Constant
	0x0C: {code(ciHasCustomAttribute), code(ciCustomAttributeType), colBlob},       // CustomAttribute
	0x0D: {code(ciHasFieldMarshal), colBlob},                                       // FieldMarshal
	0x0E: {col2, code(ciHasDeclSecurity), colBlob},                                 // DeclSecurity
	0x0F: {col2, col4, tab(0x02)},                                                  // ClassLayout
	0x10: {col4, tab(0x04)},                                                        // FieldLayout
	0x11: {colBlob},                                                                // StandAloneSig
	0x12: {tab(0x02), tab(0x14)},                                                   // EventMap
	0x13: {tab(0x14)},                                                              // EventPtr
	0x14: {col2, colString, code(ciTypeDefOrRef)},                                  // Event
	0x15: {tab(0x02), tab(0x17)},                                                   // PropertyMap
	0x16: {tab(0x17)},                                                              // PropertyPtr
	0x17: {col2, colString, colBlob},                                               // Property
	0x18: {col2, tab(0x06), code(ciHasSemantics)},                                  // MethodSemantics
	0x19: {tab(0x02), code(ciMethodDefOrRef), code(ciMethodDefOrRef)},              // MethodImpl
	0x1A: {colString},                                                              // ModuleRef
	0x1B: {colBlob},                                                                // TypeSpec
	0x1C: {col2, code(ciMemberForwarded), colString, tab(0x1A)},                    // ImplMap
	0x1D: {col4, tab(0x04)},                                                        // FieldRVA
	0x1E: {col4, col4},                                                             // EncLog
	0x1F: {col4},                                                                   // EncMap
	0x20: {col4, col2, col2, col2, col2, col4, colBlob, colString, colString},      // Assembly
	0x21: {col4},                                                                   // AssemblyProcessor
	0x22: {col4, col4, col4},                                                       // AssemblyOS
	0x23: {col2, col2, col2, col2, col4, colBlob, colString, colString, colBlob},   // AssemblyRef
	0x24: {col4, tab(0x23)},                                                        // AssemblyRefProcessor
	0x25: {col4, col4, col4, tab(0x23)},                                            // AssemblyRefOS
	0x26: {col4, colString, colBlob},                                               // File
	0x27: {col4, col4, colString, colString, code(ciImplementation)},               // ExportedType
	0x28: {col4, col4, colString, code(ciImplementation)},                          // ManifestResource
	0x29: {tab(0x02), tab(0x02)},                                                   // NestedClass
	0x2A: {col2, col2, code(ciTypeOrMethodDef), colString},                         // GenericParam
	0x2B: {code(ciMethodDefOrRef), colBlob},                                        // MethodSpec
	0x2C: {tab(0x2A), code(ciTypeDefOrRef)},                                        // GenericParamConstraint
}

// tables is the parsed #~ stream: row counts, and for each known table its
// bytes, row width and column offsets and widths.
type tables struct {
	rows   [64]uint32
	data   [numKnownTables][]byte
	width  [numKnownTables]int
	cols   [numKnownTables][]colPos
	strIdx int
}

// colPos is where a column sits in its row and how wide it is.
type colPos struct{ off, size int }

// parseTables reads the #~ stream's header and locates every known table up
// to and including ManifestResource; the tables after it are not needed.
func parseTables(b []byte) (*tables, error) {
	if len(b) < 24 {
		return nil, corrupt("the table stream (#~) is shorter than its header")
	}
	t := &tables{}
	heapSizes := b[6]
	valid := uint64(u32(b, 8)) | uint64(u32(b, 12))<<32
	off, err := t.readRowCounts(b, valid)
	if err != nil {
		return nil, err
	}
	if heapSizes&0x40 != 0 { // extra data after the row counts (uncompressed #- streams)
		off += 4
	}
	for i := numKnownTables; i < 0x30 && i < 64; i++ {
		if t.rows[i] != 0 && valid&(1<<i) != 0 {
			return nil, corrupt("the table stream holds table %#x, which no assembly has", i)
		}
	}
	t.strIdx = indexSize(heapSizes&0x01 != 0)
	heaps := heapIndexes{str: t.strIdx, guid: indexSize(heapSizes&0x02 != 0), blob: indexSize(heapSizes&0x04 != 0)}
	for ti := 0; ti <= tabManifestResource; ti++ {
		cols, w := t.layout(ti, heaps)
		size := uint64(w) * uint64(t.rows[ti])
		d, ok := span(b, off, size)
		if !ok {
			return nil, corrupt("metadata table %#x (%d rows) runs past the table stream", ti, t.rows[ti])
		}
		t.data[ti], t.width[ti], t.cols[ti] = d, w, cols
		off += size
	}
	return t, nil
}

// readRowCounts reads the row count of each table present in valid (a
// bit a table) from the stream's header, and returns the offset after
// them.
func (t *tables) readRowCounts(b []byte, valid uint64) (uint64, error) {
	off := uint64(24)
	for i := 0; i < 64; i++ {
		if valid&(1<<i) == 0 {
			continue
		}
		x, ok := span(b, off, 4)
		if !ok {
			return 0, corrupt("the table stream's row counts run past it")
		}
		t.rows[i] = u32(x, 0)
		off += 4
	}
	return off, nil
}

// indexSize is the width of an index: 4 bytes when big, else 2.
func indexSize(big bool) int {
	if big {
		return 4
	}
	return 2
}

// heapIndexes are the widths of indexes into the string, GUID and blob
// heaps.
type heapIndexes struct{ str, guid, blob int }

// layout returns where each column of table ti sits in its rows, and the
// rows' width.
func (t *tables) layout(ti int, heaps heapIndexes) (cols []colPos, w int) {
	cols = make([]colPos, len(schema[ti]))
	for ci, k := range schema[ti] {
		s := t.columnSize(k, heaps)
		cols[ci] = colPos{off: w, size: s}
		w += s
	}
	return cols, w
}

// columnSize is the width of a column of kind k: a fixed size, a heap
// index, an index into one table, or a coded index.
func (t *tables) columnSize(k int, heaps heapIndexes) int {
	switch {
	case k == col2:
		return 2
	case k == col4:
		return 4
	case k == colString:
		return heaps.str
	case k == colGUID:
		return heaps.guid
	case k == colBlob:
		return heaps.blob
	case k&colTable != 0:
		return indexSize(t.rows[k&0xff] >= 1<<16)
	default:
		return t.codedSize(k & 0xff)
	}
}

// codedSize is the width of coded index k: 4 bytes when a table it may
// point into has too many rows to leave room for its tag bits in 2.
func (t *tables) codedSize(k int) int {
	tagBits := bits.Len(uint(len(codedTables[k]) - 1))
	var most uint32
	for _, tb := range codedTables[k] {
		if tb >= 0 && t.rows[tb] > most {
			most = t.rows[tb]
		}
	}
	return indexSize(uint64(most) >= 1<<(16-tagBits))
}

// rowRef is one row of one table.
type rowRef struct {
	b    []byte
	cols []colPos
}

// row returns row i (0-based) of table ti; the caller keeps i below the
// table's row count.
func (t *tables) row(ti int, i uint32) rowRef {
	w := t.width[ti]
	return rowRef{b: t.data[ti][int(i)*w : int(i+1)*w], cols: t.cols[ti]}
}

// u reads column c of the row as an unsigned number.
func (r rowRef) u(c int) uint32 {
	p := r.cols[c]
	if p.size == 2 {
		return uint32(u16(r.b, p.off))
	}
	return u32(r.b, p.off)
}
