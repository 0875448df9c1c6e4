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
//! `v`'s index in it, or `NOT_IN` when absent. Four children of 16 bytes share one cache line
//! and the heap is half as deep as a binary one: decisions pop every variable that was
//! unassigned since it was last popped, so sifting down is the heuristic's hot path.

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
    heap: Vec<Entry>,
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
            heap: Vec::new(),
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
        for e in &self.heap {
            self.pos[e.var as usize] = NOT_IN;
        }
        self.heap.clear();
    }

    pub fn insert(&mut self, v: Var) {
        if self.contains(v) {
            return;
        }
        self.pos[v as usize] = self.heap.len() as u32;
        self.heap.push(Entry {
            score: self.score[v as usize],
            var: v,
        });
        self.up(self.heap.len() - 1);
    }

    pub fn pop(&mut self) -> Option<Var> {
        let top = self.heap.first()?.var;
        let last = self.heap.pop().expect("non-empty");
        self.pos[top as usize] = NOT_IN;
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.pos[last.var as usize] = 0;
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
            for e in self.heap.iter_mut() {
                e.score = self.score[e.var as usize];
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
            self.heap[p as usize].score = self.score[v as usize];
            self.up(p as usize);
        }
    }

    /// Activity only: age all scores (after each conflict).
    pub fn decay(&mut self) {
        if self.dynamic {
            self.inc /= DECAY;
        }
    }

    fn up(&mut self, mut i: usize) {
        let v = self.heap[i];
        while i > 0 {
            let p = (i - 1) / ARITY;
            if !v.better(self.heap[p]) {
                break;
            }
            self.heap[i] = self.heap[p];
            self.pos[self.heap[i].var as usize] = i as u32;
            i = p;
        }
        self.heap[i] = v;
        self.pos[v.var as usize] = i as u32;
    }

    /// Move the entry at `i` down to its place. Every decision pops the heap, so this is hot:
    /// a node with all `ARITY` children (all but the last inner node) compares them without
    /// the bound on the child range, and entries are read without bounds checks.
    fn down(&mut self, mut i: usize) {
        let n = self.heap.len();
        assert!(i < n, "down from outside the heap");
        let h = self.heap.as_mut_ptr();
        // SAFETY: every index read or written below is < n = heap.len() (checked: i < n, and
        // each child index c is < n by the loop conditions); a heap entry's variable indexes
        // `pos` in bounds (`insert`, the only way in, indexes `pos[v]` checked first).
        unsafe {
            let v = *h.add(i);
            loop {
                let first = ARITY * i + 1;
                if first >= n {
                    break;
                }
                let mut c = first;
                if first + ARITY <= n {
                    for k in first + 1..first + ARITY {
                        if (*h.add(k)).better(*h.add(c)) {
                            c = k;
                        }
                    }
                } else {
                    for k in first + 1..n {
                        if (*h.add(k)).better(*h.add(c)) {
                            c = k;
                        }
                    }
                }
                let e = *h.add(c);
                if !e.better(v) {
                    break;
                }
                *h.add(i) = e;
                *self.pos.get_unchecked_mut(e.var as usize) = i as u32;
                i = c;
            }
            *h.add(i) = v;
            *self.pos.get_unchecked_mut(v.var as usize) = i as u32;
        }
    }
}

/// A heap slot: the variable and a copy of its score (`score[var]` whenever it is in the heap).
#[derive(Clone, Copy, Debug)]
struct Entry {
    score: f64,
    var: Var,
}

impl Entry {
    /// Higher score first; ties: lower variable first.
    #[inline]
    fn better(self, b: Entry) -> bool {
        self.score > b.score || (self.score == b.score && self.var < b.var)
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
