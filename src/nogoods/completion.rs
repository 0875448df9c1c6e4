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
//! With equivalence preprocessing (`g.eq.on`, [`crate::analyse::eq`]) a body the analysis found
//! equal to an atom has that atom's variable and no variable of its own (its definition written
//! on the atom: the nogoods that said `b ↔ p` become tautologies, which the store drops), every
//! conjunctive body used only by integrity constraints shares one variable fixed false, and a
//! fact's rule `p :- ∅` is the unit `{F p}`. Atoms keep their variables; the invariant above
//! holds as stated, body variables being shared.
//!
//! With eliminated atoms (`g.aliases`, [`crate::analyse::alias`]) every nogood reads an
//! eliminated atom `q = ±r` as the literal of `r`, `q`'s own variable is fixed false (`{T q}`)
//! and its support and head nogoods (`q ↔ ±r` itself) are left out: the invariant then holds
//! for the assignment with each `q` given the value of its literal. A body equal to an atom
//! eliminated as `-r` (`b ↔ ¬r`, as clasp reads it: a literal, no variable of its own) is
//! written `F r` in every nogood that names it and has no definition; its `body_var` is the
//! variable fixed false that constraint-only bodies share, which nothing reads for its value: the
//! unfounded-set checks read only bodies of rules with cyclic heads, which keep their own
//! variables, and the rule-decision heuristic merely never offers such a body.

use super::aggregate;
use super::db::{NogoodDbBuilder, Origin};
use super::Completion;
use crate::analyse::{BodyDef, GroundProgram};
use crate::lit::holds;
use crate::lit::{Lit, Var};

/// The completion nogoods of `g`.
pub fn complete(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::default())
}

/// The completion nogoods of `g` with sum bodies kept as native constraints
/// (`Completion::native_sums`; `--sums=native`, the host engine's; the device engine's is
/// [`complete_native_device`]).
pub fn complete_native(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::native())
}

/// As [`complete_native`] for the device engine (`aggregate::Aggregates::native_device`: its
/// kernel's counter takes fewer small counts).
pub fn complete_native_device(g: &GroundProgram) -> Completion {
    complete_with(g, aggregate::Aggregates::native_device())
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
    // (eq) the one variable, fixed false, of every constraint-only conjunction (and, below, of
    // dead bodies and of bodies written as F r)
    let mut false_var: Option<Var> = None;
    let mut fixed_false = |nb: &mut NogoodDbBuilder| {
        *false_var.get_or_insert_with(|| {
            let f = nb.new_var();
            nb.add(&[Lit::t(f)], Origin::Constraint); // :- body: {T b}, once
            f
        })
    };
    // (alias) the literal each body is written as in the nogoods: `T body_var`, or `F r` for
    // a conjunction equal to an atom eliminated as `-r` (not a dead one) whose rules' heads
    // are all acyclic (the unfounded-set checks read the variables of the others' bodies)
    let mut cyclic_rule = vec![false; g.bodies.len()];
    for r in &g.rules {
        if r.head.iter().any(|&h| g.is_cyclic(h)) {
            cyclic_rule[r.body as usize] = true;
        }
    }
    let mut body_lit: Vec<Option<Lit>> = vec![None; g.bodies.len()];
    let body_var: Vec<Var> = (0..g.bodies.len())
        .map(|i| {
            let conj = matches!(g.bodies[i], BodyDef::Conj { .. });
            if let Some(p) = eq.atom_of_body(i) {
                // b ↔ p: the atom's variable, or its root's when p is eliminated as `+r`; as
                // `-r`, b ↔ ¬r: the literal F r
                match aliases.of_atom(p) {
                    None => return p,
                    Some(r) if r > 0 => return r as Var,
                    Some(r) if conj && !dead[i] && !cyclic_rule[i] => {
                        body_lit[i] = Some(Lit::f(r.unsigned_abs()));
                        return fixed_false(&mut nb);
                    }
                    Some(_) => {}
                }
            }
            if (eq.on && conj && only_constraints[i]) || dead[i] {
                return fixed_false(&mut nb);
            }
            nb.new_var()
        })
        .collect();
    let first_aux = nb.num_vars();
    let lit_of = |i: usize| body_lit[i].unwrap_or(Lit::t(body_var[i]));

    let mut aux_body = Vec::new();
    for (i, body) in g.bodies.iter().enumerate() {
        if let BodyDef::Conj { pos, neg } = body {
            if dead[i] || body_lit[i].is_some() {
                continue; // (alias) b ↔ ¬r needs no definition: it is written F r
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
    // Variables a unit integrity constraint `:- p.` fixes false: a sum body read through one
    // (gringo writes `:- 2 { ... }.` as `h :- 2 { ... }.` and `:- h.`, and `h` is the body's
    // variable) is false in every answer set, and may be written as the sum's negation alone.
    // A sum body that is itself the body of an integrity constraint is false as well.
    let mut fixed_by_constraint = vec![false; g.num_atoms as usize + 1];
    let mut sum_constrained = vec![false; g.bodies.len()];
    for r in &g.rules {
        if r.choice || !r.head.is_empty() {
            continue;
        }
        match &g.bodies[r.body as usize] {
            BodyDef::Conj { pos, neg } => {
                if let ([p], []) = (pos.as_slice(), neg.as_slice()) {
                    let l = aliases.lit(Lit::t(*p));
                    if l.is_true() {
                        fixed_by_constraint[l.var() as usize] = true;
                    }
                }
            }
            BodyDef::Sum { .. } => sum_constrained[r.body as usize] = true,
        }
    }
    // The position of the last body of each list of weighted literals: no later body reads
    // that list's diagram, which is then freed (kept to the end, one per distinct list, the
    // diagrams were most of the completion's peak on programs of many small sums).
    let mut last_of: std::collections::HashMap<&[(i32, i64)], usize> =
        std::collections::HashMap::new();
    for (k, &i) in sum_bodies.iter().enumerate() {
        if let BodyDef::Sum { lits, .. } = &g.bodies[i] {
            last_of.insert(lits.as_slice(), k);
        }
    }
    for (k, i) in sum_bodies.into_iter().enumerate() {
        if let BodyDef::Sum { lower, lits } = &g.bodies[i] {
            // b ↔ Σ w·[l] ≥ lower
            let b = body_var[i];
            let b_false = sum_constrained[i]
                || (body_lit[i].is_none()
                    && fixed_by_constraint
                        .get(b as usize)
                        .copied()
                        .unwrap_or(false));
            let fresh = sums.encode(&mut nb, b, *lower, lits, b_false);
            aux_body.extend(std::iter::repeat_n(i as u32, fresh as usize));
            if last_of[lits.as_slice()] == k {
                sums.forget(lits);
            }
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
                .map(|&r| lit_of(g.rules[r as usize].body as usize).negate()),
        );
        let origin = if support.len() == 1 {
            Origin::Fact
        } else {
            Origin::Support
        };
        nb.add(&support, origin); // `add` drops the repeats of a body shared by two rules.
    }

    for r in &g.rules {
        let bl = lit_of(r.body as usize);
        match (r.choice, r.head.as_slice()) {
            // `{…} :- body`: the body only allows the head atoms, it does not force them.
            (true, _) => {}
            // `:- body`: the body must be false: {T b} (the shared false variable's: added once).
            (false, []) if Some(bl) == false_var.map(Lit::t) => {}
            (false, []) => nb.add(&[bl], Origin::Constraint),
            // (alias) the eliminated atom's only rule: its head nogood is the equivalence.
            (false, [p]) if aliases.of_atom(*p).is_some() => {}
            // (eq) a fact `p :- ∅`: b_r holds, so {T b_r, F p} is {F p}.
            (false, [p]) if eq.on && is_empty_conj(&g.bodies[r.body as usize]) => {
                nb.add(&[Lit::f(*p)], Origin::Fact)
            }
            // `p :- body`, b_r → p: {T b_r, F p}.
            (false, [p]) => nb.add(&[bl, Lit::f(*p)], Origin::Head),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::{alias, analysed};
    use lparse::Rule;

    /// The body of `bodies` with exactly these positive and negative atoms.
    fn body(g: &GroundProgram, p: &[u32], n: &[u32]) -> usize {
        g.bodies
            .iter()
            .position(|b| matches!(b, BodyDef::Conj { pos, neg } if pos == p && neg == n))
            .expect("no such body")
    }

    fn has(c: &Completion, lits: &[Lit]) -> bool {
        let mut want: Vec<u32> = lits.iter().map(|l| l.code()).collect();
        want.sort_unstable();
        (0..c.db.len()).any(|i| c.db.nogood(i) == want.as_slice())
    }

    #[test]
    fn a_body_equal_to_a_negated_root_is_that_literal_unless_a_cyclic_rule_reads_it() {
        // 1 :- not 2.  2 :- not 1.  2 :- 5.  3 :- 1.  3 :- 6.  {6}.  4 :- not 2.  4 :- 4, 3.
        // Atom 1 is eliminated as not 2 (2 has two rules, and so has 3); body {1} (rule 3's)
        // is F 2; body {not 2} is 1 too, but rule 4's head is cyclic: it keeps a variable of
        // its own.
        let mut g = analysed(&[
            Rule::normal(&[1], &[-2]),
            Rule::normal(&[2], &[-1]),
            Rule::normal(&[2], &[5]),
            Rule::normal(&[3], &[1]),
            Rule::normal(&[3], &[6]),
            Rule::choice(&[6], &[]),
            Rule::normal(&[4], &[-2]),
            Rule::normal(&[4], &[4, 3]),
        ]);
        alias::eliminate(&mut g);
        assert_eq!(g.aliases.of_atom(1), Some(-2));
        assert!(g.is_cyclic(4));
        let c = complete(&g);
        let b1 = body(&g, &[1], &[]);
        let f = c.body_var[b1];
        assert!(f > g.num_atoms, "no atom's variable");
        assert!(has(&c, &[Lit::t(f)]), "the shared variable is fixed false");
        // 3 :- 1 is written F 2 -> 3, and 3's support says T 3 -> F 2 or 6.
        assert!(has(&c, &[Lit::f(2), Lit::f(3)]), "head nogood over F 2");
        assert!(
            has(&c, &[Lit::t(3), Lit::t(2), Lit::f(6)]),
            "support nogood over F 2"
        );
        // No nogood but the unit names the shared variable: it has no definition.
        let named = (0..c.db.len())
            .filter(|&i| c.db.nogood(i).iter().any(|&l| l >> 1 == f))
            .count();
        assert_eq!(named, 1);
        let bn = body(&g, &[], &[2]);
        let v = c.body_var[bn];
        assert_ne!(
            v, f,
            "read by the unfounded-set checks: a variable of its own"
        );
        assert!(
            has(&c, &[Lit::t(v), Lit::t(2)]),
            "its definition b -> not 2"
        );
    }
}
