package evalrec

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in, want, fail string
	}{
		{"1/1", "1/1", ""},
		{"2/4", "2/4", ""},
		{" 3 / 3 ", "3/3", ""},
		{"0/4", "", "1 ≤ K ≤ N"},
		{"5/4", "", "1 ≤ K ≤ N"},
		{"1/0", "", "1 ≤ K ≤ N"},
		{"1/1001", "", "≤ 1000"},
		{"2", "", "is not K/N"},
		{"a/b", "", "is not K/N"},
		{"-1/2", "", "1 ≤ K ≤ N"},
	}
	for _, tt := range tests {
		s, err := ParseShard(tt.in)
		switch {
		case tt.fail != "":
			if err == nil || !strings.Contains(err.Error(), tt.fail) {
				t.Errorf("ParseShard(%q) = %v, %v; want an error with %q", tt.in, s, err, tt.fail)
			}
		case err != nil || s.String() != tt.want:
			t.Errorf("ParseShard(%q) = %v, %v; want %s", tt.in, s, err, tt.want)
		}
	}
}

// TestShardsSplitTheCases: every case is in exactly one shard of N, the
// same whatever folder the suite is in, and the shares are not lopsided.
func TestShardsSplitTheCases(t *testing.T) {
	const cases, n = 1000, 4
	count := make([]int, n+1)
	for i := range cases {
		name := fmt.Sprintf("case %d", i)
		in := 0
		for k := 1; k <= n; k++ {
			if (&Shard{K: k, N: n}).Has("agents/x.test.yaml", name) {
				in++
				count[k]++
				if !(&Shard{K: k, N: n}).Has("/elsewhere/agents/x.test.yaml", name) {
					t.Errorf("%s moves shard with the suite's folder", name)
				}
			}
		}
		if in != 1 {
			t.Fatalf("%s is in %d shards of %d", name, in, n)
		}
	}
	for k := 1; k <= n; k++ {
		if count[k] < cases/n/2 || count[k] > cases/n*2 {
			t.Errorf("shard %d/%d holds %d of %d cases", k, n, count[k], cases)
		}
	}
	var none *Shard
	if !none.Has("x.test.yaml", "a") || !(&Shard{K: 1, N: 1}).Has("x.test.yaml", "a") {
		t.Error("no shard, or one of one, leaves a case out")
	}
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"1/2", "0/0", "9999999999999/1", "/", "1/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.K < 1 || sh.K > sh.N || sh.N > MaxShards {
			t.Fatalf("ParseShard(%q) = %v", s, sh)
		}
		if k := ShardOf("a.test.yaml", s, sh.N); k < 1 || k > sh.N {
			t.Fatalf("ShardOf = %d of %d", k, sh.N)
		}
	})
}
