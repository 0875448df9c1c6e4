//! Forward learning's conflict analysis (see the parent module for the sets it reads):
//! `--fwd-cut=decisions` and `uip` from the decision-level sets, `lits` from the lower-level
//! and between sets, and `lits`' fallback.

use super::super::assign::NO_REASON;
use super::super::store::NgRef;
use super::super::CpuEngine;
use super::{words_for, NONE};
use crate::lit::Lit;

impl CpuEngine {
    /// Forward learning on the violated nogood `confl`, into `self.learnt` (asserting literal
    /// first). `--fwd-cut=decisions`: the decisions of the union of its literals' sets, highest
    /// level first. `--fwd-cut=uip`: the union of the sets of its literals of the conflict
    /// level only; its literals of lower levels whose sets are not within that union are kept
    /// as they are (each is implied by its own set, so either stands for it); and the
    /// conflict level's decision is replaced by the level's UIP (`dom`). `--fwd-cut=lits`:
    /// [`Self::analyse_fwd_lits`], or where it learns nothing [`Self::analyse_fwd_fallback`].
    /// Returns the backjump level (the highest level of the rest), or `None` if the conflict
    /// depends on no decision.
    pub(in crate::engine::cpu) fn analyse_fwd(&mut self, confl: NgRef) -> Option<u32> {
        let level = self.a.level();
        if self.deps.lits {
            if let Some(jump) = self.analyse_fwd_lits(confl) {
                return Some(jump);
            }
            self.stats.fwd_lits_unknown += 1;
            return self.analyse_fwd_fallback(confl);
        }
        // The decision nogood says little about where the conflict happened: the violated
        // nogood's variables (here) and the learned ones (below) tell the heuristic.
        self.bump_violated(confl);
        let mut acc = vec![0u64; words_for(level)];
        // The literals kept as they are (`uip`), in the scratch vector resolution's
        // minimisation uses (idle during forward learning).
        let mut kept = std::mem::take(&mut self.min_stack);
        kept.clear();
        if self.deps.uip {
            for &l in self.store.lits(confl) {
                if self.a.level_of(l.var()) == level {
                    self.deps.or_into(&self.a, l, &mut acc);
                }
            }
            for &l in self.store.lits(confl) {
                let lv = self.a.level_of(l.var());
                if lv != level && lv != 0 && !self.deps.subset_of(&self.a, l, &acc) {
                    kept.push(l);
                }
            }
        } else {
            for &l in self.store.lits(confl) {
                self.deps.or_into(&self.a, l, &mut acc);
            }
        }
        self.learnt.clear();
        for (w, &word) in acc.iter().enumerate().rev() {
            let mut bits = word;
            while bits != 0 {
                let b = 63 - bits.leading_zeros() as usize;
                bits &= !(1u64 << b);
                let lvl = (w * 64 + b + 1) as u32;
                self.learnt.push(self.a.decision(lvl));
            }
        }
        if self.deps.uip && self.learnt.first() == Some(&self.a.decision(level)) {
            self.learnt[0] = self.uip(confl);
        }
        let mut jump = self.learnt.get(1).map_or(0, |l| self.a.level_of(l.var()));
        for &l in &kept {
            jump = jump.max(self.a.level_of(l.var()));
        }
        self.learnt.extend_from_slice(&kept);
        self.min_stack = kept;
        self.bump_learnt();
        let top = *self.learnt.first()?;
        debug_assert_eq!(
            self.a.level_of(top.var()),
            level,
            "a conflict depends on its level"
        );
        Some(jump)
    }

    /// `--fwd-cut=lits` on `confl`: into `self.learnt`, the UIP, then the lower-level
    /// literals of `confl` and the sets of the dominator chains from its literals of the
    /// conflict level up to the UIP, minimised as resolution's are. Returns the backjump
    /// level, or `None` (nothing learned) when one of those sets is unknown or no literal of
    /// `confl` is of the conflict level.
    fn analyse_fwd_lits(&mut self, confl: NgRef) -> Option<u32> {
        let level = self.a.level();
        let lits = self.store.lits(confl);
        if !lits.iter().any(|l| self.a.level_of(l.var()) == level) {
            return None;
        }
        let uip = self.uip(confl);
        let uip_pos = self.a.trail_pos[uip.var() as usize];
        self.learnt.clear();
        self.learnt.push(uip);
        if !self
            .deps
            .conflict_lits(&self.a, lits, uip_pos, &mut self.learnt)
        {
            return None;
        }
        for l in &self.learnt[1..] {
            self.seen[l.var() as usize] = true;
        }
        // The heuristic, as resolution's: every literal met, before minimisation, and the
        // reasons resolved on (those of the between set).
        self.bump_learnt();
        self.bump_nogood(confl);
        let base = self.deps.between_base as usize;
        for w in 0..self.deps.between_len {
            let mut bits = self.deps.between[w];
            while bits != 0 {
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                self.bump_resolved(base + w * 64 + b);
            }
        }
        Some(self.minimise_and_jump())
    }

    /// Bump, as resolution does, the variable at trail position `p` and its reason.
    fn bump_resolved(&mut self, p: usize) {
        let v = self.a.trail[p].var();
        self.bump_var(v);
        let r = self.a.reason[v as usize];
        if r != NO_REASON && r != super::super::sums::LAZY {
            self.bump_nogood(r);
        }
    }

    /// `--fwd-cut=lits` when a set is unknown: the UIP and the decisions of every lower
    /// level (implied: the UIP is on every path from the level's decision to the conflict,
    /// and those decisions imply everything of lower levels). Returns the backjump level.
    fn analyse_fwd_fallback(&mut self, confl: NgRef) -> Option<u32> {
        let level = self.a.level();
        self.bump_violated(confl);
        self.learnt.clear();
        self.learnt.push(self.uip(confl));
        for lvl in (1..level).rev() {
            self.learnt.push(self.a.decision(lvl));
        }
        self.bump_learnt();
        Some(level - 1)
    }

    /// Bump the activity of the variables of the violated nogood `confl` (where the learned
    /// nogood says little about where the conflict happened).
    fn bump_violated(&mut self, confl: NgRef) {
        for i in 0..self.store.lits(confl).len() {
            let v = self.store.lits(confl)[i].var();
            self.bump_var(v);
        }
    }

    /// Bump the activity of the variables of `self.learnt`.
    fn bump_learnt(&mut self) {
        for k in 0..self.learnt.len() {
            self.bump_var(self.learnt[k].var());
        }
    }

    /// The nearest common dominator of the literals of the conflict level in `confl` that
    /// depend on the level's decision (the decision itself if none does).
    fn uip(&self, confl: NgRef) -> Lit {
        let level = self.a.level();
        let mut u = NONE;
        for &l in self.store.lits(confl) {
            if self.a.level_of(l.var()) != level {
                continue;
            }
            let p = self.a.trail_pos[l.var() as usize];
            if self.deps.dom[p as usize] != NONE {
                u = if u == NONE { p } else { self.deps.meet(u, p) };
            }
        }
        if u == NONE {
            self.a.decision(level)
        } else {
            self.a.trail[u as usize]
        }
    }
}
