//! The checker over a sequence of candidates (a run's models, one after another), each checked
//! at the cost of what changed since the last candidate it accepted, not of the whole program.
//! Consecutive models of an enumeration by backtracking differ in few atoms: the whole check
//! costs a pass over every rule per model, this one a pass over the rules that mention an atom
//! that changed.
//!
//! Invariant: [`Incremental::check`] accepts a candidate exactly when [`Checker::check`] does.
//! It keeps, of the last candidate it accepted, the candidate and, for each of its atoms, the
//! rule that derived it in the least model of the reduct (its *support*; `EXTERNAL` for an
//! `#external` declaration). For a new candidate `m'` with `D` the atoms whose value changed:
//! - **model**: a rule that mentions no atom of `D` has the body and head values it had, so it
//!   still holds; only the rules that mention one are evaluated again (and `#external ... true`
//!   on the atoms of `D`; assumptions and `#edge`s, which are few, in full);
//! - **least model of the reduct**: let `T` be the true atoms of `D`, the true atoms whose
//!   support mentions an atom of `D`, and, closed upwards, the true atoms whose support has an
//!   atom of `T` in its positive body. Every other true atom keeps its support: that rule is in
//!   the reduct of `m'` as it was of the last candidate, and its positive body holds only atoms
//!   outside `T`, which (by induction on the order in which they were derived) the least model
//!   of `P^m'` holds too. The least model of `P^m'` is then those atoms and what the rules with a
//!   head in `T` derive from them — the fixpoint below, run over those rules only — and `m'` is
//!   accepted when it derives all of `T` (`m'` being a model of `P`, the least model holds no
//!   atom outside `m'`).
//!
//! A candidate far from the last one (`D` above a quarter of the atoms), the first one, one after
//! a rejection, and every candidate of a disjunctive program with a head cycle (minimality is
//! the checker's own search) get the whole check. Like the rest of the checker it reads only
//! the program as read (`lparse`), never the solver's structures.

use super::{holds, Checker, Ext, Verdict, Violation, EXTERNAL};
use lparse::{Atom, Body, HeadKind};

/// `need` of a rule not in the reduct (a negative literal false, or a positive atom outside the
/// candidate, which the least model never derives).
const OUT: i64 = i64::MAX;
/// `support` of an atom that no rule derived (false atoms).
const NONE: u32 = u32::MAX - 1;

/// A map from `0..n` to lists of rule indices.
struct Index {
    off: Vec<u32>,
    val: Vec<u32>,
}

impl Index {
    /// From the `(atom, rule)` pairs `emit` gives, in rule order, each pair once: `emit` is
    /// called twice (to count, then to fill), so that no vector of the pairs is made (on a
    /// program of millions of rules it was twice the index, beside the whole engine).
    fn new(n: usize, emit: impl Fn(&mut dyn FnMut(u32, u32))) -> Index {
        let mut off = vec![0u32; n + 2];
        emit(&mut |a, _| off[a as usize + 1] += 1);
        for a in 0..=n {
            off[a + 1] += off[a];
        }
        let mut fill = off.clone();
        let mut val = vec![0u32; off[n + 1] as usize];
        emit(&mut |a, r| {
            val[fill[a as usize] as usize] = r;
            fill[a as usize] += 1;
        });
        Index { off, val }
    }

    fn get(&self, a: usize) -> &[u32] {
        &self.val[self.off[a] as usize..self.off[a + 1] as usize]
    }
}

/// Counts of the checks made, by kind (tests and diagnostics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub whole: u64,
    pub incremental: u64,
}

/// A checker for a sequence of candidates of one program (see the module doc).
pub struct Incremental<'c> {
    c: &'c Checker,
    /// Atom → the rules that mention it (head, body, either sign), each once.
    mentions: Index,
    /// Atom → the rules with it in the head.
    heads: Index,
    /// Whether `m`, `atoms` and `support` are those of an accepted candidate.
    valid: bool,
    /// The last accepted candidate, as a set and as its atoms (each once).
    m: Vec<bool>,
    atoms: Vec<Atom>,
    /// `atoms` is strictly increasing.
    sorted: bool,
    /// By atom: the rule that derived it (`EXTERNAL`, `NONE`).
    support: Vec<u32>,
    /// Scratch: by atom, the round it was last seen in the new candidate; by rule, the round it
    /// was last touched and the round its `need` was set; by atom, still to be derived (in `T`).
    seen: Vec<u32>,
    touched: Vec<u32>,
    counted: Vec<u32>,
    need: Vec<i64>,
    open: Vec<bool>,
    round: u32,
    next: Vec<Atom>,
    diff: Vec<Atom>,
    rules: Vec<u32>,
    t: Vec<Atom>,
    queue: Vec<Atom>,
    pub counts: Counts,
}

impl<'c> Incremental<'c> {
    pub fn new(c: &'c Checker) -> Self {
        let n = c.program.max_atom as usize;
        let rules = &c.program.rules;
        let mentions = |put: &mut dyn FnMut(u32, u32)| {
            let mut last = vec![u32::MAX; n + 1];
            for (r, rule) in rules.iter().enumerate() {
                let r = r as u32;
                let body: Box<dyn Iterator<Item = Atom>> = match (&rule.body, &c.sums[r as usize]) {
                    (_, Some(s)) => Box::new(s.lits.iter().map(|(l, _)| l.unsigned_abs())),
                    (Body::Normal(lits), None) => Box::new(lits.iter().map(|l| l.unsigned_abs())),
                    (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
                };
                for a in rule.head.atoms.iter().copied().chain(body) {
                    if last[a as usize] != r {
                        last[a as usize] = r;
                        put(a, r);
                    }
                }
            }
        };
        let heads = |put: &mut dyn FnMut(u32, u32)| {
            let mut hs = Vec::new();
            for (r, rule) in rules.iter().enumerate() {
                hs.clear();
                hs.extend_from_slice(&rule.head.atoms);
                hs.sort_unstable();
                hs.dedup();
                hs.iter().for_each(|&a| put(a, r as u32));
            }
        };
        Incremental {
            c,
            mentions: Index::new(n, mentions),
            heads: Index::new(n, heads),
            valid: false,
            m: vec![false; n + 1],
            atoms: Vec::new(),
            sorted: true,
            support: vec![NONE; n + 1],
            seen: vec![0; n + 1],
            touched: vec![0; rules.len()],
            counted: vec![0; rules.len()],
            need: vec![0; rules.len()],
            open: vec![false; n + 1],
            round: 0,
            next: Vec::new(),
            diff: Vec::new(),
            rules: Vec::new(),
            t: Vec::new(),
            queue: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// Is `atoms` (the true atoms; order and duplicates do not matter) an answer set? The same
    /// answer as [`Checker::check`]'s (the violation named may be another one).
    pub fn check(&mut self, atoms: &[Atom]) -> Result<Verdict, Violation> {
        let max = self.c.program.max_atom;
        // The engines report their atoms sorted: then the ends tell the range.
        let sorted = atoms.windows(2).all(|w| w[0] < w[1]);
        let in_range = |a: &Atom| *a > 0 && *a <= max;
        let fine = match sorted {
            true => atoms.first().is_none_or(in_range) && atoms.last().is_none_or(in_range),
            false => atoms.iter().all(in_range),
        };
        if !fine {
            self.valid = false;
            let a = *atoms
                .iter()
                .find(|a| !in_range(a))
                .expect("one is out of range");
            return Err(Violation::OutOfRange { atom: a, max });
        }
        let incremental = self.valid && (self.c.head_cycle_free || !self.c.disjunctive);
        if !incremental || !self.diff_from(atoms, sorted) {
            return self.whole(atoms, sorted);
        }
        self.counts.incremental += 1;
        // Until it is accepted, the state is the new candidate's, half checked.
        self.valid = false;
        for &a in &self.diff {
            self.m[a as usize] = !self.m[a as usize];
        }
        self.check_rules()?;
        self.c.check_assumptions_and_edges(&self.m)?;
        self.check_founded()?;
        std::mem::swap(&mut self.atoms, &mut self.next);
        self.sorted = sorted;
        self.valid = true;
        Ok(self.c.verdict())
    }

    /// The atoms whose value differs between the last accepted candidate and `atoms` into
    /// `diff` (the candidate's atoms, once each, into `next`); false when they are too many for
    /// an incremental check to pay. Two sorted lists are merged; otherwise the new atoms are
    /// marked.
    fn diff_from(&mut self, atoms: &[Atom], sorted: bool) -> bool {
        self.diff.clear();
        self.next.clear();
        if sorted && self.sorted {
            let (old, diff) = (&self.atoms, &mut self.diff);
            let (mut i, mut j) = (0, 0);
            loop {
                let k = common_prefix(&old[i..], &atoms[j..]);
                (i, j) = (i + k, j + k);
                if i == old.len() || j == atoms.len() {
                    break;
                }
                if old[i] < atoms[j] {
                    diff.push(old[i]);
                    i += 1;
                } else {
                    diff.push(atoms[j]);
                    j += 1;
                }
            }
            diff.extend_from_slice(&old[i..]);
            diff.extend_from_slice(&atoms[j..]);
            self.next.extend_from_slice(atoms);
            self.next_round(); // the rules' marks are by round
            return self.diff_is_small();
        }
        self.next_round();
        let round = self.round;
        for &a in atoms {
            if self.seen[a as usize] != round {
                self.seen[a as usize] = round;
                self.next.push(a);
                if !self.m[a as usize] {
                    self.diff.push(a);
                }
            }
        }
        for &a in &self.atoms {
            if self.seen[a as usize] != round {
                self.diff.push(a);
            }
        }
        self.diff_is_small()
    }

    /// A new round of marks (all cleared when the counter wraps).
    fn next_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        if self.round == 0 {
            self.seen.fill(0);
            self.touched.fill(0);
            self.counted.fill(0);
            self.round = 1;
        }
    }

    fn diff_is_small(&self) -> bool {
        self.diff.len() <= self.c.program.max_atom as usize / 4 + 4
    }

    /// The rules that mention an atom of `diff` (into `rules`) hold in `m`, and no atom of
    /// `diff` declared `#external ... true` is false.
    fn check_rules(&mut self) -> Result<(), Violation> {
        let round = self.round;
        self.rules.clear();
        for &a in &self.diff {
            for &r in self.mentions.get(a as usize) {
                if self.touched[r as usize] != round {
                    self.touched[r as usize] = round;
                    self.rules.push(r);
                }
            }
        }
        if let Some(&r) = self
            .rules
            .iter()
            .find(|&&r| !self.c.rule_holds(r as usize, &self.m))
        {
            return Err(self.c.violated(r as usize));
        }
        match self
            .diff
            .iter()
            .find(|&&a| !self.m[a as usize] && self.c.ext[a as usize] == Ext::True)
        {
            Some(&a) => Err(Violation::ExternalTrue(self.c.atom_name(a))),
            None => Ok(()),
        }
    }

    /// `m` (a model of the program) is the least model of its reduct: the atoms of `T` (see the
    /// module doc) are derived again from the others, through the rules with a head in `T`.
    fn check_founded(&mut self) -> Result<(), Violation> {
        let c = self.c;
        let (m, support, open, t) = (&self.m, &mut self.support, &mut self.open, &mut self.t);
        t.clear();
        for &a in &self.diff {
            if m[a as usize] {
                open[a as usize] = true;
                t.push(a);
            } else {
                support[a as usize] = NONE;
            }
        }
        let fresh = t.len();
        // True atoms whose support mentions a changed atom.
        for &r in &self.rules {
            for &h in &c.program.rules[r as usize].head.atoms {
                let h = h as usize;
                if m[h] && !open[h] && support[h] == r {
                    open[h] = true;
                    t.push(h as Atom);
                }
            }
        }
        // Closed upwards: true atoms whose support has an atom of `T` in its positive body. (An
        // atom true only now is in no support's positive body: a rule that would read it
        // mentions it and was visited above.)
        let mut i = fresh;
        while i < t.len() {
            let b = t[i] as usize;
            i += 1;
            for (r, _) in c.occ(b) {
                for &h in &c.program.rules[r as usize].head.atoms {
                    let h = h as usize;
                    if m[h] && !open[h] && support[h] == r {
                        open[h] = true;
                        t.push(h as Atom);
                    }
                }
            }
        }
        // Every rule with a head in `T` counts what it still needs before anything of `T` is
        // derived (so that no derivation is counted twice).
        let round = self.round;
        let queue = &mut self.queue;
        queue.clear();
        self.rules.clear();
        for &h in t.iter() {
            let e = c.ext[h as usize];
            if e == Ext::True || e == Ext::Free {
                queue.push(h); // `m` holds it: its declaration derives it
            }
            for &r in self.heads.get(h as usize) {
                if self.counted[r as usize] != round {
                    self.counted[r as usize] = round;
                    self.need[r as usize] = need(c, r as usize, m, open);
                    self.rules.push(r);
                }
            }
        }
        for &h in queue.iter() {
            open[h as usize] = false;
            support[h as usize] = EXTERNAL;
        }
        for &r in &self.rules {
            if self.need[r as usize] <= 0 {
                fire(c, r as usize, m, open, support, queue);
            }
        }
        while let Some(a) = queue.pop() {
            let a = a as usize;
            for (r, w) in c.occ(a) {
                let k = &mut self.need[r as usize];
                if self.counted[r as usize] != round || *k == OUT {
                    continue; // no head in `T`, or not in the reduct
                }
                let before = *k;
                *k -= w;
                if before > 0 && *k <= 0 {
                    fire(c, r as usize, m, open, support, queue);
                }
            }
        }
        let unfounded = t.iter().copied().find(|&a| open[a as usize]);
        t.iter().for_each(|&a| open[a as usize] = false);
        match unfounded {
            Some(a) => Err(Violation::Unfounded(c.atom_name(a))),
            None => Ok(()),
        }
    }

    /// The whole check, which also records every atom's support.
    fn whole(&mut self, atoms: &[Atom], sorted: bool) -> Result<Verdict, Violation> {
        self.sorted = sorted;
        self.counts.whole += 1;
        self.m.fill(false);
        self.atoms.clear();
        for &a in atoms {
            if !self.m[a as usize] {
                self.m[a as usize] = true;
                self.atoms.push(a);
            }
        }
        self.support.fill(NONE);
        let verdict = self.c.check_all(&self.m, Some(&mut self.support));
        self.valid = verdict.is_ok();
        verdict
    }
}

/// The length of the longest common prefix of `a` and `b` (eight atoms at a time: consecutive
/// models share most of theirs).
fn common_prefix(a: &[Atom], b: &[Atom]) -> usize {
    let n = a.len().min(b.len());
    let mut k = 0;
    while k + 8 <= n && a[k..k + 8] == b[k..k + 8] {
        k += 8;
    }
    while k < n && a[k] == b[k] {
        k += 1;
    }
    k
}

/// What rule `r` still needs from the positive body atoms of `open` (`T`) to be applied in the
/// reduct of `m` (the atoms of `m` outside `T` count as derived), or `OUT`.
fn need(c: &Checker, r: usize, m: &[bool], open: &[bool]) -> i64 {
    match (&c.program.rules[r].body, &c.sums[r]) {
        (_, Some(s)) => {
            let mut k = s.lower;
            for &(l, w) in &s.lits {
                if (l < 0 && holds(l, m)) || (l > 0 && m[l as usize] && !open[l as usize]) {
                    k -= w;
                }
            }
            k
        }
        (Body::Normal(lits), None) => {
            let mut k = 0;
            for &l in lits {
                if !holds(l, m) {
                    return OUT;
                }
                k += (l > 0 && open[l as usize]) as i64;
            }
            k
        }
        (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
    }
}

/// Rule `r` applies: derive its head atoms still open that the reduct derives (a choice head
/// only if `m` holds it; a head-cycle-free disjunction shifted: only if `m` holds no other atom of
/// the head).
fn fire(
    c: &Checker,
    r: usize,
    m: &[bool],
    open: &mut [bool],
    support: &mut [u32],
    queue: &mut Vec<Atom>,
) {
    let head = &c.program.rules[r].head;
    for &h in &head.atoms {
        let ok = match head.kind {
            HeadKind::Choice => m[h as usize],
            HeadKind::Disjunctive => head.atoms.iter().all(|&o| o == h || !m[o as usize]),
        };
        if ok && open[h as usize] {
            open[h as usize] = false;
            support[h as usize] = r as u32;
            queue.push(h);
        }
    }
}
