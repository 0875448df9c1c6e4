//! Resolution learning to the first unique implication point (the paper's Algorithm 3, clasp's
//! scheme), with local minimisation.
//!
//! Invariant: the learned nogood (left in `self.learnt`) is derived from the violated nogood by
//! resolution steps on reasons, so every assignment satisfying the stored nogoods satisfies it;
//! all its literals hold, exactly one (the UIP, at `learnt[0]`) is of the conflict level, and
//! the returned level is the highest level among the others (0 if none).

use super::assign::NO_REASON;
use super::store::{Kind, NgRef};
use super::CpuEngine;
use crate::lit::Lit;

impl CpuEngine {
    /// Analyse the violated nogood `confl` (which has a literal at the current level). Returns
    /// the backjump level, or `None` when the conflict does not depend on any decision.
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
                self.scores.bump(l.var());
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
            reason = self.a.reason[p.var() as usize];
            debug_assert_ne!(reason, NO_REASON, "only the UIP may be a decision");
            resolved = Some(p);
        }
        if cur == 0 {
            return None;
        }
        self.minimise();
        for l in &self.learnt[1..] {
            self.seen[l.var() as usize] = false;
        }
        // learnt[1] = the highest of the rest: the backjump level.
        let mut jump = 0;
        for k in 1..self.learnt.len() {
            let lv = self.a.level_of(self.learnt[k].var());
            if lv > jump {
                jump = lv;
                self.learnt.swap(1, k);
            }
        }
        Some(jump)
    }

    /// Drop literals implied by the others: a literal whose reason's other literals are all in
    /// the nogood (or fixed at level 0) adds nothing. Sound although dropped literals stay
    /// marked while the rest are checked: reasons point backwards on the trail, so every chain
    /// of dropped literals ends in kept ones.
    fn minimise(&mut self) {
        let mut keep = 1;
        let mut dropped = Vec::new();
        for k in 1..self.learnt.len() {
            let l = self.learnt[k];
            let r = self.a.reason[l.var() as usize];
            let redundant = r != NO_REASON
                && self.store.lits(r).iter().all(|&x| {
                    x.var() == l.var()
                        || self.seen[x.var() as usize]
                        || self.a.level_of(x.var()) == 0
                });
            if redundant {
                dropped.push(l);
            } else {
                self.learnt[keep] = l;
                keep += 1;
            }
        }
        self.learnt.truncate(keep);
        for l in dropped {
            self.seen[l.var() as usize] = false;
        }
    }

    /// Learned nogoods taking part in a conflict become more valuable.
    fn bump_nogood(&mut self, r: NgRef) {
        if self.store.kind(r) == Kind::Learned {
            let a = self.store.activity(r) + 1.0;
            self.store.set_activity(r, a);
        }
    }
}
