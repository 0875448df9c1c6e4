// step.cu — one launch per search step: an optional decision, then propagation rounds until a
// fixpoint, a conflict or `max_rounds`, launched cooperatively (at most one block per
// multiprocessor, so all blocks are co-resident and a grid barrier cannot deadlock).
//
// A round over a large frontier is run by the whole grid and ends with one grid barrier. Rounds
// over a small one (`small_frontier`: at most `local_max` literals, few short occurrences; most
// rounds, as a decision's consequences come a few literals per round) are run by block 0 alone,
// one after the other with block barriers only, while the other blocks wait at one grid
// barrier; block 0 joins it when the frontier grows or propagation stops. `local_max` = 0:
// every round on the grid.
//
// Invariant: the same state transitions as decide_rank_k followed by prop_round_k launches;
// every block takes the same path because the values that decide it (st[GO], st[LOCAL]) are
// written by one thread (block 0's before the first round, the last block's to arrive at a grid
// barrier otherwise) before that barrier releases the others, and not written again until every
// block has passed the next grid barrier, i.e. has read them. Block 0's local rounds decide
// their own loop through shared memory, never through st[GO] / st[LOCAL].

#include "yasmin.cuh"

// Whether block 0 alone runs the next round: a frontier of 1..local_max literals (at most
// YS_LOCAL_CAP) with at most YS_LOCAL_OCC short input nogood occurrences in all. One thread,
// with the round's writes visible to it.
__device__ bool small_frontier(const Dev& d, u32 local_max) {
    u32 cur = *((volatile u32*)&d.st[YS_ST_PARITY]);
    u32 n = *((volatile u32*)&d.st[YS_ST_FRONT_LEN0 + cur]);
    if (n == 0 || n > local_max || n > YS_LOCAL_CAP) return false;
    const volatile u32* f = frontier(d, cur);
    u32 occ = 0;
    for (u32 i = 0; i < n; ++i) {
        u32 l = f[i];
        occ += d.socc_off[l + 1] - d.socc_off[l];
    }
    return occ <= YS_LOCAL_OCC;
}

__device__ __forceinline__ void set_go(const Dev& d, u32 max_rounds, u32 local_max) {
    u32* st = d.st;
    u32 go = (st[YS_ST_STEP_ROUND] < max_rounds && round_active(st)) ? 1u : 0u;
    st[YS_ST_GO] = go;
    st[YS_ST_LOCAL] = (go && small_frontier(d, local_max)) ? 1u : 0u;
    __threadfence();
}

// Grid barrier that also ends a grid round: the last block to arrive swaps the frontiers
// (round_finish) and decides what runs next before it releases the others, so a round costs
// one grid barrier, not two.
__device__ __forceinline__ void round_barrier(const Dev& d, u32 max_rounds, u32 local_max) {
    u32* st = d.st;
    grid_barrier_then(st, [&] {
        round_finish(d, *((volatile u32*)&st[YS_ST_PARITY]));
        st[YS_ST_STEP_ROUND] += 1;
        set_go(d, max_rounds, local_max);
    });
}

// Block 0 alone: rounds while the frontier stays within local_max and propagation goes on.
// The block barriers make every write of a round (all by this block) visible to the next.
__device__ void local_rounds(const Dev& d, u32 max_rounds, u32 local_max) {
    __shared__ u32 again;
    u32* st = d.st;
    do {
        round_body(d, *((volatile u32*)&st[YS_ST_PARITY]), *((volatile u32*)&st[YS_ST_CDL]), true);
        __syncthreads();
        if (threadIdx.x == 0) {
            __threadfence();
            round_finish(d, *((volatile u32*)&st[YS_ST_PARITY]));
            u32 r = st[YS_ST_STEP_ROUND] += 1;
            again = r < max_rounds && round_active(st) && small_frontier(d, local_max);
        }
        __syncthreads();
    } while (again);
}

extern "C" __global__ void step_k(Dev d, u32 do_decide, u32 max_rounds, u32 local_max) {
    u32* st = d.st;
    if (do_decide) {
        rank_rules(d);
        grid_barrier(st);
        if (blockIdx.x == 0) apply_best(d);
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        st[YS_ST_STEP_ROUND] = 0;
        set_go(d, max_rounds, local_max);
    }
    grid_barrier(st);
    while (*((volatile u32*)&st[YS_ST_GO]) != 0) {
        if (*((volatile u32*)&st[YS_ST_LOCAL]) != 0) {
            if (blockIdx.x == 0) local_rounds(d, max_rounds, local_max);
            grid_barrier_then(st, [&] { set_go(d, max_rounds, local_max); });
        } else {
            round_body(d, *((volatile u32*)&st[YS_ST_PARITY]), *((volatile u32*)&st[YS_ST_CDL]),
                       false);
            round_barrier(d, max_rounds, local_max);
        }
    }
}
