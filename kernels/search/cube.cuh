// cube.cuh — splitting for UNSAT: the searches marked YSM_CFG_CUBE take disjoint cubes (sign
// patterns of k chosen variables, handed out one at a time through YSM_G_CUBE_NEXT) as
// assumptions, decided first, one per level; a cube whose assumption turns false is refuted,
// and its search takes the next one. All 2^k refuted: no (further) model. A search left without
// a cube searches freely, as the portfolio's other searches do.
//
// Invariant: a search with a cube makes a free decision only when every assumption holds, so
// all free levels lie above all assumption levels; when an assumption is false, every decision
// on the trail is an assumption, and the cube (with the program, its learned nogoods and the
// blocking nogoods of models the host has taken) has no model left.

#include "unfounded.cuh"

#define YSM_REFUTED 4294967293u

// The cube's next open assumption to decide (all lanes get it): YSM_NONE when every one holds,
// YSM_REFUTED when one is false.
YS_D u32 cube_assumption(const Geo& g, const Srch& s) {
    u32 res = YSM_NONE;
    if (YS_LANE == 0) {
        u32 cube = s.H[YSM_H_CUBE], k = g.global[YSM_G_CUBE_BITS];
        for (u32 j = 0; j < k; ++j) {
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

// Take the next cube, or none when all were handed out (lane 0).
YS_D void cube_take(const Geo& g, const Srch& s) {
    u32 k = g.global[YSM_G_CUBE_BITS];
    u32 c = k > 0 ? ys_add(&g.global[YSM_G_CUBE_NEXT], 1u) : YSM_NONE;
    s.H[YSM_H_CUBE] = (k > 0 && c < (1u << k)) ? c : YSM_NONE;
}

// The search's cube is refuted: count it, take the next one, start over at level 1 (all lanes).
YS_D void cube_refuted(const Geo& g, const Srch& s, u32 nv2) {
    if (YS_LANE == 0) {
        s.C[YSM_C_CUBES] += 1;
        ys_add(&g.global[YSM_G_CUBE_DONE], 1u);
        cube_take(g, s);
    }
    ys_sync();
    restart(g, s, nv2);
    share_import(g, s);
}
