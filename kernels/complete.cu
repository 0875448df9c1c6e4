// complete.cu — CompleteAssignment of the paper (Algorithm 1, line 13): with no applicable rule
// left, every unassigned atom becomes false. Run by the last block of decide_rank_k when it
// finds no candidate (one launch less per decision than a kernel of its own; it happens once
// per total assignment, so one block suffices).
//
// Invariant: each variable falsified here is the decision of its own new level (a unique level
// from an atomic counter), with its decision bit in deps. The paper falsifies them as one block
// with no reason; giving each its own level lets both res and fwd analysis explain conflicts
// that involve them (the design's gap 4), at the cost of more levels. Auxiliary variables are
// only completed when no atom was (propagation normally defines them from the atoms).

#include "yasmin.cuh"

// Falsify the unassigned variables of lo..hi-1, striding over the threads of one block.
__device__ void complete_range(const Dev& d, u32 lo, u32 hi) {
    u32 cur = d.st[YS_ST_PARITY];
    for (u32 v = lo + threadIdx.x; v < hi; v += blockDim.x) {
        if (ld_a(d, v) != 0) continue;
        u32 lvl = atomicAdd(&d.st[YS_ST_CDL], 1u) + 1;
        u32 p = lit_f(v);
        d.A[v] = value_for(p, lvl);
        d.reason[v] = YS_NONE;
        d.stamp[v] = atomicAdd(&d.st[YS_ST_EPOCH], 1u);
        d.dec_lit[lvl] = p;
        set_decision_deps(d, v, lvl);
        push_next(d, cur, p);
        atomicAdd(&d.st[YS_ST_N_COMPLETED], 1u);
        atomicAdd(&d.ctr[YS_CTR_DECISIONS], 1ull);
    }
}

// The whole block: atoms first, auxiliaries only if no atom was open; sets ACTION.
__device__ void complete_block(const Dev& d) {
    complete_range(d, 1, d.num_atoms + 1);
    __syncthreads();
    if (atomicAdd(&d.st[YS_ST_N_COMPLETED], 0u) == 0) complete_range(d, d.num_atoms + 1, d.num_vars);
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 n = atomicExch(&d.st[YS_ST_N_COMPLETED], 0u);
        d.st[YS_ST_ACTION] = n > 0 ? YS_ACT_COMPLETED : YS_ACT_TOTAL;
        d.st[YS_ST_FIXPOINT] = n > 0 ? 0u : 1u;
        __threadfence();
    }
}
