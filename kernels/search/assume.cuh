// assume.cuh — search under assumptions, for core-guided optimisation (src/wrap/oll.rs on the
// GPU engine): the host writes a list of literals (YSM_G_N_ASSUME of them, from YSM_G_WORDS
// on) and increments YSM_G_ASM_EPOCH, between slices. Every search decides the open ones
// first, in order, one per level (one that holds takes no level), and makes a free decision
// only when all hold. An assumption found false ends the search with a core: the assumptions
// that, with the nogoods, imply its complement (MiniSat's analyzeFinal), left in
// scratch[0..H_LEN) with status YSM_ST_CORE; the slice of every search ends with it.
//
// Invariant: while an assumption is open or false, every decision on the trail is an
// assumption (free decisions are made only while all hold, so they lie above every level an
// assumption was decided or implied at, and a backjump keeps a prefix of the levels); so the
// decisions met walking back from a false assumption are assumptions. Enumeration by
// backtracking flips only decisions above them (enumerate.cuh); when the one to flip is an
// assumption, every model under the assumptions was taken, and the search ends with the whole
// list as its core. Learned nogoods are consequences of the program alone, so they stay when
// the list changes; a search that sees a new epoch starts over at level 1, and the model or
// core it was holding (of the old list) is dropped.

#include "cube_pool.cuh"

YS_D u32 asm_count(const Geo& g) { return g.global[YSM_G_N_ASSUME]; }
YS_D u32 asm_lit(const Geo& g, u32 j) { return g.global[YSM_G_WORDS + j]; }

// Variable v is assumed (one lane).
YS_D bool asm_has_var(const Geo& g, u32 v) {
    u32 n = asm_count(g);
    for (u32 j = 0; j < n; ++j) {
        if (lvar(asm_lit(g, j)) == v) return true;
    }
    return false;
}

// A new list since this search last looked (all lanes, at the start of its slice): back to
// level 1, a held model or core dropped.
YS_D void asm_refresh(const Prog& P, const Geo& g, const Srch& s) {
    u32 e = ys_vol(g.global[YSM_G_ASM_EPOCH]);
    u32 seen = s.H[YSM_H_ASM_EPOCH], st = s.H[YSM_H_STATUS];
    ys_sync();
    if (seen == e || st == YSM_ST_UNSAT || st == YSM_ST_ERROR) return;
    backjump(P, s, 1);
    if (YS_LANE == 0) {
        s.H[YSM_H_ASM_EPOCH] = e;
        s.H[YSM_H_BT_LEVEL] = 1;
        s.H[YSM_H_STATUS] = YSM_ST_RUN;
    }
    ys_sync();
}

// The search ends with the core in scratch[0..H_LEN) (lane 0).
YS_D void asm_end(const Geo& g, const Srch& s) {
    s.H[YSM_H_STATUS] = YSM_ST_CORE;
    g.global[YSM_G_STOP] = 1;
}

// The core of the false assumption a: a, and the assumptions the reasons of the trail lead
// to, followed back from ¬a (all lanes).
YS_D void asm_core(const Prog& P, const Geo& g, const Srch& s, u32 a) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    const u32 va = lvar(a);
    const u32 la = lvl_of(ld_asg(s, va));
    ys_sync();  // every lane has read the header before lane 0 writes it
    if (lane == 0) {
        H[YSM_H_EPOCH] += 1;
        H[YSM_H_LEN] = 1;
        s.scratch[0] = a;
        s.mark[va] = H[YSM_H_EPOCH];
    }
    ys_sync();
    const u32 epoch = H[YSM_H_EPOCH];
    const i32 floor = H[YSM_H_LEVEL] >= 2 ? (i32)s.lim[2] : (i32)H[YSM_H_TRAIL];
    i32 idx = la > 1 ? (i32)H[YSM_H_TRAIL] - 1 : floor - 1;
    while (true) {
        // The next marked literal, going down the trail to level 2.
        u32 pos = YSM_NONE;
        while (idx >= floor) {
            i32 i = idx - (i32)lane;
            bool hit = i >= floor && s.mark[lvar(s.trail[i])] == epoch;
            u32 m = ys_ballot(hit);
            if (m) {
                pos = (u32)(idx - (i32)(ys_ffs(m) - 1));
                break;
            }
            idx -= (i32)YS_WARP;
        }
        if (pos == YSM_NONE) break;
        idx = (i32)pos - 1;
        u32 p = s.trail[pos], v = lvar(p), r = s.reason[v];
        ys_sync();
        if (r == YSM_NONE) {
            // A decision: an assumption (the invariant; on va itself, an assumption ¬a).
            if (lane == 0) {
                s.scratch[H[YSM_H_LEN]] = p;
                H[YSM_H_LEN] += 1;
            }
            ys_sync();
            continue;
        }
        if (r == YSM_FLIPPED) {
            if (lane == 0) H[YSM_H_ERR] = YSM_ERR_ANALYSE;
            ys_sync();
            return;
        }
        u32 n;
        const u32* lits = reason_lits(P, s, r, &n);
        for (u32 k = lane; k < n; k += YS_WARP) {
            u32 u = lvar(lits[k]);
            if (u != v && lvl_of(ld_asg(s, u)) > 1 && s.mark[u] != epoch) s.mark[u] = epoch;
        }
        ys_sync();
    }
    if (lane == 0) asm_end(g, s);
    ys_sync();
}

// Every model under the assumptions was taken: the whole list is the core (all lanes).
YS_D void asm_out(const Geo& g, const Srch& s) {
    u32 n = asm_count(g);
    for (u32 j = YS_LANE; j < n; j += YS_WARP) s.scratch[j] = asm_lit(g, j);
    ys_sync();
    if (YS_LANE == 0) {
        s.H[YSM_H_LEN] = n;
        asm_end(g, s);
    }
    ys_sync();
}

#define YSM_ASM_ENDED 4294967291u  // (distinct from decide.cuh's YSM_PICK_LATER)

// The next open assumption to decide (all lanes get it): YSM_NONE when every one holds; with
// one false, the search ends with its core and this returns YSM_ASM_ENDED.
YS_D u32 asm_next(const Prog& P, const Geo& g, const Srch& s) {
    u32 n = asm_count(g), res = YSM_NONE, bad = YSM_NONE;
    for (u32 b = 0; b < n && bad == YSM_NONE; b += YS_WARP) {
        u32 j = b + YS_LANE, q = 0;
        bool open = false, falsified = false;
        if (j < n) {
            q = asm_lit(g, j);
            i32 a = ld_asg(s, lvar(q));
            open = a == 0;
            falsified = a != 0 && !holds(q, a);
        }
        u32 f = ys_ballot(falsified), o = ys_ballot(open);
        if (f) bad = ys_shfl(q, ys_ffs(f) - 1);
        else if (o && res == YSM_NONE) res = ys_shfl(q, ys_ffs(o) - 1);
    }
    if (bad == YSM_NONE) return res;
    asm_core(P, g, s, bad);
    return YSM_ASM_ENDED;
}
