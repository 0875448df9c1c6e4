//! The shown symbols of a program (`#show`, or every atom without one) in clasp's print order:
//! symbols whose condition is empty (shown facts) first, in input order, then the others ordered
//! (stably) by the atom of their condition.
//!
//! Invariant: `shown` lists exactly the symbols whose condition holds in the model, in that
//! order, each as often as the program shows it.

use lparse::Program;

/// The shown symbols of a program, in print order.
#[derive(Clone, Debug, Default)]
pub struct ShownTable {
    /// (name, condition) in print order.
    entries: Vec<(String, Vec<i32>)>,
}

impl ShownTable {
    pub fn new(program: &Program) -> Self {
        let mut facts = Vec::new();
        let mut conditional = Vec::new();
        for o in &program.outputs {
            let entry = (o.name.clone(), o.condition.clone());
            if o.condition.is_empty() {
                facts.push(entry);
            } else {
                conditional.push(entry);
            }
        }
        // Single-literal conditions sort by atom; longer ones (clasp gives them a fresh
        // variable, numbered after all atoms) go last, each group stable.
        conditional.sort_by_key(|(_, c)| match c[..] {
            [l] => (0u8, l.unsigned_abs()),
            _ => (1u8, 0),
        });
        facts.extend(conditional);
        ShownTable { entries: facts }
    }

    /// The shown symbols and their conditions, in print order.
    pub fn entries(&self) -> &[(String, Vec<i32>)] {
        &self.entries
    }

    /// The names shown in the model whose true atoms are `atoms` (sorted or not).
    pub fn shown<'a>(&'a self, atoms: &[u32]) -> Vec<&'a str> {
        let max = atoms.iter().copied().max().unwrap_or(0) as usize;
        let mut m = vec![false; max + 1];
        atoms.iter().for_each(|&a| m[a as usize] = true);
        let holds = |l: i32| {
            let a = l.unsigned_abs() as usize;
            let t = a < m.len() && m[a];
            if l > 0 {
                t
            } else {
                !t
            }
        };
        self.entries
            .iter()
            .filter(|(_, c)| c.iter().all(|&l| holds(l)))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}
