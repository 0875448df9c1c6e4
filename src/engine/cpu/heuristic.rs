//! Decision scores and the priority queue of decision candidates (`--heuristic`).
//!
//! `occ`: occurrences of the variable (either sign) in the input nogoods; `jw`: Jeroslow-Wang,
//! Σ 2^-len over those nogoods; `activity`: VSIDS — starts from a small Jeroslow-Wang prior,
//! bumped for the variables of each learned nogood, all scores decaying geometrically by
//! [`DECAY`] per conflict (by growing the increment). The seed perturbs ties.
//!
//! Invariant: `heap` is a 4-ary max-heap on `score` (ties: lower variable first, so the order
//! of pops is that of any heap on this total order), each slot carrying a copy of its
//! variable's score (kept equal to `score[v]`: sifting then reads one array), and `pos[v]` is
//! `v`'s index in it, or `NOT_IN` when absent. Decisions pop every variable that was
//! unassigned since it was last popped, so sifting down is the heuristic's hot path: the heap
//! is half as deep as a binary one, and the four children of a node (16 bytes each) fill one
//! aligned cache line ([`Heap`]), so each level of a sift reads one line.

use crate::engine::Heuristic;
use crate::lit::Var;

const NOT_IN: u32 = u32::MAX;
/// Children per heap node.
const ARITY: usize = 4;

/// Activity keeps this fraction of its value per conflict (clasp's `Vsids,92`). Measured side
/// by side against 0.95 (the previous value) and 0.85 (res learning, `scripts/bench run`):
/// 0.92 needed fewer conflicts on 6 of 8 instances (ricochet 038 13.9k -> 2.8k, graphcol 0006
/// 65k -> 26k, randomnontight 0010 50k -> 5k; worse: sokoban 0407 2.7k -> 114k, randomnontight
/// 0009 104k -> 112k); 0.85 needed more than 0.92 on all that either solved.
const DECAY: f64 = 0.92;

#[derive(Debug)]
pub struct Scores {
    pub score: Vec<f64>,
    /// The candidates with a copy of their score, so that sifting reads one array.
    heap: Heap,
    pos: Vec<u32>,
    inc: f64,
    dynamic: bool,
}

impl Scores {
    /// `nogoods` yields the input nogoods (as variable lists) once.
    pub fn new<'a>(
        kind: Heuristic,
        num_vars: usize,
        nogoods: impl Iterator<Item = &'a [crate::lit::Lit]>,
        seed: u64,
    ) -> Self {
        let mut score = vec![0f64; num_vars];
        for ng in nogoods {
            let w = match kind {
                Heuristic::Occ => 1.0,
                Heuristic::Jw | Heuristic::Activity | Heuristic::Domain => {
                    (-(ng.len().min(1000) as f64)).exp2()
                }
            };
            for l in ng {
                score[l.var() as usize] += w;
            }
        }
        let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        for s in score.iter_mut() {
            // xorshift: a tiny seeded perturbation so that `--seed` changes tie-breaking only.
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let r = (rng >> 11) as f64 / (1u64 << 53) as f64;
            *s = *s * (1.0 + 1e-6 * r) + 1e-9 * r;
            if matches!(kind, Heuristic::Activity | Heuristic::Domain) {
                *s *= 1e-3; // the prior must not outweigh a few bumps
            }
        }
        Scores {
            score,
            heap: Heap::default(),
            pos: vec![NOT_IN; num_vars],
            inc: 1.0,
            dynamic: matches!(kind, Heuristic::Activity | Heuristic::Domain),
        }
    }

    pub fn contains(&self, v: Var) -> bool {
        self.pos[v as usize] != NOT_IN
    }

    /// Empty the queue (the scores stay).
    pub fn clear(&mut self) {
        for e in self.heap.entries() {
            self.pos[e.var() as usize] = NOT_IN;
        }
        self.heap.clear();
    }

    pub fn insert(&mut self, v: Var) {
        if self.contains(v) {
            return;
        }
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(Entry::new(self.score[v as usize], v));
        self.up(self.heap.len() - 1);
    }

    pub fn pop(&mut self) -> Option<Var> {
        if self.heap.is_empty() {
            return None;
        }
        let top = self.heap[0].var();
        let last = self.heap.pop();
        self.pos[top as usize] = NOT_IN;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last.var() as usize] = 0;
            self.down(0);
        }
        Some(top)
    }

    /// Activity only: the variable took part in a conflict.
    pub fn bump(&mut self, v: Var) {
        if !self.dynamic {
            return;
        }
        let s = &mut self.score[v as usize];
        *s += self.inc;
        if *s > 1e100 {
            for s in self.score.iter_mut() {
                *s *= 1e-100;
            }
            for e in self.heap.entries_mut() {
                *e = Entry::new(self.score[e.var() as usize], e.var());
            }
            self.inc *= 1e-100;
            // Scores too small for the scale are now 0 and tie, and ties order by variable,
            // which their places in the heap need not follow: restore the heap order.
            for i in (0..self.heap.len()).rev() {
                self.down(i);
            }
        }
        let p = self.pos[v as usize];
        if p != NOT_IN {
            self.heap[p as usize] = Entry::new(self.score[v as usize], v);
            self.up(p as usize);
        }
    }

    /// Activity only: age all scores (after each conflict).
    pub fn decay(&mut self) {
        if self.dynamic {
            self.inc /= DECAY;
        }
    }

    /// Move the entry at `i` up to its place (each unassigned variable comes back this way).
    fn up(&mut self, mut i: usize) {
        assert!(i < self.heap.len(), "up from outside the heap");
        let h = self.heap.base_mut();
        // SAFETY: i < heap.len() (checked) and every parent index is below i; variables in the
        // heap index `pos` in bounds (as in `down`).
        unsafe {
            let v = *h.add(i);
            while i > 0 {
                let p = (i - 1) / ARITY;
                let e = *h.add(p);
                if !v.better(e) {
                    break;
                }
                *h.add(i) = e;
                *self.pos.get_unchecked_mut(e.var() as usize) = i as u32;
                i = p;
            }
            *h.add(i) = v;
            *self.pos.get_unchecked_mut(v.var() as usize) = i as u32;
        }
    }

    /// Move the entry at `i` down to its place. Every decision pops the heap, so this is hot:
    /// a node with all `ARITY` children (all but the last inner node) picks the best of its
    /// line in a tournament of three comparisons, and entries are read without bounds checks.
    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        assert!(i < n, "down from outside the heap");
        let h = self.heap.base_mut();
        // SAFETY: every index read or written below is < n = heap.len() (checked: i < n, and
        // each child index c is < n by the loop conditions), and `base_mut` points at entry 0
        // of at least n entries; a heap entry's variable indexes `pos` in bounds (`insert`,
        // the only way in, indexes `pos[v]` checked first).
        unsafe {
            let v = *h.add(i);
            loop {
                let first = ARITY * i + 1;
                if first >= n {
                    break;
                }
                let c = if first + ARITY <= n {
                    // A tournament: two pairs, then their winners.
                    let a = first + usize::from((*h.add(first + 1)).better(*h.add(first)));
                    let b = first + 2 + usize::from((*h.add(first + 3)).better(*h.add(first + 2)));
                    if (*h.add(b)).better(*h.add(a)) {
                        b
                    } else {
                        a
                    }
                } else {
                    let mut c = first;
                    for k in first + 1..n {
                        if (*h.add(k)).better(*h.add(c)) {
                            c = k;
                        }
                    }
                    c
                };
                let e = *h.add(c);
                if !e.better(v) {
                    break;
                }
                *h.add(i) = e;
                *self.pos.get_unchecked_mut(e.var() as usize) = i as u32;
                i = c;
            }
            *h.add(i) = v;
            *self.pos.get_unchecked_mut(v.var() as usize) = i as u32;
        }
    }
}

/// A heap slot: the variable and a copy of its score (`score[var]` whenever it is in the heap),
/// packed into one key that orders as [`Scores`]' total order: the score's bits above (scores
/// are never negative nor NaN, and such `f64`s order as their bits do), the complement of the
/// variable below (ties: lower variable first). Comparing two entries is then one 128-bit
/// integer comparison, with no second test for ties.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C)]
struct Entry {
    key: u128,
}

impl Entry {
    #[inline]
    fn new(score: f64, var: Var) -> Entry {
        debug_assert!(score >= 0.0, "negative score {score}");
        Entry {
            key: (u128::from(score.to_bits()) << 64) | u128::from(!var),
        }
    }

    #[inline]
    fn var(self) -> Var {
        !(self.key as u32)
    }

    /// Higher score first; ties: lower variable first.
    #[inline]
    fn better(self, b: Entry) -> bool {
        self.key > b.key
    }
}

/// Four heap slots on one 64-byte cache line.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Line([Entry; ARITY]);

const _: () = assert!(std::mem::size_of::<Line>() == ARITY * std::mem::size_of::<Entry>());

/// The heap's entries, entry `i` stored at slot `i + ARITY - 1` of an array of [`Line`]s, so
/// that the children `ARITY·i + 1 ..= ARITY·i + ARITY` of entry `i` are exactly line `i + 1`.
/// (The first `ARITY - 1` slots are never read.)
#[derive(Debug, Default)]
struct Heap {
    lines: Vec<Line>,
    len: usize,
}

impl Heap {
    const SKIP: usize = ARITY - 1;

    fn len(&self) -> usize {
        self.len
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Pointer to entry 0; entries `0..len` follow it.
    fn base_mut(&mut self) -> *mut Entry {
        // `wrapping_add`: with no line yet the pointer dangles, and is never read (len is 0).
        (self.lines.as_mut_ptr() as *mut Entry).wrapping_add(Self::SKIP)
    }

    fn slots(&self) -> &[Entry] {
        // SAFETY: `Line` is `repr(C)` over `[Entry; ARITY]` with no padding (asserted above),
        // so `lines` is `lines.len() * ARITY` contiguous entries.
        unsafe {
            std::slice::from_raw_parts(
                self.lines.as_ptr() as *const Entry,
                self.lines.len() * ARITY,
            )
        }
    }

    fn slots_mut(&mut self) -> &mut [Entry] {
        // SAFETY: as in `slots`.
        unsafe {
            std::slice::from_raw_parts_mut(
                self.lines.as_mut_ptr() as *mut Entry,
                self.lines.len() * ARITY,
            )
        }
    }

    fn entries(&self) -> &[Entry] {
        &self.slots()[Self::SKIP..Self::SKIP + self.len]
    }

    fn entries_mut(&mut self) -> &mut [Entry] {
        let n = self.len;
        &mut self.slots_mut()[Self::SKIP..Self::SKIP + n]
    }

    fn push(&mut self, e: Entry) {
        let slot = self.len + Self::SKIP;
        if slot / ARITY >= self.lines.len() {
            self.lines.push(Line::default());
        }
        self.slots_mut()[slot] = e;
        self.len += 1;
    }

    /// Remove and return the last entry (the heap must not be empty).
    fn pop(&mut self) -> Entry {
        assert!(self.len > 0, "pop from an empty heap");
        self.len -= 1;
        self.slots()[self.len + Self::SKIP]
    }

    fn clear(&mut self) {
        self.len = 0;
    }
}

impl std::ops::Index<usize> for Heap {
    type Output = Entry;
    fn index(&self, i: usize) -> &Entry {
        &self.entries()[i]
    }
}

impl std::ops::IndexMut<usize> for Heap {
    fn index_mut(&mut self, i: usize) -> &mut Entry {
        &mut self.entries_mut()[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Lit;

    #[test]
    fn heap_pops_best_first_and_bump_reorders() {
        let ngs: Vec<Vec<Lit>> = vec![
            vec![Lit::t(1), Lit::f(2)],
            vec![Lit::t(2), Lit::t(3)],
            vec![Lit::f(2), Lit::t(3), Lit::t(4)],
        ];
        let mut s = Scores::new(Heuristic::Occ, 5, ngs.iter().map(|v| v.as_slice()), 1);
        for v in 1..5 {
            s.insert(v);
        }
        s.insert(2); // already in: no duplicate
        assert_eq!(s.pop(), Some(2)); // 3 occurrences
        assert_eq!(s.pop(), Some(3)); // 2
        let rest = [s.pop().unwrap(), s.pop().unwrap()];
        assert!(rest.contains(&1) && rest.contains(&4));
        assert_eq!(s.pop(), None);

        let mut a = Scores::new(Heuristic::Activity, 5, ngs.iter().map(|v| v.as_slice()), 1);
        for v in 1..5 {
            a.insert(v);
        }
        a.bump(4);
        a.decay();
        a.bump(1);
        a.bump(1);
        assert_eq!(a.pop(), Some(1));
        assert_eq!(a.pop(), Some(4));
    }

    #[test]
    fn rescaling_keeps_the_heap_order_when_scores_underflow() {
        let none: Vec<Vec<Lit>> = Vec::new();
        let mut s = Scores::new(
            Heuristic::Activity,
            11,
            none.iter().map(|v| v.as_slice()),
            1,
        );
        // Larger variables score higher, so the heap holds them above the smaller ones...
        for v in 1..=9 {
            s.score[v as usize] = 1e-250 * v as f64;
            s.insert(v);
        }
        s.insert(10);
        for _ in 0..3000 {
            s.decay(); // the next bump passes 1e100 and rescales every score by 1e-100
        }
        s.bump(10);
        // ... until the rescale makes them all 0.0, where ties order by variable.
        assert!((1..=9).all(|v| s.score[v] == 0.0));
        let order: Vec<Var> = std::iter::from_fn(|| s.pop()).collect();
        assert_eq!(order, [10, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }

    /// Random inserts, bumps (ties included) and pops, against the total order popped from a
    /// sorted list: every layout detail of the heap (lines, the packed key, the tournament)
    /// must leave the pop order that of (score descending, variable ascending).
    #[test]
    fn pops_follow_the_total_order_under_random_operations() {
        let none: Vec<Vec<Lit>> = Vec::new();
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        for round in 0..50 {
            let n = 1 + next(300) as usize;
            let mut s = Scores::new(Heuristic::Activity, n, none.iter().map(|v| v.as_slice()), 1);
            for v in 0..n {
                // Few distinct values, so ties are common (0.0 among them).
                s.score[v] = next(4) as f64 * 0.5;
            }
            for step in 0..4 * n {
                let v = next(n as u64) as Var;
                match next(3) {
                    0 => s.insert(v),
                    1 => s.bump(v),
                    _ if step % 7 == 0 => {
                        s.pop();
                    }
                    _ => s.decay(),
                }
            }
            let mut want: Vec<Var> = (0..n as Var).filter(|&v| s.contains(v)).collect();
            want.sort_by(|&a, &b| {
                s.score[b as usize]
                    .total_cmp(&s.score[a as usize])
                    .then(a.cmp(&b))
            });
            let got: Vec<Var> = std::iter::from_fn(|| s.pop()).collect();
            assert_eq!(got, want, "round {round}");
        }
    }

    #[test]
    fn jw_prefers_short_nogoods() {
        let ngs: Vec<Vec<Lit>> = vec![
            vec![Lit::t(1), Lit::f(2)],
            vec![Lit::t(3), Lit::t(4), Lit::t(5), Lit::t(6)],
            vec![Lit::t(3), Lit::t(4), Lit::t(5), Lit::f(6)],
        ];
        let mut s = Scores::new(Heuristic::Jw, 7, ngs.iter().map(|v| v.as_slice()), 3);
        for v in 1..7 {
            s.insert(v);
        }
        let top = s.pop().unwrap();
        assert!(top == 1 || top == 2, "2^-2 beats 2·2^-4 = 2^-3, got {top}");
    }
}
