// This file implements the Houdini search in parts, for candidate sets
// too large for one search: every solver of a search holds all its
// candidates as hypotheses, and DSTM's thousands of them take gigabytes.

package infer

import (
	"context"
	"fmt"
	"time"

	"ladder/internal/smt"
)

// DefaultPartSize is the default of Options.PartSize: TL2's 1,216
// non-redundant candidates are searched at once.
const DefaultPartSize = 2000

// HoudiniPart is one part of a search in parts.
type HoudiniPart struct {
	Sweep      int     `json:"sweep"`      // from 1
	Candidates int     `json:"candidates"` // the part's own, reserve ones included
	Kept       int     `json:"kept"`       // the candidates kept from the parts before
	Inductive  int     `json:"inductive"`  // the candidates kept after it
	Seconds    float64 `json:"seconds"`
}

// maxSweeps bounds the sweeps of searchParts over the parts.
const maxSweeps = 3

// searchParts runs the Houdini search on pool in parts of at most size
// non-redundant candidates, in pool order; a reserve candidate joins the
// part of the last of the candidates that imply it. Part k is searched
// together with the candidates kept so far, and keeps those it finds
// inductive with them. A candidate dropped for want of one of a later
// part gets another chance in the next sweep, over the candidates not
// kept, until a sweep keeps no new one (at most maxSweeps): a sweep after
// one that kept nothing new would repeat its searches exactly.
//
// The result is inductive: the set K kept so far is inductive relative to
// itself, and a later search, whose live set always contains K, cannot
// break a candidate of K with a model of its hypotheses (it can drop one
// whose check is unknown). It is not always the greatest inductive subset
// of pool: candidates of different parts that hold only together are
// dropped. Like every search's result, it is proved afterwards (finalize).
func (s *session) searchParts(ctx context.Context, pool []*cand, size int, name func(int) string, workers int, limits smt.Config) ([]*cand, []HoudiniRound, []HoudiniPart, error) {
	idx := make(map[*cand]int, len(pool))
	for i, c := range pool {
		idx[c] = i
	}
	var kept []*cand
	var rounds []HoudiniRound
	var stats []HoudiniPart
	rest := pool
	for sweep := 1; sweep <= maxSweeps && len(rest) > 0; sweep++ {
		before := len(kept)
		parts := partition(rest, size)
		for k, members := range parts {
			if err := ctx.Err(); err != nil {
				return nil, rounds, stats, err
			}
			sub := append(append([]*cand(nil), kept...), members...)
			s.say(fmt.Sprintf("search sweep %d, part %d of %d: %d candidates, %d kept", sweep, k+1, len(parts), len(members), len(kept)))
			t := time.Now()
			out, rs, err := s.search(ctx, sub, func(i int) string { return name(idx[sub[i]]) }, workers, limits)
			rounds = append(rounds, rs...)
			if err != nil {
				return nil, rounds, stats, err
			}
			stats = append(stats, HoudiniPart{Sweep: sweep, Candidates: len(members), Kept: len(kept), Inductive: len(out), Seconds: time.Since(t).Seconds()})
			kept = out
		}
		if len(kept) == before {
			break // another sweep would repeat this one's searches
		}
		in := make(map[*cand]bool, len(kept))
		for _, c := range kept {
			in[c] = true
		}
		rest = nil
		for _, c := range pool {
			if !in[c] {
				rest = append(rest, c)
			}
		}
	}
	return kept, rounds, stats, nil
}

// partition cuts pool into parts of at most size non-redundant candidates
// (those no candidate implies), in pool order, and adds each reserve
// candidate to the part of the last of its impliers in pool (the first
// part when none is; the last part when an implication cycle leaves it
// without one).
func partition(pool []*cand, size int) [][]*cand {
	in := make(map[*cand]bool, len(pool))
	for _, c := range pool {
		in[c] = true
	}
	part := map[*cand]int{}
	n := 0
	for _, c := range pool {
		if len(c.impliedBy) == 0 {
			part[c] = n / size
			n++
		}
	}
	nparts := max(1, (n+size-1)/size)
	for changed := true; changed; {
		changed = false
		for _, c := range pool {
			if _, ok := part[c]; ok {
				continue
			}
			p, all := 0, true
			for _, x := range c.impliedBy {
				q, ok := part[x]
				if !ok && !in[x] {
					continue // an implier outside the pool: kept, or dropped
				}
				if !ok {
					all = false
					break
				}
				p = max(p, q)
			}
			if all {
				part[c] = p
				changed = true
			}
		}
	}
	out := make([][]*cand, nparts)
	for _, c := range pool {
		p, ok := part[c]
		if !ok {
			p = nparts - 1
		}
		out[p] = append(out[p], c)
	}
	return out
}
