//! The nogood store: one flat `u32` arena of literals plus a CSR offset array, nogoods sorted by
//! length so units, binaries, ternaries and longer ones are contiguous partitions, and the
//! literal → nogoods occurrence map that propagation walks.
//!
//! Invariant: `offsets` is non-decreasing with `offsets[0] == 0` and one entry per nogood plus
//! one; nogood `i` is `lits[offsets[i]..offsets[i+1]]`, has no repeated variable, and its length
//! is ≥ 1; lengths are non-decreasing in `i`. `occ` lists, for each literal code `l`, the
//! nogoods that contain `l`. This layout is uploaded to the device unchanged.

use crate::lit::{Lit, Var};

/// Which formula of the completion (or which other source) a nogood encodes; kept for
/// snapshots and statistics, not uploaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// `b ↔ φ(body)`: the body variable equals the conjunction of its literals.
    Body,
    /// `p → ∨ b_r`: a true atom needs a rule whose body is true (support).
    Support,
    /// `b_r → head`: a true body of a normal rule makes its head true.
    Head,
    /// An integrity constraint `:- body`.
    Constraint,
    /// An aggregate (sum/cardinality body) translated to counter variables.
    Aggregate,
    /// Atom forced by a fact, an external's value or the absence of any rule.
    Fact,
}

/// Nogoods in CSR, sorted by length. Built with [`NogoodDbBuilder`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NogoodDb {
    /// Variables are `1..num_vars`; literal codes are `< 2 * num_vars`.
    pub num_vars: u32,
    pub lits: Vec<u32>,
    pub offsets: Vec<u32>,
    /// `bounds[k]` = index of the first nogood of length > k+1, for k = 0, 1, 2: units are
    /// `0..bounds[0]`, binaries `bounds[0]..bounds[1]`, ternaries `bounds[1]..bounds[2]`,
    /// longer ones `bounds[2]..len()`.
    pub bounds: [u32; 3],
    /// Literal code → nogoods containing it (CSR over `2 * num_vars` literal codes).
    pub occ_offsets: Vec<u32>,
    pub occ: Vec<u32>,
    pub origins: Vec<Origin>,
    /// The builder was given an empty nogood: the program has no answer set.
    pub has_empty: bool,
}

impl NogoodDb {
    pub fn len(&self) -> usize {
        self.offsets.len().saturating_sub(1)
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn nogood(&self, i: usize) -> &[u32] {
        &self.lits[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }
    pub fn occurrences(&self, lit: Lit) -> &[u32] {
        let l = lit.code() as usize;
        &self.occ[self.occ_offsets[l] as usize..self.occ_offsets[l + 1] as usize]
    }
    /// Bytes of the arrays uploaded to the device (lits, offsets, occurrence map).
    pub fn device_bytes(&self) -> usize {
        4 * (self.lits.len() + self.offsets.len() + self.occ_offsets.len() + self.occ.len())
    }
}

/// Collects nogoods in any order, then sorts them by length and builds the occurrence map.
#[derive(Debug, Default)]
pub struct NogoodDbBuilder {
    num_vars: u32,
    nogoods: Vec<(Vec<u32>, Origin)>,
    has_empty: bool,
}

impl NogoodDbBuilder {
    pub fn new() -> Self {
        Self::default()
    }

    /// A fresh variable (numbers continue after every variable seen so far).
    pub fn new_var(&mut self) -> Var {
        self.num_vars = self.num_vars.max(1);
        let v = self.num_vars;
        self.num_vars += 1;
        v
    }

    /// Make sure variables `1..=v` exist (atoms are reserved this way before auxiliaries).
    pub fn reserve_vars(&mut self, v: Var) {
        self.num_vars = self.num_vars.max(v + 1);
    }

    /// Add a nogood. Duplicate literals are removed; a nogood holding both `T v` and `F v` can
    /// never be violated and is dropped.
    pub fn add(&mut self, lits: &[Lit], origin: Origin) {
        let mut v: Vec<u32> = lits.iter().map(|l| l.code()).collect();
        v.sort_unstable();
        v.dedup();
        if v.windows(2).any(|w| w[0] >> 1 == w[1] >> 1) {
            return;
        }
        if let Some(&max) = v.last() {
            self.reserve_vars(max >> 1);
        } else {
            self.has_empty = true;
            return;
        }
        self.nogoods.push((v, origin));
    }

    pub fn build(mut self) -> NogoodDb {
        self.num_vars = self.num_vars.max(1);
        // Stable: nogoods of one length keep the order they were added in.
        self.nogoods.sort_by_key(|(l, _)| l.len());
        let mut db = NogoodDb {
            num_vars: self.num_vars,
            has_empty: self.has_empty,
            ..NogoodDb::default()
        };
        db.offsets.reserve(self.nogoods.len() + 1);
        db.offsets.push(0);
        for (lits, origin) in &self.nogoods {
            db.lits.extend_from_slice(lits);
            db.offsets.push(db.lits.len() as u32);
            db.origins.push(*origin);
        }
        for k in 0..3 {
            db.bounds[k] = self.nogoods.partition_point(|(l, _)| l.len() <= k + 1) as u32;
        }
        let nlits = 2 * self.num_vars as usize;
        let mut counts = vec![0u32; nlits + 1];
        for &l in &db.lits {
            counts[l as usize + 1] += 1;
        }
        for i in 0..nlits {
            counts[i + 1] += counts[i];
        }
        db.occ = vec![0; db.lits.len()];
        let mut fill = counts.clone();
        for i in 0..db.len() {
            for &l in db.nogood(i).to_vec().iter() {
                db.occ[fill[l as usize] as usize] = i as u32;
                fill[l as usize] += 1;
            }
        }
        db.occ_offsets = counts;
        db
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_and_occurrences() {
        let mut b = NogoodDbBuilder::new();
        b.reserve_vars(4);
        b.add(&[Lit::t(1), Lit::f(2), Lit::t(3), Lit::t(4)], Origin::Constraint);
        b.add(&[Lit::t(1)], Origin::Fact);
        b.add(&[Lit::f(2), Lit::t(3)], Origin::Body);
        b.add(&[Lit::t(2), Lit::f(2)], Origin::Body); // tautology, dropped
        b.add(&[Lit::f(1), Lit::t(2), Lit::t(3)], Origin::Support);
        let db = b.build();
        assert_eq!(db.len(), 4);
        assert_eq!(db.bounds, [1, 2, 3]);
        assert_eq!(db.nogood(0), &[Lit::t(1).code()]);
        assert_eq!(db.occurrences(Lit::f(2)), &[1, 3]);
        assert_eq!(db.occurrences(Lit::t(3)), &[1, 2, 3]);
        assert!(db.occurrences(Lit::t(4)).len() == 1);
        assert!(!db.has_empty);
    }

    #[test]
    fn empty_nogood_is_recorded() {
        let mut b = NogoodDbBuilder::new();
        b.add(&[], Origin::Constraint);
        assert!(b.build().has_empty);
    }
}
