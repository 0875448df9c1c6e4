// sums.cuh — native sum constraints in one search: the device twin of the host engine's
// counter propagator (src/engine/cpu/sums.rs), for the sum bodies the completion left native
// (`nogoods::complete_native`: bⱼ ↔ Σ wᵢ·[lᵢ] ≥ kⱼ, bounds ascending, the chain b_{j+1} → bⱼ
// among the input nogoods).
//
// Per sum the search keeps (YSM_SCNT words of scnt) lo (weight of the true literals) and hi
// (total minus the weight of the false ones) over the trail entries propagation has processed,
// i.e. those below H_QHEAD: the counters change when a literal is taken off the queue
// (prop_sums) and are given back when a backjump unassigns a processed entry (sums_undo).
// After each event of a sum the warp checks it (sum_check; unless a conflict is already
// found), with K⁺ the largest true bound and K⁻ the smallest false one:
//   1. lo ≥ kⱼ → bⱼ for the largest such j (the chain does the smaller ones);
//   2. hi < kⱼ → ¬bⱼ for the smallest such j;
//   3. hi − wᵢ < k_{K⁺} → lᵢ;   4. lo + wᵢ ≥ k_{K⁻} → ¬lᵢ;
// and a conflict when k_{K⁺} > hi or k_{K⁻} ≤ lo, written out in `sconf` (YSM_SUMCONF).
// Rules 3 and 4 scan the heavy prefix of the literals only when the slack fell below the
// slack of their last scan since the last backjump (H_BJ_EPOCH; the host's up/down_scanned):
// what that scan did not imply was assigned.
//
// Reasons are lazy: an implied variable v gets reason YSM_SUMREF + v and its record in srec
// (sum, bound, up/down, input index); its trail position is tpos[v]. The reason nogood is
// rebuilt when analysis asks (sum_reason_lits): ¬(implied literal), the bound's body literal
// (rules 3 and 4), and, in literal order, the literals of the sum that held before tpos[v]
// (true ones for lo, false ones for hi) until their weight forces the implication. Those
// literals are on the trail below v for as long as v is, so the nogood is the same whenever it
// is built; it has enough weight because the counters that implied v counted only such
// literals. Forward learning takes as v's dependency set the union over all the literals of
// that kind that held at the time (a superset of the reason's: its decision nogood is still
// implied).
//
// The objective (objective.cuh) is one more sum, index P.obj_sum, without bounds: its counters
// and lazy reasons are the sums', its check is its own.
//
// Invariant: every entry below H_QHEAD is counted in scnt, no other is; when propagation ends
// without a conflict, every sum was checked after its last event, so at a total assignment
// every sum holds (each bⱼ true iff lo = hi ≥ kⱼ).

#include "watch.cuh"

// Defined in objective.cuh (included at the end of this file).
YS_D void obj_check(const Prog& P, const Srch& s, u32 level);
YS_D i64 obj_k(const Prog& P, const Srch& s);

#define YSM_SREC_UP 2147483648u  // srec: the reason counts false literals (hi)
#define YSM_ROLE_TRUE 0u         // nocc_role >> 30: the literal of input index i holds
#define YSM_ROLE_FALSE 1u        // its complement holds
#define YSM_ROLE_BODY 2u         // a body variable of the sum was assigned (3: false)
#define YSM_ROLE_IDX 1073741823u
#define YSM_I64_MAX 9223372036854775807ll

YS_D bool is_sumref(u32 r) { return r > YSM_SUMCONF && r < YSM_LEARNED; }

// Count (sign 1) or give back (sign -1) the events of literal p (per lane; atomics, since a
// sum may list one literal twice).
YS_D void sums_lit(const Prog& P, const Srch& s, u32 p, i64 sign, u32 from, u32 step) {
    for (u32 k = P.nocc_off[p] + from; k < P.nocc_off[p + 1]; k += step) {
        u32 role = P.nocc_role[k], sum = P.nocc_sum[k], r = role >> 30;
        if (r >= YSM_ROLE_BODY) continue;
        i64 w = P.nsum_w[P.nsum_off[sum] + (role & YSM_ROLE_IDX)];
        if (r == YSM_ROLE_TRUE) ys_add_i64(&s.scnt[YSM_SCNT * (u64)sum], sign * w);
        else ys_add_i64(&s.scnt[YSM_SCNT * (u64)sum + 1], -sign * w);
    }
}

// Give back the counts of the processed entries trail[from .. to) (all lanes).
YS_D void sums_undo(const Prog& P, const Srch& s, u32 from, u32 to) {
    if (P.n_nsum == 0) return;
    for (u32 k = from + YS_LANE; k < to; k += YS_WARP) sums_lit(P, s, s.trail[k], -1, 0, 1);
    ys_sync();
}

// Fill out[n..] with the literals of sum `sum` that hold before trail position `limpos` (false
// ones when `up`, as their complements; true ones otherwise), in literal order, until their
// weight passes total − kⱼ − extra (up) or reaches kⱼ − extra; returns the new length (all
// lanes).
YS_D u32 sum_collect_need(const Prog& P, const Srch& s, u32 sum, bool up, i64 need, u32 limpos,
                          u32* out, u32 n);
YS_D u32 sum_collect(const Prog& P, const Srch& s, u32 sum, u32 j, bool up, i64 extra, u32 limpos,
                     u32* out, u32 n) {
    i64 k = P.nsum_k[P.nsum_boff[sum] + j];
    i64 need = up ? P.nsum_total[sum] - k - extra : k - extra;
    return sum_collect_need(P, s, sum, up, need, limpos, out, n);
}

// The same, until the weight passes `need` (up) or reaches it.
YS_D u32 sum_collect_need(const Prog& P, const Srch& s, u32 sum, bool up, i64 need, u32 limpos,
                          u32* out, u32 n) {
    const u32 lane = YS_LANE;
    if (up ? need < 0 : need <= 0) return n;
    i64 got = 0;
    u32 b = P.nsum_off[sum], e = P.nsum_off[sum + 1];
    for (u32 base = b; base < e; base += YS_WARP) {
        u32 idx = base + lane, x = 0;
        i64 w = 0;
        if (idx < e) {
            x = P.nsum_lits[idx];
            u32 v = lvar(x);
            i32 a = ld_asg(s, v);
            bool ok = up ? fails(x, a) : holds(x, a);
            if (ok && s.tpos[v] < limpos) w = P.nsum_w[idx];
        }
        i64 incl = ys_scan(w);
        i64 before = got + incl - w;
        bool take = w > 0 && (up ? before <= need : before < need);
        u32 m = ys_ballot(take);
        if (take) out[n + ys_rank(m)] = up ? lneg(x) : x;
        n += ys_popc(m);
        got += ys_shfl_i64(incl, YS_WARP - 1);
        if (up ? got > need : got >= need) break;
    }
    ys_sync();
    return n;
}

// The reason nogood of v (reason YSM_SUMREF + v), built into sbuf; its length in *n (all lanes).
YS_D const u32* sum_reason_lits(const Prog& P, const Srch& s, u32 ref, u32* n) {
    u32 v = ref - YSM_SUMREF;
    u32 sum = s.srec[3 * (u64)v], jr = s.srec[3 * (u64)v + 1], i = s.srec[3 * (u64)v + 2];
    u32 j = jr & ~YSM_SREC_UP;
    bool up = (jr & YSM_SREC_UP) != 0;
    u32 q = ld_asg(s, v) > 0 ? ltrue(v) : lfalse(v);
    u32 len = 1;
    i64 extra = 0;
    if (YS_LANE == 0) s.sbuf[0] = lneg(q);
    if (sum == P.obj_sum) {
        // The objective: ¬q with true literals of weight at least k − w(¬q) (the bound only
        // tightens while v is assigned, so what sufficed when v was implied still does).
        ys_sync();
        i64 need = obj_k(P, s) - P.nsum_w[P.nsum_off[sum] + i];
        *n = sum_collect_need(P, s, sum, false, need, s.tpos[v], s.sbuf, 1);
        return s.sbuf;
    }
    if (i != YSM_NONE) {
        u32 bj = P.nsum_b[P.nsum_boff[sum] + j];
        if (YS_LANE == 0) s.sbuf[1] = up ? ltrue(bj) : lfalse(bj);
        len = 2;
        extra = P.nsum_w[P.nsum_off[sum] + i];
    }
    ys_sync();
    len = sum_collect(P, s, sum, j, up, extra, s.tpos[v], s.sbuf, len);
    *n = len;
    return s.sbuf;
}

// Any nogood's literals, a sum reason built first (all lanes).
YS_D const u32* reason_lits(const Prog& P, const Srch& s, u32 ref, u32* n) {
    if (is_sumref(ref)) return sum_reason_lits(P, s, ref, n);
    return ng_lits(P, s, ref, n);
}

// Record the violated nogood of bound j in sconf: T bⱼ with false literals past it (up), or
// F bⱼ with true literals reaching it (all lanes; H_CONFL was YSM_NONE).
YS_D void sum_conflict(const Prog& P, const Srch& s, u32 sum, u32 j, bool up) {
    u32 bj = P.nsum_b[P.nsum_boff[sum] + j];
    if (YS_LANE == 0) s.sconf[0] = up ? ltrue(bj) : lfalse(bj);
    ys_sync();
    u32 n = sum_collect(P, s, sum, j, up, 0, YSM_NONE, s.sconf, 1);
    if (YS_LANE == 0) {
        s.H[YSM_H_SCONF_LEN] = n;
        s.H[YSM_H_CONFL] = YSM_SUMCONF;
    }
    ys_sync();
}

// Forward learning: the union of the dependency sets of the literals of the sum that hold
// (true ones, or false ones when `up`) and, if b != YSM_NONE, of variable b (all lanes).
YS_D void sum_deps(const Prog& P, const Srch& s, u32 sum, bool up, u32 b, u64* d0, u64* d1) {
    u64 a0 = 0, a1 = 0;
    for (u32 k = P.nsum_off[sum] + YS_LANE; k < P.nsum_off[sum + 1]; k += YS_WARP) {
        u32 x = P.nsum_lits[k], v = lvar(x);
        i32 a = ld_asg(s, v);
        if (up ? fails(x, a) : holds(x, a)) {
            a0 |= s.deps[2 * (u64)v];
            a1 |= s.deps[2 * (u64)v + 1];
        }
    }
    u32 w0 = ys_or((u32)a0), w1 = ys_or((u32)(a0 >> 32)), w2 = ys_or((u32)a1), w3 = ys_or((u32)(a1 >> 32));
    a0 = ((u64)w1 << 32) | w0;
    a1 = ((u64)w3 << 32) | w2;
    if (b != YSM_NONE) {
        a0 |= s.deps[2 * (u64)b];
        a1 |= s.deps[2 * (u64)b + 1];
    }
    *d0 = a0;
    *d1 = a1;
}

// Make q hold at `level`, implied by bound j (input index i, or YSM_NONE for the body literal)
// of `sum` (lane 0; q's variable is open: no other lane assigns while sums are checked).
YS_D void sum_imply(const Srch& s, u32 q, u32 sum, u32 jr, u32 i, u32 level, u64 d0, u64 d1) {
    u32 v = lvar(q);
    if (s.asg[v] != 0) return;
    s.asg[v] = val_for(q, level);
    s.reason[v] = YSM_SUMREF + v;
    s.srec[3 * (u64)v] = sum;
    s.srec[3 * (u64)v + 1] = jr;
    s.srec[3 * (u64)v + 2] = i;
    if (s.cfg[YSM_CFG_LEARNING] == 1) {
        s.deps[2 * (u64)v] = d0;
        s.deps[2 * (u64)v + 1] = d1;
    }
    u32 pos = s.H[YSM_H_TRAIL];
    s.tpos[v] = pos;
    s.trail[pos] = q;
    s.H[YSM_H_TRAIL] = pos + 1;
}

// Rules 3 (up: the literals the true bound j needs, weight > slack) and 4 (the literals the
// false bound j forbids, weight >= slack) over the prefix of heavy literals (all lanes).
YS_D void sum_force(const Prog& P, const Srch& s, u32 sum, u32 j, bool up, i64 slack, u32 level) {
    const u32 lane = YS_LANE;
    u32 b = P.nsum_off[sum], e = P.nsum_off[sum + 1];
    if (b == e || (up ? P.nsum_w[b] <= slack : P.nsum_w[b] < slack)) return;
    // Since the last backjump, a scan at slack `last` left every literal it covers assigned.
    i64* c = s.scnt + YSM_SCNT * (u64)sum;
    u32 epoch = s.H[YSM_H_BJ_EPOCH];
    i64 last = (u32)ys_vol(c[4]) == epoch ? ys_vol(c[up ? 2 : 3]) : YSM_I64_MAX;
    if (slack >= last) return;
    ys_sync();
    if (lane == 0) {
        if ((u32)c[4] != epoch) {
            c[2] = YSM_I64_MAX;
            c[3] = YSM_I64_MAX;
            c[4] = epoch;
        }
        c[up ? 2 : 3] = slack;
    }
    u32 bj = sum == P.obj_sum ? YSM_NONE : P.nsum_b[P.nsum_boff[sum] + j];
    u64 d0 = 0, d1 = 0;
    if (s.cfg[YSM_CFG_LEARNING] == 1) sum_deps(P, s, sum, up, bj, &d0, &d1);
    u32 jr = j | (up ? YSM_SREC_UP : 0u);
    for (u32 base = b; base < e; base += YS_WARP) {
        u32 idx = base + lane;
        bool heavy = idx < e && (up ? P.nsum_w[idx] > slack : P.nsum_w[idx] >= slack);
        bool open = heavy && ld_asg(s, lvar(P.nsum_lits[idx])) == 0;
        u32 m = ys_ballot(open);
        ys_sync();
        if (lane == 0) {
            while (m != 0) {
                u32 k = base + ys_ffs(m) - 1;
                u32 x = P.nsum_lits[k];
                sum_imply(s, up ? x : lneg(x), sum, jr, k - b, level, d0, d1);
                m &= m - 1;
            }
        }
        ys_sync();
        if (ys_ballot(heavy) != (YS_WARP == 32u ? 0xffffffffu : 1u)) break;
    }
}

// Apply rules 1-4 to `sum` (all lanes; H_CONFL is YSM_NONE).
YS_D void sum_check(const Prog& P, const Srch& s, u32 sum, u32 level) {
    const u32 lane = YS_LANE;
    if (sum == P.obj_sum) {
        obj_check(P, s, level);
        return;
    }
    ys_sync();
    i64 lo = ys_vol(s.scnt[YSM_SCNT * (u64)sum]), hi = ys_vol(s.scnt[YSM_SCNT * (u64)sum + 1]);
    u32 bo = P.nsum_boff[sum], m = P.nsum_boff[sum + 1] - bo;
    const i64* k = P.nsum_k + bo;
    const u32* bv = P.nsum_b + bo;
    // K⁺ + 1 (0: no true bound) and K⁻ (m: no false bound), by binary search: exact once the
    // chain is propagated (true bounds a prefix, false ones a suffix), which it is at the
    // sum's last check before a fixpoint; before that a bound found is still true (false).
    u32 kp = 0, km = m;
    for (u32 a = 0, b = m; a < b;) {
        u32 mid = (a + b) / 2;
        if (ld_asg(s, bv[mid]) > 0) a = kp = mid + 1; else b = mid;
    }
    for (u32 a = 0, b = m; a < b;) {
        u32 mid = (a + b) / 2;
        if (ld_asg(s, bv[mid]) < 0) b = km = mid; else a = mid + 1;
    }
    if (kp > 0 && k[kp - 1] > hi) {
        sum_conflict(P, s, sum, kp - 1, true);
        return;
    }
    if (km < m && k[km] <= lo) {
        sum_conflict(P, s, sum, km, false);
        return;
    }
    // 1. The largest bound lo reaches; 2. the smallest bound hi misses (binary searches).
    u32 j1 = 0, j2 = 0;
    for (u32 lo_i = 0, hi_i = m; lo_i < hi_i;) {
        u32 mid = (lo_i + hi_i) / 2;
        if (k[mid] <= lo) lo_i = j1 = mid + 1; else hi_i = mid;
    }
    for (u32 lo_i = 0, hi_i = m; lo_i < hi_i;) {
        u32 mid = (lo_i + hi_i) / 2;
        if (k[mid] <= hi) lo_i = j2 = mid + 1; else hi_i = mid;
    }
    bool fwd = s.cfg[YSM_CFG_LEARNING] == 1;
    if (j1 > 0) {
        i32 a = ld_asg(s, bv[j1 - 1]);
        if (a < 0) {
            sum_conflict(P, s, sum, j1 - 1, false);
            return;
        }
        if (a == 0) {
            u64 d0 = 0, d1 = 0;
            if (fwd) sum_deps(P, s, sum, false, YSM_NONE, &d0, &d1);
            ys_sync();  // every lane has read asg (the bound searches, a) before lane 0 assigns
            if (lane == 0) sum_imply(s, ltrue(bv[j1 - 1]), sum, j1 - 1, YSM_NONE, level, d0, d1);
            ys_sync();
        }
    }
    if (j2 < m) {
        i32 a = ld_asg(s, bv[j2]);
        if (a > 0) {
            sum_conflict(P, s, sum, j2, true);
            return;
        }
        if (a == 0) {
            u64 d0 = 0, d1 = 0;
            if (fwd) sum_deps(P, s, sum, true, YSM_NONE, &d0, &d1);
            ys_sync();  // likewise for the read of bv[j2]
            if (lane == 0) sum_imply(s, lfalse(bv[j2]), sum, j2 | YSM_SREC_UP, YSM_NONE, level, d0, d1);
            ys_sync();
        }
    }
    if (kp > 0) sum_force(P, s, sum, kp - 1, true, hi - k[kp - 1], level);
    if (km < m) sum_force(P, s, sum, km, false, k[km] - lo, level);
}

// The sums' part of processing trail literal p: count its events, then check each sum it
// touches (all lanes; after the checks of short and watched nogoods, so only when no conflict
// was found).
YS_D void prop_sums(const Prog& P, const Srch& s, u32 p, u32 level) {
    if (P.n_nsum == 0) return;
    u32 b = P.nocc_off[p], e = P.nocc_off[p + 1];
    if (b == e) return;
    sums_lit(P, s, p, 1, YS_LANE, YS_WARP);
    ys_sync();
    for (u32 k = b; k < e; ++k) {
        if (ys_vol(s.H[YSM_H_CONFL]) != YSM_NONE) break;
        u32 sum = P.nocc_sum[k];
        if (k > b && P.nocc_sum[k - 1] == sum) continue;
        sum_check(P, s, sum, level);
    }
    ys_sync();
}

#include "objective.cuh"
