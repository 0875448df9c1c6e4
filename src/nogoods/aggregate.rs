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

use super::db::{NogoodDbBuilder, Origin};
use crate::lit::{Lit, Var};
use std::collections::BTreeMap;

/// A node of the diagram: a constant, or a solver literal that stands for it (an auxiliary
/// variable, the body variable, or — for a node that is just `lᵢ` — the input literal itself).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    True,
    False,
    Lit(Lit),
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

/// `T a` for the program literal `a`, `F a` for `-a`: the solver literal "the program literal
/// holds".
pub fn holds(lit: i32) -> Lit {
    Lit::new(lit.unsigned_abs(), lit > 0)
}

/// A solved interval: every K in `[beta, gamma]` at this level gives `node`.
type Solved = (i128, i128, Node);

struct Frame {
    level: usize,
    k: i128,
    lo: Option<Solved>,
    hi: Option<Solved>,
}

/// Encode `b ↔ Σ w·[l] ≥ lower` (weights > 0). Fresh variables come from `nb`; returns how
/// many it took.
pub fn encode(nb: &mut NogoodDbBuilder, b: Var, lower: i64, lits: &[(i32, i64)]) -> u32 {
    const INF: i128 = 1 << 100;
    let mut items: Vec<(i32, i128)> = lits.iter().map(|&(l, w)| (l, w as i128)).collect();
    // Heavy literals first: they decide the sum soonest, which keeps the diagram narrow.
    items.sort_unstable_by_key(|&(l, w)| (std::cmp::Reverse(w), l));
    let n = items.len();
    let mut suffix = vec![0i128; n + 1];
    for i in (0..n).rev() {
        suffix[i] = suffix[i + 1] + items[i].1;
    }
    let mut levels: Vec<BTreeMap<i128, (i128, Node)>> = vec![BTreeMap::new(); n + 1];
    let solved = |levels: &[BTreeMap<i128, (i128, Node)>], level: usize, k: i128| {
        if k <= 0 {
            return Some((-INF, 0, Node::True));
        }
        if k > suffix[level] {
            return Some((suffix[level] + 1, INF, Node::False));
        }
        let (&beta, &(gamma, node)) = levels[level].range(..=k).next_back()?;
        (k <= gamma).then_some((beta, gamma, node))
    };

    let mut fresh = 0u32;
    let k0 = lower as i128;
    let mut stack = Vec::new();
    let root = match solved(&levels, 0, k0) {
        Some(r) => r.2,
        None => {
            stack.push(Frame {
                level: 0,
                k: k0,
                lo: None,
                hi: None,
            });
            loop {
                // Depth-first without recursion: sums can have thousands of literals.
                let f = stack.last_mut().expect("a frame is open");
                let w = items[f.level].1;
                if f.lo.is_none() {
                    match solved(&levels, f.level + 1, f.k) {
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
                    match solved(&levels, f.level + 1, f.k - w) {
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
                    Node::Lit(holds(items[f.level].0)) // The node is lᵢ: no variable needed.
                } else {
                    // The one node of level 0 is the body itself.
                    let v = if f.level == 0 {
                        b
                    } else {
                        fresh += 1;
                        nb.new_var()
                    };
                    let vn = Node::Lit(Lit::t(v));
                    let l = holds(items[f.level].0);
                    // v ↔ lo ∨ (l ∧ hi)
                    emit(nb, &[vn.holds(false), lo.holds(true)]); // lo → v
                    emit(nb, &[vn.holds(false), Cond::Lit(l), hi.holds(true)]); // l ∧ hi → v
                    emit(nb, &[vn.holds(true), hi.holds(false)]); // v → hi
                    emit(
                        nb,
                        &[vn.holds(true), Cond::Lit(l.negate()), lo.holds(false)],
                    ); // v → l ∨ lo
                    vn
                };
                levels[f.level].insert(beta, (gamma, node));
                let r = (beta, gamma, node);
                match stack.last_mut() {
                    None => break node,
                    Some(parent) if parent.lo.is_none() => parent.lo = Some(r),
                    Some(parent) => parent.hi = Some(r),
                }
            }
        }
    };
    // The root is `b` unless it folded into a constant or into a child (level 0 irrelevant).
    if root != Node::Lit(Lit::t(b)) {
        let bn = Node::Lit(Lit::t(b));
        emit(nb, &[bn.holds(true), root.holds(false)]); // b → root
        emit(nb, &[bn.holds(false), root.holds(true)]); // root → b
    }
    fresh
}
