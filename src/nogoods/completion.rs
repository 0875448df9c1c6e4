//! [`GroundProgram`] → completion nogoods (the paper's section 2), one body variable shared by
//! all rules with that body, as clasp does.
//!
//! Invariant: a total assignment satisfies the nogoods iff its atoms form a supported model of
//! the program (every rule holds, every true atom has a rule with a true body and it in the
//! head, choice heads are free) and every other variable has the one value its definition gives
//! it: `body_var[i] ↔ bodies[i]` — except that the variable of a conjunctive body used only by
//! integrity constraints is false, its constraint written on the literals directly —, aggregate
//! nodes as in [`super::aggregate`] and [`super::adder`]. Variables: atoms `1..=num_atoms`, then
//! one per body, then aggregate auxiliaries.
//!
//! With equivalence preprocessing (`g.eq.on`, [`crate::ground::eq`]) a body the analysis found
//! equal to an atom has that atom's variable and no variable of its own (its definition written
//! on the atom: the nogoods that said `b ↔ p` become tautologies, which the store drops), every
//! conjunctive body used only by integrity constraints shares one variable fixed false, and a
//! fact's rule `p :- ∅` is the unit `{F p}`. Atoms keep their variables; the invariant above
//! holds as stated, body variables being shared.
//!
//! With eliminated atoms (`g.aliases`, [`crate::ground::alias`]) every nogood reads an
//! eliminated atom `q = ±r` as the literal of `r`, `q`'s own variable is fixed false (`{T q}`)
//! and its support and head nogoods (`q ↔ ±r` itself) are left out: the invariant then holds
//! for the assignment with each `q` given the value of its literal.

use super::aggregate;
use super::db::{NogoodDbBuilder, Origin};
use super::Completion;
use crate::ground::{BodyDef, GroundProgram};
use crate::lit::holds;
use crate::lit::{Lit, Var};

/// The completion nogoods of `g`.
pub fn complete(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::default())
}

/// The completion nogoods of `g` for the host engine: sum bodies kept as native constraints
/// (`Completion::native_sums`; the device engine needs [`complete`]).
pub fn complete_native(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::native())
}

/// As [`complete_native`] with every sum body that needs a diagram node left native.
pub fn complete_all_native(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::native_with_budget(0, 0))
}

/// The completion nogoods of `g`, sum bodies encoded by `sums` (its budget decides between
/// decision diagram and adder).
pub fn complete_with(g: &GroundProgram, mut sums: aggregate::Aggregates) -> Completion {
    let mut nb = NogoodDbBuilder::new();
    // Atoms keep their numbers, even those in no rule.
    nb.reserve_vars(g.num_atoms);
    // (alias) every literal of an eliminated atom is read as its root's
    let aliases = &g.aliases;
    nb.set_aliases(aliases);

    // A conjunctive body that only integrity constraints use needs no definition: the paper's
    // constraint nogood {T p | p ∈ pos} ∪ {F q | q ∈ neg} says it all, and its body variable is
    // simply false ({T b}, below), so it adds no freedom to enumerate.
    let mut only_constraints = vec![true; g.bodies.len()];
    for r in &g.rules {
        if r.choice || !r.head.is_empty() {
            only_constraints[r.body as usize] = false;
        }
    }
    let eq = &g.eq;
    // (alias) bodies whose every rule is the only rule of an eliminated atom: nothing reads
    // them, so they share the fixed-false variable below and get no definition
    let dead: Vec<bool> = if aliases.is_empty() {
        vec![false; g.bodies.len()]
    } else {
        let mut dead = vec![true; g.bodies.len()];
        for r in &g.rules {
            if !matches!(r.head.as_slice(), [p] if !r.choice && aliases.of_atom(*p).is_some()) {
                dead[r.body as usize] = false;
            }
        }
        dead
    };
    // (eq) the one variable, fixed false, of every constraint-only conjunction
    let mut constraint_var: Option<Var> = None;
    let body_var: Vec<Var> = (0..g.bodies.len())
        .map(|i| {
            if let Some(p) = eq.atom_of_body(i) {
                // b ↔ p: the atom's variable, or its root's when p is eliminated as `+r`
                // (as `-r`, b ↔ ¬r: a variable of its own, defined over r below)
                match aliases.of_atom(p) {
                    None => return p,
                    Some(r) if r > 0 => return r as Var,
                    Some(_) => {}
                }
            }
            let conj = matches!(g.bodies[i], BodyDef::Conj { .. });
            if (eq.on && conj && only_constraints[i]) || dead[i] {
                return *constraint_var.get_or_insert_with(|| {
                    let f = nb.new_var();
                    nb.add(&[Lit::t(f)], Origin::Constraint); // :- body: {T b}, once
                    f
                });
            }
            nb.new_var()
        })
        .collect();
    let first_aux = nb.num_vars();

    let mut aux_body = Vec::new();
    for (i, body) in g.bodies.iter().enumerate() {
        if let BodyDef::Conj { pos, neg } = body {
            if dead[i] {
                continue;
            }
            if only_constraints[i] {
                // :- body: {T p | p ∈ pos} ∪ {F q | q ∈ neg}
                let lits: Vec<Lit> = pos
                    .iter()
                    .map(|&p| Lit::t(p))
                    .chain(neg.iter().map(|&q| Lit::f(q)))
                    .collect();
                nb.add(&lits, Origin::Constraint);
            } else {
                conj(&mut nb, body_var[i], pos, neg);
            }
        }
    }
    // By increasing bound, so that the bounds of one sum extend its diagram a column at a time.
    let mut sum_bodies: Vec<usize> = (0..g.bodies.len())
        .filter(|&i| matches!(g.bodies[i], BodyDef::Sum { .. }))
        .collect();
    sum_bodies.sort_by_key(|&i| match &g.bodies[i] {
        BodyDef::Sum { lower, .. } => *lower,
        BodyDef::Conj { .. } => 0,
    });
    for i in sum_bodies {
        if let BodyDef::Sum { lower, lits } = &g.bodies[i] {
            // b ↔ Σ w·[l] ≥ lower
            let fresh = sums.encode(&mut nb, body_var[i], *lower, lits);
            aux_body.extend(std::iter::repeat_n(i as u32, fresh as usize));
        }
    }

    // p → ∨ b_r over every rule with p in its head (choice rules too):
    // {T p} ∪ {F b_r}; with no rule at all p is simply false: {T p}.
    let mut support: Vec<Lit> = Vec::new();
    for p in 1..=g.num_atoms {
        if aliases.of_atom(p).is_some() {
            // (alias) p is read as its root's literal; its own variable is fixed false, and
            // its completion p ↔ l is the equivalence itself.
            nb.add_unmapped(&[Lit::t(p)], Origin::Fact);
            continue;
        }
        let rules = g.rules_of(p);
        if eq.on
            && rules
                .iter()
                .any(|&r| is_empty_conj(&g.bodies[g.rules[r as usize].body as usize]))
        {
            continue; // (eq) a rule with the empty body, always true, supports p
        }
        support.clear();
        support.push(Lit::t(p));
        support.extend(
            rules
                .iter()
                .map(|&r| Lit::f(body_var[g.rules[r as usize].body as usize])),
        );
        let origin = if support.len() == 1 {
            Origin::Fact
        } else {
            Origin::Support
        };
        nb.add(&support, origin); // `add` drops the repeats of a body shared by two rules.
    }

    for r in &g.rules {
        let b = body_var[r.body as usize];
        match (r.choice, r.head.as_slice()) {
            // `{…} :- body`: the body only allows the head atoms, it does not force them.
            (true, _) => {}
            // `:- body`: the body must be false: {T b} (the shared variable's: added once).
            (false, []) if Some(b) == constraint_var => {}
            (false, []) => nb.add(&[Lit::t(b)], Origin::Constraint),
            // (alias) the eliminated atom's only rule: its head nogood is the equivalence.
            (false, [p]) if aliases.of_atom(*p).is_some() => {}
            // (eq) a fact `p :- ∅`: b_r holds, so {T b_r, F p} is {F p}.
            (false, [p]) if eq.on && is_empty_conj(&g.bodies[r.body as usize]) => {
                nb.add(&[Lit::f(*p)], Origin::Fact)
            }
            // `p :- body`, b_r → p: {T b_r, F p}.
            (false, [p]) => nb.add(&[Lit::t(b), Lit::f(*p)], Origin::Head),
            (false, _) => unreachable!("analyse rejects disjunctive heads"),
        }
    }

    let native_sums = sums.finish(&mut nb); // (agg) empty unless `Aggregates::native`
    let (body_rule_offsets, body_rules) = body_rules(g);
    Completion {
        db: nb.build(),
        body_var,
        body_rule_offsets,
        body_rules,
        first_aux,
        aux_body,
        sums_as_adders: sums.adder_bodies(),
        native_sums,
    }
}

fn is_empty_conj(body: &BodyDef) -> bool {
    matches!(body, BodyDef::Conj { pos, neg } if pos.is_empty() && neg.is_empty())
}

/// The nogoods of `b ↔ pos ∧ ¬neg` (the paper's `b_r ↔ t_r ∧ n_r` with `t_r`, `n_r` folded in).
fn conj(nb: &mut NogoodDbBuilder, b: Var, pos: &[u32], neg: &[u32]) {
    // b ← body: {F b} ∪ {T p | p ∈ pos} ∪ {F q | q ∈ neg}  (the empty body: {F b}, b is true)
    let mut all = Vec::with_capacity(1 + pos.len() + neg.len());
    all.push(Lit::f(b));
    all.extend(pos.iter().map(|&p| holds(p as i32)));
    all.extend(neg.iter().map(|&q| holds(-(q as i32))));
    nb.add(&all, Origin::Body);
    // b → p: {T b, F p} for each p ∈ pos
    for &p in pos {
        nb.add(&[Lit::t(b), Lit::f(p)], Origin::Body);
    }
    // b → not q: {T b, T q} for each q ∈ neg
    for &q in neg {
        nb.add(&[Lit::t(b), Lit::t(q)], Origin::Body);
    }
}

/// Body index → rules with that body (CSR).
fn body_rules(g: &GroundProgram) -> (Vec<u32>, Vec<u32>) {
    let n = g.bodies.len();
    let mut offsets = vec![0u32; n + 1];
    for r in &g.rules {
        offsets[r.body as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut rules = vec![0u32; g.rules.len()];
    for (ri, r) in g.rules.iter().enumerate() {
        rules[fill[r.body as usize] as usize] = ri as u32;
        fill[r.body as usize] += 1;
    }
    (offsets, rules)
}
