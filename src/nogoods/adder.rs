//! Sum bodies `b ↔ Σ wᵢ·[lᵢ] ≥ lower` as a binary adder network plus a comparator, for sums
//! whose decision diagram would be too large (wide weights and bounds, as in valves).
//!
//! Each literal contributes its weight's set bits to per-position buckets; full adders (three
//! bits of one position → a sum bit there and a carry one position up) and half adders reduce
//! every bucket to one bit `sⱼ` (MiniSat+'s adder construction). The comparator then folds
//! from the lowest bit up: `cⱼ` = "the low j+1 bits of S are ≥ those of `lower`", with
//! `cⱼ = sⱼ ∧ cⱼ₋₁` where `lower` has bit j, `cⱼ = sⱼ ∨ cⱼ₋₁` where it has not, and `c₋₁` true;
//! `b ↔ c_top`.
//!
//! Invariant: every gate output is a fresh variable with nogoods saying exactly
//! `out ↔ gate(inputs)`, so under any total assignment of the input literals each auxiliary
//! has exactly one consistent value and `b` is true iff the sum reaches `lower`. Size is linear
//! in the total number of set bits of the weights (≤ 14 nogoods per full adder); propagation
//! is weaker than the diagram's (an adder does not see bounds), but it is exact on total
//! assignments.

use super::db::{NogoodDbBuilder, Origin};
use crate::lit::{holds, Lit, Var};
use std::collections::VecDeque;

/// A gate input or output: a constant or a solver literal.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Bit {
    Const(bool),
    Lit(Lit),
}

struct Gates<'a> {
    nb: &'a mut NogoodDbBuilder,
    fresh: u32,
}

impl Gates<'_> {
    fn var(&mut self) -> Lit {
        self.fresh += 1;
        Lit::t(self.nb.new_var())
    }
    /// Add the nogood `ins`.
    fn forbid(&mut self, ins: &[Lit]) {
        self.nb.add(ins, Origin::Aggregate);
    }
    /// The literal "x has value v".
    fn is(x: Lit, v: bool) -> Lit {
        if v {
            x
        } else {
            x.negate()
        }
    }

    /// `out ↔ x ⊕ y ⊕ z` (z = None for two inputs): one nogood per input combination.
    fn xor(&mut self, ins: &[Lit]) -> Lit {
        let out = self.var();
        for combo in 0u32..(1 << ins.len()) {
            let parity = combo.count_ones() % 2 == 1;
            let mut ng: Vec<Lit> = ins
                .iter()
                .enumerate()
                .map(|(i, &x)| Self::is(x, combo >> i & 1 == 1))
                .collect();
            ng.push(Self::is(out, !parity)); // out must equal the parity
            self.forbid(&ng);
        }
        out
    }

    /// `out ↔ at least two of x, y, z`.
    fn majority(&mut self, x: Lit, y: Lit, z: Lit) -> Lit {
        let out = self.var();
        for (a, b) in [(x, y), (x, z), (y, z)] {
            self.forbid(&[a, b, out.negate()]); // two true → out
            self.forbid(&[a.negate(), b.negate(), out]); // two false → ¬out
        }
        out
    }

    /// `out ↔ x ∧ y`, constants folded.
    fn and(&mut self, x: Bit, y: Bit) -> Bit {
        match (x, y) {
            (Bit::Const(false), _) | (_, Bit::Const(false)) => Bit::Const(false),
            (Bit::Const(true), o) | (o, Bit::Const(true)) => o,
            (Bit::Lit(a), Bit::Lit(b)) => {
                let out = self.var();
                self.forbid(&[out, a.negate()]); // out → a
                self.forbid(&[out, b.negate()]); // out → b
                self.forbid(&[out.negate(), a, b]); // a ∧ b → out
                Bit::Lit(out)
            }
        }
    }

    /// `out ↔ x ∨ y`, constants folded.
    fn or(&mut self, x: Bit, y: Bit) -> Bit {
        match (x, y) {
            (Bit::Const(true), _) | (_, Bit::Const(true)) => Bit::Const(true),
            (Bit::Const(false), o) | (o, Bit::Const(false)) => o,
            (Bit::Lit(a), Bit::Lit(b)) => {
                let out = self.var();
                self.forbid(&[out.negate(), a]); // a → out
                self.forbid(&[out.negate(), b]); // b → out
                self.forbid(&[out, a.negate(), b.negate()]); // out → a ∨ b
                Bit::Lit(out)
            }
        }
    }
}

/// Encode `b ↔ Σ w·[l] ≥ lower` (weights > 0, lower > 0). Returns the fresh variables taken.
pub fn encode(nb: &mut NogoodDbBuilder, b: Var, lower: i64, lits: &[(i32, i64)]) -> u32 {
    let mut g = Gates { nb, fresh: 0 };
    // 63 bits of weight plus room for the carries of up to 2^32 literals.
    let mut buckets: Vec<VecDeque<Lit>> = vec![VecDeque::new(); 96];
    for &(l, w) in lits {
        for (j, bucket) in buckets.iter_mut().enumerate().take(63) {
            if w >> j & 1 == 1 {
                bucket.push_back(holds(l));
            }
        }
    }
    // Reduce each position to one bit; carries go one position up. FIFO keeps the tree shallow.
    let mut sum: Vec<Bit> = Vec::new();
    for j in 0..buckets.len() {
        while buckets[j].len() >= 2 {
            let x = buckets[j].pop_front().expect("len ≥ 2");
            let y = buckets[j].pop_front().expect("len ≥ 2");
            let (s, c) = match buckets[j].pop_front() {
                Some(z) => (g.xor(&[x, y, z]), g.majority(x, y, z)),
                None => {
                    let c = match g.and(Bit::Lit(x), Bit::Lit(y)) {
                        Bit::Lit(c) => c,
                        Bit::Const(_) => unreachable!("two literals make a gate"),
                    };
                    (g.xor(&[x, y]), c)
                }
            };
            buckets[j].push_back(s);
            if j + 1 < buckets.len() {
                buckets[j + 1].push_back(c);
            } else {
                unreachable!("weights and sums below 2^63")
            }
        }
        sum.push(buckets[j].pop_front().map_or(Bit::Const(false), Bit::Lit));
    }
    // c_j: the low j+1 bits of the sum are ≥ those of `lower`.
    let mut c = Bit::Const(true);
    for (j, &s) in sum.iter().enumerate() {
        c = if j < 63 && lower >> j & 1 == 1 {
            g.and(s, c)
        } else {
            g.or(s, c)
        };
    }
    // b ↔ c
    let bl = Lit::t(b);
    match c {
        Bit::Const(true) => g.forbid(&[bl.negate()]),
        Bit::Const(false) => g.forbid(&[bl]),
        Bit::Lit(x) => {
            g.forbid(&[bl, x.negate()]);
            g.forbid(&[bl.negate(), x]);
        }
    }
    g.fresh
}
