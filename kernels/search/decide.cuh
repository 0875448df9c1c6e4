// decide.cuh — decisions of one search: the next variable from a VMTF queue (CaDiCaL's variable
// move-to-front, O(1) amortised) or from a VSIDS heap (MiniSat's activity, as the host engine
// decides), by the search's YSM_CFG_DECIDE; the sign from the saved phase or the search's sign
// policy; and the backjump that undoes levels.
//
// Invariant (VMTF): the queue is a doubly linked list (prev/next, H_VQ_FIRST .. H_VQ_LAST) with
// enqueue stamps increasing towards LAST; every variable more recently enqueued than
// H_VQ_SEARCH is assigned (H_VQ_SEARCH = YSM_NONE: every variable is assigned).
// Invariant (VSIDS): the same three arrays hold a binary max-heap on activity — next, read as
// 64-bit words, slot i's entry (its variable's activity bits << 32 | the variable), prev[v] the
// slot of v (YSM_NONE: not in the heap), stamp[v] v's activity (a float's bits; an entry holds
// a copy) — with H_HEAP_N slots; H_ACT_INC the bump increment (a float's bits). Activities are
// never negative, so their bits order as the floats do. Every unassigned variable is in the
// heap (assigned ones may be too: they leave it when they reach the top), so an empty heap
// means every variable is assigned.

#include "propagate.cuh"

// The queue's header words, read as the heap's (a search uses one of the two).
#define YSM_H_HEAP_N YSM_H_VQ_FIRST
#define YSM_H_ACT_INC YSM_H_VQ_STAMP

// Activity keeps this fraction per conflict (the host engine's DECAY, clasp's Vsids,92).
#define YSM_VSIDS_DECAY 0.92f
// Past this increment every activity and the increment are scaled down by YSM_VSIDS_SCALE:
// an activity is at most about inc / (1 - decay) + a prior, far below a float's 3.4e38.
#define YSM_VSIDS_LIMIT 1e30f
#define YSM_VSIDS_SCALE 1e-30f

YS_D bool vsids(const Srch& s) { return s.cfg[YSM_CFG_DECIDE] == YSM_DECIDE_VSIDS; }
YS_D float activity(const Srch& s, u32 v) { return ys_u2f(s.stamp[v]); }

// The heap's arrays. A step of a sift reads one entry (activity and variable together): the
// entries were variables whose activities were a second, dependent read, and the sifts of
// one lane took a quarter of the kernel's stalls on sokoban 0312 (ncu, H200). Its entry points
// (insert, pop, bump) are out of line: inlined where the search calls them (the backjumps,
// the bumps) they raised the kernel's registers from 130 to 146, a quarter fewer resident
// searches.
struct Heap {
    u64* e;     // next, as 64-bit words: slot i's entry
    u32* pos;   // prev: the slot of v, or YSM_NONE
    u32* act;   // stamp: v's activity (a float's bits)
    u32* H;
};
YS_D Heap heap_of(const Srch& s) { return Heap{(u64*)s.next, s.prev, s.stamp, s.H}; }
YS_D u64 heap_entry(u32 act, u32 v) { return ((u64)act << 32) | (u64)v; }
YS_D u32 entry_var(u64 x) { return (u32)x; }
YS_D u32 entry_act(u64 x) { return (u32)(x >> 32); }

// Children a slot has: slot i's are D i + 1 .. D i + D, read at once. Two: a 4-ary heap
// (half the chain of a sift, four children in 32 bytes) was 2 % faster still on the H200, but
// it orders variables of equal activity differently (knighttour 0117, found in 3.1 s with
// either binary heap, was not in 5 s); this one decides exactly as the heap of stamps did.
#define YSM_HEAP_D 2u

// Move the entry in slot i up to its place (lane 0).
YS_D void heap_up(Heap h, u32 i) {
    u64 x = h.e[i];
    while (i > 0) {
        u32 p = (i - 1) / YSM_HEAP_D;
        u64 y = h.e[p];
        if (!(entry_act(x) > entry_act(y))) break;
        h.e[i] = y;
        h.pos[entry_var(y)] = i;
        i = p;
    }
    h.e[i] = x;
    h.pos[entry_var(x)] = i;
}

// Move the entry in slot i down to its place (lane 0).
YS_D void heap_down(Heap h, u32 i) {
    u32 n = h.H[YSM_H_HEAP_N];
    u64 x = h.e[i];
    for (;;) {
        u32 c = YSM_HEAP_D * i + 1;
        if (c >= n) break;
        u64 k[YSM_HEAP_D];
        for (u32 j = 0; j < YSM_HEAP_D; ++j) k[j] = c + j < n ? h.e[c + j] : 0;
        u64 y = k[0];
        for (u32 j = 1; j < YSM_HEAP_D; ++j) {
            if (c + j < n && entry_act(k[j]) > entry_act(y)) {
                y = k[j];
                c = YSM_HEAP_D * i + 1 + j;
            }
        }
        if (!(entry_act(y) > entry_act(x))) break;
        h.e[i] = y;
        h.pos[entry_var(y)] = i;
        i = c;
    }
    h.e[i] = x;
    h.pos[entry_var(x)] = i;
}

// Put v back into the heap unless it is there (lane 0).
YS_D_OUT void heap_insert(const Srch& s, u32 v) {
    Heap h = heap_of(s);
    if (h.pos[v] != YSM_NONE) return;
    u32 n = h.H[YSM_H_HEAP_N]++;
    h.e[n] = heap_entry(h.act[v], v);
    h.pos[v] = n;
    heap_up(h, n);
}

// Take the top out of the heap (lane 0; the heap is not empty).
YS_D_OUT void heap_pop(const Srch& s) {
    Heap h = heap_of(s);
    u32 n = --h.H[YSM_H_HEAP_N];
    h.pos[entry_var(h.e[0])] = YSM_NONE;
    if (n > 0) {
        u64 last = h.e[n];
        h.e[0] = last;
        h.pos[entry_var(last)] = 0;
        heap_down(h, 0);
    }
}

// The variable at the heap's top (lane 0; the heap is not empty).
YS_D u32 heap_top(const Srch& s) { return entry_var(heap_of(s).e[0]); }

// VSIDS: v took part in a conflict (lane 0).
YS_D_OUT void vsids_bump(const Srch& s, u32 v) {
    Heap h = heap_of(s);
    u32 a = ys_f2u(ys_u2f(h.act[v]) + ys_u2f(h.H[YSM_H_ACT_INC]));
    h.act[v] = a;
    u32 p = h.pos[v];
    if (p != YSM_NONE) {
        h.e[p] = heap_entry(a, v);
        heap_up(h, p);
    }
}

// VSIDS: age every activity by growing the increment, once per conflict (all lanes). Scaling
// every activity by one factor keeps the heap's order (rounding is monotone).
YS_D void vsids_decay(const Prog& P, const Srch& s) {
    if (!vsids(s)) return;
    float inc = ys_u2f(s.H[YSM_H_ACT_INC]) * (1.0f / YSM_VSIDS_DECAY);
    ys_sync();  // every lane has read the increment
    if (inc > YSM_VSIDS_LIMIT) {
        for (u32 v = 1 + YS_LANE; v < P.num_vars; v += YS_WARP) {
            s.stamp[v] = ys_f2u(activity(s, v) * YSM_VSIDS_SCALE);
        }
        ys_sync();  // every activity is scaled before the entries copy them
        Heap h = heap_of(s);
        const u32 n = s.H[YSM_H_HEAP_N];
        for (u32 i = YS_LANE; i < n; i += YS_WARP) {
            u32 v = entry_var(h.e[i]);
            h.e[i] = heap_entry(h.act[v], v);
        }
        inc *= YSM_VSIDS_SCALE;
    }
    ys_sync();
    if (YS_LANE == 0) s.H[YSM_H_ACT_INC] = ys_f2u(inc);
    ys_sync();
}

// The first decisions' order (`order`: the variables 1..nv-1, the first decided last), as the
// VMTF queue or as the VSIDS heap with a prior activity below one bump that ranks them in that
// order (all lanes).
YS_D void decide_init(const Prog& P, const Srch& s, const u32* order) {
    const u32 nv = P.num_vars;
    if (vsids(s)) {
        Heap h = heap_of(s);
        for (u32 k = YS_LANE; k + 1 < nv; k += YS_WARP) {
            u32 i = nv - 2 - k, v = order[k];  // slot i: sorted, so a heap
            u32 a = ys_f2u(1e-3f * (float)(k + 1) / (float)nv);
            h.e[i] = heap_entry(a, v);
            h.pos[v] = i;
            h.act[v] = a;
        }
        ys_sync();
        if (YS_LANE == 0) {
            s.H[YSM_H_HEAP_N] = nv > 1 ? nv - 1 : 0;
            s.H[YSM_H_ACT_INC] = ys_f2u(1.0f);
        }
        ys_sync();
        return;
    }
    for (u32 k = YS_LANE; k + 1 < nv; k += YS_WARP) {
        u32 v = order[k];
        s.prev[v] = k > 0 ? order[k - 1] : YSM_NONE;
        s.next[v] = k + 2 < nv ? order[k + 1] : YSM_NONE;
        s.stamp[v] = k + 1;
    }
    ys_sync();
    if (YS_LANE == 0) {
        s.H[YSM_H_VQ_FIRST] = nv > 1 ? order[0] : YSM_NONE;
        s.H[YSM_H_VQ_LAST] = nv > 1 ? order[nv - 2] : YSM_NONE;
        s.H[YSM_H_VQ_SEARCH] = s.H[YSM_H_VQ_LAST];
        s.H[YSM_H_VQ_STAMP] = nv;
    }
    ys_sync();
}

// v took part in a conflict: to the end of the queue, or its activity bumped (lane 0 only).
YS_D void bump_var(const Srch& s, u32 v) {
    if (vsids(s)) {
        vsids_bump(s, v);
        return;
    }
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
    if (YS_LANE == 0 && vsids(s)) {
        // Assigned variables leave the heap when they reach its top.
        u32 steps = 0;
        while (s.H[YSM_H_HEAP_N] > 0 && s.asg[heap_top(s)] != 0 && steps < YSM_PICK_STEPS) {
            heap_pop(s);
            ++steps;
        }
        v = s.H[YSM_H_HEAP_N] == 0 ? YSM_NONE : heap_top(s);
        if (v != YSM_NONE && s.asg[v] != 0) v = YSM_PICK_LATER;
    } else if (YS_LANE == 0) {
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
        bool save = s.cfg[YSM_CFG_SAVE] != 0, heap = vsids(s);
        for (u32 k0 = from; k0 < to; k0 += YS_WARP) {
            u32 k = k0 + lane;
            u32 v = k < to ? lvar(s.trail[k]) : YSM_NONE;
            bool out = false;
            if (v != YSM_NONE) {
                if (save) s.phase[v] = s.asg[v] > 0 ? 1u : 2u;
                s.asg[v] = 0;
                if (heap) {
                    out = s.prev[v] == YSM_NONE;
                } else {
                    u32 st = s.stamp[v];
                    if (st > best) {
                        best = st;
                        bestv = v;
                    }
                }
            }
            if (heap) {
                // The unassigned variables that left the heap go back in (lane 0, in turn).
                u32 outs = ys_ballot(out);
                while (outs) {
                    u32 j = ys_ffs(outs) - 1;
                    outs &= outs - 1;
                    u32 w = ys_shfl(v, j);
                    if (lane == 0) heap_insert(s, w);
                }
                ys_sync();
            }
        }
        u32 m = ys_max(best);
        u32 who = ys_ballot(best == m && bestv != YSM_NONE);
        u32 v = who ? ys_shfl(bestv, ys_ffs(who) - 1) : YSM_NONE;
        ys_sync();  // every lane has read LEVEL and TRAIL before lane 0 writes them
        if (lane == 0) {
            u32* H = s.H;
            u32 cur = H[YSM_H_VQ_SEARCH];
            if (!heap && v != YSM_NONE && (cur == YSM_NONE || s.stamp[v] > s.stamp[cur])) H[YSM_H_VQ_SEARCH] = v;
            H[YSM_H_TRAIL] = from;
            if (H[YSM_H_QHEAD] > from) H[YSM_H_QHEAD] = from;
            H[YSM_H_LEVEL] = target;
            H[YSM_H_BJ_EPOCH] += 1;
        }
    }
    if (lane == 0) s.H[YSM_H_CONFL] = YSM_NONE;
    ys_sync();
}
