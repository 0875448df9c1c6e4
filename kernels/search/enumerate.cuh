// enumerate.cuh — enumeration by backtracking (clasp's --enum-mode=bt): after the host takes a
// model, a search flips its last decision instead of learning a blocking nogood, so no nogood
// of a model is ever stored and the learned store holds only consequences of the program,
// which deletion may drop and other searches (or the host) may import. (Blocking nogoods are
// permanent: they filled the fixed store of a search after some 40k models, issue 17.)
//
// A flipped decision is the complement of a decision whose subtree has been exhausted: it opens
// a level of its own, as a decision does, with reason YSM_FLIPPED. H_BT_LEVEL is the highest
// level whose decision is flipped (1: none). Invariant: every model that extends the roots of
// levels 2..H_BT_LEVEL with a flipped one replaced by its original decision was taken by the
// host, so
//   - no backjump goes below H_BT_LEVEL (a restart goes to it; a learned nogood that asserts
//     at a lower level asserts at H_BT_LEVEL, where its other literals hold as well);
//   - a conflict whose highest level m is at most H_BT_LEVEL is not analysed: the subtree of
//     the roots up to m has no model left, so the highest decision at or below m that is not
//     flipped is flipped (`bt_flip`); with none left the search has seen every model (UNSAT:
//     no further model). Conflict analysis resolves only literals of the conflict level, above
//     H_BT_LEVEL, so a flipped decision is never resolved on: to analysis it is a decision.
// A search on a cube (cube.cuh) decides its assumptions before any free decision, so they lie
// below every flipped decision; when the decision to flip is an assumption, every model of
// the cube was taken (H_CUBE_OUT: cube.cuh marks the cube refuted and starts over at level 1).

#include "assume.cuh"

// Flip the highest decision at or below level m that is not flipped yet (all lanes).
YS_D void bt_flip(const Prog& P, const Geo& g, const Srch& s, u32 m) {
    u32* H = s.H;
    u32 j = 0, d = 0;
    bool out = false, assumed_out = false;
    if (YS_LANE == 0) {
        j = m;
        while (j >= 2 && s.reason[lvar(s.trail[s.lim[j]])] == YSM_FLIPPED) --j;
        if (j >= 2) d = s.trail[s.lim[j]];
        if (H[YSM_H_CUBE] != YSM_NONE) {
            // No decision left in the cube's space, or the one to flip is an assumption.
            out = j < 2 || cube_has_var(g, s, lvar(d));
        }
        if (asm_count(g) > 0) assumed_out = j < 2 || asm_has_var(g, lvar(d));
    }
    j = ys_bcast(j);
    d = ys_bcast(d);
    out = ys_bcast(out ? 1u : 0u) != 0;
    if (ys_bcast(assumed_out ? 1u : 0u) != 0) {
        asm_out(g, s);  // every model under the assumptions was taken (assume.cuh)
        return;
    }
    if (out) {
        backjump(P, s, 1);
        if (YS_LANE == 0) {
            H[YSM_H_BT_LEVEL] = 1;
            H[YSM_H_CUBE_OUT] = 1;
        }
        ys_sync();
        return;
    }
    if (j < 2) {
        if (YS_LANE == 0) H[YSM_H_STATUS] = YSM_ST_UNSAT;
        ys_sync();
        return;
    }
    backjump(P, s, j - 1);
    decide_root(s, lneg(d), YSM_FLIPPED);
    if (YS_LANE == 0) H[YSM_H_BT_LEVEL] = j;
    ys_sync();
}

// The host took the model this search found (status BLOCK): go on with the next one.
YS_D void bt_next_model(const Prog& P, const Geo& g, const Srch& s) {
    if (YS_LANE == 0) s.H[YSM_H_STATUS] = YSM_ST_RUN;
    ys_sync();
    bt_flip(P, g, s, s.H[YSM_H_LEVEL]);
}
