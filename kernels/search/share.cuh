// share.cuh — sharing short learned nogoods between the searches of one GPU: a ring of slots in
// global memory that every search writes its learned nogoods of at most YSM_SHARE_MAX literals
// to, and reads the others' from at each restart (at level 1, or at the enumeration's
// backtrack level: enumerate.cuh).
//
// Invariant: a slot is published by writing its sequence number last (after a fence); a reader
// takes a slot only if it reads the expected sequence number before and after copying it, so a
// slot being overwritten is skipped, never half read. Every shared nogood is a consequence of
// the program alone (searches enumerate by backtracking and store no nogood of a model,
// enumerate.cuh), so importing it keeps every search sound and removes no model.

#include "enumerate.cuh"

// Write nogood lits[0..n) to the ring (lane 0).
YS_D void share_export(const Geo& g, const Srch& s, const u32* lits, u32 n) {
    if (g.share_slots == 0 || n > YSM_SHARE_MAX) return;
    u32 c = ys_add(&g.global[YSM_G_SHARE_HEAD], 1u);
    u32* slot = g.share + (u64)(c % g.share_slots) * YSM_SHARE_WORDS;
    slot[1] = YSM_NONE;
#ifndef YS_EMU
    __threadfence();
#endif
    slot[0] = n | (s.sid << 8);
    for (u32 k = 0; k < n; ++k) slot[2 + k] = lits[k];
#ifndef YS_EMU
    __threadfence();
    atomicExch(&slot[1], c);
#else
    slot[1] = c;
#endif
    s.C[YSM_C_EXPORTED] += 1;
}

// Store nogood lits[0..n) with watches on lits[a] and lits[b] (open), lane 0 only; false if the
// store is full (the nogood is then dropped: a shared one is only a help).
YS_D bool store_imported(const Geo& g, const Srch& s, const u32* lits, u32 n, u32 a, u32 b) {
    u32* H = s.H;
    u32 top = H[YSM_H_LTOP];
    if (top + YSM_LHDR + n + 64 > g.arena_words / 10 * 9 || H[YSM_H_LCOUNT] + 4 >= g.lcap) return false;
    u32* h = s.arena + top;
    h[0] = n;
    h[1] = n > 2 ? n : 3;  // LBD at most its length; deletable like a learned one
    h[2] = 0;
    u32* l = h + YSM_LHDR;
    l[0] = lits[a];
    l[1] = lits[b];
    u32 k = 2;
    for (u32 j = 0; j < n; ++j)
        if (j != a && j != b) l[k++] = lits[j];
    u32 ref = YSM_LEARNED | top;
    if (!watch_add(g, s, l[0], ref, l[1]) || !watch_add(g, s, l[1], ref, l[0])) {
        H[YSM_H_ERR] = YSM_ERR_POOL;
        return false;
    }
    H[YSM_H_LTOP] = top + YSM_LHDR + n;
    H[YSM_H_LCOUNT] += 1;
    return true;
}

// Take the other searches' nogoods written since the last import (all lanes; after a restart,
// at level H_BT_LEVEL: above level 1 only the nogoods with two open literals are taken, since a
// unit or violated one there is not a fact).
YS_D void share_import(const Geo& g, const Srch& s) {
    if (g.share_slots == 0) return;
    if (YS_LANE == 0) {
        u32* H = s.H;
        u32 head = ys_vol(g.global[YSM_G_SHARE_HEAD]);
        u32 cur = H[YSM_H_SHARE_CUR];
        if (head - cur > g.share_slots) cur = head - g.share_slots;
        // At most YSM_SHARE_TAKE a restart, and none while the store is half full: the rest
        // of the backlog is skipped.
        u32 lits[YSM_SHARE_MAX], taken = 0;
        for (; cur != head && H[YSM_H_STATUS] == YSM_ST_RUN; ++cur) {
            if (taken >= YSM_SHARE_TAKE || H[YSM_H_LCOUNT] >= g.lcap / 2) {
                cur = head;
                break;
            }
            u32* slot = g.share + (u64)(cur % g.share_slots) * YSM_SHARE_WORDS;
            if (ys_vol(slot[1]) != cur) continue;
#ifndef YS_EMU
            __threadfence();  // acquire: the slot's words are read after its sequence number
#endif
            u32 hd = ys_vol(slot[0]), n = hd & 0xffu;
            if ((hd >> 8) == s.sid || n == 0 || n > YSM_SHARE_MAX) continue;
            for (u32 k = 0; k < n; ++k) lits[k] = ys_vol(slot[2 + k]);
#ifndef YS_EMU
            __threadfence();
#endif
            if (ys_vol(slot[1]) != cur) continue;
            // At level 1: satisfied for good (skip), violated (no model), unit, or watched.
            u32 open = 0, a = 0, b = 0;
            bool sat = false;
            for (u32 k = 0; k < n; ++k) {
                i32 v = s.asg[lvar(lits[k])];
                if (v == 0) {
                    if (open == 0) a = k; else b = k;
                    ++open;
                } else if (!holds(lits[k], v)) {
                    sat = true;
                }
            }
            if (sat || (open < 2 && H[YSM_H_LEVEL] > 1)) continue;
            s.C[YSM_C_IMPORTED] += 1;
            ++taken;
            if (open == 0) {
                H[YSM_H_STATUS] = YSM_ST_UNSAT;
            } else if (open == 1) {
                imply(s, lneg(lits[a]), YSM_NONE, lits, n, 1);
            } else {
                store_imported(g, s, lits, n, a, b);
            }
        }
        H[YSM_H_SHARE_CUR] = cur;
    }
    ys_sync();
}
