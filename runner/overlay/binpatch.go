package overlay

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
)

// zeroID is the object id git writes for a side that does not exist.
const zeroID = "0000000000000000000000000000000000000000"

// blobID is the id git gives data as a blob (SHA-1 of "blob <len>\0" and
// the data). `git apply` checks a binary patch's preimage and result
// against the ids of its index line, so they must be exact.
func blobID(data []byte) string {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// base85 is git's alphabet for binary patches (base85.c).
const base85 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// writeBinaryDiff writes one binary file's change as git's binary patch
// (`git diff --binary`): an index line with both blob ids, then `GIT
// binary patch` and a literal hunk of the new content, zlib-compressed
// and base85-encoded in lines of up to 52 bytes. The reverse hunk (the old
// content) is left out: git apply does not need it, and the project's own
// bytes stay out of the run folder.
func writeBinaryDiff(b *bytes.Buffer, c Change) {
	p := c.Path
	a, bb := quotePath("a/"+p), quotePath("b/"+p)
	fmt.Fprintf(b, "diff --git %s %s\n", a, bb)
	oldID, newID := blobID(c.Old), blobID(c.New)
	mode := ""
	switch c.Kind {
	case Added:
		fmt.Fprintf(b, "new file mode %s\n", gitMode(false, c.NewMode))
		oldID = zeroID
	case Deleted:
		fmt.Fprintf(b, "deleted file mode %s\n", gitMode(false, c.OldMode))
		newID = zeroID
	default:
		if c.OldMode.Perm() != c.NewMode.Perm() {
			fmt.Fprintf(b, "old mode %s\nnew mode %s\n", gitMode(false, c.OldMode), gitMode(false, c.NewMode))
		} else {
			mode = " " + gitMode(false, c.NewMode)
		}
	}
	if oldID == newID {
		return // a mode change only
	}
	fmt.Fprintf(b, "index %s..%s%s\n", oldID, newID, mode)
	b.WriteString("GIT binary patch\n")
	var content []byte
	if c.Kind != Deleted {
		content = c.New
	}
	writeLiteral(b, content)
}

// writeLiteral writes a literal hunk: `literal N` (N the inflated size),
// the deflated bytes in base85 lines, and a blank line.
func writeLiteral(b *bytes.Buffer, data []byte) {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(data)
	w.Close()
	fmt.Fprintf(b, "literal %d\n", len(data))
	packed := z.Bytes()
	for len(packed) > 0 {
		n := min(len(packed), 52)
		if n <= 26 {
			b.WriteByte(byte('A' + n - 1))
		} else {
			b.WriteByte(byte('a' + n - 27))
		}
		encode85(b, packed[:n])
		b.WriteByte('\n')
		packed = packed[n:]
	}
	b.WriteByte('\n')
}

// encode85 writes data in git's base85: each group of four bytes (the
// last padded with zeros) as five characters, most significant first.
func encode85(b *bytes.Buffer, data []byte) {
	for len(data) > 0 {
		var acc uint32
		for i := 0; i < 4; i++ {
			acc <<= 8
			if i < len(data) {
				acc |= uint32(data[i])
			}
		}
		var out [5]byte
		for i := 4; i >= 0; i-- {
			out[i] = base85[acc%85]
			acc /= 85
		}
		b.Write(out[:])
		if len(data) < 4 {
			break
		}
		data = data[4:]
	}
}
