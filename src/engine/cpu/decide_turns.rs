//! `--decide=alternate`: decisions on any variable (`decide_vars.rs`) and decisions on
//! applicable rules (`decide.rs`) take turns, switched at a restart: [`TURN`] conflicts on
//! variables, as many on rules, then twice as many each, and so on. Neither mode wins
//! everywhere: on variables the search is clasp's, on rules it follows ASP computations, which
//! find models of some classes in a fraction of the conflicts (build machine, one thread:
//! partnerunits 195 solved by rules in 3.4k conflicts, by variables not in 91k (20 s);
//! graceful 0020 by rules in 29k conflicts, by variables not within 60 s on the H100 host);
//! what is learned in one turn stays for the next.
//!
//! Invariant: a switch happens at decision level 0, right after a restart's backtrack, and
//! leaves what the new mode's decisions rely on: the score heap holds every variable (vars)
//! or every candidate (rules), `parked` is empty, and the rule counters (`pos_missing`), which
//! decisions on variables let rest, are counted again from the assignment. Soundness does not
//! depend on the mode (see `decide_vars.rs`).

use super::CpuEngine;
use crate::lit::Var;

/// Conflicts of the first turn: `HostOptions::decide_turn`'s default (`--decide-turn`).
pub const TURN: u64 = 2000;

/// When the current turn ends.
#[derive(Debug)]
pub struct Turns {
    /// Conflicts of the current turn.
    period: u64,
    /// Conflict count at which it ends.
    at: u64,
}

impl Turns {
    /// Starts with decisions on variables for `turn` conflicts.
    pub fn new(turn: u64) -> Turns {
        Turns {
            period: turn,
            at: turn,
        }
    }

    /// True when the turn ended at `conflicts` (`on_vars`: the turn was on variables); the next
    /// one is scheduled, twice as long after a turn on rules.
    pub fn due(&mut self, conflicts: u64, on_vars: bool) -> bool {
        if conflicts < self.at {
            return false;
        }
        if !on_vars {
            self.period = self.period.saturating_mul(2);
        }
        self.at = conflicts.saturating_add(self.period);
        true
    }
}

impl CpuEngine {
    /// Switch between decisions on variables and on rules (at a restart: level 0, or the
    /// backtrack level when enumerating by backtracking, `enum_bt`; nothing here needs level 0).
    pub(super) fn switch_decisions(&mut self) {
        let restart = if self.bt { self.bl } else { 0 };
        debug_assert_eq!(self.a.level(), restart, "decisions switch at a restart");
        self.vars = !self.vars;
        self.parked.clear();
        self.scores.clear();
        if !self.vars {
            self.rules.recount(&self.a, self.num_atoms);
            self.cursor = 1;
        }
        let n = self.a.level.len() as Var;
        for v in 1..n {
            if self.a.is_unassigned(v) && (self.vars || self.rules.is_candidate(v)) {
                self.scores.insert(v);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_alternate_with_growing_periods() {
        let mut t = Turns::new(TURN);
        let mut on_vars = true;
        let mut switches = Vec::new();
        for c in 0..20 * TURN {
            if t.due(c, on_vars) {
                on_vars = !on_vars;
                switches.push(c / TURN);
            }
        }
        // vars 1, rules 1, vars 2, rules 2, vars 4, rules 4, ...
        assert_eq!(switches, [1, 2, 4, 6, 10, 14]);
    }
}
