//! Resolution learning to the first unique implication point (the paper's Algorithm 3, clasp's
//! scheme), with recursive minimisation (each literal explored at most once per conflict).
//!
//! Invariant: the learned nogood (left in `self.learnt`) is derived from the violated nogood by
//! resolution steps on reasons, so every assignment satisfying the stored nogoods satisfies it;
//! all its literals hold, exactly one (the UIP, at `learnt[0]`) is of the conflict level, and
//! the returned level is the highest level among the others (0 if none).

use super::assign::NO_REASON;
use super::store::{Kind, NgRef};
use super::CpuEngine;
use crate::lit::{Lit, Var};

/// Scratch of recursive minimisation, kept between conflicts to avoid allocation.
///
/// Invariant: between conflicts `poison` is all false and `poisoned` empty; during one
/// minimisation `poisoned` lists exactly the variables marked in `poison`.
#[derive(Debug, Default)]
pub struct MinScratch {
    /// The depth-first path: (next index into the reason, literal) per open literal.
    path: Vec<(u32, Lit)>,
    /// By variable: known not to be redundant in the current nogood.
    poison: Vec<bool>,
    poisoned: Vec<Var>,
}

impl MinScratch {
    pub fn new(num_vars: usize) -> MinScratch {
        MinScratch {
            poison: vec![false; num_vars],
            ..MinScratch::default()
        }
    }
}

impl CpuEngine {
    /// Analyse the violated nogood `confl` (which has a literal at the current level). Returns
    /// the backjump level, or `None` when the conflict does not depend on any decision.
    #[inline(never)]
    pub(super) fn analyse_res(&mut self, confl: NgRef) -> Option<u32> {
        let cur = self.a.level();
        self.learnt.clear();
        self.learnt.push(Lit(0)); // the UIP goes here
        let mut open = 0usize; // literals of the current level not yet resolved away
        let mut reason = confl;
        let mut resolved: Option<Lit> = None;
        let mut idx = self.a.trail.len();
        loop {
            self.bump_nogood(reason);
            let n = self.store.len(reason);
            for k in 0..n {
                let l = self.store.lits(reason)[k];
                // Skip the literal whose complement the reason propagated.
                if resolved.is_some_and(|p| l == p.negate()) {
                    continue;
                }
                let v = l.var() as usize;
                let lv = self.a.level[v];
                if self.seen[v] || lv == 0 {
                    continue;
                }
                self.seen[v] = true;
                self.bump_var(l.var());
                if lv == cur {
                    open += 1;
                } else {
                    self.learnt.push(l);
                }
            }
            // The latest seen literal of the current level is resolved next.
            let p = loop {
                idx -= 1;
                let p = self.a.trail[idx];
                if self.seen[p.var() as usize] {
                    break p;
                }
            };
            self.seen[p.var() as usize] = false;
            open -= 1;
            if open == 0 {
                self.learnt[0] = p;
                break;
            }
            reason = self.reason_of(p.var()); // (agg) builds a sum's lazy reason
            debug_assert_ne!(reason, NO_REASON, "only the UIP may be a decision");
            resolved = Some(p);
        }
        if cur == 0 {
            return None;
        }
        Some(self.minimise_and_jump())
    }

    /// Minimise `learnt` (its literals after the UIP marked `seen`), unmark them, and move the
    /// highest of them to `learnt[1]`. Returns its level, the backjump level (0 if none).
    pub(super) fn minimise_and_jump(&mut self) -> u32 {
        self.minimise();
        for l in &self.learnt[1..] {
            self.seen[l.var() as usize] = false;
        }
        let mut jump = 0;
        for k in 1..self.learnt.len() {
            let lv = self.a.level_of(self.learnt[k].var());
            if lv > jump {
                jump = lv;
                self.learnt.swap(1, k);
            }
        }
        jump
    }

    /// Drop literals implied by the others (MiniSat's recursive minimisation): a literal is
    /// redundant when every other literal of its reason is in the nogood, fixed at level 0,
    /// or itself redundant, recursively. Sound because reasons point backwards on the trail,
    /// so every chain of dropped literals ends in kept ones. A literal whose level holds no
    /// literal of the nogood cannot be redundant (its chain would reach that level's
    /// decision), which prunes the search through the abstract-level mask. What one search
    /// learns about a literal holds for the whole nogood (`MinScratch`), so each literal is
    /// explored at most once per conflict.
    fn minimise(&mut self) {
        let mut mask = 0u64;
        for l in &self.learnt[1..] {
            mask |= abstract_level(self.a.level_of(l.var()));
        }
        #[cfg(test)]
        let expect = self.kept_by_definition(mask);
        self.min_clear.clear();
        let mut keep = 1;
        for k in 1..self.learnt.len() {
            let l = self.learnt[k];
            if self.a.reason[l.var() as usize] == NO_REASON || !self.redundant(l, mask) {
                self.learnt[keep] = l;
                keep += 1;
            } else {
                self.min_clear.push(l.var());
            }
        }
        self.learnt.truncate(keep);
        for i in 0..self.min_clear.len() {
            self.seen[self.min_clear[i] as usize] = false;
        }
        for i in 0..self.min.poisoned.len() {
            self.min.poison[self.min.poisoned[i] as usize] = false;
        }
        self.min.poisoned.clear();
        #[cfg(test)]
        assert_eq!(
            self.learnt[1..],
            expect[..],
            "minimisation differs from the definition of redundancy"
        );
    }

    /// Test oracle: the literals after the UIP that `minimise` must keep, straight from the
    /// definition (memoised recursion over the reasons, touching none of the search's marks):
    /// a literal is dropped when it has a reason whose other literals are each in the nogood,
    /// fixed at level 0, or — with a reason and a level the mask admits — dropped themselves.
    #[cfg(test)]
    fn kept_by_definition(&mut self, mask: u64) -> Vec<Lit> {
        use std::collections::HashMap;
        fn redundant(e: &mut CpuEngine, v: Var, mask: u64, memo: &mut HashMap<Var, bool>) -> bool {
            if let Some(&r) = memo.get(&v) {
                return r;
            }
            let r = e.reason_of(v);
            let mut ok = true;
            for k in 0..e.store.len(r) {
                let x = e.store.lits(r)[k].var();
                if x == v || e.seen[x as usize] || e.a.level_of(x) == 0 {
                    continue;
                }
                if e.a.reason[x as usize] == NO_REASON
                    || abstract_level(e.a.level_of(x)) & mask == 0
                    || !redundant(e, x, mask, memo)
                {
                    ok = false;
                    break;
                }
            }
            memo.insert(v, ok);
            ok
        }
        let mut memo = HashMap::new();
        let learnt = self.learnt[1..].to_vec();
        learnt
            .into_iter()
            .filter(|l| {
                self.a.reason[l.var() as usize] == NO_REASON
                    || !redundant(self, l.var(), mask, &mut memo)
            })
            .collect()
    }

    /// `p` (in the nogood, with a reason) follows from the nogood's other literals: a
    /// depth-first search through the reasons (MiniSat 2.2's `litRedundant`). A literal whose
    /// reason's literals all turned out redundant is marked `seen` (recorded in `min_clear`);
    /// when the search meets a literal that cannot be redundant, every literal on the path to
    /// it is *poisoned* (it depends on that one), so later searches stop there at once. Both
    /// marks are exact — neither depends on which literal's search made it — so the result is
    /// the same as searching afresh every time.
    #[inline(never)]
    fn redundant(&mut self, p: Lit, mask: u64) -> bool {
        self.min.path.clear();
        let mut q = p;
        let mut r = self.reason_of(q.var()); // (agg) builds a sum's lazy reason
        let mut i = 0usize;
        loop {
            if i < self.store.len(r) {
                let x = self.store.lits(r)[i];
                i += 1;
                let v = x.var() as usize;
                if v == q.var() as usize || self.seen[v] || self.a.level[v] == 0 {
                    continue;
                }
                let failed = self.a.reason[v] == NO_REASON
                    || self.min.poison[v]
                    || abstract_level(self.a.level[v]) & mask == 0;
                if failed {
                    // `q` and everything on the path down to it rest on `x`.
                    self.min.path.push((0, q));
                    for k in 0..self.min.path.len() {
                        let y = self.min.path[k].1.var() as usize;
                        if !self.seen[y] && !self.min.poison[y] {
                            self.min.poison[y] = true;
                            self.min.poisoned.push(y as Var);
                        }
                    }
                    return false;
                }
                self.min.path.push((i as u32, q));
                q = x;
                i = 0;
                r = self.reason_of(x.var());
            } else {
                // Every literal of `q`'s reason is in the nogood or redundant: so is `q`.
                let v = q.var() as usize;
                if !self.seen[v] {
                    self.seen[v] = true;
                    self.min_clear.push(v as Var);
                }
                let Some((j, y)) = self.min.path.pop() else {
                    return true;
                };
                q = y;
                i = j as usize;
                r = self.reason_of(y.var());
            }
        }
    }

    /// Learned nogoods taking part in a conflict become more valuable.
    pub(super) fn bump_nogood(&mut self, r: NgRef) {
        if self.store.kind(r) == Kind::Learned {
            let a = self.store.activity(r) + 1.0;
            self.store.set_activity(r, a);
        }
    }
}

/// A 64-bit signature of a decision level, for the quick test in `redundant`.
#[inline]
fn abstract_level(lvl: u32) -> u64 {
    1u64 << (lvl & 63)
}
