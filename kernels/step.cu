// step.cu — one launch per search step: an optional decision, then propagation rounds until a
// fixpoint, a conflict or `max_rounds`, separated by grid barriers (launched cooperatively, one
// block per multiprocessor, so all blocks are co-resident and the barrier cannot deadlock).
//
// Invariant: the same state transitions as decide_rank_k followed by prop_round_k launches;
// every block takes the same path because the only value that decides it (st[GO]) is written by
// block 0's thread 0 between two barriers and read by all only after the first of them.

#include "yasmin.cuh"

extern "C" __global__ void step_k(Dev d, u32 do_decide, u32 max_rounds) {
    u32* st = d.st;
    if (do_decide) {
        rank_rules(d);
        grid_barrier(st);
        if (blockIdx.x == 0) apply_best(d);
    }
    for (u32 r = 0;; ++r) {
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            st[YS_ST_GO] = (r < max_rounds && round_active(st)) ? 1u : 0u;
        }
        grid_barrier(st);
        if (*((volatile u32*)&st[YS_ST_GO]) == 0) break;
        round_body(d, *((volatile u32*)&st[YS_ST_PARITY]), *((volatile u32*)&st[YS_ST_CDL]));
        grid_barrier(st);
        if (blockIdx.x == 0 && threadIdx.x == 0) round_finish(d, st[YS_ST_PARITY]);
    }
}
