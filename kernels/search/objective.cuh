// objective.cuh — optimisation inside every search (model-guided branch and bound): the
// objective is one more native sum (index P.obj_sum; src/engine/gpu/folded_objective.rs folds its
// priority levels into one weighted sum), and the search keeps Σ wᵢ·[lᵢ] < k, where k is the
// host's bound in device memory (YSM_G_OBJ_K, a new one with each YSM_G_OBJ_EPOCH).
//
// The host writes k between slices only; a search reads it at the start of each slice
// (obj_refresh) into its own copy (scnt word 5 of the objective's sum), so k is constant while a
// slice runs. Within one epoch of the engine k only decreases (a bound that admits more makes
// the host restart every search from scratch), so a lazy reason rebuilt later under a smaller
// k is still a reason, and every learned or shared nogood stays implied.
//
// With lo the weight of the processed true literals (the sums' counter), obj_check derives:
//   a conflict when lo ≥ k: true literals of weight ≥ k (all of them may be below the current
//   level right after a new k: resolve() backjumps to the highest first, or ends the search
//   when they are all of level 1);
//   ¬lᵢ when lo + wᵢ ≥ k (sum_force, rule 4 of sums.cuh, reasons built lazily).
//
// Invariant: a search never reports a total assignment with lo ≥ k (search_run checks once
// more before it writes a model: a forced restart may drop a conflict found at level 1).

// The search's copy of the bound (all lanes).
YS_D i64 obj_k(const Prog& P, const Srch& s) {
    return ys_vol(s.scnt[YSM_SCNT * (u64)P.obj_sum + 5]);
}

// The bound is violated by the processed true literals (all lanes; P.obj_sum is set).
YS_D bool obj_violated(const Prog& P, const Srch& s) {
    return ys_vol(s.scnt[YSM_SCNT * (u64)P.obj_sum]) >= obj_k(P, s);
}

// The conflict or the implications of the bound (all lanes; H_CONFL is YSM_NONE).
YS_D void obj_check(const Prog& P, const Srch& s, u32 level) {
    ys_sync();
    i64 lo = ys_vol(s.scnt[YSM_SCNT * (u64)P.obj_sum]), k = obj_k(P, s);
    if (lo >= k) {
        u32 n = sum_collect_need(P, s, P.obj_sum, false, k, YSM_NONE, s.sconf, 0);
        if (YS_LANE == 0) {
            s.H[YSM_H_SCONF_LEN] = n;
            s.H[YSM_H_CONFL] = YSM_SUMCONF;
        }
        ys_sync();
        return;
    }
    sum_force(P, s, P.obj_sum, 0, false, k - lo, level);
}

// At the start of a slice (status RUN): take the bound the host wrote since the last one, and
// check it at once (all lanes).
YS_D void obj_refresh(const Prog& P, const Geo& g, const Srch& s) {
    if (P.obj_sum == YSM_NONE) return;
    u32 e = ys_vol(g.global[YSM_G_OBJ_EPOCH]);
    u32 seen = s.H[YSM_H_OBJ_SEEN];
    ys_sync();
    if (seen == e) return;
    if (YS_LANE == 0) {
        u64 k = (u64)g.global[YSM_G_OBJ_K] | ((u64)g.global[YSM_G_OBJ_K + 1] << 32);
        s.scnt[YSM_SCNT * (u64)P.obj_sum + 5] = (i64)k;
        s.H[YSM_H_OBJ_SEEN] = e;
    }
    ys_sync();
    if (s.H[YSM_H_CONFL] == YSM_NONE) obj_check(P, s, s.H[YSM_H_LEVEL]);
    ys_sync();
}
