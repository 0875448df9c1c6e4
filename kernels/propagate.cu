// propagate.cu — PropagateAndCheck of the paper (Algorithm 2), frontier-driven.
//
// Invariant (fixpoint): when st[FIXPOINT] = 1, no input or learned nogood is violated or unit
// under A. Why it holds without watched literals: a round processes the frontier F_r (literals
// made true before the launch) and re-reads each nogood that contains one of them in full; a
// nogood's literal assigned last (by round) is in some F_r, and the launch that processes it
// sees every other literal of the nogood, so no unit or violated nogood is missed however many
// threads touch it at once (there is no shared watch to update, hence no lost update). Learned
// nogoods have no occurrence map: every round reads all of them (the paper does the same, one
// thread per learned nogood).
//
// Assignments are claimed with atomicCAS on A[v]: exactly one thread wins, pushes the literal to
// the next frontier and records reason, stamp and (fwd) deps; a loser that wanted the opposite
// value found a violated nogood.

#include "yasmin.cuh"

// Check one nogood; propagate or report a conflict.
__device__ void check_nogood(const Dev& d, const u32* lits, u32 n, u32 id, u32 cdl, u32 next) {
    u32 unassigned = 0, w = 0;
    for (u32 k = 0; k < n; ++k) {
        u32 l = lits[k];
        i32 a = ld_a(d, lit_var(l));
        if (a == 0) {
            if (++unassigned > 1) return;  // not unit yet
            w = l;
        } else if (!holds(l, a)) {
            return;  // satisfied: one literal is false
        }
    }
    if (unassigned == 0) {
        atomicCAS(&d.st[YS_ST_CONFLICT], YS_NONE, id);
        return;
    }
    // Unit: every literal but w holds, so the complement of w must hold.
    u32 p = lit_neg(w), v = lit_var(p);
    i32 val = value_for(p, cdl);
    i32 old = atomicCAS(&d.A[v], 0, val);
    if (old == 0) {
        d.reason[v] = id;
        d.stamp[v] = atomicAdd(&d.st[YS_ST_EPOCH], 1u);
        if (d.fwd) {
            // Deps of p = OR of the deps of the other literals (mk_dl_bitmap). They are
            // published before `ready` (set_decision_deps / below), which closes the paper's
            // race where A[w] is visible before Deps[w] is written.
            u64 acc[YS_DEPS_WORDS];
            for (u32 x = 0; x < YS_DEPS_WORDS; ++x) acc[x] = 0;
            for (u32 k = 0; k < n; ++k) {
                u32 u = lit_var(lits[k]);
                if (u == v) continue;
                if (level_of(ld_a(d, u)) > 1) or_deps(d, u, acc);
            }
            for (u32 x = 0; x < YS_DEPS_WORDS; ++x) d.deps[(u64)v * YS_DEPS_WORDS + x] = acc[x];
            __threadfence();
            atomicExch(&d.ready[v], 1u);
        }
        push_next(d, next, p);
        atomicAdd(&d.ctr[YS_CTR_PROPS], 1ull);
    } else if ((old > 0) != (val > 0)) {
        // Someone made w true meanwhile: the whole nogood holds.
        atomicCAS(&d.st[YS_ST_CONFLICT], YS_NONE, id);
    }
}

// InitialPropagation: one thread per input unit nogood {l}: F l at level 1.
extern "C" __global__ void prop_units_k(Dev d) {
    u32 i = blockIdx.x * blockDim.x + threadIdx.x;
    u32 stride = gridDim.x * blockDim.x;
    u32 next = d.st[YS_ST_PARITY];  // units go to the current frontier: no round runs yet
    for (; i < d.n_units; i += stride) {
        u32 l = d.ng_lits[d.ng_off[i]];
        u32 p = lit_neg(l), v = lit_var(p);
        i32 val = value_for(p, 1);
        i32 old = atomicCAS(&d.A[v], 0, val);
        if (old == 0) {
            d.reason[v] = i;
            d.stamp[v] = atomicAdd(&d.st[YS_ST_EPOCH], 1u);
            for (u32 x = 0; x < YS_DEPS_WORDS; ++x) d.deps[(u64)v * YS_DEPS_WORDS + x] = 0;
            __threadfence();
            d.ready[v] = 1;
            push_next(d, next, p);
            atomicAdd(&d.ctr[YS_CTR_PROPS], 1ull);
        } else if ((old > 0) != (val > 0)) {
            atomicCAS(&d.st[YS_ST_CONFLICT], YS_NONE, i);
        }
    }
}

// One propagation round: blocks stride over the current frontier (threads stride over the
// occurrences of one literal, so a literal in more nogoods than a block has threads is fully
// covered), then all threads stride over the learned nogoods. The last block to finish swaps
// the frontiers and sets FIXPOINT.
extern "C" __global__ void prop_round_k(Dev d) {
    u32* st = d.st;
    bool active = st[YS_ST_CONFLICT] == YS_NONE && st[YS_ST_FIXPOINT] == 0 && st[YS_ST_UNSAT] == 0;
    u32 cur = st[YS_ST_PARITY], next = cur ^ 1u;
    if (active) {
        u32 cdl = st[YS_ST_CDL];
        u32 n = st[YS_ST_FRONT_LEN0 + cur];
        const u32* f = frontier(d, cur);
        for (u32 i = blockIdx.x; i < n; i += gridDim.x) {
            u32 l = f[i];
            u32 b = d.occ_off[l], e = d.occ_off[l + 1];
            for (u32 k = b + threadIdx.x; k < e; k += blockDim.x) {
                u32 id = d.occ[k];
                u32 s = d.ng_off[id];
                check_nogood(d, d.ng_lits + s, d.ng_off[id + 1] - s, id, cdl, next);
            }
        }
        u32 nl = st[YS_ST_L_COUNT];
        for (u32 j = blockIdx.x * blockDim.x + threadIdx.x; j < nl; j += gridDim.x * blockDim.x) {
            u32 s = d.l_off[j];
            check_nogood(d, d.l_lits + s, d.l_off[j + 1] - s, d.n_input + j, cdl, next);
        }
    }
    if (last_block_done(&st[YS_ST_ROUND_DONE])) {
        if (active) {
            u32 produced = *((volatile u32*)&st[YS_ST_FRONT_LEN0 + next]);
            u32 conflict = *((volatile u32*)&st[YS_ST_CONFLICT]);
            st[YS_ST_FRONT_LEN0 + cur] = 0;
            st[YS_ST_PARITY] = next;
            st[YS_ST_FIXPOINT] = (produced == 0 && conflict == YS_NONE) ? 1u : 0u;
            st[YS_ST_ROUNDS_BUSY] += 1;
            d.ctr[YS_CTR_ROUNDS] += 1;
            __threadfence();
        }
    }
}
