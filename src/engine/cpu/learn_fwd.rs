//! Forward learning (the paper's Algorithm 2 line 18 and Algorithm 4): every assigned literal
//! carries the set of decision levels it depends on; a conflict's learned nogood is the set of
//! decisions of the union of its literals' sets.
//!
//! The sets are growable bitsets, exact at any decision depth: the set of a literal of level
//! `i` uses `ceil(i / 64)` words (it can only hold levels `1..=i`), stored in one arena in trail
//! order, so backtracking truncates it. Only when the arena would pass [`BUDGET_WORDS`] does the
//! engine stop recording sets, and conflicts are then analysed by resolution (`learn_res`)
//! until backtracking returns below the point where recording stopped. (`--fwd-cut=lits`
//! keeps none of these sets; see below.)
//!
//! Invariant: while `usable()`, the set of every assigned literal is: `{i}` for the decision
//! of level `i`; `{}` at level 0; otherwise the union of the sets of the other literals of its
//! reason. By induction each literal is implied by the stored nogoods and the decisions of its
//! set, so the decisions of a conflict's union form a nogood implied by the stored ones.
//!
//! `--fwd-cut=uip` keeps one more thing per literal, also forward: a *dominator* among the
//! literals of its level — a literal of that level on every path from the level's decision to
//! it in the implication graph. A decision dominates itself; a propagated literal gets the
//! nearest common dominator of the antecedents of its level that depend on the decision (the
//! walk of Cooper, Harvey and Kennedy: dominators precede on the trail), or `NONE` when no
//! antecedent does; a literal implied by a sum (its reason is built lazily) gets the decision,
//! which dominates everything of its level. Invariant: `dom[p]` is a dominator of the literal
//! at trail position `p`, or `NONE` when that literal does not depend on its level's decision.
//! The nearest common dominator of a conflict's literals of its level is then a UIP (the first
//! one when every reason was known), and replacing the level's decision by it keeps the nogood
//! implied: every path from the decision to the conflict passes it, and what else the
//! conflict depends on lies on lower levels, whose decisions the union names.
//!
//! `--fwd-cut=lits` keeps, besides `dom`, a *lower-level set* per literal, also forward: the
//! literals of lower levels (not 0) used by the derivations from its dominator to it. A
//! decision's set is empty. A propagated literal's set is its reason's lower-level literals,
//! plus, for each of its reason's literals of its level, the sets along that literal's
//! dominator chain up to (not including) the new literal's dominator; a literal without a
//! dominator (it does not depend on its level's decision) gets the whole chain, which then
//! ends at it. A sum's implied literal (lazy reason), or a set past [`LITS_CAP`] literals, is
//! *unknown*. Invariant: the literal at trail position `p` follows by unit propagation from
//! `dom[p]` (when not `NONE`), its set, the sets along the chain from `dom[p]` up, and level
//! 0 — the chains cover every lower-level antecedent of every literal of the level on a path
//! from the dominator, because each of those literals is dominated by the dominators of the
//! chain in between (induction on the trail).
//! On a conflict, the learned nogood is the level's UIP (as with `uip`), the violated
//! nogood's literals of lower levels, and the sets along the chains from its literals of the
//! conflict level up to the UIP: the first-UIP nogood, whose lower-level literals are the
//! antecedents of the conflict level's literals after the UIP (resolution's nogood, when
//! every literal of that level depends on its decision), found without a walk of the trail.
//! Resolution's minimisation then drops what the rest implies. When one of those sets is
//! unknown, the nogood is the UIP and the decisions of every lower level ("By decisions" in
//! `--stats`; rare). So `lits` keeps no decision-level sets at all.
//!
//! For the heuristic, `lits` also keeps a *between set* per literal, the same way: the
//! literals of its level on the derivations from its dominator to it (neither included), as
//! a bitset over their distance from the level's decision (the first [`BETWEEN_CAP`] only).
//! A literal's between set is, for each of its reason's literals of its level, the literals
//! of that literal's dominator chain up to its own dominator and their between sets. The
//! chains of a conflict then give, besides the UIP, the literals of the conflict level that
//! resolution resolves on, and the engine bumps them and their reasons as resolution does.
//! This is exact when every literal of the level on those derivations depends on the level's
//! decision and lies within the cap (literals past it are not bumped: bumping the chain's
//! literals past it too changed the search and, in one run, lost sokoban 0308 at 300 s);
//! otherwise the bumps differ a little, never the nogood.

use super::assign::{Assignment, NO_REASON};
use super::store::Store;
use crate::engine::FwdCut;
use crate::lit::Lit;

/// Most arena words (8 bytes each) the dependency sets may hold: 256 MiB.
pub const BUDGET_WORDS: usize = 1 << 25;

/// `--fwd-cut=lits`: a lower-level set with more literals than this is unknown.
pub const LITS_CAP: u32 = 1024;

/// `--fwd-cut=lits`: most literals the lower-level sets may hold together (128 MiB); a set
/// that would pass it is unknown.
const LITS_BUDGET: usize = 1 << 25;

/// The length of an unknown lower-level set.
const UNKNOWN: u32 = u32::MAX;

/// `--fwd-cut=lits`: the between sets (for the heuristic) name only the first this many
/// literals of a level; later ones are left out of them.
pub const BETWEEN_CAP: u32 = 1024;

/// `--fwd-cut=lits`: most words the between sets may hold together (128 MiB); past it, sets
/// are recorded empty.
const BETWEEN_BUDGET: usize = 1 << 24;

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
    /// `--fwd-cut=uip`: keep `dom`.
    uip: bool,
    /// By trail position: a dominator of the literal among its level's (see the module doc).
    dom: Vec<u32>,
    /// `--fwd-cut=lits`: keep the lower-level sets.
    lits: bool,
    /// Most literals of one lower-level set ([`LITS_CAP`]; tests lower it).
    lits_cap: usize,
    /// [`BETWEEN_CAP`] (tests lower it).
    between_cap: u32,
    /// By trail position: the literal's lower-level set, `(start, len)` in `lit_arena` (`len`
    /// [`UNKNOWN`] when unknown). A set equal to an earlier literal's shares its range.
    lset: Vec<(u32, u32)>,
    /// By trail position: the length of `lit_arena` before the literal's set was recorded.
    lbase: Vec<u32>,
    lit_arena: Vec<Lit>,
    /// By variable: `stamp` when already in the set being built.
    mark: Vec<u32>,
    /// By trail position: `stamp` when its dominator chain was already added to it.
    pmark: Vec<u32>,
    stamp: u32,
    /// By trail position: where the literal's *between set* starts in `bwords` (it ends
    /// where the next one starts). `--fwd-cut=lits` only, for the heuristic: the literals of
    /// its level on the derivations from its dominator to it, neither included, as bits by
    /// their distance from the level's decision (below [`BETWEEN_CAP`]).
    bstart: Vec<u32>,
    bwords: Vec<u64>,
    /// The between set being built (`add_chain` adds to it), in its first `between_len`
    /// words (the rest are zero); `conflict_lits`' output too: the literals of the conflict
    /// level that resolution would meet, besides the UIP.
    between: Vec<u64>,
    between_len: usize,
    /// The trail position of the decision of the level whose between set is being built.
    between_base: u32,
}

/// `dom` of a literal that does not depend on its level's decision.
const NONE: u32 = u32::MAX;

impl Deps {
    /// `enabled`: `--learning=fwd`; `cut`: `--fwd-cut`.
    pub fn new(enabled: bool, cut: FwdCut) -> Self {
        Deps {
            enabled,
            uip: enabled && cut != FwdCut::Decisions,
            lits: enabled && cut == FwdCut::Lits,
            lits_cap: LITS_CAP as usize,
            between_cap: BETWEEN_CAP,
            budget: BUDGET_WORDS,
            ..Deps::default()
        }
    }

    /// Forward learning may analyse the conflict: the decision-level sets are recorded for
    /// the whole trail (always, under `--fwd-cut=lits`, which needs none of them).
    pub fn usable(&self) -> bool {
        self.enabled && self.broken_at.is_none()
    }

    /// The decision-level sets are recorded: `--fwd-cut=lits` needs none (its fallback is
    /// the UIP and every lower decision), so it keeps none.
    pub fn decision_sets(&self) -> bool {
        self.enabled && !self.lits
    }

    #[cfg(test)]
    pub fn set_budget(&mut self, words: usize) {
        self.budget = words;
    }

    #[cfg(test)]
    pub fn set_lits_cap(&mut self, cap: usize) {
        self.lits_cap = cap;
    }

    #[cfg(test)]
    pub fn set_between_cap(&mut self, cap: u32) {
        self.between_cap = cap;
    }

    /// Record the set of `l`, just pushed on the trail with `reason` (the check inline, the work
    /// out of line: with `res` learning every assignment of the hot path passes here).
    #[inline(always)]
    pub fn on_assign(&mut self, a: &Assignment, store: &Store, l: Lit, reason: u32) {
        if self.enabled {
            self.record(a, store, l, reason);
        }
    }

    #[inline(never)]
    fn record(&mut self, a: &Assignment, store: &Store, l: Lit, reason: u32) {
        let t = a.trail.len() - 1;
        if self.uip {
            debug_assert_eq!(self.dom.len(), t);
            let d = self.dominator(a, store, l, reason, t as u32);
            self.dom.push(d);
        }
        if self.lits {
            self.lower_set(a, store, l, reason, t as u32);
            return;
        }
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

    /// The dominator of `l`, just pushed at trail position `t` with `reason`.
    fn dominator(&self, a: &Assignment, store: &Store, l: Lit, reason: u32, t: u32) -> u32 {
        let level = a.level();
        if level == 0 {
            return NONE;
        }
        if reason == NO_REASON {
            return t; // the decision
        }
        if reason == super::sums::LAZY {
            return a.lim[level as usize - 1]; // the decision dominates its whole level
        }
        let mut d = NONE;
        for &x in store.lits(reason) {
            if x.var() == l.var() || a.level_of(x.var()) != level {
                continue;
            }
            let p = a.trail_pos[x.var() as usize];
            if self.dom[p as usize] != NONE {
                d = if d == NONE { p } else { self.meet(d, p) };
            }
        }
        d
    }

    /// Record the lower-level set of `l`, just pushed at trail position `t` with `reason` and
    /// dominator `self.dom[t]` (see the module doc).
    fn lower_set(&mut self, a: &Assignment, store: &Store, l: Lit, reason: u32, t: u32) {
        let base = self.lit_arena.len() as u32;
        self.lbase.push(base);
        self.bstart.push(self.bwords.len() as u32);
        let level = a.level_of(l.var());
        if level == 0 || reason == NO_REASON {
            self.lset.push((base, 0));
            return;
        }
        if reason == super::sums::LAZY {
            self.lset.push((base, UNKNOWN));
            return;
        }
        let d = self.dom[t as usize];
        self.new_set();
        self.new_between(a.lim[level as usize - 1], t);
        let mut known = true;
        for &x in store.lits(reason) {
            let xl = a.level_of(x.var());
            if x.var() == l.var() || xl == 0 {
                continue;
            }
            known = if xl < level {
                self.add_lit(x);
                self.within_caps(base, self.lits_cap)
            } else {
                self.add_chain(a.trail_pos[x.var() as usize], d, base, self.lits_cap)
            };
            if !known {
                break;
            }
        }
        if known {
            let n = self.lit_arena.len() as u32 - base;
            self.lset.push((base, n));
        } else {
            self.lit_arena.truncate(base as usize);
            self.lset.push((base, UNKNOWN));
        }
        // The between set (a partial one, when the lower-level set is unknown, only weakens
        // the heuristic).
        let n = self.between_len;
        if self.bwords.len() + n <= BETWEEN_BUDGET {
            self.bwords.extend_from_slice(&self.between[..n]);
        }
    }

    /// Start an empty between set for literals of the level whose decision is at trail
    /// position `base`, up to (not including) trail position `end`.
    fn new_between(&mut self, base: u32, end: u32) {
        self.between_base = base;
        self.between[..self.between_len].fill(0);
        self.between_len = 0;
        let n = words_for((end - base).min(self.between_cap));
        if self.between.len() < n {
            self.between.resize(n, 0);
        }
    }

    /// Add the literal at trail position `p` (of the between set's level) and its between
    /// set to the between set being built.
    #[inline]
    fn add_between(&mut self, p: u32) {
        let off = p - self.between_base;
        if off < self.between_cap {
            let w = off as usize / 64;
            self.between[w] |= 1 << (off % 64);
            self.between_len = self.between_len.max(w + 1);
        }
        let from = self.bstart[p as usize] as usize;
        let to = self
            .bstart
            .get(p as usize + 1)
            .map_or(self.bwords.len(), |&e| e as usize);
        for (w, &x) in self.between.iter_mut().zip(&self.bwords[from..to]) {
            *w |= x;
        }
        self.between_len = self.between_len.max(to - from);
    }

    /// Start a new set in `lit_arena` (marks cleared).
    fn new_set(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.pmark.fill(0);
            self.stamp = 1;
        }
    }

    /// The set being built (from `base`) has at most `cap` literals and the arena fits its
    /// budget.
    #[inline]
    fn within_caps(&self, base: u32, cap: usize) -> bool {
        self.lit_arena.len() - base as usize <= cap && self.lit_arena.len() <= LITS_BUDGET
    }

    /// Add `x` to the set being built, unless it is in it.
    #[inline]
    fn add_lit(&mut self, x: Lit) {
        if self.mark_new(x) {
            self.lit_arena.push(x);
        }
    }

    /// Add to the set being built (which starts at `base` in `lit_arena`) the sets of the
    /// dominator chain from trail position `p` up to, not including, its dominator `q`: the
    /// lower-level literals used by the derivations from `q` to `p` (all of them when `p`
    /// has no dominator). False when one of those sets is unknown or the set passes `cap`.
    fn add_chain(&mut self, mut p: u32, q: u32, base: u32, cap: usize) -> bool {
        loop {
            if p == q {
                return true;
            }
            // Within one set `q` is fixed: a chain met before is in it up to `q`.
            if self.pmark.len() <= p as usize {
                self.pmark.resize(self.dom.len(), 0);
            }
            if self.pmark[p as usize] == self.stamp {
                return true;
            }
            self.pmark[p as usize] = self.stamp;
            self.add_between(p);
            let up = self.dom[p as usize];
            if up != NONE && q != NONE && p < q {
                // `q` dominates `p`, so it is on `p`'s chain; only a sum's literal, whose
                // dominator is its level's decision, jumps, and its set is unknown.
                debug_assert!(false, "walked past a dominator");
                return false;
            }
            let (s, n) = self.lset[p as usize];
            if n == UNKNOWN {
                return false;
            }
            for k in s..s + n {
                let y = self.lit_arena[k as usize];
                self.add_lit(y);
            }
            if !self.within_caps(base, cap) {
                return false;
            }
            if up == NONE || up == p {
                return true; // without dominator, or the decision: the set is complete
            }
            p = up;
        }
    }

    /// `--fwd-cut=lits`: into `out`, the lower-level literals of the violated nogood `confl`
    /// and the dominator-chain sets of its literals of the conflict level up to `uip` (trail
    /// position). False when one of those sets is unknown.
    fn conflict_lits(
        &mut self,
        a: &Assignment,
        confl: &[Lit],
        uip: u32,
        out: &mut Vec<Lit>,
    ) -> bool {
        let level = a.level();
        let base = self.lit_arena.len() as u32;
        self.new_set();
        self.new_between(a.lim[level as usize - 1], a.trail.len() as u32);
        let mut known = true;
        for &l in confl {
            let lv = a.level_of(l.var());
            if lv == level {
                known = self.add_chain(a.trail_pos[l.var() as usize], uip, base, usize::MAX);
            } else if lv != 0 {
                self.add_lit(l);
            }
            if !known {
                break;
            }
        }
        if known {
            out.extend_from_slice(&self.lit_arena[base as usize..]);
        }
        self.lit_arena.truncate(base as usize);
        known
    }

    /// Mark the variable of `x` for the set being built; false if it already was.
    #[inline]
    fn mark_new(&mut self, x: Lit) -> bool {
        let v = x.var() as usize;
        if self.mark.len() <= v {
            self.mark.resize(v + 1, 0);
        }
        let new = self.mark[v] != self.stamp;
        self.mark[v] = self.stamp;
        new
    }

    /// The nearest common dominator of the literals at trail positions `p` and `q` of the
    /// current level (both depending on its decision).
    fn meet(&self, mut p: u32, mut q: u32) -> u32 {
        while p != q {
            if p > q {
                p = self.dom[p as usize];
            } else {
                q = self.dom[q as usize];
            }
        }
        p
    }

    /// The trail was cut back to `len` entries.
    pub fn truncate(&mut self, len: usize) {
        if !self.enabled {
            return;
        }
        if self.uip {
            self.dom.truncate(len);
        }
        if self.lits {
            if self.lbase.len() <= len {
                return;
            }
            self.lit_arena.truncate(self.lbase[len] as usize);
            self.lbase.truncate(len);
            self.lset.truncate(len);
            self.bwords.truncate(self.bstart[len] as usize);
            self.bstart.truncate(len);
            return;
        }
        if self.start.len() <= len {
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
        debug_assert!(!self.lits, "lits keeps no decision-level sets");
        let base = *self.start.last().expect("a literal was assigned") as usize;
        let n = self.words.len() - base;
        for (w, &s) in self.words[base..].iter_mut().zip(&set[..set.len().min(n)]) {
            *w |= s;
        }
    }

    /// The set of the (assigned) variable of `l` is a subset of `acc`.
    fn subset_of(&self, a: &Assignment, l: Lit, acc: &[u64]) -> bool {
        debug_assert!(!self.lits, "lits keeps no decision-level sets");
        let v = l.var() as usize;
        let s = self.start[a.trail_pos[v] as usize] as usize;
        (0..words_for(a.level[v])).all(|k| self.words[s + k] & !acc[k] == 0)
    }

    /// OR the set of the (assigned) variable of `l` into `acc`.
    pub(super) fn or_into(&self, a: &Assignment, l: Lit, acc: &mut [u64]) {
        debug_assert!(!self.lits, "lits keeps no decision-level sets");
        let v = l.var() as usize;
        let s = self.start[a.trail_pos[v] as usize] as usize;
        for k in 0..words_for(a.level[v]) {
            acc[k] |= self.words[s + k];
        }
    }
}

mod analyse;

#[cfg(test)]
mod tests;
