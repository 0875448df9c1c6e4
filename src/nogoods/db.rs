//! The nogood store: one flat `u32` arena of literals plus a CSR offset array, nogoods sorted by
//! length so units, binaries, ternaries and longer ones are contiguous partitions. (No literal →
//! nogoods map: each engine builds the lists it propagates with — the host engine its watches,
//! the device its layout — and on a program of millions of rules one kept here was 30 MB
//! nobody read, at the preparation's peak.)
//!
//! Invariant: `offsets` is non-decreasing with `offsets[0] == 0` and one entry per nogood plus
//! one; nogood `i` is `lits[offsets[i]..offsets[i+1]]`, has no repeated variable, and its length
//! is ≥ 1; lengths are non-decreasing in `i`; no two nogoods are equal (the builder keeps the
//! first of equal ones: after atom elimination many become equal, e.g. 95k of visitall 0011's
//! 159k). This layout is uploaded to the device unchanged.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::analyse::alias::Aliases;
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
    /// The nogoods that contain `lit`, in order (a scan of the arena: tests and diagnostics).
    pub fn occurrences(&self, lit: Lit) -> Vec<u32> {
        (0..self.len())
            .filter(|&i| self.nogood(i).contains(&lit.code()))
            .map(|i| i as u32)
            .collect()
    }
    /// Bytes of the arrays uploaded to the device (lits, offsets).
    pub fn device_bytes(&self) -> usize {
        4 * (self.lits.len() + self.offsets.len())
    }
}

/// Collects nogoods in any order, then sorts them by length.
///
/// The nogoods are kept in one flat arena (literals back to back, plus a start offset and an
/// origin per nogood), not one `Vec` each: on programs with millions of binary nogoods a heap
/// allocation per nogood costs several times the literals themselves. `build` orders them by
/// a counting sort on the length (stable) straight into the final arena.
#[derive(Debug, Default)]
pub struct NogoodDbBuilder {
    num_vars: u32,
    /// Literal codes of every nogood added, each nogood sorted and free of duplicates.
    lits: Vec<u32>,
    /// Nogood `i` is `lits[starts[i]..starts[i+1]]` (the last one ends at `lits.len()`).
    starts: Vec<u32>,
    origins: Vec<Origin>,
    has_empty: bool,
    /// Eliminated atoms (`analyse::alias`): [`Self::add`] reads each literal of one as its
    /// root's.
    aliases: Aliases,
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

    /// The next variable [`Self::new_var`] would give (one past every variable so far).
    pub fn num_vars(&self) -> Var {
        self.num_vars.max(1)
    }

    /// Make sure variables `1..=v` exist (atoms are reserved this way before auxiliaries).
    pub fn reserve_vars(&mut self, v: Var) {
        self.num_vars = self.num_vars.max(v + 1);
    }

    /// From now on read every literal of an eliminated atom as its root's (`analyse::alias`).
    pub fn set_aliases(&mut self, aliases: &Aliases) {
        self.aliases = aliases.clone();
    }

    /// The literal [`Self::add`] writes for `lit`.
    pub fn map(&self, lit: Lit) -> Lit {
        self.aliases.lit(lit)
    }

    /// Add a nogood, each literal read through the aliases ([`Self::set_aliases`]).
    /// Duplicate literals are removed; a nogood holding both `T v` and `F v` can never be
    /// violated and is dropped.
    pub fn add(&mut self, lits: &[Lit], origin: Origin) {
        let aliases = &self.aliases;
        let start = self.lits.len();
        self.lits
            .extend(lits.iter().map(|&l| aliases.lit(l).code()));
        self.push_from(start, origin);
    }

    /// Add a nogood over the variables as given, aliases aside (the unit `{T q}` that fixes an
    /// eliminated atom's own variable false).
    pub fn add_unmapped(&mut self, lits: &[Lit], origin: Origin) {
        let start = self.lits.len();
        self.lits.extend(lits.iter().map(|l| l.code()));
        self.push_from(start, origin);
    }

    /// Sort and deduplicate the literals from `start` on and keep them as one nogood.
    fn push_from(&mut self, start: usize, origin: Origin) {
        let v = &mut self.lits[start..];
        v.sort_unstable();
        let mut len = 0;
        for i in 0..v.len() {
            if len == 0 || v[i] != v[len - 1] {
                v[len] = v[i];
                len += 1;
            }
        }
        let v = &v[..len];
        let tautology = v.windows(2).any(|w| w[0] >> 1 == w[1] >> 1);
        let last = v.last().copied();
        self.lits.truncate(start + len);
        match last {
            _ if tautology => self.lits.truncate(start),
            None => self.has_empty = true,
            Some(max) => {
                self.reserve_vars(max >> 1);
                self.starts.push(start as u32);
                self.origins.push(origin);
            }
        }
    }

    /// Length of the `i`-th nogood added.
    fn len_of(&self, i: usize) -> usize {
        let end = self
            .starts
            .get(i + 1)
            .map_or(self.lits.len(), |&e| e as usize);
        end - self.starts[i] as usize
    }

    /// The nogoods to keep, ascending: each one not equal to an earlier one (literals are
    /// sorted, so equal nogoods have equal literal lists).
    fn first_of_equals(&self) -> Vec<usize> {
        const NONE: u32 = u32::MAX;
        let n = self.starts.len();
        let lits_of = |i: usize| &self.lits[self.starts[i] as usize..][..self.len_of(i)];
        let mut first_of_hash: HashMap<u64, u32, BuildHasherDefault<Prehashed>> =
            HashMap::with_capacity_and_hasher(n, Default::default());
        let mut chain = vec![NONE; n];
        let mut keep = Vec::with_capacity(n);
        for i in 0..n {
            let ng = lits_of(i);
            let h = ng.iter().fold(ng.len() as u64, |h, &l| {
                (h.rotate_left(5) ^ l as u64).wrapping_mul(0x517c_c1b7_2722_0a95)
            });
            let head = first_of_hash.get(&h).copied().unwrap_or(NONE);
            let mut j = head;
            while j != NONE && lits_of(j as usize) != ng {
                j = chain[j as usize];
            }
            if j == NONE {
                chain[i] = head;
                first_of_hash.insert(h, i as u32);
                keep.push(i);
            }
        }
        keep
    }

    pub fn build(self) -> NogoodDb {
        let num_vars = self.num_vars.max(1);
        let keep = self.first_of_equals();
        let n = keep.len();
        // Counting sort by length, stable: nogoods of one length keep the order they were
        // added in. `first[k]` = sorted index of the first nogood of length k.
        let max_len = keep.iter().map(|&i| self.len_of(i)).max().unwrap_or(0);
        let mut first = vec![0u32; max_len + 2];
        for &i in &keep {
            first[self.len_of(i) + 1] += 1;
        }
        for k in 0..=max_len {
            first[k + 1] += first[k];
        }
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0u32);
        for k in 1..=max_len {
            let count = first[k + 1] - first[k];
            for _ in 0..count {
                offsets.push(offsets.last().unwrap() + k as u32);
            }
        }
        let mut lits = vec![0u32; *offsets.last().unwrap() as usize];
        let mut origins = vec![Origin::Fact; n];
        let mut next = first.clone();
        for &i in &keep {
            let len = self.len_of(i);
            let j = next[len] as usize;
            next[len] += 1;
            let (from, to) = (self.starts[i] as usize, offsets[j] as usize);
            lits[to..to + len].copy_from_slice(&self.lits[from..from + len]);
            origins[j] = self.origins[i];
        }
        let has_empty = self.has_empty;
        drop(self);
        let mut bounds = [0u32; 3];
        for (k, b) in bounds.iter_mut().enumerate() {
            // The first nogood longer than k+1.
            *b = first[(k + 2).min(max_len + 1)];
        }
        NogoodDb {
            num_vars,
            lits,
            offsets,
            bounds,
            origins,
            has_empty,
        }
    }
}

/// A hasher for keys that are hashes already (`first_of_equals`): the key is the hash.
#[derive(Default)]
struct Prehashed(u64);

impl Hasher for Prehashed {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partitions_and_occurrences() {
        let mut b = NogoodDbBuilder::new();
        b.reserve_vars(4);
        b.add(
            &[Lit::t(1), Lit::f(2), Lit::t(3), Lit::t(4)],
            Origin::Constraint,
        );
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
    fn equal_nogoods_are_kept_once() {
        let mut b = NogoodDbBuilder::new();
        b.reserve_vars(3);
        b.add(&[Lit::f(2), Lit::t(3)], Origin::Body);
        b.add(&[Lit::t(1), Lit::f(2)], Origin::Support);
        b.add(&[Lit::t(3), Lit::f(2)], Origin::Head); // the first one, literals in another order
        b.add(&[Lit::t(1), Lit::t(2)], Origin::Head);
        b.add(&[Lit::t(3)], Origin::Fact);
        b.add(&[Lit::t(3)], Origin::Fact);
        let db = b.build();
        assert_eq!(db.len(), 4);
        assert_eq!(db.bounds, [1, 4, 4]);
        assert_eq!(
            db.origins,
            [Origin::Fact, Origin::Body, Origin::Support, Origin::Head]
        );
        assert_eq!(db.occurrences(Lit::f(2)), &[1, 2]);
        assert_eq!(db.occurrences(Lit::t(3)), &[0, 1]);
        assert_eq!(db.lits.len(), 7);
    }

    #[test]
    fn empty_nogood_is_recorded() {
        let mut b = NogoodDbBuilder::new();
        b.add(&[], Origin::Constraint);
        assert!(b.build().has_empty);
    }
    /// The arena builder against the obvious one (a `Vec` per nogood, stable sort by length).
    #[test]
    fn counting_sort_matches_a_stable_sort() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let origins = [
            Origin::Body,
            Origin::Support,
            Origin::Head,
            Origin::Constraint,
        ];
        let mut b = NogoodDbBuilder::new();
        let mut naive: Vec<(Vec<u32>, Origin)> = Vec::new();
        for _ in 0..2000 {
            let len = [1, 2, 2, 3, 4, 7][rnd(6) as usize];
            let lits: Vec<Lit> = (0..len)
                .map(|_| Lit::new(1 + rnd(30) as u32, rnd(2) == 0))
                .collect();
            let origin = origins[rnd(4) as usize];
            b.add(&lits, origin);
            let mut v: Vec<u32> = lits.iter().map(|l| l.code()).collect();
            v.sort_unstable();
            v.dedup();
            // Tautologies are dropped, and so is a nogood equal to an earlier one.
            let tautology = v.windows(2).any(|w| w[0] >> 1 == w[1] >> 1);
            if !tautology && !naive.iter().any(|(w, _)| *w == v) {
                naive.push((v, origin));
            }
        }
        naive.sort_by_key(|(v, _)| v.len());
        let db = b.build();
        assert_eq!(db.len(), naive.len());
        for (i, (v, o)) in naive.iter().enumerate() {
            assert_eq!(db.nogood(i), &v[..], "nogood {i}");
            assert_eq!(db.origins[i], *o);
        }
        for k in 0..3 {
            let expect = naive.iter().filter(|(v, _)| v.len() <= k + 1).count();
            assert_eq!(db.bounds[k] as usize, expect);
        }
        for code in 2..62u32 {
            let expect: Vec<u32> = (0..naive.len() as u32)
                .filter(|&i| naive[i as usize].0.contains(&code))
                .collect();
            let lit = Lit::new(code >> 1, code & 1 == 0);
            assert_eq!(lit.code(), code);
            assert_eq!(db.occurrences(lit), &expect[..]);
        }
    }
}
