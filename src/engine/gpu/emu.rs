//! The emulation backend of the many-searches engine: the search kernel compiled for the host
//! (`kernels/search/emu.cpp`, by build.rs) runs each search in turn, one lane per search, on
//! memory laid out exactly as on the device. It makes the device engine's search code testable
//! without a GPU (`--engine=emu`, hidden; the differential tests use it).
//!
//! Invariant: every pointer in `prog` and `geo` points into arrays this struct owns and never
//! reallocates; only `ysm_search_host` writes them, one search at a time. A slice runs the
//! searches in turn until its time is spent, from the one after the last a slice ran (from the
//! first after a model), so it outlasts its time by at most one search's overrun however many
//! searches there are (the device runs them all at once). `traffic` counts the bytes the
//! device backend (`cuda.rs`) would move for the same calls, so `--stats` on the emulation
//! shows the bus traffic of the same search.

use super::host_share::ring_ranges;
use super::layout::{g, SCRATCH};
use super::layout::{
    status, GeoParams, Geometry, ProgArrays, ProgParams, CFG_WORDS, C_WORDS, H_WORDS, SHARE_SLOTS,
    SHARE_WORDS,
};
use super::memory::{Memory, GLOBAL_READ};
use crate::engine::EngineError;
use std::time::{Duration, Instant};

extern "C" {
    fn ysm_search_host(p: *const ProgParams, g: *const GeoParams, sid: u32, budget_ns: u64);
}

pub struct EmuMemory {
    _prog: Box<ProgArrays>,
    prog: ProgParams,
    geo: GeoParams,
    base: Vec<u64>,
    hdr: Vec<u32>,
    ctr: Vec<u64>,
    /// The searches' portfolio rows: only held (the kernel reads them through `geo`).
    _cfg_rows: Vec<u32>,
    status: Vec<u32>,
    global: Vec<u32>,
    share: Vec<u32>,
    n: usize,
    /// The search the next slice starts with.
    next: usize,
    to_dev: u64,
    from_dev: u64,
}

fn p<T>(v: &[T]) -> u64 {
    v.as_ptr() as u64
}

impl EmuMemory {
    pub fn new(prog: ProgArrays, geo: &Geometry, cfg: Vec<u32>, global: Vec<u32>) -> EmuMemory {
        let n = cfg.len() / CFG_WORDS;
        let prog = Box::new(prog);
        let a = &*prog;
        let mut pp = ProgParams::counts(a);
        pp.ptrs = [
            p(&a.ng_lits),
            p(&a.ng_off),
            p(&a.socc_off),
            p(&a.socc),
            p(&a.order_static),
            p(&a.vkind),
            p(&a.img_len),
            p(&a.img_head),
            p(&a.img_pool),
            p(&a.scc),
            p(&a.cyc_atoms),
            p(&a.sup_head),
            p(&a.sup_rule),
            p(&a.hsup_off),
            p(&a.hsup),
            p(&a.dep_off),
            p(&a.dep_sup),
            p(&a.dep_w),
            p(&a.rule_body),
            p(&a.rule_body_var),
            p(&a.body_off),
            p(&a.body_items),
            p(&a.body_kind),
            p(&a.sum_off),
            p(&a.sum_lits),
            p(&a.sum_w),
            p(&a.sum_lower),
            p(&a.nsums.off),
            p(&a.nsums.lits),
            p(&a.nsums.w),
            p(&a.nsums.total),
            p(&a.nsums.boff),
            p(&a.nsums.k),
            p(&a.nsums.b),
            p(&a.nsums.occ_off),
            p(&a.nsums.occ_sum),
            p(&a.nsums.occ_role),
        ];
        let base = vec![0u64; (n as u64 * geo.stride).div_ceil(2) as usize];
        let hdr = vec![0u32; n * H_WORDS];
        let ctr = vec![0u64; n * C_WORDS];
        let status = vec![status::INIT; n];
        let share = vec![0u32; SHARE_SLOTS as usize * SHARE_WORDS];
        let mut g = GeoParams::new(geo, n as u32);
        g.base = p(&base);
        g.hdr = p(&hdr);
        g.ctr = p(&ctr);
        g.cfg = p(&cfg);
        g.status = p(&status);
        g.global = p(&global);
        g.share = p(&share);
        EmuMemory {
            _prog: prog,
            prog: pp,
            geo: g,
            base,
            hdr,
            ctr,
            _cfg_rows: cfg,
            status,
            global,
            share,
            n,
            next: 0,
            to_dev: 0,
            from_dev: 0,
        }
    }
}

impl Memory for EmuMemory {
    fn searches(&self) -> usize {
        self.n
    }

    fn run_slice(&mut self, slice_ns: u64) -> Result<(), EngineError> {
        let each = (slice_ns / self.n as u64).max(100_000);
        let end = Instant::now() + Duration::from_nanos(slice_ns);
        for _ in 0..self.n {
            let sid = self.next;
            self.next = (sid + 1) % self.n;
            // SAFETY: prog and geo point into arrays owned by self (see the invariant); the
            // function touches only search `sid`'s memory and the global words (and returns
            // at once for a search that does not run in this slice, as the kernel's warp).
            unsafe { ysm_search_host(&self.prog, &self.geo, sid as u32, each) };
            if self.global[g::STOP] != 0 {
                // A model ends the slice (the host takes it): the next starts from the first
                // search again.
                self.next = 0;
                break;
            }
            if Instant::now() >= end {
                break;
            }
        }
        Ok(())
    }

    fn global(&mut self) -> Result<[u32; GLOBAL_READ], EngineError> {
        let mut w = [0u32; GLOBAL_READ];
        w.copy_from_slice(&self.global[..GLOBAL_READ]);
        self.from_dev += 4 * GLOBAL_READ as u64;
        Ok(w)
    }

    fn clear_global(&mut self) -> Result<(), EngineError> {
        // The words after STOP only grow (the sharing ring's head, the cube counters).
        self.global[..=g::STOP].fill(0);
        self.to_dev += 4 * (g::STOP as u64 + 1);
        Ok(())
    }

    fn statuses(&mut self) -> Result<Vec<u32>, EngineError> {
        self.from_dev += 4 * self.n as u64;
        Ok(self.status[..self.n].to_vec())
    }

    fn header_word(&mut self, sid: usize, w: usize) -> Result<u32, EngineError> {
        self.from_dev += 4;
        Ok(self.hdr[sid * H_WORDS + w])
    }

    fn set_status(&mut self, sid: usize, st: u32) -> Result<(), EngineError> {
        self.hdr[sid * H_WORDS] = st;
        self.status[sid] = st;
        self.to_dev += 8;
        Ok(())
    }

    fn model_bits(&mut self, sid: usize, n: usize) -> Result<Vec<u32>, EngineError> {
        let at = sid as u64 * self.geo.stride + self.geo.o[SCRATCH] as u64;
        // SAFETY: base holds n_searches * stride words; scratch has num_vars + 1 >= n words.
        let words = unsafe {
            std::slice::from_raw_parts((self.base.as_ptr() as *const u32).add(at as usize), n)
        };
        self.from_dev += 4 * n as u64;
        Ok(words.to_vec())
    }

    fn counters(&mut self) -> Result<Vec<u64>, EngineError> {
        self.from_dev += 8 * self.ctr.len() as u64;
        Ok(self.ctr.clone())
    }

    fn share_read(&mut self, first: u32, n: u32) -> Result<Vec<u32>, EngineError> {
        let mut v = Vec::new();
        for r in ring_ranges(first, n) {
            v.extend_from_slice(&self.share[r]);
        }
        self.from_dev += 4 * v.len() as u64;
        Ok(v)
    }

    fn share_write(&mut self, first: u32, words: &[u32], head: u32) -> Result<(), EngineError> {
        let mut at = 0;
        for r in ring_ranges(first, (words.len() / SHARE_WORDS) as u32) {
            let len = r.len();
            self.share[r].copy_from_slice(&words[at..at + len]);
            at += len;
        }
        self.global[g::SHARE_HEAD] = head;
        self.to_dev += 4 * (words.len() as u64 + 1);
        Ok(())
    }

    fn write_global(&mut self, at: usize, words: &[u32]) -> Result<(), EngineError> {
        self.global[at..at + words.len()].copy_from_slice(words);
        Ok(())
    }

    fn reset(&mut self, global: &[u32]) -> Result<(), EngineError> {
        // In place: the pointers in `geo` stay valid.
        self.base.fill(0);
        self.hdr.fill(0);
        self.status.fill(status::INIT);
        self.share.fill(0);
        self.global.copy_from_slice(global);
        Ok(())
    }

    fn traffic(&self) -> (u64, u64) {
        (self.to_dev, self.from_dev)
    }

    fn memory_bytes(&self) -> u64 {
        8 * self.base.len() as u64
    }
}
