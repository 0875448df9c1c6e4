//! Unit propagation and unfounded-set propagation to their common fixpoint, and the loop
//! nogoods that make the atoms of an unfounded set false.
//!
//! Invariant: when [`CpuEngine::propagate_all`] returns `None` without setting `unsat`, no
//! stored nogood is violated or unit-unpropagated (the watch invariant) and every atom of a
//! cyclic component is false or has a source ([`super::source`]; a broken invariant there is
//! caught by a guard and left to the total-assignment check); every loop nogood went
//! through [`CpuEngine::integrate`], so the `F p` it implies is assigned at the highest level
//! of its other literals with the nogood as its reason (both learning schemes read it so).

use super::integrate::Added;
use super::store::{Kind, NgRef};
use super::CpuEngine;
use crate::lit::Lit;

/// Most loop nogoods one unfounded set yields when none of its atoms is true; the atoms left
/// unassigned are found again by the next round.
const MAX_PER_SET: usize = 32;

/// What one round of unfounded-set propagation did.
enum Round {
    /// Every cyclic atom is sourced or false.
    Fixpoint,
    /// Loop nogoods were added and propagated: unit propagation runs again.
    Added,
    Conflict(NgRef),
    Unsat,
}

impl CpuEngine {
    /// Unit propagation and unfounded-set propagation to their common fixpoint. Returns a
    /// violated nogood (with a literal at the current level), or `None` — then either the
    /// fixpoint is reached or `self.unsat` is set.
    pub(super) fn propagate_all(&mut self) -> Option<NgRef> {
        loop {
            // Unit propagation and the native sums (`sums.rs`) to their joint fixpoint first.
            if let Some(c) = self.propagate_with_sums() {
                return Some(c);
            }
            if !self.src.active() {
                return None;
            }
            match self.propagate_unfounded() {
                Round::Fixpoint => {
                    debug_assert!(self.src.consistent(&self.rules, &self.a));
                    return None;
                }
                Round::Added => {}
                Round::Conflict(r) => return Some(r),
                Round::Unsat => {
                    self.unsat = true;
                    return None;
                }
            }
        }
    }

    /// Find one unfounded set and add the loop nogoods of its atoms: if one is true, only
    /// that of the true atom of the lowest level (a conflict, or an assertion after a
    /// backjump); else those of its unassigned atoms, which make them false. The nogoods are
    /// `Learned`: they hold in every answer set, and one that is deleted is derived again by
    /// this propagation whenever it would apply, so deleting them loses nothing.
    /// [`CpuEngine::integrate`] gives each the engine's invariants: the implied `F p` is
    /// assigned at the highest level of the external bodies (backjumping there if that is
    /// below the current level), with the nogood as its reason for both learning schemes.
    fn propagate_unfounded(&mut self) -> Round {
        self.src.scan(&self.rules, &self.a);
        let Some(ext) = self.src.unfounded(&self.rules, &self.a) else {
            return Round::Fixpoint;
        };
        let a = &self.a;
        if !ext.iter().all(|&l| a.holds(l)) {
            // Cannot happen (module invariant); were it to, adding a nogood that propagates
            // nothing would repeat forever. Leave it to the total-assignment check instead.
            debug_assert!(false, "an external body of an unfounded set is not false");
            self.src.done();
            self.src.inexact();
            return Round::Fixpoint;
        }
        let set = self.src.set();
        let targets: Vec<u32> = match set
            .iter()
            .copied()
            .filter(|&q| a.holds(Lit::t(q)))
            .min_by_key(|&q| a.level_of(q))
        {
            Some(p) => vec![p],
            None => set
                .iter()
                .copied()
                .filter(|&q| a.is_unassigned(q))
                .take(MAX_PER_SET)
                .collect(),
        };
        self.src.done();
        self.stats.unfounded_sets += 1;
        let mut ng = Vec::with_capacity(ext.len() + 1);
        for p in targets {
            if self.a.is_false(Lit::t(p)) {
                continue;
            }
            ng.clear();
            ng.push(Lit::t(p));
            ng.extend_from_slice(&ext);
            let lbd = self.lbd(&ng);
            self.stats.loop_nogoods += 1;
            self.src.loops += 1;
            match self.integrate(&ng, Kind::Learned, lbd) {
                Added::Ok => {}
                Added::Conflict(r) => return Round::Conflict(r),
                Added::Unsat => return Round::Unsat,
            }
        }
        Round::Added
    }
}
