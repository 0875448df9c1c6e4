//! The input's rules read under what holds in every answer set, before shifting and completion
//! (clasp's preprocessing does the same: `PrgBody::assignVar` gives a body it found false the
//! literal false, no variable).
//!
//! Two kinds of atoms are settled, by one propagation to a fixpoint:
//!
//! - **true** (`T`): the head of a normal rule whose body holds, starting from the facts — the
//!   least model of the definite part, so each such atom is *derived* in every answer set, by
//!   rules this pass keeps;
//! - **false** (`F`): an atom no remaining rule can give (no head occurrence left: the completion
//!   writes it false), or one an integrity constraint `:- p` forbids (the constraint stays).
//!
//! Then, with `B` a conjunctive body:
//!
//! 1. a rule with a head whose body has a positive `F` atom or a negative `T` atom is dropped: its
//!    body is false in every answer set, and whatever makes it false stays in the program;
//! 2. a normal rule `h :- B` with `h` false becomes the integrity constraint `:- B` (its body
//!    must be false in every answer set, and a false body makes the rule say nothing); a
//!    disjunctive or choice head loses its `F` atoms (an empty choice head says nothing; an
//!    empty disjunction is `:- B`);
//! 3. a positive `T` atom and a negative `F` atom are removed from the bodies that remain.
//!
//! Integrity constraints are never dropped (one may be why an atom is false), only read as in 3.
//! A normal rule with a sum body keeps its false head (the completion writes `h :- sum` with
//! `h` false as the sum's negation on `h`'s variable, where `:- sum` would need one more).
//! Why the answer sets stay the same, one for one: every step replaces a program `P` by `P'` in
//! which each changed rule differs only in a body or head literal whose value is the same in
//! every answer set of `P` and of `P'` (fixed by rules or constraints both keep), and a rule
//! whose body is false in a candidate `M` neither adds to the least model of `M`'s reduct nor is
//! violated by `M`; a positive body atom is removed only when it is derived from facts by normal
//! rules (`T`), so the reduct's least model is the same (a truth that only a constraint forces,
//! `:- not p`, is never used that way: `h :- p. p :- h. :- not p.` has no answer set, and
//! reading `p` as a fact would give one). A disjunctive head that loses an atom false in every
//! answer set keeps its models and its minimal models of the reduct.
//!
//! A program where some atom would be both true and false (it has no answer set) is returned
//! unchanged: the search finds that out by itself. Sum bodies are left as they are (their
//! heads are read as above).

use super::BodyDef;
use crate::csr::Csr;

/// One rule of the input as the analysis reads it (after externals and assumptions became
/// rules): `head` sorted without duplicates; `choice`; a disjunction when not a choice and
/// `head` has two atoms or more; `input`: the rule's number in the input (1-based, 0 for a rule
/// the analysis made), for error messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InRule {
    pub head: Vec<u32>,
    pub choice: bool,
    pub body: BodyDef,
    pub input: usize,
}

impl InRule {
    /// A rule the analysis makes (an external's, an assumption's): no input number.
    pub fn made(head: Vec<u32>, choice: bool, body: BodyDef) -> InRule {
        InRule {
            head,
            choice,
            body,
            input: 0,
        }
    }
}

/// What [`simplify`] did, for the analysis' line of `--stats`-style output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Simplified {
    pub atoms_true: u32,
    pub atoms_false: u32,
    pub rules_dropped: u32,
    pub to_constraints: u32,
}

const UNKNOWN: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;

/// `rules` read under the atoms (`1..=num_atoms`) settled in every answer set (module doc),
/// in place: the rules that remain keep their order.
pub fn simplify(num_atoms: u32, rules: &mut Vec<InRule>) -> Simplified {
    let (mut p, settles) = Pass::new(num_atoms, rules);
    if !settles {
        return Simplified::default();
    }
    if !p.run(rules) {
        p.undo(rules);
        return Simplified::default();
    }
    p.rebuild(rules)
}

/// The propagation's state.
struct Pass {
    val: Vec<u8>,
    /// Per rule: dropped; literals of a conjunctive body not yet true (`u32::MAX` for a sum).
    dropped: Vec<bool>,
    pending: Vec<u32>,
    /// Per atom: rules left with it in the head.
    support: Vec<u32>,
    /// Settled-false atoms taken out of heads (rule, atom), to put back after a conflict.
    taken: Vec<(u32, u32)>,
    /// Rules whose head lost its last atom (constraints now; a constraint is never dropped).
    to_constraints: u32,
    queue: Vec<u32>,
    conflict: bool,
}

/// Atom → rules with it as a positive body literal, a negative one, in the head: rows
/// `3a`, `3a + 1`, `3a + 2` of one CSR (built in one count and one fill over the rules).
struct Index(Csr<u32>);

const POS: usize = 0;
const NEG: usize = 1;
const HEAD: usize = 2;

fn conj(body: &BodyDef) -> Option<(&[u32], &[u32])> {
    match body {
        BodyDef::Conj { pos, neg } => Some((pos, neg)),
        BodyDef::Sum { .. } => None,
    }
}

impl Index {
    fn new(num_atoms: u32, rules: &[InRule]) -> Index {
        let key = |a: u32, side: usize| 3 * a as usize + side;
        let pairs = rules.iter().enumerate().flat_map(move |(i, r)| {
            let (pos, neg) = conj(&r.body).unwrap_or((&[], &[]));
            let pos = pos.iter().map(move |&a| (key(a, POS), i as u32));
            let neg = neg.iter().map(move |&a| (key(a, NEG), i as u32));
            let head = r.head.iter().map(move |&a| (key(a, HEAD), i as u32));
            pos.chain(neg).chain(head)
        });
        Index(Csr::from_pairs(3 * (num_atoms as usize + 1), pairs))
    }

    /// The rules with atom `a` on `side` (`POS`, `NEG`, `HEAD`).
    fn of(&self, a: u32, side: usize) -> &[u32] {
        self.0.row(3 * a as usize + side)
    }
}

impl Pass {
    /// One pass over the rules: supports, pending counts, and whether some rule settles an
    /// atom at the start (a fact, a constraint `:- p`); an atom in no head settles too.
    fn new(num_atoms: u32, rules: &[InRule]) -> (Pass, bool) {
        let mut support = vec![0u32; num_atoms as usize + 1];
        let mut settles = false;
        let pending = rules
            .iter()
            .map(|r| {
                r.head.iter().for_each(|&a| support[a as usize] += 1);
                let pending = conj(&r.body).map_or(u32::MAX, |(p, n)| (p.len() + n.len()) as u32);
                settles |= !r.choice && r.head.len() <= 1 && pending <= 1;
                pending
            })
            .collect();
        settles |= support[1..].contains(&0);
        let pass = Pass {
            val: vec![UNKNOWN; num_atoms as usize + 1],
            dropped: vec![false; rules.len()],
            pending,
            support,
            taken: Vec::new(),
            to_constraints: 0,
            queue: Vec::new(),
            conflict: false,
        };
        (pass, settles)
    }

    /// The fixpoint; false on a conflict (no answer set).
    fn run(&mut self, rules: &mut [InRule]) -> bool {
        let ix = Index::new(self.support.len() as u32 - 1, rules);
        for r in 0..rules.len() {
            self.check(r, rules);
        }
        for a in 1..self.support.len() {
            if self.support[a] == 0 {
                self.set(a as u32, FALSE);
            }
        }
        while let Some(a) = self.queue.pop() {
            if self.conflict {
                return false;
            }
            let (same, other) = if self.val[a as usize] == TRUE {
                (POS, NEG)
            } else {
                (NEG, POS)
            };
            // A literal that became true: one fewer to wait for.
            for &r in ix.of(a, same) {
                let r = r as usize;
                if !self.dropped[r] {
                    self.pending[r] -= 1;
                    self.check(r, rules);
                }
            }
            // A literal that became false: the body is false (1); constraints stay.
            for &r in ix.of(a, other) {
                let r = r as usize;
                if !self.dropped[r] && !is_constraint(&rules[r]) {
                    self.drop_rule(r, &rules[r].head);
                }
            }
            if self.val[a as usize] == FALSE {
                for &r in ix.of(a, HEAD) {
                    let r = r as usize;
                    // A sum body keeps its last head atom: the completion reads `h :- sum`
                    // with `h` fixed false as the sum's negation, on `h`'s variable; as
                    // `:- sum` the body would need a variable of its own.
                    let rule = &mut rules[r];
                    let sum_kept = !rule.choice
                        && rule.head.len() == 1
                        && matches!(rule.body, BodyDef::Sum { .. });
                    if self.dropped[r] || sum_kept {
                        continue;
                    }
                    rule.head.retain(|&h| h != a); // (2)
                    self.taken.push((r as u32, a));
                    if rule.choice && rule.head.is_empty() {
                        self.dropped[r] = true;
                    } else {
                        self.to_constraints += rule.head.is_empty() as u32;
                        self.check(r, rules);
                    }
                }
            }
        }
        !self.conflict
    }

    /// What rule `r`'s body, as far as settled, says: a normal rule whose body holds derives its
    /// head; a constraint left with one positive atom forbids it.
    fn check(&mut self, r: usize, rules: &[InRule]) {
        let rule = &rules[r];
        if self.dropped[r] || rule.choice || self.pending[r] > 1 {
            return;
        }
        match (rule.head.len(), self.pending[r]) {
            (1, 0) => self.set(rule.head[0], TRUE),
            (0, 0) => {
                // A constraint whose body holds: unless a literal is false, no answer set.
                if !self.body_false(&rule.body) {
                    self.conflict = true;
                }
            }
            (0, 1) => {
                if self.body_false(&rule.body) {
                    return;
                }
                let (pos, _) = conj(&rule.body).expect("pending counts conjunctions");
                if let Some(&p) = pos.iter().find(|&&p| self.val[p as usize] == UNKNOWN) {
                    self.set(p, FALSE);
                }
            }
            _ => {}
        }
    }

    fn body_false(&self, body: &BodyDef) -> bool {
        conj(body).is_some_and(|(pos, neg)| {
            pos.iter().any(|&p| self.val[p as usize] == FALSE)
                || neg.iter().any(|&q| self.val[q as usize] == TRUE)
        })
    }

    fn set(&mut self, a: u32, v: u8) {
        match self.val[a as usize] {
            UNKNOWN => {
                self.val[a as usize] = v;
                self.queue.push(a);
            }
            old if old != v => self.conflict = true,
            _ => {}
        }
    }

    fn drop_rule(&mut self, r: usize, head: &[u32]) {
        self.dropped[r] = true;
        for &h in head {
            self.support[h as usize] -= 1;
            if self.support[h as usize] == 0 {
                self.set(h, FALSE);
            }
        }
    }

    /// Put back the head atoms taken out (the program has no answer set; it stays as read).
    fn undo(&self, rules: &mut [InRule]) {
        for &(r, a) in &self.taken {
            rules[r as usize].head.push(a);
        }
        for &(r, _) in &self.taken {
            rules[r as usize].head.sort_unstable();
        }
    }

    /// The rules that remain, read under the settled atoms (3).
    fn rebuild(self, rules: &mut Vec<InRule>) -> Simplified {
        let val = &self.val;
        let mut k = 0;
        rules.retain_mut(|rule| {
            k += 1;
            let keep = !self.dropped[k - 1];
            if let (true, BodyDef::Conj { pos, neg }) = (keep, &mut rule.body) {
                pos.retain(|&p| val[p as usize] != TRUE);
                neg.retain(|&q| val[q as usize] != FALSE);
            }
            keep
        });
        Simplified {
            atoms_true: val.iter().filter(|&&v| v == TRUE).count() as u32,
            atoms_false: val.iter().filter(|&&v| v == FALSE).count() as u32,
            rules_dropped: self.dropped.iter().filter(|&&d| d).count() as u32,
            to_constraints: self.to_constraints,
        }
    }
}

fn is_constraint(rule: &InRule) -> bool {
    !rule.choice && rule.head.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(head: &[u32], choice: bool, body: &[i32]) -> InRule {
        InRule {
            head: head.to_vec(),
            choice,
            body: crate::analyse::normalise::normalise_conj(body).unwrap(),
            input: 0,
        }
    }

    fn conj_of(r: &InRule) -> (Vec<u32>, Vec<u32>) {
        let (p, n) = conj(&r.body).unwrap();
        (p.to_vec(), n.to_vec())
    }

    fn simplify(n: u32, mut rules: Vec<InRule>) -> (Vec<InRule>, Simplified) {
        let s = super::simplify(n, &mut rules);
        (rules, s)
    }

    #[test]
    fn false_heads_make_constraints_and_false_atoms_drop_rules() {
        // {a;b;c}.  x :- a, b.  :- x.  y :- x, c.  z :- not x, c.
        let rules = vec![
            rule(&[1, 2, 3], true, &[]),
            rule(&[4], false, &[1, 2]),
            rule(&[], false, &[4]),
            rule(&[5], false, &[4, 3]),
            rule(&[6], false, &[-4, 3]),
        ];
        let (out, s) = simplify(6, rules);
        assert_eq!(
            s.atoms_false, 2,
            "x by its constraint, y by losing its only rule"
        );
        assert_eq!(s.rules_dropped, 1, "y :- x, c");
        assert_eq!(s.to_constraints, 1, "x :- a, b");
        assert_eq!(out.len(), 4);
        assert_eq!(out[1].head, Vec::<u32>::new());
        assert_eq!(conj_of(&out[1]), (vec![1, 2], vec![]), ":- a, b");
        assert_eq!(conj_of(&out[2]), (vec![4], vec![]), ":- x stays");
        assert_eq!(conj_of(&out[3]), (vec![3], vec![]), "z :- c");
    }

    #[test]
    fn facts_are_derived_and_read_out_of_bodies() {
        // f.  g :- f.  {c}.  h :- g, c.  k :- not g, c.  d :- c, not k.
        let rules = vec![
            rule(&[1], false, &[]),
            rule(&[2], false, &[1]),
            rule(&[3], true, &[]),
            rule(&[4], false, &[2, 3]),
            rule(&[5], false, &[-2, 3]),
            rule(&[6], false, &[3, -5]),
        ];
        let (out, s) = simplify(6, rules);
        assert_eq!((s.atoms_true, s.atoms_false), (2, 1), "f, g true; k false");
        assert_eq!(out.len(), 5, "k's rule dropped");
        assert_eq!(conj_of(&out[1]), (vec![], vec![]), "g. (f read out)");
        assert_eq!(conj_of(&out[3]), (vec![3], vec![]), "h :- c");
        assert_eq!(
            conj_of(&out[4]),
            (vec![3], vec![]),
            "d :- c (not k read out)"
        );
    }

    #[test]
    fn disjunctions_and_choices_lose_false_atoms() {
        // {c}.  a ; b ; x :- c.  {x; y} :- c.  :- x.  e ; y :- c.
        let rules = vec![
            rule(&[1], true, &[]),
            rule(&[2, 3, 4], false, &[1]),
            rule(&[4, 5], true, &[1]),
            rule(&[], false, &[4]),
            rule(&[5, 6], false, &[1]),
        ];
        let (out, _) = simplify(6, rules);
        assert_eq!(out[1].head, vec![2, 3]);
        assert_eq!(out[2].head, vec![5], "{{y}} :- c");
        assert_eq!(out[4].head, vec![5, 6], "y keeps its choice support");
    }

    #[test]
    fn a_truth_only_a_constraint_forces_stays_in_bodies() {
        // h :- p.  p :- h.  :- not p.   (no answer set; p must not be read as a fact)
        let rules = vec![
            rule(&[1], false, &[2]),
            rule(&[2], false, &[1]),
            rule(&[], false, &[-2]),
        ];
        let (out, s) = simplify(2, rules.clone());
        assert_eq!(s, Simplified::default());
        assert_eq!(out, rules);
    }

    #[test]
    fn a_program_without_answer_sets_is_left_alone() {
        // a.  :- a.  b :- a.
        let rules = vec![
            rule(&[1], false, &[]),
            rule(&[], false, &[1]),
            rule(&[2], false, &[1]),
        ];
        let (out, s) = simplify(2, rules.clone());
        assert_eq!(s, Simplified::default());
        assert_eq!(out, rules);
    }

    /// xorshift64*, enough for test programs.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n
        }
    }

    /// A random program over atoms `1..=n`: facts, normal, choice and disjunctive rules,
    /// constraints (many of one positive atom) and now and then a sum body.
    fn random_rules(rng: &mut Rng, n: u32) -> Vec<InRule> {
        let mut rules = Vec::new();
        let lit = |rng: &mut Rng| {
            let a = 1 + rng.below(n as u64) as i32;
            if rng.below(3) == 0 {
                -a
            } else {
                a
            }
        };
        for _ in 0..3 + rng.below(8) {
            let kind = rng.below(10);
            let body_len = match kind {
                0 | 1 => 0,
                _ => rng.below(3),
            };
            let body: Vec<i32> = (0..body_len).map(|_| lit(rng)).collect();
            let mut head: Vec<u32> = match kind {
                0 | 3 | 4 | 5 => vec![1 + rng.below(n as u64) as u32],
                1 | 6 => (0..1 + rng.below(3))
                    .map(|_| 1 + rng.below(n as u64) as u32)
                    .collect(),
                7 => (0..2 + rng.below(2))
                    .map(|_| 1 + rng.below(n as u64) as u32)
                    .collect(),
                _ => vec![],
            };
            head.sort_unstable();
            head.dedup();
            let choice = matches!(kind, 1 | 6);
            let body = if kind == 5 && rng.below(2) == 0 {
                let lits: Vec<lparse::WLit> = (0..2 + rng.below(2))
                    .map(|_| lparse::WLit {
                        lit: lit(rng),
                        weight: 1 + rng.below(2) as i64,
                    })
                    .collect();
                crate::analyse::normalise::normalise_sum(1 + rng.below(3) as i64, &lits)
            } else if kind == 8 && body.is_empty() {
                crate::analyse::normalise::normalise_conj(&[lit(rng)])
            } else {
                crate::analyse::normalise::normalise_conj(&body)
            };
            if let Some(body) = body {
                rules.push(InRule {
                    head,
                    choice,
                    body,
                    input: 0,
                });
            }
        }
        rules
    }

    fn program_of(n: u32, rules: &[InRule]) -> lparse::Program {
        use lparse::ProgramBuilder;
        let mut p = lparse::Program::default();
        for r in rules {
            let body: Vec<i32> = match &r.body {
                BodyDef::Conj { pos, neg } => pos
                    .iter()
                    .map(|&a| a as i32)
                    .chain(neg.iter().map(|&a| -(a as i32)))
                    .collect(),
                BodyDef::Sum { lower, lits } => {
                    p.rule(lparse::Rule::sum(&r.head, *lower, lits));
                    continue;
                }
            };
            p.rule(if r.choice {
                lparse::Rule::choice(&r.head, &body)
            } else {
                lparse::Rule::normal(&r.head, &body)
            });
        }
        p.max_atom = p.max_atom.max(n);
        p
    }

    /// Every answer set over atoms `1..=n`, by trying each candidate with the checker.
    fn answer_sets(n: u32, rules: &[InRule]) -> Vec<Vec<u32>> {
        let program = program_of(n, rules);
        let checker = crate::check::Checker::new(program);
        (0u32..1 << n)
            .map(|bits| {
                (1..=n)
                    .filter(|a| bits >> (a - 1) & 1 == 1)
                    .collect::<Vec<u32>>()
            })
            .filter(|atoms| checker.check(atoms).is_ok())
            .collect()
    }

    #[test]
    fn random_programs_keep_their_answer_sets() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut changed = 0;
        for _ in 0..3000 {
            let n = 2 + rng.below(5) as u32;
            let rules = random_rules(&mut rng, n);
            let (out, s) = simplify(n, rules.clone());
            if s != Simplified::default() {
                changed += 1;
            }
            assert_eq!(
                answer_sets(n, &rules),
                answer_sets(n, &out),
                "{rules:?}\nsimplified to\n{out:?}"
            );
        }
        assert!(changed > 1000, "only {changed} programs changed");
    }
}
