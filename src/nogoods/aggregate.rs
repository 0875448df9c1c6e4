//! Sum bodies `b ↔ Σ wᵢ·[lᵢ] ≥ lower` as nogoods over the nodes of a reduced ordered decision
//! diagram (BDD) of the sum, built with the interval method of Abío, Nieuwenhuis, Oliveras and
//! Rodríguez-Carbonell ("BDDs for Pseudo-Boolean Constraints", 2012).
//!
//! Node `(i, K)` stands for `Σ_{j≥i} wⱼ·[lⱼ] ≥ K`, the literals taken by decreasing weight. It is
//! `lo ∨ (lᵢ ∧ hi)` with `lo = (i+1, K)` and `hi = (i+1, K−wᵢ)`; since weights are positive,
//! `lo → hi`. Every node gets one variable `v` and four nogoods that say exactly
//! `v ↔ lo ∨ (lᵢ ∧ hi)`:
//!
//! ```text
//! {F v, T lo}          lo → v
//! {F v, T lᵢ, T hi}    lᵢ ∧ hi → v
//! {T v, F hi}          v → hi            (v → lo ∨ hi, and lo → hi)
//! {T v, F lᵢ, F lo}    v → lᵢ ∨ lo
//! ```
//!
//! with the constant nodes `K ≤ 0` (true) and `K > Σ_{j≥i} wⱼ` (false) folded in; a node whose
//! children are false and true is `lᵢ` itself and gets no variable. The root `(0, lower)` is the
//! body variable `b` itself.
//!
//! Invariant: under any total assignment of the input literals, the nogoods leave exactly one
//! value for each node variable — the value of the function it stands for — and `b` is true
//! iff the sum reaches `lower`. So the encoding is sound, complete, and adds no solutions to
//! enumerate twice. Two `K` at one level whose intervals `[β, γ]` coincide share a node, and a
//! node whose two children are equal is its child: the diagram is reduced, its width at each
//! level is at most `lower`.
//!
//! A diagram that passes its budget is given up, and its work is lost. Programs with thousands
//! of wide sums alike (valves: 22,801 sums of 300 weighted literals, bounds in the tens of
//! thousands) would spend minutes building diagrams only to drop each one, so [`Attempts`]
//! remembers, per size class of the literal list, how many diagrams in a row were given up:
//! past [`GIVE_UP_AFTER`] such sums go straight to the fallback (the native propagator, or the
//! adder), with one diagram tried every [`PROBE_EVERY`] sums so that a class that fits again is
//! noticed. This changes only which encoding a sum gets, never what it means.

use super::db::{NogoodDbBuilder, Origin};
use crate::lit::{holds, Lit, Var};
use std::collections::{BTreeMap, HashMap};

/// A node of the diagram: a constant, or a solver literal that stands for it (an auxiliary
/// variable, the body variable, or — for a node that is just `lᵢ` — the input literal itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    True,
    False,
    Lit(Lit),
    /// A node built for the current body but not yet given a variable (see [`Forest::root`]).
    Pending(u32),
}

/// A condition in a nogood: a constant or "this solver literal holds".
#[derive(Clone, Copy)]
enum Cond {
    Const(bool),
    Lit(Lit),
}

impl Node {
    fn holds(self, value: bool) -> Cond {
        match self {
            Node::True => Cond::Const(value),
            Node::False => Cond::Const(!value),
            Node::Lit(l) => Cond::Lit(if value { l } else { l.negate() }),
            Node::Pending(_) => unreachable!("pending nodes are resolved before emitting"),
        }
    }
}

/// Add the nogood `conds` with constants folded in: a false condition can never hold, so the
/// nogood is dropped; a true one is left out.
fn emit(nb: &mut NogoodDbBuilder, conds: &[Cond]) {
    let mut lits = Vec::with_capacity(conds.len());
    for c in conds {
        match *c {
            Cond::Const(false) => return,
            Cond::Const(true) => {}
            Cond::Lit(l) => lits.push(l),
        }
    }
    nb.add(&lits, Origin::Aggregate);
}

/// A solved interval: every K in `[beta, gamma]` at this level gives `node`.
type Solved = (i128, i128, Node);

struct Frame {
    level: usize,
    k: i128,
    lo: Option<Solved>,
    hi: Option<Solved>,
}

const INF: i128 = 1 << 100;

/// The diagram nodes built so far for one list of weighted literals. Bodies with the same
/// literals and weights but different bounds (gringo writes `#sum{…} = Q` as one body per `Q`)
/// share every node below the root: the diagram is built once, not once per bound.
struct Forest {
    /// The literals, heaviest first: they decide the sum soonest, which keeps levels narrow.
    items: Vec<(i32, i128)>,
    /// `suffix[i]` = Σ_{j≥i} wⱼ.
    suffix: Vec<i128>,
    /// Level → solved intervals by their lower end `β` → (`γ`, node).
    levels: Vec<BTreeMap<i128, (i128, Node)>>,
    /// Bodies encoded with this diagram so far, and the nodes it has.
    bodies: usize,
    nodes: usize,
}

impl Forest {
    fn new(lits: &[(i32, i64)]) -> Forest {
        let mut items: Vec<(i32, i128)> = lits.iter().map(|&(l, w)| (l, w as i128)).collect();
        items.sort_unstable_by_key(|&(l, w)| (std::cmp::Reverse(w), l));
        let n = items.len();
        let mut suffix = vec![0i128; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] + items[i].1;
        }
        Forest {
            items,
            suffix,
            levels: vec![BTreeMap::new(); n + 1],
            bodies: 0,
            nodes: 0,
        }
    }

    /// The node of `(level, k)` if it is a constant or already built.
    fn solved(&self, level: usize, k: i128) -> Option<Solved> {
        if k <= 0 {
            return Some((-INF, 0, Node::True));
        }
        if k > self.suffix[level] {
            return Some((self.suffix[level] + 1, INF, Node::False));
        }
        let (&beta, &(gamma, node)) = self.levels[level].range(..=k).next_back()?;
        (k <= gamma).then_some((beta, gamma, node))
    }

    /// The node of `(0, k)`, building what is missing; a new root node is the variable `b`.
    /// Gives up (and leaves the forest as it was) when more than `budget` new nodes would be
    /// needed. Returns the node and how many fresh variables it took.
    fn root(
        &mut self,
        nb: &mut NogoodDbBuilder,
        b: Var,
        k: i128,
        budget: usize,
    ) -> Option<(Node, u32)> {
        if let Some(r) = self.solved(0, k) {
            return Some((r.2, 0));
        }
        // New nodes: (level, β, lo, hi). They get variables only once the whole diagram of this
        // body is known to fit the budget; until then the memo holds `Pending(index)`.
        let mut pending: Vec<(usize, i128, Node, Node)> = Vec::new();
        let mut stack = vec![Frame {
            level: 0,
            k,
            lo: None,
            hi: None,
        }];
        let root = loop {
            // Depth-first without recursion: sums can have thousands of literals.
            let f = stack.last_mut().expect("a frame is open");
            let w = self.items[f.level].1;
            if f.lo.is_none() {
                match self.solved(f.level + 1, f.k) {
                    Some(r) => f.lo = Some(r),
                    None => {
                        let (level, k) = (f.level + 1, f.k);
                        stack.push(Frame {
                            level,
                            k,
                            lo: None,
                            hi: None,
                        });
                        continue;
                    }
                }
            }
            if f.hi.is_none() {
                match self.solved(f.level + 1, f.k - w) {
                    Some(r) => f.hi = Some(r),
                    None => {
                        let (level, k) = (f.level + 1, f.k - w);
                        stack.push(Frame {
                            level,
                            k,
                            lo: None,
                            hi: None,
                        });
                        continue;
                    }
                }
            }
            let f = stack.pop().expect("a frame is open");
            let (beta_lo, gamma_lo, lo) = f.lo.expect("solved above");
            let (beta_hi, gamma_hi, hi) = f.hi.expect("solved above");
            let beta = beta_lo.max(beta_hi + w);
            let gamma = gamma_lo.min(gamma_hi + w);
            let node = if lo == hi {
                lo // Literal i does not matter for this K.
            } else if f.level > 0 && lo == Node::False && hi == Node::True {
                Node::Lit(holds(self.items[f.level].0)) // The node is lᵢ: no variable needed.
            } else {
                if pending.len() >= budget {
                    for &(level, beta, _, _) in &pending {
                        self.levels[level].remove(&beta);
                    }
                    return None;
                }
                pending.push((f.level, beta, lo, hi));
                Node::Pending(pending.len() as u32 - 1)
            };
            self.levels[f.level].insert(beta, (gamma, node));
            let r = (beta, gamma, node);
            match stack.last_mut() {
                None => break node,
                Some(parent) if parent.lo.is_none() => parent.lo = Some(r),
                Some(parent) => parent.hi = Some(r),
            }
        };
        // Children come before parents in `pending`, so each child already has its literal.
        let mut lit_of: Vec<Lit> = Vec::with_capacity(pending.len());
        let resolve = |n: Node, lit_of: &[Lit]| match n {
            Node::Pending(i) => Node::Lit(lit_of[i as usize]),
            n => n,
        };
        let mut fresh = 0u32;
        for &(level, beta, lo, hi) in &pending {
            // A level-0 node is the root: the body itself.
            let v = if level == 0 {
                b
            } else {
                fresh += 1;
                nb.new_var()
            };
            lit_of.push(Lit::t(v));
            let (lo, hi) = (resolve(lo, &lit_of), resolve(hi, &lit_of));
            let l = holds(self.items[level].0);
            let vn = Node::Lit(Lit::t(v));
            // v ↔ lo ∨ (l ∧ hi)
            emit(nb, &[vn.holds(false), lo.holds(true)]); // lo → v
            emit(nb, &[vn.holds(false), Cond::Lit(l), hi.holds(true)]); // l ∧ hi → v
            emit(nb, &[vn.holds(true), hi.holds(false)]); // v → hi
            emit(
                nb,
                &[vn.holds(true), Cond::Lit(l.negate()), lo.holds(false)],
            ); // v → l ∨ lo
            self.levels[level].get_mut(&beta).expect("inserted above").1 = vn;
        }
        Some((resolve(root, &lit_of), fresh))
    }
}

/// The root is `b` unless it is a constant, a literal, or the root of an earlier body with an
/// equivalent bound: then `b ↔ root`.
fn link_root(nb: &mut NogoodDbBuilder, b: Var, root: Node) {
    if root != Node::Lit(Lit::t(b)) {
        let bn = Node::Lit(Lit::t(b));
        emit(nb, &[bn.holds(true), root.holds(false)]); // b → root
        emit(nb, &[bn.holds(false), root.holds(true)]); // root → b
    }
}

/// Encodes sum bodies, sharing one diagram between bodies with equal weighted literals.
/// Diagrams given up in a row after which a size class skips them (see the module doc).
pub const GIVE_UP_AFTER: u32 = 16;
/// While a class skips diagrams, one sum in this many still tries one.
pub const PROBE_EVERY: u32 = 32;

/// Per size class of a sum's literal list (the bit length of its length): diagrams given up in
/// a row, and sums sent to the fallback since without trying.
#[derive(Default)]
struct Attempts {
    classes: HashMap<u32, (u32, u32)>,
    skipped: usize,
}

impl Attempts {
    fn class(len: usize) -> u32 {
        usize::BITS - len.leading_zeros()
    }

    /// Whether a sum of `len` literals should try a diagram.
    fn should_try(&mut self, len: usize) -> bool {
        let (given_up, skipped) = self.classes.entry(Self::class(len)).or_default();
        if *given_up < GIVE_UP_AFTER {
            return true;
        }
        *skipped += 1;
        if *skipped % PROBE_EVERY == 0 {
            return true;
        }
        self.skipped += 1;
        false
    }

    fn record(&mut self, len: usize, fitted: bool) {
        let (given_up, _) = self.classes.entry(Self::class(len)).or_default();
        *given_up = if fitted { 0 } else { *given_up + 1 };
    }
}

pub struct Aggregates {
    forests: HashMap<Vec<(i32, i64)>, Forest>,
    attempts: Attempts,
    /// Keep sums as native constraints for the host engine instead (see [`super::native`]).
    native: Option<super::native::NativeSums>,
    native_budget: (usize, usize),
    /// The least bound of a small count left native ([`SMALL_COUNT_LOWER`]).
    small_count_lower: i64,
    adder_bodies: usize,
    budget_base: usize,
    budget_per_literal: usize,
}

impl Default for Aggregates {
    fn default() -> Self {
        Self::with_budget(DIAGRAM_BUDGET_BASE, DIAGRAM_BUDGET_PER_LITERAL)
    }
}

/// Nodes a diagram may hold: `BASE + PER_LITERAL · (number of literals) · (bodies using it)`.
pub const DIAGRAM_BUDGET_BASE: usize = 4096;
pub const DIAGRAM_BUDGET_PER_LITERAL: usize = 64;
/// With native sums ([`Aggregates::native`]): nodes one list of weighted literals may hold in
/// all its diagrams, `BASE + PER_LITERAL · (number of literals)`, before its further bounds
/// are left native. Small enough that only cardinality-like sums stay nogoods (at most one of
/// n: about 2n nodes; sokoban's solve far faster so) and weight sums go to the propagator, as
/// clasp keeps them: combconf 0121 with 4096 + 16·n had 71k variables (clasp 9k) and took
/// 2.5 s, with 64 + 4·n 19k and 0.13 s (2-core build machine; sokoban, incsched, supertree,
/// graceful, crewalloc, partnerunits the same within noise).
pub const NATIVE_BUDGET_BASE: usize = 64;
pub const NATIVE_BUDGET_PER_LITERAL: usize = 4;

/// With native sums: a count (every weight 1) of at most this many literals whose bound is
/// [`SMALL_COUNT_LOWER`] or more (the device's: [`SMALL_COUNT_LOWER_DEVICE`]) is left to the
/// propagator, as clasp keeps it, not translated. Its diagram would take about
/// `bound · (n − bound + 1)` variables that the heuristic and propagation pay for while a
/// counter over so few literals is cheap. (An at-most-one that an integrity constraint alone
/// makes false, `:- 2 {…}.` as in sokoban, is written pairwise before this rule is asked:
/// `pairwise::below_two`.) Larger counts keep the diagram rule below. stilllife's
/// `3 <= #count{..}` and `4 <= #count{..}` over eight or nine neighbours: 003 5,436 -> 3,238
/// variables and its optimum proved in 30 s where it was not in 60 s; crewalloc's small counts
/// 1.8 / 3.8 / 5.5 s against 0.6 / 4.4 / 3.8 s (1-20, 1-25, 2-22) (2-core build machine, one
/// thread).
pub const SMALL_COUNT_LITERALS: usize = 16;

/// The host engine's least small-count bound: 2 too (the bound part of `1 <= {…} <= 1 :- body.`,
/// whose sum body the constraint makes false only under the body): ricochet 038 / 078 / 084
/// 1.0 / 0.6 / 3.0 s -> 0.2 / 0.3 / 0.8 s, crewalloc 1.2-1.35x faster, syssynth 23 % fewer
/// variables, the other instances' solved counts the same at 10 s (2-core build machine).
pub const SMALL_COUNT_LOWER: i64 = 2;
/// The device engine's: 3. Its kernel's counter (`kernels/search/sums.cuh`) made ricochet's
/// at-most-ones slower than their nogoods (GPU engine alone on the H200: 0.76-1.09 s -> 0.93-1.70
/// s, conflicts/s down by 4-42 %; crewalloc the same).
pub const SMALL_COUNT_LOWER_DEVICE: i64 = 3;

fn small_count(lower: i64, least: i64, lits: &[(i32, i64)]) -> bool {
    lits.len() <= SMALL_COUNT_LITERALS && lower >= least && lits.iter().all(|&(_, w)| w == 1)
}

impl Aggregates {
    /// Diagrams may hold `base + per_literal · (literals) · (bodies using it)` nodes; `0, 0`
    /// sends every sum that needs a node to the adder (tests use that).
    pub fn with_budget(base: usize, per_literal: usize) -> Self {
        Aggregates {
            forests: HashMap::new(),
            attempts: Attempts::default(),
            native: None,
            native_budget: (0, 0),
            small_count_lower: SMALL_COUNT_LOWER,
            adder_bodies: 0,
            budget_base: base,
            budget_per_literal: per_literal,
        }
    }

    /// Sums whose diagrams fit a budget that does not grow with the number of bounds (see
    /// [`NATIVE_BUDGET_PER_LITERAL`]) are translated as usual; every other sum body is kept
    /// as a [`super::native::NativeSum`] for the host engine's propagator (only the chain
    /// between its bounds and constant bodies become nogoods). No adders.
    pub fn native() -> Self {
        Self::native_with_budget(NATIVE_BUDGET_BASE, NATIVE_BUDGET_PER_LITERAL)
    }

    /// As [`Self::native`] for the device engine: small counts native from
    /// [`SMALL_COUNT_LOWER_DEVICE`] on.
    pub fn native_device() -> Self {
        Aggregates {
            small_count_lower: SMALL_COUNT_LOWER_DEVICE,
            ..Self::native()
        }
    }

    /// As [`Self::native`] with diagrams of at most `base + per_literal · (literals)` nodes per
    /// list of weighted literals; `0, 0` leaves every sum that needs a node native.
    pub fn native_with_budget(base: usize, per_literal: usize) -> Self {
        Aggregates {
            native: Some(Default::default()),
            native_budget: (base, per_literal),
            ..Self::default()
        }
    }

    /// The native sums recorded (empty when translating), their chain nogoods added to `nb`.
    pub fn finish(&mut self, nb: &mut NogoodDbBuilder) -> Vec<super::native::NativeSum> {
        self.native.take().map_or_else(Vec::new, |n| n.finish(nb))
    }

    /// Encode `b ↔ Σ w·[l] ≥ lower` (weights > 0). Fresh variables come from `nb`; returns how
    /// many it took (nodes shared with an earlier body of the same literals cost nothing).
    ///
    /// The decision diagram propagates as strongly as the sum itself, but for wide weights and
    /// bounds it can need up to `lower` nodes per literal; past its budget (see
    /// [`DIAGRAM_BUDGET_PER_LITERAL`]) the body is encoded by a binary adder instead
    /// ([`super::adder`]: linear in the bits of the weights, weaker propagation).
    ///
    /// `b_false`: `b` is false in every answer set (an integrity constraint fixes it), so a sum
    /// with bound 2 may be written as its negation alone ([`super::pairwise::below_two`]).
    pub fn encode(
        &mut self,
        nb: &mut NogoodDbBuilder,
        b: Var,
        lower: i64,
        lits: &[(i32, i64)],
        b_false: bool,
    ) -> u32 {
        if b_false && lower == 2 && super::pairwise::below_two(nb, lits) {
            return 0;
        }
        if clause_or_conjunction(nb, b, lower, lits) {
            return 0;
        }
        if !self.attempts.should_try(lits.len()) {
            return match &mut self.native {
                Some(native) => {
                    native.add(nb, b, lower, lits);
                    0
                }
                None => {
                    self.adder_bodies += 1;
                    super::adder::encode(nb, b, lower, lits)
                }
            };
        }
        if let Some(native) = &mut self.native {
            if small_count(lower, self.small_count_lower, lits) {
                native.add(nb, b, lower, lits);
                return 0;
            }
        }
        let forest = self
            .forests
            .entry(lits.to_vec())
            .or_insert_with(|| Forest::new(lits));
        if let Some(native) = &mut self.native {
            // Small diagrams stay nogoods (their nodes give learning short reasons and
            // lemmas over partial sums: sokoban's at-most-one sums solve far faster so); past
            // a budget that does not grow with the bounds, the sum is left to the host
            // engine's propagator instead of an adder (incsched: one sum, ~650 bounds).
            let allowed = self.native_budget.0 + self.native_budget.1 * lits.len();
            let budget = allowed.saturating_sub(forest.nodes);
            let Some((root, fresh)) = forest.root(nb, b, lower as i128, budget) else {
                self.attempts.record(lits.len(), false);
                native.add(nb, b, lower, lits);
                return 0;
            };
            self.attempts.record(lits.len(), true);
            forest.bodies += 1;
            forest.nodes += fresh as usize + 1;
            link_root(nb, b, root);
            return fresh;
        }
        // The budget grows with the bodies sharing the diagram: k bounds of one sum may use k
        // times the nodes (encode them by increasing bound, so each adds about one column).
        let allowed = self.budget_base + self.budget_per_literal * lits.len() * (forest.bodies + 1);
        let budget = allowed.saturating_sub(forest.nodes);
        let Some((root, fresh)) = forest.root(nb, b, lower as i128, budget) else {
            self.attempts.record(lits.len(), false);
            self.adder_bodies += 1;
            return super::adder::encode(nb, b, lower, lits);
        };
        self.attempts.record(lits.len(), true);
        forest.bodies += 1;
        forest.nodes += fresh as usize + 1;
        link_root(nb, b, root);
        fresh
    }

    /// No later body has the weighted literals `lits`: their diagram (if one was made) is
    /// freed. What the forest made stays in the nogoods; only its memo goes.
    pub fn forget(&mut self, lits: &[(i32, i64)]) {
        self.forests.remove(lits);
    }

    /// How many bodies went to the adder because their diagram was too large.
    pub fn adder_bodies(&self) -> usize {
        self.adder_bodies
    }

    /// How many bodies went to the fallback without trying a diagram (see [`Attempts`]).
    pub fn skipped_diagrams(&self) -> usize {
        self.attempts.skipped
    }
}

/// A sum that is a disjunction (every literal alone reaches `lower`: clasp's cardinality
/// `1 {…}`) or a conjunction (`lower` is the total: every literal needed), written as the
/// nogoods of that formula, as clasp simplifies such weight constraints: no auxiliary variable
/// and one long nogood instead of a chain of nodes. False when the sum is neither (or constant).
fn clause_or_conjunction(
    nb: &mut NogoodDbBuilder,
    b: Var,
    lower: i64,
    lits: &[(i32, i64)],
) -> bool {
    let total: i64 = lits.iter().map(|&(_, w)| w).sum();
    if lower <= 0 || lower > total || lits.len() < 2 {
        return false;
    }
    let mut long = Vec::with_capacity(lits.len() + 1);
    if lits.iter().all(|&(_, w)| w >= lower) {
        // b ↔ ∨ lᵢ: {T lᵢ, F b} for each i, and {T b} ∪ {F lᵢ}
        long.push(Lit::t(b));
        for &(l, _) in lits {
            nb.add(&[holds(l), Lit::f(b)], Origin::Aggregate);
            long.push(holds(l).negate());
        }
    } else if lower == total {
        // b ↔ ∧ lᵢ: {T b, F lᵢ} for each i, and {F b} ∪ {T lᵢ}
        long.push(Lit::f(b));
        for &(l, _) in lits {
            nb.add(&[Lit::t(b), holds(l).negate()], Origin::Aggregate);
            long.push(holds(l));
        }
    } else {
        return false;
    }
    nb.add(&long, Origin::Aggregate);
    true
}

#[cfg(test)]
pub(crate) mod tests;
