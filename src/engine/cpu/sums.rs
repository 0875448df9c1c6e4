//! Native sum constraints: a counter propagator for the sum bodies the completion left native
//! (`nogoods::native`: `bⱼ ↔ Σ wᵢ·[lᵢ] ≥ kⱼ`, bounds ascending, the chain `b_{j+1} → bⱼ` in
//! the nogood database). The device engine has its own, per search (`kernels/search/sums.cuh`).
//!
//! For each sum the propagator keeps, over the trail entries it has *processed* (its own queue
//! head, behind unit propagation), `lo` = weight of the true literals, `hi` = total minus the
//! weight of the false ones, the largest true bound `K⁺` and the smallest false bound `K⁻`,
//! and derives:
//! 1. `lo ≥ kⱼ` → `bⱼ` for the largest such `j` (the chain does the smaller ones);
//! 2. `hi < kⱼ` → `¬bⱼ` for the smallest such `j`;
//! 3. `hi − wᵢ < K⁺` → `lᵢ` (without it the sum cannot reach the true bound);
//! 4. `lo + wᵢ ≥ K⁻` → `¬lᵢ` (with it the sum would reach the false bound);
//!
//! and a conflict when `K⁺ > hi` or `K⁻ ≤ lo`. Each implied literal gets its reason as an
//! explicit nogood in the store (`Kind::Learned`, not watched): the bound's body literal plus
//! the earliest processed true (or false) literals whose weight is enough, so resolution and
//! forward learning read it like any other reason. It is built only when analysis asks
//! (`reason` = [`LAZY`] until then, [`CpuEngine::reason_of`]): most implied literals never meet
//! a conflict, and their reasons are hundreds of literals long (incsched: ~300). Forward
//! learning needs the reason's dependency set at once: the sum keeps the union of the sets of
//! each prefix of its processed true (false) literals, so that set costs a binary search and
//! one union instead of a pass over the reason. Reasons are deleted when their literal is
//! unassigned; a conflict's nogood at the next backtrack.
//!
//! Invariant: after [`CpuEngine::propagate_with_sums`] returns no conflict, every trail entry has
//! been processed and none of 1–4 applies to an unassigned literal; counters are restored on
//! backtracking (one saved copy per event, by trail position), so they always describe the
//! processed prefix of the trail. Since lower levels reached this fixpoint, every reason and
//! conflict holds a literal of the current level.

use super::store::{Kind, NgRef};
use super::CpuEngine;
use crate::lit::{Lit, Var};
use crate::nogoods::native::NativeSum;

const ROLE: u32 = 3 << 30;
const IN_TRUE: u32 = 0;
const IN_FALSE: u32 = 1 << 30;
const BODY_TRUE: u32 = 2 << 30;
const BODY_FALSE: u32 = 3 << 30;
/// Reasons are never kept as lemmas: the highest LBD puts them first in line for deletion.
const REASON_LBD: u32 = 1 << 20;
/// Collect the arena once deleted reasons hold this many words and half of it.
const COLLECT_WORDS: usize = 1 << 22;

/// The counters of one sum over the processed trail prefix (saved whole before each event).
#[derive(Clone, Copy, Debug)]
struct Counters {
    lo: i64,
    hi: i64,
    /// 1 + index of the largest true bound (0: none).
    kplus: u32,
    /// Index of the smallest false bound (`bounds.len()`: none).
    kminus: u32,
    /// Processed true / false literals (prefixes of `trues` / `falses`).
    ntrue: u32,
    nfalse: u32,
    /// `hi − K⁺` and `K⁻ − lo` when rules 3 and 4 last scanned: literals they did not imply
    /// then were assigned, so a scan is only needed once the slack shrinks.
    up_scanned: i64,
    down_scanned: i64,
}

#[derive(Debug)]
struct Sum {
    /// Literals by decreasing weight: rules 3 and 4 scan a prefix.
    lits: Vec<Lit>,
    w: Vec<i64>,
    k: Vec<i64>,
    b: Vec<Var>,
    total: i64,
    c: Counters,
    /// Indices of processed true / false literals, in trail order.
    trues: Vec<u32>,
    falses: Vec<u32>,
    /// Weight of `trues[..=n]` / `falses[..=n]`: a reason's prefix by binary search.
    tw: Vec<i64>,
    fw: Vec<i64>,
    /// Forward learning: the union of the decision-level sets of `trues[..=n]` /
    /// `falses[..=n]` (entries past the processed prefix are stale; kept for their space).
    tu: Vec<Vec<u64>>,
    fu: Vec<Vec<u64>>,
}

/// What a reason is made from: the literal at trail position `pos` was implied by bound `j` of
/// sum `s` (`input` = the input literal's index, or `u32::MAX` for the body literal) when the
/// sum had processed `ntrue` true and `nfalse` false literals. Those stay on the trail while
/// the literal does, so the reason can be built later, the same as it would have been then.
#[derive(Clone, Copy, Debug)]
struct Made {
    pos: u32,
    s: u32,
    j: u32,
    input: u32,
    ntrue: u32,
    nfalse: u32,
}

/// `reason` of a literal implied by a sum whose reason nogood is not built yet (resolution
/// learning builds it with [`CpuEngine::reason_of`] when it needs it).
pub const LAZY: u32 = u32::MAX - 1;

/// Every native sum and the propagator's queue.
#[derive(Debug, Default)]
pub struct SumPropagator {
    sums: Vec<Sum>,
    /// Literal code → (sum, role | index) to process when it holds (CSR).
    occ_off: Vec<u32>,
    occ: Vec<(u32, u32)>,
    /// (trail position, sum, counters before the event).
    undo: Vec<(u32, u32, Counters)>,
    qhead: usize,
    /// The literals this propagator implied, by trail position (their reasons are ours).
    made: Vec<Made>,
    /// Forward learning is on: keep the dependency unions of the processed prefixes.
    fwd: bool,
    /// Scratch for a dependency set.
    set: Vec<u64>,
    /// A conflict nogood of ours, deleted at the next backtrack.
    confl: Option<NgRef>,
    buf: Vec<Lit>,
}

impl SumPropagator {
    pub fn new(native: &[NativeSum], num_vars: usize, fwd: bool) -> SumPropagator {
        let mut sums = Vec::with_capacity(native.len());
        let mut entries: Vec<(u32, u32, u32)> = Vec::new(); // (lit code, sum, role)
        for (s, ns) in native.iter().enumerate() {
            let mut lits = ns.lits.clone();
            lits.sort_by_key(|&(l, w)| (std::cmp::Reverse(w), l));
            let total = lits.iter().map(|&(_, w)| w).sum();
            for (i, &(l, _)) in lits.iter().enumerate() {
                entries.push((l.code(), s as u32, IN_TRUE | i as u32));
                entries.push((l.negate().code(), s as u32, IN_FALSE | i as u32));
            }
            for (j, &(_, b)) in ns.bounds.iter().enumerate() {
                entries.push((Lit::t(b).code(), s as u32, BODY_TRUE | j as u32));
                entries.push((Lit::f(b).code(), s as u32, BODY_FALSE | j as u32));
            }
            sums.push(Sum {
                lits: lits.iter().map(|&(l, _)| l).collect(),
                w: lits.iter().map(|&(_, w)| w).collect(),
                k: ns.bounds.iter().map(|&(k, _)| k).collect(),
                b: ns.bounds.iter().map(|&(_, b)| b).collect(),
                total,
                c: Counters {
                    lo: 0,
                    hi: total,
                    kplus: 0,
                    kminus: ns.bounds.len() as u32,
                    ntrue: 0,
                    nfalse: 0,
                    up_scanned: i64::MAX,
                    down_scanned: i64::MAX,
                },
                trues: Vec::new(),
                falses: Vec::new(),
                tw: Vec::new(),
                fw: Vec::new(),
                tu: Vec::new(),
                fu: Vec::new(),
            });
        }
        let occurrences = entries.iter().map(|&(l, s, role)| (l as usize, (s, role)));
        let (counts, occ) = crate::csr::Csr::from_pairs(2 * num_vars, occurrences).into_parts();
        SumPropagator {
            sums,
            occ_off: counts,
            occ,
            fwd,
            ..SumPropagator::default()
        }
    }
}

impl CpuEngine {
    /// Unit propagation and the sum propagator, alternately, to their common fixpoint; returns
    /// a violated nogood, if any.
    pub(super) fn propagate_with_sums(&mut self) -> Option<NgRef> {
        loop {
            if let Some(c) = self.propagate() {
                return Some(c);
            }
            if self.sums.qhead < self.a.trail.len() {
                if let Some(c) = self.propagate_sums() {
                    return Some(c);
                }
                continue;
            }
            // The objective's bound last (`optimize`), behind both.
            if !self.opt.due(self.a.trail.len()) {
                return None;
            }
            if let Some(c) = self.propagate_objective() {
                return Some(c);
            }
        }
    }

    /// Process the trail entries not yet seen by the sums.
    fn propagate_sums(&mut self) -> Option<NgRef> {
        if self.sums.sums.is_empty() {
            self.sums.qhead = self.a.trail.len();
            return None;
        }
        while self.sums.qhead < self.a.trail.len() {
            let pos = self.sums.qhead;
            self.sums.qhead += 1;
            let p = self.a.trail[pos].code() as usize;
            let (from, to) = (
                self.sums.occ_off[p] as usize,
                self.sums.occ_off[p + 1] as usize,
            );
            for e in from..to {
                let (s, role) = self.sums.occ[e];
                let sum = &mut self.sums.sums[s as usize];
                self.sums.undo.push((pos as u32, s, sum.c));
                let i = role & !ROLE;
                let fwd = self.sums.fwd && self.deps.usable();
                let words = (self.a.level() as usize).div_ceil(64);
                let lit = self.a.trail[pos];
                match role & ROLE {
                    IN_TRUE => {
                        sum.c.lo += sum.w[i as usize];
                        let n = sum.c.ntrue as usize;
                        push_prefix(&mut sum.trues, &mut sum.tw, n, i, sum.w[i as usize]);
                        if fwd {
                            union_prefix(&mut sum.tu, n, words, |u| {
                                self.deps.or_into(&self.a, lit, u)
                            });
                        }
                        sum.c.ntrue += 1;
                    }
                    IN_FALSE => {
                        sum.c.hi -= sum.w[i as usize];
                        let n = sum.c.nfalse as usize;
                        push_prefix(&mut sum.falses, &mut sum.fw, n, i, sum.w[i as usize]);
                        if fwd {
                            union_prefix(&mut sum.fu, n, words, |u| {
                                self.deps.or_into(&self.a, lit, u)
                            });
                        }
                        sum.c.nfalse += 1;
                    }
                    BODY_TRUE => sum.c.kplus = sum.c.kplus.max(i + 1),
                    _ => sum.c.kminus = sum.c.kminus.min(i),
                }
                if let Some(c) = self.check_sum(s as usize) {
                    return Some(c);
                }
            }
        }
        None
    }

    /// Apply rules 1–4 of the module doc to sum `s`.
    fn check_sum(&mut self, s: usize) -> Option<NgRef> {
        let sum = &self.sums.sums[s];
        let c = sum.c;
        let m = sum.k.len();
        if c.kplus > 0 && sum.k[c.kplus as usize - 1] > c.hi {
            let j = c.kplus as usize - 1;
            return Some(self.sum_conflict(s, j, true));
        }
        if (c.kminus as usize) < m && sum.k[c.kminus as usize] <= c.lo {
            return Some(self.sum_conflict(s, c.kminus as usize, false));
        }
        // 1. The largest bound the true weight reaches.
        let j1 = sum.k.partition_point(|&k| k <= c.lo);
        if j1 > 0 {
            let b = Lit::t(sum.b[j1 - 1]);
            match self.a.value(b) {
                0 => self.sum_imply(s, j1 - 1, b, None),
                v if v < 0 => return Some(self.sum_conflict(s, j1 - 1, false)),
                _ => {}
            }
        }
        // 2. The smallest bound the possible weight misses.
        let sum = &self.sums.sums[s];
        let j2 = sum.k.partition_point(|&k| k <= c.hi);
        if j2 < m {
            let b = Lit::f(sum.b[j2]);
            match self.a.value(b) {
                0 => self.sum_imply(s, j2, b, None),
                v if v < 0 => return Some(self.sum_conflict(s, j2, true)),
                _ => {}
            }
        }
        // 3. Literals the true bound K⁺ needs.
        let sum = &self.sums.sums[s];
        if c.kplus > 0 {
            let j = c.kplus as usize - 1;
            let slack = c.hi - sum.k[j];
            if slack < c.up_scanned {
                self.sums.sums[s].c.up_scanned = slack;
                let mut i = 0;
                while i < self.sums.sums[s].w.len() && self.sums.sums[s].w[i] > slack {
                    let l = self.sums.sums[s].lits[i];
                    if self.a.value(l) == 0 {
                        self.sum_imply(s, j, l, Some(i));
                    }
                    i += 1;
                }
            }
        }
        // 4. Literals the false bound K⁻ forbids.
        let sum = &self.sums.sums[s];
        if (c.kminus as usize) < m {
            let j = c.kminus as usize;
            let slack = sum.k[j] - c.lo;
            if slack < c.down_scanned {
                self.sums.sums[s].c.down_scanned = slack;
                let mut i = 0;
                while i < self.sums.sums[s].w.len() && self.sums.sums[s].w[i] >= slack {
                    let l = self.sums.sums[s].lits[i];
                    if self.a.value(l) == 0 {
                        self.sum_imply(s, j, l.negate(), Some(i));
                    }
                    i += 1;
                }
            }
        }
        None
    }

    /// Fill `buf` (after what it holds) with the body literal of bound `j` as it is assigned
    /// (`T bⱼ` when `up`, else `F bⱼ`) and the earliest processed literals that make the
    /// bound's value forced: false ones of weight > `total − kⱼ − extra` when `up`, true ones
    /// of weight ≥ `kⱼ − extra` otherwise.
    fn sum_reason(&mut self, s: usize, j: usize, up: bool, extra: i64, pre: (u32, u32)) {
        let sum = &self.sums.sums[s];
        let buf = &mut self.sums.buf;
        if up {
            buf.push(Lit::t(sum.b[j]));
            let need = sum.total - sum.k[j] - extra;
            let mut got = 0;
            for &i in &sum.falses[..pre.1 as usize] {
                if got > need {
                    break;
                }
                got += sum.w[i as usize];
                buf.push(sum.lits[i as usize].negate());
            }
            debug_assert!(got > need, "the false literals force the bound");
        } else {
            buf.push(Lit::f(sum.b[j]));
            let need = sum.k[j] - extra;
            let mut got = 0;
            for &i in &sum.trues[..pre.0 as usize] {
                if got >= need {
                    break;
                }
                got += sum.w[i as usize];
                buf.push(sum.lits[i as usize]);
            }
            debug_assert!(got >= need, "the true literals force the bound");
        }
    }

    /// Make `l` hold, implied by bound `j` (for a body literal, `input` = None: by the
    /// counters; for input literal `input`: the bound needs it, `l` true, or it would break the
    /// bound, `l` false). Its reason nogood is built only when asked for ([`LAZY`]); forward
    /// learning gets its dependency set at once, from the prefix unions.
    fn sum_imply(&mut self, s: usize, j: usize, l: Lit, input: Option<usize>) {
        let c = self.sums.sums[s].c;
        let m = Made {
            pos: self.a.trail.len() as u32,
            s: s as u32,
            j: j as u32,
            input: input.map_or(u32::MAX, |i| i as u32),
            ntrue: c.ntrue,
            nfalse: c.nfalse,
        };
        self.sums.made.push(m);
        self.stats.propagations += 1;
        let fwd = self.sums.fwd && self.deps.usable();
        if fwd {
            self.sum_deps(m, l);
        }
        self.assign(l, LAZY);
        if fwd {
            self.deps.or_into_last(&self.sums.set);
        }
    }

    /// Into `self.sums.set`: the union of the decision-level sets of the reason
    /// [`Self::build_reason`] would build for `l` (the same prefix, found by its weight).
    fn sum_deps(&mut self, m: Made, l: Lit) {
        let sum = &self.sums.sums[m.s as usize];
        let j = m.j as usize;
        let set = &mut self.sums.set;
        set.clear();
        set.resize((self.a.level() as usize).div_ceil(64), 0);
        let (up, extra, body) = if m.input == u32::MAX {
            (!l.is_true(), 0, None)
        } else {
            let i = m.input as usize;
            let up = l == sum.lits[i];
            (up, sum.w[i], Some(Lit::new(sum.b[j], up)))
        };
        // The prefix length p, as in `sum_reason`.
        let (p, unions) = if up {
            let need = sum.total - sum.k[j] - extra;
            let fw = &sum.fw[..m.nfalse as usize];
            let p = if need < 0 {
                0
            } else {
                fw.partition_point(|&x| x <= need) + 1
            };
            (p, &sum.fu)
        } else {
            let need = sum.k[j] - extra;
            let tw = &sum.tw[..m.ntrue as usize];
            let p = if need <= 0 {
                0
            } else {
                tw.partition_point(|&x| x < need) + 1
            };
            (p, &sum.tu)
        };
        if p > 0 {
            for (d, &u) in set.iter_mut().zip(&unions[p - 1]) {
                *d |= u;
            }
        }
        if let Some(b) = body {
            self.deps.or_into(&self.a, b, set);
        }
    }

    /// The reason nogood of `l`, implied as `m` says, stored (not watched).
    fn build_reason(&mut self, m: Made, l: Lit) -> NgRef {
        let (s, j, pre) = (m.s as usize, m.j as usize, (m.ntrue, m.nfalse));
        self.sums.buf.clear();
        self.sums.buf.push(l.negate());
        if m.input == u32::MAX {
            // T bⱼ from the true literals (¬ of {F bⱼ} ∪ trues), F bⱼ from the false ones.
            let up = !l.is_true();
            let mark = self.sums.buf.len();
            self.sum_reason(s, j, up, 0, pre);
            self.sums.buf.remove(mark); // bⱼ itself is the implied literal
        } else {
            let i = m.input as usize;
            let (w, up) = (self.sums.sums[s].w[i], l == self.sums.sums[s].lits[i]);
            self.sum_reason(s, j, up, w, pre);
        }
        // The highest level among the others second (as for any reason).
        let buf = &mut self.sums.buf;
        let mut best = 1;
        for k in 2..buf.len() {
            if self.a.level_of(buf[k].var()) > self.a.level_of(buf[best].var()) {
                best = k;
            }
        }
        buf.swap(1, best);
        self.store.add(&self.sums.buf, Kind::Learned, REASON_LBD)
    }

    /// The reason of assigned variable `v`, built first if it is [`LAZY`].
    #[inline(always)]
    pub(super) fn reason_of(&mut self, v: Var) -> NgRef {
        let r = self.a.reason[v as usize];
        if r != LAZY {
            return r;
        }
        self.make_lazy_reason(v)
    }

    /// The nogood behind `v`'s lazy reason, stored now (out of line: conflict analysis and
    /// minimisation ask for every reason, and most are stored nogoods already).
    #[inline(never)]
    fn make_lazy_reason(&mut self, v: Var) -> NgRef {
        let pos = self.a.trail_pos[v as usize];
        let r = match self.sums.made.binary_search_by_key(&pos, |m| m.pos) {
            Ok(k) => {
                let l = self.a.trail[pos as usize];
                self.build_reason(self.sums.made[k], l)
            }
            Err(_) => self
                .objective_reason(pos)
                .expect("a lazy reason was made by the sums or the objective"),
        };
        self.a.reason[v as usize] = r;
        r
    }

    /// Store the violated nogood of bound `j`: `T bⱼ` with false literals past it (`up`), or
    /// `F bⱼ` with true literals reaching it.
    fn sum_conflict(&mut self, s: usize, j: usize, up: bool) -> NgRef {
        self.sums.buf.clear();
        let c = self.sums.sums[s].c;
        self.sum_reason(s, j, up, 0, (c.ntrue, c.nfalse));
        let r = self.store.add(&self.sums.buf, Kind::Learned, REASON_LBD);
        if let Some(old) = self.sums.confl.replace(r) {
            self.store.delete(old); // (not the last: `r` follows it)
        }
        r
    }

    /// Undo the sums' view of every trail entry from `start` on (call before popping them):
    /// delete the reasons of ours, restore the counters.
    pub(super) fn sums_backtrack(&mut self, start: usize) {
        // Newest first, so that each is usually the arena's last nogood and its space is
        // reused at once instead of waiting for a collection.
        if let Some(r) = self.sums.confl.take() {
            self.drop_reason(r);
        }
        while let Some(&m) = self.sums.made.last() {
            if (m.pos as usize) < start {
                break;
            }
            self.sums.made.pop();
            let v = self.a.trail[m.pos as usize].var() as usize;
            if self.a.reason[v] != LAZY {
                self.drop_reason(self.a.reason[v]);
            }
        }
        while let Some(&(pos, s, c)) = self.sums.undo.last() {
            if (pos as usize) < start {
                break;
            }
            self.sums.undo.pop();
            self.sums.sums[s as usize].c = c;
        }
        self.sums.qhead = self.sums.qhead.min(start);
    }

    fn drop_reason(&mut self, r: NgRef) {
        if !self.store.pop_last(r) {
            self.store.delete(r);
        }
    }

    /// Compact the arena when deleted reasons hold much of it. Only where no `NgRef` is held
    /// outside the store, watches and reasons (the search loop, before deciding).
    pub(super) fn sums_collect_if_due(&mut self) {
        let st = &self.store;
        if st.wasted > COLLECT_WORDS && st.wasted * 2 > st.arena.len() {
            self.collect_garbage();
        }
    }
}

/// Record processed literal `i` (weight `w`) as the `n`-th of a prefix and its weight sum.
fn push_prefix(idx: &mut Vec<u32>, weights: &mut Vec<i64>, n: usize, i: u32, w: i64) {
    idx.truncate(n);
    idx.push(i);
    weights.truncate(n);
    let before = if n > 0 { weights[n - 1] } else { 0 };
    weights.push(before + w);
}

/// `unions[n]` = `unions[n − 1]` ∪ what `add` ORs in, `words` long.
fn union_prefix(unions: &mut Vec<Vec<u64>>, n: usize, words: usize, add: impl FnOnce(&mut [u64])) {
    if unions.len() <= n {
        unions.resize_with(n + 1, Vec::new);
    }
    let (before, rest) = unions.split_at_mut(n);
    let u = &mut rest[0];
    u.clear();
    u.resize(words, 0);
    if let Some(prev) = before.last() {
        for (d, &x) in u.iter_mut().zip(prev) {
            *d |= x;
        }
    }
    add(u);
}
