//! The second search of the minimality check: for a candidate `M` and a component `C` with a
//! head cycle, is there a non-empty `U ⊆ C ∩ M` with `M \ U` a model of the reduct `P^M`?
//!
//! The question is itself a small program, built once per component and solved by one host
//! engine kept across checks (clasp's tester, Drescher et al., KR 2008): the candidate enters
//! as assumptions, so what the engine learns from one check (nogoods of the check program
//! alone, never of an assumption) serves the next. Its atoms: `m_q` for each atom `q` that
//! the component's rules read (`q ∈ M`, assumed), `x_a` for each `a ∈ C` (`a ∈ M \ U`), both
//! chosen freely, then
//!
//! - `:- x_a, not m_a` (`U ⊆ M`, so `M \ U ⊆ M`) and `ch :- m_a, not x_a.  :- not ch.` (`U`
//!   not empty);
//! - for each rule `r` with a head atom in `C`, the constraint "the body of `r`'s reduct holds
//!   in `M \ U` and no head atom does": a positive body atom `q` reads `x_q` in `C`, `m_q`
//!   outside (every atom outside `C` keeps its value), a negative one `not m_q` (the reduct is
//!   read in `M`), a head atom `not x_h` or `not m_h` the same way; a sum body is an auxiliary
//!   atom over the same literals; a choice rule is the normal rule `h :- B` of its reduct for
//!   each head atom `h ∈ C ∩ M` (`:- m_h, not x_h, B`).
//!
//! Under the assumptions of `M` the models of this program are exactly the `M \ U` sought.
//!
//! Invariant: [`Tester::check`] answers `Unfounded(U)` only with such a `U` (sorted) and
//! `Minimal` only when no component has one; a component's engine never blocks a model it
//! found (each check asks its own question); [`Tester::loop_nogood`] is violated by `M` and
//! satisfied by every answer set of the program.

use crate::analyse::minimality::NONE;
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

/// The check of one component: its program's engine and what the assumptions read.
struct Component {
    /// The input atoms the component's rules read, sorted; `read[i]`'s `m` atom is `i + 1`.
    read: Vec<u32>,
    /// The component's atoms (sorted, as `Minimality::components`); `atoms[j]`'s `x` atom
    /// is `read.len() + 1 + j`.
    atoms: Vec<u32>,
    engine: CpuEngine,
    /// By `read` index: the value in the last candidate checked here.
    last: Vec<bool>,
    /// The last candidate checked here was minimal (an exact repeat is minimal again without
    /// a search: a candidate may differ from the last one elsewhere only).
    last_minimal: bool,
    /// The order of the assumptions (`read` indices): those whose value changed from one
    /// check to the next move to the end, so that the leading ones, unchanged, keep their
    /// decision levels (`CpuEngine::reassume`).
    order: Vec<u32>,
}

pub struct Tester {
    m: Minimality,
    opts: HostOptions,
    /// By component: its check, built at its first candidate with an atom in it.
    comps: Vec<Option<Component>>,
    /// Scratch by atom: in the candidate.
    in_m: Vec<bool>,
    /// Component index → its rules (indices into `m.rules`).
    rules_of: Vec<Vec<u32>>,
    /// By atom: the rules (indices into `m.rules`) with it in the head.
    head_rules: Vec<Vec<u32>>,
    /// Checks that searched (not answered by `last_minimal`).
    pub searches: u64,
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
        let mut head_rules = vec![Vec::new(); n];
        for (i, r) in m.rules.iter().enumerate() {
            r.head
                .iter()
                .for_each(|&a| head_rules[a as usize].push(i as u32));
        }
        Tester {
            head_rules,
            comps: (0..m.components.len()).map(|_| None).collect(),
            m,
            // A candidate's check is not the solve's search: the solve limit is the inner
            // engine's alone.
            opts: HostOptions {
                limit: crate::engine::SolveLimit::NONE,
                ..opts
            },
            in_m: vec![false; n],
            rules_of,
            searches: 0,
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
        if !self.m.components[c].iter().any(|&a| self.in_m[a as usize]) {
            return Verdict::Minimal; // U ⊆ C ∩ M is empty
        }
        if self.comps[c].is_none() {
            self.comps[c] = Some(self.build(c));
        }
        let in_m = &self.in_m;
        let comp = self.comps[c].as_mut().expect("built");
        let now = |i: u32| in_m[comp.read[i as usize] as usize];
        if comp.last_minimal && comp.order.iter().all(|&i| now(i) == comp.last[i as usize]) {
            return Verdict::Minimal;
        }
        // Unchanged assumptions first, in their order, then the changed ones.
        let (mut same, changed): (Vec<u32>, Vec<u32>) =
            (comp.order.iter()).partition(|&&i| now(i) == comp.last[i as usize]);
        same.extend(changed);
        comp.order = same;
        for (i, &q) in comp.read.iter().enumerate() {
            comp.last[i] = in_m[q as usize];
        }
        let assumed: Vec<Lit> = (comp.order.iter())
            .map(|&i| match comp.last[i as usize] {
                true => Lit::t(i + 1),
                false => Lit::f(i + 1),
            })
            .collect();
        self.searches += 1;
        comp.engine.reassume(&assumed);
        let step = comp.engine.next_model(limits);
        comp.engine.unblock_last_model();
        comp.last_minimal = matches!(step, Ok(Step::Exhausted));
        match step {
            Ok(Step::Model(model)) => {
                let base = comp.read.len() as u32 + 1;
                let kept = |j: usize| model.atoms.binary_search(&(base + j as u32)).is_ok();
                let u = (comp.atoms.iter().enumerate())
                    .filter(|&(j, &a)| in_m[a as usize] && !kept(j))
                    .map(|(_, &a)| a)
                    .collect();
                Verdict::Unfounded(u)
            }
            Ok(Step::Exhausted) => Verdict::Minimal,
            Ok(Step::Stopped | Step::Limit) | Err(_) => Verdict::Stopped,
        }
    }

    /// The check of component `c`: its program (see the module doc) and the engine over it.
    fn build(&self, c: usize) -> Component {
        let atoms = self.m.components[c].clone();
        let mut read: Vec<u32> = atoms.clone();
        for &ri in &self.rules_of[c] {
            let r = &self.m.rules[ri as usize];
            read.extend(&r.head);
            match &r.body {
                BodyDef::Conj { pos, neg } => read.extend(pos.iter().chain(neg)),
                BodyDef::Sum { lits, .. } => read.extend(lits.iter().map(|l| l.0.unsigned_abs())),
            }
        }
        read.sort_unstable();
        read.dedup();
        let p = self.check_program(c, &read, &atoms);
        let g = crate::analyse::analyse(&p).expect("the check program uses no unsupported feature");
        let completion = crate::nogoods::complete(&g);
        Component {
            engine: CpuEngine::new(&g, &completion, self.opts),
            last: vec![false; read.len()],
            last_minimal: false,
            order: (0..read.len() as u32).collect(),
            read,
            atoms,
        }
    }

    /// The check program of component `c` over `read` and the component's `atoms`.
    fn check_program(&self, c: usize, read: &[u32], atoms: &[u32]) -> Program {
        let k = read.len() as u32;
        let n = atoms.len() as u32;
        // `m_q`, `x_a` and what `q ∈ M \ U` reads (see `Component`).
        let m = |q: u32| read.binary_search(&q).expect("a read atom") as i32 + 1;
        let x = |a: u32| {
            atoms
                .binary_search(&a)
                .ok()
                .map(|j| (k + 1 + j as u32) as i32)
        };
        let stays = |q: u32| x(q).unwrap_or_else(|| m(q));
        let mut p = Program::default();
        let ch = k + n + 1;
        p.note_atom(ch);
        let chosen: Vec<u32> = (1..=k + n).collect();
        p.rule(Rule::choice(&chosen, &[]));
        for &a in atoms {
            let xa = x(a).expect("an atom of the component");
            p.rule(Rule::normal(&[], &[xa, -m(a)]));
            p.rule(Rule::normal(&[ch], &[m(a), -xa]));
        }
        p.rule(Rule::normal(&[], &[-(ch as i32)]));
        let mut next_aux = ch + 1;
        for &ri in &self.rules_of[c] {
            let r = &self.m.rules[ri as usize];
            let body: Vec<i32> = match &r.body {
                BodyDef::Conj { pos, neg } => pos
                    .iter()
                    .map(|&q| stays(q))
                    .chain(neg.iter().map(|&q| -m(q)))
                    .collect(),
                BodyDef::Sum { lower, lits } => {
                    let wl: Vec<(i32, i64)> = lits
                        .iter()
                        .map(|&(l, w)| match l > 0 {
                            true => (stays(l as u32), w),
                            false => (-m(l.unsigned_abs()), w),
                        })
                        .collect();
                    let s = next_aux;
                    next_aux += 1;
                    p.note_atom(s);
                    p.rule(Rule::sum(&[s], *lower, &wl));
                    vec![s as i32]
                }
            };
            if r.choice {
                for &h in r.head.iter().filter(|&&h| x(h).is_some()) {
                    let mut ng = vec![m(h), -x(h).expect("in the component")];
                    ng.extend(&body);
                    p.rule(Rule::normal(&[], &ng));
                }
            } else {
                let mut ng: Vec<i32> = r.head.iter().map(|&h| -stays(h)).collect();
                ng.extend(&body);
                p.rule(Rule::normal(&[], &ng));
            }
        }
        p
    }

    /// The reasons of the loop nogoods of `u` (an unfounded set of the candidate `atoms`): for
    /// each rule with a head atom in `u` and no positive body atom in `u`, a reason it cannot
    /// support `u` — a true head atom outside `u`, or the literals that make its body false (a
    /// conjunction: one false literal; a sum: all its false literals outside `u`). With `T a`
    /// for any `a ∈ u` they are a loop nogood: an assignment holding them all leaves `u`
    /// unfounded with `a` true, so no answer set does. `None` if a rule has no such reason
    /// (never, for a `u` from [`Tester::check`]).
    pub fn loop_reasons(&mut self, atoms: &[u32], u: &[u32]) -> Option<Vec<Lit>> {
        atoms.iter().for_each(|&q| self.in_m[q as usize] = true);
        let in_u = |q: u32| u.binary_search(&q).is_ok();
        // The rules with a head atom in `u`, each once.
        let mut rules: Vec<u32> = u
            .iter()
            .flat_map(|&a| self.head_rules[a as usize].iter().copied())
            .collect();
        rules.sort_unstable();
        rules.dedup();
        let mut ng = Vec::new();
        let mut ok = true;
        'rules: for &ri in &rules {
            let r = &self.m.rules[ri as usize];
            // A choice rule supports each of its head atoms on its own: one in `u` is reason
            // enough to look at it, and no other head atom makes it fail to.
            let true_head = match r.choice {
                true => None,
                false => r.head.iter().find(|&&h| !in_u(h) && self.in_m[h as usize]),
            };
            if let Some(&h) = true_head {
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
        atoms.iter().for_each(|&q| self.in_m[q as usize] = false);
        ng.sort_unstable();
        ng.dedup();
        ok.then_some(ng)
    }

    /// The loop nogood of `u` for its atom `a`: `T a` and `reasons` ([`Tester::loop_reasons`]).
    pub fn loop_nogood(reasons: &[Lit], a: u32) -> Vec<Lit> {
        let mut ng = reasons.to_vec();
        if let Err(i) = ng.binary_search(&Lit::t(a)) {
            ng.insert(i, Lit::t(a));
        }
        ng
    }
}
