// propagate.cu — PropagateAndCheck of the paper (Algorithm 2), frontier-driven, split by size.
//
// A round processes the frontier F_r: literals made true before the round started. For each
// literal l of F_r:
//  * input nogoods of length 2 and 3 containing l (socc), and learned ones of length 2 and 3
//    (the short partition: lists lb_head/lt_head, one node per nogood and position), are
//    re-read in full: the literal of a nogood assigned last is in some frontier, and the round
//    that processes it sees all the others, so no short nogood is missed (no shared state, no
//    lost update). A learned nogood is asserting when it is stored (learn.cu): every literal
//    but one holds and the backjump asserts the last, so no round is owed for the literals
//    that held before it existed;
//  * longer input nogoods and long learned ones are reached through two watched literals: the
//    list of l (ihead/lhead, singly linked through inext/lnext, one node per nogood and slot)
//    holds exactly the slots that watch l.
//
// Watch invariant W (holds at every fixpoint and survives backjumps): the two slots of a nogood
// watch distinct literals of it, each slot's node is in the list of the literal it watches, and
// if a watched literal holds then the other watched literal is false at a level <= its own.
// At a fixpoint, a nogood with at most one literal not holding has a watched literal that holds,
// so the other one is false: it is neither unit nor violated.
//
// Why W survives (levels): every assignment of a round is made at st[CDL], each decision opens
// one level (complete-assignment falsifies one variable per level), and a level's frontier is
// processed before the next decision; a conflict stops propagation only at levels above the
// backjump level. So a watched literal that holds was processed at its own level, when the other
// watch was false at a level <= it (or was made false then); a backjump that unassigns the
// other watch unassigns this one too.
//
// Why it is race-free without locks:
//  * only the walker of the list that holds a slot's node moves that slot: it detaches the whole
//    list (atomicExch of the head), and it is the only walker of that literal in the round
//    (each literal enters a frontier once per assignment);
//  * a slot moves only to a literal seen not holding, so never into a list being walked this
//    round (those literals held before the round started); if the new literal becomes true
//    later in the round, it is in the next frontier and the node is in its list before that
//    round starts (kernel boundary or grid barrier);
//  * both slots of one nogood can be walked in the same round (both watched literals in F_r).
//    The pair is one 64-bit word, replaced with atomicCAS that also compares the other slot:
//    if the other walker moved its slot meanwhile, the CAS fails and we choose again, so the two
//    slots never end on one literal (the lost update of the design's gap 4);
//  * "unit", "violated" and "satisfied" are concluded from literals seen holding (which stay
//    so for the round) and from the other watched literal seen unassigned or false — such a
//    literal is not in F_r, so nobody moves that slot during the round.
// A walker always finishes its list (re-pushing kept nodes), even after a conflict, so no node
// is ever dropped.
//
// Assignments are claimed with atomicCAS on A[v]: exactly one thread wins, pushes the literal to
// the next frontier and records reason, stamp and (fwd) deps; a loser that wanted the opposite
// value found a violated nogood.

#include "yasmin.cuh"

// Make p (the complement of nogood id's last open literal) true at level cdl, or report the
// conflict if p's variable was made false meanwhile.
__device__ void propagate_lit(const Dev& d, const u32* lits, u32 n, u32 id, u32 p, u32 cdl,
                              u32 next) {
    u32 v = lit_var(p);
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
        // Someone made the open literal true meanwhile: the whole nogood holds.
        atomicCAS(&d.st[YS_ST_CONFLICT], YS_NONE, id);
    }
}

// Check one (short) nogood in full; propagate or report a conflict.
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
    propagate_lit(d, lits, n, id, lit_neg(w), cdl, next);
}

// Push node onto the list of literal l (lock-free stack push).
__device__ __forceinline__ void watch_push(u32* head, u32* nxt, u32 l, u32 node) {
    u32 h = *((volatile u32*)&head[l]);
    while (true) {
        nxt[node] = h;
        __threadfence();
        u32 seen = atomicCAS(&head[l], h, node);
        if (seen == h) return;
        h = seen;
    }
}

// Slot s of nogood (lits, n, global id) watches l, which now holds. Move the slot to another
// literal that does not hold, or conclude unit / violated / satisfied. Returns true when the
// slot stays on l (the caller re-pushes the node).
//
// Warp-cooperative: all 32 lanes of a warp call it with the same arguments. Lane 0 reads the
// watch pair and the other watched literal and broadcasts them, so every lane decides on the
// same values; the lanes scan 32 literals at a time for a replacement (the first lane that saw
// one not holding wins the ballot), and lane 0 alone writes (CAS, push, propagation, conflict).
// The conclusions are the same as a one-thread scan: a replacement was seen not holding, and
// "every literal but `other` holds" rests on literals seen holding, which stay so for the round.
__device__ bool watch_visit(const Dev& d, u64* W, u32* head, u32* nxt, u32 j, u32 s, u32 l,
                            const u32* lits, u32 n, u32 id, u32 cdl, u32 next) {
    const u32 lane = threadIdx.x & 31u;
    while (true) {
        u64 w = 0;
        if (lane == 0) w = *((volatile u64*)&W[j]);
        w = __shfl_sync(YS_FULL_MASK, w, 0);
        u32 me = s ? (u32)(w >> 32) : (u32)w;
        u32 other = s ? (u32)w : (u32)(w >> 32);
        if (me != l) {
            if (lane == 0) atomicExch(&d.st[YS_ST_ERROR], YS_ERR_WATCH);
            return true;
        }
        i32 ao = 0;
        if (lane == 0) ao = ld_a(d, lit_var(other));
        ao = __shfl_sync(YS_FULL_MASK, ao, 0);
        if (ao != 0 && !holds(other, ao)) return true;  // satisfied by the other watch
        u32 rep = YS_NONE;
        for (u32 base = 0; base < n; base += 32) {
            u32 k = base + lane, x = 0;
            bool cand = false;
            if (k < n) {
                x = lits[k];
                if (x != l && x != other) {
                    i32 a = ld_a(d, lit_var(x));
                    cand = a == 0 || !holds(x, a);
                }
            }
            u32 seen = __ballot_sync(YS_FULL_MASK, cand);
            if (seen != 0) {
                rep = __shfl_sync(YS_FULL_MASK, x, __ffs(seen) - 1);
                break;
            }
        }
        if (rep != YS_NONE) {
            u32 moved = 0;
            if (lane == 0) {
                u64 nw = s ? (((u64)rep << 32) | (u64)other) : (((u64)other << 32) | (u64)rep);
                if (atomicCAS(&W[j], w, nw) == w) {
                    watch_push(head, nxt, rep, 2 * j + s);
                    moved = 1;
                }
            }
            if (__shfl_sync(YS_FULL_MASK, moved, 0)) return false;
            continue;  // the other slot moved meanwhile: choose again
        }
        // Every literal but `other` holds.
        if (lane == 0) {
            ao = ld_a(d, lit_var(other));
            if (ao == 0) {
                propagate_lit(d, lits, n, id, lit_neg(other), cdl, next);
            } else if (holds(other, ao)) {
                atomicCAS(&d.st[YS_ST_CONFLICT], YS_NONE, id);
            }
        }
        return true;
    }
}

// Walk (detach, visit, re-push) the watch list of l, input (learned = false) or learned; one
// warp per list (all lanes call it with the same arguments), lane 0 owning the list.
__device__ void watch_walk(const Dev& d, bool learned, u32 l, u32 cdl, u32 next) {
    const u32 lane = threadIdx.x & 31u;
    u32* head = learned ? d.lhead : d.ihead;
    u32* nxt = learned ? d.lnext : d.inext;
    u64* W = learned ? d.lwatch : d.iwatch;
    u32 node = 0;
    if (lane == 0) node = atomicExch(&head[l], YS_NONE);
    node = __shfl_sync(YS_FULL_MASK, node, 0);
    while (node != YS_NONE) {
        // Read before the visit: re-pushing the node rewrites nxt[node].
        u32 after = 0;
        if (lane == 0) after = nxt[node];
        after = __shfl_sync(YS_FULL_MASK, after, 0);
        u32 j = node >> 1, s = node & 1u;
        const u32* lits;
        u32 n, id = learned ? d.n_input + j : j;
        ng_span(d, id, &lits, &n);
        if (watch_visit(d, W, head, nxt, j, s, l, lits, n, id, cdl, next) && lane == 0) {
            watch_push(head, nxt, l, node);
        }
        node = after;
    }
}

// Check the short learned nogoods (binary, then ternary) containing l in full. The lists only
// grow in learn_analyse_k, never during a round, so this walk reads them without atomics.
__device__ void short_learned_walk(const Dev& d, u32 l, u32 cdl, u32 next) {
    for (u32 node = d.lb_head[l]; node != YS_NONE; node = d.lb_next[node]) {
        u32 j = node >> 1;
        check_nogood(d, d.lb_lits + 2 * j, 2, YS_ID_LBIN | j, cdl, next);
    }
    for (u32 node = d.lt_head[l]; node != YS_NONE; node = d.lt_next[node]) {
        u32 j = node / 3;
        check_nogood(d, d.lt_lits + 3 * j, 3, YS_ID_LTER | j, cdl, next);
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

// The work of one round over frontier `cur`: blocks stride over the frontier for the short
// input nogoods (threads stride over the occurrences of one literal, so a literal in more
// nogoods than a block has threads is fully covered); threads stride over it for the short
// learned lists (one thread per list); warps stride over it twice, for the input watch lists
// and the long learned ones (one warp per list, scanning a nogood 32 literals at a time).
// Every caller runs it in whole warps with the same (cur, cdl) in all lanes.
__device__ void round_body(const Dev& d, u32 cur, u32 cdl) {
    u32 next = cur ^ 1u;
    u32 n = d.st[YS_ST_FRONT_LEN0 + cur];
    const u32* f = frontier(d, cur);
    for (u32 i = blockIdx.x; i < n; i += gridDim.x) {
        u32 l = f[i];
        u32 b = d.socc_off[l], e = d.socc_off[l + 1];
        for (u32 k = b + threadIdx.x; k < e; k += blockDim.x) {
            u32 id = d.socc[k];
            u32 s = d.ng_off[id];
            check_nogood(d, d.ng_lits + s, d.ng_off[id + 1] - s, id, cdl, next);
        }
    }
    u32 t = blockIdx.x * blockDim.x + threadIdx.x, nt = gridDim.x * blockDim.x;
    for (u32 i = t; i < n; i += nt) short_learned_walk(d, f[i], cdl, next);
    // Warp-uniform loop (i is the same in every lane): watch_visit's shuffles need all lanes.
    for (u32 i = t >> 5; i < 2 * n; i += nt >> 5) watch_walk(d, i >= n, f[i >= n ? i - n : i], cdl, next);
}

// After a round: swap the frontiers and set FIXPOINT (one thread, all writes of the round
// visible to it).
__device__ void round_finish(const Dev& d, u32 cur) {
    u32* st = d.st;
    u32 next = cur ^ 1u;
    u32 produced = *((volatile u32*)&st[YS_ST_FRONT_LEN0 + next]);
    u32 conflict = *((volatile u32*)&st[YS_ST_CONFLICT]);
    st[YS_ST_FRONT_LEN0 + cur] = 0;
    st[YS_ST_PARITY] = next;
    st[YS_ST_FIXPOINT] = (produced == 0 && conflict == YS_NONE) ? 1u : 0u;
    st[YS_ST_ROUNDS_BUSY] += 1;
    d.ctr[YS_CTR_ROUNDS] += 1;
    __threadfence();
}

__device__ __forceinline__ bool round_active(const u32* st) {
    return st[YS_ST_CONFLICT] == YS_NONE && st[YS_ST_FIXPOINT] == 0 && st[YS_ST_UNSAT] == 0 &&
           st[YS_ST_ERROR] == 0;
}

// One propagation round per launch (fallback when cooperative launch is not available). The
// last block to finish swaps the frontiers and sets FIXPOINT.
extern "C" __global__ void prop_round_k(Dev d) {
    u32* st = d.st;
    // Warp-uniform (round_body's warp loops need every lane): another block may set CONFLICT
    // while the lanes read it.
    bool active = __shfl_sync(YS_FULL_MASK, round_active(st), 0);
    u32 cur = st[YS_ST_PARITY];
    if (active) round_body(d, cur, st[YS_ST_CDL]);
    if (last_block_done(&st[YS_ST_ROUND_DONE]) && active) round_finish(d, cur);
}
