//! The engine's nogood store: every nogood of length ≥ 2 (input, learned, loop, blocking) in one
//! flat `u32` arena, each a 3-word header followed by its literals; a [`NgRef`] is the offset of
//! the header.
//!
//! Invariant: literals 0 and 1 of every live nogood are its watched literals (the watch lists
//! point at them), and a propagated literal's reason has the propagated variable at position 0
//! or 1; a deleted nogood keeps its place (and is skipped) until [`Store::collect`] compacts the
//! arena; only `Learned` nogoods are ever deleted.

use crate::lit::Lit;

/// Offset of a nogood's header in the arena.
pub type NgRef = u32;

const HEADER: usize = 3;
const DELETED: u32 = 1 << 2;

/// Where a nogood came from; decides whether it may be deleted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A completion nogood of the program.
    Input = 0,
    /// Learned from a conflict: redundant, may be deleted when not a reason.
    Learned = 1,
    /// Loop or blocking nogood: needed for correctness, never deleted.
    Permanent = 2,
}

#[derive(Debug, Default)]
pub struct Store {
    pub arena: Vec<u32>,
    /// Learned nogoods (live and deleted-but-not-collected), in creation order.
    pub learned: Vec<NgRef>,
    /// Arena words held by deleted nogoods.
    pub wasted: usize,
}

impl Store {
    pub fn add(&mut self, lits: &[Lit], kind: Kind, lbd: u32) -> NgRef {
        let r = self.arena.len() as NgRef;
        self.arena.push(lits.len() as u32);
        self.arena.push(kind as u32 | (lbd.min(1 << 20) << 8));
        self.arena.push(0f32.to_bits());
        self.arena.extend(lits.iter().map(|l| l.code()));
        if kind == Kind::Learned {
            self.learned.push(r);
        }
        r
    }

    #[inline]
    pub fn len(&self, r: NgRef) -> usize {
        self.arena[r as usize] as usize
    }

    #[inline]
    pub fn lits(&self, r: NgRef) -> &[Lit] {
        let s = r as usize + HEADER;
        let words = &self.arena[s..s + self.len(r)];
        // SAFETY: `Lit` is `repr(transparent)` over `u32`, so the slices have one layout.
        unsafe { std::slice::from_raw_parts(words.as_ptr() as *const Lit, words.len()) }
    }

    #[inline]
    pub fn lits_mut(&mut self, r: NgRef) -> &mut [Lit] {
        let s = r as usize + HEADER;
        let n = self.len(r);
        let words = &mut self.arena[s..s + n];
        // SAFETY: as in `lits`.
        unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr() as *mut Lit, words.len()) }
    }

    #[inline]
    pub fn kind(&self, r: NgRef) -> Kind {
        match self.arena[r as usize + 1] & 3 {
            0 => Kind::Input,
            1 => Kind::Learned,
            _ => Kind::Permanent,
        }
    }
    #[inline]
    pub fn lbd(&self, r: NgRef) -> u32 {
        self.arena[r as usize + 1] >> 8
    }
    #[inline]
    pub fn is_deleted(&self, r: NgRef) -> bool {
        self.arena[r as usize + 1] & DELETED != 0
    }
    pub fn delete(&mut self, r: NgRef) {
        debug_assert_eq!(
            self.kind(r),
            Kind::Learned,
            "only learned nogoods are deleted"
        );
        self.arena[r as usize + 1] |= DELETED;
        self.wasted += HEADER + self.len(r);
    }
    #[inline]
    pub fn activity(&self, r: NgRef) -> f32 {
        f32::from_bits(self.arena[r as usize + 2])
    }
    pub fn set_activity(&mut self, r: NgRef, a: f32) {
        self.arena[r as usize + 2] = a.to_bits();
    }

    /// (agg) Drop learned nogood `r` if it is the last in the arena (its space is reused at
    /// once, as for the sum propagator's reasons, made and dropped in stack order); false when
    /// something follows it (the caller deletes it instead).
    pub fn pop_last(&mut self, r: NgRef) -> bool {
        if r as usize + HEADER + self.len(r) != self.arena.len() {
            return false;
        }
        debug_assert_eq!(self.kind(r), Kind::Learned);
        if self.is_deleted(r) {
            self.wasted -= HEADER + self.len(r);
        }
        self.arena.truncate(r as usize);
        if self.learned.last() == Some(&r) {
            self.learned.pop();
        }
        true
    }

    /// Every nogood in the arena, live or deleted, in order.
    pub fn refs(&self) -> impl Iterator<Item = NgRef> + '_ {
        let mut r = 0usize;
        std::iter::from_fn(move || {
            (r < self.arena.len()).then(|| {
                let cur = r;
                r += HEADER + self.arena[r] as usize;
                cur as NgRef
            })
        })
    }

    /// Compact the arena, dropping deleted nogoods; returns old ref → new ref for the caller to
    /// rewrite watches and reasons (`u32::MAX` for a dropped nogood), indexed through `forward`.
    pub fn collect(&mut self) -> Forward {
        let old = std::mem::take(&mut self.arena);
        let mut map = Vec::new();
        let mut r = 0usize;
        self.arena.reserve(old.len() - self.wasted);
        while r < old.len() {
            let n = HEADER + old[r] as usize;
            if old[r + 1] & DELETED == 0 {
                map.push((r as u32, self.arena.len() as u32));
                self.arena.extend_from_slice(&old[r..r + n]);
            }
            r += n;
        }
        self.wasted = 0;
        let fwd = Forward { map };
        self.learned = self.learned.iter().filter_map(|&r| fwd.get(r)).collect();
        fwd
    }
}

/// Old → new references after [`Store::collect`] (sorted by old ref).
pub struct Forward {
    map: Vec<(u32, u32)>,
}

impl Forward {
    /// The new place of `old`, or `None` if it was dropped.
    pub fn get(&self, old: NgRef) -> Option<NgRef> {
        self.map
            .binary_search_by_key(&old, |&(o, _)| o)
            .ok()
            .map(|i| self.map[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_delete_collect() {
        let mut s = Store::default();
        let a = s.add(&[Lit::t(1), Lit::f(2)], Kind::Input, 0);
        let b = s.add(&[Lit::t(3), Lit::f(4), Lit::t(5)], Kind::Learned, 3);
        let c = s.add(&[Lit::f(1), Lit::f(3)], Kind::Permanent, 0);
        assert_eq!(s.lits(b), &[Lit::t(3), Lit::f(4), Lit::t(5)]);
        assert_eq!(s.lbd(b), 3);
        assert_eq!(s.kind(c), Kind::Permanent);
        assert_eq!(s.refs().collect::<Vec<_>>(), vec![a, b, c]);
        s.lits_mut(b).swap(0, 2);
        assert_eq!(s.lits(b)[0], Lit::t(5));
        s.delete(b);
        assert!(s.is_deleted(b));
        let f = s.collect();
        assert_eq!(f.get(a), Some(a));
        assert_eq!(f.get(b), None);
        let c2 = f.get(c).unwrap();
        assert_eq!(s.lits(c2), &[Lit::f(1), Lit::f(3)]);
        assert!(s.learned.is_empty());
        assert_eq!(s.wasted, 0);
    }
}
