//! The objective of `#minimize`/`#maximize` statements (aspif `2`, smodels `6`), as clasp reads
//! it: one level per distinct priority, highest priority first, each the list of its weighted
//! literals. The cost of a level is the sum of the weights of its true literals, every
//! occurrence counted (gringo writes an element once per tuple; a literal written twice counts
//! twice), negative weights as they are (`#maximize` arrives negated).
//!
//! Invariant: `levels` is sorted by decreasing priority, priorities are distinct, and every
//! priority of the input has a level, even one whose statements have no literals (its cost is
//! then always 0, as clasp prints it). Literals use the engines' encoding (`Lit`, atom = variable).

use crate::lit::Lit;
use lparse::Program;

/// One priority level: its literals with their weights (zero weights dropped, repeats kept).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    pub priority: i32,
    pub lits: Vec<(Lit, i64)>,
}

/// The program's objective; empty when it has no minimize statement.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Objective {
    pub levels: Vec<Level>,
}

impl Objective {
    pub fn new(program: &Program) -> Objective {
        let mut prios: Vec<i32> = program.minimize.iter().map(|m| m.priority).collect();
        prios.sort_unstable_by(|a, b| b.cmp(a));
        prios.dedup();
        let mut levels: Vec<Level> = prios
            .iter()
            .map(|&priority| Level {
                priority,
                lits: Vec::new(),
            })
            .collect();
        for m in &program.minimize {
            let i = prios
                .binary_search_by(|p| m.priority.cmp(p))
                .expect("every priority has a level");
            for w in m.lits.iter().filter(|w| w.weight != 0) {
                let atom = w.lit.unsigned_abs();
                levels[i].lits.push((Lit::new(atom, w.lit > 0), w.weight));
            }
        }
        Objective { levels }
    }

    pub fn is_empty(&self) -> bool {
        self.levels.is_empty()
    }

    /// The cost vector (highest priority first) of the assignment in which `holds` is true.
    pub fn costs(&self, holds: impl Fn(Lit) -> bool) -> Vec<i64> {
        self.levels
            .iter()
            .map(|lv| {
                lv.lits
                    .iter()
                    .filter(|&&(l, _)| holds(l))
                    .map(|&(_, w)| w)
                    .sum()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lparse::{Minimize, ProgramBuilder, WLit};

    #[test]
    fn levels_by_priority_with_repeats_and_negative_weights() {
        let mut p = Program::default();
        let wl = |lit, weight| WLit { lit, weight };
        p.minimize(Minimize {
            priority: 0,
            lits: vec![wl(1, 2), wl(2, 3), wl(1, 2)],
        });
        p.minimize(Minimize {
            priority: 2,
            lits: vec![wl(-3, -1), wl(4, 0)],
        });
        p.minimize(Minimize {
            priority: 1,
            lits: vec![],
        });
        let o = Objective::new(&p);
        let prios: Vec<i32> = o.levels.iter().map(|l| l.priority).collect();
        assert_eq!(prios, [2, 1, 0]);
        assert_eq!(o.levels[0].lits, [(Lit::f(3), -1)]);
        assert!(o.levels[1].lits.is_empty());
        assert_eq!(o.levels[2].lits.len(), 3);
        // {1} true: level 0 counts atom 1 twice; atom 3 false makes `not 3` hold.
        assert_eq!(o.costs(|l| l == Lit::t(1) || !l.is_true()), [-1, 0, 4]);
    }
}
