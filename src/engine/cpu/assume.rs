//! Search under assumptions (MiniSat's way), for core-guided optimisation
//! (`engine/core_opt.rs`): the assumed literals are the first decisions, one per level, in
//! order (one that already holds takes no level); only when all hold does the heuristic
//! decide. An assumption found false ends the search with a *core*: the assumptions that,
//! with the nogoods, imply its complement (the reasons followed back from it, `analyse_final`).
//!
//! Invariant: `held[i]` is the highest level among the first `i + 1` assumptions, all of which
//! hold (so a backjump to level `l` keeps the entries `≤ l`). While an assumption is unassigned
//! or false, every decision on the trail is an assumption (`search` asks [`CpuEngine::next_assumption`] before `decide`, after every
//! backjump and restart too), so the decisions met walking back from a false assumption are
//! assumptions; a core is a set of assumptions that no model of the nogoods satisfies
//! together (learned nogoods are consequences of the input's, never of an assumption).
//! Every assumption holds in a model the search reports.

use super::assign::NO_REASON;
use super::CpuEngine;
use crate::lit::Lit;

/// What the assumptions ask of the search at a decision point.
pub(super) enum Assumed {
    /// Decide this assumption next.
    Decide(Lit),
    /// All hold: the heuristic decides.
    AllHold,
    /// This assumption is false: the search ends with the core built from it.
    False(Lit),
}

impl CpuEngine {
    /// Search with `lits` assumed (an empty list: no assumptions); undoes every decision.
    pub fn set_assumptions(&mut self, lits: &[Lit]) {
        self.backtrack(0);
        self.assumed = lits.to_vec();
        self.held.clear();
        self.core = None;
    }

    /// [`CpuEngine::set_assumptions`], keeping the decision levels of the leading
    /// assumptions that `lits` shares with the current ones and that hold: the levels up to
    /// the `i`-th held one are assumptions among the first `i + 1` (module doc), so the
    /// trail below is what `lits` would rebuild. A tester that asks many questions differing
    /// in a few assumptions, the stable ones first, skips most of their propagation.
    pub fn reassume(&mut self, lits: &[Lit]) {
        let same = (self.assumed.iter().zip(lits))
            .take(self.held.len())
            .take_while(|(a, b)| a == b)
            .count();
        let keep = match same {
            0 => 0,
            n => self.held[n - 1],
        };
        self.backtrack(keep);
        self.assumed.clear();
        self.assumed.extend_from_slice(lits);
        self.held.truncate(same);
        self.core = None;
    }

    /// The last model found is not blocked when the search goes on: a search that answers
    /// one question per set of assumptions (the minimality check's tester,
    /// `wrap/minimality_check/tester.rs`) must find the same model again under other
    /// assumptions. Learned nogoods stay: none rests on an assumption.
    pub fn unblock_last_model(&mut self) {
        self.block = None;
    }

    /// The next assumption to decide, or the false one, past the prefix known to hold
    /// (`held`): O(1) amortised per decision, however many assumptions there are.
    pub(super) fn next_assumption(&mut self) -> Assumed {
        while let Some(&l) = self.assumed.get(self.held.len()) {
            if self.a.is_unassigned(l.var()) {
                return Assumed::Decide(l);
            }
            if !self.a.holds(l) {
                return Assumed::False(l);
            }
            let below = self.held.last().copied().unwrap_or(0);
            self.held.push(below.max(self.a.level_of(l.var())));
        }
        Assumed::AllHold
    }

    /// Backtracking to level `lvl`: the leading assumptions that held only above it are open
    /// again.
    #[inline]
    pub(super) fn assumptions_backtrack(&mut self, lvl: u32) {
        while self.held.last().is_some_and(|&m| m > lvl) {
            self.held.pop();
        }
    }

    /// The assumptions that imply `¬a` for the false assumption `a`, with `a` (MiniSat's
    /// `analyzeFinal`): the reasons of the trail's literals followed back from `¬a` to the
    /// decisions they rest on. Leaves `seen` clear.
    pub(super) fn analyse_final(&mut self, a: Lit) -> Vec<Lit> {
        let mut core = vec![a];
        let v = a.var();
        if self.a.level_of(v) == 0 {
            return core;
        }
        self.seen[v as usize] = true;
        let start = self.a.lim[0] as usize;
        for idx in (start..self.a.trail.len()).rev() {
            let p = self.a.trail[idx];
            let pv = p.var();
            if !self.seen[pv as usize] {
                continue;
            }
            self.seen[pv as usize] = false;
            let r = self.reason_of(pv);
            if r == NO_REASON {
                // A decision below a false assumption is an assumption (module invariant).
                debug_assert!(
                    self.assumed.contains(&p),
                    "a decision that is no assumption"
                );
                core.push(p);
                continue;
            }
            for k in 0..self.store.len(r) {
                let l = self.store.lits(r)[k];
                let lv = l.var();
                if l == p.negate() || self.a.level_of(lv) == 0 {
                    continue;
                }
                self.seen[lv as usize] = true;
            }
        }
        core
    }
}
