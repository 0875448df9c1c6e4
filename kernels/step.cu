// step.cu — one launch per search step: an optional decision, then propagation rounds until a
// fixpoint, a conflict or `max_rounds`, one grid barrier after each round (launched
// cooperatively, at most one block per multiprocessor, so all blocks are co-resident and the
// barrier cannot deadlock).
//
// Invariant: the same state transitions as decide_rank_k followed by prop_round_k launches;
// every block takes the same path because the only value that decides it (st[GO]) is written by
// one thread (block 0's before the first round, the last block's to arrive after each) before a
// barrier releases the others, and not written again until every block has passed the next
// barrier, i.e. has read it.

#include "yasmin.cuh"

// Grid barrier that also ends a round: the last block to arrive swaps the frontiers
// (round_finish) and decides whether round r + 1 runs (st[GO]) before it releases the others,
// so a round costs one grid barrier, not two.
__device__ __forceinline__ void round_barrier(const Dev& d, u32 r, u32 max_rounds) {
    u32* st = d.st;
    grid_barrier_then(st, [&] {
        round_finish(d, *((volatile u32*)&st[YS_ST_PARITY]));
        st[YS_ST_GO] = (r + 1 < max_rounds && round_active(st)) ? 1u : 0u;
        __threadfence();
    });
}

extern "C" __global__ void step_k(Dev d, u32 do_decide, u32 max_rounds) {
    u32* st = d.st;
    if (do_decide) {
        rank_rules(d);
        grid_barrier(st);
        if (blockIdx.x == 0) apply_best(d);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        st[YS_ST_GO] = (max_rounds > 0 && round_active(st)) ? 1u : 0u;
    }
    grid_barrier(st);
    for (u32 r = 0; *((volatile u32*)&st[YS_ST_GO]) != 0; ++r) {
        round_body(d, *((volatile u32*)&st[YS_ST_PARITY]), *((volatile u32*)&st[YS_ST_CDL]));
        round_barrier(d, r, max_rounds);
    }
}
