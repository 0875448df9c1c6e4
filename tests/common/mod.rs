//! Helpers shared by the integration tests that compare with clingo.
//!
//! Invariant: `answer_sets` reads clingo's and yasmin-rs's text output the same way, so two
//! outputs compare equal exactly when they list the same answer sets (shown atoms, sorted)
//! the same number of times.

use std::collections::BTreeMap;

/// The answer sets in clingo-style text output: sorted shown atoms → how often they appear.
pub fn answer_sets(text: &str) -> BTreeMap<Vec<String>, usize> {
    let mut sets = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("Answer:") {
            let mut atoms: Vec<String> = lines
                .next()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
            atoms.sort();
            *sets.entry(atoms).or_insert(0) += 1;
        }
    }
    sets
}
