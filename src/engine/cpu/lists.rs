//! Per-literal watch lists in one pool: each literal's list is a slice of one `Vec<Watch>`,
//! found through a 12-byte header (start, length, room) instead of a 24-byte `Vec` header and
//! a heap allocation of its own. Propagation reads a header for every literal it visits, at
//! random; smaller headers are likelier to be in cache (knighttour 0117 has 225k literals: two
//! sets of headers take 5.4 MB instead of 10.8 MB), and after compaction the lists lie in
//! literal order.
//!
//! Invariant: the list of literal `i` is `pool[start..start + len]` and owns
//! `pool[start..start + cap]` (`len <= cap`); owned ranges are disjoint. A push onto a full
//! list moves it to the end of the pool with twice the room; the slots it leaves are `garbage`
//! until [`Lists::compact`] lays every list out afresh, in literal order. Scans read and write
//! a list by pool slot, so pushing onto *another* list while scanning one is safe.

use super::watch::Watch;

/// The room [`Lists::compact`] gives a list of `n` watches: a quarter more, at least 2.
fn room(n: u32) -> u32 {
    (n + n / 4).max(2)
}

/// What fills a list's room beyond its length (never read as a watch).
const UNUSED: Watch = Watch {
    blocker: crate::lit::Lit(0),
    ng: 0,
};

#[derive(Clone, Copy, Debug, Default)]
struct Hdr {
    start: u32,
    len: u32,
    cap: u32,
}

#[derive(Debug, Default)]
pub struct Lists {
    hdr: Vec<Hdr>,
    pool: Vec<Watch>,
    /// Pool slots no list owns.
    garbage: usize,
}

impl Lists {
    /// `n` empty lists.
    pub fn new(n: usize) -> Lists {
        Lists {
            hdr: vec![Hdr::default(); n],
            pool: Vec::new(),
            garbage: 0,
        }
    }

    /// `counts.len()` empty lists laid out as [`Lists::compact`] lays them out once list `i`
    /// holds `counts[i]` watches: pushing that many onto each then moves none and leaves no
    /// garbage (the input nogoods are attached so, without the pool's doublings and the
    /// compaction's second pool, which peaked at three times the lists' size).
    pub fn with_room(counts: &[u32]) -> Lists {
        let mut hdr = Vec::with_capacity(counts.len());
        let mut start = 0u32;
        for &n in counts {
            let cap = room(n);
            hdr.push(Hdr { start, len: 0, cap });
            start += cap;
        }
        Lists {
            hdr,
            pool: vec![UNUSED; start as usize],
            garbage: 0,
        }
    }

    /// How many lists (literal codes).
    pub fn num_lists(&self) -> usize {
        self.hdr.len()
    }

    /// The list of literal code `i`.
    #[cfg(test)]
    pub fn get(&self, i: usize) -> &[Watch] {
        let h = self.hdr[i];
        &self.pool[h.start as usize..(h.start + h.len) as usize]
    }

    /// Where list `i` starts in the pool, and its length.
    #[inline(always)]
    pub fn span(&self, i: usize) -> (usize, usize) {
        debug_assert!(i < self.hdr.len());
        // SAFETY: i < hdr.len() (every literal code has a header, `new`).
        let h = unsafe { *self.hdr.get_unchecked(i) };
        (h.start as usize, h.len as usize)
    }

    /// The watch at pool slot `k`, which a list owns.
    #[inline(always)]
    pub fn at(&self, k: usize) -> Watch {
        debug_assert!(k < self.pool.len());
        // SAFETY: every slot a list owns is in the pool (the invariant); callers pass
        // start + index with index < the list's length.
        unsafe { *self.pool.get_unchecked(k) }
    }

    /// Overwrite pool slot `k`, which a list owns.
    #[inline(always)]
    pub fn set(&mut self, k: usize, w: Watch) {
        debug_assert!(k < self.pool.len());
        // SAFETY: as in `at`.
        unsafe { *self.pool.get_unchecked_mut(k) = w }
    }

    /// Shorten list `i` to `len` watches (it keeps its room).
    #[inline(always)]
    pub fn truncate(&mut self, i: usize, len: usize) {
        debug_assert!(len <= self.hdr[i].len as usize);
        self.hdr[i].len = len as u32;
    }

    /// Where list `i`'s header lies, for a prefetch.
    #[inline(always)]
    pub fn hdr_ptr(&self, i: usize) -> *const u8 {
        self.hdr.as_ptr().wrapping_add(i) as *const u8
    }

    /// The first slot of list `i`, for a prefetch (the slot may hold garbage when it is empty).
    #[inline(always)]
    pub fn first_slot(&self, i: usize) -> *const Watch {
        let (s, _) = self.span(i);
        self.pool.as_ptr().wrapping_add(s)
    }

    /// Append `w` to list `i`. Other lists keep their slots, so a caller scanning list `j != i`
    /// by slot (`span`, `at`, `set`) may push while it scans.
    #[inline]
    pub fn push(&mut self, i: usize, w: Watch) {
        let h = self.hdr[i];
        if h.len == h.cap {
            self.grow(i);
        }
        let h = &mut self.hdr[i];
        let k = (h.start + h.len) as usize;
        h.len += 1;
        self.pool[k] = w;
    }

    /// Move full list `i` to the end of the pool with twice the room.
    #[cold]
    fn grow(&mut self, i: usize) {
        let h = self.hdr[i];
        let start = self.pool.len();
        let cap = (h.cap * 2).max(4);
        self.pool
            .extend_from_within(h.start as usize..(h.start + h.len) as usize);
        self.pool.resize(start + cap as usize, UNUSED);
        self.garbage += h.cap as usize;
        self.hdr[i] = Hdr {
            start: start as u32,
            len: h.len,
            cap,
        };
    }

    /// Keep the watches for which `f` is true (it may rewrite them), in every list; then
    /// compact.
    pub fn retain_mut(&mut self, mut f: impl FnMut(&mut Watch) -> bool) {
        for i in 0..self.hdr.len() {
            let (s, n) = self.span(i);
            let mut keep = 0;
            for k in s..s + n {
                let mut w = self.pool[k];
                if f(&mut w) {
                    self.pool[s + keep] = w;
                    keep += 1;
                }
            }
            self.hdr[i].len = keep as u32;
        }
        self.compact();
    }

    /// Compact when more than half the pool is garbage (call where no scan is under way).
    pub fn compact_if_wasteful(&mut self) {
        if self.garbage > self.pool.len() / 2 && self.garbage > 1 << 12 {
            self.compact();
        }
    }

    /// Lay every list out afresh in literal order, each with room for a quarter more than it
    /// holds (at least 2): no garbage.
    pub fn compact(&mut self) {
        let total: usize = self.hdr.iter().map(|h| room(h.len) as usize).sum();
        let mut pool = Vec::with_capacity(total);
        for h in &mut self.hdr {
            let start = pool.len();
            pool.extend_from_slice(&self.pool[h.start as usize..(h.start + h.len) as usize]);
            let cap = room(h.len);
            pool.resize(start + cap as usize, UNUSED);
            *h = Hdr {
                start: start as u32,
                len: h.len,
                cap,
            };
        }
        self.pool = pool;
        self.garbage = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Lit;

    fn w(k: u32) -> Watch {
        Watch {
            blocker: Lit::t(k + 1),
            ng: k,
        }
    }

    #[test]
    fn lists_keep_their_pushes_in_order_through_moves_and_compaction() {
        let mut l = Lists::new(5);
        let mut model: Vec<Vec<Watch>> = vec![Vec::new(); 5];
        let mut x = 12345u32;
        for k in 0..2000 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let i = (x >> 16) as usize % 5;
            l.push(i, w(k));
            model[i].push(w(k));
            if k % 500 == 499 {
                l.compact();
            }
            for (i, m) in model.iter().enumerate() {
                assert_eq!(l.get(i), &m[..]);
            }
        }
        l.retain_mut(|w| {
            w.ng += 1;
            w.ng % 3 != 0
        });
        for m in &mut model {
            m.retain_mut(|w| {
                w.ng += 1;
                w.ng % 3 != 0
            });
        }
        for (i, m) in model.iter().enumerate() {
            assert_eq!(l.get(i), &m[..]);
        }
        assert_eq!(l.garbage, 0);
        // A scan by slot survives pushes onto other lists.
        let (s, n) = l.span(0);
        let before: Vec<Watch> = (s..s + n).map(|k| l.at(k)).collect();
        for k in 0..100u32 {
            l.push(1 + k as usize % 4, w(k));
        }
        let (s2, n2) = l.span(0);
        assert_eq!((s, n), (s2, n2));
        assert_eq!((s..s + n).map(|k| l.at(k)).collect::<Vec<_>>(), before);
    }

    #[test]
    fn lists_with_room_filled_are_the_compacted_lists() {
        let mut pushed = Lists::new(6);
        let mut x = 7u32;
        let mut order = Vec::new();
        for k in 0..500 {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let i = (x >> 16) as usize % 5; // list 5 stays empty
            pushed.push(i, w(k));
            order.push((i, w(k)));
        }
        pushed.compact();
        let counts: Vec<u32> = (0..6).map(|i| pushed.get(i).len() as u32).collect();
        let mut roomy = Lists::with_room(&counts);
        let before = roomy.pool.len();
        for (i, w) in order {
            roomy.push(i, w);
        }
        assert_eq!(roomy.pool.len(), before, "no list moved");
        assert_eq!(roomy.garbage, 0);
        assert_eq!(roomy.pool, pushed.pool);
        for i in 0..6 {
            assert_eq!(roomy.span(i), pushed.span(i));
            assert_eq!(roomy.hdr[i].cap, pushed.hdr[i].cap);
        }
    }
}
