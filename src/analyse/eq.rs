//! Equivalence preprocessing (clasp's `--eq`, the part that keeps every atom's own variable):
//! which bodies the completion can give an atom's variable instead of one of their own.
//!
//! clasp merges atoms and bodies into one solver literal wherever the program entails they are
//! equal (`Asp::Preprocessor` in `asp_preprocessor.cpp`, `--eq`; the nodes' literals in
//! `logic_program.cpp`), signs included, and reads every atom through its literal; bodies that
//! are false share one variable there too. Here atoms stay their
//! own variables (the engines, the device kernels, the native sums, the objective and the
//! models read atom `p` as variable `p`), and only a *body* is given an atom's variable, in
//! two cases, each an equivalence the completion itself entails:
//!
//! 1. A conjunction of one positive literal, `{x}`: its definition is `b ↔ x`, so `b` *is*
//!    `x`. The body's nogoods `{F b, T x}`, `{T b, F x}` become tautologies and vanish.
//! 2. Body `B` of the only rule of an atom `p`, a normal rule `p :- B` (not a choice), where `p`
//!    is on no positive cycle and `B` does not mention `p`: the completion says `p → B`
//!    (support: `B` is `p`'s only body) and `B → p` (the rule), so `B` *is* `p`. The support
//!    and head nogoods `{T p, F b}`, `{T b, F p}` vanish; `B`'s definition is written on `p`.
//!
//! Why these are safe beyond the completion, for non-tight programs: the unfounded-set
//! machinery (source pointers, the final check, the device's `unfounded.cuh`, loop nogoods)
//! reads a body's *value* through its variable and its *structure* (its positive atoms) from
//! the program, which is unchanged. A loop nogood `{T u : u ∈ U} ∪ {F b : b external}` stays
//! exactly the loop formula, never a tautology: in case 1 an external body `{x}` has `x ∉ U`
//! (else it would be internal), so `F x` meets no `T x`; in case 2 `p` lies on no positive
//! cycle, so it is in no unfounded set the engines form (those lie inside cyclic components).
//! Merging `p` with its body when `p` *is* cyclic could make the loop nogood of a set holding
//! `p` a tautology (`T p` and `F B = F p` in one nogood), which is why case 2 leaves such atoms
//! alone. A sum body mentioning `p` is left alone too (one variable both an input and a
//! bound of one native sum); a conjunction mentioning `p` negatively (`p :- not p, x`) would
//! be correct but is skipped as well, for the same uniform rule.
//!
//! Not done (clasp does): an atom equal to another atom or to a negated one (`p :- not q` as
//! `p`'s only rule makes `p ≡ ¬q`) — that needs atoms read through signed literals by every
//! engine.
//!
//! Invariant: `body_atom[i] = p ≠ 0` only if every supported model of the program, extended by
//! the body values, gives `bodies[i]` and atom `p` the same value; `on` is false (and
//! `body_atom` empty) when preprocessing is off.

use super::{BodyDef, GroundProgram};

/// What the completion may merge. `Default` is off: every body its own variable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Equivalences {
    /// Preprocessing is on (`--eq` > 0): the completion also gives every conjunctive body
    /// that only integrity constraints use one shared variable, fixed false, and writes a
    /// fact's head as a unit.
    pub on: bool,
    /// Body → the atom whose variable stands for it (0: a variable of its own).
    pub body_atom: Vec<u32>,
}

impl Equivalences {
    /// The atom whose variable body `i` shares, if any.
    pub fn atom_of_body(&self, i: usize) -> Option<u32> {
        self.body_atom.get(i).copied().filter(|&p| p != 0)
    }
}

/// The equivalences of `g` (cases 1 and 2 of the module doc).
pub fn find(g: &GroundProgram) -> Equivalences {
    let mut body_atom = vec![0u32; g.bodies.len()];
    // Case 1: `{x}` is `x`.
    for (i, body) in g.bodies.iter().enumerate() {
        if let BodyDef::Conj { pos, neg } = body {
            if pos.len() == 1 && neg.is_empty() {
                body_atom[i] = pos[0];
            }
        }
    }
    // Case 2: the body of an acyclic atom's only rule, a normal one, is that atom. Not for the
    // atoms of a head cycle either (marked acyclic for the engines, `analyse::minimality`): the
    // minimality check's loop nogoods over them must keep the atom and its body apart.
    let head_cycle: std::collections::HashSet<u32> = g
        .minimality
        .iter()
        .flat_map(|m| m.components.iter().flatten().copied())
        .collect();
    for p in 1..=g.num_atoms {
        let [r] = g.rules_of(p) else { continue };
        let rule = &g.rules[*r as usize];
        let b = rule.body as usize;
        if rule.choice
            || rule.head.len() != 1
            || g.is_cyclic(p)
            || head_cycle.contains(&p)
            || body_atom[b] != 0
        {
            continue;
        }
        if !mentions(&g.bodies[b], p) {
            body_atom[b] = p;
        }
    }
    Equivalences {
        on: true,
        body_atom,
    }
}

/// `body` has a literal of atom `p`, of either sign.
fn mentions(body: &BodyDef, p: u32) -> bool {
    match body {
        BodyDef::Conj { pos, neg } => pos.contains(&p) || neg.contains(&p),
        BodyDef::Sum { lits, .. } => lits.iter().any(|&(l, _)| l.unsigned_abs() == p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::analysed;
    use lparse::Rule;

    fn body_of(g: &GroundProgram, head: u32) -> usize {
        g.rules[g.rules_of(head)[0] as usize].body as usize
    }

    #[test]
    fn one_literal_bodies_and_only_rules() {
        // {q}.  a :- q.  b :- q, not a.  c :- not q.  c :- a.
        let g = analysed(&[
            Rule::choice(&[1], &[]),
            Rule::normal(&[2], &[1]),
            Rule::normal(&[3], &[1, -2]),
            Rule::normal(&[4], &[-1]),
            Rule::normal(&[4], &[2]),
        ]);
        let eq = &g.eq;
        assert!(eq.on);
        assert_eq!(eq.atom_of_body(body_of(&g, 2)), Some(1), "{{q}} is q");
        assert_eq!(eq.atom_of_body(body_of(&g, 3)), Some(3), "b's only rule");
        // c has two rules: `{not q}` is no atom's; `{a}` is a.
        let c_rules = g.rules_of(4);
        assert_eq!(
            eq.atom_of_body(g.rules[c_rules[0] as usize].body as usize),
            None
        );
        assert_eq!(
            eq.atom_of_body(g.rules[c_rules[1] as usize].body as usize),
            Some(2)
        );
        // The choice rule's empty body: q's only rule is a choice.
        assert_eq!(eq.atom_of_body(body_of(&g, 1)), None);
    }

    #[test]
    fn cyclic_atoms_keep_their_bodies_apart() {
        // p :- q, r.  q :- p.  {r}.   p, q on a cycle; q's body {p} is p (case 1 holds anyway)
        let g = analysed(&[
            Rule::normal(&[1], &[2, 3]),
            Rule::normal(&[2], &[1]),
            Rule::choice(&[3], &[]),
        ]);
        assert!(g.is_cyclic(1));
        assert_eq!(g.eq.atom_of_body(body_of(&g, 1)), None, "p is cyclic");
        assert_eq!(g.eq.atom_of_body(body_of(&g, 2)), Some(1));
    }

    #[test]
    fn bodies_that_mention_their_atom_are_left_alone() {
        // a :- not a, x.  s :- 1 {not s; x}.  {x}.
        let g = analysed(&[
            Rule::normal(&[1], &[-1, 2]),
            Rule::sum(&[3], 1, &[(-3, 1), (2, 1)]),
            Rule::choice(&[2], &[]),
        ]);
        assert_eq!(g.eq.atom_of_body(body_of(&g, 1)), None);
        assert_eq!(g.eq.atom_of_body(body_of(&g, 3)), None);
    }
}
