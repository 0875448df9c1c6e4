// yasmin.cuh — types shared by every kernel of the device engine, and by src/engine/gpu (Rust).
//
// Invariant: every `#define YS_*` number here equals the Rust constant of the same name in
// src/engine/gpu/layout.rs (a test parses this file and compares), and `struct Dev` has the
// layout of the Rust `DevParams` (#[repr(C)], pointers first, then 32-bit words; the size is
// checked on both sides against YS_DEV_BYTES).
//
// The literal encoding is the one of src/lit.rs: T v = 2v, F v = 2v + 1.
// The assignment A[v] is 0 when v is unassigned, +l when v is true at decision level l, -l when
// false at level l. Level 1 is the top level (no decision); decisions open levels 2, 3, ...

#pragma once

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;

// ---- literals (src/lit.rs) ----
#define YS_LIT_SHIFT 1
#define YS_LIT_FALSE_BIT 1
__device__ __forceinline__ u32 lit_var(u32 l) { return l >> YS_LIT_SHIFT; }
__device__ __forceinline__ bool lit_is_t(u32 l) { return (l & YS_LIT_FALSE_BIT) == 0; }
__device__ __forceinline__ u32 lit_neg(u32 l) { return l ^ YS_LIT_FALSE_BIT; }
__device__ __forceinline__ u32 lit_t(u32 v) { return v << YS_LIT_SHIFT; }
__device__ __forceinline__ u32 lit_f(u32 v) { return (v << YS_LIT_SHIFT) | YS_LIT_FALSE_BIT; }

// ---- special ids ----
#define YS_NONE 4294967295u   // no nogood / no reason (decisions) / no conflict
// Nogood ids: input nogoods are 0..n_input, long learned ones n_input + j (the CSR store), and
// the short learned partition is tagged in the two top bits: binary j = YS_ID_LBIN | j, ternary
// j = YS_ID_LTER | j (j <= YS_ID_MASK; n_input + long capacity stays below YS_ID_LBIN).
#define YS_ID_LBIN 2147483648u  // 0x80000000
#define YS_ID_LTER 3221225472u  // 0xC0000000
#define YS_ID_MASK 1073741823u  // 0x3FFFFFFF

// ---- state words (u32 array `st`, read back by the host as one small block) ----
#define YS_ST_CDL 0            // current decision level (1 = top)
#define YS_ST_CONFLICT 1       // id of a violated nogood (input id, or n_input + learned id)
#define YS_ST_PARITY 2         // which frontier buffer is current
#define YS_ST_FRONT_LEN0 3
#define YS_ST_FRONT_LEN1 4
#define YS_ST_ERROR 5          // non-zero: a device-side invariant failed (YS_ERR_*)
#define YS_ST_FIXPOINT 6       // 1: the last round found no new literal and no conflict
#define YS_ST_ACTION 7         // what the last decide/complete step did (YS_ACT_*)
#define YS_ST_EPOCH 8          // assignment stamp counter (order of assignment)
#define YS_ST_UNSAT 9          // 1: a conflict needs no decision: no (further) model
#define YS_ST_L_COUNT 10       // learned nogoods stored
#define YS_ST_L_USED 11        // learned literals stored
#define YS_ST_LOOP_LEN 12      // ufs_check_k: length of the loop nogood in `inject` (0: none)
#define YS_ST_ASSERT_LIT 13    // literal of the learned nogood at the highest level (in A)
#define YS_ST_ASSERT_NG 14     // id of the learned nogood (reason of the asserted literal)
#define YS_ST_LEARN_EPOCH 15   // marks of learn_analyse_k
#define YS_ST_DEC_DONE 16      // blocks of decide_rank_k that finished
#define YS_ST_BJ_LEVEL 17      // level the last analysis backjumps to
#define YS_ST_BEST_LO 18       // 64-bit best decision key (8-byte aligned)
#define YS_ST_BEST_HI 19
#define YS_ST_N_COMPLETED 20   // variables falsified by the last complete step
#define YS_ST_ROUND_DONE 22    // blocks of prop_round_k that finished (last-block pattern)
#define YS_ST_ACT_INC 23       // activity increment (float bits)
#define YS_ST_ROUNDS_BUSY 24   // rounds that found work since the host last cleared it
#define YS_ST_UNDO_DONE 25     // blocks of backjump_undo_k that finished
#define YS_ST_GO 26            // step_k: 1 while the next round is to run (written between barriers)
#define YS_ST_BAR_COUNT 27     // grid barrier of step_k: blocks arrived
#define YS_ST_BAR_GEN 28       // grid barrier of step_k: generation
#define YS_ST_LB_COUNT 29      // learned binary nogoods stored (short partition)
#define YS_ST_LT_COUNT 30      // learned ternary nogoods stored (short partition)
#define YS_ST_UFS_SEED 32      // ufs_check_k: the unfounded atom the loop nogood is built for
#define YS_ST_UFS_EPOCH 33     // ufs_check_k: marks of the nogood's variables (ufs_mark)
#define YS_ST_UFS_FLAG0 34     // ufs_check_k: "changed" flags of rounds r = 0, 1, 2 (mod 3)
#define YS_ST_HOST_WORDS 13    // the host reads back only st[0..13] (52 bytes) per iteration
#define YS_ST_WORDS 40

#define YS_ACT_NONE 0          // no applicable rule: complete next
#define YS_ACT_DECIDED 1
#define YS_ACT_COMPLETED 2
#define YS_ACT_TOTAL 3         // nothing left unassigned

#define YS_ERR_NOT_VIOLATED 1  // the nogood to analyse is not violated by A
#define YS_ERR_LEARN_CAPACITY 2
#define YS_ERR_NO_REASON 3     // two literals without reason on one level
#define YS_ERR_WATCH 4         // a watch-list node whose slot does not watch the list's literal
#define YS_ERR_UFS_EXTERNAL 5  // ufs_check_k: a true external body of an unfounded set

// ---- 64-bit counters (u64 array `ctr`, read when the host updates Stats) ----
#define YS_CTR_PROPS 0
#define YS_CTR_DECISIONS 1
#define YS_CTR_CONFLICTS 2
#define YS_CTR_LEARNED 3
#define YS_CTR_LEARNED_LITS 4
#define YS_CTR_ROUNDS 5
#define YS_CTR_FWD_FALLBACK 6  // fwd learning fell back to res (a level past the bitmap width)
#define YS_CTR_RES_STEPS 7
#define YS_CTR_MINIMISED 8  // literals dropped from res nogoods by local minimisation
#define YS_CTR_LEARNED_SHORT 9  // learned nogoods stored in the short partition (length 2, 3)
#define YS_CTR_WORDS 10

// ---- dependency bitmaps (fwd learning): bit l = depends on the decision of level l ----
#define YS_DEPS_WORDS 2
#define YS_DEPS_LEVELS 128     // levels >= this are not tracked: analysis falls back to res

// ---- heuristics (src/config.rs Heuristic) ----
#define YS_HEUR_OCC 0
#define YS_HEUR_JW 1
#define YS_HEUR_ACTIVITY 2

// ---- body kinds for decisions ----
#define YS_BODY_CONJ 0
#define YS_BODY_SUM 1

// ---- learn sources ----
#define YS_SRC_CONFLICT 0      // the nogood in st[YS_ST_CONFLICT]
#define YS_SRC_INJECT 1        // `inject[0..len]`, written by ufs_check_k (loop nogoods)
#define YS_SRC_DECISIONS 2     // the decisions of levels 2..cdl (blocking a model)

#define YS_BLOCK 256           // threads per block of every multi-block kernel
#define YS_FULL_MASK 4294967295u  // all lanes of a warp (blocks are whole warps)
#define YS_LEARN_THREADS 256

#define YS_DEV_BYTES 480

// Every kernel takes this by value: device pointers, then sizes and options.
struct Dev {
    u32* st;
    u64* ctr;
    const u32* ng_lits;   // input nogoods, CSR (src/nogoods/db.rs, unchanged)
    const u32* ng_off;
    const u32* occ_off;   // literal -> input nogoods containing it
    const u32* occ;
    i32* A;               // assignment, +-level
    u32* reason;          // nogood that propagated the variable, YS_NONE for decisions
    u32* stamp;           // order of assignment (YS_ST_EPOCH at the time)
    u64* deps;            // YS_DEPS_WORDS words per variable (fwd only)
    u32* ready;           // 1 once deps[v] of the current assignment of v is published
    u32* front0;          // frontier buffers (literals that became true)
    u32* front1;
    u32* dec_lit;         // decision literal of each level
    u32* l_lits;          // learned nogoods of length 1 or > 3 (and short ones when their
    u32* l_off;           // partition is full): CSR, append-only between compactions
    u32* delta;           // analysis scratch (num_vars)
    u32* mark;            // analysis marks per variable (learn epoch)
    u32* inject;          // loop nogood for YS_SRC_INJECT (written by ufs_check_k)
    const u32* rule_body_var;  // per rule: its body variable
    const u32* rule_body;      // per rule: body index
    const u32* rule_head_off;  // per rule: head atoms CSR
    const u32* rule_heads;
    const u32* body_off;       // per body: condition literals CSR (conj: T p / F q items)
    const u32* body_items;
    const u32* body_kind;      // YS_BODY_*
    const float* lit_score;    // static heuristic score per literal (occ or jw)
    float* act;                // activity per variable
    const u32* socc_off;  // literal -> input nogoods of length 2 or 3 containing it (CSR)
    const u32* socc;
    u64* iwatch;          // per input nogood of length > 3: watched literals (slot 0 low word)
    u32* inext;           // per watch node 2*id+slot of input nogoods: next node in its list
    u32* ihead;           // per literal: first node watching it (input nogoods)
    u64* lwatch;          // as iwatch/inext/ihead, for long learned nogood j (length >= 2)
    u32* lnext;
    u32* lhead;
    // Short learned partition (length 2 and 3), never deleted, checked in full like the input's
    // short nogoods: literals at fixed stride, and per literal a list of occurrence nodes
    // (node = 2j+k of binary j / 3j+k of ternary j, k the position), pushed only by the learn
    // kernel, read-only during rounds.
    u32* lb_lits;
    u32* lb_next;
    u32* lb_head;
    u32* lt_lits;
    u32* lt_next;
    u32* lt_head;
    // Unfounded-set check (unfounded.cu; non-tight programs only, else one zeroed element each).
    // A *support* is a pair (head atom h of a cyclic component, rule r with h in its head).
    u32* ufs_founded;     // per atom (cyclic ones only): 1 = founded (or false)
    u32* ufs_part;        // per atom (cyclic ones only): 1 = in the part of U the nogood is for
    u32* ufs_mark;        // per variable: st[UFS_EPOCH] once in the loop nogood
    const u32* scc;       // per atom: id of its strongly connected component
    const u32* cyc_atoms; // the atoms of cyclic components
    const u32* sup_head;  // per support: h
    const u32* sup_rule;  // per support: r
    const u32* sum_off;   // per body: its weighted literals, CSR (sum bodies of supports only)
    const u32* sum_lits;  // literal that makes the program literal true (T q for q, F q for not q)
    const long long* sum_w;
    const long long* sum_lower;  // per body: the sum's lower bound (sum bodies of supports only)
    u32 n_input;          // input nogoods
    u32 n_units;          // input unit nogoods (the first n_units)
    u32 num_vars;         // variables are 1..num_vars-1
    u32 num_atoms;        // atoms are 1..=num_atoms
    u32 l_cap_lits;
    u32 l_cap_ng;
    u32 n_rules;
    u32 heuristic;
    u32 fwd;
    u32 seed;
    u32 n_cyc;            // length of cyc_atoms
    u32 n_sup;            // supports
    u32 lb_cap;           // capacity of the short partition: binaries
    u32 lt_cap;           // and ternaries
};
static_assert(sizeof(Dev) == YS_DEV_BYTES, "struct Dev differs from Rust DevParams");

// ---- helpers ----

__device__ __forceinline__ i32 ld_a(const Dev& d, u32 v) {
    return *((volatile i32*)&d.A[v]);
}
__device__ __forceinline__ u32 level_of(i32 a) { return (u32)(a < 0 ? -a : a); }
// Literal l holds under assignment value a.
__device__ __forceinline__ bool holds(u32 l, i32 a) {
    return lit_is_t(l) ? a > 0 : a < 0;
}
// The assignment value that makes literal l true at level lvl.
__device__ __forceinline__ i32 value_for(u32 l, u32 lvl) {
    return lit_is_t(l) ? (i32)lvl : -(i32)lvl;
}

// Nogood `id` (input, long learned, or short learned: see YS_ID_LBIN) as a span.
__device__ __forceinline__ void ng_span(const Dev& d, u32 id, const u32** p, u32* n) {
    if (id >= YS_ID_LBIN) {
        u32 j = id & YS_ID_MASK;
        bool bin = id < YS_ID_LTER;
        *n = bin ? 2u : 3u;
        *p = bin ? d.lb_lits + 2 * j : d.lt_lits + 3 * j;
    } else if (id < d.n_input) {
        u32 b = d.ng_off[id];
        *p = d.ng_lits + b;
        *n = d.ng_off[id + 1] - b;
    } else {
        u32 j = id - d.n_input;
        u32 b = d.l_off[j];
        *p = d.l_lits + b;
        *n = d.l_off[j + 1] - b;
    }
}

__device__ __forceinline__ u32* frontier(const Dev& d, u32 parity) {
    return parity ? d.front1 : d.front0;
}

// Append literal l (now true) to the frontier of the next round.
__device__ __forceinline__ void push_next(const Dev& d, u32 next_parity, u32 l) {
    u32 pos = atomicAdd(&d.st[YS_ST_FRONT_LEN0 + next_parity], 1u);
    frontier(d, next_parity)[pos] = l;
}

// Record the decision bit of level lvl in deps[v] and publish it (fwd learning).
__device__ __forceinline__ void set_decision_deps(const Dev& d, u32 v, u32 lvl) {
    for (u32 w = 0; w < YS_DEPS_WORDS; ++w) {
        u64 bits = 0;
        if (lvl < YS_DEPS_LEVELS && lvl / 64 == w) bits = 1ull << (lvl % 64);
        d.deps[(u64)v * YS_DEPS_WORDS + w] = bits;
    }
    // Publish deps before `ready`: a reader that sees ready = 1 must see these words.
    __threadfence();
    atomicExch(&d.ready[v], 1u);
}

// Make literal p true as the decision of level lvl (one thread; the caller has set CDL = lvl).
// Used by the decision (decide.cu) and by complete-assignment (complete.cu).
__device__ u32 decide_lit(const Dev& d, u32 p, u32 lvl) {
    u32 v = lit_var(p);
    d.A[v] = value_for(p, lvl);
    d.reason[v] = YS_NONE;
    d.stamp[v] = atomicAdd(&d.st[YS_ST_EPOCH], 1u);
    d.dec_lit[lvl] = p;
    set_decision_deps(d, v, lvl);
    push_next(d, d.st[YS_ST_PARITY], p);
    atomicAdd(&d.ctr[YS_CTR_DECISIONS], 1ull);
    return lvl;
}

// Wait until deps[v] of the current assignment of v is published, then OR it into acc.
// The writer of deps[v] won the CAS on A[v] before we could see v assigned, and it only waits
// on variables assigned before v, so this wait ends (the causal order is acyclic).
__device__ __forceinline__ void or_deps(const Dev& d, u32 v, u64* acc) {
    while (atomicAdd(&d.ready[v], 0u) == 0u) {
    }
    __threadfence();
    for (u32 w = 0; w < YS_DEPS_WORDS; ++w) {
        acc[w] |= *((volatile u64*)&d.deps[(u64)v * YS_DEPS_WORDS + w]);
    }
}

// Block-wide max of a u64 (blockDim.x a multiple of 32, at most 1024). All threads return it.
__device__ __forceinline__ u64 block_max_u64(u64 x, u64* sh /* [32] */) {
    for (int o = 16; o > 0; o >>= 1) {
        u64 y = __shfl_down_sync(0xffffffffu, x, o);
        x = y > x ? y : x;
    }
    u32 lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) sh[wid] = x;
    __syncthreads();
    x = (threadIdx.x < (blockDim.x >> 5)) ? sh[lane] : 0ull;
    if (wid == 0) {
        for (int o = 16; o > 0; o >>= 1) {
            u64 y = __shfl_down_sync(0xffffffffu, x, o);
            x = y > x ? y : x;
        }
        if (lane == 0) sh[0] = x;
    }
    __syncthreads();
    x = sh[0];
    __syncthreads();
    return x;
}

// Last-block pattern: true in every thread of the block that finished last (block-uniform);
// all writes of every block are visible to it.
__device__ __forceinline__ bool is_last_block(u32* counter) {
    __shared__ bool is_last;
    __syncthreads();
    if (threadIdx.x == 0) {
        // Make this block's writes visible device-wide before it is counted as done.
        __threadfence();
        u32 t = atomicAdd(counter, 1u);
        is_last = (t == gridDim.x - 1);
        if (is_last) {
            *counter = 0;
            __threadfence();
        }
    }
    __syncthreads();
    return is_last;
}

// As is_last_block, but true only in thread 0 of that block.
__device__ __forceinline__ bool last_block_done(u32* counter) {
    return is_last_block(counter) && threadIdx.x == 0;
}

// Grid-wide barrier for step_k, which is launched cooperatively (every block co-resident, so
// spinning cannot starve a block that has not arrived). Thread 0 of each block reads the
// generation before arriving; the last block to arrive resets the count, runs `last` (its
// thread 0 only, with every block's writes before the barrier visible to it) and then bumps
// the generation, which releases the others. The fences make every write before the barrier,
// and `last`'s, visible to every read after it.
template <typename Last>
__device__ __forceinline__ void grid_barrier_then(u32* st, Last last) {
    __syncthreads();
    if (threadIdx.x == 0) {
        volatile u32* gen = &st[YS_ST_BAR_GEN];
        u32 g = *gen;
        __threadfence();
        if (atomicAdd(&st[YS_ST_BAR_COUNT], 1u) == gridDim.x - 1) {
            st[YS_ST_BAR_COUNT] = 0;
            __threadfence();
            last();
            atomicAdd(&st[YS_ST_BAR_GEN], 1u);
        } else {
            while (*gen == g) {
            }
        }
        __threadfence();
    }
    __syncthreads();
}

__device__ __forceinline__ void grid_barrier(u32* st) {
    grid_barrier_then(st, [] {});
}
