// decide.cuh — decisions of one search in O(1) amortised: a VMTF queue (CaDiCaL's variable
// move-to-front) over all variables, with the sign from the saved phase or the search's sign
// policy; and the backjump that undoes levels.
//
// Invariant: the queue is a doubly linked list (prev/next, H_VQ_FIRST .. H_VQ_LAST) with enqueue
// stamps increasing towards LAST; every variable more recently enqueued than H_VQ_SEARCH is
// assigned (H_VQ_SEARCH = YSM_NONE: every variable is assigned).

#include "propagate.cuh"

// Move v to the end of the queue (lane 0 only).
YS_D void vmtf_bump(const Srch& s, u32 v) {
    u32* H = s.H;
    if (H[YSM_H_VQ_LAST] != v) {
        u32 pv = s.prev[v], nx = s.next[v];
        if (pv != YSM_NONE) s.next[pv] = nx; else H[YSM_H_VQ_FIRST] = nx;
        if (nx != YSM_NONE) s.prev[nx] = pv; else H[YSM_H_VQ_LAST] = pv;
        u32 last = H[YSM_H_VQ_LAST];
        s.prev[v] = last;
        s.next[v] = YSM_NONE;
        if (last != YSM_NONE) s.next[last] = v; else H[YSM_H_VQ_FIRST] = v;
        H[YSM_H_VQ_LAST] = v;
    }
    s.stamp[v] = ++H[YSM_H_VQ_STAMP];
    if (s.asg[v] == 0) H[YSM_H_VQ_SEARCH] = v;
}

// Queue entries pick_var passes over before it lets the search look at the clock: the walk
// is one lane's chain of dependent reads, and over the million assigned variables of a large
// program it took 0.4 s on an H200, past a slice's end and the time limit.
#define YSM_PICK_STEPS 4096u
// pick_var's answer when its walk has not reached an unassigned variable yet (the next call
// goes on from there).
#define YSM_PICK_LATER 4294967292u

// The next decision variable, YSM_NONE when every variable is assigned, or YSM_PICK_LATER after
// YSM_PICK_STEPS assigned ones (all lanes).
YS_D u32 pick_var(const Srch& s) {
    u32 v = YSM_NONE;
    if (YS_LANE == 0) {
        v = s.H[YSM_H_VQ_SEARCH];
        u32 steps = 0;
        while (v != YSM_NONE && s.asg[v] != 0 && steps < YSM_PICK_STEPS) {
            v = s.prev[v];
            ++steps;
        }
        s.H[YSM_H_VQ_SEARCH] = v;
        if (v != YSM_NONE && s.asg[v] != 0) v = YSM_PICK_LATER;
    }
    ys_sync();
    return ys_bcast(v);
}

// The sign to decide v with.
YS_D u32 pick_lit(const Prog& P, const Srch& s, u32 v) {
    u32 ph = s.cfg[YSM_CFG_SAVE] ? s.phase[v] : 0;
    if (ph == 1) return ltrue(v);
    if (ph == 2) return lfalse(v);
    switch (s.cfg[YSM_CFG_SIGN]) {
        case YSM_SIGN_FALSE: return lfalse(v);
        case YSM_SIGN_TRUE: return ltrue(v);
        case YSM_SIGN_RANDOM: return (hash32(v ^ (s.cfg[YSM_CFG_SEED] * 0x9e3779b9u)) & 1u) ? ltrue(v) : lfalse(v);
        default: return P.vkind[v] ? ltrue(v) : lfalse(v);
    }
}

// Open a new level with root literal q: a decision (`why` = YSM_NONE) or a flipped decision
// (YSM_FLIPPED, enumerate.cuh). All lanes call; lane 0 writes.
YS_D void decide_root(const Srch& s, u32 q, u32 why) {
    if (YS_LANE == 0) {
        u32* H = s.H;
        u32 level = ++H[YSM_H_LEVEL];
        u32 t = H[YSM_H_TRAIL];
        s.lim[level] = t;
        u32 v = lvar(q);
        s.asg[v] = val_for(q, level);
        s.reason[v] = why;
        if (s.cfg[YSM_CFG_LEARNING] == 1) {
            s.deps[2 * (u64)v] = level < 64 ? (1ull << level) : 0ull;
            s.deps[2 * (u64)v + 1] = (level >= 64 && level < YSM_DEPS_LEVELS) ? (1ull << (level - 64)) : 0ull;
        }
        s.tpos[v] = t;
        s.trail[t] = q;
        H[YSM_H_TRAIL] = t + 1;
        s.C[YSM_C_DECISIONS] += 1;
    }
    ys_sync();
}

YS_D void decide(const Srch& s, u32 q) { decide_root(s, q, YSM_NONE); }

// Undo every level above `target` (all lanes). Saves phases, re-points the VMTF search.
YS_D void backjump(const Prog& P, const Srch& s, u32 target) {
    const u32 lane = YS_LANE;
    ys_sync();
    u32 level = s.H[YSM_H_LEVEL];
    if (target < level) {
        u32 from = s.lim[target + 1], to = s.H[YSM_H_TRAIL], qh = s.H[YSM_H_QHEAD];
        // The native sums give back what they counted of the processed entries.
        sums_undo(P, s, from, qh < to ? qh : to);
        u32 best = 0, bestv = YSM_NONE;
        bool save = s.cfg[YSM_CFG_SAVE] != 0;
        for (u32 k = from + lane; k < to; k += YS_WARP) {
            u32 v = lvar(s.trail[k]);
            if (save) s.phase[v] = s.asg[v] > 0 ? 1u : 2u;
            s.asg[v] = 0;
            u32 st = s.stamp[v];
            if (st > best) {
                best = st;
                bestv = v;
            }
        }
        u32 m = ys_max(best);
        u32 who = ys_ballot(best == m && bestv != YSM_NONE);
        u32 v = who ? ys_shfl(bestv, ys_ffs(who) - 1) : YSM_NONE;
        ys_sync();  // every lane has read LEVEL and TRAIL before lane 0 writes them
        if (lane == 0) {
            u32* H = s.H;
            u32 cur = H[YSM_H_VQ_SEARCH];
            if (v != YSM_NONE && (cur == YSM_NONE || s.stamp[v] > s.stamp[cur])) H[YSM_H_VQ_SEARCH] = v;
            H[YSM_H_TRAIL] = from;
            if (H[YSM_H_QHEAD] > from) H[YSM_H_QHEAD] = from;
            H[YSM_H_LEVEL] = target;
            H[YSM_H_BJ_EPOCH] += 1;
        }
    }
    if (lane == 0) s.H[YSM_H_CONFL] = YSM_NONE;
    ys_sync();
}
