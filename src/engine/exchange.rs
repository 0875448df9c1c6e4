//! Learned nogoods shared between the members of a portfolio: the host threads, and the GPU
//! engine's searches through a [`DeviceLink`] (the host pulls the device's shared nogoods and
//! pushes the ring's between two time slices, `engine/gpu/host_share.rs`).
//!
//! One [`Exchange`] per portfolio holds a ring of the short nogoods members published, each
//! with a sequence number; every member owns a [`Port`]: an outbox it fills as it learns and
//! flushes in batches, and a cursor into the ring from which it imports what the others
//! published since its last import (its own nogoods are skipped). A member that falls more
//! than the ring's capacity behind loses the oldest entries, which is harmless: sharing is an
//! optimisation, never needed for correctness.
//!
//! Invariant: every nogood in the ring is implied by the program alone (a member publishes
//! only nogoods it learned from the input, loop nogoods and other learned nogoods — never a
//! blocking nogood or one that depends on an optimisation bound), and all members share one
//! variable numbering (one completion), so any member may add any entry to its store. The GPU
//! engine searches a completion of its own (`run::plan::Plan::device_sums`: its sums may be
//! translated where the host threads' are native, and small counts of bound 2 are nogoods
//! there, `nogoods::device_completer`), so its link exchanges only once the two
//! completions are known to be the same ([`variable_space`] equal); otherwise nothing crosses.

use crate::lit::Lit;
use crate::nogoods::Completion;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Entries the ring keeps (older ones are dropped).
const CAPACITY: usize = 1 << 16;
/// A member flushes its outbox when it holds this many nogoods (and at every restart).
pub const FLUSH_AT: usize = 32;
/// At most this many nogoods are imported at one restart (the rest wait for the next).
pub const IMPORT_AT_MOST: usize = 4096;

/// A learned nogood is offered to the others when it is this short, or its LBD this small
/// (and it is not longer than [`MAX_LEN`]); clasp's default distributes by LBD ≤ 4.
pub const SHORT_LEN: usize = 8;
pub const MAX_LBD: u32 = 3;
pub const MAX_LEN: usize = 32;

/// Whether a learned nogood of `len` literals and literal block distance `lbd` is shared.
pub fn worth_sharing(len: usize, lbd: u32) -> bool {
    len <= SHORT_LEN || (lbd <= MAX_LBD && len <= MAX_LEN)
}

struct Entry {
    from: u32,
    lits: Box<[Lit]>,
}

struct Ring {
    entries: VecDeque<Entry>,
    /// Sequence number of `entries[0]`.
    first: u64,
}

/// The shared ring and per-member counters.
pub struct Exchange {
    ring: Mutex<Ring>,
    published: Vec<AtomicU64>,
    imported: Vec<AtomicU64>,
}

impl Exchange {
    pub fn new(members: usize) -> Arc<Exchange> {
        Arc::new(Exchange {
            ring: Mutex::new(Ring {
                entries: VecDeque::new(),
                first: 0,
            }),
            published: (0..members).map(|_| AtomicU64::new(0)).collect(),
            imported: (0..members).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// The port of member `me` (`me < members`).
    pub fn port(self: &Arc<Self>, me: u32) -> Port {
        assert!(
            (me as usize) < self.published.len(),
            "member {me} out of range"
        );
        Port {
            ex: self.clone(),
            me,
            cursor: 0,
            outbox: Vec::new(),
        }
    }

    /// Nogoods member `m` published, and imported from the others.
    pub fn counts(&self, m: usize) -> (u64, u64) {
        (
            self.published[m].load(Ordering::Relaxed),
            self.imported[m].load(Ordering::Relaxed),
        )
    }

    /// Nogoods members `ms` published and imported, summed.
    pub fn counts_of(&self, ms: std::ops::Range<usize>) -> (u64, u64) {
        ms.map(|m| self.counts(m))
            .fold((0, 0), |(a, b), (o, i)| (a + o, b + i))
    }

    pub fn members(&self) -> usize {
        self.published.len()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Ring> {
        // A member that panicked while holding the lock left the ring consistent (every
        // operation below completes or does nothing): keep using it.
        self.ring.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One member's side of the [`Exchange`].
pub struct Port {
    ex: Arc<Exchange>,
    me: u32,
    /// Sequence number of the next entry to look at.
    cursor: u64,
    outbox: Vec<Box<[Lit]>>,
}

impl Port {
    /// Offer a learned nogood (the caller checked [`worth_sharing`]); flushed in batches.
    pub fn offer(&mut self, lits: &[Lit]) {
        self.outbox.push(lits.into());
        if self.outbox.len() >= FLUSH_AT {
            self.flush();
        }
    }

    /// Publish the outbox.
    pub fn flush(&mut self) {
        if self.outbox.is_empty() {
            return;
        }
        let n = self.outbox.len() as u64;
        let mut ring = self.ex.lock();
        for lits in self.outbox.drain(..) {
            if ring.entries.len() == CAPACITY {
                ring.entries.pop_front();
                ring.first += 1;
            }
            ring.entries.push_back(Entry {
                from: self.me,
                lits,
            });
        }
        drop(ring);
        self.ex.published[self.me as usize].fetch_add(n, Ordering::Relaxed);
    }

    /// Append to `out` what the other members published since the last call (at most
    /// [`IMPORT_AT_MOST`]).
    pub fn collect(&mut self, out: &mut Vec<Box<[Lit]>>) {
        self.collect_upto(out, usize::MAX, IMPORT_AT_MOST);
    }

    /// [`Port::collect`], taking only nogoods of at most `max_len` literals (the others are
    /// passed over), at most `max_count` of them.
    pub fn collect_upto(&mut self, out: &mut Vec<Box<[Lit]>>, max_len: usize, max_count: usize) {
        let ring = self.ex.lock();
        let end = ring.first + ring.entries.len() as u64;
        self.cursor = self.cursor.max(ring.first);
        let start = out.len();
        while self.cursor < end && out.len() - start < max_count {
            let e = &ring.entries[(self.cursor - ring.first) as usize];
            if e.from != self.me && e.lits.len() <= max_len {
                out.push(e.lits.clone());
            }
            self.cursor += 1;
        }
        drop(ring);
        let n = (out.len() - start) as u64;
        self.ex.imported[self.me as usize].fetch_add(n, Ordering::Relaxed);
    }
}

/// A fingerprint of the variables `c`'s nogoods are over: its nogoods, body variables,
/// auxiliaries and native sums, hashed (FxHash's step over 64-bit words). Two completions of
/// one program with the same fingerprint number their variables the same way.
pub fn variable_space(c: &Completion) -> u64 {
    let mut h = 0u64;
    let mut word = |x: u64| h = (h.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    let db = &c.db;
    word(u64::from(db.num_vars) | u64::from(c.first_aux) << 32);
    for part in [&db.offsets, &db.lits, &c.body_var, &c.aux_body] {
        word(part.len() as u64);
        let pairs = part.chunks_exact(2);
        if let [last] = pairs.remainder() {
            word(u64::from(*last));
        }
        pairs.for_each(|p| word(u64::from(p[0]) | u64::from(p[1]) << 32));
    }
    word(c.native_sums.len() as u64);
    for s in &c.native_sums {
        for &(l, w) in &s.lits {
            word(u64::from(l.0));
            word(w as u64);
        }
        for &(k, b) in &s.bounds {
            word(k as u64);
            word(u64::from(b));
        }
    }
    h
}

/// The GPU engine's side of the [`Exchange`]: a port, open only while the race runs and once
/// the host threads' completion is known to be the device's.
pub struct DeviceLink {
    port: Port,
    /// The host threads' [`variable_space`], set when their completion is made.
    host_space: Arc<OnceLock<u64>>,
    own_space: u64,
    /// Set when the race has its answer (or the user stopped it).
    stop: Arc<AtomicBool>,
    same: Option<bool>,
}

impl DeviceLink {
    pub fn new(
        port: Port,
        host_space: Arc<OnceLock<u64>>,
        own_space: u64,
        stop: Arc<AtomicBool>,
    ) -> DeviceLink {
        DeviceLink {
            port,
            host_space,
            own_space,
            stop,
            same: None,
        }
    }

    /// Whether nogoods may cross now: the race runs, and both sides search one completion.
    pub fn open(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            return false;
        }
        if self.same.is_none() {
            self.same = self.host_space.get().map(|&h| h == self.own_space);
        }
        self.same == Some(true)
    }

    /// Offer a nogood the device learned (flushed by [`DeviceLink::flush`]).
    pub fn offer(&mut self, lits: &[Lit]) {
        self.port.offer(lits);
    }

    pub fn flush(&mut self) {
        self.port.flush();
    }

    /// The host threads' nogoods of at most `max_len` literals, at most `max_count`.
    pub fn collect(&mut self, out: &mut Vec<Box<[Lit]>>, max_len: usize, max_count: usize) {
        self.port.collect_upto(out, max_len, max_count);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ng(vars: &[u32]) -> Vec<Lit> {
        vars.iter().map(|&v| Lit::t(v)).collect()
    }

    #[test]
    fn members_see_the_others_nogoods_once_and_not_their_own() {
        let ex = Exchange::new(3);
        let (mut a, mut b, mut c) = (ex.port(0), ex.port(1), ex.port(2));
        a.offer(&ng(&[1, 2]));
        b.offer(&ng(&[3]));
        a.flush();
        b.flush();
        let mut got = Vec::new();
        c.collect(&mut got);
        assert_eq!(got.len(), 2);
        let mut again = Vec::new();
        c.collect(&mut again);
        assert!(again.is_empty(), "nothing new since the last import");
        let mut from_a = Vec::new();
        a.collect(&mut from_a);
        assert_eq!(from_a, vec![Box::<[Lit]>::from(ng(&[3]))]);
        assert_eq!(ex.counts(0), (1, 1));
        assert_eq!(ex.counts(2), (0, 2));
    }

    #[test]
    fn the_outbox_is_published_in_batches() {
        let ex = Exchange::new(2);
        let (mut a, mut b) = (ex.port(0), ex.port(1));
        for v in 1..FLUSH_AT as u32 {
            a.offer(&ng(&[v, v + 1]));
        }
        let mut got = Vec::new();
        b.collect(&mut got);
        assert!(got.is_empty(), "not flushed yet");
        a.offer(&ng(&[100, 101]));
        b.collect(&mut got);
        assert_eq!(got.len(), FLUSH_AT);
    }

    #[test]
    fn a_member_far_behind_skips_the_dropped_entries() {
        let ex = Exchange::new(2);
        let (mut a, mut b) = (ex.port(0), ex.port(1));
        for v in 0..(CAPACITY + 10) as u32 {
            a.offer(&ng(&[v + 1]));
        }
        a.flush();
        let mut got = Vec::new();
        b.collect(&mut got);
        assert_eq!(got.len(), IMPORT_AT_MOST.min(CAPACITY));
        // The first entry kept is the 11th published.
        assert_eq!(got[0][0], Lit::t(11));
    }

    #[test]
    fn variable_spaces_tell_completions_apart() {
        use crate::engine::cpu::tests::prog;
        use lparse::Rule;
        // {a; b; c}. d :- 2 { a; b; c }.
        let p = prog(vec![
            Rule::choice(&[1, 2, 3], &[]),
            Rule::sum(&[4], 2, &[(1, 1), (2, 1), (3, 1)]),
        ]);
        let g = crate::analyse::analyse(&p).unwrap();
        let translated = variable_space(&crate::nogoods::complete(&g));
        assert_eq!(translated, variable_space(&crate::nogoods::complete(&g)));
        let native = variable_space(&crate::nogoods::complete_all_native(&g));
        assert_ne!(
            translated, native,
            "a native sum has no translation's variables"
        );
    }

    #[test]
    fn only_short_or_low_lbd_nogoods_are_shared() {
        assert!(worth_sharing(1, 1));
        assert!(worth_sharing(SHORT_LEN, 50));
        assert!(worth_sharing(MAX_LEN, MAX_LBD));
        assert!(!worth_sharing(MAX_LEN + 1, 1));
        assert!(!worth_sharing(SHORT_LEN + 1, MAX_LBD + 1));
    }
}
