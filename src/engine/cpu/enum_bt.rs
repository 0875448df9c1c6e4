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
//! Projective enumeration (`Engine::enumerate_projected`; Gebser, Kaufmann, Schaub, "Solution
//! enumeration for projected Boolean search problems", CPAIOR 2009) is the same search with
//! two changes: while a projection atom is unassigned, the decision is on one (`F p`, the
//! lowest first: `Projection::cursor`); and after a model, the decision flipped is the deepest
//! one on a projection atom, the decisions above it (on other atoms) being undone. A decision
//! on another atom is made only when every projection atom is assigned, so at a model the
//! levels up to the deepest projection decision assign every projection atom: every model of
//! the branch that keeps that decision has the model's projection, and none of those left after
//! the flip has it. The invariant reads with projections: the projections not yet reported are
//! exactly those of the models within the branch, and no model within it has a projection
//! reported; the levels up to `bl` all decide projection atoms. No nogood is stored for a
//! projection (clasp 3 adds one per level of the branch, as it does not decide projection atoms
//! first).
//!
//! Only for a plain enumeration, switched on by `Engine::enumerate_by_backtracking` (or
//! `enumerate_projected`): no bound (`forget` would undo the branch), no assumptions, no nogoods
//! from outside, and resolution learning (forward learning's decision sets count one decision a
//! level).

use super::assign::NO_REASON;
use super::CpuEngine;
use crate::engine::{Learning, Model};
use crate::lit::{Lit, Var};

/// The projection atoms of a projective enumeration, decided first.
#[derive(Debug)]
pub(super) struct Projection {
    /// Sorted, distinct.
    atoms: Vec<Var>,
    /// By variable: its index in `atoms` (`u32::MAX`: not a projection atom).
    index: Vec<u32>,
    /// Every atom of `atoms[..cursor]` is assigned (lowered when one is unassigned).
    pub cursor: u32,
}

impl Projection {
    fn new(mut atoms: Vec<Var>, num_vars: usize) -> Projection {
        atoms.sort_unstable();
        atoms.dedup();
        let mut index = vec![u32::MAX; num_vars];
        for (i, &p) in atoms.iter().enumerate() {
            index[p as usize] = i as u32;
        }
        Projection {
            atoms,
            index,
            cursor: 0,
        }
    }

    /// `v` was unassigned.
    #[inline]
    pub fn unassigned(&mut self, v: Var) {
        self.cursor = self.cursor.min(self.index[v as usize]);
    }

    fn holds(&self, v: Var) -> bool {
        self.index[v as usize] != u32::MAX
    }
}

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

    /// Switch to projective enumeration over `atoms` (atoms of the input); false where
    /// enumeration by backtracking does not apply, or it is on already without a projection.
    /// The search starts over (at level 0) so that every decision from now on follows the
    /// projection; the classes reported before are the caller's to block (`add_nogood`).
    pub(super) fn start_projecting(&mut self, atoms: &[u32]) -> bool {
        if self.bt {
            return self.proj.is_some();
        }
        if !self.start_backtracking() {
            return false;
        }
        let atoms = atoms
            .iter()
            .copied()
            .filter(|&p| p >= 1 && p <= self.num_atoms)
            .collect();
        self.proj = Some(Projection::new(atoms, self.a.level.len()));
        self.backtrack(0);
        true
    }

    /// The decision on a projection atom while one is unassigned (projective enumeration).
    #[inline]
    pub(super) fn decide_projected(&mut self) -> Option<Lit> {
        let p = self.proj.as_mut()?;
        while let Some(&v) = p.atoms.get(p.cursor as usize) {
            if self.a.is_unassigned(v) {
                return Some(Lit::f(v));
            }
            p.cursor += 1;
        }
        None
    }

    /// Projective enumeration, after a model: undo the levels above the deepest decision on
    /// a projection atom (above the backtrack level; else the backtrack level's, the decision
    /// that `flip` flips then).
    fn undo_to_projection(&mut self) {
        let Some(p) = &self.proj else { return };
        let mut d = self.a.level();
        while d > self.bl && !p.holds(self.a.decision(d).var()) {
            d -= 1;
        }
        self.backtrack(d);
    }

    /// After a model, or a conflict at the backtrack level: flip the highest decision at the
    /// level below it (projective enumeration: the deepest on a projection atom), which
    /// becomes the backtrack level; false when no decision is left (every model was
    /// reported). Flips further while a permanent unit is false there.
    pub(super) fn flip(&mut self) -> bool {
        self.undo_to_projection();
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
