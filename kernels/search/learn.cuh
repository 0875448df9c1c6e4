// learn.cuh — conflict analysis of one search: the learned nogood of a violated nogood (first
// UIP by resolution, or — `fwd` — the decisions it depends on, the paper's Algorithm 4), its
// minimisation, storage with two watches, the backjump and the asserted literal; and the
// bumps of the variables it met (decide.cuh).
//
// Invariant: on entry every literal of the violated nogood holds and its highest level is above
// 1; on exit the learned nogood is stored (or, of length 1, asserted at level 1), the search is
// at its backjump level, and its first literal's complement is on the trail with the learned
// nogood as reason. The learned nogood is violated before the backjump and has exactly one
// literal (index 0) of the conflict level; index 1 has the backjump level.

#include "share.cuh"

// Highest level among the literals of nogood ref (all lanes).
YS_D u32 max_level(const Prog& P, const Srch& s, u32 ref) {
    u32 n;
    const u32* lits = ng_lits(P, s, ref, &n);
    u32 m = 0;
    for (u32 k = YS_LANE; k < n; k += YS_WARP) {
        u32 l = lvl_of(ld_asg(s, lvar(lits[k])));
        m = l > m ? l : m;
    }
    return ys_max(m);
}

// Whether literal v of the learned nogood (marked `epoch`) is implied by the nogood's other
// literals through reasons (MiniSat's recursive minimisation, breadth first; the whole warp,
// a reason's literals spread over the lanes): every variable its reasons lead to is of level
// 1, in the nogood, or implied the same way. Variables shown implied are marked `epoch`, those
// of a failed search `epoch + 1` (never implied: the search fails on them at once). `abst`:
// the nogood's levels mod 32, a variable of another level fails. The queue is
// scratch[q0..cap): a queued variable is marked before the next reason is read, so only one
// that a reason lists twice is queued twice (by two lanes at once; its second visit queues
// nothing), and the variables it can hold (not in the nogood, not resolved at the conflict
// level) fit but for such twins; past `cap` the search fails, which keeps the literal. A
// reason is read whole even where an early literal fails (the serial search stopped there):
// the answer is the same, and a variable queued in a failed search is only marked as failing.
YS_D bool implied_deep(const Prog& P, const Srch& s, u32 v, u32 epoch, u32 abst, u32 q0, u32 cap) {
    const u32 poison = epoch + 1, lane = YS_LANE;
    u32 top = q0, head = q0, cur = v;
    while (true) {
        u32 r = s.reason[cur];
        if (r == YSM_NONE || r == YSM_FLIPPED || is_sumref(r)) break;  // fails (v itself: a decision)
        u32 rn;
        const u32* rl = ng_lits(P, s, r, &rn);
        bool fail = false;
        for (u32 base = 0; base < rn && !fail; base += YS_WARP) {
            u32 j = base + lane, u = 0;
            bool push = false, bad = false;
            if (j < rn) {
                u = lvar(rl[j]);
                u32 l = u == cur ? 0u : lvl_of(ld_asg(s, u));
                if (l > 1 && s.mark[u] != epoch) {
                    u32 ru = s.reason[u];
                    bad = s.mark[u] == poison || ru == YSM_NONE || ru == YSM_FLIPPED || is_sumref(ru) ||
                          ((abst >> (l & 31u)) & 1u) == 0;
                    push = !bad;
                }
            }
            u32 pm = ys_ballot(push);
            fail = ys_ballot(bad) != 0 || top + ys_popc(pm) > cap;
            if (!fail && push) {
                s.mark[u] = epoch;
                s.scratch[top + ys_rank(pm)] = u;
            }
            if (!fail) top += ys_popc(pm);
        }
        ys_sync();  // the queue and the marks of this reason before the next one is read
        if (fail) break;
        if (head == top) return true;
        cur = s.scratch[head++];
    }
    for (u32 i = q0 + lane; i < top; i += YS_WARP) s.mark[s.scratch[i]] = poison;
    ys_sync();
    return false;
}

// Drop the literals of scratch[1..len) that implied_deep shows implied; the new length (the
// whole warp; every lane gets it). `cap`: where the resolved variables start in scratch.
// Leaves H_EPOCH at epoch + 1 so that later marks are fresh.
YS_D u32 minimise_deep(const Prog& P, const Srch& s, u32 len, u32 epoch, u32 cap) {
    const u32 lane = YS_LANE;
    u32 abst = 0;
    for (u32 k = 1 + lane; k < len; k += YS_WARP) abst |= 1u << (lvl_of(ld_asg(s, lvar(s.scratch[k]))) & 31u);
    abst = ys_or(abst);
    if (lane == 0) s.H[YSM_H_EPOCH] = epoch + 1;
    u32 out = 1;
    for (u32 k = 1; k < len; ++k) {
        u32 q = s.scratch[k];
        bool implied = implied_deep(P, s, lvar(q), epoch, abst, len, cap);  // ends with a barrier
        if (!implied) {
            if (lane == 0) s.scratch[out] = q;  // out <= k: read by every lane already
            ++out;
        }
    }
    ys_sync();
    return out;
}

// First-UIP resolution. Learned nogood in scratch[0..H_LEN); resolved variables of the conflict
// level in scratch[num_vars - 1 - k] for k < H_TMP2 (bumped too).
YS_D void analyse_res(const Prog& P, const Srch& s, u32 ref) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    if (lane == 0) {
        H[YSM_H_EPOCH] += 1;
        H[YSM_H_LEN] = 1;
        H[YSM_H_PATH] = 0;
        H[YSM_H_TMP2] = 0;
    }
    ys_sync();
    const u32 epoch = H[YSM_H_EPOCH], cur = H[YSM_H_LEVEL], nv = P.num_vars;
    const u32 floor = s.lim[cur];
    i32 idx = (i32)H[YSM_H_TRAIL] - 1;
    u32 rv = YSM_NONE;
    while (true) {
        u32 n;
        const u32* lits = reason_lits(P, s, ref, &n);
        for (u32 k = lane; k < n; k += YS_WARP) {
            u32 q = lits[k], v = lvar(q);
            if (v == rv) continue;
            u32 l = lvl_of(ld_asg(s, v));
            // A nogood may list a variable twice (a sum's reason or conflict holds its bound's
            // literal and, where the sum counts that literal itself, it again): two lanes may
            // meet it at once, and only the one that marks it first counts it.
            if (l <= 1 || s.mark[v] == epoch || ys_xchg(&s.mark[v], epoch) == epoch) continue;
            if (l == cur) {
                ys_add(&H[YSM_H_PATH], 1u);
            } else {
                u32 pos = ys_add(&H[YSM_H_LEN], 1u);
                s.scratch[pos] = q;
            }
        }
        ys_sync();
        // The next marked literal of the conflict level, going down the trail.
        u32 pos = YSM_NONE;
        while (idx >= (i32)floor) {
            i32 i = idx - (i32)lane;
            bool hit = i >= (i32)floor && s.mark[lvar(s.trail[i])] == epoch;
            u32 m = ys_ballot(hit);
            if (m) {
                pos = (u32)(idx - (i32)(ys_ffs(m) - 1));
                break;
            }
            idx -= (i32)YS_WARP;
        }
        if (pos == YSM_NONE) {
            if (lane == 0) H[YSM_H_ERR] = YSM_ERR_ANALYSE;
            ys_sync();
            return;
        }
        u32 pl = s.trail[pos], v = lvar(pl);
        idx = (i32)pos - 1;
        u32 left = H[YSM_H_PATH] - 1;
        ys_sync();
        if (lane == 0) {
            H[YSM_H_PATH] = left;
            if (left == 0) {
                s.scratch[0] = pl;
            } else {
                s.scratch[nv - 1 - H[YSM_H_TMP2]] = v;
                H[YSM_H_TMP2] += 1;
            }
        }
        ys_sync();
        if (left == 0) break;
        ref = s.reason[v];
        rv = v;
        if (ref == YSM_NONE) {
            if (lane == 0) H[YSM_H_ERR] = YSM_ERR_ANALYSE;
            ys_sync();
            return;
        }
    }
    // Local minimisation: drop a literal whose reason's other literals are all marked (in the
    // nogood or resolved) or of level 1.
    u32 len = H[YSM_H_LEN], out = 1;
    for (u32 base = 1; base < len; base += YS_WARP) {
        u32 k = base + lane;
        bool act = k < len, keep = true;
        u32 q = act ? s.scratch[k] : 0;
        if (act) {
            u32 v = lvar(q), r = s.reason[v];
            // (A sum's reason is built only for resolution: such literals stay; so do
            // decisions, flipped ones included.)
            if (r != YSM_NONE && r != YSM_FLIPPED && !is_sumref(r)) {
                u32 rn;
                const u32* rl = ng_lits(P, s, r, &rn);
                keep = false;
                for (u32 j = 0; j < rn; ++j) {
                    u32 u = lvar(rl[j]);
                    if (u != v && s.mark[u] != epoch && lvl_of(ld_asg(s, u)) > 1) {
                        keep = true;
                        break;
                    }
                }
            }
        }
        ys_sync();
        u32 km = ys_ballot(act && keep);
        if (act && keep) s.scratch[out + ys_rank(km)] = q;
        out += ys_popc(km);
        ys_sync();
    }
    ys_sync();  // every lane has read LEN (the loop may not have run)
    u32 deep = minimise_deep(P, s, out, epoch, nv - H[YSM_H_TMP2]);
    if (lane == 0) H[YSM_H_LEN] = deep;
    ys_sync();
}

// Forward learning (the paper's Algorithm 4): the decisions of the levels the violated nogood
// depends on, the conflict level's first. Needs H_LEVEL < YSM_DEPS_LEVELS.
YS_D void analyse_fwd(const Prog& P, const Srch& s, u32 ref) {
    u32 n;
    const u32* lits = ng_lits(P, s, ref, &n);
    u64 a0 = 0, a1 = 0;
    for (u32 k = YS_LANE; k < n; k += YS_WARP) {
        u32 v = lvar(lits[k]);
        a0 |= s.deps[2 * (u64)v];
        a1 |= s.deps[2 * (u64)v + 1];
    }
    u32 w0 = ys_or((u32)a0), w1 = ys_or((u32)(a0 >> 32)), w2 = ys_or((u32)a1), w3 = ys_or((u32)(a1 >> 32));
    if (YS_LANE == 0) {
        u32* H = s.H;
        u32 cur = H[YSM_H_LEVEL], len = 1;
        s.scratch[0] = s.trail[s.lim[cur]];
        for (u32 l = cur - 1; l >= 2; --l) {
            u32 w = l < 32 ? w0 : l < 64 ? w1 : l < 96 ? w2 : w3;
            if ((w >> (l % 32)) & 1u) s.scratch[len++] = s.trail[s.lim[l]];
        }
        H[YSM_H_LEN] = len;
        H[YSM_H_TMP2] = 0;
        H[YSM_H_EPOCH] += 1;
    }
    ys_sync();
}

// The backjump level (moved to index 1) and the LBD of the learned nogood in scratch.
YS_D void learned_levels(const Srch& s, u32* bt, u32* lbd) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    u32 len = H[YSM_H_LEN];
    u32 ml = 0, mk = 0;
    for (u32 k = 1 + lane; k < len; k += YS_WARP) {
        u32 l = lvl_of(ld_asg(s, lvar(s.scratch[k])));
        if (l > ml) {
            ml = l;
            mk = k;
        }
    }
    u32 m = ys_max(ml);
    u32 who = ys_ballot(ml == m && m > 0);
    u32 k = who ? ys_shfl(mk, ys_ffs(who) - 1) : 0;
    ys_sync();
    if (lane == 0 && k > 1) {
        u32 t = s.scratch[1];
        s.scratch[1] = s.scratch[k];
        s.scratch[k] = t;
    }
    ys_sync();
    *bt = len > 1 ? m : 1;
    u32 epoch = H[YSM_H_EPOCH], cnt = 0;
    for (u32 j = lane; j < len; j += YS_WARP) {
        u32 l = lvl_of(ld_asg(s, lvar(s.scratch[j])));
        if (ys_xchg(&s.lmark[l], epoch) != epoch) ++cnt;
    }
    *lbd = ys_sum(cnt);
    ys_sync();
}

// Store the learned nogood of scratch (length >= 2) with watches on its literals 0 and 1;
// returns its reference (YSM_NONE if there is no room: H_ERR is set).
YS_D u32 store_learned(const Geo& g, const Srch& s, u32 lbd) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    u32 len = H[YSM_H_LEN];
    u32 off = YSM_NONE;
    if (lane == 0) {
        u32 top = H[YSM_H_LTOP];
        if (top + YSM_LHDR + len > g.arena_words || H[YSM_H_LCOUNT] >= g.lcap) {
            H[YSM_H_ERR] = YSM_ERR_LEARNED;
        } else {
            off = top;
            H[YSM_H_LTOP] = top + YSM_LHDR + len;
            H[YSM_H_LCOUNT] += 1;
            s.arena[off] = len;
            s.arena[off + 1] = lbd;
            s.arena[off + 2] = 0;
            // Keep room for the longest possible next one: restart and reduce soon.
            if ((u64)H[YSM_H_LTOP] + YSM_LHDR + 2 * (u64)len + 64 > g.arena_words ||
                H[YSM_H_LTOP] > g.arena_words / 10 * 9 || H[YSM_H_LCOUNT] + 2 > g.lcap)
                H[YSM_H_FORCE] = 1;
        }
    }
    off = ys_bcast(off);
    if (off == YSM_NONE) {
        ys_sync();  // lane 0's H_ERR reaches every lane before the caller's loop reads it
        return YSM_NONE;
    }
    for (u32 k = lane; k < len; k += YS_WARP) s.arena[off + YSM_LHDR + k] = s.scratch[k];
    ys_sync();
    u32 ref = YSM_LEARNED | off;
    if (lane == 0) {
        bool ok = watch_add(g, s, s.scratch[0], ref, s.scratch[1]) &&
                  watch_add(g, s, s.scratch[1], ref, s.scratch[0]);
        if (!ok) H[YSM_H_ERR] = YSM_ERR_POOL;
    }
    ys_sync();
    return ref;
}

// Bump the variables the analysis met (lane 0 serial).
YS_D void bump_analysed(const Prog& P, const Srch& s, u32 conflict_ref) {
    if (YS_LANE == 0) {
        u32* H = s.H;
        u32 len = H[YSM_H_LEN], nres = H[YSM_H_TMP2], nv = P.num_vars;
        for (u32 k = 0; k < nres; ++k) bump_var(s, s.scratch[nv - 1 - k]);
        for (u32 k = 0; k < len; ++k) bump_var(s, lvar(s.scratch[k]));
        if (s.cfg[YSM_CFG_LEARNING] == 1 && conflict_ref != YSM_NONE) {
            u32 n;
            const u32* lits = ng_lits(P, s, conflict_ref, &n);
            for (u32 k = 0; k < n && k < 64; ++k) bump_var(s, lvar(lits[k]));
        }
    }
    ys_sync();
}

// The loop nogood in inject makes its open first literal's complement true (its other literals
// hold): store it as the reason and propagate at the current level (all lanes).
YS_D void assert_loop(const Prog& P, const Geo& g, const Srch& s) {
    u32* H = s.H;
    u32 n = H[YSM_H_INJ_LEN];
    for (u32 k = YS_LANE; k < n; k += YS_WARP) s.scratch[k] = s.inject[k];
    if (YS_LANE == 0) H[YSM_H_LEN] = n;
    ys_sync();
    if (n == 1) {
        // No support at all: false for good (at the lowest level a backjump may reach).
        u32 low = H[YSM_H_BT_LEVEL];
        backjump(P, s, low);
        if (YS_LANE == 0) imply(s, lneg(s.scratch[0]), YSM_NONE, s.scratch, 1, low);
        ys_sync();
        return;
    }
    u32 bt, lbd;
    learned_levels(s, &bt, &lbd);
    u32 r = store_learned(g, s, lbd < 1 ? 1u : lbd);
    if (r == YSM_NONE) return;
    if (YS_LANE == 0) {
        imply(s, lneg(s.scratch[0]), r, s.arena + (r - YSM_LEARNED) + YSM_LHDR, n, H[YSM_H_LEVEL]);
    }
    ys_sync();
}

// Learn from violated nogood `ref` and backjump (all lanes). `permanent`: the learned nogood
// is never deleted. Sets H_STATUS = UNSAT when the conflict needs no decision; a conflict at or
// below the enumeration's backtrack level flips a decision instead (enumerate.cuh).
YS_D void resolve(const Prog& P, const Geo& g, const Srch& s, u32 ref, bool permanent) {
    u32* H = s.H;
    u32 m = max_level(P, s, ref);
    if (m <= 1) {
        if (YS_LANE == 0) H[YSM_H_STATUS] = YSM_ST_UNSAT;
        ys_sync();
        return;
    }
    u32 low = H[YSM_H_BT_LEVEL];
    if (m <= low) {
        bt_flip(P, g, s, m);
        return;
    }
    if (m < H[YSM_H_LEVEL]) backjump(P, s, m);
    bool fwd = s.cfg[YSM_CFG_LEARNING] == 1 && m < YSM_DEPS_LEVELS;
    if (s.cfg[YSM_CFG_LEARNING] == 1 && !fwd && YS_LANE == 0) s.C[YSM_C_FWD_FALLBACK] += 1;
    if (fwd) analyse_fwd(P, s, ref); else analyse_res(P, s, ref);
    if (H[YSM_H_ERR] != 0) return;
    u32 bt, lbd;
    learned_levels(s, &bt, &lbd);
    if (bt < low) bt = low;
    backjump(P, s, bt);
    u32 len = H[YSM_H_LEN];
    if (YS_LANE == 0) {
        s.C[YSM_C_LEARNED] += 1;
        s.C[YSM_C_LEARNED_LITS] += len;
    }
    if (len == 1) {
        if (YS_LANE == 0) imply(s, lneg(s.scratch[0]), YSM_NONE, s.scratch, 1, bt);
        if (YS_LANE == 0) share_export(g, s, s.scratch, 1);
    } else {
        if (YS_LANE == 0) share_export(g, s, s.scratch, len);
        u32 r = store_learned(g, s, permanent ? 0u : (lbd < 1 ? 1u : lbd));
        if (r == YSM_NONE) return;
        if (YS_LANE == 0) imply(s, lneg(s.scratch[0]), r, s.arena + (r - YSM_LEARNED) + YSM_LHDR, len, bt);
    }
    ys_sync();
    bump_analysed(P, s, ref == YSM_INJECT ? YSM_NONE : ref);
    vsids_decay(P, s);
}
