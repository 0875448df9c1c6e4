//! Forward learning (the paper's Algorithm 2 line 18 and Algorithm 4): every assigned literal
//! carries the set of decision levels it depends on; a conflict's learned nogood is the set of
//! decisions of the union of its literals' sets.
//!
//! The sets are growable bitsets, exact at any decision depth: the set of a literal of level
//! `i` uses `ceil(i / 64)` words (it can only hold levels `1..=i`), stored in one arena in trail
//! order, so backtracking truncates it. Only when the arena would pass [`BUDGET_WORDS`] does the
//! engine stop recording sets, and conflicts are then analysed by resolution (`learn_res`)
//! until backtracking returns below the point where recording stopped.
//!
//! Invariant: while `usable()`, the set of every assigned literal is: `{i}` for the decision
//! of level `i`; `{}` at level 0; otherwise the union of the sets of the other literals of its
//! reason. By induction each literal is implied by the stored nogoods and the decisions of its
//! set, so the decisions of a conflict's union form a nogood implied by the stored ones.

use super::assign::{Assignment, NO_REASON};
use super::store::{NgRef, Store};
use super::CpuEngine;
use crate::lit::Lit;

/// Most arena words (8 bytes each) the dependency sets may hold: 256 MiB.
pub const BUDGET_WORDS: usize = 1 << 25;

#[inline]
fn words_for(level: u32) -> usize {
    level.div_ceil(64) as usize
}

#[derive(Debug, Default)]
pub struct Deps {
    enabled: bool,
    /// By trail position: where the literal's set starts in `words`.
    start: Vec<u32>,
    words: Vec<u64>,
    /// Trail position from which no sets were recorded (arena full).
    broken_at: Option<usize>,
    budget: usize,
}

impl Deps {
    pub fn new(enabled: bool) -> Self {
        Deps {
            enabled,
            budget: BUDGET_WORDS,
            ..Deps::default()
        }
    }

    /// Sets are recorded for the whole trail.
    pub fn usable(&self) -> bool {
        self.enabled && self.broken_at.is_none()
    }

    #[cfg(test)]
    pub fn set_budget(&mut self, words: usize) {
        self.budget = words;
    }

    /// Record the set of `l`, just pushed on the trail with `reason`.
    #[inline]
    pub fn on_assign(&mut self, a: &Assignment, store: &Store, l: Lit, reason: u32) {
        if !self.enabled {
            return;
        }
        let t = a.trail.len() - 1;
        debug_assert_eq!(self.start.len(), t);
        let base = self.words.len();
        self.start.push(base as u32);
        if self.broken_at.is_some() {
            return;
        }
        let lvl = a.level_of(l.var());
        let n = words_for(lvl);
        if base + n > self.budget || base + n > u32::MAX as usize {
            self.broken_at = Some(t);
            return;
        }
        self.words.resize(base + n, 0);
        if lvl == 0 {
            return;
        }
        // (agg) A sum's implied literal: its set comes from the sum (`or_into_last`).
        if reason == super::sums::LAZY {
            return;
        }
        if reason == NO_REASON {
            let b = (lvl - 1) as usize;
            self.words[base + b / 64] |= 1 << (b % 64);
            return;
        }
        for &x in store.lits(reason) {
            if x.var() == l.var() {
                continue;
            }
            let xl = a.level_of(x.var());
            let xs = self.start[a.trail_pos[x.var() as usize] as usize] as usize;
            for k in 0..words_for(xl) {
                self.words[base + k] |= self.words[xs + k];
            }
        }
    }

    /// The trail was cut back to `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if !self.enabled || self.start.len() <= len {
            return;
        }
        self.words.truncate(self.start[len] as usize);
        self.start.truncate(len);
        if self.broken_at.is_some_and(|b| b >= len) {
            self.broken_at = None;
        }
    }

    /// (agg) OR `set` into the set of the literal assigned last (the sum propagator gives the
    /// set of a literal with a lazy reason this way: the union over that reason).
    pub fn or_into_last(&mut self, set: &[u64]) {
        if !self.usable() {
            return;
        }
        let base = *self.start.last().expect("a literal was assigned") as usize;
        let n = self.words.len() - base;
        for (w, &s) in self.words[base..].iter_mut().zip(&set[..set.len().min(n)]) {
            *w |= s;
        }
    }

    /// OR the set of the (assigned) variable of `l` into `acc`.
    pub(super) fn or_into(&self, a: &Assignment, l: Lit, acc: &mut [u64]) {
        let v = l.var() as usize;
        let s = self.start[a.trail_pos[v] as usize] as usize;
        for k in 0..words_for(a.level[v]) {
            acc[k] |= self.words[s + k];
        }
    }
}

impl CpuEngine {
    /// Forward learning on the violated nogood `confl`: the learned nogood (in `self.learnt`)
    /// is the decisions of the union of its literals' sets, highest level first. Returns the
    /// backjump level (the second-highest level of the union), or `None` if the union is empty.
    pub(super) fn analyse_fwd(&mut self, confl: NgRef) -> Option<u32> {
        let mut acc = vec![0u64; words_for(self.a.level())];
        for &l in self.store.lits(confl) {
            self.deps.or_into(&self.a, l, &mut acc);
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
        let top = *self.learnt.first()?;
        debug_assert_eq!(
            self.a.level_of(top.var()),
            self.a.level(),
            "a conflict depends on its level"
        );
        Some(self.learnt.get(1).map_or(0, |l| self.a.level_of(l.var())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_follow_reasons_and_truncate() {
        let mut st = Store::default();
        let mut a = Assignment::new(6);
        let mut d = Deps::new(true);
        // level 1: decide T1; level 2: decide T2; nogood {T1, T2, T3} propagates F3.
        let r = st.add(
            &[Lit::t(1), Lit::t(2), Lit::t(3)],
            super::super::store::Kind::Input,
            0,
        );
        for (lit, reason, new_level) in [
            (Lit::t(1), NO_REASON, true),
            (Lit::t(2), NO_REASON, true),
            (Lit::f(3), r, false),
        ] {
            if new_level {
                a.lim.push(a.trail.len() as u32);
            }
            a.set(lit, reason);
            d.on_assign(&a, &st, lit, reason);
        }
        let mut acc = vec![0u64; 1];
        d.or_into(&a, Lit::f(3), &mut acc);
        assert_eq!(acc[0], 0b11);
        d.truncate(2);
        assert_eq!(d.start.len(), 2);
        assert!(d.usable());
    }
}
