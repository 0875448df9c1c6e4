//! Decisions following ASP computations (the paper's section 2), then complete-assignment.
//!
//! A *candidate* variable is the variable of a body of some rule with a head, or an atom in the
//! head of a choice rule. A candidate is *applicable* when
//! - (body variable `b`) `b` is unassigned, every positive atom of a conjunctive body is true
//!   (no negative atom is true then, or `b` would be false by propagation; sum bodies only need
//!   `b` unassigned), and a rule with that body has an unassigned head atom — decision `T b`;
//! - (choice head `h`) `h` is unassigned and a choice rule with `h` in its head has a true body
//!   — decision `T h`.
//!
//! Invariant: every applicable candidate is in the score heap. Candidates popped while not
//! applicable are re-inserted when that may change: by the hooks when the variable is
//! unassigned, the last positive atom of its body becomes true, or (choice heads) a body
//! variable of its rules becomes true; and from `parked` (the unassigned candidates popped
//! while not applicable, with the level then) when the search backtracks below that level —
//! which is the only way a head atom of its rules can become unassigned again. This costs
//! O(popped) per backtrack instead of a pass over the rules of every unassigned atom. `pos_missing[b]` counts the
//! positive atoms of conjunctive body `b` that are not true.

use super::assign::Assignment;
use super::heuristic::Scores;
use super::CpuEngine;
use crate::analyse::{BodyDef, GroundProgram};
use crate::lit::{Lit, Var};
use crate::nogoods::Completion;
use std::sync::Arc;

/// Variables [`CpuEngine::decide`] takes from the score heap before the search looks at its
/// limits: the decision that would complete an assignment of millions of variables first pops
/// all that propagation assigned (1.8M: 0.75 s on the build machine, past the time limit).
const POPS_PER_LOOK: u32 = 1 << 16;

/// What [`CpuEngine::decide`] found.
pub(super) enum Decision {
    /// The next decision.
    Lit(Lit),
    /// The assignment is total.
    Total,
    /// Not known yet ([`POPS_PER_LOOK`] variables popped): the search looks at its limits,
    /// then asks again.
    Later,
}

/// A compressed-sparse-row map from `0..n` to lists of `u32`.
#[derive(Debug, Default, Clone)]
pub struct Csr {
    off: Vec<u32>,
    val: Vec<u32>,
}

impl Csr {
    pub fn build(n: usize, pairs: &[(u32, u32)]) -> Csr {
        let mut off = vec![0u32; n + 1];
        for &(k, _) in pairs {
            off[k as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off.clone();
        let mut val = vec![0; pairs.len()];
        for &(k, v) in pairs {
            val[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        }
        Csr { off, val }
    }
    /// The map of the pairs `emit` gives to its argument, in the order given (as [`Csr::build`]
    /// of them): `emit` is called twice, to count and to fill, so that no vector of pairs is
    /// made (on a program of millions of rules those took twice the map, at the peak).
    pub fn from_emit(n: usize, emit: impl Fn(&mut dyn FnMut(u32, u32))) -> Csr {
        let mut off = vec![0u32; n + 1];
        emit(&mut |k, _| off[k as usize + 1] += 1);
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let mut fill = off[..n].to_vec();
        let mut val = vec![0; off[n] as usize];
        emit(&mut |k, v| {
            val[fill[k as usize] as usize] = v;
            fill[k as usize] += 1;
        });
        Csr { off, val }
    }

    /// Positions of `k`'s list in the value array (for parallel arrays).
    #[inline]
    pub fn range(&self, k: usize) -> (usize, usize) {
        if k + 1 >= self.off.len() {
            return (0, 0);
        }
        (self.off[k] as usize, self.off[k + 1] as usize)
    }
    #[inline]
    pub fn at(&self, i: usize) -> u32 {
        self.val[i]
    }
    #[inline]
    pub fn get(&self, k: usize) -> &[u32] {
        if k + 1 >= self.off.len() {
            return &[];
        }
        &self.val[self.off[k] as usize..self.off[k + 1] as usize]
    }
}

/// What decisions need to know of the program: its rule graph, read-only and shared by the
/// engines of every thread of a race ([`Rules::share`]: one copy, not one per thread), and the
/// thread's own counters.
#[derive(Debug)]
pub struct Rules {
    graph: Arc<RuleGraph>,
    /// By body: its positive atoms not true now.
    pub pos_missing: Vec<u32>,
}

/// The rule graph (`Rules` reads through to it).
#[derive(Debug)]
pub struct RuleGraph {
    pub body_var: Vec<Var>,
    pub rule_body: Vec<u32>,
    pub rule_choice: Vec<bool>,
    pub rule_heads: Csr,
    /// Atom → rules with it in the head.
    pub atom_rules: Csr,
    /// Body → rules with that body.
    pub body_rules: Csr,
    /// Variable → bodies it stands for.
    pub var_bodies: Csr,
    /// Atom → conjunctive bodies with it as a positive literal.
    pub pos_occ: Csr,
    /// By body: its positive atoms (`pos_missing` with no atom true).
    pos_len: Vec<u32>,
    body_has_head: Vec<bool>,
    body_has_choice: Vec<bool>,
    candidate: Vec<bool>,
}

impl std::ops::Deref for Rules {
    type Target = RuleGraph;
    fn deref(&self) -> &RuleGraph {
        &self.graph
    }
}

impl Rules {
    pub fn new(g: &GroundProgram, c: &Completion, num_vars: usize) -> Rules {
        let nb = g.bodies.len();
        let na = g.num_atoms as usize + 1;
        let mut body_has_head = vec![false; nb];
        let mut body_has_choice = vec![false; nb];
        let mut candidate = vec![false; num_vars];
        for rule in g.rules.iter() {
            if rule.choice {
                for &h in &rule.head {
                    candidate[h as usize] = true;
                }
            }
            if !rule.head.is_empty() {
                body_has_head[rule.body as usize] = true;
                candidate[c.body_var[rule.body as usize] as usize] = true;
            }
            body_has_choice[rule.body as usize] |= rule.choice;
        }
        let rules = || g.rules.iter().enumerate().map(|(r, rule)| (r as u32, rule));
        let pos_missing: Vec<u32> = g
            .bodies
            .iter()
            .map(|body| match body {
                BodyDef::Conj { pos, .. } => pos.len() as u32,
                BodyDef::Sum { .. } => 0,
            })
            .collect();
        let graph = RuleGraph {
            pos_len: pos_missing.clone(),
            body_var: c.body_var.clone(),
            rule_body: g.rules.iter().map(|r| r.body).collect(),
            rule_choice: g.rules.iter().map(|r| r.choice).collect(),
            rule_heads: Csr::from_emit(g.rules.len(), |put| {
                rules().for_each(|(r, rule)| rule.head.iter().for_each(|&h| put(r, h)))
            }),
            atom_rules: Csr::from_emit(na, |put| {
                rules().for_each(|(r, rule)| rule.head.iter().for_each(|&h| put(h, r)))
            }),
            body_rules: Csr::from_emit(nb, |put| rules().for_each(|(r, rule)| put(rule.body, r))),
            var_bodies: Csr::from_emit(num_vars, |put| {
                (0..nb).for_each(|b| put(c.body_var[b], b as u32))
            }),
            pos_occ: Csr::from_emit(na, |put| {
                for (b, body) in g.bodies.iter().enumerate() {
                    if let BodyDef::Conj { pos, .. } = body {
                        pos.iter().for_each(|&p| put(p, b as u32));
                    }
                }
            }),
            body_has_head,
            body_has_choice,
            candidate,
        };
        Rules {
            graph: Arc::new(graph),
            pos_missing,
        }
    }

    /// The graph, to share.
    pub fn graph(&self) -> Arc<RuleGraph> {
        self.graph.clone()
    }

    /// Rules over `graph` (shared, not copied), with counters of their own as `new` makes
    /// them: for the engine of another thread.
    pub fn over(graph: Arc<RuleGraph>) -> Rules {
        Rules {
            pos_missing: graph.pos_len.clone(),
            graph,
        }
    }

    /// Whether `other` reads the same graph (not a copy).
    pub fn shares_with(&self, other: &Rules) -> bool {
        Arc::ptr_eq(&self.graph, &other.graph)
    }

    /// `pos_missing` counted again from `a` (after decisions on variables, which let the
    /// counters rest).
    pub fn recount(&mut self, a: &Assignment, num_atoms: u32) {
        self.pos_missing.copy_from_slice(&self.graph.pos_len);
        for v in 1..=num_atoms {
            if a.holds(Lit::t(v)) {
                for &b in self.graph.pos_occ.get(v as usize) {
                    self.pos_missing[b as usize] -= 1;
                }
            }
        }
    }

    #[inline]
    pub fn is_candidate(&self, v: Var) -> bool {
        self.graph.candidate[v as usize]
    }

    /// Each distinct body of the rules whose head holds an atom of `atoms`, once, with the
    /// first such atom: what both unfounded-set modules scan for external bodies. `seen` (one
    /// flag per body, all false) is left all false.
    pub fn distinct_bodies(&self, atoms: &[u32], seen: &mut [bool]) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        for &q in atoms {
            for &r in self.graph.atom_rules.get(q as usize) {
                let b = self.graph.rule_body[r as usize] as usize;
                if !seen[b] {
                    seen[b] = true;
                    out.push((q, b));
                }
            }
        }
        for &(_, b) in &out {
            seen[b] = false;
        }
        out
    }

    /// The decision candidate `v` offers now, if it is applicable.
    fn applicable(&self, a: &Assignment, v: Var) -> Option<Lit> {
        if !a.is_unassigned(v) {
            return None;
        }
        for &b in self.graph.var_bodies.get(v as usize) {
            let b = b as usize;
            if !self.graph.body_has_head[b] || self.pos_missing[b] != 0 {
                continue;
            }
            let open_head = self.graph.body_rules.get(b).iter().any(|&r| {
                self.graph
                    .rule_heads
                    .get(r as usize)
                    .iter()
                    .any(|&h| a.is_unassigned(h))
            });
            if open_head {
                return Some(Lit::t(v));
            }
        }
        let choice_ready = self.graph.atom_rules.get(v as usize).iter().any(|&r| {
            self.graph.rule_choice[r as usize]
                && a.holds(Lit::t(
                    self.graph.body_var[self.graph.rule_body[r as usize] as usize],
                ))
        });
        choice_ready.then_some(Lit::t(v))
    }

    /// Hooks run right after `l` was assigned (the test inline, the work out of line: every
    /// assignment of the hot path passes here).
    #[inline(always)]
    pub fn on_assign(&mut self, a: &Assignment, scores: &mut Scores, l: Lit, num_atoms: u32) {
        if l.is_true() {
            self.on_true(a, scores, l, num_atoms);
        }
    }

    #[inline(never)]
    fn on_true(&mut self, a: &Assignment, scores: &mut Scores, l: Lit, num_atoms: u32) {
        let v = l.var();
        if v <= num_atoms {
            for &b in self.graph.pos_occ.get(v as usize) {
                let m = &mut self.pos_missing[b as usize];
                *m -= 1;
                if *m == 0 {
                    let bv = self.graph.body_var[b as usize];
                    if self.graph.candidate[bv as usize] && a.is_unassigned(bv) {
                        scores.insert(bv);
                    }
                }
            }
        }
        for &b in self.graph.var_bodies.get(v as usize) {
            if !self.graph.body_has_choice[b as usize] {
                continue;
            }
            for &r in self.graph.body_rules.get(b as usize) {
                if self.graph.rule_choice[r as usize] {
                    for &h in self.graph.rule_heads.get(r as usize) {
                        if a.is_unassigned(h) {
                            scores.insert(h);
                        }
                    }
                }
            }
        }
    }

    /// Hooks run right after `l` was unassigned.
    #[inline]
    pub fn on_unassign(&mut self, scores: &mut Scores, l: Lit, num_atoms: u32) {
        let v = l.var();
        if self.graph.candidate[v as usize] {
            scores.insert(v);
        }
        if v > num_atoms {
            return;
        }
        if l.is_true() {
            for &b in self.graph.pos_occ.get(v as usize) {
                self.pos_missing[b as usize] += 1;
            }
        }
        // A head atom open again is handled by `parked`: a body that was skipped because its
        // heads were assigned is re-inserted when the search backtracks below its skip level.
    }
}

impl CpuEngine {
    /// The next decision: the best applicable candidate, else complete-assignment's `F v` on
    /// the lowest unassigned variable (atoms come first), else `Total`; `Later` once it took
    /// [`POPS_PER_LOOK`] variables from the heap.
    pub(super) fn decide(&mut self) -> Decision {
        if let Some(l) = self.decide_projected() {
            return Decision::Lit(l); // projective enumeration decides its atoms first (`enum_bt`)
        }
        let mut pops = POPS_PER_LOOK;
        if self.vars {
            // Every variable is ranked: the scan below only confirms the assignment is total.
            if let Some(l) = self.decide_var(&mut pops) {
                return Decision::Lit(l);
            }
        }
        while pops > 0 {
            let Some(v) = self.scores.pop() else { break };
            pops -= 1;
            if let Some(l) = self.rules.applicable(&self.a, v) {
                return Decision::Lit(l);
            }
            if self.a.is_unassigned(v) {
                // Not applicable at this level: what blocks it (assigned heads, a positive
                // atom not yet true, no true choice body) can only be undone by backtracking
                // below this level, or by an assignment whose hook re-inserts it.
                self.parked.push((self.a.level(), v));
            }
        }
        if pops == 0 {
            return Decision::Later;
        }
        let n = self.a.level.len() as Var;
        while self.cursor < n {
            if self.a.is_unassigned(self.cursor) {
                return Decision::Lit(Lit::f(self.cursor));
            }
            self.cursor += 1;
        }
        Decision::Total
    }
}
