// decide.cu — Decision of the paper (Algorithm 1, line 11): rank the applicable rules and make
// the best one's body (or, for a choice rule whose body is already true, its first unassigned
// head atom) true at a new decision level.
//
// Invariant: a decision is only made at a propagation fixpoint, on an unassigned variable, and
// opens exactly one new level whose decision literal is dec_lit[level]. A rule is applicable when
// its body variable is not false and, for a conjunction, every positive atom is true and no
// negative atom is true (ASP computation: only supported atoms are made true). Sum bodies are
// ranked when their variable is not false (optimistic; soundness never depends on the choice).

#include "yasmin.cuh"

// The literal that deciding rule r would make true, or YS_NONE.
__device__ u32 rule_candidate(const Dev& d, u32 r) {
    u32 h0 = d.rule_head_off[r], h1 = d.rule_head_off[r + 1];
    if (h0 == h1) return YS_NONE;  // integrity constraint
    u32 bv = d.rule_body_var[r];
    i32 ab = ld_a(d, bv);
    if (ab < 0) return YS_NONE;
    u32 bi = d.rule_body[r];
    if (d.body_kind[bi] == YS_BODY_CONJ) {
        for (u32 k = d.body_off[bi]; k < d.body_off[bi + 1]; ++k) {
            u32 l = d.body_items[k];
            i32 a = ld_a(d, lit_var(l));
            if (lit_is_t(l) ? a <= 0 : a > 0) return YS_NONE;
        }
    }
    // Only rules with an unassigned head atom are candidates (ASP computation).
    u32 open_head = YS_NONE;
    for (u32 k = h0; k < h1 && open_head == YS_NONE; ++k) {
        u32 h = d.rule_heads[k];
        if (ld_a(d, h) == 0) open_head = h;
    }
    if (open_head == YS_NONE) return YS_NONE;
    return ab == 0 ? lit_t(bv) : lit_t(open_head);
}

__device__ float lit_rank(const Dev& d, u32 l) {
    if (d.heuristic == YS_HEUR_ACTIVITY) return d.act[lit_var(l)] + 1e-6f * d.lit_score[l];
    return d.lit_score[l];
}

// Rank the rules of this thread's grid stride; the block's best key goes to st[BEST] (atomicMax).
__device__ void rank_rules(const Dev& d) {
    __shared__ u64 sh[32];
    u64 best = 0;
    for (u32 r = blockIdx.x * blockDim.x + threadIdx.x; r < d.n_rules; r += gridDim.x * blockDim.x) {
        u32 c = rule_candidate(d, r);
        if (c == YS_NONE) continue;
        float s = 1.0f + lit_rank(d, c);  // > 0, so the key is never 0
        u64 key = ((u64)__float_as_uint(s) << 32) | (u64)(r ^ d.seed);
        best = key > best ? key : best;
    }
    best = block_max_u64(best, sh);
    if (threadIdx.x == 0 && best != 0) atomicMax((u64*)&d.st[YS_ST_BEST_LO], best);
}

// One block, after every block ranked: apply the winner, or complete when there is none.
__device__ void apply_best(const Dev& d) {
    __shared__ bool none;
    if (threadIdx.x == 0) {
        u64* bp = (u64*)&d.st[YS_ST_BEST_LO];
        u64 key = *((volatile u64*)bp);
        *bp = 0;
        none = key == 0;
        if (!none) {
            u32 r = ((u32)key) ^ d.seed;
            u32 p = rule_candidate(d, r);
            u32 lvl = d.st[YS_ST_CDL] + 1;
            d.st[YS_ST_CDL] = lvl;
            decide_lit(d, p, lvl);
            d.st[YS_ST_FIXPOINT] = 0;
            d.st[YS_ST_ACTION] = YS_ACT_DECIDED;
            __threadfence();
        }
    }
    __syncthreads();
    if (none) complete_block(d);
}

// Rank every rule (grid stride), reduce with warp shuffles to one key per block, atomicMax into
// st[BEST]; the last block applies the winner, or completes the assignment when there is none.
extern "C" __global__ void decide_rank_k(Dev d) {
    rank_rules(d);
    if (is_last_block(&d.st[YS_ST_DEC_DONE])) apply_best(d);
}
