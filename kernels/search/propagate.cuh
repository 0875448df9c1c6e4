// propagate.cuh — unit propagation of one search (the paper's PropagateAndCheck), by the warp
// that owns it: the trail is a queue; for each literal p that became true, the input nogoods of
// length 2 and 3 containing p are checked in full (shared occurrence map, one per lane), then
// p's watch list (long input nogoods and learned ones) is walked YSM_BLOCK entries at a time,
// one per lane, then the native sums p touches are counted and checked (sums.cuh).
//
// Each step has two phases separated by ys_sync(): every lane first reads (values, watches)
// and decides what its nogood needs (nothing, a new watch, an implication, a conflict), then
// the implications are claimed with a compare-and-swap on asg and the list is compacted. So
// an implication's reason only has literals assigned in an earlier step, whose reasons and
// dependency bitmaps are written.
//
// Watch invariant (as in the host engine): the two watched literals of a long nogood differ;
// if one holds, the other is false at a level no higher than its own. A literal is processed
// at the level it was assigned at (propagation completes before a decision; a conflict stops it
// only above the backjump level), which keeps the invariant through backjumps; the blocker
// shortcut (an entry whose blocker is false is skipped) is sound for the same reason.

#include "sums.cuh"

// Make q true at the current level with reason `ref` (literals lit(0..n), all holding but q's
// complement), or record the conflict if another lane made q false meanwhile. Lane-local.
template <class L> YS_D void imply_by(const Srch& s, u32 q, u32 ref, L lit, u32 n, u32 level) {
    u32 v = lvar(q);
    i32 val = val_for(q, level);
    i32 old = ys_cas_i(&s.asg[v], 0, val);
    if (old == 0) {
        s.reason[v] = ref;
        if (s.cfg[YSM_CFG_LEARNING] == 1) {
            u64 a0 = 0, a1 = 0;
            for (u32 k = 0; k < n; ++k) {
                u32 u = lvar(lit(k));
                if (u == v) continue;
                a0 |= s.deps[2 * (u64)u];
                a1 |= s.deps[2 * (u64)u + 1];
            }
            s.deps[2 * (u64)v] = a0;
            s.deps[2 * (u64)v + 1] = a1;
        }
        u32 pos = ys_add(&s.H[YSM_H_TRAIL], 1u);
        s.tpos[v] = pos;
        s.trail[pos] = q;
    } else if ((old > 0) != (val > 0)) {
        ys_cas(&s.H[YSM_H_CONFL], YSM_NONE, ref);
    }
}

YS_D void imply(const Srch& s, u32 q, u32 ref, const u32* lits, u32 n, u32 level) {
    imply_by(s, q, ref, [lits](u32 k) { return lits[k]; }, n, level);
}

// The input nogoods of length 2 and 3 that contain one of the lanes' literals p (they hold;
// lane j's occurrences are socc[b .. b + c], c = 0 for a lane without one), all at once: a
// prefix sum over the lanes lays the occurrence lists end to end, and each lane takes the next
// occurrence. The other literals of a nogood are read from the occurrence list itself
// (layout.rs), not through `ng_off` and `ng_lits`.
YS_D void prop_short(const Prog& P, const Srch& s, u32 p, u32 b, u32 c, u32 level) {
    const u32 lane = YS_LANE;
    u32 end = ys_scan(c), pre = end - c;
    u32 total = ys_shfl(end, YS_WARP - 1);
    for (u32 base = 0; base < total; base += YS_WARP) {
        u32 i = base + lane;
        // The lane whose list holds occurrence i: the last one that starts at or before i
        // (lanes past nb and those with empty lists start at the end of the one before).
        u32 j = 0;
        for (u32 step = YS_WARP / 2; step >= 1; step >>= 1) {
            if (ys_shfl(pre, j + step) <= i) j += step;
        }
        u32 pj = ys_shfl(p, j), k = ys_shfl(b, j) + (i - ys_shfl(pre, j));
        u32 imp = YSM_NONE, cref = YSM_NONE, id = 0, x = 0, y = YSM_NONE;
        if (i < total) {
            const u32* o = P.socc + 3 * (u64)k;
            id = o[0];
            x = o[1];
            y = o[2];
            i32 ax = ld_asg(s, lvar(x));
            i32 ay = y == YSM_NONE ? 0 : ld_asg(s, lvar(y));
            // y holds, or the nogood is binary
            bool yh = y == YSM_NONE || holds(y, ay);
            if (!fails(x, ax) && (yh || ay == 0)) {
                if (ax != 0 && yh) {
                    cref = id;
                } else if (yh) {
                    imp = lneg(x);
                } else if (ax != 0) {
                    imp = lneg(y);
                }
            }
        }
        ys_sync();
        if (imp != YSM_NONE) {
            u32 n = y == YSM_NONE ? 2 : 3;
            imply_by(s, imp, id, [pj, x, y](u32 m) { return m == 0 ? pj : m == 1 ? x : y; }, n, level);
        }
        if (cref != YSM_NONE) ys_cas(&s.H[YSM_H_CONFL], YSM_NONE, cref);
        ys_sync();
    }
}

// Walk the watch list of p (p holds): keep, move or conclude each entry; compact the list.
YS_D void prop_watches(const Prog& P, const Geo& g, const Srch& s, u32 p, u32 level) {
    const u32 lane = YS_LANE;
    const u32 CH = YS_WARP < YSM_BLOCK ? YS_WARP : YSM_BLOCK;
    u32 n = s.wlen[p];
    u32 rb = s.whead[p], wb = rb, wcount = 0;
    for (u32 base = 0; base < n; base += CH) {
        if (base > 0 && base % YSM_BLOCK == 0) rb = s.bnext[rb];
        u32 i = base + lane;
        bool active = lane < CH && i < n;
        u64 e = active ? s.pool[(u64)rb * YSM_BLOCK + i % YSM_BLOCK] : 0;
        u64 ne = e;
        bool keep = active;
        u32 imp = YSM_NONE, cref = YSM_NONE, mv = YSM_NONE, mvb = 0, ref = (u32)(e >> 32), n_l = 0;
        const u32* lits = 0;
        if (active) {
            u32 blk = (u32)e;
            if (blk == p || !fails(blk, ld_asg(s, lvar(blk)))) {
                lits = ng_lits(P, s, ref, &n_l);
                u32 w0, w1, j = 0;
                if (ref < YSM_LEARNED) {
                    j = ref - P.first_long;
                    u64 wp = s.wpair[j];
                    w0 = (u32)wp;
                    w1 = (u32)(wp >> 32);
                } else {
                    w0 = lits[0];
                    w1 = lits[1];
                }
                bool first = w0 == p;
                if (!first && w1 != p) s.H[YSM_H_ERR] = YSM_ERR_ANALYSE;
                u32 other = first ? w1 : w0;
                i32 ao = ld_asg(s, lvar(other));
                if (fails(other, ao)) {
                    ne = ((u64)ref << 32) | (u64)other;
                } else {
                    // The first literal that does not hold, other than the watched two:
                    // four literals, then their four values, at a time (independent loads).
                    u32 r = YSM_NONE, rk = 0;
                    for (u32 k = 0; k < n_l && r == YSM_NONE; k += 4) {
                        u32 x[4];
                        i32 a[4];
                        for (u32 m = 0; m < 4; ++m) x[m] = k + m < n_l ? lits[k + m] : w0;
                        for (u32 m = 0; m < 4; ++m) {
                            a[m] = x[m] == w0 || x[m] == w1 ? 0 : ld_asg(s, lvar(x[m]));
                        }
                        for (u32 m = 0; m < 4; ++m) {
                            if (r == YSM_NONE && x[m] != w0 && x[m] != w1 && !holds(x[m], a[m])) {
                                r = x[m];
                                rk = k + m;
                            }
                        }
                    }
                    if (r != YSM_NONE) {
                        if (ref < YSM_LEARNED) {
                            s.wpair[j] = first ? (((u64)w1 << 32) | (u64)r)
                                               : (((u64)r << 32) | (u64)w0);
                        } else {
                            u32* ml = (u32*)lits;
                            ml[first ? 0 : 1] = r;
                            ml[rk] = p;
                        }
                        keep = false;
                        mv = r;
                        mvb = other;
                    } else if (ao == 0) {
                        imp = lneg(other);
                    } else {
                        cref = ref;
                    }
                }
            }
        }
        ys_sync();
        if (imp != YSM_NONE) imply(s, imp, ref, lits, n_l, level);
        if (cref != YSM_NONE) ys_cas(&s.H[YSM_H_CONFL], YSM_NONE, cref);
        // Compaction: kept entries go to positions wcount.., never past where they were read.
        u32 km = ys_ballot(keep);
        if (keep) {
            u32 pos = wcount + ys_rank(km);
            u32 blk = (pos / YSM_BLOCK == wcount / YSM_BLOCK) ? wb : s.bnext[wb];
            s.pool[(u64)blk * YSM_BLOCK + pos % YSM_BLOCK] = ne;
        }
        // Moved watches join the lists of their new literals: in rounds, the lowest waiting
        // lane of each new literal appends at once where the list's last block has room, the
        // ones that need a new block from the pool one lane at a time.
        u32 mm = ys_ballot(mv != YSM_NONE);
        while (mm != 0) {
            bool wait = (mm >> lane) & 1u;
            u32 peers = ys_match(wait ? mv : YSM_LEARNED | lane);
            bool go = wait && (peers & mm & ((1u << lane) - 1u)) == 0;
            bool fresh = go && !watch_add_in_tail(s, mv, ref, mvb);
            u32 fm = ys_ballot(fresh);
            while (fm != 0) {
                u32 ln = ys_ffs(fm) - 1;
                if (lane == ln) {
                    if (!watch_add(g, s, mv, ref, mvb)) s.H[YSM_H_ERR] = YSM_ERR_POOL;
                }
                fm &= fm - 1;
                ys_sync();
            }
            mm &= ~ys_ballot(go);
            ys_sync();
        }
        u32 nw = wcount + ys_popc(km);
        if (nw / YSM_BLOCK != wcount / YSM_BLOCK && nw < n) wb = s.bnext[wb];
        wcount = nw;
        ys_sync();
    }
    if (lane == 0 && wcount != n) watch_truncate(s, p, wcount);
    ys_sync();
}

// Propagate the trail from H_QHEAD until it is empty or a conflict is found (H_CONFL). True if
// it stopped at `deadline` instead (checked after about 256 warp steps: a literal counts one
// plus a step per YS_WARP entries of its short-nogood and watch lists, so that literals with
// long lists do not stretch the time between checks; the queue is left as it is, so the next
// call goes on from there).
// The queue is taken up to YS_WARP literals at a time: their short nogoods at once, then their
// watch lists and sums one literal after the other. H_QHEAD passes a literal when its watches
// and sums are done; a conflict stops the batch there (the backjump undoes every literal of
// it: all are at the current level), so a literal's short nogoods may be checked twice, which
// changes nothing.
YS_D bool propagate(const Prog& P, const Geo& g, const Srch& s, u64 deadline) {
    const u32 lane = YS_LANE;
    u32 done = 0;
    u64 steps = 0, cy_short = 0;
    bool late = false;
    while (true) {
        ys_sync();
        u32 q = ys_vol(s.H[YSM_H_QHEAD]);
        u32 t = ys_vol(s.H[YSM_H_TRAIL]);
        if (ys_vol(s.H[YSM_H_CONFL]) != YSM_NONE || q >= t || ys_vol(s.H[YSM_H_ERR]) != 0) break;
        if (done >= 256u) {
            done = 0;
            u32 now_late = lane == 0 && ys_now_ns() >= deadline;
            if (ys_bcast(now_late)) {
                late = true;
                break;
            }
        }
        steps += 1;
        u32 nb = t - q < YS_WARP ? t - q : YS_WARP;
        u32 level = s.H[YSM_H_LEVEL];
        // Lane j: literal q + j, its short-nogood occurrences socc[sb .. sb + sc] and the length
        // of its watch list (no watch joins the list of a literal that holds, so it stays until
        // the literal's turn).
        u32 pl = 0, wl = 0, sb = 0, sc = 0, work = 0;
        if (lane < nb) {
            pl = s.trail[q + lane];
            wl = s.wlen[pl];
            sb = P.socc_off[pl];
            sc = P.socc_off[pl + 1] - sb;
            work = 1u + (wl + sc) / YS_WARP;
        }
        done += ys_sum(work);
        ys_sync();
        u64 c0 = ys_clock();
        prop_short(P, s, pl, sb, sc, level);
        cy_short += ys_clock() - c0;
        for (u32 j = 0; j < nb; ++j) {
            if (j > 0 && ys_vol(s.H[YSM_H_CONFL]) != YSM_NONE) break;
            u32 p = ys_shfl(pl, j);
            if (ys_shfl(wl, j) != 0) prop_watches(P, g, s, p, level);
            prop_sums(P, s, p, level);
            ys_sync();
            if (lane == 0) s.H[YSM_H_QHEAD] = q + j + 1;
        }
    }
    ys_sync();
    if (lane == 0) {
        s.C[YSM_C_STEPS] += steps;
        s.C[YSM_C_CY_SHORT] += cy_short;
    }
    return late;
}
