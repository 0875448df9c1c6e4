//! The independent answer-set checker: given the program as read ([`lparse::Program`], not the
//! solver's analysed program or its nogoods) and a candidate set of true atoms, decide whether
//! the candidate is an answer set, and if not, name the rule or atom that shows it is not.
//!
//! Invariant: `check` accepts a candidate only if it is a model of every rule and equals the least
//! model of the program's reduct with respect to itself (Gelfond–Lifschitz, extended to choice
//! heads and sum bodies as clasp reads them); for a disjunctive program that is not
//! head-cycle-free, only if it is a minimal model of the reduct (`check/minimal.rs`, a search
//! of its own). What it cannot check (theory atoms) is a caveat of the `Verdict`, never silent.
//!
//! It shares no code with the solver on purpose: a bug in the completion or the search cannot hide
//! itself by also being in the checker.
//!
//! Semantics, matching clingo 5 (checked against it on small aspif files):
//! - a normal rule `h :- B` is in the reduct when every negative literal of `B` is false in the
//!   candidate; a disjunctive rule `h1;…;hk :- B` of a head-cycle-free program is read shifted
//!   (`hi :- B, not hj (j≠i)`), of any other program as a disjunction; a choice rule derives `h` only when `h` is in the candidate;
//! - a sum body `lower <= Σ w·l` counts negative literals against the candidate and positive ones
//!   against the fixpoint (monotone); negative weights are first moved to the complement literal
//!   (`w·l = w + |w|·¬l`), as lparse and clasp do;
//! - an `#external` atom that is the head of some rule is an ordinary atom (clingo drops the
//!   declaration); otherwise `free` = may be true or false, `true` = must be true, `false` and
//!   `release` = false;
//! - assumptions (aspif 6) must hold; `#edge` directives whose condition holds must be acyclic.

mod fixpoint;
mod incremental;
mod minimal;
#[cfg(test)]
mod tests;

use lparse::{Atom, Body, ExternalValue, HeadKind, Lit, Program};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;

pub use incremental::{Counts, Incremental};

/// Why a candidate is not an answer set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    #[error("atom {atom} is not an atom of the program (atoms are 1..={max})")]
    OutOfRange { atom: u32, max: u32 },
    #[error("rule {index} is violated: {rule}")]
    Rule { index: usize, rule: String },
    #[error("assumption {0} does not hold")]
    Assumption(String),
    #[error("external atom {0} is declared true but is false")]
    ExternalTrue(String),
    #[error("it is not a minimal model of its reduct: {0} is a smaller one")]
    NotMinimal(String),
    #[error("atom {0} is true but unfounded (not derived by the reduct)")]
    Unfounded(String),
    #[error("atom {atom} is false but derived by rule {index}: {rule}")]
    NotClosed {
        atom: String,
        index: usize,
        rule: String,
    },
    #[error("the #edge directives whose condition holds form a cycle through node {0}")]
    EdgeCycle(i32),
    #[error("its costs are {actual:?} (by priority, highest first), not {reported:?}")]
    Costs {
        reported: Vec<i64>,
        actual: Vec<i64>,
    },
}

/// A candidate was accepted; `caveats` lists what could not be checked (empty = fully checked).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    pub caveats: Vec<String>,
}

impl Verdict {
    pub fn complete(&self) -> bool {
        self.caveats.is_empty()
    }
}

/// A sum body with positive weights only (see the module doc for the normalisation).
#[derive(Clone, Debug)]
pub(crate) struct SumBody {
    pub lower: i64,
    pub lits: Vec<(Lit, i64)>,
}

/// The normalised sum bodies by rule index, `sums[r]` as a `&Option<SumBody>`: four bytes a
/// rule, none for a program without sum bodies (a `Vec<Option<SumBody>>` took 32 bytes a rule,
/// a third of the checker on programs of millions of normal rules).
#[derive(Debug, Default)]
pub(crate) struct Sums {
    /// Rule → its body's slot in `bodies` (0: a normal body); empty: every body is normal.
    slot: Vec<u32>,
    /// `None` first, then the sum bodies.
    bodies: Vec<Option<SumBody>>,
}

impl std::ops::Index<usize> for Sums {
    type Output = Option<SumBody>;
    fn index(&self, rule: usize) -> &Option<SumBody> {
        &self.bodies[self.slot.get(rule).map_or(0, |&k| k as usize)]
    }
}

/// The support of an atom derived by its `#external` declaration, not by a rule.
pub(crate) const EXTERNAL: u32 = u32::MAX;

/// What `#external` leaves for an atom without rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ext {
    None,
    Free,
    True,
}

/// A checker for one program, built once and reused for every model of a run. It holds the
/// program it checks, so that it can be built on another thread than the one it checks on
/// (`run/prepare.rs` builds it where the time limit holds).
pub struct Checker {
    pub(crate) program: Arc<Program>,
    /// Normalised sum bodies, by rule index (`None` for normal bodies).
    pub(crate) sums: Sums,
    /// Atom → (rule, weight) for each positive body occurrence (CSR over `0..=max_atom`;
    /// [`Checker::occ`] reads it).
    occ_offsets: Vec<u32>,
    occ_rules: Vec<u32>,
    /// The weights of `occ_rules`, empty when every one is 1 (no sum body).
    occ_weights: Vec<i64>,
    /// The external status of atoms that head no rule.
    pub(crate) ext: Vec<Ext>,
    /// Disjunctive rules may be shifted (no two atoms of one head on a common positive cycle).
    pub(crate) head_cycle_free: bool,
    /// Some rule has a disjunctive head of two or more atoms (found once, not per model).
    pub(crate) disjunctive: bool,
    names: Vec<Option<String>>,
}

impl Checker {
    pub fn new(program: impl Into<Arc<Program>>) -> Self {
        let program: Arc<Program> = program.into();
        let n = program.max_atom as usize;
        let mut sums = Sums {
            slot: Vec::new(),
            bodies: vec![None],
        };
        let mut count = vec![0u32; n + 2];
        for (r, rule) in program.rules.iter().enumerate() {
            match &rule.body {
                Body::Normal(lits) => {
                    for &l in lits.iter().filter(|&&l| l > 0) {
                        count[l as usize] += 1;
                    }
                }
                Body::Sum { lower, lits } => {
                    let s = normalise_sum(*lower, lits.iter().map(|w| (w.lit, w.weight)));
                    for &(l, _) in s.lits.iter().filter(|(l, _)| *l > 0) {
                        count[l as usize] += 1;
                    }
                    if sums.slot.is_empty() {
                        sums.slot = vec![0; program.rules.len()];
                    }
                    sums.slot[r] = sums.bodies.len() as u32;
                    sums.bodies.push(Some(s));
                }
            }
        }
        // Built here, not with `crate::csr`: the checker shares no code with the solver.
        let mut occ_offsets = vec![0u32; n + 2];
        for a in 0..=n {
            occ_offsets[a + 1] = occ_offsets[a] + count[a];
        }
        drop(count);
        let mut fill = occ_offsets.clone();
        let total = occ_offsets[n + 1] as usize;
        let mut occ_rules = vec![0u32; total];
        let weighted = sums.bodies.len() > 1;
        let mut occ_weights = vec![0i64; if weighted { total } else { 0 }];
        for (r, rule) in program.rules.iter().enumerate() {
            let mut put = |a: usize, w: i64| {
                let k = fill[a] as usize;
                occ_rules[k] = r as u32;
                if weighted {
                    occ_weights[k] = w;
                }
                fill[a] += 1;
            };
            match (&rule.body, &sums[r]) {
                (_, Some(s)) => s
                    .lits
                    .iter()
                    .filter(|(l, _)| *l > 0)
                    .for_each(|&(l, w)| put(l as usize, w)),
                (Body::Normal(lits), None) => lits
                    .iter()
                    .filter(|&&l| l > 0)
                    .for_each(|&l| put(l as usize, 1)),
                (Body::Sum { .. }, None) => unreachable!("every sum body was normalised above"),
            }
        }
        drop(fill);

        let mut heads = vec![false; n + 1];
        for rule in &program.rules {
            rule.head
                .atoms
                .iter()
                .for_each(|&a| heads[a as usize] = true);
        }
        let mut ext = vec![Ext::None; n + 1];
        // The last declaration of an atom wins, as in clingo.
        for e in &program.externals {
            if !heads[e.atom as usize] {
                ext[e.atom as usize] = match e.value {
                    ExternalValue::Free => Ext::Free,
                    ExternalValue::True => Ext::True,
                    ExternalValue::False | ExternalValue::Release => Ext::None,
                };
            }
        }

        let mut names = vec![None; n + 1];
        for o in &program.outputs {
            if let [l] = o.condition[..] {
                if l > 0 && names[l as usize].is_none() {
                    names[l as usize] = Some(o.name.clone());
                }
            }
        }

        let disjunctive = program
            .rules
            .iter()
            .any(|r| r.head.kind == HeadKind::Disjunctive && r.head.atoms.len() > 1);
        let mut checker = Checker {
            program,
            sums,
            occ_offsets,
            occ_rules,
            occ_weights,
            ext,
            head_cycle_free: true,
            disjunctive,
            names,
        };
        checker.head_cycle_free = fixpoint::head_cycle_free(&checker);
        checker
    }

    /// The (rule, weight) of each positive body occurrence of `atom`.
    pub(crate) fn occ(&self, atom: usize) -> impl Iterator<Item = (u32, i64)> + '_ {
        let (lo, hi) = (
            self.occ_offsets[atom] as usize,
            self.occ_offsets[atom + 1] as usize,
        );
        (lo..hi).map(move |k| (self.occ_rules[k], self.occ_weights.get(k).map_or(1, |&w| w)))
    }

    /// Is `atoms` (the true atoms; order and duplicates do not matter) an answer set?
    pub fn check(&self, atoms: &[Atom]) -> Result<Verdict, Violation> {
        let max = self.program.max_atom;
        let mut m = vec![false; max as usize + 1];
        for &a in atoms {
            if a == 0 || a > max {
                return Err(Violation::OutOfRange { atom: a, max });
            }
            m[a as usize] = true;
        }
        self.check_all(&m, None)
    }

    /// The whole check of the total interpretation `m`; `support`, when given, receives for
    /// each atom the rule that derived it in the least model of the reduct ([`EXTERNAL`]: its
    /// `#external` declaration), for [`Incremental`].
    fn check_all(&self, m: &[bool], support: Option<&mut [u32]>) -> Result<Verdict, Violation> {
        self.check_model(m)?;
        self.check_assumptions_and_edges(m)?;
        fixpoint::check_founded(self, m, support)?;
        Ok(self.verdict())
    }

    /// What every accepted candidate of the program is told it could not have checked.
    fn verdict(&self) -> Verdict {
        let mut verdict = Verdict::default();
        if self.program.theory_statements > 0 {
            verdict.caveats.push(format!(
                "{} theory statements not checked",
                self.program.theory_statements
            ));
        }
        verdict
    }

    /// A checker of a sequence of candidates, each at the cost of what changed since the last
    /// one it accepted ([`Incremental`]).
    pub fn incremental(&self) -> Incremental<'_> {
        Incremental::new(self)
    }

    /// Do the `#minimize` statements give `atoms` the costs `reported`? The costs of a model
    /// are, for each priority of the statements (highest first, clasp's order), the sum of the
    /// weights of the statements' true literals at that priority, every occurrence counted.
    pub fn check_costs(&self, atoms: &[Atom], reported: &[i64]) -> Result<(), Violation> {
        let actual = self.costs(atoms);
        if actual == reported {
            Ok(())
        } else {
            Err(Violation::Costs {
                reported: reported.to_vec(),
                actual,
            })
        }
    }

    /// The costs of `atoms` (see [`Checker::check_costs`]).
    pub fn costs(&self, atoms: &[Atom]) -> Vec<i64> {
        let max = self.program.max_atom as usize;
        let mut m = vec![false; max + 1];
        atoms
            .iter()
            .filter(|&&a| a as usize <= max)
            .for_each(|&a| m[a as usize] = true);
        let mut by_priority: std::collections::BTreeMap<std::cmp::Reverse<i32>, i64> =
            Default::default();
        for stmt in &self.program.minimize {
            let cost = by_priority
                .entry(std::cmp::Reverse(stmt.priority))
                .or_default();
            for w in &stmt.lits {
                if holds(w.lit, &m) {
                    *cost += w.weight;
                }
            }
        }
        by_priority.into_values().collect()
    }

    /// Every rule whose body holds in `m` has its head satisfied (choice heads always are).
    fn check_model(&self, m: &[bool]) -> Result<(), Violation> {
        if let Some(index) = (0..self.program.rules.len()).find(|&r| !self.rule_holds(r, m)) {
            return Err(self.violated(index));
        }
        for (a, &e) in self.ext.iter().enumerate() {
            if e == Ext::True && !m[a] {
                return Err(Violation::ExternalTrue(self.atom_name(a as u32)));
            }
        }
        Ok(())
    }

    fn check_assumptions_and_edges(&self, m: &[bool]) -> Result<(), Violation> {
        if self.program.assumptions.is_empty() && self.program.edges.is_empty() {
            return Ok(());
        }
        if let Some(&l) = self.program.assumptions.iter().find(|&&l| !holds(l, m)) {
            return Err(Violation::Assumption(self.lit_name(l)));
        }
        let active = self
            .program
            .edges
            .iter()
            .filter(|e| e.condition.iter().all(|&l| holds(l, m)));
        if let Some(node) = find_cycle(active.map(|e| (e.u, e.v))) {
            return Err(Violation::EdgeCycle(node));
        }
        Ok(())
    }

    /// Rule `index` is satisfied by `m`: its body is false or a head atom true (a choice head
    /// always is).
    pub(crate) fn rule_holds(&self, index: usize, m: &[bool]) -> bool {
        let head = &self.program.rules[index].head;
        head.kind == HeadKind::Choice
            || head.atoms.iter().any(|&a| m[a as usize])
            || !self.body_holds(index, m)
    }

    fn violated(&self, index: usize) -> Violation {
        Violation::Rule {
            index,
            rule: self.describe_rule(index),
        }
    }

    /// The body of rule `index` holds in the (total) interpretation `m`.
    pub(crate) fn body_holds(&self, index: usize, m: &[bool]) -> bool {
        match (&self.program.rules[index].body, &self.sums[index]) {
            (_, Some(s)) => {
                s.lits
                    .iter()
                    .filter(|(l, _)| holds(*l, m))
                    .map(|(_, w)| w)
                    .sum::<i64>()
                    >= s.lower
            }
            (Body::Normal(lits), None) => lits.iter().all(|&l| holds(l, m)),
            (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
        }
    }

    /// The name of `atom` for messages: its shown name, or `_N` for an unnamed atom `N`.
    pub fn atom_name(&self, atom: Atom) -> String {
        match self.names.get(atom as usize) {
            Some(Some(name)) => name.clone(),
            _ => format!("_{atom}"),
        }
    }

    fn lit_name(&self, lit: Lit) -> String {
        let name = self.atom_name(lit.unsigned_abs());
        if lit < 0 {
            format!("not {name}")
        } else {
            name
        }
    }

    /// Rule `index` in clingo-like syntax, e.g. `a; b :- c, not d.` or `{a} :- 2 <= #sum{…}.`.
    pub fn describe_rule(&self, index: usize) -> String {
        let rule = &self.program.rules[index];
        let heads: Vec<String> = rule.head.atoms.iter().map(|&a| self.atom_name(a)).collect();
        let mut s = match rule.head.kind {
            HeadKind::Choice => format!("{{{}}}", heads.join("; ")),
            HeadKind::Disjunctive => heads.join("; "),
        };
        let body = match &rule.body {
            Body::Normal(lits) => lits
                .iter()
                .map(|&l| self.lit_name(l))
                .collect::<Vec<_>>()
                .join(", "),
            Body::Sum { lower, lits } => {
                let mut b = format!("{lower} <= #sum{{");
                for (i, w) in lits.iter().enumerate() {
                    let sep = if i > 0 { "; " } else { "" };
                    let _ = write!(b, "{sep}{}:{}", w.weight, self.lit_name(w.lit));
                }
                b.push('}');
                b
            }
        };
        if !body.is_empty() {
            s.push_str(if s.is_empty() { ":- " } else { " :- " });
            s.push_str(&body);
        }
        s.push('.');
        s
    }
}

/// Convenience: build a checker and check one candidate.
pub fn check(program: &Program, atoms: &[Atom]) -> Result<Verdict, Violation> {
    Checker::new(program.clone()).check(atoms)
}

pub(crate) fn holds(lit: Lit, m: &[bool]) -> bool {
    if lit > 0 {
        m[lit as usize]
    } else {
        !m[lit.unsigned_abs() as usize]
    }
}

/// Move negative weights to the complement literal and drop zero weights.
fn normalise_sum(lower: i64, lits: impl Iterator<Item = (Lit, i64)>) -> SumBody {
    let mut s = SumBody {
        lower,
        lits: Vec::new(),
    };
    for (l, w) in lits {
        if w > 0 {
            s.lits.push((l, w));
        } else if w < 0 {
            s.lower = s.lower.saturating_sub(w);
            s.lits.push((-l, w.saturating_neg()));
        }
    }
    s
}

/// A node on a cycle of the directed graph given by `edges`, if it has one (Kahn's algorithm:
/// what cannot be peeled off in topological order lies on or behind a cycle).
fn find_cycle(edges: impl Iterator<Item = (i32, i32)>) -> Option<i32> {
    let mut index: HashMap<i32, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut adj: Vec<Vec<usize>> = Vec::new();
    let mut id = |n: i32, nodes: &mut Vec<i32>, adj: &mut Vec<Vec<usize>>| {
        *index.entry(n).or_insert_with(|| {
            nodes.push(n);
            adj.push(Vec::new());
            nodes.len() - 1
        })
    };
    for (u, v) in edges {
        let (iu, iv) = (id(u, &mut nodes, &mut adj), id(v, &mut nodes, &mut adj));
        adj[iu].push(iv);
    }
    let mut indeg = vec![0usize; nodes.len()];
    adj.iter().flatten().for_each(|&v| indeg[v] += 1);
    let mut stack: Vec<usize> = (0..nodes.len()).filter(|&i| indeg[i] == 0).collect();
    let mut removed = 0;
    while let Some(u) = stack.pop() {
        removed += 1;
        for &v in &adj[u] {
            indeg[v] -= 1;
            if indeg[v] == 0 {
                stack.push(v);
            }
        }
    }
    if removed == nodes.len() {
        return None;
    }
    (0..nodes.len()).find(|&i| indeg[i] > 0).map(|i| nodes[i])
}
