//! Optimisation: the objective's bound as a native constraint (model-guided branch-and-bound,
//! clasp's `--opt-strategy=bb` in its basic form).
//!
//! The objective (`analyse::Objective`) is normalised once: a negative weight `w` on `l` becomes
//! `−w` on `¬l` plus the constant `w` (`w·[l] = w + (−w)·[¬l]`), repeats of a literal on one
//! level are merged, so every level is a list of literals with positive weights (by decreasing
//! weight) and a constant. Costs are compared lexicographically, highest priority first; a
//! bound (`engine::Bound`, normalised by the same constants) admits the costs below it
//! (`strict`) or at most it.
//!
//! Over the trail entries it has *processed* (its own queue head, behind unit propagation and
//! the sums), the propagator keeps `lo`, per level the weight of the true literals: no
//! extension of the assignment costs less on any level, so the assignment violates the bound
//! as soon as `lo` does (`lo ≥ B` lexicographically, or `lo > B` when not strict). Let `d` be
//! the first level where `lo` and `B` differ (the bound is *tight* on the levels before it).
//! It derives:
//! 1. a conflict when `lo` violates the bound: the nogood of the true literals of levels ≤ the
//!    level where the comparison is decided (any assignment with them true violates it too);
//! 2. `¬x` for an unassigned `x` with which `lo` would violate it — every literal of a tight
//!    level, on level `d` those of weight ≥ `B_d − lo_d` (equal weight: when the levels after
//!    `d` decide against it); the reason is `x` with the true literals of the levels up to the
//!    deciding one, built when conflict analysis asks ([`super::sums::LAZY`], as the sums' are;
//!    at once with forward learning, which needs its dependency set).
//!
//! Invariant: after propagation without conflict every trail entry has been processed and no
//! unassigned literal is left that 2 would make false; the counters are restored on
//! backtracking (one saved record per event, by trail position). A new bound backtracks to
//! level 0 and re-checks there; a bound that admits a cost an earlier one excluded makes the
//! engine forget everything learned (`CpuEngine::forget`), since those nogoods may depend on
//! the earlier bound. Models reported are within the bound; their costs are recomputed from
//! the assignment, not from the counters.

use super::assign::NO_REASON;
use super::store::{Kind, NgRef};
use super::sums::LAZY;
use super::CpuEngine;
use crate::analyse::Objective;
use crate::engine::Bound;
use crate::lit::Lit;

/// Reasons are never kept as lemmas (as the sums').
const REASON_LBD: u32 = 1 << 20;

/// What a lazy reason is made from: the literal at trail position `pos` was made false because
/// with it the true literals of levels up to `q` (the first `ntrue` processed ones) would
/// violate the bound.
#[derive(Clone, Copy, Debug)]
struct Made {
    pos: u32,
    q: u32,
    ntrue: u32,
}

/// The objective, the bound and the propagator's state.
#[derive(Debug, Default)]
pub struct ObjectiveBound {
    /// Per level: (literal, weight > 0), by decreasing weight.
    levels: Vec<Vec<(Lit, i64)>>,
    /// Per level: the weight normalisation moved out (the sum of the negative weights).
    constant: Vec<i64>,
    /// Literal code → its (level, weight) pairs by level (CSR).
    occ_off: Vec<u32>,
    occ: Vec<(u32, i64)>,
    /// The normalised bound (`None`: no bound yet); per level `None` = unbounded.
    bound: Option<Vec<Option<i64>>>,
    strict: bool,
    /// The bound changed since the last check: check once without a new event.
    dirty: bool,
    /// Per level, the weight of the processed true literals.
    lo: Vec<i64>,
    /// Levels `0..tight` were scanned as tight (their unassigned literals made false).
    tight: u32,
    /// (level, slack) of the last scan of the deciding level.
    scanned: (u32, i64),
    /// Processed true literals of the objective, in trail order.
    trues: Vec<Lit>,
    qhead: usize,
    /// (trail position, start in `saved`): the state before that event.
    undo: Vec<(u32, u32)>,
    saved: Vec<i64>,
    made: Vec<Made>,
    /// A conflict nogood of ours, deleted at the next backtrack.
    confl: Option<NgRef>,
    buf: Vec<Lit>,
    /// Build reasons at once (forward learning reads them when the literal is assigned).
    eager: bool,
}

const NOT_SCANNED: (u32, i64) = (u32::MAX, i64::MAX);

/// The level at which `lo` plus `x`'s (level, weight) pairs violates `bound`, if it does.
fn violation(lo: &[i64], bound: &[Option<i64>], strict: bool, x: &[(u32, i64)]) -> Option<u32> {
    let mut k = 0;
    for (i, b) in bound.iter().enumerate() {
        let mut v = lo[i];
        while k < x.len() && x[k].0 as usize == i {
            v = v.saturating_add(x[k].1);
            k += 1;
        }
        match *b {
            None => return None,
            Some(b) if v < b => return None,
            Some(b) if v > b => return Some(i as u32),
            Some(_) => {}
        }
    }
    strict.then(|| bound.len() as u32 - 1)
}

impl ObjectiveBound {
    pub fn new(obj: &Objective, num_vars: usize, eager: bool) -> ObjectiveBound {
        let mut levels = Vec::with_capacity(obj.levels.len());
        let mut constant = Vec::with_capacity(obj.levels.len());
        let mut entries: Vec<(u32, u32, i64)> = Vec::new(); // (lit code, level, weight)
        for (i, lv) in obj.levels.iter().enumerate() {
            let mut c = 0i64;
            let mut lits: Vec<(Lit, i64)> = lv
                .lits
                .iter()
                .map(|&(l, w)| {
                    if w < 0 {
                        c = c.saturating_add(w);
                        (l.negate(), w.saturating_neg())
                    } else {
                        (l, w)
                    }
                })
                .collect();
            lits.sort_unstable_by_key(|&(l, _)| l.code());
            let mut merged: Vec<(Lit, i64)> = Vec::with_capacity(lits.len());
            for (l, w) in lits {
                match merged.last_mut() {
                    Some((m, mw)) if *m == l => *mw = mw.saturating_add(w),
                    _ => merged.push((l, w)),
                }
            }
            merged.sort_by_key(|&(l, w)| (std::cmp::Reverse(w), l.code()));
            entries.extend(merged.iter().map(|&(l, w)| (l.code(), i as u32, w)));
            levels.push(merged);
            constant.push(c);
        }
        let mut occ_off = vec![0u32; 2 * num_vars + 1];
        for &(l, _, _) in &entries {
            occ_off[l as usize + 1] += 1;
        }
        for i in 0..2 * num_vars {
            occ_off[i + 1] += occ_off[i];
        }
        let mut occ = vec![(0, 0); entries.len()];
        let mut fill = occ_off.clone();
        // `entries` is by level, so each literal's pairs are too.
        for &(l, lvl, w) in &entries {
            occ[fill[l as usize] as usize] = (lvl, w);
            fill[l as usize] += 1;
        }
        let n = levels.len();
        ObjectiveBound {
            levels,
            constant,
            occ_off,
            occ,
            lo: vec![0; n],
            scanned: NOT_SCANNED,
            eager,
            ..ObjectiveBound::default()
        }
    }

    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// A bound is in force (only an objective takes one): what level 0 holds may depend on it.
    pub fn has_bound(&self) -> bool {
        self.bound.is_some()
    }

    /// Work left for [`CpuEngine::propagate_objective`].
    #[inline]
    pub fn due(&self, trail_len: usize) -> bool {
        !self.levels.is_empty() && (self.dirty || self.qhead < trail_len)
    }

    fn contrib(&self, l: Lit) -> &[(u32, i64)] {
        let c = l.code() as usize;
        &self.occ[self.occ_off[c] as usize..self.occ_off[c + 1] as usize]
    }

    fn save(&mut self, pos: usize) {
        self.undo.push((pos as u32, self.saved.len() as u32));
        self.saved.extend_from_slice(&self.lo);
        self.saved.push(self.tight as i64);
        self.saved.push(self.scanned.0 as i64);
        self.saved.push(self.scanned.1);
        self.saved.push(self.trues.len() as i64);
    }

    fn restore(&mut self, at: usize) {
        let n = self.lo.len();
        let s = &self.saved[at..];
        self.lo.copy_from_slice(&s[..n]);
        self.tight = s[n] as u32;
        self.scanned = (s[n + 1] as u32, s[n + 2]);
        self.trues.truncate(s[n + 3] as usize);
        self.saved.truncate(at);
    }

    /// The normalised form of `b`.
    fn normalise(&self, b: &Bound) -> Vec<Option<i64>> {
        (0..self.levels.len())
            .map(|i| {
                b.costs
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|c| c.saturating_sub(self.constant[i]))
            })
            .collect()
    }

    /// Every cost `new` (with `strict`) admits, the current bound admits too.
    fn within_current(&self, new: &[Option<i64>], strict: bool) -> bool {
        let Some(old) = &self.bound else { return true };
        for (n, o) in new.iter().zip(old) {
            match (n, o) {
                (None, None) => return true,
                (Some(_), None) => return true,
                (None, Some(_)) => return false,
                (Some(n), Some(o)) if n < o => return true,
                (Some(n), Some(o)) if n > o => return false,
                _ => {}
            }
        }
        strict || !self.strict
    }
}

impl CpuEngine {
    /// The cost vector of the current (total) assignment, from the assignment itself.
    pub(super) fn objective_costs(&self) -> Option<Vec<i64>> {
        let o = &self.opt;
        if o.is_empty() {
            return None;
        }
        let costs = o.levels.iter().zip(&o.constant).map(|(lv, &c)| {
            lv.iter()
                .filter(|&&(l, _)| self.a.holds(l))
                .fold(c, |s, &(_, w)| s.saturating_add(w))
        });
        Some(costs.collect())
    }

    /// Set the bound (see [`crate::engine::Engine::set_bound`]).
    pub(super) fn set_objective_bound(&mut self, b: &Bound) {
        if self.opt.is_empty() {
            return;
        }
        let new = self.opt.normalise(b);
        if !self.opt.within_current(&new, b.strict) {
            self.forget();
        }
        // The last model's blocking nogood is not needed when the bound excludes it.
        if let (Some(costs), Some(_)) = (&self.last_costs, &self.block) {
            let lo: Vec<i64> = costs
                .iter()
                .zip(&self.opt.constant)
                .map(|(&c, &k)| c.saturating_sub(k))
                .collect();
            if violation(&lo, &new, b.strict, &[]).is_some() {
                self.block = None;
            }
        }
        self.backtrack(0);
        self.opt.bound = Some(new);
        self.opt.strict = b.strict;
        self.opt.dirty = true;
        self.opt.tight = 0;
        self.opt.scanned = NOT_SCANNED;
    }

    /// Process the trail entries not yet seen by the objective, checking the bound after each
    /// one that adds weight (and once after a new bound).
    pub(super) fn propagate_objective(&mut self) -> Option<NgRef> {
        if std::mem::take(&mut self.opt.dirty) {
            if let Some(c) = self.check_bound(u32::MAX) {
                return Some(c);
            }
        }
        while self.opt.qhead < self.a.trail.len() {
            let pos = self.opt.qhead;
            self.opt.qhead += 1;
            let p = self.a.trail[pos];
            let c = p.code() as usize;
            let (from, to) = (
                self.opt.occ_off[c] as usize,
                self.opt.occ_off[c + 1] as usize,
            );
            if from == to {
                continue;
            }
            self.opt.save(pos);
            let mut deepest = 0;
            for k in from..to {
                let (lvl, w) = self.opt.occ[k];
                self.opt.lo[lvl as usize] = self.opt.lo[lvl as usize].saturating_add(w);
                deepest = lvl;
            }
            self.opt.trues.push(p);
            if let Some(c) = self.check_bound(deepest) {
                return Some(c);
            }
        }
        None
    }

    /// Rules 1 and 2 of the module doc; `deepest` is the lowest-priority level the event
    /// added weight to (`u32::MAX`: a new bound, scan everything).
    fn check_bound(&mut self, deepest: u32) -> Option<NgRef> {
        let bound = self.opt.bound.take()?;
        let out = self.check_with(&bound, deepest);
        self.opt.bound = Some(bound);
        out
    }

    fn check_with(&mut self, bound: &[Option<i64>], deepest: u32) -> Option<NgRef> {
        let n = bound.len();
        // The deciding level and its slack (`n`: lo equals the bound on every level).
        let mut d = n;
        let mut slack = 0;
        for (i, b) in bound.iter().enumerate() {
            match *b {
                None => {
                    (d, slack) = (i, i64::MAX);
                    break;
                }
                Some(b) if self.opt.lo[i] < b => {
                    (d, slack) = (i, b - self.opt.lo[i]);
                    break;
                }
                Some(b) if self.opt.lo[i] > b => return Some(self.bound_conflict(i as u32)),
                Some(_) => {}
            }
        }
        if d == n && self.opt.strict {
            return Some(self.bound_conflict(n as u32 - 1));
        }
        // 2. Tight levels: each of their literals would violate the bound.
        for j in self.opt.tight as usize..d {
            for k in 0..self.opt.levels[j].len() {
                let x = self.opt.levels[j][k].0;
                if self.a.value(x) == 0 {
                    self.bound_imply(bound, x);
                }
            }
        }
        self.opt.tight = self.opt.tight.max(d as u32);
        // 2. The deciding level: literals whose weight reaches the slack.
        if d < n && slack != i64::MAX {
            let again = (d as u32, slack) != self.opt.scanned || (d + 1 < n && deepest > d as u32);
            if again {
                self.opt.scanned = (d as u32, slack);
                for k in 0..self.opt.levels[d].len() {
                    let (x, w) = self.opt.levels[d][k];
                    if w < slack {
                        break;
                    }
                    if self.a.value(x) == 0 {
                        self.bound_imply(bound, x);
                    }
                }
            }
        }
        None
    }

    /// Make `x` false if with it `lo` would violate the bound.
    fn bound_imply(&mut self, bound: &[Option<i64>], x: Lit) {
        let o = &self.opt;
        let Some(q) = violation(&o.lo, bound, o.strict, o.contrib(x)) else {
            return;
        };
        let m = Made {
            pos: self.a.trail.len() as u32,
            q,
            ntrue: self.opt.trues.len() as u32,
        };
        self.opt.made.push(m);
        self.stats.propagations += 1;
        let reason = if self.opt.eager {
            self.build_bound_reason(m, x)
        } else {
            LAZY
        };
        self.assign(x.negate(), reason);
    }

    /// Into `buf` (after what it holds): the processed true literals (the first `ntrue`) with
    /// weight on a level ≤ `q`.
    fn bound_lits(&mut self, q: u32, ntrue: u32) {
        for i in 0..ntrue as usize {
            let t = self.opt.trues[i];
            if self
                .opt
                .contrib(t)
                .first()
                .is_some_and(|&(lvl, _)| lvl <= q)
            {
                self.opt.buf.push(t);
            }
        }
    }

    /// The reason nogood of `¬x`, made as `m` says, stored (not watched).
    fn build_bound_reason(&mut self, m: Made, x: Lit) -> NgRef {
        self.opt.buf.clear();
        self.opt.buf.push(x);
        self.bound_lits(m.q, m.ntrue);
        let buf = &mut self.opt.buf;
        if buf.len() > 2 {
            let mut best = 1;
            for k in 2..buf.len() {
                if self.a.level_of(buf[k].var()) > self.a.level_of(buf[best].var()) {
                    best = k;
                }
            }
            buf.swap(1, best);
        }
        self.store.add(&self.opt.buf, Kind::Learned, REASON_LBD)
    }

    /// The lazy reason of the literal at trail position `pos`, if the objective made it.
    pub(super) fn objective_reason(&mut self, pos: u32) -> Option<NgRef> {
        let k = self.opt.made.binary_search_by_key(&pos, |m| m.pos).ok()?;
        let m = self.opt.made[k];
        let x = self.a.trail[pos as usize].negate();
        Some(self.build_bound_reason(m, x))
    }

    /// Store the violated nogood: the true literals of levels ≤ `q`, backtracking first to
    /// the highest decision level among them. One whose literals are all of level 0 (or
    /// none) means no model within the bound: the conflict at level 0 ends the search.
    fn bound_conflict(&mut self, q: u32) -> NgRef {
        self.opt.buf.clear();
        let ntrue = self.opt.trues.len() as u32;
        self.bound_lits(q, ntrue);
        // Propagation keeps the bound at every fixpoint, so the conflict's top level is the
        // current one — except right after a new bound, which is checked at level 0.
        let top = self.opt.buf.iter().map(|l| self.a.level_of(l.var())).max();
        let top = top.unwrap_or(0);
        if top < self.a.level() {
            let lits = std::mem::take(&mut self.opt.buf);
            self.backtrack(top);
            self.opt.buf = lits;
        }
        let r = self.store.add(&self.opt.buf, Kind::Learned, REASON_LBD);
        if let Some(old) = self.opt.confl.replace(r) {
            self.store.delete(old);
        }
        r
    }

    /// Undo the objective's view of every trail entry from `start` on (before they are
    /// popped): delete our reasons, restore the counters.
    pub(super) fn objective_backtrack(&mut self, start: usize) {
        if let Some(r) = self.opt.confl.take() {
            self.drop_objective_reason(r);
        }
        while let Some(&m) = self.opt.made.last() {
            if (m.pos as usize) < start {
                break;
            }
            self.opt.made.pop();
            let v = self.a.trail[m.pos as usize].var() as usize;
            let r = self.a.reason[v];
            if r != LAZY && r != NO_REASON {
                self.drop_objective_reason(r);
            }
        }
        let mut at = None;
        while let Some(&(pos, s)) = self.opt.undo.last() {
            if (pos as usize) < start {
                break;
            }
            self.opt.undo.pop();
            at = Some(s as usize);
        }
        if let Some(s) = at {
            self.opt.restore(s);
        }
        self.opt.qhead = self.opt.qhead.min(start);
    }

    fn drop_objective_reason(&mut self, r: NgRef) {
        if !self.store.pop_last(r) {
            self.store.delete(r);
        }
    }
}
