package preview

import "math"

// diffLines returns an edit script from a to b. It interns the lines, sets
// aside lines that occur on one side only (they are changes whatever the
// script, so leaving them out keeps the script shortest and the problem
// small), runs Myers' linear-space algorithm on the rest and maps the result
// back. limit caps the edit cost explored before a split falls back to a
// heuristic (0: a cap that grows with the square root of the input).
func diffLines(a, b []string, limit int) edits {
	ids := make(map[string]int32, len(a)+len(b))
	intern := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	ai, bi := intern(a), intern(b)

	inA := make([]bool, len(ids))
	inB := make([]bool, len(ids))
	for _, id := range ai {
		inA[id] = true
	}
	for _, id := range bi {
		inB[id] = true
	}
	// The kept lines of each side, and where each sits in the original.
	var xv, yv []int32
	var xi, yi []int
	for i, id := range ai {
		if inB[id] {
			xv, xi = append(xv, id), append(xi, i)
		}
	}
	for j, id := range bi {
		if inA[id] {
			yv, yi = append(yv, id), append(yi, j)
		}
	}

	if limit <= 0 {
		limit = costLimit(len(xv) + len(yv))
	}
	m := &myers{xv: xv, yv: yv, limit: limit,
		delX: make([]bool, len(xv)), insY: make([]bool, len(yv))}
	n := len(xv) + len(yv) + 3
	m.fd = make([]int, n)
	m.bd = make([]int, n)
	m.off = len(yv) + 1
	m.compare(0, len(xv), 0, len(yv))

	// Back to the original lines: everything not kept is changed.
	del := make([]bool, len(a))
	ins := make([]bool, len(b))
	for i := range del {
		del[i] = true
	}
	for i := range ins {
		ins[i] = true
	}
	for k, d := range m.delX {
		del[xi[k]] = d
	}
	for k, d := range m.insY {
		ins[yi[k]] = d
	}
	return collect(del, ins)
}

// costLimit is the edit cost after which a split gives up on a shortest
// script: about the square root of the input size, at least 1024, as GNU
// diff does.
func costLimit(n int) int {
	return max(1024, int(math.Sqrt(float64(n)))*4)
}

// collect turns per-line flags into changes. Within a change deletions come
// before insertions.
func collect(del, ins []bool) edits {
	var e edits
	i, j := 0, 0
	for i < len(del) || j < len(ins) {
		if (i < len(del) && del[i]) || (j < len(ins) && ins[j]) {
			c := change{A0: i, B0: j}
			for i < len(del) && del[i] {
				i++
			}
			for j < len(ins) && ins[j] {
				j++
			}
			c.A1, c.B1 = i, j
			e = append(e, c)
			continue
		}
		i++
		j++
	}
	return e
}

// myers holds the state of one linear-space diff (E. Myers, "An O(ND)
// Difference Algorithm and Its Variations", 1986, section 4b), laid out as
// GNU diffutils' compareseq.
type myers struct {
	xv, yv     []int32
	delX, insY []bool
	// fd and bd hold, per diagonal k = x-y (index k+off), the furthest x
	// the forward and the backward search reach.
	fd, bd []int
	off    int
	limit  int
}

// compare marks the changes that turn xv[xoff:xlim] into yv[yoff:ylim].
func (m *myers) compare(xoff, xlim, yoff, ylim int) {
	for {
		for xoff < xlim && yoff < ylim && m.xv[xoff] == m.yv[yoff] {
			xoff++
			yoff++
		}
		for xoff < xlim && yoff < ylim && m.xv[xlim-1] == m.yv[ylim-1] {
			xlim--
			ylim--
		}
		switch {
		case xoff == xlim:
			for y := yoff; y < ylim; y++ {
				m.insY[y] = true
			}
			return
		case yoff == ylim:
			for x := xoff; x < xlim; x++ {
				m.delX[x] = true
			}
			return
		}
		x, y := m.split(xoff, xlim, yoff, ylim)
		if (x == xoff && y == yoff) || (x == xlim && y == ylim) {
			// Cannot happen; should it, replace the whole range rather
			// than recurse for ever.
			for i := xoff; i < xlim; i++ {
				m.delX[i] = true
			}
			for j := yoff; j < ylim; j++ {
				m.insY[j] = true
			}
			return
		}
		// Recurse on the smaller half, loop on the other.
		if (x-xoff)+(y-yoff) < (xlim-x)+(ylim-y) {
			m.compare(xoff, x, yoff, y)
			xoff, yoff = x, y
		} else {
			m.compare(x, xlim, y, ylim)
			xlim, ylim = x, y
		}
	}
}

// split finds the middle of a shortest edit path from (xoff, yoff) to
// (xlim, ylim), the ends of both ranges being different lines. Past the
// cost limit it returns the point furthest along either search instead.
func (m *myers) split(xoff, xlim, yoff, ylim int) (int, int) {
	xv, yv, fd, bd, o := m.xv, m.yv, m.fd, m.bd, m.off
	dmin, dmax := xoff-ylim, xlim-yoff
	fmid, bmid := xoff-yoff, xlim-ylim
	fmin, fmax, bmin, bmax := fmid, fmid, bmid, bmid
	odd := (fmid-bmid)&1 != 0
	fd[fmid+o] = xoff
	bd[bmid+o] = xlim

	for c := 1; ; c++ {
		// One more step of the forward search.
		if fmin > dmin {
			fmin--
			fd[fmin-1+o] = -1
		} else {
			fmin++
		}
		if fmax < dmax {
			fmax++
			fd[fmax+1+o] = -1
		} else {
			fmax--
		}
		for d := fmax; d >= fmin; d -= 2 {
			tlo, thi := fd[d-1+o], fd[d+1+o]
			x := thi
			if tlo >= thi {
				x = tlo + 1
			}
			y := x - d
			for x < xlim && y < ylim && xv[x] == yv[y] {
				x++
				y++
			}
			fd[d+o] = x
			if odd && bmin <= d && d <= bmax && bd[d+o] <= x {
				return x, y
			}
		}

		// One more step of the backward search.
		if bmin > dmin {
			bmin--
			bd[bmin-1+o] = math.MaxInt
		} else {
			bmin++
		}
		if bmax < dmax {
			bmax++
			bd[bmax+1+o] = math.MaxInt
		} else {
			bmax--
		}
		for d := bmax; d >= bmin; d -= 2 {
			tlo, thi := bd[d-1+o], bd[d+1+o]
			x := thi - 1
			if tlo < thi {
				x = tlo
			}
			y := x - d
			for xoff < x && yoff < y && xv[x-1] == yv[y-1] {
				x--
				y--
			}
			bd[d+o] = x
			if !odd && fmin <= d && d <= fmax && x <= fd[d+o] {
				return x, y
			}
		}

		if c < m.limit {
			continue
		}
		// Too expensive: take the diagonal that got furthest, forward
		// (largest x+y) or backward (smallest x+y), whichever went further.
		fbest, fx := -1, 0
		for d := fmax; d >= fmin; d -= 2 {
			x := min(fd[d+o], xlim)
			y := x - d
			if ylim < y {
				x, y = ylim+d, ylim
			}
			if fbest < x+y {
				fbest, fx = x+y, x
			}
		}
		bbest, bx := math.MaxInt, 0
		for d := bmax; d >= bmin; d -= 2 {
			x := max(xoff, bd[d+o])
			y := x - d
			if y < yoff {
				x, y = yoff+d, yoff
			}
			if x+y < bbest {
				bbest, bx = x+y, x
			}
		}
		if (xlim+ylim)-bbest < fbest-(xoff+yoff) {
			return fx, fbest - fx
		}
		return bx, bbest - bx
	}
}
