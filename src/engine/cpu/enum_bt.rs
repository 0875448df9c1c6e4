//! A model and the search past it: the model's atoms, then either a nogood that blocks it
//! (`blocking_nogood`: under a bound, with outside nogoods, `--enum-mode=record`) or
//! enumeration by backtracking (clasp's default `--enum-mode=bt`; Gebser, Kaufmann, Neumann,
//! Schaub, "Conflict-driven answer set enumeration", LPNMR 2007): after a model, the decision
//! of the highest level is flipped instead of a nogood blocking the model being stored, so
//! memory and propagation do not grow with the models found.
//!
//! The backtrack level `bl`: the levels up to it are the enumeration's branch, each its
//! decision and, at its end, the complement of a decision of the level above that was flipped
//! there (no reason: analysis takes it as a decision). The subtrees of the flipped decisions'
//! other sides are enumerated. So no backtrack goes below `bl` (`backtrack` clamps: a
//! backjump or restart stops at `bl`, and a nogood integrated there is implied at `bl` or
//! found violated), and a conflict at level `bl` means the branch below the highest decision
//! is exhausted: that decision is flipped in turn (`bl` one lower). A conflict above `bl` is
//! analysed as always.
//!
//! Invariant: the models not yet reported are exactly the models within the branch (every
//! level up to `bl` as it is); a model found is reported once, since the flip that follows
//! excludes it; at level 0 with nothing left to flip the enumeration is complete. Units
//! integrated while `bl > 0` (a loop nogood of one literal) sit at `bl`, not 0: they are
//! assigned again after each flip (`units`), and a flip whose branch falsifies one is flipped
//! further. Learned nogoods are consequences of the program alone (the flipped literals are
//! among their literals, never resolved away), so they stay valid in every branch.
//!
//! Only for a plain enumeration, switched on by `Engine::enumerate_by_backtracking`: no bound
//! (`forget` would undo the branch), no assumptions, no nogoods from outside, and resolution
//! learning (forward learning's decision sets count one decision a level).

use super::assign::NO_REASON;
use super::CpuEngine;
use crate::engine::{Learning, Model};
use crate::lit::Lit;

impl CpuEngine {
    /// The true atoms of the input (auxiliary atoms are the analysis's, never a model's).
    pub(super) fn model(&self) -> Model {
        // Without a branch per atom: every model of an enumeration passes here.
        let n = self.input_atoms as usize;
        let vals = &self.a.vals[2..2 * n + 2];
        let mut atoms = vec![0u32; n];
        let mut k = 0;
        for (p, v) in (1..).zip(vals.chunks_exact(2)) {
            atoms[k] = p;
            k += (v[0] > 0) as usize; // `vals[2p]` is `T p`'s
        }
        atoms.truncate(k);
        Model { atoms }
    }

    /// The atoms' literals assigned above level 0 — any other answer set differs on one of
    /// them, since literals of level 0 hold in every later answer set — or, under an
    /// objective's bound, every atom's literal: level 0 then holds what the bound and the
    /// nogoods learned under it imply, and the blocking nogood is permanent (`forget`, for a
    /// bound that admits more, keeps it), so it must exclude this model whatever the bound.
    /// Auxiliary atoms may be among them: each is a function of the input's atoms, so the
    /// nogood excludes this model only.
    pub(super) fn blocking_nogood(&self) -> Vec<Lit> {
        let bounded = self.opt.has_bound();
        (1..=self.num_atoms)
            .filter(|&p| bounded || self.a.level_of(p) > 0)
            .map(|p| {
                if self.a.holds(Lit::t(p)) {
                    Lit::t(p)
                } else {
                    Lit::f(p)
                }
            })
            .collect()
    }

    /// Switch to enumeration by backtracking; false where it does not apply (see above).
    pub(super) fn start_backtracking(&mut self) -> bool {
        let plain = !self.opt.has_bound()
            && self.assumed.is_empty()
            && self.port.is_none()
            && self.opts.learning == Learning::Res;
        if plain && !self.bt {
            self.bt = true;
            self.bl = 0;
        }
        self.bt
    }

    /// After a model, or a conflict at the backtrack level: flip the highest decision at the
    /// level below it, which becomes the backtrack level; false when no decision is left
    /// (every model was reported). Flips further while a permanent unit is false there.
    pub(super) fn flip(&mut self) -> bool {
        loop {
            let d = self.a.level();
            if d == 0 {
                return false;
            }
            let decision = self.a.trail[self.a.lim[d as usize - 1] as usize];
            self.conflict = None; // one found in the branch left
            self.bl = d - 1;
            self.backtrack(d - 1);
            self.stats.propagations += 1;
            self.assign(decision.negate(), NO_REASON);
            if self.units_hold() {
                return true;
            }
        }
    }

    /// The permanent units assigned again where a flip unassigned them; false when one is
    /// false in the branch.
    fn units_hold(&mut self) -> bool {
        // A unit true at level 0 stays so (no flip undoes level 0): the prefix of such units
        // (the input's facts, mostly) is skipped from then on.
        while let Some(&l) = self.units.get(self.units_fixed) {
            if !self.a.holds(l) || self.a.level_of(l.var()) > 0 {
                break;
            }
            self.units_fixed += 1;
        }
        for i in self.units_fixed..self.units.len() {
            let l = self.units[i];
            if self.a.is_unassigned(l.var()) {
                self.stats.propagations += 1;
                self.assign(l, NO_REASON);
            } else if !self.a.holds(l) {
                return false;
            }
        }
        true
    }
}
