// cube_pool.cuh — a search's cube as assumptions, and the pool of split cubes in global memory.
//
// A cube is a base cube c (the sign pattern of the k variables YSM_G_CUBE_VAR: variable j true
// iff bit j of c) and an extension: literals added by splits (cube.cuh), kept in a pool slot
// of YSM_SLOT_WORDS words [base cube, extension length, literals]. A search's header names its
// base cube (H_CUBE) and its slot (H_CSLOT; YSM_NONE: no extension).
//
// Invariant: two bitmaps over the slots say which are in use (YSM_G_POOL_USED: owned by one
// search, or published) and which are published (YSM_G_POOL_OPEN: written in full, owned by
// nobody, to be taken). A slot is written only by the search that set its used bit and has not
// published it, or that took it (cleared its open bit) and has not freed it; a publisher writes
// the slot, fences, then sets the open bit; a taker clears the open bit, fences, then reads
// (volatile: past the multiprocessor's cache, which may hold the slot's earlier contents).

#include "decide.cuh"

#define YSM_SLOT_EXT (YSM_SLOT_WORDS - 2)  // extension literals a slot holds at most

YS_D u32* cube_slot(const Geo& g, u32 slot) {
    return g.global + YSM_G_POOL + (u64)slot * YSM_SLOT_WORDS;
}

// The extension's length of the search's cube.
YS_D u32 cube_ext_len(const Geo& g, const Srch& s) {
    u32 slot = s.H[YSM_H_CSLOT];
    return slot == YSM_NONE ? 0 : ys_vol(cube_slot(g, slot)[1]);
}

// Assumption j of the search's cube (k: the base cube's variables): the base cube's literals
// first, then the extension's.
YS_D u32 cube_lit(const Geo& g, const Srch& s, u32 j, u32 k) {
    if (j < k) {
        u32 v = g.global[YSM_G_CUBE_VAR + j];
        return ((s.H[YSM_H_CUBE] >> j) & 1u) ? ltrue(v) : lfalse(v);
    }
    return ys_vol(cube_slot(g, s.H[YSM_H_CSLOT])[2 + j - k]);
}

// Variable v is one of the search's assumptions (one lane).
YS_D bool cube_has_var(const Geo& g, const Srch& s, u32 v) {
    u32 k = g.global[YSM_G_CUBE_BITS], n = k + cube_ext_len(g, s);
    for (u32 j = 0; j < n; ++j) {
        if (lvar(cube_lit(g, s, j, k)) == v) return true;
    }
    return false;
}

// Claim a slot whose bit in `map` is set (open = true: take a published one) or clear (false:
// a free one), from a random word on; YSM_NONE when there is none. All lanes call; all get it.
YS_D u32 pool_claim(const Geo& g, const Srch& s, u32 map, bool open) {
    const u32 words = YSM_POOL_SLOTS / 32;
    u32 got = YSM_NONE;
    u32 start = 0;
    if (YS_LANE == 0) start = rng_next(s) % words;
    start = ys_bcast(start);
    for (u32 b = 0; b < words && got == YSM_NONE; b += YS_WARP) {
        u32 w = (start + b + YS_LANE) % words;
        u32 bits = ys_vol(g.global[map + w]);
        u32 cand = open ? bits : ~bits;
        u32 want = ys_ballot(b + YS_LANE < words && cand != 0);
        // The lanes with a candidate word try in turn; the first to win a bit ends the search.
        while (want != 0 && got == YSM_NONE) {
            u32 who = ys_ffs(want) - 1;
            u32 r = YSM_NONE;
            if (YS_LANE == who) {
                while (cand != 0) {
                    u32 bit = 1u << (ys_ffs(cand) - 1);
                    u32 old = open ? ys_fetch_and(&g.global[map + w], ~bit) : ys_fetch_or(&g.global[map + w], bit);
                    if (open ? (old & bit) != 0 : (old & bit) == 0) {
                        r = 32 * w + ys_ffs(bit) - 1;
                        break;
                    }
                    cand &= open ? old & ~bit : ~old;
                }
            }
            got = ys_shfl(r, who);
            want &= want - 1;
        }
    }
    ys_fence();  // the winner's acquire (its atomic, then this fence) ...
    ys_sync();   // ... reaches every lane before any reads the slot or lane 0 writes the header
    return got;
}

// Publish slot `slot`, written in full (one lane).
YS_D void pool_publish(const Geo& g, u32 slot) {
    ys_fence();
    ys_fetch_or(&g.global[YSM_G_POOL_OPEN + slot / 32], 1u << (slot % 32));
}

// Give slot `slot` back (one lane; the caller reads it no more).
YS_D void pool_free(const Geo& g, u32 slot) {
    ys_fence();
    ys_fetch_and(&g.global[YSM_G_POOL_USED + slot / 32], ~(1u << (slot % 32)));
}
