//! The second search of the minimality check: for a candidate `M` and a component `C` with a
//! head cycle, is there a non-empty `U ⊆ C ∩ M` with `M \ U` a model of the reduct `P^M`?
//!
//! The question is itself a small program, solved by the host engine: one atom `x_a` per
//! `a ∈ V = C ∩ M` ("`a` stays true"), a choice over them, a constraint that not all stay, and
//! for each rule `r` with a head atom in `V` whose head holds no atom of `M \ V` (the others
//! are satisfied whatever `U` is), the constraint "the body of `r`'s reduct holds in `M \ U`
//! and no head atom of `V` stays": positive body atoms outside `M` make it false, those in
//! `M \ V` true, negative literals are read in `M` (a conjunction with one false is not in
//! the reduct); a sum keeps the weights of `V`'s atoms and moves the rest into its bound
//! (an auxiliary atom holds it). A choice rule is the normal rule `h :- B` of its reduct for
//! each head atom `h ∈ M`. Every atom outside `V` keeps its value, so the models of this
//! program are exactly the `M \ U` sought.
//!
//! Invariant: [`Tester::check`] answers `Unfounded(U)` only with such a `U` (sorted) and
//! `Minimal` only when no component has one; [`Tester::loop_nogood`] is violated by `M` and
//! satisfied by every answer set of the program.

use crate::analyse::minimality::{MinRule, NONE};
use crate::analyse::{BodyDef, Minimality};
use crate::engine::cpu::CpuEngine;
use crate::engine::{Engine, HostOptions, Limits, Step};
use crate::lit::Lit;
use lparse::{Program, ProgramBuilder, Rule};

/// What the check of one candidate found.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Minimal,
    /// Atoms that can all be false in a model of the reduct below the candidate.
    Unfounded(Vec<u32>),
    /// The limits stopped the check.
    Stopped,
}

pub struct Tester {
    m: Minimality,
    opts: HostOptions,
    /// Scratch by atom: in the candidate; its `x` atom in the check program (0: none).
    in_m: Vec<bool>,
    x: Vec<u32>,
    /// Component index → its rules (indices into `m.rules`).
    rules_of: Vec<Vec<u32>>,
}

impl Tester {
    pub fn new(m: Minimality, num_atoms: u32, opts: HostOptions) -> Tester {
        let mut rules_of = vec![Vec::new(); m.components.len()];
        for (i, r) in m.rules.iter().enumerate() {
            let mut comps: Vec<u32> = r
                .head
                .iter()
                .map(|&a| m.component_of[a as usize])
                .filter(|&c| c != NONE)
                .collect();
            comps.sort_unstable();
            comps.dedup();
            comps
                .iter()
                .for_each(|&c| rules_of[c as usize].push(i as u32));
        }
        let n = num_atoms as usize + 1;
        Tester {
            m,
            // A candidate's check is not the solve's search: the solve limit is the inner
            // engine's alone.
            opts: HostOptions {
                limit: crate::engine::SolveLimit::NONE,
                ..opts
            },
            in_m: vec![false; n],
            x: vec![0; n],
            rules_of,
        }
    }

    /// Check the candidate `atoms` (sorted true atoms) component by component.
    pub fn check(&mut self, atoms: &[u32], limits: &Limits) -> Verdict {
        atoms.iter().for_each(|&a| self.in_m[a as usize] = true);
        let mut verdict = Verdict::Minimal;
        for c in 0..self.m.components.len() {
            verdict = self.check_component(c, limits);
            if verdict != Verdict::Minimal {
                break;
            }
        }
        atoms.iter().for_each(|&a| self.in_m[a as usize] = false);
        verdict
    }

    fn check_component(&mut self, c: usize, limits: &Limits) -> Verdict {
        let v: Vec<u32> = self.m.components[c]
            .iter()
            .copied()
            .filter(|&a| self.in_m[a as usize])
            .collect();
        if v.is_empty() {
            return Verdict::Minimal;
        }
        for (i, &a) in v.iter().enumerate() {
            self.x[a as usize] = i as u32 + 1;
        }
        let p = self.check_program(c, v.len() as u32);
        for &a in &v {
            self.x[a as usize] = 0;
        }
        let g = crate::analyse::analyse(&p).expect("the check program uses no unsupported feature");
        let completion = crate::nogoods::complete(&g);
        let mut engine = CpuEngine::new(&g, &completion, self.opts);
        match engine.next_model(limits) {
            Ok(Step::Model(model)) => {
                let kept = |a: u32| model.atoms.binary_search(&a).is_ok();
                let u = (1..=v.len() as u32)
                    .filter(|&i| !kept(i))
                    .map(|i| v[i as usize - 1])
                    .collect();
                Verdict::Unfounded(u)
            }
            Ok(Step::Exhausted) => Verdict::Minimal,
            Ok(Step::Stopped | Step::Limit) | Err(_) => Verdict::Stopped,
        }
    }

    /// The check program of component `c` (see the module doc); `x` numbers `V` as `1..=k`.
    fn check_program(&self, c: usize, k: u32) -> Program {
        let mut p = Program::default();
        p.note_atom(k);
        let xs: Vec<u32> = (1..=k).collect();
        p.rule(Rule::choice(&xs, &[]));
        let all: Vec<i32> = xs.iter().map(|&a| a as i32).collect();
        p.rule(Rule::normal(&[], &all));
        let mut next_aux = k + 1;
        for &ri in &self.rules_of[c] {
            let r = &self.m.rules[ri as usize];
            for head in self.head_groups(r) {
                let Some(stay) = self.heads_in_v(&head) else {
                    continue; // a head atom of M \ V holds whatever U is
                };
                let mut body: Vec<i32> = stay.iter().map(|&x| -(x as i32)).collect();
                match &r.body {
                    BodyDef::Conj { pos, neg } => {
                        if neg.iter().any(|&a| self.in_m[a as usize])
                            || pos.iter().any(|&a| !self.in_m[a as usize])
                        {
                            continue; // not in the reduct, or false below M
                        }
                        body.extend(
                            pos.iter()
                                .map(|&a| self.x[a as usize])
                                .filter(|&x| x > 0)
                                .map(|x| x as i32),
                        );
                    }
                    BodyDef::Sum { lower, lits } => {
                        let mut fixed = 0i64;
                        let mut wl: Vec<(i32, i64)> = Vec::new();
                        for &(l, w) in lits {
                            let a = l.unsigned_abs() as usize;
                            match (l > 0, self.in_m[a], self.x[a]) {
                                (true, true, 0) | (false, false, _) => fixed += w,
                                (true, true, x) => wl.push((x as i32, w)),
                                _ => {}
                            }
                        }
                        let need = lower - fixed;
                        if need > wl.iter().map(|&(_, w)| w).sum::<i64>() {
                            continue; // can never hold below M
                        }
                        if need > 0 {
                            p.rule(Rule::sum(&[next_aux], need, &wl));
                            p.note_atom(next_aux);
                            body.push(next_aux as i32);
                            next_aux += 1;
                        }
                    }
                }
                p.rule(Rule::normal(&[], &body));
            }
        }
        p
    }

    /// A choice rule's head atoms one by one (those in `M`), a disjunctive head whole.
    fn head_groups(&self, r: &MinRule) -> Vec<Vec<u32>> {
        if r.choice {
            r.head
                .iter()
                .filter(|&&a| self.in_m[a as usize])
                .map(|&a| vec![a])
                .collect()
        } else {
            vec![r.head.clone()]
        }
    }

    /// The `x` atoms of `head`'s atoms in `V`; `None` when an atom of `M \ V` is in `head`.
    fn heads_in_v(&self, head: &[u32]) -> Option<Vec<u32>> {
        let mut stay = Vec::new();
        for &a in head {
            match (self.in_m[a as usize], self.x[a as usize]) {
                (true, 0) => return None,
                (true, x) => stay.push(x),
                (false, _) => {}
            }
        }
        Some(stay)
    }

    /// The loop nogood of `u` (an unfounded set of the candidate `atoms`) for its atom `a`:
    /// `T a` and, for each rule with a head atom in `u` and no positive body atom in `u`, a
    /// reason it cannot support `u` — a true head atom outside `u`, or the literals that make
    /// its body false (a conjunction: one false literal; a sum: all its false literals outside
    /// `u`). Any assignment holding them all leaves `u` unfounded with `a` true, so no answer
    /// set does. `None` if a rule has no such reason (never, for a `u` from [`Tester::check`]).
    pub fn loop_nogood(&mut self, atoms: &[u32], u: &[u32], a: u32) -> Option<Vec<Lit>> {
        atoms.iter().for_each(|&q| self.in_m[q as usize] = true);
        let in_u = |q: u32| u.binary_search(&q).is_ok();
        let mut ng = vec![Lit::t(a)];
        let mut ok = true;
        'rules: for r in &self.m.rules {
            let groups: Vec<Vec<u32>> = if r.choice {
                r.head
                    .iter()
                    .filter(|&&h| in_u(h))
                    .map(|&h| vec![h])
                    .collect()
            } else if r.head.iter().any(|&h| in_u(h)) {
                vec![r.head.clone()]
            } else {
                vec![]
            };
            for head in groups {
                if let Some(&h) = head.iter().find(|&&h| !in_u(h) && self.in_m[h as usize]) {
                    ng.push(Lit::t(h));
                    continue;
                }
                match &r.body {
                    BodyDef::Conj { pos, neg } => {
                        if pos.iter().any(|&q| in_u(q)) {
                            continue; // internal: needs u itself
                        }
                        if let Some(&q) = pos.iter().find(|&&q| !self.in_m[q as usize]) {
                            ng.push(Lit::f(q));
                        } else if let Some(&q) = neg.iter().find(|&&q| self.in_m[q as usize]) {
                            ng.push(Lit::t(q));
                        } else {
                            ok = false;
                            break 'rules;
                        }
                    }
                    BodyDef::Sum { lits, .. } => {
                        for &(l, _) in lits {
                            let q = l.unsigned_abs();
                            match (l > 0, self.in_m[q as usize]) {
                                (true, false) => ng.push(Lit::f(q)),
                                (false, true) => ng.push(Lit::t(q)),
                                _ => {}
                            }
                        }
                    }
                }
            }
        }
        atoms.iter().for_each(|&q| self.in_m[q as usize] = false);
        ng.sort_unstable();
        ng.dedup();
        ok.then_some(ng)
    }
}
