// unfounded.cu — the unfounded-set check of non-tight programs on a total assignment (the design
// brief's gap 1), and the one loop nogood it learns; the device twin of the host engine's
// src/engine/cpu/unfounded.rs, component by component.
//
// Founded: a false atom, an atom outside cyclic components, and (least fixpoint) a true cyclic
// atom h with a *support* (h, r) whose rule r has a true body that holds with the positive
// atoms of h's own component read as "founded" (atoms of other components, and negative
// literals, by the assignment; a sum body adds the weights of such literals; a choice rule
// founds a true head the same way). The true cyclic atoms left form U. U is an unfounded set:
// a true body of a rule of h ∈ U lacks a founded positive atom of h's component, which is true,
// so in U. If U is empty, the true atoms are an answer set (founded component by component in
// topological order).
//
// Loop nogood for the least unfounded atom p (the seed): the part P of U that p rests on — p
// closed under "a positive atom of U in p's component, in a true body of a rule of a member" —
// is itself unfounded; the nogood is {T p} plus, for each external body B of P (a rule with its
// head in P whose body could hold with no atom of P true), F b for B's variable b when B is
// false, or — a true sum body, which stays below its bound without P — the false literals of B
// outside P. All hold now (a true external conjunctive body would found its head: an internal
// error, YS_ERR_UFS_EXTERNAL), and the nogood holds in every answer set.
//
// Invariant: after ufs_check_k, st[LOOP_LEN] = 0 exactly when no true atom is unfounded;
// otherwise inject[0..LOOP_LEN] is that loop nogood, each variable once (ufs_mark), violated by A.
// One cooperative launch (all blocks co-resident; or one block); the fixpoints run in rounds
// separated by grid barriers until a round changes nothing.

#include "yasmin.cuh"

// The "changed" flag of round r. Round r writes flag r % 3 and, before the barrier that ends
// it, block 0 clears flag (r + 1) % 3: that one was last read after the barrier of round r - 2,
// which every block has left (they all arrived at the barrier of round r - 1), and is next
// written in round r + 1, after the barrier of round r. A two-flag scheme would clear a flag a
// slow block may still have to read.
__device__ __forceinline__ u32* ufs_flag(const Dev& d, u32 r) {
    return &d.st[YS_ST_UFS_FLAG0 + r % 3];
}

__device__ __forceinline__ u32 ld_u32(const u32* p) { return *((volatile const u32*)p); }

// Round after round of `round()` (true: it changed something) until a round changes nothing.
// Every block leaves after the same round: all read the flag of that round after its barrier.
template <class F>
__device__ void ufs_fixpoint(const Dev& d, F round) {
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (u32 k = 0; k < 3; ++k) d.st[YS_ST_UFS_FLAG0 + k] = 0;
    }
    grid_barrier(d.st);
    for (u32 r = 0;; ++r) {
        if (blockIdx.x == 0 && threadIdx.x == 0) *ufs_flag(d, r + 1) = 0;
        if (round()) atomicExch(ufs_flag(d, r), 1u);
        grid_barrier(d.st);
        if (ld_u32(ufs_flag(d, r)) == 0) break;
    }
}

// Atom q of component c counts as founded for a rule of a head in c (q's literal is true).
__device__ __forceinline__ bool ufs_avail(const Dev& d, u32 q, u32 c) {
    return d.scc[q] != c || ld_u32(&d.ufs_founded[q]) != 0;
}

// The true body b holds with founded atoms of component c (see the file comment).
__device__ bool ufs_body_founds(const Dev& d, u32 b, u32 c) {
    if (d.body_kind[b] == YS_BODY_CONJ) {
        // Every item holds (b is true); only the positive atoms of c need to be founded.
        for (u32 k = d.body_off[b]; k < d.body_off[b + 1]; ++k) {
            u32 it = d.body_items[k];
            if (lit_is_t(it) && !ufs_avail(d, lit_var(it), c)) return false;
        }
        return true;
    }
    long long acc = 0, lower = d.sum_lower[b];
    for (u32 k = d.sum_off[b]; k < d.sum_off[b + 1]; ++k) {
        u32 l = d.sum_lits[k], q = lit_var(l);
        if (holds(l, ld_a(d, q)) && (!lit_is_t(l) || ufs_avail(d, q, c))) {
            acc += d.sum_w[k];
            if (acc >= lower) return true;
        }
    }
    return false;
}

// Atom q of component c is in U (true, unfounded) and not yet in the part: add it.
__device__ __forceinline__ bool ufs_add_to_part(const Dev& d, u32 q, u32 c) {
    if (d.scc[q] != c || ld_a(d, q) <= 0 || ld_u32(&d.ufs_founded[q]) != 0) return false;
    if (ld_u32(&d.ufs_part[q]) != 0) return false;
    atomicExch(&d.ufs_part[q], 1u);
    return true;
}

// Append literal l (which holds) to the loop nogood unless its variable is in already.
__device__ __forceinline__ void ufs_emit(const Dev& d, u32 l, u32 epoch) {
    if (atomicExch(&d.ufs_mark[lit_var(l)], epoch) != epoch) {
        u32 pos = atomicAdd(&d.st[YS_ST_LOOP_LEN], 1u);
        d.inject[pos] = l;
    }
}

__device__ __forceinline__ bool ufs_in_part(const Dev& d, u32 q, u32 c) {
    return d.scc[q] == c && ld_u32(&d.ufs_part[q]) != 0;
}

// The literals support (h, r) of a head h in the part adds to the loop nogood (none if its body
// is internal).
__device__ void ufs_external(const Dev& d, u32 h, u32 r, u32 epoch) {
    u32 b = d.rule_body[r], bv = d.rule_body_var[r], c = d.scc[h];
    i32 ab = ld_a(d, bv);
    if (d.body_kind[b] == YS_BODY_CONJ) {
        for (u32 k = d.body_off[b]; k < d.body_off[b + 1]; ++k) {
            u32 it = d.body_items[k];
            if (lit_is_t(it) && ufs_in_part(d, lit_var(it), c)) return;  // internal
        }
        if (ab > 0) {
            atomicExch(&d.st[YS_ST_ERROR], YS_ERR_UFS_EXTERNAL);
            return;
        }
        ufs_emit(d, lit_f(bv), epoch);
        return;
    }
    long long outside = 0;
    for (u32 k = d.sum_off[b]; k < d.sum_off[b + 1]; ++k) {
        u32 l = d.sum_lits[k];
        if (!(lit_is_t(l) && ufs_in_part(d, lit_var(l), c))) outside += d.sum_w[k];
    }
    if (outside < d.sum_lower[b]) return;  // internal: it cannot hold without the part
    if (ab < 0) {
        ufs_emit(d, lit_f(bv), epoch);
        return;
    }
    // True: its true literals outside the part are founded and stay below the bound; keep the
    // false ones false.
    for (u32 k = d.sum_off[b]; k < d.sum_off[b + 1]; ++k) {
        u32 l = d.sum_lits[k], q = lit_var(l);
        if (lit_is_t(l) && ufs_in_part(d, q, c)) continue;
        if (!holds(l, ld_a(d, q))) ufs_emit(d, lit_neg(l), epoch);
    }
}

extern "C" __global__ void ufs_check_k(Dev d) {
    u32* st = d.st;
    u32 tid = blockIdx.x * blockDim.x + threadIdx.x, nth = gridDim.x * blockDim.x;
    bool lead = blockIdx.x == 0 && threadIdx.x == 0;

    for (u32 k = tid; k < d.n_cyc; k += nth) {
        u32 v = d.cyc_atoms[k];
        d.ufs_founded[v] = ld_a(d, v) > 0 ? 0u : 1u;
        d.ufs_part[v] = 0;
    }
    if (lead) {
        st[YS_ST_LOOP_LEN] = 0;
        st[YS_ST_UFS_SEED] = YS_NONE;
        st[YS_ST_UFS_EPOCH] += 1;
    }
    // (ufs_fixpoint starts with a grid barrier: the initial values are visible to every round.)

    // 1. The founded atoms: least fixpoint over the supports.
    ufs_fixpoint(d, [&]() {
        bool changed = false;
        for (u32 s = tid; s < d.n_sup; s += nth) {
            u32 h = d.sup_head[s];
            if (ld_u32(&d.ufs_founded[h]) != 0) continue;
            u32 r = d.sup_rule[s];
            if (ld_a(d, d.rule_body_var[r]) <= 0) continue;
            if (ufs_body_founds(d, d.rule_body[r], d.scc[h])) {
                atomicExch(&d.ufs_founded[h], 1u);
                changed = true;
            }
        }
        return changed;
    });

    // 2. The seed: the least true unfounded atom.
    for (u32 k = tid; k < d.n_cyc; k += nth) {
        u32 v = d.cyc_atoms[k];
        if (ld_a(d, v) > 0 && ld_u32(&d.ufs_founded[v]) == 0) atomicMin(&st[YS_ST_UFS_SEED], v);
    }
    grid_barrier(st);
    u32 seed = ld_u32(&st[YS_ST_UFS_SEED]);
    if (seed == YS_NONE) return;  // stable (every block reads the same value)
    u32 epoch = ld_u32(&st[YS_ST_UFS_EPOCH]);
    if (lead) {
        d.ufs_part[seed] = 1;
        ufs_emit(d, lit_t(seed), epoch);
    }

    // 3. The part of U the seed rests on.
    ufs_fixpoint(d, [&]() {
        bool changed = false;
        for (u32 s = tid; s < d.n_sup; s += nth) {
            u32 h = d.sup_head[s];
            if (ld_u32(&d.ufs_part[h]) == 0) continue;
            u32 r = d.sup_rule[s], b = d.rule_body[r], c = d.scc[h];
            if (ld_a(d, d.rule_body_var[r]) <= 0) continue;
            if (d.body_kind[b] == YS_BODY_CONJ) {
                for (u32 k = d.body_off[b]; k < d.body_off[b + 1]; ++k) {
                    u32 it = d.body_items[k];
                    if (lit_is_t(it)) changed |= ufs_add_to_part(d, lit_var(it), c);
                }
            } else {
                for (u32 k = d.sum_off[b]; k < d.sum_off[b + 1]; ++k) {
                    u32 l = d.sum_lits[k];
                    if (lit_is_t(l)) changed |= ufs_add_to_part(d, lit_var(l), c);
                }
            }
        }
        return changed;
    });

    // 4. The external bodies of the part.
    for (u32 s = tid; s < d.n_sup; s += nth) {
        u32 h = d.sup_head[s];
        if (ld_u32(&d.ufs_part[h]) != 0) ufs_external(d, h, d.sup_rule[s], epoch);
    }
}
