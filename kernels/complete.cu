// complete.cu — CompleteAssignment of the paper (Algorithm 1, line 13): with no applicable rule
// left, unassigned atoms become false. Run by one block (the last block of decide_rank_k, or
// block 0 of step_k) when the ranking finds no candidate.
//
// Invariant: one call falsifies exactly one variable — the smallest unassigned atom, or, when
// every atom is assigned, the smallest unassigned auxiliary variable — as the decision of a new
// level (dec_lit, decision bit in deps), and propagation runs before the next one, as in the
// host engine. One variable per level keeps every level's frontier processed at that level,
// which the watch invariant of propagate.cu relies on, and lets res and fwd analysis explain
// conflicts that involve completed variables (the design's gap 4).

#include "yasmin.cuh"

// The smallest unassigned variable in lo..hi-1, or YS_NONE (every thread of the block).
__device__ u32 first_open(const Dev& d, u32 lo, u32 hi) {
    __shared__ u32 best;
    if (threadIdx.x == 0) best = YS_NONE;
    __syncthreads();
    for (u32 v = lo + threadIdx.x; v < hi; v += blockDim.x) {
        if (ld_a(d, v) == 0) {
            atomicMin(&best, v);
            break;  // later ones in this thread's stride are larger
        }
    }
    __syncthreads();
    u32 r = best;
    __syncthreads();
    return r;
}

// The whole block: falsify one variable as a decision, or find the assignment total; sets
// ACTION and FIXPOINT.
__device__ void complete_block(const Dev& d) {
    u32 v = first_open(d, 1, d.num_atoms + 1);
    if (v == YS_NONE) v = first_open(d, d.num_atoms + 1, d.num_vars);
    if (threadIdx.x == 0) {
        if (v != YS_NONE) {
            u32 lvl = d.st[YS_ST_CDL] + 1;
            d.st[YS_ST_CDL] = lvl;
            decide_lit(d, lit_f(v), lvl);
        }
        d.st[YS_ST_ACTION] = v != YS_NONE ? YS_ACT_COMPLETED : YS_ACT_TOTAL;
        d.st[YS_ST_FIXPOINT] = v != YS_NONE ? 0u : 1u;
        __threadfence();
    }
    __syncthreads();
}
