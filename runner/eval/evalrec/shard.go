package evalrec

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxShards caps N in --shard K/N.
const MaxShards = 1000

// Shard is one of N shares of the cases (--shard K/N), for N CI jobs
// that each run a share: a case belongs to shard K when the FNV-1a hash
// of its key (the suite file's name and the case's name) is K-1 modulo
// N. The key holds no folder and no order, so the same case lands in the
// same shard on every machine, whatever the other cases. The nil Shard
// holds every case.
type Shard struct {
	K, N int
}

// ParseShard reads "K/N" (1 ≤ K ≤ N ≤ MaxShards).
func ParseShard(s string) (*Shard, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	kk, err1 := strconv.Atoi(strings.TrimSpace(k))
	nn, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("shard %q is not K/N: give it as 2/4 (the second of four shares)", s)
	}
	if nn < 1 || nn > MaxShards || kk < 1 || kk > nn {
		return nil, fmt.Errorf("shard %q: K/N needs 1 ≤ K ≤ N ≤ %d", s, MaxShards)
	}
	return &Shard{K: kk, N: nn}, nil
}

// String returns "K/N".
func (s *Shard) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// Has reports whether the case named caseName of the suite file at
// suitePath belongs to the shard.
func (s *Shard) Has(suitePath, caseName string) bool {
	if s == nil || s.N <= 1 {
		return true
	}
	return ShardOf(suitePath, caseName, s.N) == s.K
}

// ShardOf returns the shard (1 to n) the case belongs to among n.
func ShardOf(suitePath, caseName string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(filepath.Base(suitePath)))
	h.Write([]byte{0})
	h.Write([]byte(caseName))
	return int(h.Sum64()%uint64(n)) + 1
}
