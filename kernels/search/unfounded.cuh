// unfounded.cuh — the unfounded-set check of one search at a propagation fixpoint of a
// non-tight program (the design brief's gap 1), on partial and total assignments, by the whole
// warp of the search, incremental: source pointers kept between checks (see ufs_check), so a
// check costs a pass over the cyclic atoms plus what changed, not every support's body.
//
// Founded: a false atom, an atom outside cyclic components, and (least fixpoint) a cyclic atom h
// that is not false with a support (h, r) whose rule r has a body that is not false and holds
// with the positive atoms of h's component read as "founded" (other literals count unless they
// are false; a sum adds the weights of such literals). ufsacc[s] counts what support s still
// lacks: unfounded positive items of the head's component (conjunction) or weight (sum); it
// founds its head when it reaches 0. The cyclic atoms left unfounded and not false form an
// unfounded set U: no answer set extending the assignment makes one of them true. The loop
// nogood is built for the least atom of U (the seed) and the part P of U it rests on:
// {T seed} plus, per external body of P (which is false: a body of a
// member that is not false has a positive atom of P), F b, or for a sum that is not false but
// stays below its bound without P even with its open literals true, the complements of its
// false literals outside P. Every literal but T seed holds, and the nogood holds in every answer
// set: with the seed true it is a conflict, with the seed open it makes the seed false.

#include "reduce.cuh"

// founded[atom]: bit 0 sourced, bit 1 in the loop nogood's part, bit 2 in S (this check's
// sourceless atoms), bits 3.. the source support + 1 (the host keeps supports below 2^29 - 1).
#define YSM_FOUNDED 1u
#define YSM_INPART 2u
#define YSM_INS 4u
#define YSM_SRC_SHIFT 3u

YS_D void ufs_push(const Srch& s, u32 q) {
    u32 k = ys_add(&s.H[YSM_H_UFS_Q], 1u);
    s.ufsq[k] = q;
}

// Append literal l (holding) to the loop nogood unless its variable is in already (lane 0).
YS_D void ufs_emit(const Srch& s, u32 l, u32 epoch) {
    u32 v = lvar(l);
    if (s.mark[v] != epoch) {
        s.mark[v] = epoch;
        s.inject[s.H[YSM_H_INJ_LEN]++] = l;
    }
}

YS_D bool ufs_in_part(const Prog& P, const Srch& s, u32 q, u32 c) {
    return P.scc[q] == c && (s.founded[q] & YSM_INPART) != 0;
}

// The literals support s of a head in the part adds to the loop nogood (lane 0).
YS_D void ufs_external(const Prog& P, const Srch& s, u32 sup, u32 epoch) {
    u32 h = P.sup_head[sup], r = P.sup_rule[sup];
    u32 b = P.rule_body[r], bv = P.rule_body_var[r], c = P.scc[h];
    i32 ab = ld_asg(s, bv);
    if (P.body_kind[b] == 0) {
        for (u32 k = P.body_off[b]; k < P.body_off[b + 1]; ++k) {
            u32 it = P.body_items[k];
            if (lpos(it) && ufs_in_part(P, s, lvar(it), c)) return;  // internal
        }
        if (ab >= 0) {
            s.H[YSM_H_ERR] = YSM_ERR_UFS;
            return;
        }
        ufs_emit(s, lfalse(bv), epoch);
        return;
    }
    i64 outside = 0;
    for (u32 k = P.sum_off[b]; k < P.sum_off[b + 1]; ++k) {
        u32 l = P.sum_lits[k];
        if (!(lpos(l) && ufs_in_part(P, s, lvar(l), c))) outside += P.sum_w[k];
    }
    if (outside < P.sum_lower[b]) return;  // internal: it cannot hold without the part
    if (ab < 0) {
        ufs_emit(s, lfalse(bv), epoch);
        return;
    }
    for (u32 k = P.sum_off[b]; k < P.sum_off[b + 1]; ++k) {
        u32 l = P.sum_lits[k], q = lvar(l);
        if (lpos(l) && ufs_in_part(P, s, q, c)) continue;
        if (fails(l, ld_asg(s, q))) ufs_emit(s, lneg(l), epoch);
    }
}

// The worklist of ufsq from `head` on, a round at a time: the whole warp takes the atoms queued
// since the last round (each lane one) and calls f(q) for each; f may queue more. Lane 0 reads
// the tail and hands it on; the barrier keeps every push of a round after that read (racecheck
// flagged the other lanes' dead reads beside the pushes).
template <class F> YS_D void ufs_rounds(const Srch& s, u32 head, F f) {
    while (true) {
        u32 tail = ys_bcast(YS_LANE == 0 ? ys_vol(s.H[YSM_H_UFS_Q]) : 0u);
        ys_sync();
        if (head >= tail) break;
        for (u32 qi = head + YS_LANE; qi < tail; qi += YS_WARP) f(s.ufsq[qi]);
        ys_sync();
        head = tail;
    }
}

// The support a founded word names (YSM_NONE: none).
YS_D u32 ufs_source(u32 w) { return (w & YSM_FOUNDED) ? (w >> YSM_SRC_SHIFT) - 1u : YSM_NONE; }
YS_D u32 ufs_sourced(u32 sp) { return ((sp + 1u) << YSM_SRC_SHIFT) | YSM_FOUNDED; }

// 0: no atom is unfounded; otherwise the loop nogood is in inject[0..H_INJ_LEN), inject[0] = T
// seed, and the result is 1 when the seed is true (a conflict) or 2 when it is open.
//
// Incremental, with source pointers (as clasp's and the host engine's `engine/cpu/source.rs`):
// founded[h] of a cyclic atom names a support of h (its source) while that support founds h —
// its body not false, a conjunction (a sum's weight can fall without its body turning false, so
// sums found only within one check), every positive item of h's component sourced or false —
// and the sources form no cycle (a source is only set on items sourced before it). Unassigning
// keeps a source valid, so sources live across checks, backjumps and restarts. A check drops
// the sources that no longer hold (body false, or a sum's) and, transitively, those resting on
// an atom that lost its source: S, the sourceless atoms. It then founds the atoms of S that are
// not false with the worklist of supports counting what they lack (items of S), as a full
// check would on S alone; the atoms of S left are unfounded.
YS_D u32 ufs_check(const Prog& P, const Srch& s) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    if (lane == 0) H[YSM_H_UFS_Q] = 0;
    ys_sync();
    // S, first the atoms whose source does not hold (each atom read by one lane).
    for (u32 k = lane; k < P.n_cyc; k += YS_WARP) {
        u32 v = P.cyc_atoms[k], sp = ufs_source(s.founded[v]);
        if (sp != YSM_NONE) {
            u32 r = P.sup_rule[sp];
            if (P.body_kind[P.rule_body[r]] == 0 && ld_asg(s, P.rule_body_var[r]) >= 0) continue;
        }
        s.founded[v] = YSM_INS;
        ufs_push(s, v);
    }
    ys_sync();
    // ... then the atoms whose source rests on an atom of S (the lane whose swap clears the
    // source queues the atom, once).
    ufs_rounds(s, 0, [&](u32 q) {
        for (u32 d = P.dep_off[q]; d < P.dep_off[q + 1]; ++d) {
            u32 sp = P.dep_sup[d], h = P.sup_head[sp];
            if (ys_cas(&s.founded[h], ufs_sourced(sp), YSM_INS) == ufs_sourced(sp)) ufs_push(s, h);
        }
    });
    const u32 n_s = H[YSM_H_UFS_Q];
    // What each support of an atom of S that is not false lacks: its items of S that are not
    // false (conjunction), or the weight missing without them (sum).
    for (u32 i = lane; i < n_s; i += YS_WARP) {
        u32 h = s.ufsq[i], c = P.scc[h];
        if (ld_asg(s, h) < 0) continue;
        for (u32 j = P.hsup_off[h]; j < P.hsup_off[h + 1]; ++j) {
            u32 sp = P.hsup[j], r = P.sup_rule[sp], b = P.rule_body[r];
            i64 lack;
            if (ld_asg(s, P.rule_body_var[r]) < 0) {
                lack = (i64)1 << 62;  // a false body founds nothing
            } else if (P.body_kind[b] == 0) {
                lack = 0;
                for (u32 k = P.body_off[b]; k < P.body_off[b + 1]; ++k) {
                    u32 it = P.body_items[k], q = lvar(it);
                    if (lpos(it) && P.scc[q] == c && (s.founded[q] & YSM_INS) && ld_asg(s, q) >= 0) ++lack;
                }
            } else {
                i64 acc = 0;
                for (u32 k = P.sum_off[b]; k < P.sum_off[b + 1]; ++k) {
                    u32 l = P.sum_lits[k], q = lvar(l);
                    if (fails(l, ld_asg(s, q))) continue;
                    if (lpos(l) && P.scc[q] == c && (s.founded[q] & YSM_INS)) continue;
                    acc += P.sum_w[k];
                }
                lack = P.sum_lower[b] - acc;
            }
            s.ufsacc[sp] = lack;
        }
    }
    ys_sync();
    // Heads of complete supports, then a worklist: a newly founded atom completes the supports
    // that wait for it (their heads in S, not false, not founded yet). The lane whose swap sets
    // the source queues the head (after the atoms of S), so each head is queued once; the lane
    // whose subtraction takes a support's lack from above 0 to 0 or below founds its head.
    for (u32 i = lane; i < n_s; i += YS_WARP) {
        u32 h = s.ufsq[i];
        if (ld_asg(s, h) < 0) continue;
        for (u32 j = P.hsup_off[h]; j < P.hsup_off[h + 1]; ++j) {
            u32 sp = P.hsup[j];
            if (s.ufsacc[sp] <= 0) {
                if (ys_cas(&s.founded[h], YSM_INS, YSM_INS | ufs_sourced(sp)) == YSM_INS) ufs_push(s, h);
                break;
            }
        }
    }
    ys_sync();
    ufs_rounds(s, n_s, [&](u32 q) {
        for (u32 d = P.dep_off[q]; d < P.dep_off[q + 1]; ++d) {
            u32 sp = P.dep_sup[d], h = P.sup_head[sp];
            if (s.founded[h] != YSM_INS || ld_asg(s, h) < 0) continue;
            i64 w = P.dep_w[d];
            i64 old = ys_fetch_add_i64(&s.ufsacc[sp], -w);
            // A false body's lack starts at 2^62 and stays far above 0 (weights < 2^61).
            if (old > 0 && old <= ((i64)1 << 61) && old - w <= 0) {
                if (ys_cas(&s.founded[h], YSM_INS, YSM_INS | ufs_sourced(sp)) == YSM_INS) ufs_push(s, h);
            }
        }
    });
    // The seed: the least atom of S that is not false and not founded; S's mark is cleared.
    u32 seed = YSM_NONE;
    for (u32 i = lane; i < n_s; i += YS_WARP) {
        u32 v = s.ufsq[i];
        u32 w = s.founded[v] & ~YSM_INS;
        s.founded[v] = w;
        if (ld_asg(s, v) >= 0 && (w & YSM_FOUNDED) == 0 && v < seed) seed = v;
    }
    seed = ~ys_max(~seed);
    ys_sync();
    if (seed == YSM_NONE) return 0;
    if (lane == 0) {
        H[YSM_H_EPOCH] += 1;
        u32 epoch = H[YSM_H_EPOCH];
        H[YSM_H_INJ_LEN] = 0;
        H[YSM_H_UFS_Q] = 0;
        s.founded[seed] |= YSM_INPART;
        ufs_push(s, seed);
        ufs_emit(s, ltrue(seed), epoch);
        // The part the seed rests on: positive items of its component in true bodies.
        for (u32 qi = 0; qi < H[YSM_H_UFS_Q]; ++qi) {
            u32 h = s.ufsq[qi], c = P.scc[h];
            for (u32 j = P.hsup_off[h]; j < P.hsup_off[h + 1]; ++j) {
                u32 sp = P.hsup[j], r = P.sup_rule[sp], b = P.rule_body[r];
                if (ld_asg(s, P.rule_body_var[r]) < 0) continue;
                u32 k0 = P.body_kind[b] == 0 ? P.body_off[b] : P.sum_off[b];
                u32 k1 = P.body_kind[b] == 0 ? P.body_off[b + 1] : P.sum_off[b + 1];
                for (u32 k = k0; k < k1; ++k) {
                    u32 it = P.body_kind[b] == 0 ? P.body_items[k] : P.sum_lits[k];
                    u32 q = lvar(it);
                    if (!lpos(it) || P.scc[q] != c || ld_asg(s, q) < 0) continue;
                    if (s.founded[q] & (YSM_FOUNDED | YSM_INPART)) continue;
                    s.founded[q] |= YSM_INPART;
                    ufs_push(s, q);
                }
            }
        }
        // The external bodies of the part.
        for (u32 qi = 0; qi < H[YSM_H_UFS_Q]; ++qi) {
            u32 h = s.ufsq[qi];
            for (u32 j = P.hsup_off[h]; j < P.hsup_off[h + 1]; ++j) ufs_external(P, s, P.hsup[j], epoch);
        }
        for (u32 qi = 0; qi < H[YSM_H_UFS_Q]; ++qi) s.founded[s.ufsq[qi]] &= ~YSM_INPART;
        s.C[YSM_C_LOOPS] += 1;
    }
    ys_sync();
    return ld_asg(s, seed) > 0 ? 1u : 2u;
}
