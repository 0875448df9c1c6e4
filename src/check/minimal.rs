//! Minimality of a candidate for disjunctive programs that are not head-cycle-free: no proper
//! subset of the candidate `M` is a model of the reduct `P^M`. The checker's own search, a
//! small DPLL over the atoms of `M` (atoms outside `M` are false in every subset); it shares
//! nothing with the solver's minimality check (`wrap::minimality_check`, a second CDNL search).
//!
//! Invariant: [`smaller_model`] returns `Some(y)` only for a `y ⊊ M` that satisfies every rule
//! of `P^M` (it is checked again rule by rule before it is returned), and `None` only when the
//! search space is exhausted: every branch ended in a violated rule or `y = M`.
//!
//! Each rule of the reduct, restricted to `M`, is the constraint "if Σ w·y_b ≥ need then some
//! head atom is in y": a conjunction counts its positive atoms (a negative literal true in `M`
//! or a positive atom outside `M` takes the rule out), a sum counts its positive atoms of `M`
//! with their weights and moves its negative literals true in `M` into `need`; a choice rule
//! gives one constraint per head atom of `M`; an external atom of `M` is a fact.

use super::{holds, Checker, Ext};
use lparse::{Body, HeadKind};

/// A reduct rule over the candidate's atoms (indices into its atom list).
struct Constraint {
    body: Vec<(u32, i64)>,
    need: i64,
    heads: Vec<u32>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Val {
    Open,
    In,
    Out,
}

/// A proper subset of `m` (as atom numbers) that is a model of `P^m`, if one exists. `m` must
/// be a model of the program.
pub(super) fn smaller_model(c: &Checker, m: &[bool]) -> Option<Vec<u32>> {
    let atoms: Vec<u32> = (1..m.len() as u32).filter(|&a| m[a as usize]).collect();
    if atoms.is_empty() {
        return None;
    }
    let mut index = vec![u32::MAX; m.len()];
    for (i, &a) in atoms.iter().enumerate() {
        index[a as usize] = i as u32;
    }
    let cons = constraints(c, m, &index);
    let mut occ: Vec<Vec<u32>> = vec![Vec::new(); atoms.len()];
    for (k, con) in cons.iter().enumerate() {
        for &(v, _) in &con.body {
            occ[v as usize].push(k as u32);
        }
        for &v in &con.heads {
            occ[v as usize].push(k as u32);
        }
    }
    let mut s = Search {
        cons: &cons,
        occ: &occ,
        val: vec![Val::Open; atoms.len()],
        trail: Vec::new(),
        qhead: 0,
        ins: 0,
    };
    let y = s.solve()?;
    let y: Vec<u32> = (0..atoms.len())
        .filter(|&i| y[i] == Val::In)
        .map(|i| atoms[i])
        .collect();
    debug_assert!(y.len() < atoms.len() && is_reduct_model(c, m, &y));
    Some(y)
}

fn constraints(c: &Checker, m: &[bool], index: &[u32]) -> Vec<Constraint> {
    let mut cons = Vec::new();
    for (r, rule) in c.program.rules.iter().enumerate() {
        let (body, need) = match (&rule.body, &c.sums[r]) {
            (_, Some(s)) => {
                let mut need = s.lower;
                let mut body = Vec::new();
                for &(l, w) in &s.lits {
                    if l < 0 && holds(l, m) {
                        need -= w;
                    } else if l > 0 && m[l as usize] {
                        body.push((index[l as usize], w));
                    }
                }
                (body, need)
            }
            (Body::Normal(lits), None) => {
                if lits.iter().any(|&l| !holds(l, m)) {
                    continue; // out of the reduct, or false in every subset of m
                }
                let body: Vec<(u32, i64)> = lits
                    .iter()
                    .filter(|&&l| l > 0)
                    .map(|&l| (index[l as usize], 1))
                    .collect();
                let need = body.len() as i64;
                (body, need)
            }
            (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
        };
        if need > body.iter().map(|&(_, w)| w).sum::<i64>() {
            continue; // never holds below m
        }
        let heads = rule.head.atoms.iter().filter(|&&h| m[h as usize]);
        match rule.head.kind {
            HeadKind::Choice => {
                for &h in heads {
                    cons.push(Constraint {
                        body: body.clone(),
                        need,
                        heads: vec![index[h as usize]],
                    });
                }
            }
            HeadKind::Disjunctive => cons.push(Constraint {
                body,
                need,
                heads: heads.map(|&h| index[h as usize]).collect(),
            }),
        }
    }
    for (a, &e) in c.ext.iter().enumerate() {
        if e != Ext::None && m[a] {
            cons.push(Constraint {
                body: Vec::new(),
                need: 0,
                heads: vec![index[a]],
            });
        }
    }
    cons
}

/// `y` (atoms) satisfies every rule of the reduct `P^m`: the definition, read directly.
fn is_reduct_model(c: &Checker, m: &[bool], y: &[u32]) -> bool {
    let mut yv = vec![false; m.len()];
    y.iter().for_each(|&a| yv[a as usize] = true);
    let lit = |l: i32| if l > 0 { yv[l as usize] } else { holds(l, m) };
    c.program.rules.iter().enumerate().all(|(r, rule)| {
        let body = match (&rule.body, &c.sums[r]) {
            (_, Some(s)) => {
                s.lits
                    .iter()
                    .filter(|(l, _)| lit(*l))
                    .map(|(_, w)| w)
                    .sum::<i64>()
                    >= s.lower
            }
            (Body::Normal(lits), None) => lits.iter().all(|&l| lit(l)),
            (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
        };
        let head = match rule.head.kind {
            HeadKind::Choice => rule
                .head
                .atoms
                .iter()
                .all(|&h| !m[h as usize] || yv[h as usize]),
            HeadKind::Disjunctive => rule.head.atoms.iter().any(|&h| yv[h as usize]),
        };
        !body || head
    }) && c
        .ext
        .iter()
        .enumerate()
        .all(|(a, &e)| e == Ext::None || !m[a] || yv[a])
}

struct Search<'a> {
    cons: &'a [Constraint],
    occ: &'a [Vec<u32>],
    val: Vec<Val>,
    trail: Vec<u32>,
    qhead: usize,
    /// Variables assigned `In`.
    ins: usize,
}

impl Search<'_> {
    /// A total assignment with some variable `Out` that violates no constraint, if any.
    fn solve(&mut self) -> Option<Vec<Val>> {
        // (trail length before the decision, variable, second branch taken)
        let mut decisions: Vec<(usize, u32, bool)> = Vec::new();
        for k in 0..self.cons.len() {
            if !self.visit(k) {
                return None;
            }
        }
        loop {
            if self.propagate() {
                match self.val.iter().position(|&v| v == Val::Open) {
                    None => return Some(self.val.clone()),
                    Some(v) => {
                        decisions.push((self.trail.len(), v as u32, false));
                        self.set(v as u32, Val::Out);
                    }
                }
                continue;
            }
            loop {
                let (pos, v, flipped) = decisions.pop()?;
                self.undo(pos);
                if !flipped {
                    decisions.push((pos, v, true));
                    self.set(v, Val::In);
                    break;
                }
            }
        }
    }

    fn set(&mut self, v: u32, x: Val) {
        self.val[v as usize] = x;
        self.ins += (x == Val::In) as usize;
        self.trail.push(v);
    }

    fn undo(&mut self, pos: usize) {
        while self.trail.len() > pos {
            let v = self.trail.pop().expect("longer than pos") as usize;
            self.ins -= (self.val[v] == Val::In) as usize;
            self.val[v] = Val::Open;
        }
        self.qhead = pos;
    }

    /// Unit propagation to a fixpoint; false on a violated constraint.
    fn propagate(&mut self) -> bool {
        loop {
            while self.qhead < self.trail.len() {
                let v = self.trail[self.qhead] as usize;
                self.qhead += 1;
                for i in 0..self.occ[v].len() {
                    if !self.visit(self.occ[v][i] as usize) {
                        return false;
                    }
                }
            }
            // Not every atom may stay: the last open one goes when all others stayed.
            let n = self.val.len();
            if self.ins == n {
                return false;
            }
            if self.ins == n - 1 {
                if let Some(v) = self.val.iter().position(|&x| x == Val::Open) {
                    self.set(v as u32, Val::Out);
                    continue;
                }
            }
            return true;
        }
    }

    /// Propagate constraint `k`; false when it is violated.
    fn visit(&mut self, k: usize) -> bool {
        let c = &self.cons[k];
        let (mut sure, mut open_w) = (0i64, 0i64);
        for &(v, w) in &c.body {
            match self.val[v as usize] {
                Val::In => sure += w,
                Val::Open => open_w += w,
                Val::Out => {}
            }
        }
        if sure + open_w < c.need {
            return true; // the body cannot hold
        }
        let mut open_head = None;
        let mut open_heads = 0;
        for &h in &c.heads {
            match self.val[h as usize] {
                Val::In => return true,
                Val::Open => {
                    open_heads += 1;
                    open_head = Some(h);
                }
                Val::Out => {}
            }
        }
        if sure >= c.need {
            return match (open_heads, open_head) {
                (0, _) => false,
                (1, Some(h)) => {
                    self.set(h, Val::In);
                    true
                }
                _ => true,
            };
        }
        if open_heads == 0 {
            // Every head atom is out: the body must stay below its bound.
            let body = c.body.clone();
            for (v, w) in body {
                if self.val[v as usize] == Val::Open && sure + w >= c.need {
                    self.set(v, Val::Out);
                }
            }
        }
        true
    }
}
