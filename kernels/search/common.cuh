// common.cuh — the many-searches engine's shared definitions, over the portability layer
// (lanes.cuh): the layout of the per-search header and counters, and the read-only program
// (`Prog`) and per-search arrays (`Srch`) every stage takes.
//
// Invariant: every YSM_* number here equals the Rust constant of the same name in
// src/engine/gpu/layout.rs (a test parses this file), and `struct Prog` / `struct Geo` have
// the layout of the Rust `ProgParams` / `GeoParams` (#[repr(C)], checked by size).
//
// Warp discipline (CUDA): control flow is lane-uniform except inside `if (lane == 0)` blocks and
// per-lane loop bodies (`for (k = lane; k < n; k += YS_WARP)`); every per-search scalar lives in
// the header `H` (shared memory while the kernel runs) and is written by lane 0 or by atomics,
// then read by all lanes after `ys_sync()`.
#pragma once

#include "lanes.cuh"

// ---- literals (src/lit.rs): T v = 2v, F v = 2v + 1 ----
YS_D u32 lvar(u32 l) { return l >> 1; }
YS_D bool lpos(u32 l) { return (l & 1u) == 0; }
YS_D u32 lneg(u32 l) { return l ^ 1u; }
YS_D u32 ltrue(u32 v) { return v << 1; }
YS_D u32 lfalse(u32 v) { return (v << 1) | 1u; }

#define YSM_NONE 4294967295u
// Nogood references: input nogoods by id (< YSM_LEARNED), learned ones by their arena offset
// tagged with YSM_LEARNED; YSM_INJECT names the per-search scratch nogood (loop nogoods and
// blocking nogoods), which is never a reason.
#define YSM_LEARNED 2147483648u
#define YSM_INJECT 4294967294u
// Native sums (sums.cuh): the reason of a variable v a sum implied is YSM_SUMREF + v, built
// from the sum when analysis asks; YSM_SUMCONF (variable 0 is never assigned) names the sum
// conflict written out in `sconf`. Input nogood ids stay below YSM_SUMREF.
#define YSM_SUMREF 1879048192u
#define YSM_SUMCONF YSM_SUMREF
#define YSM_SCNT 6         // i64 words per native sum and search
// Enumeration by backtracking (enumerate.cuh): the reason of a flipped decision, the complement
// of a decision whose subtree is exhausted; never a nogood. Input nogood ids are below their
// count, which is below YSM_SUMREF (layout.rs), so they stay below this one.
#define YSM_FLIPPED 1879048191u

// ---- per-search status (header word H_STATUS, mirrored in the status array) ----
#define YSM_ST_INIT 0      // not started: the first slice initialises it
#define YSM_ST_RUN 1
#define YSM_ST_MODEL 2     // a total assignment that is an answer set: waiting for the host
#define YSM_ST_BLOCK 3     // the host took the model: block it, then run on
#define YSM_ST_UNSAT 4     // no (further) model: the whole program is exhausted
#define YSM_ST_ERROR 5     // an internal check failed (H_ERR says which)
#define YSM_ST_CORE 6      // an assumption is false: the core in scratch (assume.cuh), waiting

#define YSM_ERR_POOL 1     // the watch pool ran out
#define YSM_ERR_LEARNED 2  // the learned store is full of nogoods it may not delete
#define YSM_ERR_ANALYSE 3  // conflict analysis met an inconsistent state
#define YSM_ERR_UFS 4      // a true external body of an unfounded set

// ---- header words (per search; in shared memory while the kernel runs) ----
#define YSM_H_STATUS 0
#define YSM_H_LEVEL 1      // current decision level (1 = top)
#define YSM_H_TRAIL 2      // trail length
#define YSM_H_QHEAD 3      // trail[0..QHEAD] are propagated
#define YSM_H_CONFL 4      // violated nogood found by propagation, or YSM_NONE
#define YSM_H_EPOCH 5      // marks of analysis (mark[v] == EPOCH: seen)
#define YSM_H_LTOP 6       // learned arena: words used
#define YSM_H_LCOUNT 7     // learned nogoods stored (live, including permanent ones)
#define YSM_H_POOL_BUMP 8  // watch pool: first never-used block
#define YSM_H_POOL_FREE 9  // watch pool: free list head
#define YSM_H_VQ_FIRST 10  // VMTF queue: least recently bumped
#define YSM_H_VQ_LAST 11   // most recently bumped
#define YSM_H_VQ_SEARCH 12 // the next decision is searched from here towards FIRST
#define YSM_H_VQ_STAMP 13  // last enqueue stamp
#define YSM_H_LUBY 14      // index into the Luby sequence
#define YSM_H_RESTART_LEFT 15  // conflicts until the next restart
#define YSM_H_REDUCE_AT 16 // learned count at which the next reduction runs
#define YSM_H_REDUCE_INC 17
#define YSM_H_RNG 18
#define YSM_H_ERR 19
#define YSM_H_LEN 20       // length of the nogood under construction (analysis, loops)
#define YSM_H_PATH 21      // analysis: literals of the conflict level still to resolve
#define YSM_H_BT 22        // analysis: backjump level
#define YSM_H_INJ_LEN 23   // length of the nogood in `inject`
#define YSM_H_FORCE 24     // 1: restart and reduce before the next decision
#define YSM_H_TICK 25      // loop iterations (time checks)
#define YSM_H_UFS_Q 26     // unfounded check: queue length
#define YSM_H_TMP 27       // scratch word for lane-0 results
#define YSM_H_TMP2 28
#define YSM_H_UFS_NEXT 29  // decisions until the next unfounded-set check at a partial assignment
#define YSM_H_UFS_GAP 30   // the gap after it (doubles while checks find nothing)
#define YSM_H_SHARE_CUR 31 // the next slot of the sharing ring to import
#define YSM_H_CUBE 32      // the cube this search works on (cube.cuh), or YSM_NONE
#define YSM_H_SCONF_LEN 33 // length of the native sums' conflict nogood in `sconf` (sums.cuh)
#define YSM_H_SBUF_LEN 34  // length of the sum reason last built in `sbuf`
#define YSM_H_BJ_EPOCH 35  // backjumps so far (sums.cuh: scans before the last one are stale)
#define YSM_H_BT_LEVEL 37  // enumeration: the highest level with a flipped decision (1: none);
                           // no backjump goes below it (enumerate.cuh)
#define YSM_H_CUBE_OUT 38  // 1: every model of the search's cube was taken (enumerate.cuh)
#define YSM_H_OBJ_SEEN 36  // the objective bound's epoch this search has read (objective.cuh)
#define YSM_H_CSLOT 39     // the pool slot with the cube's extension, or YSM_NONE (cube_pool.cuh)
#define YSM_H_SPLIT_AT 40  // the conflict count (mod 2^32) when the cube was taken or last split
                           // (it splits YSM_G_CUBE_SPLIT conflicts later; cube.cuh)
#define YSM_H_ASM_EPOCH 41 // the assumptions' epoch this search has read (assume.cuh)
#define YSM_H_WORDS 44

// ---- per-search 64-bit counters ----
#define YSM_C_DECISIONS 0
#define YSM_C_CONFLICTS 1
#define YSM_C_PROPS 2
#define YSM_C_LEARNED 3
#define YSM_C_LEARNED_LITS 4
#define YSM_C_RESTARTS 5
#define YSM_C_DELETED 6
#define YSM_C_LOOPS 7
#define YSM_C_FWD_FALLBACK 8
#define YSM_C_MODELS 9
#define YSM_C_EXPORTED 10  // learned nogoods written to the sharing ring
#define YSM_C_IMPORTED 11  // nogoods of other searches taken from it
#define YSM_C_CUBES 12     // cubes this search refuted
#define YSM_C_SPLITS 13    // cubes this search split off to the pool
// Where a search's time goes, in ys_clock() ticks (SM cycles; nanoseconds under the emulation):
#define YSM_C_CY_RUN 14      // all of search_run
#define YSM_C_CY_PROP 15     // propagate
#define YSM_C_CY_SHORT 16    // of which the nogoods of length 2 and 3 (prop_short)
#define YSM_C_CY_RESOLVE 17  // conflict analysis, learning and backjump (resolve)
#define YSM_C_CY_UFS 18      // unfounded-set checks
#define YSM_C_CY_RESTART 19  // restarts with their imports and deletions
#define YSM_C_STEPS 20       // propagation steps (a step takes up to YS_WARP queued literals)
#define YSM_C_WORDS 21

// ---- the sharing ring (global): slots of YSM_SHARE_WORDS words, [len | sid << 8, seq, lits] ----
#define YSM_SHARE_WORDS 8
#define YSM_SHARE_MAX 6    // learned nogoods of at most this many literals are shared
#define YSM_SHARE_TAKE 1024  // nogoods a search imports at one restart at most

// ---- per-search configuration (a row of the portfolio, src/engine/gpu/search_rows.rs) ----
#define YSM_CFG_LEARNING 0   // 0 res, 1 fwd (the paper's decision nogoods)
#define YSM_CFG_RESTART 1    // Luby unit in conflicts (0: no restarts)
#define YSM_CFG_SIGN 2       // YSM_SIGN_*
#define YSM_CFG_ORDER 3      // YSM_ORDER_*
#define YSM_CFG_SEED 4
#define YSM_CFG_SAVE 5       // 1: phase saving
#define YSM_CFG_CUBE 6       // 1: the search works on cubes (cube.cuh) while any are left
#define YSM_CFG_DECIDE 7     // YSM_DECIDE_*: how the next decision variable is chosen (decide.cuh)
#define YSM_CFG_WORDS 8

#define YSM_SIGN_ASP 0     // atoms false, bodies and auxiliaries true (clasp's sign heuristic)
#define YSM_SIGN_FALSE 1
#define YSM_SIGN_TRUE 2
#define YSM_SIGN_RANDOM 3
#define YSM_ORDER_INDEX 0  // initial queue: variables by index (the last decided first)
#define YSM_ORDER_STATIC 1 // the static order: by occurrences or Jeroslow-Wang (best first)
#define YSM_ORDER_RANDOM 2 // a random permutation from the seed
#define YSM_DECIDE_VMTF 0  // the most recently bumped unassigned variable (a queue)
#define YSM_DECIDE_VSIDS 1 // the unassigned variable of highest activity (a heap)

// ---- the global words (one array for all searches) ----
#define YSM_G_MODELS 0     // searches that found a model during the slice
#define YSM_G_ENDED 1      // searches that ended (unsat or error) during the slice
#define YSM_G_STOP 2       // 1: every search ends its slice
#define YSM_G_SHARE_HEAD 3 // nogoods written to the sharing ring (its next slot)
#define YSM_G_CUBE_NEXT 4  // the next base cube to hand out
#define YSM_G_CUBE_OPEN 5  // cubes not refuted (cube.cuh); 0 with cubes: no (further) model
#define YSM_G_CUBE_BITS 6  // k: the base cubes are the 2^k sign patterns of k variables (0: none)
#define YSM_G_DECIDED 7    // decisions of every search so far, mod 2^32 (added at slice ends)
#define YSM_G_CUBE_VAR 8   // the k variables (cube c makes variable j true iff bit j of c)
#define YSM_CUBE_MAX_BITS 16
#define YSM_G_CUBE_SPLIT 24  // conflicts a search spends on a cube before splitting it (0: never)
#define YSM_POOL_SLOTS 4096  // the pool of split cubes (cube_pool.cuh)
#define YSM_SLOT_WORDS 24
#define YSM_G_POOL_USED 32   // YSM_POOL_SLOTS bits: slot in use
#define YSM_G_POOL_OPEN 160  // YSM_POOL_SLOTS bits: slot published, to be taken
#define YSM_G_POOL 288       // the slots, YSM_SLOT_WORDS words each
#define YSM_G_OBJ_K 98592  // YSM_G_POOL + YSM_POOL_SLOTS * YSM_SLOT_WORDS: the objective's bound
                           // k (i64, low word first; objective.cuh), written by the host between
                           // slices
#define YSM_G_OBJ_EPOCH 98594  // incremented by the host with each new k
#define YSM_G_N_ASSUME 98596   // assumptions (assume.cuh): how many, from YSM_G_WORDS on
#define YSM_G_ASM_EPOCH 98597  // incremented by the host with each new list of assumptions
#define YSM_G_WORDS 98598     // the fixed words; the assumptions follow

#define YSM_DEPS_LEVELS 128  // fwd: levels tracked by the two-word bitmaps
#define YSM_BLOCK 16u        // watch entries per pool block
#define YSM_LHDR 3u          // learned nogood header words: len, lbd (0 = keep), forward ref

// Read-only program data, shared by every search (uploaded once).
struct Prog {
    const u32* ng_lits;    // input nogoods, CSR sorted by length (src/nogoods/db.rs)
    const u32* ng_off;
    const u32* socc_off;   // literal -> input nogoods of length 2 or 3
    const u32* socc;
    const u32* order_static;  // variables in the static order, best first (YSM_ORDER_STATIC)
    const u8* vkind;       // per variable: 0 atom, 1 body or auxiliary
    // Initial watch image (the first two literals of each long input nogood watched): per
    // literal `img_len`, and its entries in blocks img_head[l] .. + ceil(len / YSM_BLOCK),
    // consecutive in `img_pool` (YSM_BLOCK entries a block).
    const u32* img_len;
    const u32* img_head;
    const u64* img_pool;
    // Unfounded-set check (non-tight programs; empty otherwise).
    const u32* scc;        // per atom
    const u32* cyc_atoms;
    const u32* sup_head;   // support s = (head atom, rule)
    const u32* sup_rule;
    const u32* hsup_off;   // atom -> its supports (CSR over atoms 0..=num_atoms)
    const u32* hsup;
    const u32* dep_off;    // atom -> (support, weight) where it is a positive body item of the
    const u32* dep_sup;    //   support's rule, in the head's component
    const i64* dep_w;
    const u32* rule_body;
    const u32* rule_body_var;
    const u32* body_off;   // conjunctive bodies: items T p / F q
    const u32* body_items;
    const u32* body_kind;  // 0 conjunction, 1 sum
    const u32* sum_off;    // sum bodies: literals, weights, bound
    const u32* sum_lits;
    const i64* sum_w;
    const i64* sum_lower;
    // Native sums (sums.cuh; none when every sum is translated): per sum its literals by
    // decreasing weight (`nsum_off` CSR), their weights and total; its bounds ascending
    // (`nsum_boff` CSR) with their body variables; per literal code the (sum, role | index)
    // entries it triggers, grouped by sum (`nocc_off` CSR over 2 * num_vars + 1 codes).
    const u32* nsum_off;
    const u32* nsum_lits;
    const i64* nsum_w;
    const i64* nsum_total;
    const u32* nsum_boff;
    const i64* nsum_k;
    const u32* nsum_b;
    const u32* nocc_off;
    const u32* nocc_sum;
    const u32* nocc_role;
    u32 num_vars;          // variables 1..num_vars-1
    u32 num_atoms;
    u32 n_input;
    u32 n_units;           // nogoods 0..n_units have length 1
    u32 first_long;        // nogoods first_long..n_input have length > 3
    u32 img_blocks;        // blocks of the initial watch image
    u32 n_cyc;
    u32 n_sup;
    u32 ufs;               // 1: the program is not tight
    u32 n_nsum;            // native sums
    u32 nsum_max;          // literals of the longest native sum
    u32 obj_sum;           // the objective's index among the native sums, or YSM_NONE
};

// Where each per-search array starts: offsets in 32-bit words from the search's base, and the
// words between two searches. Sizes follow from the program (layout.rs::Geometry).
struct Geo {
    u32* base;             // n_searches * stride words
    u32* hdr;              // n_searches * YSM_H_WORDS
    u64* ctr;              // n_searches * YSM_C_WORDS
    const u32* cfg;        // n_searches * YSM_CFG_WORDS
    u32* status;           // n_searches: H_STATUS as of the end of the last slice
    u32* global;           // YSM_G_WORDS words, YSM_G_*
    u32* share;            // the sharing ring: share_slots * YSM_SHARE_WORDS words
    u64 stride;
    u32 o_asg, o_reason, o_trail, o_lim, o_deps, o_mark, o_lmark, o_prev, o_next, o_stamp;
    u32 o_phase, o_scratch, o_inject, o_wpair, o_whead, o_wtail, o_wlen, o_bnext, o_pool;
    u32 o_arena, o_founded, o_ufsq, o_ufsacc;
    u32 o_scnt, o_tpos, o_srec, o_sconf, o_sbuf;
    u32 pool_blocks;       // blocks in the watch pool
    u32 arena_words;       // learned arena
    u32 lcap;              // learned nogoods at most
    u32 n_searches;
    u32 stop_on_model;     // 1: a model ends the slice of every search
    u32 share_slots;       // 0: no sharing
    u32 pad, pad2;
};

// One search's arrays.
struct Srch {
    i32* asg;       // 0 unassigned, +l true at level l, -l false at level l
    u32* reason;    // nogood ref that implied the variable; YSM_NONE for decisions and level 1
    u32* trail;     // literals in the order they became true
    u32* lim;       // lim[l] = trail length when level l began (lim[1] = 0)
    u64* deps;      // fwd: 2 words per variable, bit l = depends on the decision of level l
    u32* mark;      // analysis: == H_EPOCH when seen
    u32* lmark;     // per level: == H_EPOCH when counted (LBD)
    u32* prev;      // VMTF queue links and enqueue stamps
    u32* next;
    u32* stamp;
    u32* phase;     // saved sign: 0 none, 1 true, 2 false
    u32* scratch;   // the nogood under construction
    u32* inject;    // loop and blocking nogoods (YSM_INJECT)
    u64* wpair;     // per long input nogood: its two watched literals (low word: slot 0)
    u32* whead;     // per literal: first block of its watch list (YSM_NONE if empty)
    u32* wtail;     // per literal: last block
    u32* wlen;      // per literal: entries
    u32* bnext;     // per pool block: next block of its list / of the free list
    u64* pool;      // YSM_BLOCK entries per block: (ref << 32) | blocker literal
    u32* arena;     // learned nogoods: [len, lbd, fwd] then the literals (0, 1 watched)
    u32* founded;   // ufs: per atom 0/1; also "in the part"  (bit 1)
    u32* ufsq;      // ufs: queue of atoms
    i64* ufsacc;    // ufs: per support, unfounded items left (conj) or weight still missing
    i64* scnt;      // native sums: YSM_SCNT per sum: true weight, possible weight, slacks of the
                    // last scans up and down, and the backjump epoch of those (sums.cuh)
    u32* tpos;      // per variable: its trail position while assigned
    u32* srec;      // per variable a sum implied: sum, bound | YSM_SREC_UP, input index
    u32* sconf;     // the native sums' conflict nogood (YSM_SUMCONF)
    u32* sbuf;      // a sum reason built for analysis
    u32* H;         // header (shared memory in the kernel)
    u64* C;         // counters
    u32 cfg[YSM_CFG_WORDS];
    u32 sid;
};

YS_D Srch srch_of(const Geo& g, u32 sid, u32* H) {
    Srch s;
    u32* b = g.base + (u64)sid * g.stride;
    s.asg = (i32*)(b + g.o_asg);
    s.reason = b + g.o_reason;
    s.trail = b + g.o_trail;
    s.lim = b + g.o_lim;
    s.deps = (u64*)(b + g.o_deps);
    s.mark = b + g.o_mark;
    s.lmark = b + g.o_lmark;
    s.prev = b + g.o_prev;
    s.next = b + g.o_next;
    s.stamp = b + g.o_stamp;
    s.phase = b + g.o_phase;
    s.scratch = b + g.o_scratch;
    s.inject = b + g.o_inject;
    s.wpair = (u64*)(b + g.o_wpair);
    s.whead = b + g.o_whead;
    s.wtail = b + g.o_wtail;
    s.wlen = b + g.o_wlen;
    s.bnext = b + g.o_bnext;
    s.pool = (u64*)(b + g.o_pool);
    s.arena = b + g.o_arena;
    s.founded = b + g.o_founded;
    s.ufsq = b + g.o_ufsq;
    s.ufsacc = (i64*)(b + g.o_ufsacc);
    s.scnt = (i64*)(b + g.o_scnt);
    s.tpos = b + g.o_tpos;
    s.srec = b + g.o_srec;
    s.sconf = b + g.o_sconf;
    s.sbuf = b + g.o_sbuf;
    s.H = H;
    s.C = g.ctr + (u64)sid * YSM_C_WORDS;
    for (u32 k = 0; k < YSM_CFG_WORDS; ++k) s.cfg[k] = g.cfg[(u64)sid * YSM_CFG_WORDS + k];
    s.sid = sid;
    return s;
}

// Add the clock ticks since c0 to counter k (YSM_C_CY_*; lane 0 writes).
YS_D void count_ticks(const Srch& s, u32 k, u64 c0) {
    if (YS_LANE == 0) s.C[k] += ys_clock() - c0;
}

YS_D u32 lvl_of(i32 a) { return (u32)(a < 0 ? -a : a); }
// Literal l holds under assignment value a.
YS_D bool holds(u32 l, i32 a) { return lpos(l) ? a > 0 : a < 0; }
// l is assigned and does not hold.
YS_D bool fails(u32 l, i32 a) { return lpos(l) ? a < 0 : a > 0; }
YS_D i32 val_for(u32 l, u32 lvl) { return lpos(l) ? (i32)lvl : -(i32)lvl; }
// A plain load (cached in L1): a lane reads a value another lane of the warp wrote (a CAS)
// only after a ys_sync() that separates them, which orders the two (CUDA memory model).
YS_D i32 ld_asg(const Srch& s, u32 v) { return s.asg[v]; }

// The literals of nogood `ref` (input, learned, YSM_INJECT or YSM_SUMCONF; not the lazy reason
// of a sum-implied variable: see sum_reason_lits in sums.cuh).
YS_D const u32* ng_lits(const Prog& p, const Srch& s, u32 ref, u32* n) {
    if (ref == YSM_INJECT) {
        *n = s.H[YSM_H_INJ_LEN];
        return s.inject;
    }
    if (ref == YSM_SUMCONF) {
        *n = s.H[YSM_H_SCONF_LEN];
        return s.sconf;
    }
    if (ref >= YSM_LEARNED) {
        u32* h = s.arena + (ref - YSM_LEARNED);
        *n = h[0];
        return h + YSM_LHDR;
    }
    u32 b = p.ng_off[ref];
    *n = p.ng_off[ref + 1] - b;
    return p.ng_lits + b;
}

// A xorshift step of the search's generator (lane 0 only).
YS_D u32 rng_next(const Srch& s) {
    u32 x = s.H[YSM_H_RNG];
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    s.H[YSM_H_RNG] = x ? x : 0x9e3779b9u;
    return x;
}

YS_D u32 hash32(u32 x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

// The Luby sequence 1 1 2 1 1 2 4 ... (x >= 0; MiniSat's formula).
YS_D u32 luby(u32 x) {
    u32 size = 1, seq = 0;
    while (size < x + 1) {
        ++seq;
        size = 2 * size + 1;
    }
    while (size - 1 != x) {
        size = (size - 1) >> 1;
        --seq;
        x = x % size;
    }
    return 1u << seq;
}
