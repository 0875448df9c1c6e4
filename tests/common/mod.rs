//! Helpers shared by the integration tests: the seeded generator of the brute-force tests, the
//! answer-set parser of the tests that compare with clingo, a large generated program for the
//! time limit's tests, and (`bin`) running the binary and clingo. Each test crate uses only
//! some of them, hence `dead_code` is allowed.
//!
//! Invariant: `Rng` is splitmix64, so a seed gives the same sequence in every test;
//! `answer_sets` reads clingo's and yasmin-rs's text output the same way, so two outputs compare
//! equal exactly when they list the same answer sets (shown atoms, sorted) the same number of
//! times.

#![allow(dead_code)]

pub mod bin;
pub mod clingo;

use std::collections::BTreeMap;

/// splitmix64: small, seeded, good enough for test generation.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// The answer sets in clingo-style text output: sorted shown atoms → how often they appear.
pub fn answer_sets(text: &str) -> BTreeMap<Vec<String>, usize> {
    let mut sets = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("Answer:") {
            *sets.entry(sorted_atoms(lines.next())).or_insert(0) += 1;
        }
    }
    sets
}

/// The atoms of a model line (the line after `Answer:`), sorted.
pub fn sorted_atoms(line: Option<&str>) -> Vec<String> {
    let mut atoms: Vec<String> = line
        .unwrap_or("")
        .split_whitespace()
        .map(String::from)
        .collect();
    atoms.sort();
    atoms
}

/// A number from the environment (a test's size or seed), or `default`.
pub fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A large tight program in aspif: `n` atoms, the first 1000 free (a choice rule), every other
/// atom defined by two rules over lower atoms (one positive, one negative literal), so it is
/// tight and every rule has work in analysis and completion. A small xorshift keeps it the
/// same on every run.
pub fn big_tight_aspif(n: u32) -> Vec<u8> {
    use std::fmt::Write as _;
    let mut s = String::with_capacity(n as usize * 40);
    s.push_str("asp 1 0 0\n1 1 1000");
    for a in 1..=1000 {
        write!(s, " {a}").unwrap();
    }
    s.push_str(" 0 0\n");
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut below = |h: u32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        1 + (x % u64::from(h - 1)) as u32
    };
    for h in 1001..=n {
        for _ in 0..2 {
            let (p, q) = (below(h), below(h));
            writeln!(s, "1 0 1 {h} 0 2 {p} -{q}").unwrap();
        }
    }
    s.push_str("0\n");
    s.into_bytes()
}
