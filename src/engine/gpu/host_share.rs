//! The many-searches engine's side of the exchange with a portfolio's host threads
//! (`engine::exchange::DeviceLink`): between two time slices the host pulls the
//! newest nogoods the searches wrote to the device's sharing ring (`kernels/search/share.cuh`)
//! and offers them to the host threads, and pushes the host threads' nogoods of at most
//! `SHARE_MAX` literals into the same ring, where every search imports them at its next
//! restart as if another search had written them (the slot's search id is `HOST_SID`).
//!
//! Invariant: nothing is exchanged unless the link says the host threads search the same
//! completion (the same variables: `DeviceLink::open`); the kernel does not run while the ring
//! is read or written (slices are synchronous), so every slot read is whole; at most one
//! nogood per `DECISIONS_PER_NOGOOD` decisions the searches made crosses each way
//! (`SHARE_WORDS` words each), so the exchange costs at most 2 · 32 / 256 = 0.25 bytes a
//! decision.

use super::layout::{HOST_SID, SHARE_MAX, SHARE_SLOTS, SHARE_WORDS};
use super::memory::Memory;
use crate::engine::exchange::DeviceLink;
use crate::engine::EngineError;
use crate::lit::Lit;

/// Decisions the searches make for each nogood that may cross, each way.
const DECISIONS_PER_NOGOOD: u32 = 256;
/// Nogoods a slice, each way, at most.
const PER_SLICE: u32 = 4096;

/// The word ranges of `n` slots from slot `first` on (the ring wraps): one or two.
pub fn ring_ranges(first: u32, n: u32) -> Vec<std::ops::Range<usize>> {
    let slots = SHARE_SLOTS as usize;
    let (a, n) = (first as usize % slots, (n as usize).min(slots));
    let w = SHARE_WORDS;
    let mut ranges = Vec::with_capacity(2);
    if a + n <= slots {
        ranges.push(a * w..(a + n) * w);
    } else {
        ranges.push(a * w..slots * w);
        ranges.push(0..(a + n - slots) * w);
    }
    ranges
}

pub struct HostShare {
    link: DeviceLink,
    /// The ring's head as of the last exchange: slots before it were seen.
    seen: u32,
    /// The searches' decisions (`YSM_G_DECIDED`) as of the last exchange, and those not yet
    /// spent on the exchange's budget.
    decided: u32,
    credit: u32,
    num_vars: u32,
}

impl HostShare {
    pub fn new(link: DeviceLink, num_vars: u32) -> HostShare {
        HostShare {
            link,
            seen: 0,
            decided: 0,
            credit: 0,
            num_vars,
        }
    }

    /// After a slice, with the ring's head at `head` and the searches' decisions at
    /// `decided`: pull, then push.
    pub fn after_slice(
        &mut self,
        mem: &mut dyn Memory,
        head: u32,
        decided: u32,
    ) -> Result<(), EngineError> {
        // A count that went back, or a head more than the ring behind: the searches' memory
        // was reset (a looser bound, `Memory::reset`); start over from here.
        let mut new = decided.wrapping_sub(self.decided);
        if new > u32::MAX / 2 {
            new = 0;
        }
        if head.wrapping_sub(self.seen) > SHARE_SLOTS {
            self.seen = head;
        }
        self.decided = decided;
        if !self.link.open() {
            self.seen = head;
            return Ok(());
        }
        self.credit = self.credit.saturating_add(new);
        let budget = (self.credit / DECISIONS_PER_NOGOOD).min(PER_SLICE);
        if budget == 0 {
            // Too few decisions yet: what was written meanwhile is not worth the bytes.
            self.seen = head;
            return Ok(());
        }
        self.credit -= budget * DECISIONS_PER_NOGOOD;
        let take = head.wrapping_sub(self.seen).min(budget);
        if take > 0 {
            let first = head.wrapping_sub(take);
            let words = mem.share_read(first, take)?;
            for (k, slot) in words.chunks(SHARE_WORDS).enumerate() {
                let (hd, seq) = (slot[0], slot[1]);
                let n = (hd & 0xff) as usize;
                if seq != first.wrapping_add(k as u32) || hd >> 8 == HOST_SID || n > SHARE_MAX {
                    continue;
                }
                let lits: Vec<Lit> = slot[2..2 + n].iter().map(|&c| Lit(c)).collect();
                self.link.offer(&lits);
            }
            self.link.flush();
        }
        let mut got = Vec::new();
        self.link.collect(&mut got, SHARE_MAX, budget as usize);
        let mut words = Vec::with_capacity(got.len() * SHARE_WORDS);
        for ng in got.iter().filter(|ng| self.fits(ng)) {
            let seq = head.wrapping_add((words.len() / SHARE_WORDS) as u32);
            let mut slot = [0u32; SHARE_WORDS];
            slot[0] = ng.len() as u32 | HOST_SID << 8;
            slot[1] = seq;
            for (w, l) in slot[2..].iter_mut().zip(ng.iter()) {
                *w = l.0;
            }
            words.extend_from_slice(&slot);
        }
        let n = (words.len() / SHARE_WORDS) as u32;
        self.seen = head.wrapping_add(n);
        if n > 0 {
            mem.share_write(head, &words, self.seen)?;
        }
        Ok(())
    }

    /// A nogood the ring can hold, over this engine's variables.
    fn fits(&self, ng: &[Lit]) -> bool {
        !ng.is_empty() && ng.len() <= SHARE_MAX && ng.iter().all(|l| l.0 >> 1 < self.num_vars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::exchange::{Exchange, Port};
    use crate::engine::gpu::memory::GLOBAL_READ;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, OnceLock};

    #[test]
    fn ring_ranges_wrap_at_the_end() {
        let w = SHARE_WORDS;
        assert_eq!(ring_ranges(3, 2), vec![3 * w..5 * w]);
        let last = SHARE_SLOTS - 1;
        let end = SHARE_SLOTS as usize * w;
        assert_eq!(ring_ranges(last, 3), vec![last as usize * w..end, 0..2 * w]);
        // Absolute slot numbers are taken modulo the ring.
        assert_eq!(ring_ranges(SHARE_SLOTS + 1, 1), vec![w..2 * w]);
    }

    /// The device's sharing ring alone.
    struct Ring {
        words: Vec<u32>,
        head: u32,
    }

    impl Ring {
        fn new() -> Ring {
            Ring {
                words: vec![0; SHARE_SLOTS as usize * SHARE_WORDS],
                head: 0,
            }
        }
        /// A search `sid` shares nogood `lits` (as share.cuh writes it).
        fn write(&mut self, sid: u32, lits: &[u32]) {
            let at = (self.head % SHARE_SLOTS) as usize * SHARE_WORDS;
            self.words[at] = lits.len() as u32 | sid << 8;
            self.words[at + 1] = self.head;
            self.words[at + 2..at + 2 + lits.len()].copy_from_slice(lits);
            self.head += 1;
        }
    }

    impl Memory for Ring {
        fn share_read(&mut self, first: u32, n: u32) -> Result<Vec<u32>, EngineError> {
            Ok(ring_ranges(first, n)
                .into_iter()
                .flat_map(|r| self.words[r].to_vec())
                .collect())
        }
        fn share_write(&mut self, first: u32, w: &[u32], head: u32) -> Result<(), EngineError> {
            let mut at = 0;
            for r in ring_ranges(first, (w.len() / SHARE_WORDS) as u32) {
                let len = r.len();
                self.words[r].copy_from_slice(&w[at..at + len]);
                at += len;
            }
            self.head = head;
            Ok(())
        }
        fn searches(&self) -> usize {
            unimplemented!()
        }
        fn run_slice(&mut self, _: u64) -> Result<(), EngineError> {
            unimplemented!()
        }
        fn global(&mut self) -> Result<[u32; GLOBAL_READ], EngineError> {
            unimplemented!()
        }
        fn clear_global(&mut self) -> Result<(), EngineError> {
            unimplemented!()
        }
        fn statuses(&mut self) -> Result<Vec<u32>, EngineError> {
            unimplemented!()
        }
        fn header_word(&mut self, _: usize, _: usize) -> Result<u32, EngineError> {
            unimplemented!()
        }
        fn set_status(&mut self, _: usize, _: u32) -> Result<(), EngineError> {
            unimplemented!()
        }
        fn model_bits(&mut self, _: usize, _: usize) -> Result<Vec<u32>, EngineError> {
            unimplemented!()
        }
        fn counters(&mut self) -> Result<Vec<u64>, EngineError> {
            unimplemented!()
        }
        fn write_global(&mut self, _: usize, _: &[u32]) -> Result<(), EngineError> {
            unimplemented!()
        }
        fn reset(&mut self, _: &[u32]) -> Result<(), EngineError> {
            unimplemented!()
        }
        fn traffic(&self) -> (u64, u64) {
            (0, 0)
        }
        fn memory_bytes(&self) -> u64 {
            0
        }
    }

    /// A host thread's port and the device's side, the host's completion `host`, the
    /// device's 7; 10 variables.
    fn setup(host: Option<u64>) -> (Port, HostShare, Arc<OnceLock<u64>>, Arc<AtomicBool>) {
        let ex = Exchange::new(2);
        let space = Arc::new(OnceLock::new());
        if let Some(h) = host {
            space.set(h).unwrap();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let link = DeviceLink::new(ex.port(1), space.clone(), 7, stop.clone());
        (ex.port(0), HostShare::new(link, 10), space, stop)
    }

    fn slice(dev: &mut HostShare, ring: &mut Ring, decided: u32) {
        let head = ring.head;
        dev.after_slice(ring, head, decided).unwrap();
    }

    fn drain(port: &mut Port) -> Vec<Vec<u32>> {
        let mut got = Vec::new();
        port.collect(&mut got);
        got.iter()
            .map(|ng| ng.iter().map(|l| l.0).collect())
            .collect()
    }

    #[test]
    fn nogoods_cross_both_ways_within_the_decisions_budget() {
        let (mut host, mut dev, _, _) = setup(Some(7));
        let mut ring = Ring::new();
        ring.write(0, &[2, 5]);
        ring.write(3, &[4, 7, 9]);
        host.offer(&[Lit(6), Lit(8)]);
        host.offer(&[Lit(2); 7]); // too long for a slot
        host.flush();
        slice(&mut dev, &mut ring, 2 * DECISIONS_PER_NOGOOD);
        // Two decisions' worth: the two newest device nogoods out, the short host one in.
        assert_eq!(drain(&mut host), vec![vec![2, 5], vec![4, 7, 9]]);
        assert_eq!(ring.head, 3);
        let at = 2 * SHARE_WORDS;
        assert_eq!(&ring.words[at..at + 4], &[2 | HOST_SID << 8, 2, 6, 8]);
        // The host's own slot does not come back; a budget of one takes the newest only.
        ring.write(1, &[10, 12]);
        ring.write(1, &[14, 16]);
        slice(&mut dev, &mut ring, 3 * DECISIONS_PER_NOGOOD);
        assert_eq!(drain(&mut host), vec![vec![14, 16]]);
        // No decisions, no budget.
        ring.write(1, &[3, 4]);
        slice(&mut dev, &mut ring, 3 * DECISIONS_PER_NOGOOD);
        assert!(drain(&mut host).is_empty());
    }

    #[test]
    fn a_reset_of_the_searches_starts_the_exchange_over() {
        let (mut host, mut dev, _, _) = setup(Some(7));
        let mut ring = Ring::new();
        for v in 1..=3 {
            ring.write(0, &[2 * v, 2 * v + 3]);
        }
        slice(&mut dev, &mut ring, 100 * DECISIONS_PER_NOGOOD);
        assert_eq!(drain(&mut host).len(), 3);
        // The ring and the decisions start from 0 again: no burst, nothing stale.
        let mut ring = Ring::new();
        ring.write(0, &[4, 9]);
        slice(&mut dev, &mut ring, 5);
        assert!(drain(&mut host).is_empty());
        ring.write(0, &[6, 11]);
        slice(&mut dev, &mut ring, 5 + DECISIONS_PER_NOGOOD);
        assert_eq!(drain(&mut host), vec![vec![6, 11]]);
    }

    #[test]
    fn nothing_crosses_between_different_completions_or_after_the_race() {
        for (host, stopped) in [(Some(8), false), (None, false), (Some(7), true)] {
            let (mut port, mut dev, _, stop) = setup(host);
            stop.store(stopped, Ordering::Relaxed);
            let mut ring = Ring::new();
            ring.write(0, &[2, 5]);
            port.offer(&[Lit(6), Lit(8)]);
            port.flush();
            slice(&mut dev, &mut ring, 10 * DECISIONS_PER_NOGOOD);
            assert!(drain(&mut port).is_empty(), "{host:?} {stopped}");
            assert_eq!(ring.head, 1, "{host:?} {stopped}");
        }
    }

    #[test]
    fn the_exchange_opens_when_the_host_completion_is_known_to_match() {
        let (mut port, mut dev, space, _) = setup(None);
        let mut ring = Ring::new();
        ring.write(0, &[2, 5]);
        slice(&mut dev, &mut ring, 10 * DECISIONS_PER_NOGOOD);
        assert!(drain(&mut port).is_empty());
        space.set(7).unwrap();
        ring.write(0, &[4, 9]);
        slice(&mut dev, &mut ring, 20 * DECISIONS_PER_NOGOOD);
        // Only what was written since: the slot before was passed over while closed.
        assert_eq!(drain(&mut port), vec![vec![4, 9]]);
    }
}
