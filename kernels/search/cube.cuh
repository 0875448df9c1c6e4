// cube.cuh — splitting for UNSAT: the searches marked YSM_CFG_CUBE take disjoint cubes (sign
// patterns of k chosen variables, handed out one at a time through YSM_G_CUBE_NEXT) as
// assumptions, decided first, one per level; a cube whose assumption turns false is refuted
// (its bit in YSM_G_CUBE_MAP set), and its search takes the next one. Once all were handed out,
// a search takes a cube not yet refuted, so the hard ones left at the end are worked on by
// several searches (of different portfolio rows) at once; whichever refutes it first sets the
// bit, and the others leave it at their next decision. All 2^k refuted: no (further) model.
// A cube whose models were all taken counts as refuted too (H_CUBE_OUT, enumerate.cuh).
//
// Invariant: a search with a cube makes a free decision only when every assumption holds, so
// all free levels (and flipped decisions) lie above all assumption levels; when an assumption
// is false, every decision on the trail is an assumption, and the cube (with the program and
// its learned nogoods, consequences of the program) has no model; when H_CUBE_OUT is set,
// every model of the cube was taken by the host.

#include "unfounded.cuh"

#define YSM_REFUTED 4294967293u

// The cube's next open assumption to decide (all lanes get it): YSM_NONE when every one holds,
// YSM_REFUTED when one is false.
YS_D u32 cube_assumption(const Geo& g, const Srch& s) {
    u32 res = YSM_NONE;
    if (YS_LANE == 0) {
        u32 cube = s.H[YSM_H_CUBE], k = g.global[YSM_G_CUBE_BITS];
        // Refuted by another search meanwhile, or its models all taken (enumerate.cuh).
        if ((ys_vol(g.global[YSM_G_CUBE_MAP + cube / 32]) >> (cube % 32)) & 1u) res = YSM_REFUTED;
        if (s.H[YSM_H_CUBE_OUT]) res = YSM_REFUTED;
        for (u32 j = 0; j < k && res != YSM_REFUTED; ++j) {
            u32 v = g.global[YSM_G_CUBE_VAR + j];
            u32 q = ((cube >> j) & 1u) ? ltrue(v) : lfalse(v);
            i32 a = s.asg[v];
            if (a == 0) {
                if (res == YSM_NONE) res = q;
            } else if (!holds(q, a)) {
                res = YSM_REFUTED;
                break;
            }
        }
    }
    ys_sync();
    return ys_bcast(res);
}

// Take the next cube; once all were handed out, one not yet refuted (from a random word of the
// map on); none when all are refuted (lane 0).
YS_D void cube_take(const Geo& g, const Srch& s) {
    u32 k = g.global[YSM_G_CUBE_BITS];
    s.H[YSM_H_CUBE] = YSM_NONE;
    if (k == 0) return;
    u32 n = 1u << k;
    u32 c = ys_vol(g.global[YSM_G_CUBE_NEXT]) < n ? ys_add(&g.global[YSM_G_CUBE_NEXT], 1u) : n;
    if (c < n) {
        s.H[YSM_H_CUBE] = c;
        return;
    }
    u32 words = (n + 31) / 32, start = rng_next(s) % words;
    for (u32 i = 0; i < words; ++i) {
        u32 w = (start + i) % words;
        u32 bits = ys_vol(g.global[YSM_G_CUBE_MAP + w]);
        u32 valid = n - 32 * w >= 32 ? 0xffffffffu : (1u << (n - 32 * w)) - 1u;
        u32 open = ~bits & valid;
        if (open) {
            s.H[YSM_H_CUBE] = 32 * w + ys_ffs(open) - 1;
            return;
        }
    }
}

// The search's cube is refuted (by it, or by another search): mark and count it once, take the
// next one, start over at level 1 (all lanes).
YS_D void cube_refuted(const Prog& P, const Geo& g, const Srch& s, u32 nv2) {
    if (YS_LANE == 0) {
        u32 c = s.H[YSM_H_CUBE], bit = 1u << (c % 32);
#ifdef YS_EMU
        u32 old = g.global[YSM_G_CUBE_MAP + c / 32];
        g.global[YSM_G_CUBE_MAP + c / 32] = old | bit;
#else
        u32 old = atomicOr(&g.global[YSM_G_CUBE_MAP + c / 32], bit);
#endif
        if ((old & bit) == 0) {
            s.C[YSM_C_CUBES] += 1;
            ys_add(&g.global[YSM_G_CUBE_DONE], 1u);
        }
        cube_take(g, s);
        s.H[YSM_H_CUBE_OUT] = 0;
        s.H[YSM_H_BT_LEVEL] = 1;  // the flips were within the cube
    }
    ys_sync();
    restart(P, g, s, nv2);
    share_import(g, s);
}
