//! `--heuristic=domain`: the program's `#heuristic` directives (aspif `7`) steer the host
//! engine's decisions with `--decide=vars`, as clasp's domain heuristic does for its `level`,
//! `sign`, `true` and `false` modifiers (`true`/`false` are a level and a sign at once;
//! `init` and `factor` are accepted and have no effect here; a negative level counts as 0).
//!
//! Invariant: only decisions change, never what is propagated or learned: the engine decides
//! an unassigned atom of the highest active level above 0 if there is one (directives in
//! input order break ties), otherwise what the activity ranking picks; the sign is the one
//! of the atom's active sign modifier, if any, else the engine's own. A modifier is active
//! while its condition holds; among active modifiers of one atom and kind the highest priority
//! wins (the later directive on a tie).

use super::assign::Assignment;
use crate::lit::{Lit, Var};
use lparse::{Heuristic, HeuristicModifier};

/// One modifier of one atom.
struct Modifier {
    level: bool,
    bias: i32,
    priority: u32,
    condition: Vec<Lit>,
}

#[derive(Default)]
pub struct Domain {
    /// Atoms with a level modifier (input order, distinct).
    leveled: Vec<Var>,
    /// Atom → its level and sign modifiers.
    by_atom: std::collections::HashMap<Var, Vec<Modifier>>,
}

impl Domain {
    pub fn new(directives: &[Heuristic]) -> Domain {
        let mut d = Domain::default();
        for h in directives {
            let lit = |l: i32| Lit::new(l.unsigned_abs(), l > 0);
            let condition: Vec<Lit> = h.condition.iter().map(|&l| lit(l)).collect();
            let mut add = |level: bool, bias: i32| {
                if level && !d.leveled.contains(&h.atom) {
                    d.leveled.push(h.atom);
                }
                d.by_atom.entry(h.atom).or_default().push(Modifier {
                    level,
                    bias,
                    priority: h.priority,
                    condition: condition.clone(),
                });
            };
            match h.modifier {
                HeuristicModifier::Level => add(true, h.bias),
                HeuristicModifier::Sign => add(false, h.bias),
                HeuristicModifier::True | HeuristicModifier::False => {
                    let sign = if h.modifier == HeuristicModifier::True {
                        1
                    } else {
                        -1
                    };
                    add(true, h.bias);
                    add(false, sign);
                }
                HeuristicModifier::Factor | HeuristicModifier::Init => {}
            }
        }
        d
    }

    /// The active modifier of `v` of the given kind (`level` or sign), if any.
    fn active(&self, a: &Assignment, v: Var, level: bool) -> Option<i32> {
        let mut best: Option<&Modifier> = None;
        for m in self.by_atom.get(&v)?.iter().filter(|m| m.level == level) {
            if m.condition.iter().all(|&l| a.holds(l))
                && best.is_none_or(|b| m.priority >= b.priority)
            {
                best = Some(m);
            }
        }
        best.map(|m| m.bias)
    }

    /// An unassigned atom of the highest active level above 0, if any.
    pub fn leveled(&self, a: &Assignment) -> Option<Var> {
        let mut best: Option<(i32, Var)> = None;
        for &v in &self.leveled {
            if !a.is_unassigned(v) {
                continue;
            }
            if let Some(level) = self.active(a, v, true).filter(|&l| l > 0) {
                if best.is_none_or(|(b, _)| level > b) {
                    best = Some((level, v));
                }
            }
        }
        best.map(|(_, v)| v)
    }

    /// The sign `v`'s active sign modifier asks for (`None`: none, or bias 0).
    pub fn sign(&self, a: &Assignment, v: Var) -> Option<Lit> {
        match self.active(a, v, false)? {
            b if b > 0 => Some(Lit::t(v)),
            b if b < 0 => Some(Lit::f(v)),
            _ => None,
        }
    }
}
