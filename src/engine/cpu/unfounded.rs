//! The unfounded-set check on total assignments of non-tight programs (the design brief's gap
//! 1), and the loop nogoods it learns.
//!
//! Given a total assignment satisfying the completion, the true atoms outside cyclic components
//! count as founded (if one rests on an unfounded loop, the loop's own nogood removes it);
//! the atoms of cyclic components are founded by the least fixpoint of the rules whose body is
//! true, reading positive atoms of the body as "already founded" and negative ones by the
//! assignment (a sum body counts a positive literal only once its atom is founded; a choice
//! rule founds its head if the head is true). The true cyclic atoms left are an unfounded set
//! `U`: each rule with a true body and a head in `U` has a positive body atom in `U`.
//!
//! `U` is split into parts: the part of `p` closes `{p}` under "the positive atoms of `U` in a
//! true body of a rule of a member"; a part is itself unfounded. Loop nogood for `p` in a part
//! `P`: `{T p}` plus, for each *external* body `B` of a rule with a head in
//! `P` (one that could hold with no atom of `P` true): `F b` for its variable when `B` is false,
//! or — a true sum body, possible only through `P` — the false literals among those of `B`
//! that are not atoms of `P` (with them false, `B` without `P` stays below its bound). Such a
//! nogood is violated by the current assignment and holds in every answer set (it says: `P`
//! cannot be true without an outside support), so it is handled as a conflict.
//!
//! Invariant: on a total assignment with no violated nogood, [`check`] returns no nogood exactly
//! when the true atoms form an answer set. The host engine calls it on its [`Assignment`]
//! (through [`Values`]); the device engine runs its own in each search,
//! `kernels/search/unfounded.cuh` (with worklists, on partial assignments too), which learns
//! one loop nogood per check.

use super::assign::Assignment;
use super::decide::{Csr, Rules};
use super::CpuEngine;
use crate::analyse::alias::Aliases;
use crate::analyse::{BodyDef, GroundProgram};
use crate::lit::Lit;

/// At most this many loop nogoods (one per unfounded atom) per check; the check repeats on
/// the next total assignment anyway.
const MAX_LOOP_NOGOODS: usize = 32;
/// Loop nogoods per part of U (one per atom, the part's first atoms).
const PER_PART: usize = 4;

/// Read access to a total assignment: `holds(l)` is true when literal `l` is assigned true.
pub trait Values {
    fn holds(&self, l: Lit) -> bool;
}

impl Values for Assignment {
    fn holds(&self, l: Lit) -> bool {
        Assignment::holds(self, l)
    }
}

#[derive(Debug, Default)]
pub struct Unfounded {
    tight: bool,
    /// The program's bodies, shared with the other threads' engines (empty when tight).
    bodies: std::sync::Arc<Vec<BodyDef>>,
    cyclic: Vec<bool>,
    /// Atom → (body, weight) where the atom is a positive literal of the body.
    pos_occ: Csr,
    pos_w: Vec<i64>,
    /// The eliminated atoms (`analyse::alias`): an atom is read through its root's literal.
    aliases: Aliases,
    // Scratch.
    founded: Vec<bool>,
    need: Vec<i64>,
    queue: Vec<u32>,
    in_u: Vec<bool>,
    in_part: Vec<bool>,
    covered: Vec<bool>,
    body_seen: Vec<bool>,
}

impl Unfounded {
    pub fn new(g: &GroundProgram, _num_vars: usize) -> Self {
        if g.tight {
            // `check` finds nothing on a tight program: nothing to build (on a program of
            // millions of rules the occurrence lists alone are tens of MB per thread).
            return Unfounded {
                tight: true,
                ..Unfounded::default()
            };
        }
        let n = g.num_atoms as usize + 1;
        let mut pairs = Vec::new();
        let mut weights = Vec::new();
        for (b, body) in g.bodies.iter().enumerate() {
            match body {
                BodyDef::Conj { pos, .. } => {
                    for &p in pos {
                        pairs.push((p, b as u32));
                        weights.push(((p, b as u32), 1i64));
                    }
                }
                BodyDef::Sum { lits, .. } => {
                    for &(l, w) in lits {
                        if l > 0 {
                            pairs.push((l as u32, b as u32));
                            weights.push(((l as u32, b as u32), w));
                        }
                    }
                }
            }
        }
        // Weights in the CSR's order: stable by atom.
        weights.sort_by_key(|&((p, _), _)| p);
        let pos_occ = Csr::build(n, &pairs);
        let cyclic = (0..n as u32).map(|p| p > 0 && g.is_cyclic(p)).collect();
        Unfounded {
            tight: false,
            bodies: g.bodies.clone(),
            cyclic,
            aliases: g.aliases.clone(),
            pos_occ,
            pos_w: weights.into_iter().map(|(_, w)| w).collect(),
            founded: vec![false; n],
            need: vec![0; g.bodies.len()],
            queue: Vec::new(),
            in_u: vec![false; n],
            in_part: vec![false; n],
            covered: vec![false; n],
            body_seen: vec![false; g.bodies.len()],
        }
    }
}

impl CpuEngine {
    /// Loop nogoods for the unfounded atoms of the total assignment (empty: it is stable).
    pub(super) fn unfounded_check(&mut self) -> Vec<Vec<Lit>> {
        check(&mut self.ufs, &self.rules, &self.a, self.num_atoms)
    }
}

/// Loop nogoods for the unfounded atoms of the total assignment `a` over atoms `1..=num_atoms`
/// (empty: the true atoms are an answer set).
pub fn check<V: Values>(u: &mut Unfounded, rules: &Rules, a: &V, num_atoms: u32) -> Vec<Vec<Lit>> {
    if u.tight {
        return Vec::new();
    }
    let n = num_atoms as usize;
    // An eliminated atom's own variable is fixed false: read it through its root's literal (it
    // may be a positive atom of a conjunction, analyse::alias).
    let holds_atom = |aliases: &Aliases, p: u32| a.holds(aliases.lit(Lit::t(p)));
    for p in 1..=n {
        u.founded[p] = holds_atom(&u.aliases, p as u32) && !u.cyclic[p];
    }
    u.queue.clear();
    // need[b] > 0: what body b still lacks to be true with founded atoms only.
    for b in 0..u.bodies.len() {
        u.need[b] = 1;
        if !a.holds(Lit::t(rules.body_var[b])) {
            continue;
        }
        u.need[b] = match &u.bodies[b] {
            BodyDef::Conj { pos, .. } => {
                pos.iter().filter(|&&p| !u.founded[p as usize]).count() as i64
            }
            BodyDef::Sum { lower, lits } => {
                let have: i64 = lits
                    .iter()
                    .filter(|&&(l, _)| {
                        if l > 0 {
                            u.founded[l as usize]
                        } else {
                            !holds_atom(&u.aliases, l.unsigned_abs())
                        }
                    })
                    .map(|&(_, w)| w)
                    .sum();
                lower - have
            }
        };
    }
    // Fire only once every count is taken against the same initial founded set: atoms
    // founded from here on reach the counts through the queue, exactly once.
    for b in 0..u.bodies.len() {
        if u.need[b] <= 0 && a.holds(Lit::t(rules.body_var[b])) {
            found_heads(u, rules, a, b);
        }
    }
    while let Some(p) = u.queue.pop() {
        let (lo, hi) = u.pos_occ.range(p as usize);
        for k in lo..hi {
            let b = u.pos_occ.at(k) as usize;
            if u.need[b] <= 0 || !a.holds(Lit::t(rules.body_var[b])) {
                continue;
            }
            u.need[b] -= u.pos_w[k];
            if u.need[b] <= 0 {
                found_heads(u, rules, a, b);
            }
        }
    }
    let unfounded: Vec<u32> = (1..=n as u32)
        .filter(|&p| holds_atom(&u.aliases, p) && !u.founded[p as usize])
        .collect();
    if unfounded.is_empty() {
        return Vec::new();
    }
    for &p in &unfounded {
        u.in_u[p as usize] = true;
    }
    // Split U into the parts the atoms rest on: the part of p closes p under "a true body
    // of a rule of q ∈ part has its positive atoms of U in the part". Each part is itself
    // unfounded, and a small part (one sub-loop) gives a short, strong loop nogood.
    let mut out = Vec::new();
    let mut covered = vec![false; 0];
    std::mem::swap(&mut covered, &mut u.covered);
    for &seed in &unfounded {
        if covered[seed as usize] || out.len() >= MAX_LOOP_NOGOODS {
            continue;
        }
        let part = closure(u, rules, a, seed);
        let ext = externals(u, rules, a, &part);
        for &p in part.iter().take(PER_PART) {
            let mut ng = ext.clone();
            if !ng.contains(&Lit::t(p)) {
                ng.push(Lit::t(p));
            }
            debug_assert!(
                ng.iter().all(|&l| a.holds(l)),
                "a loop nogood must be violated"
            );
            out.push(ng);
        }
        for &q in &part {
            covered[q as usize] = true;
            u.in_part[q as usize] = false;
        }
    }
    for &p in &unfounded {
        u.in_u[p as usize] = false;
        covered[p as usize] = false;
    }
    u.covered = covered;
    out
}

/// The part of U that `seed` rests on (marked in `in_part`).
fn closure<V: Values>(u: &mut Unfounded, rules: &Rules, a: &V, seed: u32) -> Vec<u32> {
    let mut part = vec![seed];
    u.in_part[seed as usize] = true;
    let mut i = 0;
    while i < part.len() {
        let q = part[i];
        i += 1;
        for &r in rules.atom_rules.get(q as usize) {
            let b = rules.rule_body[r as usize] as usize;
            if !a.holds(Lit::t(rules.body_var[b])) {
                continue;
            }
            let mut add = |p: u32| {
                if u.in_u[p as usize] && !u.in_part[p as usize] {
                    u.in_part[p as usize] = true;
                    part.push(p);
                }
            };
            match &u.bodies[b] {
                BodyDef::Conj { pos, .. } => pos.iter().for_each(|&p| add(p)),
                BodyDef::Sum { lits, .. } => lits
                    .iter()
                    .filter(|&&(l, _)| l > 0)
                    .for_each(|&(l, _)| add(l as u32)),
            }
        }
    }
    part
}

/// The external bodies of the unfounded set `part` (marked in `in_part`), as nogood literals
/// that all hold now.
fn externals<V: Values>(u: &mut Unfounded, rules: &Rules, a: &V, part: &[u32]) -> Vec<Lit> {
    let mut ext: Vec<Lit> = Vec::new();
    for (_, b) in rules.distinct_bodies(part, &mut u.body_seen) {
        let bv = rules.body_var[b];
        match &u.bodies[b] {
            BodyDef::Conj { pos, .. } => {
                if pos.iter().any(|&q| u.in_part[q as usize]) {
                    continue; // internal
                }
                // True, it would have all its positive atoms in the closure or founded.
                debug_assert!(a.holds(Lit::f(bv)), "a true external body founds its head");
                ext.push(Lit::f(bv));
            }
            BodyDef::Sum { lower, lits } => {
                let outside: i64 = lits
                    .iter()
                    .filter(|&&(l, _)| !(l > 0 && u.in_part[l as usize]))
                    .map(|&(_, w)| w)
                    .sum();
                if outside < *lower {
                    continue; // internal
                }
                if a.holds(Lit::f(bv)) {
                    ext.push(Lit::f(bv));
                    continue;
                }
                // True: its true positive atoms outside the part are founded (the closure
                // took those of U), and founded ones alone stay below the bound.
                for &(l, _) in lits {
                    let q = l.unsigned_abs();
                    if l > 0 && u.in_part[q as usize] {
                        continue;
                    }
                    // The program literal l is false: `F q` for l = q, `T q` for l = not q.
                    let lit_false = if l > 0 { Lit::f(q) } else { Lit::t(q) };
                    if a.holds(lit_false) {
                        ext.push(lit_false);
                    }
                }
            }
        }
    }
    ext.sort_unstable();
    ext.dedup();
    ext
}

/// Body `b` is true with founded atoms only: found the true heads of its rules.
fn found_heads<V: Values>(u: &mut Unfounded, rules: &Rules, a: &V, b: usize) {
    for &r in rules.body_rules.get(b) {
        for &h in rules.rule_heads.get(r as usize) {
            if !u.founded[h as usize] && a.holds(Lit::t(h)) {
                u.founded[h as usize] = true;
                u.queue.push(h);
            }
        }
    }
}
