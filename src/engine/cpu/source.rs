//! Unfounded-set propagation at partial assignments with source pointers (clasp's scheme:
//! Gebser, Kaufmann, Schaub, "Conflict-driven answer set solving", and Anger et al.).
//!
//! Only atoms of cyclic components (non-trivial positive SCCs) need a *source*: a body of one
//! of their rules that is not false and, when the body is *internal* to the atom's component
//! (has positive atoms there), whose internal atoms are sourced themselves — for a sum body:
//! the weight of its unsourced internal atoms is at most `slack = total weight − bound`, so it
//! can still reach its bound without them (literal values inside the sum are not read: that is
//! conservative, a body may source an atom the total-assignment check later finds unfounded,
//! never the reverse). A body's internal atoms all lie in one component (two heads whose
//! internal atoms lay in two components would put both components on one cycle), so `body_scc`
//! is well defined; for a head of another component the body is external.
//!
//! Invariants:
//! - **Structure** (kept across backtracking, never undone): `src[p]` is a body of a rule of `p`;
//!   the internal atoms of a source body are sourced earlier (sources are acyclic), and
//!   `unsrc[b]` is exactly the weight of `b`'s unsourced internal atoms. A source body is not
//!   false once the trail has been scanned up to `head`: a body falsified later is seen by
//!   [`Sources::scan`], which unsources its heads and, transitively, every atom resting on them.
//!   Backtracking only unassigns, so it keeps sources valid.
//! - **Work**: every unsourced cyclic atom that is not false is in `work` (`in_work`);
//!   backtracking re-queues an unsourced atom when its `F` is popped
//!   ([`Sources::on_unassign`]).
//! - **Unfounded set** ([`Sources::unfounded`]): the atoms it returns are unsourced and in one
//!   component, at least one is not false, and every body of a rule of one of them is either
//!   false or internal to the set (conjunction: a positive atom in it; sum: the set's weight in
//!   it exceeds the slack). So `{T p} ∪ {F b : b in the returned externals}` holds in every
//!   answer set (a loop nogood) and all its `F b` hold now.

use super::assign::Assignment;
use super::decide::{Csr, Rules};
use crate::analyse::{BodyDef, GroundProgram};
use crate::lit::{Lit, Var};

/// No component / no source.
const NONE: u32 = u32::MAX;

/// A compressed-sparse-row map from `0..n` to weighted `u32` items.
#[derive(Debug, Default)]
struct WCsr {
    off: Vec<u32>,
    items: Vec<(u32, i64)>,
}

impl WCsr {
    fn build(n: usize, mut pairs: Vec<(u32, u32, i64)>) -> WCsr {
        pairs.sort_by_key(|&(k, _, _)| k); // stable: items keep their order per key
        let mut off = vec![0u32; n + 1];
        for &(k, _, _) in &pairs {
            off[k as usize + 1] += 1;
        }
        for i in 0..n {
            off[i + 1] += off[i];
        }
        let items = pairs.into_iter().map(|(_, v, w)| (v, w)).collect();
        WCsr { off, items }
    }
    #[inline]
    fn range(&self, k: usize) -> std::ops::Range<usize> {
        self.off[k] as usize..self.off[k + 1] as usize
    }
}

#[derive(Debug, Default)]
pub struct Sources {
    /// The program has a cyclic component.
    active: bool,
    /// A sourced atom is founded: no body internal to a component is a sum (whose literals
    /// sourcing does not read), and no fixpoint was left to the total-assignment check (the
    /// guard in `loops`).
    exact: bool,
    /// By atom: its component when cyclic, else `NONE`.
    scc: Vec<u32>,
    /// By body: the component of its internal atoms (`NONE`: it has none).
    body_scc: Vec<u32>,
    /// By body: weight of unsourced internal atoms it tolerates and stays a source.
    slack: Vec<i64>,
    /// By body: weight of its unsourced internal atoms.
    unsrc: Vec<i64>,
    /// Atom → (internal body, weight): bodies where it is an internal positive literal.
    occ: WCsr,
    /// Body → (internal atom, weight).
    internal: WCsr,
    /// Body → its head atoms in cyclic components (distinct), those of `body_scc` first;
    /// `own[b]` of them are in `body_scc`.
    heads: Csr,
    own: Vec<u32>,
    /// By variable: it stands for a body of a rule with a cyclic head.
    body_watch: Vec<bool>,
    /// By atom: its source body, or `NONE`.
    src: Vec<u32>,
    /// By atom: its rank while sourced, above the rank of every sourced internal atom of its
    /// source body (so sources along conjunctions never form a cycle).
    rank: Vec<u32>,
    work: Vec<u32>,
    in_work: Vec<bool>,
    /// Trail entries before `head` have been scanned for falsified bodies.
    head: usize,
    /// Loop nogoods added by this propagation (tests compare with the engine's total).
    pub loops: u64,
    // Scratch.
    queue: Vec<u32>,
    set: Vec<u32>,
    in_set: Vec<bool>,
    body_seen: Vec<bool>,
}

impl Sources {
    pub fn new(g: &GroundProgram, rules: &Rules, num_vars: usize) -> Sources {
        if g.tight {
            return Sources::default();
        }
        let n = g.num_atoms as usize + 1;
        let nb = g.bodies.len();
        let scc: Vec<u32> = (0..n as u32)
            .map(|p| {
                if p > 0 && g.is_cyclic(p) {
                    g.scc[p as usize]
                } else {
                    NONE
                }
            })
            .collect();
        let pos_of = |b: usize| -> Vec<(u32, i64)> {
            match &g.bodies[b] {
                BodyDef::Conj { pos, .. } => pos.iter().map(|&p| (p, 1)).collect(),
                BodyDef::Sum { lits, .. } => lits
                    .iter()
                    .filter(|&&(l, _)| l > 0)
                    .map(|&(l, w)| (l as u32, w))
                    .collect(),
            }
        };
        let mut body_scc = vec![NONE; nb];
        let mut slack = vec![0i64; nb];
        let mut unsrc = vec![0i64; nb];
        let mut body_watch = vec![false; num_vars];
        let mut occ = Vec::new();
        let mut internal = Vec::new();
        let mut head_pairs = Vec::new();
        let mut own = vec![0u32; nb];
        for (b, def) in g.bodies.iter().enumerate() {
            let mut hs: Vec<u32> = rules
                .body_rules
                .get(b)
                .iter()
                .flat_map(|&r| rules.rule_heads.get(r as usize).iter().copied())
                .filter(|&h| scc[h as usize] != NONE)
                .collect();
            hs.sort_unstable();
            hs.dedup();
            let pos = pos_of(b);
            for &h in &hs {
                let s = scc[h as usize];
                if pos.iter().any(|&(p, _)| scc[p as usize] == s) {
                    debug_assert!(body_scc[b] == NONE || body_scc[b] == s);
                    body_scc[b] = s;
                }
            }
            if !hs.is_empty() {
                body_watch[rules.body_var[b] as usize] = true;
            }
            hs.sort_by_key(|&h| scc[h as usize] != body_scc[b]); // own component first
            own[b] = hs
                .iter()
                .filter(|&&h| scc[h as usize] == body_scc[b])
                .count() as u32;
            head_pairs.extend(hs.iter().map(|&h| (b as u32, h)));
            if body_scc[b] != NONE {
                for &(p, w) in &pos {
                    if scc[p as usize] == body_scc[b] {
                        occ.push((p, b as u32, w));
                        internal.push((b as u32, p, w));
                        unsrc[b] += w; // every atom starts unsourced
                    }
                }
            }
            if let BodyDef::Sum { lower, lits } = def {
                let total: i128 = lits.iter().map(|&(_, w)| w as i128).sum();
                slack[b] = (total - *lower as i128).clamp(-1, i64::MAX as i128) as i64;
            }
        }
        let exact =
            (0..nb).all(|b| body_scc[b] == NONE || matches!(g.bodies[b], BodyDef::Conj { .. }));
        let work: Vec<u32> = (1..n as u32).filter(|&p| scc[p as usize] != NONE).collect();
        let mut in_work = vec![false; n];
        work.iter().for_each(|&p| in_work[p as usize] = true);
        Sources {
            active: true,
            exact,
            scc,
            body_scc,
            slack,
            unsrc,
            occ: WCsr::build(n, occ),
            internal: WCsr::build(nb, internal),
            heads: Csr::build(nb, &head_pairs),
            own,
            body_watch,
            src: vec![NONE; n],
            rank: vec![0; n],
            work,
            in_work,
            head: 0,
            loops: 0,
            queue: Vec::new(),
            set: Vec::new(),
            in_set: vec![false; n],
            body_seen: vec![false; nb],
        }
    }

    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    /// At a fixpoint of unfounded-set propagation every true cyclic atom is founded: its source
    /// body is true and the internal atoms of that body are sourced before it, so a total
    /// assignment at such a fixpoint holds no unfounded set (`unfounded` need not check it).
    /// False for a tight program (nothing is sourced), for sum bodies inside a component, and
    /// once a fixpoint was left to the total-assignment check.
    #[inline]
    pub fn exact(&self) -> bool {
        self.active && self.exact
    }

    /// A fixpoint was left to the total-assignment check (`loops`' guard).
    pub fn inexact(&mut self) {
        self.exact = false;
    }

    /// Hook: `l` was just unassigned by backtracking.
    #[inline]
    pub fn on_unassign(&mut self, l: Lit) {
        let v = l.var() as usize;
        if !l.is_true() && v < self.src.len() && self.src[v] == NONE && self.scc[v] != NONE {
            self.enqueue(v as u32);
        }
    }

    /// Hook: the trail was cut back to `len` entries.
    #[inline]
    pub fn on_backtrack(&mut self, len: usize) {
        self.head = self.head.min(len);
    }

    #[inline]
    fn enqueue(&mut self, p: u32) {
        if !self.in_work[p as usize] {
            self.in_work[p as usize] = true;
            self.work.push(p);
        }
    }

    /// Unsource the heads whose source is a body falsified on the trail since the last scan.
    pub fn scan(&mut self, rules: &Rules, a: &Assignment) {
        while self.head < a.trail.len() {
            let l = a.trail[self.head];
            self.head += 1;
            let v = l.var() as usize;
            if l.is_true() || v >= self.body_watch.len() || !self.body_watch[v] {
                continue;
            }
            for &b in rules.var_bodies.get(v) {
                for i in 0..self.heads.get(b as usize).len() {
                    let h = self.heads.get(b as usize)[i];
                    if self.src[h as usize] == b && !self.resource(rules, a, h) {
                        self.unsource(rules, a, h);
                    }
                }
            }
        }
    }

    /// `p` loses its source, and so does every atom whose source needs `p`.
    fn unsource(&mut self, rules: &Rules, a: &Assignment, p: u32) {
        self.src[p as usize] = NONE;
        self.enqueue(p);
        self.queue.push(p);
        while let Some(q) = self.queue.pop() {
            for k in self.occ.range(q as usize) {
                let (b, w) = self.occ.items[k];
                let bi = b as usize;
                let was_valid = self.unsrc[bi] <= self.slack[bi];
                self.unsrc[bi] += w;
                if !was_valid || self.unsrc[bi] <= self.slack[bi] {
                    continue;
                }
                for i in 0..self.own[bi] as usize {
                    let h = self.heads.get(bi)[i];
                    let hi = h as usize;
                    if self.src[hi] == b && !self.resource(rules, a, h) {
                        self.src[hi] = NONE;
                        if !self.in_work[hi] {
                            self.in_work[hi] = true;
                            self.work.push(h);
                        }
                        self.queue.push(h);
                    }
                }
            }
        }
    }

    /// `p` gets source `b`; propagate: bodies whose last missing internal weight that was
    /// become sources of their unsourced heads of the component.
    fn set_source(&mut self, rules: &Rules, a: &Assignment, p: u32, b: u32) {
        self.rank[p as usize] = self.rank_over(b);
        self.src[p as usize] = b;
        debug_assert!(self.queue.is_empty(), "unsource leaves the queue empty");
        self.queue.push(p);
        // Breadth first: an atom's rank is its distance from the atoms sourced from outside,
        // which leaves many lower-ranked alternatives for `resource`.
        let mut next = 0;
        while next < self.queue.len() {
            let q = self.queue[next];
            next += 1;
            for k in self.occ.range(q as usize) {
                let (b, w) = self.occ.items[k];
                let bi = b as usize;
                let was_invalid = self.unsrc[bi] > self.slack[bi];
                self.unsrc[bi] -= w;
                if !was_invalid
                    || self.unsrc[bi] > self.slack[bi]
                    || a.is_false(Lit::t(rules.body_var[bi]))
                {
                    continue;
                }
                let mut rank = None;
                for i in 0..self.own[bi] as usize {
                    let h = self.heads.get(bi)[i];
                    let hi = h as usize;
                    if self.src[hi] == NONE {
                        self.src[hi] = b;
                        self.rank[hi] = *rank.get_or_insert_with(|| self.rank_over(b));
                        self.queue.push(h);
                    }
                }
            }
        }
        self.queue.clear();
    }

    /// The rank of an atom sourced by `b`: one above its sourced internal atoms.
    fn rank_over(&self, b: u32) -> u32 {
        self.internal
            .range(b as usize)
            .map(|k| self.internal.items[k].0 as usize)
            .filter(|&x| self.src[x] != NONE)
            .map(|x| self.rank[x] + 1)
            .max()
            .unwrap_or(0)
    }

    /// `p` (sourced) is about to lose its source: give it another body of its rules that is
    /// not false and needs only internal atoms of lower rank (within its slack), keeping
    /// `p`'s rank, so nothing that rests on `p` changes. False when there is none.
    fn resource(&mut self, rules: &Rules, a: &Assignment, p: u32) -> bool {
        let pi = p as usize;
        let (s, old, rank) = (self.scc[pi], self.src[pi], self.rank[pi]);
        for &r in rules.atom_rules.get(pi) {
            let b = rules.rule_body[r as usize];
            let bi = b as usize;
            if b == old || a.is_false(Lit::t(rules.body_var[bi])) {
                continue;
            }
            if self.body_scc[bi] == s {
                let missing: i64 = self
                    .internal
                    .range(bi)
                    .map(|k| self.internal.items[k])
                    .filter(|&(x, _)| self.src[x as usize] == NONE || self.rank[x as usize] >= rank)
                    .map(|(_, w)| w)
                    .sum();
                if missing > self.slack[bi] {
                    continue;
                }
            }
            self.src[pi] = b;
            return true;
        }
        false
    }

    /// A body of `p`'s rules that can be its source now.
    fn valid_body(&self, rules: &Rules, a: &Assignment, p: u32) -> Option<u32> {
        let s = self.scc[p as usize];
        let mut first = None;
        for &r in rules.atom_rules.get(p as usize) {
            let b = rules.rule_body[r as usize];
            let bi = b as usize;
            let bv = Lit::t(rules.body_var[bi]);
            let ok =
                !a.is_false(bv) && (self.body_scc[bi] != s || self.unsrc[bi] <= self.slack[bi]);
            if ok {
                if a.holds(bv) {
                    return Some(b);
                }
                first.get_or_insert(b);
            }
        }
        first
    }

    /// Find sources for the atoms of `work`; afterwards `work` holds exactly the unsourced
    /// cyclic atoms that are not false.
    fn find_sources(&mut self, rules: &Rules, a: &Assignment) {
        let mut work = std::mem::take(&mut self.work);
        let mut keep = 0;
        for i in 0..work.len() {
            let p = work[i];
            let pi = p as usize;
            if self.src[pi] == NONE && !a.is_false(Lit::t(p)) {
                match self.valid_body(rules, a, p) {
                    Some(b) => self.set_source(rules, a, p, b),
                    None => {
                        work[keep] = p;
                        keep += 1;
                        continue;
                    }
                }
            }
            self.in_work[pi] = false;
        }
        work.truncate(keep);
        // Forward propagation may have sourced atoms kept before it ran.
        work.retain(|&p| {
            let unsourced = self.src[p as usize] == NONE;
            self.in_work[p as usize] = unsourced;
            unsourced
        });
        debug_assert!(self.work.is_empty(), "nothing enqueues while sourcing");
        self.work = work;
    }

    /// After a scan: an unfounded set with an atom that is not false, and its external bodies
    /// as the literals `F b` (all holding), or `None` when every cyclic atom is sourced or
    /// false. Atoms of the set are left in `set()`.
    pub fn unfounded(&mut self, rules: &Rules, a: &Assignment) -> Option<Vec<Lit>> {
        loop {
            self.find_sources(rules, a);
            let &p = self.work.last()?;
            self.closure(rules, a, p);
            if self.set.iter().any(|&q| !a.is_false(Lit::t(q))) {
                return Some(self.externals(rules, a));
            }
            self.clear_set(); // p found a source on the way; try again
        }
    }

    /// The atoms of the last unfounded set.
    pub fn set(&self) -> &[u32] {
        &self.set
    }

    /// Grow an unfounded set from `p`: the unsourced internal atoms of every non-false body of
    /// a member, sourcing members on the way when a body turns out valid; keeps the members
    /// left unsourced (marked in `in_set`).
    fn closure(&mut self, rules: &Rules, a: &Assignment, p: u32) {
        self.clear_set();
        self.set.push(p);
        self.in_set[p as usize] = true;
        let mut i = 0;
        while i < self.set.len() {
            let q = self.set[i];
            i += 1;
            if self.src[q as usize] != NONE {
                continue;
            }
            if let Some(b) = self.valid_body(rules, a, q) {
                self.set_source(rules, a, q, b);
                continue;
            }
            for &r in rules.atom_rules.get(q as usize) {
                let bi = rules.rule_body[r as usize] as usize;
                if a.is_false(Lit::t(rules.body_var[bi])) {
                    continue;
                }
                // Not false and no source: internal to q's component, missing atoms.
                for k in self.internal.range(bi) {
                    let (x, _) = self.internal.items[k];
                    if self.src[x as usize] == NONE && !self.in_set[x as usize] {
                        self.in_set[x as usize] = true;
                        self.set.push(x);
                    }
                }
            }
        }
        let (src, in_set) = (&self.src, &mut self.in_set);
        self.set.retain(|&q| {
            let keep = src[q as usize] == NONE;
            in_set[q as usize] = keep;
            keep
        });
    }

    fn clear_set(&mut self) {
        for &q in &self.set {
            self.in_set[q as usize] = false;
        }
        self.set.clear();
    }

    /// `F b` for every external body of the set (a body of a member's rule that could hold
    /// with every member false), sorted.
    fn externals(&mut self, rules: &Rules, a: &Assignment) -> Vec<Lit> {
        let mut ext = Vec::new();
        for (q, bi) in rules.distinct_bodies(&self.set, &mut self.body_seen) {
            if self.body_scc[bi] == self.scc[q as usize] {
                let inside: i64 = self
                    .internal
                    .range(bi)
                    .map(|k| self.internal.items[k])
                    .filter(|&(x, _)| self.in_set[x as usize])
                    .map(|(_, w)| w)
                    .sum();
                if inside > self.slack[bi] {
                    continue; // internal: cannot hold with the set false
                }
            }
            let bv: Var = rules.body_var[bi];
            debug_assert!(a.is_false(Lit::t(bv)), "an external body of U is false");
            ext.push(Lit::f(bv));
        }
        ext.sort_unstable();
        ext.dedup();
        ext
    }

    /// Forget the last set (after its nogoods were added).
    pub fn done(&mut self) {
        self.clear_set();
    }

    /// Ranks order the sources (tests): the internal atoms of every source body that needs all
    /// of them (slack 0: conjunctions) are sourced and of lower rank than its head, so no
    /// cycle of such sources exists.
    #[cfg(test)]
    pub fn ranks_ordered(&self) -> bool {
        (1..self.scc.len()).all(|p| {
            let b = self.src[p];
            if b == NONE || self.body_scc[b as usize] != self.scc[p] || self.slack[b as usize] != 0
            {
                return true;
            }
            self.internal.range(b as usize).all(|k| {
                let x = self.internal.items[k].0 as usize;
                self.src[x] != NONE && self.rank[x] < self.rank[p]
            })
        })
    }

    /// The invariants at a fixpoint (for debug assertions): every cyclic atom is false or has
    /// a non-false source body of one of its rules whose internal atoms' unsourced weight is
    /// within its slack; `unsrc` counts exactly the unsourced internal atoms.
    pub fn consistent(&self, rules: &Rules, a: &Assignment) -> bool {
        let counts = (0..self.body_scc.len()).all(|b| {
            let w: i64 = self
                .internal
                .range(b)
                .map(|k| self.internal.items[k])
                .filter(|&(x, _)| self.src[x as usize] == NONE)
                .map(|(_, w)| w)
                .sum();
            w == self.unsrc[b]
        });
        let atoms = (1..self.scc.len()).all(|p| {
            if self.scc[p] == NONE {
                return true;
            }
            let b = self.src[p];
            if b == NONE {
                return a.is_false(Lit::t(p as u32));
            }
            let bi = b as usize;
            let of_p = rules
                .atom_rules
                .get(p)
                .iter()
                .any(|&r| rules.rule_body[r as usize] == b);
            of_p && !a.is_false(Lit::t(rules.body_var[bi]))
                && (self.body_scc[bi] != self.scc[p] || self.unsrc[bi] <= self.slack[bi])
        });
        counts && atoms
    }
}
