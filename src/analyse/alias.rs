//! Atom elimination (the atom part of clasp's `--eq`): an atom whose only rule is `q :- x` or
//! `q :- not x` equals the literal `x` (resp. `¬x`) in every answer set, so the completion can
//! read `q` through that literal and leave `q`'s own variable out of the search.
//!
//! clasp merges such atoms into one solver literal (`Atom=Atom` and, with signs, part of `Other`
//! in its `Equivalences` statistics): on maxsat (`p :- not n`, `n :- not p`, `pred(C,X) :- p`)
//! 155k variables shrink to 26k there. Here the engines keep reading atom `p` as variable `p`,
//! so an eliminated atom keeps its number, its variable is fixed false at the top level, every
//! nogood the completion writes reads it as its literal (`nogoods::db::NogoodDbBuilder` maps
//! it), the objective is rewritten over the literal, and [`crate::wrap::eliminated::Alias`] puts
//! its value back into each model (and maps the literals of nogoods handed to the engine).
//!
//! Which atoms (all must hold for `q`):
//! - `q` is an input atom whose only rule is a normal rule `q :- l` with one body literal `l`
//!   over an input atom other than `q`;
//! - `q` is not on a positive cycle (so `q ↔ l` is its completion and loop formulas never
//!   mention it) and no `#heuristic` names it, as its atom or in its condition (the domain
//!   heuristic reads those atoms' values);
//! - `q` is in no sum body of a rule whose head is cyclic: the unfounded-set machinery of both
//!   engines reads such bodies' literals themselves, not through the completion. A conjunctive
//!   body is read through its variable, and its positive atoms only where they are cyclic (an
//!   eliminated atom never is) or, in the host engine's total-assignment check, as founded
//!   atoms, read through the aliases there (`engine::cpu::unfounded`);
//! - the program has no head cycle (the minimality check reads candidate models' atoms).
//!
//! Chains and cycles (`p :- not n`, `n :- not p`) are followed by a union-find with signs:
//! each class keeps one atom (its root), the first atom whose merge would close a cycle keeps
//! its rule, and a merge that would make an atom equal to its own negation is skipped (that
//! rule is then left to the completion, which makes the program inconsistent as it should).
//!
//! Invariant: `of[q] = ±r ≠ 0` only for eliminated atoms `q`, and then `r` is not eliminated
//! (`of[r] = 0`), `r ≠ q`, and every answer set gives `q` the value of the literal `±r`
//! (`+r`: `r`; `-r`: not `r`). `of` is empty when nothing was eliminated.

use super::{BodyDef, GroundProgram};
use crate::lit::Lit;

/// The eliminated atoms and the literal each equals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Aliases {
    /// Atom → `±root` (0: the atom is its own variable). Empty when no atom is eliminated.
    pub of: Vec<i32>,
}

impl Aliases {
    /// No atom eliminated.
    pub fn is_empty(&self) -> bool {
        self.of.is_empty()
    }
    /// The eliminated atoms, ascending.
    pub fn eliminated(&self) -> impl Iterator<Item = u32> + '_ {
        (0..self.of.len() as u32).filter(|&q| self.of[q as usize] != 0)
    }
    /// How many atoms are eliminated.
    pub fn count(&self) -> usize {
        self.eliminated().count()
    }
    /// The root literal `q` equals (`±r`), if `q` is eliminated.
    pub fn of_atom(&self, q: u32) -> Option<i32> {
        self.of.get(q as usize).copied().filter(|&r| r != 0)
    }
    /// The solver literal standing for `lit` (over an atom's variable or any other): `T q` of
    /// an eliminated `q = ±r` is `T r` / `F r`; every other literal is itself.
    #[inline]
    pub fn lit(&self, lit: Lit) -> Lit {
        match self.of_atom(lit.var()) {
            Some(r) => {
                let l = Lit::new(r.unsigned_abs(), r > 0);
                if lit.is_true() {
                    l
                } else {
                    l.negate()
                }
            }
            None => lit,
        }
    }
    /// Whether the eliminated atom `q = ±r` holds, given whether its root `r` holds.
    pub fn holds(r: i32, root_holds: bool) -> bool {
        root_holds == (r > 0)
    }
}

/// Eliminate the atoms the module doc allows in `g`: fill `g.aliases` and rewrite the
/// objective's literals over the roots. Does nothing to a program with a head cycle.
pub fn eliminate(g: &mut GroundProgram) {
    g.aliases = find(g);
    if g.aliases.is_empty() {
        return;
    }
    for level in &mut g.objective.levels {
        for (l, _) in &mut level.lits {
            *l = g.aliases.lit(*l);
        }
    }
}

/// The aliases of `g` (the module doc's rules), without changing `g`.
pub fn find(g: &GroundProgram) -> Aliases {
    if g.minimality.is_some() {
        return Aliases::default();
    }
    let n = g.input_atoms();
    let mut keep = vec![false; g.num_atoms as usize + 1];
    for h in &g.heuristics {
        let atoms = std::iter::once(h.atom).chain(h.condition.iter().map(|l| l.unsigned_abs()));
        for a in atoms {
            if let Some(k) = keep.get_mut(a as usize) {
                *k = true;
            }
        }
    }
    if !g.tight {
        for r in &g.rules {
            if r.head.iter().any(|&h| g.is_cyclic(h)) {
                if let BodyDef::Sum { lits, .. } = &g.bodies[r.body as usize] {
                    lits.iter()
                        .for_each(|&(l, _)| keep[l.unsigned_abs() as usize] = true);
                }
            }
        }
    }
    // Union-find with signs: parent[a] = ±b (0: a is a root).
    let mut parent = vec![0i32; n as usize + 1];
    for q in 1..=n {
        let [r] = g.rules_of(q) else { continue };
        let rule = &g.rules[*r as usize];
        if rule.choice || rule.head.len() != 1 || keep[q as usize] || g.is_cyclic(q) {
            continue;
        }
        let BodyDef::Conj { pos, neg } = &g.bodies[rule.body as usize] else {
            continue;
        };
        let x = match (pos.as_slice(), neg.as_slice()) {
            ([p], []) => *p as i32,
            ([], [p]) => -(*p as i32),
            _ => continue,
        };
        if x.unsigned_abs() == q || x.unsigned_abs() > n {
            continue;
        }
        let root = find_root(&mut parent, x);
        if root.unsigned_abs() == q {
            continue; // a cycle of merges (or q ≡ ¬q): q keeps its rule
        }
        parent[q as usize] = root;
    }
    if parent.iter().all(|&p| p == 0) {
        return Aliases::default();
    }
    let mut of = vec![0i32; g.num_atoms as usize + 1];
    for q in 1..=n {
        if parent[q as usize] != 0 {
            of[q as usize] = find_root(&mut parent, q as i32);
        }
    }
    Aliases { of }
}

/// The root literal of the signed atom `x` (`+r` or `-r`), compressing the path. Iterative:
/// a chain of merges can be as long as the program (`a₁ :- a₂.  a₂ :- a₃. …` with every head
/// numbered before its body).
fn find_root(parent: &mut [i32], x: i32) -> i32 {
    let a = x.unsigned_abs();
    // The root literal equal to `+a`.
    let mut root = a as i32;
    while parent[root.unsigned_abs() as usize] != 0 {
        let p = parent[root.unsigned_abs() as usize];
        root = if root > 0 { p } else { -p };
    }
    // Every atom on the path now points at the root, with its own sign.
    let (mut cur, mut rel) = (a, root);
    while parent[cur as usize] != 0 {
        let p = parent[cur as usize];
        parent[cur as usize] = rel;
        // `cur = p`: so `|p|` is `cur`, or its negation when p is negative.
        rel = if p > 0 { rel } else { -rel };
        cur = p.unsigned_abs();
    }
    if x > 0 {
        root
    } else {
        -root
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyse::analysed;
    use lparse::Rule;

    #[test]
    fn chains_signs_and_even_cycles() {
        // {x}.  a :- x.  b :- not a.  c :- b.  p :- not n.  n :- not p.
        let g = analysed(&[
            Rule::choice(&[1], &[]),
            Rule::normal(&[2], &[1]),
            Rule::normal(&[3], &[-2]),
            Rule::normal(&[4], &[3]),
            Rule::normal(&[5], &[-6]),
            Rule::normal(&[6], &[-5]),
        ]);
        let a = find(&g);
        assert_eq!(a.of_atom(1), None, "a choice atom stays");
        assert_eq!(a.of_atom(2), Some(1));
        assert_eq!(a.of_atom(3), Some(-1), "b = not a = not x");
        assert_eq!(a.of_atom(4), Some(-1));
        // p = not n; n's rule would close the cycle, so n keeps it.
        assert_eq!(a.of_atom(5), Some(-6));
        assert_eq!(a.of_atom(6), None);
        assert_eq!(a.count(), 4);
        assert_eq!(a.lit(Lit::f(3)), Lit::t(1));
        assert_eq!(a.lit(Lit::t(7)), Lit::t(7));
    }

    /// Regression: a chain of merges as long as the program, every head numbered before its
    /// body, overflowed the stack of a recursive root search.
    #[test]
    fn a_long_chain_with_mixed_signs() {
        // {aₙ}.  aᵢ :- aᵢ₊₁ (i even) or aᵢ :- not aᵢ₊₁ (i odd), for i = n-1 down to 1.
        let n = 200_000u32;
        let mut rules = vec![Rule::choice(&[n], &[])];
        for i in 1..n {
            let body = if i % 2 == 0 {
                i as i32 + 1
            } else {
                -(i as i32 + 1)
            };
            rules.push(Rule::normal(&[i], &[body]));
        }
        let a = find(&analysed(&rules));
        let mut want = n as i32; // aᵢ as a literal of aₙ, from i = n-1 down
        for i in (1..n).rev() {
            if i % 2 == 1 {
                want = -want;
            }
            assert_eq!(a.of_atom(i), Some(want), "a{i}");
        }
        assert_eq!(a.of_atom(n), None);
    }

    #[test]
    fn atoms_a_heuristic_reads_stay() {
        // {x}.  a :- x.  b :- not x.  c :- x.  #heuristic a. [1, level]  #heuristic x : b.
        let mut g = analysed(&[
            Rule::choice(&[1], &[]),
            Rule::normal(&[2], &[1]),
            Rule::normal(&[3], &[-1]),
            Rule::normal(&[4], &[1]),
        ]);
        let h = |atom, condition: Vec<i32>| lparse::Heuristic {
            modifier: lparse::HeuristicModifier::Level,
            atom,
            bias: 1,
            priority: 0,
            condition,
        };
        g.heuristics = vec![h(2, vec![]), h(1, vec![3])];
        let a = find(&g);
        assert_eq!(a.of_atom(2), None, "the heuristic's atom");
        assert_eq!(a.of_atom(3), None, "an atom of its condition");
        assert_eq!(a.of_atom(4), Some(1));
    }

    #[test]
    fn atoms_of_sums_the_unfounded_check_reads_stay() {
        // {x}.  a :- x.  p :- q, a.  q :- p.  q :- x.  r :- 1 {r; b}.  b :- not x.
        let g = analysed(&[
            Rule::choice(&[1], &[]),
            Rule::normal(&[2], &[1]),
            Rule::normal(&[3], &[4, 2]),
            Rule::normal(&[4], &[3]),
            Rule::normal(&[4], &[1]),
            Rule::sum(&[5], 1, &[(5, 1), (6, 1)]),
            Rule::normal(&[6], &[-1]),
        ]);
        assert!(g.is_cyclic(3) && g.is_cyclic(5));
        let a = find(&g);
        assert_eq!(
            a.of_atom(2),
            Some(1),
            "a in the conjunction of cyclic p is x"
        );
        assert_eq!(a.of_atom(6), None, "b is in the sum of cyclic r");
    }

    #[test]
    fn a_self_negation_is_left_to_the_completion() {
        // a :- not b.  b :- a.  (a = not b = not a: no answer set)
        let g = analysed(&[Rule::normal(&[1], &[-2]), Rule::normal(&[2], &[1])]);
        let a = find(&g);
        assert_eq!(a.of_atom(1), Some(-2));
        assert_eq!(a.of_atom(2), None, "b = a = not b is skipped");
    }
}
