// backjump.cu — Backjump of the paper (Algorithm 1, line 9): undo every level above the one the
// analysis chose, then assert the complement of the learned nogood's asserting literal there.
//
// Invariant: afterwards every assigned variable has level <= st[CDL] = st[BJ_LEVEL], the asserted
// literal has the learned nogood as its reason, and the frontier holds exactly that literal
// (the levels below were at a propagation fixpoint before the conflict).

#include "yasmin.cuh"

// restart = 1: undo every level above 1 and assert nothing (the state was at a fixpoint, so
// level 1 still is).
extern "C" __global__ void backjump_undo_k(Dev d, u32 restart) {
    u32* st = d.st;
    bool ok = st[YS_ST_UNSAT] == 0 && st[YS_ST_ERROR] == 0;
    u32 bj = restart ? 1u : st[YS_ST_BJ_LEVEL];
    if (ok) {
        for (u32 v = blockIdx.x * blockDim.x + threadIdx.x; v < d.num_vars; v += gridDim.x * blockDim.x) {
            if (level_of(d.A[v]) > bj) {
                d.A[v] = 0;
                d.ready[v] = 0;
            }
        }
    }
    bool last = last_block_done(&st[YS_ST_UNDO_DONE]);
    if (last && ok && restart) {
        st[YS_ST_CDL] = 1;
        st[YS_ST_PARITY] = 0;
        st[YS_ST_FRONT_LEN0] = 0;
        st[YS_ST_FRONT_LEN1] = 0;
        st[YS_ST_CONFLICT] = YS_NONE;
        st[YS_ST_FIXPOINT] = 1;
        __threadfence();
    } else if (last && ok) {
        u32 x = st[YS_ST_ASSERT_LIT];
        u32 ng = st[YS_ST_ASSERT_NG];
        u32 p = lit_neg(x), v = lit_var(p);
        st[YS_ST_CDL] = bj;
        d.A[v] = value_for(p, bj);
        d.reason[v] = ng;
        d.stamp[v] = atomicAdd(&st[YS_ST_EPOCH], 1u);
        if (d.fwd) {
            u64 acc[YS_DEPS_WORDS];
            for (u32 w = 0; w < YS_DEPS_WORDS; ++w) acc[w] = 0;
            const u32* lits;
            u32 n;
            ng_span(d, ng, &lits, &n);
            for (u32 k = 0; k < n; ++k) {
                u32 u = lit_var(lits[k]);
                if (u != v && level_of(d.A[u]) > 1) or_deps(d, u, acc);
            }
            for (u32 w = 0; w < YS_DEPS_WORDS; ++w) d.deps[(u64)v * YS_DEPS_WORDS + w] = acc[w];
        }
        __threadfence();
        d.ready[v] = 1;
        d.front0[0] = p;
        st[YS_ST_PARITY] = 0;
        st[YS_ST_FRONT_LEN0] = 1;
        st[YS_ST_FRONT_LEN1] = 0;
        st[YS_ST_CONFLICT] = YS_NONE;
        st[YS_ST_FIXPOINT] = 0;
        d.ctr[YS_CTR_PROPS] += 1;
        __threadfence();
    }
}
