// reduce.cuh — restarts (Luby) and learned-nogood deletion of one search, run at the lowest
// level a backjump may reach (H_BT_LEVEL: 1 until the search enumerates, enumerate.cuh).
//
// Deletion keeps permanent nogoods (LBD 0; enumeration stores none) and deletes about half of
// the others with LBD > 2, the highest LBDs first; glue ones (LBD <= 2) go too, highest LBD first,
// when more than half the store's capacity would stay. It then drops the deleted
// nogoods' watch entries, renames the survivors' references and compacts the arena. Analysis
// resolves only literals of a conflict level above H_BT_LEVEL, so no literal on the trail now
// is ever resolved on: a reason that was deleted is cleared (minimisation then keeps the
// literal), the others are renamed.

#include "learn.cuh"

#define YSM_LBD_BINS 64

YS_D void reduce_learned(const Geo& g, const Srch& s, u32 nv2) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    u32 top = H[YSM_H_LTOP];
    // 1. Which LBD and above to delete (lane 0: histogram of the deletable ones).
    if (lane == 0) {
        u32 hist[YSM_LBD_BINS];
        for (u32 b = 0; b < YSM_LBD_BINS; ++b) hist[b] = 0;
        u32 cand = 0, live = 0;
        for (u32 o = 0; o < top; o += YSM_LHDR + s.arena[o]) {
            u32 lbd = s.arena[o + 1];
            ++live;
            if (lbd == 0) continue;
            hist[lbd < YSM_LBD_BINS ? lbd : YSM_LBD_BINS - 1] += 1;
            if (lbd > 2) ++cand;
        }
        u32 want = cand / 2, acc = 0, cut = YSM_NONE;
        if (live - want > g.lcap / 2) want = live - g.lcap / 2;
        for (u32 b = YSM_LBD_BINS - 1; b >= 1 && acc < want; --b) {
            acc += hist[b];
            cut = b;
        }
        // 2. Forward references: new offsets of the survivors, YSM_NONE for the deleted.
        u32 to = 0, kept = 0, deleted = 0;
        for (u32 o = 0; o < top; o += YSM_LHDR + s.arena[o]) {
            u32 lbd = s.arena[o + 1];
            bool del = cut != YSM_NONE && lbd != 0 && lbd >= cut;
            if (del) {
                s.arena[o + 2] = YSM_NONE;
                ++deleted;
            } else {
                s.arena[o + 2] = to;
                to += YSM_LHDR + s.arena[o];
                ++kept;
            }
        }
        H[YSM_H_TMP] = to;
        H[YSM_H_LCOUNT] = kept;
        s.C[YSM_C_DELETED] += deleted;
    }
    ys_sync();
    // 3. Watch lists: drop deleted entries, rename the others (one list per lane).
    for (u32 l = 2 + lane; l < nv2; l += YS_WARP) {
        u32 n = s.wlen[l];
        if (n == 0) continue;
        u32 rb = s.whead[l], wb = rb, w = 0;
        for (u32 i = 0; i < n; ++i) {
            if (i > 0 && i % YSM_BLOCK == 0) rb = s.bnext[rb];
            u64 e = s.pool[(u64)rb * YSM_BLOCK + i % YSM_BLOCK];
            u32 ref = (u32)(e >> 32);
            if (ref >= YSM_LEARNED) {
                u32 f = s.arena[(ref - YSM_LEARNED) + 2];
                if (f == YSM_NONE) continue;
                e = ((u64)(YSM_LEARNED | f) << 32) | (e & 0xffffffffull);
            }
            if (w > 0 && w % YSM_BLOCK == 0) wb = s.bnext[wb];
            s.pool[(u64)wb * YSM_BLOCK + w % YSM_BLOCK] = e;
            ++w;
        }
        if (w != n) watch_truncate(s, l, w);
    }
    // Reasons on the trail: renamed, or cleared when deleted (before the arena moves).
    u32 t = H[YSM_H_TRAIL];
    for (u32 k = lane; k < t; k += YS_WARP) {
        u32 v = lvar(s.trail[k]), r = s.reason[v];
        if (r >= YSM_LEARNED && r != YSM_NONE && r != YSM_INJECT) {
            u32 f = s.arena[(r - YSM_LEARNED) + 2];
            s.reason[v] = f == YSM_NONE ? YSM_NONE : (YSM_LEARNED | f);
        }
    }
    ys_sync();
    // 4. Move the survivors down (chunks: read, then write; destinations never pass sources).
    for (u32 o = 0; o < top;) {
        u32 len = s.arena[o], f = s.arena[o + 2], sz = YSM_LHDR + len;
        ys_sync();
        if (f != YSM_NONE && f != o) {
            for (u32 base = 0; base < sz; base += YS_WARP) {
                u32 k = base + lane;
                u32 x = k < sz ? s.arena[o + k] : 0;
                ys_sync();
                if (k < sz) s.arena[f + k] = x;
                ys_sync();
            }
        }
        o += sz;
    }
    if (lane == 0) {
        H[YSM_H_LTOP] = H[YSM_H_TMP];
        H[YSM_H_REDUCE_AT] = H[YSM_H_LCOUNT] + H[YSM_H_REDUCE_INC];
        H[YSM_H_REDUCE_INC] += 300;
        H[YSM_H_FORCE] = 0;
    }
    ys_sync();
}

// Restart: back to level H_BT_LEVEL (1 unless enumerating); reduce when due or forced;
// schedule the next restart.
YS_D void restart(const Prog& P, const Geo& g, const Srch& s, u32 nv2) {
    backjump(P, s, s.H[YSM_H_BT_LEVEL]);
    u32* H = s.H;
    bool due = H[YSM_H_FORCE] || H[YSM_H_LCOUNT] >= H[YSM_H_REDUCE_AT];
    // Every lane has read the header before reduce_learned's lane 0 rewrites it (racecheck
    // found lanes reading H_LCOUNT here while lane 0 already wrote it, with fwd learning).
    ys_sync();
    if (due) reduce_learned(g, s, nv2);
    if (YS_LANE == 0) {
        s.C[YSM_C_RESTARTS] += 1;
        H[YSM_H_LUBY] += 1;
        u32 unit = s.cfg[YSM_CFG_RESTART];
        H[YSM_H_RESTART_LEFT] = unit ? unit * luby(H[YSM_H_LUBY]) : YSM_NONE;
    }
    ys_sync();
}

// A restart and the shared nogoods imported after it, timed as YSM_C_CY_RESTART.
YS_D void restart_import(const Prog& P, const Geo& g, const Srch& s, u32 nv2) {
    u64 c0 = ys_clock();
    restart(P, g, s, nv2);
    share_import(g, s);
    count_ticks(s, YSM_C_CY_RESTART, c0);
}
