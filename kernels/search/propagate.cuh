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
// (many_layout.rs), not through `ng_off` and `ng_lits`.
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

// What one entry e of p's watch list needs (p holds): kept (`keep`, as `ne`: the same entry or
// one with a new blocker), moved to the list of `mv` with blocker `mvb` (its watch replaced,
// done here), an implication `imp` or a conflict `cref`. `defer(other)` is asked when the other
// watched literal holds too: true leaves the entry as it is (`deferred`) for a later walk of
// the list, because the other literal's list is walked at the same time (prop_watches_short).
struct WatchStep {
    u64 ne;
    u32 imp, cref, mv, mvb, ref, n_l;
    const u32* lits;
    bool keep, deferred;
};

// A lane without an entry: nothing to keep or do.
YS_D WatchStep idle_step(u64 e) {
    WatchStep st;
    st.ne = e;
    st.keep = false;
    st.deferred = false;
    st.imp = st.cref = st.mv = YSM_NONE;
    st.mvb = 0;
    st.ref = (u32)(e >> 32);
    st.n_l = 0;
    st.lits = 0;
    return st;
}

template <class D> YS_D WatchStep watch_step(const Prog& P, const Srch& s, u32 p, u64 e, D defer) {
    WatchStep st = idle_step(e);
    st.keep = true;
    u32 blk = (u32)e;
    if (blk != p && fails(blk, ld_asg(s, lvar(blk)))) return st;
    u32 ref = st.ref, n_l = 0;
    const u32* lits = ng_lits(P, s, ref, &n_l);
    st.lits = lits;
    st.n_l = n_l;
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
        st.ne = ((u64)ref << 32) | (u64)other;
        return st;
    }
    if (holds(other, ao) && defer(other)) {
        st.deferred = true;
        return st;
    }
    // The first literal that does not hold, other than the watched two: four literals, then
    // their four values, at a time (independent loads).
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
            s.wpair[j] = first ? (((u64)w1 << 32) | (u64)r) : (((u64)r << 32) | (u64)w0);
        } else {
            u32* ml = (u32*)lits;
            ml[first ? 0 : 1] = r;
            ml[rk] = p;
        }
        st.keep = false;
        st.mv = r;
        st.mvb = other;
    } else if (ao == 0) {
        st.imp = lneg(other);
    } else {
        st.cref = ref;
    }
    return st;
}

// After the read phase of a step (and a ys_sync): the lanes' implications and conflicts, then
// the moved watches join the lists of their new literals: in rounds, the lowest waiting lane
// of each new literal appends at once where the list's last block has room, the ones that
// need a new block from the pool one lane at a time. (No new literal holds, so none is a list
// being walked.)
YS_D void watch_conclude(const Geo& g, const Srch& s, const WatchStep& st, u32 level) {
    const u32 lane = YS_LANE;
    if (st.imp != YSM_NONE) imply(s, st.imp, st.ref, st.lits, st.n_l, level);
    if (st.cref != YSM_NONE) ys_cas(&s.H[YSM_H_CONFL], YSM_NONE, st.cref);
    u32 mm = ys_ballot(st.mv != YSM_NONE);
    while (mm != 0) {
        bool wait = (mm >> lane) & 1u;
        u32 peers = ys_match(wait ? st.mv : YSM_LEARNED | lane);
        bool go = wait && (peers & mm & ((1u << lane) - 1u)) == 0;
        bool fresh = go && !watch_add_in_tail(s, st.mv, st.ref, st.mvb);
        u32 fm = ys_ballot(fresh);
        while (fm != 0) {
            u32 ln = ys_ffs(fm) - 1;
            if (lane == ln) {
                if (!watch_add(g, s, st.mv, st.ref, st.mvb)) s.H[YSM_H_ERR] = YSM_ERR_POOL;
            }
            fm &= fm - 1;
            ys_sync();
        }
        mm &= ~ys_ballot(go);
        ys_sync();
    }
}

// Walk the watch list of p (p holds) CH entries at a time: keep, move or conclude each entry;
// compact the list.
YS_D void prop_watches(const Prog& P, const Geo& g, const Srch& s, u32 p, u32 level) {
    const u32 lane = YS_LANE;
    const u32 CH = YS_WARP < YSM_BLOCK ? YS_WARP : YSM_BLOCK;
    u32 n = s.wlen[p];
    u32 rb = s.whead[p], wb = rb, wcount = 0;
    for (u32 base = 0; base < n; base += CH) {
        if (base > 0 && base % YSM_BLOCK == 0) rb = s.bnext[rb];
        u32 i = base + lane;
        bool active = lane < CH && i < n;
        WatchStep st;
        if (active) {
            u64 e = s.pool[(u64)rb * YSM_BLOCK + i % YSM_BLOCK];
            st = watch_step(P, s, p, e, [](u32) { return false; });
        } else {
            st = idle_step(0);
        }
        ys_sync();
        // Compaction: kept entries go to positions wcount.., never past where they were read.
        u32 km = ys_ballot(st.keep);
        if (st.keep) {
            u32 pos = wcount + ys_rank(km);
            u32 blk = (pos / YSM_BLOCK == wcount / YSM_BLOCK) ? wb : s.bnext[wb];
            s.pool[(u64)blk * YSM_BLOCK + pos % YSM_BLOCK] = st.ne;
        }
        watch_conclude(g, s, st, level);
        u32 nw = wcount + ys_popc(km);
        if (nw / YSM_BLOCK != wcount / YSM_BLOCK && nw < n) wb = s.bnext[wb];
        wcount = nw;
        ys_sync();
    }
    if (lane == 0 && wcount != n) watch_truncate(s, p, wcount);
    ys_sync();
}

// The lanes [lo, hi) of a warp as a mask (lo <= hi <= 32).
YS_D u32 lane_range(u32 lo, u32 hi) {
    u32 below_hi = hi >= 32 ? 0xffffffffu : (1u << hi) - 1u;
    u32 below_lo = lo >= 32 ? 0xffffffffu : (1u << lo) - 1u;
    return below_hi & ~below_lo;
}

// The watch lists of the batch's literals that fit one pool block (`shortm`: their lanes;
// lane j's literal pl, its list's length wl and block wh), all at once: as in prop_short, a
// prefix sum lays the lists end to end and each lane takes the next entry, so that a step's
// dependent loads (entry, blocker, nogood, values) are paid once for all the lists instead of
// once a literal. Each list is compacted in place (kept entries in order, never past where
// they were read) and cut at the end.
//
// A nogood has its two watches in two lists; if both are walked here, both its watched
// literals hold, and the entry in the list of the later literal is left as it is (`defer`:
// the other literal holds and is one of the lists walked here, at a lower lane), so that only
// one lane handles the nogood. Returns the lanes whose list kept such an entry: the caller
// walks those lists again (prop_watches), after this pass, as if they came after it.
YS_D u32 prop_watches_short(const Prog& P, const Geo& g, const Srch& s, u32 pl, u32 wl, u32 wh,
                            u32 shortm, u32 q, u32 level) {
    const u32 lane = YS_LANE;
    bool mine = (shortm >> lane) & 1u;
    u32 c = mine ? wl : 0;
    u32 end = ys_scan(c), pre = end - c;
    u32 total = ys_shfl(end, YS_WARP - 1);
    u32 kept = 0, redo = 0;
    for (u32 base = 0; base < total; base += YS_WARP) {
        u32 i = base + lane;
        // The lane whose list holds entry i: the last one that starts at or before i.
        u32 j = 0;
        for (u32 step = YS_WARP / 2; step >= 1; step >>= 1) {
            if (ys_shfl(pre, j + step) <= i) j += step;
        }
        u32 pj = ys_shfl(pl, j), prej = ys_shfl(pre, j), hj = ys_shfl(wh, j);
        u32 kj = ys_shfl(kept, j);
        bool active = i < total;
        u32 k = i - prej;
        WatchStep st;
        if (active) {
            u64 e = s.pool[(u64)hj * YSM_BLOCK + k];
            st = watch_step(P, s, pj, e, [&](u32 other) {
                u32 t = s.tpos[lvar(other)];
                return t >= q && t - q < j && ((shortm >> (t - q)) & 1u) != 0;
            });
        } else {
            st = idle_step(0);
        }
        ys_sync();
        redo |= ys_or(st.deferred ? 1u << j : 0u);
        u32 km = ys_ballot(st.keep);
        // This chunk's lanes of list j start at lane max(prej, base) - base.
        u32 first = (prej > base ? prej : base) - base;
        if (st.keep) {
            u32 rank = ys_popc(km & lane_range(first, lane));
            s.pool[(u64)hj * YSM_BLOCK + kj + rank] = st.ne;
        }
        if (mine && pre < base + YS_WARP && end > base) {
            u32 lo = (pre > base ? pre : base) - base;
            u32 hi = (end < base + YS_WARP ? end : base + YS_WARP) - base;
            kept += ys_popc(km & lane_range(lo, hi));
        }
        watch_conclude(g, s, st, level);
        ys_sync();
    }
    if (mine && kept != wl) watch_truncate(s, pl, kept);
    ys_sync();
    return redo;
}

// Propagate the trail from H_QHEAD until it is empty or a conflict is found (H_CONFL). True if
// it stopped at `deadline` instead (checked after about 256 warp steps: a literal counts one
// plus a step per YS_WARP entries of its short-nogood and watch lists, so that literals with
// long lists do not stretch the time between checks; the queue is left as it is, so the next
// call goes on from there).
// The queue is taken up to YS_WARP literals at a time: their short nogoods at once, their watch
// lists of at most one block at once, then their longer watch lists and sums one literal after
// the other. H_QHEAD passes a literal when its watches
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
        u32 pl = 0, wl = 0, wh = YSM_NONE, sb = 0, sc = 0, work = 0;
        if (lane < nb) {
            pl = s.trail[q + lane];
            wl = s.wlen[pl];
            wh = s.whead[pl];
            sb = P.socc_off[pl];
            sc = P.socc_off[pl + 1] - sb;
            work = 1u + (wl + sc) / YS_WARP;
        }
        done += ys_sum(work);
        ys_sync();
        u64 c0 = ys_clock();
        prop_short(P, s, pl, sb, sc, level);
        cy_short += ys_clock() - c0;
        // The watch lists of one block at once, then the longer ones and those left for a
        // second walk, and the sums, one literal after the other.
        u32 shortm = ys_ballot(lane < nb && wl > 0 && wl <= YSM_BLOCK);
        u32 redo = 0;
        if (shortm != 0 && ys_vol(s.H[YSM_H_CONFL]) == YSM_NONE) {
            redo = prop_watches_short(P, g, s, pl, wl, wh, shortm, q, level);
        }
        for (u32 j = 0; j < nb; ++j) {
            if (ys_vol(s.H[YSM_H_CONFL]) != YSM_NONE) break;
            u32 p = ys_shfl(pl, j);
            if (ys_shfl(wl, j) > YSM_BLOCK || ((redo >> j) & 1u) != 0) {
                prop_watches(P, g, s, p, level);
            }
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
