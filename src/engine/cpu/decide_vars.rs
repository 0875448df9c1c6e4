//! Decisions on any variable (`--decide=vars`), clasp's way: the unassigned variable of best
//! score — atom, body or auxiliary alike — with clasp's `sign_atom` sign (bodies true,
//! everything else false), or with `--save-progress N` the sign it had when a backjump over
//! more than `N` levels unassigned it (progress saving); with `--phase-switch C` too, the
//! fixed and the saved signs take turns (C conflicts each, then 2C each, ...), since neither
//! wins everywhere (below). Saving goes on in both turns.
//!
//! Measured side by side (res learning, 20 s, 19 instances the default mode fails on or
//! solves slowly): the fixed sign solved 12, saving on backjumps over 10 levels 11, saving on
//! every backjump 9. The fixed sign wins on incsched, sokoban, graphcol, labyrinth; saving
//! on hamiltonian, knighttour, visitall.
//!
//! Invariant (this mode): every unassigned variable `1..num_vars` is in the score heap (all
//! are inserted at the start and each is re-inserted when backtracking unassigns it), so an
//! empty heap after skipping assigned variables means the assignment is total. `saved[v]` is
//! the sign of `v`'s next decision.
//!
//! Soundness does not depend on what is decided: propagation (completion, loop nogoods at
//! every fixpoint) and the unfounded-set check of total assignments in `search` are the same
//! for any decision literal, and both learning schemes only need a decision to have no reason.

use super::CpuEngine;
use crate::lit::{Lit, Var};

#[derive(Debug, Default)]
pub struct SavedPhases {
    /// By variable: the saved sign (clasp's `sign_atom` until a backjump saves one).
    saved: Vec<bool>,
    /// By variable: clasp's `sign_atom` (bodies true).
    fixed: Vec<bool>,
    /// Decide with `saved` (else with `fixed`; `--phase-switch` alternates).
    pub use_saved: bool,
}

impl SavedPhases {
    /// `is_body(v)`: `v` stands for a rule body and is no atom.
    pub fn new(num_vars: usize, is_body: impl Fn(Var) -> bool) -> SavedPhases {
        let fixed: Vec<bool> = (0..num_vars as Var).map(is_body).collect();
        SavedPhases {
            saved: fixed.clone(),
            fixed,
            use_saved: true,
        }
    }

    /// `l` is being unassigned: decide its variable the same way next time.
    #[inline]
    pub fn save(&mut self, l: Lit) {
        self.saved[l.var() as usize] = l.is_true();
    }

    #[inline]
    pub fn lit(&self, v: Var) -> Lit {
        let signs = if self.use_saved {
            &self.saved
        } else {
            &self.fixed
        };
        Lit::new(v, signs[v as usize])
    }
}

/// `--phase-switch C`: when the next switch between fixed and saved signs is due.
#[derive(Debug)]
pub struct PhaseSwitch {
    /// Conflicts of the current period.
    period: u64,
    /// Conflict count at which it ends.
    at: u64,
}

impl PhaseSwitch {
    /// Starts with the fixed signs (`phases.use_saved` false) for `c` conflicts.
    pub fn new(c: u64, phases: &mut SavedPhases) -> PhaseSwitch {
        phases.use_saved = false;
        PhaseSwitch { period: c, at: c }
    }

    /// True when a period ended at `conflicts`: `phases` switched, the next period scheduled
    /// (twice as long after a period with the saved signs).
    pub fn due(&mut self, conflicts: u64, phases: &mut SavedPhases) -> bool {
        if conflicts < self.at {
            return false;
        }
        phases.use_saved = !phases.use_saved;
        if !phases.use_saved {
            self.period = self.period.saturating_mul(2);
        }
        self.at = conflicts.saturating_add(self.period);
        true
    }
}

impl CpuEngine {
    /// The next decision of `--decide=vars`: the unassigned variable of highest score with its
    /// saved sign, or `None` when every variable is assigned — or when `pops` variables were
    /// taken from the heap (it is then 0; `pops` counts down the ones taken).
    pub(super) fn decide_var(&mut self, pops: &mut u32) -> Option<Lit> {
        // `--heuristic=domain`: the program's `#heuristic` levels first, and its signs.
        if let Some(d) = &self.domain {
            if let Some(v) = d.leveled(&self.a) {
                return Some(d.sign(&self.a, v).unwrap_or_else(|| self.phases.lit(v)));
            }
        }
        while *pops > 0 {
            let Some(v) = self.scores.pop() else { break };
            *pops -= 1;
            if self.a.is_unassigned(v) {
                let sign = self.domain.as_ref().and_then(|d| d.sign(&self.a, v));
                return Some(sign.unwrap_or_else(|| self.phases.lit(v)));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phases_start_from_sign_atom_and_follow_saves() {
        let mut p = SavedPhases::new(4, |v| v == 3);
        assert_eq!(p.lit(1), Lit::f(1));
        assert_eq!(p.lit(3), Lit::t(3));
        p.save(Lit::t(1));
        p.save(Lit::f(3));
        assert_eq!(p.lit(1), Lit::t(1));
        assert_eq!(p.lit(3), Lit::f(3));
    }

    #[test]
    fn phase_switch_alternates_with_growing_periods() {
        let mut p = SavedPhases::new(4, |v| v == 3);
        p.save(Lit::t(1));
        let mut s = PhaseSwitch::new(10, &mut p);
        assert_eq!(p.lit(1), Lit::f(1), "fixed signs first");
        let mut switches = Vec::new();
        for c in 0..100 {
            if s.due(c, &mut p) {
                switches.push((c, p.use_saved));
            }
        }
        // Fixed 10, saved 10, fixed 20, saved 20, fixed 40.
        assert_eq!(switches, [(10, true), (20, false), (40, true), (60, false)]);
        assert_eq!(p.lit(1), Lit::f(1));
        assert!(s.due(100, &mut p));
        assert_eq!(
            p.lit(1),
            Lit::t(1),
            "the saved sign survives the fixed periods"
        );
    }
}
