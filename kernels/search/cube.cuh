// cube.cuh — splitting for UNSAT: the searches marked YSM_CFG_CUBE take disjoint cubes as
// assumptions, decided first, one per level. The 2^k base cubes (sign patterns of k chosen
// variables) are handed out once each through YSM_G_CUBE_NEXT; after that a search takes a cube
// another one split off (cube_pool.cuh), or, with none there, searches freely and looks again
// at its next restart. A search that has spent YSM_G_CUBE_SPLIT conflicts on its cube splits
// it at its next decision made with only assumptions on the trail: that decision's literal l
// becomes one more assumption of its own cube, and the cube with ¬l instead goes to the pool.
// A cube whose assumption turns false is refuted, and its search takes the next one.
//
// Invariant: YSM_G_CUBE_OPEN counts the cubes not refuted (2^k at the start; +1 by a split
// before it publishes the new cube, -1 by the one search that owns a cube when it refutes it),
// and the open cubes cover every assignment the refuted ones do not: 0 means no (further)
// model. A search with a cube makes a free decision only when every assumption holds, so all
// free levels (and flipped decisions) lie above all assumption levels; when an assumption is
// false, every decision on the trail is an assumption, and the cube (with the program and its
// learned nogoods, consequences of the program) has no model; when H_CUBE_OUT is set, every
// model of the cube was taken by the host (enumerate.cuh), and it counts as refuted.

#include "unfounded.cuh"

#define YSM_REFUTED 4294967293u

// The cube's next open assumption to decide (all lanes get it): YSM_NONE when every one holds,
// YSM_REFUTED when one is false or the cube's models were all taken.
YS_D u32 cube_assumption(const Geo& g, const Srch& s) {
    u32 res = s.H[YSM_H_CUBE_OUT] ? YSM_REFUTED : YSM_NONE;
    u32 k = g.global[YSM_G_CUBE_BITS], n = k + cube_ext_len(g, s);
    for (u32 b = 0; b < n && res != YSM_REFUTED; b += YS_WARP) {
        u32 j = b + YS_LANE, q = 0;
        bool open = false, falsified = false;
        if (j < n) {
            q = cube_lit(g, s, j, k);
            i32 a = s.asg[lvar(q)];
            open = a == 0;
            falsified = a != 0 && !holds(q, a);
        }
        u32 f = ys_ballot(falsified), o = ys_ballot(open);
        u32 first = ys_shfl(q, o ? ys_ffs(o) - 1 : 0);
        if (f) res = YSM_REFUTED;
        else if (o && res == YSM_NONE) res = first;
    }
    ys_sync();  // every lane has read the header before lane 0 may change it
    return res;
}

// Take the next cube: a base cube while any is left, then one from the pool; none (the search
// goes on freely) when the pool is empty. All lanes call.
YS_D void cube_take(const Geo& g, const Srch& s) {
    u32 k = g.global[YSM_G_CUBE_BITS];
    u32 c = YSM_NONE;
    if (YS_LANE == 0 && k > 0) {
        u32 n = 1u << k;
        if (ys_vol(g.global[YSM_G_CUBE_NEXT]) < n) {
            u32 t = ys_add(&g.global[YSM_G_CUBE_NEXT], 1u);
            if (t < n) c = t;
        }
    }
    c = ys_bcast(c);
    u32 slot = YSM_NONE;
    if (k > 0 && c == YSM_NONE) {
        slot = pool_claim(g, s, YSM_G_POOL_OPEN, true);
        if (slot != YSM_NONE) c = ys_vol(cube_slot(g, slot)[0]);
    }
    ys_sync();  // every lane has read H_CUBE (the caller's test) before lane 0 writes it
    if (YS_LANE == 0) {
        s.H[YSM_H_CUBE] = c;
        s.H[YSM_H_CSLOT] = slot;
        s.H[YSM_H_SPLIT_AT] = (u32)s.C[YSM_C_CONFLICTS];
    }
    ys_sync();
}

// The search's cube is refuted: count it, give its slot back, take the next one, start over at
// level 1 (all lanes).
YS_D void cube_refuted(const Prog& P, const Geo& g, const Srch& s, u32 nv2) {
    if (YS_LANE == 0) {
        s.C[YSM_C_CUBES] += 1;
        if (s.H[YSM_H_CSLOT] != YSM_NONE) pool_free(g, s.H[YSM_H_CSLOT]);
        ys_add(&g.global[YSM_G_CUBE_OPEN], YSM_NONE);  // -1
        s.H[YSM_H_CUBE_OUT] = 0;
        s.H[YSM_H_BT_LEVEL] = 1;  // the flips were within the cube
    }
    ys_sync();
    cube_take(g, s);
    restart(P, g, s, nv2);
    share_import(g, s);
}

// Before the free decision on literal l: a search whose cube is due to split, with only
// assumptions on the trail, makes l one more assumption and publishes the cube with ¬l (all
// lanes). When no slot is free or the extension is full, it tries again N conflicts later.
YS_D void cube_split(const Geo& g, const Srch& s, u32 l) {
    u32* H = s.H;
    if (H[YSM_H_CUBE] == YSM_NONE) return;  // every free decision of a search without a cube
    const u32 every = g.global[YSM_G_CUBE_SPLIT];
    if (every == 0) return;
    if ((u32)s.C[YSM_C_CONFLICTS] - H[YSM_H_SPLIT_AT] < every) return;
    u32 k = g.global[YSM_G_CUBE_BITS], ext = cube_ext_len(g, s);
    // Only assumptions on the trail: no flipped decision, and the highest decision (if any) is
    // an assumption (free decisions lie above every assumption).
    u32 ok = 0;
    if (YS_LANE == 0) {
        u32 lv = H[YSM_H_LEVEL];
        ok = H[YSM_H_BT_LEVEL] == 1 && lv <= k + ext + 1 &&
             (lv == 1 || cube_has_var(g, s, lvar(s.trail[s.lim[lv]])));
    }
    if (!ys_bcast(ok)) return;
    // The search's own slot (claimed on its first split) and one for the other half.
    u32 own = H[YSM_H_CSLOT], other = YSM_NONE;
    bool fresh = false;
    if (ext < YSM_SLOT_EXT && own == YSM_NONE) {
        own = pool_claim(g, s, YSM_G_POOL_USED, false);
        fresh = own != YSM_NONE;
    }
    if (ext < YSM_SLOT_EXT && own != YSM_NONE) other = pool_claim(g, s, YSM_G_POOL_USED, false);
    ys_sync();  // every lane has read the header above before lane 0 writes it
    if (fresh && YS_LANE == 0) {
        u32* o = cube_slot(g, own);
        o[0] = H[YSM_H_CUBE];
        o[1] = 0;
        H[YSM_H_CSLOT] = own;
    }
    if (other == YSM_NONE) {
        // No room (the extension or the pool is full): try again N conflicts on, not at every
        // decision.
        if (YS_LANE == 0) H[YSM_H_SPLIT_AT] = (u32)s.C[YSM_C_CONFLICTS];
        ys_sync();
        return;
    }
    ys_sync();
    u32* o = cube_slot(g, own);
    u32* n = cube_slot(g, other);
    for (u32 j = YS_LANE; j < ext; j += YS_WARP) n[2 + j] = ys_vol(o[2 + j]);
    ys_sync();
    if (YS_LANE == 0) {
        n[0] = H[YSM_H_CUBE];
        n[1] = ext + 1;
        n[2 + ext] = lneg(l);
        ys_add(&g.global[YSM_G_CUBE_OPEN], 1u);  // counted before anyone can take it
        pool_publish(g, other);
        o[2 + ext] = l;
        ys_fence();
        o[1] = ext + 1;
        s.C[YSM_C_SPLITS] += 1;
        H[YSM_H_SPLIT_AT] = (u32)s.C[YSM_C_CONFLICTS];
    }
    ys_sync();
}
