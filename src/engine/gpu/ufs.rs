//! The static data of the device unfounded-set check (`kernels/unfounded.cu`): for the atoms of
//! cyclic components, their supports (head atom, rule), the component of every atom, and the
//! weighted literals of the sum bodies those rules use. Conjunctive bodies need nothing new:
//! the kernel reads the decision kernel's `body_off`/`body_items` (T p / F q per literal).
//!
//! Invariant: for a non-tight program, `sup_head`/`sup_rule` list every pair (h, r) with h a
//! cyclic atom in the head of rule r exactly once, `cyc_atoms` every cyclic atom once, and
//! `sum_off`/`sum_lits`/`sum_w`/`sum_lower` hold the literals of every sum body of such a rule
//! (other bodies: an empty range); for a tight program everything is empty (the check never
//! runs).

use crate::ground::{BodyDef, GroundProgram};
use crate::lit::Lit;

/// Host-side arrays, uploaded once by `Buffers::new`.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct UfsArrays {
    pub scc: Vec<u32>,
    pub cyc_atoms: Vec<u32>,
    pub sup_head: Vec<u32>,
    pub sup_rule: Vec<u32>,
    pub sum_off: Vec<u32>,
    pub sum_lits: Vec<u32>,
    pub sum_w: Vec<i64>,
    pub sum_lower: Vec<i64>,
}

impl UfsArrays {
    pub fn new(g: &GroundProgram) -> UfsArrays {
        if g.tight {
            return UfsArrays::default();
        }
        let mut u = UfsArrays {
            scc: g.scc.clone(),
            cyc_atoms: (1..=g.num_atoms).filter(|&p| g.is_cyclic(p)).collect(),
            ..UfsArrays::default()
        };
        let mut used = vec![false; g.bodies.len()];
        for (r, rule) in g.rules.iter().enumerate() {
            for &h in rule.head.iter().filter(|&&h| g.is_cyclic(h)) {
                u.sup_head.push(h);
                u.sup_rule.push(r as u32);
                used[rule.body as usize] = true;
            }
        }
        u.sum_off.push(0);
        u.sum_lower = vec![0; g.bodies.len()];
        for (b, body) in g.bodies.iter().enumerate() {
            if let (true, BodyDef::Sum { lower, lits }) = (used[b], body) {
                u.sum_lower[b] = *lower;
                for &(l, w) in lits {
                    let q = l.unsigned_abs();
                    // The literal that makes the program literal true.
                    u.sum_lits
                        .push(if l > 0 { Lit::t(q) } else { Lit::f(q) }.code());
                    u.sum_w.push(w);
                }
            }
            u.sum_off.push(u.sum_lits.len() as u32);
        }
        u
    }

    /// The check has work to do (the program is not tight).
    pub fn active(&self) -> bool {
        !self.sup_head.is_empty() || !self.cyc_atoms.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::analysed;
    use lparse::Rule;

    #[test]
    fn tight_program_has_no_data() {
        // a :- not b.  b :- not a.
        let g = analysed(&[Rule::normal(&[1], &[-2]), Rule::normal(&[2], &[-1])]);
        let u = UfsArrays::new(&g);
        assert!(!u.active());
        assert_eq!(u, UfsArrays::default());
    }

    #[test]
    fn supports_of_cyclic_heads_and_sum_literals() {
        // p :- q.  q :- p.  q :- 2 {p; not r; s}.  r.  (cyclic: p, q; not r, s)
        let g = analysed(&[
            Rule::normal(&[1], &[2]),
            Rule::normal(&[2], &[1]),
            Rule::sum(&[2], 2, &[(1, 1), (-3, 1), (4, 1)]),
            Rule::normal(&[3], &[]),
        ]);
        let u = UfsArrays::new(&g);
        assert!(u.active());
        assert_eq!(u.cyc_atoms, vec![1, 2]);
        let mut sup: Vec<(u32, u32)> = u.sup_head.iter().copied().zip(u.sup_rule.clone()).collect();
        sup.sort_unstable();
        // Every rule with head 1 or 2, once per (head, rule).
        let mut want: Vec<(u32, u32)> = g
            .rules
            .iter()
            .enumerate()
            .flat_map(|(r, rule)| {
                rule.head
                    .iter()
                    .filter(|&&h| h == 1 || h == 2)
                    .map(move |&h| (h, r as u32))
            })
            .collect();
        want.sort_unstable();
        assert_eq!(sup, want);
        assert_eq!(want.len(), 3);
        // The one sum body: T 1, F 3, T 4 with weight 1 each, bound 2.
        let sums: Vec<usize> = (0..g.bodies.len())
            .filter(|&b| u.sum_off[b + 1] > u.sum_off[b])
            .collect();
        assert_eq!(sums.len(), 1);
        let b = sums[0];
        let (lo, hi) = (u.sum_off[b] as usize, u.sum_off[b + 1] as usize);
        let mut lits = u.sum_lits[lo..hi].to_vec();
        lits.sort_unstable();
        assert_eq!(
            lits,
            vec![Lit::t(1).code(), Lit::f(3).code(), Lit::t(4).code()]
        );
        assert_eq!(u.sum_lower[b], 2);
        assert!(u.sum_w[lo..hi].iter().all(|&w| w == 1));
    }
}
