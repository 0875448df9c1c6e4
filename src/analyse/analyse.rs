//! `Program` → [`GroundProgram`]: honoured rules with shared bodies, externals turned into rules,
//! the head map, the positive dependency graph and its components.
//!
//! Invariant: the supported models of the returned program, restricted to the input's atoms
//! (`1..=input_atoms()`), are exactly the supported models of the input program with its
//! externals read as documented on [`analyse`] and its disjunctive rules shifted, one for one
//! (the auxiliary atom of a shared head set holds exactly when one of its bodies does); shifting
//! keeps the answer sets of a head-cycle-free program; for any other, every answer set is among
//! them, and the components with a head cycle are marked acyclic and described in `minimality`
//! for the engines' check, [`super::minimality`] (such a program gets no auxiliary atom);
//! equal normalised bodies are stored once; `#project` is the run's
//! (`--project`), not the search's; anything of the input the solver cannot
//! honour is an [`Unsupported`] error, never silently dropped (`#heuristic`, which only guides
//! search, is kept for `--heuristic=domain`; the run says when it is ignored).

use super::minimality::Minimality;
use super::normalise::{normalise_conj, normalise_sum};
use super::scc::tarjan;
use super::shift::{head_cycles, share_heads, shifted_body, Shift};
use super::simplify::{InRule, Simplified};
use super::{BodyDef, GroundProgram, RuleDef};
use crate::csr::Csr;
use lparse::{Body, ExternalValue, HeadKind, Program};
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// Input the solver cannot honour yet. Each message says what and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unsupported {
    #[error(
        "rule {rule} of the input: shifting its disjunctive head makes sum weights exceed 64 bits"
    )]
    ShiftOverflow { rule: usize },
    #[error("theory atoms are not supported yet (the input has {0} theory statements)")]
    Theory(usize),
    #[error("#edge directives (acyclicity constraints) are not supported yet (the input has {0})")]
    Edge(usize),
}

/// Analyse `program`.
///
/// Assumptions (aspif `6`, from `#external` atoms assumed by the grounder's caller) become
/// integrity constraints: only answer sets where every assumed literal holds remain.
///
/// Externals (the last statement for an atom wins): `Free` = the choice rule `{a}.`; `True` =
/// `{a}.` plus the constraint `:- not a.`; `False` and `Release` = no rule, so the atom is false.
/// As in clingo, the declaration of an atom that heads some rule is ignored: it is an ordinary
/// atom. A choice rule with an empty head and a rule whose body can never
/// hold are dropped (their head atoms stay atoms).
///
/// Disjunctive rules are shifted into normal rules ([`super::shift`]); in a head-cycle-free
/// program a head set with several bodies is shifted once, over an auxiliary atom numbered
/// after the input's ([`GroundProgram::aux_atoms`]). The components with two atoms of one
/// disjunctive head are marked acyclic and described in [`GroundProgram::minimality`] (see
/// [`super::minimality`]); such a program is shifted rule by rule.
pub fn analyse(program: &Program) -> Result<GroundProgram, Unsupported> {
    analyse_with(program, false)
}

/// [`analyse`], with the rules first read under the atoms settled in every answer set when
/// `simplify` ([`super::simplify`]; what it did is [`GroundProgram::simplified`]).
pub fn analyse_with(program: &Program, simplify: bool) -> Result<GroundProgram, Unsupported> {
    if program.theory_statements > 0 {
        return Err(Unsupported::Theory(program.theory_statements));
    }
    if !program.edges.is_empty() {
        return Err(Unsupported::Edge(program.edges.len()));
    }
    let warnings = Vec::new();

    let num_atoms = max_atom(program);
    // The input's rules in order, then the externals' and the assumptions'.
    // (Sized at once: a vector doubling past millions of rules holds both copies at the peak.)
    let mut rules: Vec<InRule> = Vec::with_capacity(
        program.rules.len() + 2 * program.externals.len() + program.assumptions.len(),
    );
    for (k, rule) in program.rules.iter().enumerate() {
        let mut head = rule.head.atoms.clone();
        head.sort_unstable();
        head.dedup();
        let choice = rule.head.kind == HeadKind::Choice;
        if choice && head.is_empty() {
            continue; // `{} :- body.` says nothing.
        }
        let body = match &rule.body {
            Body::Normal(lits) => normalise_conj(lits),
            Body::Sum { lower, lits } => normalise_sum(*lower, lits),
        };
        if let Some(body) = body {
            rules.push(InRule {
                head,
                choice,
                body,
                input: k + 1,
            });
        }
    }

    // clingo drops the declaration of an external atom that heads some rule: it is an ordinary
    // atom then (the checker reads it the same way).
    let mut heads = vec![false; num_atoms as usize + 1];
    for rule in &program.rules {
        rule.head
            .atoms
            .iter()
            .for_each(|&a| heads[a as usize] = true);
    }
    // Last statement per atom wins; emit in atom order so the result does not depend on hashing.
    let mut ext: Vec<(u32, usize, ExternalValue)> = program
        .externals
        .iter()
        .enumerate()
        .filter(|(_, e)| !heads[e.atom as usize])
        .map(|(i, e)| (e.atom, i, e.value))
        .collect();
    ext.sort_unstable_by_key(|&(a, i, _)| (a, std::cmp::Reverse(i)));
    ext.dedup_by_key(|&mut (a, _, _)| a);
    for (atom, _, value) in ext {
        match value {
            ExternalValue::Free => rules.push(InRule::made(vec![atom], true, empty())),
            ExternalValue::True => {
                rules.push(InRule::made(vec![atom], true, empty()));
                let not_atom = BodyDef::Conj {
                    pos: vec![],
                    neg: vec![atom],
                };
                rules.push(InRule::made(vec![], false, not_atom));
            }
            ExternalValue::False | ExternalValue::Release => {}
        }
    }

    // Assumptions (aspif 6) filter the answer sets: `:- not l.` for each assumed literal `l`.
    for &l in &program.assumptions {
        if let Some(body) = normalise_conj(&[-l]) {
            rules.push(InRule::made(vec![], false, body));
        }
    }

    let simplified = if simplify {
        super::simplify::simplify(num_atoms, &mut rules)
    } else {
        Simplified::default()
    };
    let mut b = Builder::with_capacity(rules.len());
    // Disjunctive rules wait until the dependency graph is known: (input rule number, head, body).
    let mut disjunctive: Vec<(usize, Vec<u32>, BodyDef)> = Vec::new();
    // In order, each rule's room given back as it moves into the builder (reversed, popped,
    // the vector shrunk by halves), so that the program is not held twice.
    rules.reverse();
    while let Some(r) = rules.pop() {
        if !r.choice && r.head.len() > 1 {
            disjunctive.push((r.input, r.head, r.body));
        } else {
            b.rule(r.head, r.choice, r.body);
        }
        if rules.len() < rules.capacity() / 2 && rules.capacity() > 1 << 12 {
            rules.shrink_to_fit();
        }
    }
    drop(rules);

    let (minimality, aux_atoms) = if disjunctive.is_empty() {
        (None, 0)
    } else {
        shift_all(num_atoms, &mut b, disjunctive)?
    };
    // The auxiliary atoms of shared head sets follow the input's (`shift::share_heads`).
    let num_atoms = num_atoms + aux_atoms;
    let b = b.finish();

    let (head_offsets, head_rules) = head_csr(num_atoms, &b.rules);
    let dependencies = dependency_csr(
        num_atoms,
        b.rules
            .iter()
            .map(|r| (r.head.as_slice(), &b.bodies[r.body as usize])),
    );
    let (scc, mut scc_cyclic) = tarjan(&dependencies);
    // The shifted graph may have fewer edges (a shifted rule that can never hold is dropped),
    // so its components are finer: each lies inside one of the input's.
    if let Some(m) = &minimality {
        for &a in m.components.iter().flatten() {
            scc_cyclic[scc[a as usize] as usize] = false;
        }
    }
    let tight = !scc_cyclic.iter().any(|&c| c);
    let mut g = GroundProgram {
        num_atoms,
        aux_atoms,
        bodies: std::sync::Arc::new(b.bodies),
        rules: b.rules,
        head_offsets,
        head_rules,
        scc,
        scc_cyclic,
        tight,
        warnings,
        objective: super::Objective::new(program),
        heuristics: program.heuristics.clone(),
        minimality,
        simplified,
        eq: super::eq::Equivalences::default(),
        aliases: super::alias::Aliases::default(),
    };
    g.eq = super::eq::find(&g);
    Ok(g)
}

/// Add the shifted rules of `disjunctive` to `b` (atoms `1..=num_atoms` so far); the number of
/// auxiliary atoms they use (`num_atoms + 1 ..`), and, when the program with them is not
/// head-cycle-free, what the minimality check needs about its head cycles. Such a program is
/// shifted rule by rule, without auxiliary atoms: its minimality check reads the input's rules
/// and atoms.
fn shift_all(
    num_atoms: u32,
    b: &mut Builder,
    disjunctive: Vec<(usize, Vec<u32>, BodyDef)>,
) -> Result<(Option<Minimality>, u32), Unsupported> {
    let dependencies = dependency_csr(
        num_atoms,
        b.rules
            .iter()
            .map(|r| (r.head.as_slice(), &b.bodies[r.body as usize]))
            .chain(disjunctive.iter().map(|(_, h, body)| (h.as_slice(), body))),
    );
    let (scc, _) = tarjan(&dependencies);
    let non_hcf = head_cycles(disjunctive.iter().map(|(_, h, _)| h.as_slice()), &scc);
    if !non_hcf.is_empty() {
        let normal = b
            .rules
            .iter()
            .map(|r| (r.head.as_slice(), r.choice, &b.bodies[r.body as usize]));
        let disj = disjunctive
            .iter()
            .map(|(_, h, body)| (h.as_slice(), false, body));
        let minimality = Minimality::new(num_atoms, &scc, &non_hcf, normal.chain(disj));
        for (rule, head, body) in disjunctive {
            shift_alone(b, rule, &head, &body)?;
        }
        return Ok((Some(minimality), 0));
    }
    let (plan, aux_atoms) =
        share_heads(disjunctive.iter().map(|(_, h, body)| (h.as_slice(), body)));
    let mut shifted = vec![false; aux_atoms as usize];
    for ((rule, head, body), plan) in disjunctive.into_iter().zip(plan) {
        match plan {
            Shift::Alone => shift_alone(b, rule, &head, &body)?,
            Shift::Repeat => {}
            Shift::Shared(k) => {
                // d :- B; and, with the head set's first body, aᵢ :- d, not aⱼ (j ≠ i).
                let d = num_atoms + 1 + k;
                if !std::mem::replace(&mut shifted[k as usize], true) {
                    let over_d = BodyDef::Conj {
                        pos: vec![d],
                        neg: vec![],
                    };
                    shift_alone(b, rule, &head, &over_d)?;
                }
                b.rule(vec![d], false, body);
            }
        }
    }
    Ok((None, aux_atoms))
}

/// The `k` shifted rules of `head :- body` (those that can hold).
fn shift_alone(
    b: &mut Builder,
    rule: usize,
    head: &[u32],
    body: &BodyDef,
) -> Result<(), Unsupported> {
    for (i, &a) in head.iter().enumerate() {
        match shifted_body(body, head, i) {
            Ok(Some(body)) => b.rule(vec![a], false, body),
            Ok(None) => {}
            Err(_) => return Err(Unsupported::ShiftOverflow { rule }),
        }
    }
    Ok(())
}

/// `program.max_atom`, or more if the program was built without noting every atom (the CSRs
/// below index by atom and must cover all of them).
fn max_atom(program: &Program) -> u32 {
    let mut m = program.max_atom;
    for r in &program.rules {
        m = r.head.atoms.iter().fold(m, |m, &a| m.max(a));
        m = match &r.body {
            Body::Normal(lits) => lits.iter().fold(m, |m, &l| m.max(l.unsigned_abs())),
            Body::Sum { lits, .. } => lits.iter().fold(m, |m, w| m.max(w.lit.unsigned_abs())),
        };
    }
    let m = program.externals.iter().fold(m, |m, e| m.max(e.atom));
    let m = program
        .assumptions
        .iter()
        .fold(m, |m, l| m.max(l.unsigned_abs()));
    let minimize = program.minimize.iter().flat_map(|s| &s.lits);
    minimize.fold(m, |m, w| m.max(w.lit.unsigned_abs()))
}

fn empty() -> BodyDef {
    BodyDef::Conj {
        pos: vec![],
        neg: vec![],
    }
}

/// Rules and hash-consed bodies. Bodies are stored once; `chain` links bodies of equal hash so
/// the table needs no second copy of each body as a key.
#[derive(Default)]
struct Builder {
    bodies: Vec<BodyDef>,
    rules: Vec<RuleDef>,
    first_of_hash: HashMap<u64, u32>,
    chain: Vec<u32>,
}

impl Builder {
    fn with_capacity(rules: usize) -> Builder {
        Builder {
            bodies: Vec::with_capacity(rules),
            rules: Vec::with_capacity(rules),
            first_of_hash: HashMap::with_capacity(rules),
            chain: Vec::with_capacity(rules),
        }
    }

    /// The rules and bodies, without the table (and at their size).
    fn finish(mut self) -> Builder {
        self.bodies.shrink_to_fit();
        self.rules.shrink_to_fit();
        Builder {
            bodies: self.bodies,
            rules: self.rules,
            ..Builder::default()
        }
    }

    fn rule(&mut self, head: Vec<u32>, choice: bool, body: BodyDef) {
        let body = self.intern(body);
        self.rules.push(RuleDef { head, choice, body });
    }

    fn intern(&mut self, body: BodyDef) -> u32 {
        const NONE: u32 = u32::MAX;
        let mut h = DefaultHasher::new();
        body.hash(&mut h);
        let h = h.finish();
        let first = self.first_of_hash.get(&h).copied().unwrap_or(NONE);
        let mut i = first;
        while i != NONE {
            if self.bodies[i as usize] == body {
                return i;
            }
            i = self.chain[i as usize];
        }
        let id = self.bodies.len() as u32;
        self.bodies.push(body);
        self.chain.push(first);
        self.first_of_hash.insert(h, id);
        id
    }
}

/// Atom → rules with it in the head, CSR over `0..=num_atoms`.
fn head_csr(num_atoms: u32, rules: &[RuleDef]) -> (Vec<u32>, Vec<u32>) {
    let pairs = rules
        .iter()
        .enumerate()
        .flat_map(|(ri, r)| r.head.iter().map(move |&a| (a as usize, ri as u32)));
    Csr::from_pairs(num_atoms as usize + 1, pairs).into_parts()
}

/// The positive dependency graph: head atom → each positive atom of the body (sum bodies
/// included). CSR over `0..=num_atoms`; atom 0 has no edges.
fn dependency_csr<'a>(
    num_atoms: u32,
    rules: impl Iterator<Item = (&'a [u32], &'a BodyDef)> + Clone,
) -> Csr<u32> {
    let pairs = rules.flat_map(|(head, body)| {
        head.iter()
            .flat_map(move |&a| positive(body).map(move |p| (a as usize, p)))
    });
    Csr::from_pairs(num_atoms as usize + 1, pairs)
}

/// The positive atoms of a body (of a sum's literals, the positive ones).
fn positive(body: &BodyDef) -> impl Iterator<Item = u32> + Clone + '_ {
    let (pos, lits): (&[u32], &[(i32, i64)]) = match body {
        BodyDef::Conj { pos, .. } => (pos, &[]),
        BodyDef::Sum { lits, .. } => (&[], lits),
    };
    let sum = lits.iter().filter(|&&(l, _)| l > 0).map(|&(l, _)| l as u32);
    pos.iter().copied().chain(sum)
}
