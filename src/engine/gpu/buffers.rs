//! Device memory of the engine: the input nogoods (uploaded once, unchanged), the rules for
//! decisions, the data of the unfounded-set check (`ufs.rs`; non-tight programs), the search
//! state, and the growable learned-nogood store.
//!
//! The learned store is partitioned by size like the input: a short partition (binary and
//! ternary nogoods at fixed stride, with per-literal occurrence lists; fixed capacity, never
//! deleted) and the long CSR store with watches, which also takes short nogoods once the short
//! partition is full.
//!
//! Invariant: [`Buffers::params`] always describes the buffers currently allocated (it is
//! rebuilt after the learned store grows), and the long learned store keeps room for one more
//! nogood of `num_vars` literals before every analysis ([`Buffers::reserve_learned`]).

use cudarc::driver::{CudaSlice, CudaStream, DevicePtr, DeviceRepr, ValidAsZeroBits};
use std::sync::Arc;

use super::device::engine_error;
use super::layout::{self, st, DevParams};
use super::ufs::UfsArrays;
use crate::engine::Heuristic;
use crate::engine::{DeviceOptions, EngineError};
use crate::ground::{BodyDef, GroundProgram};
use crate::lit::Lit;
use crate::nogoods::Completion;

/// Host-side arrays derived from the program for the decision kernel.
struct RuleArrays {
    body_var: Vec<u32>,
    body: Vec<u32>,
    head_off: Vec<u32>,
    heads: Vec<u32>,
    body_off: Vec<u32>,
    body_items: Vec<u32>,
    body_kind: Vec<u32>,
}

fn rule_arrays(g: &GroundProgram, c: &Completion) -> RuleArrays {
    let mut r = RuleArrays {
        body_var: Vec::with_capacity(g.rules.len()),
        body: Vec::with_capacity(g.rules.len()),
        head_off: vec![0],
        heads: Vec::new(),
        body_off: vec![0],
        body_items: Vec::new(),
        body_kind: Vec::with_capacity(g.bodies.len()),
    };
    for rule in &g.rules {
        r.body_var.push(c.body_var[rule.body as usize]);
        r.body.push(rule.body);
        r.heads.extend_from_slice(&rule.head);
        r.head_off.push(r.heads.len() as u32);
    }
    for b in &g.bodies {
        match b {
            BodyDef::Conj { pos, neg } => {
                r.body_kind.push(layout::BODY_CONJ);
                r.body_items.extend(pos.iter().map(|&p| Lit::t(p).code()));
                r.body_items.extend(neg.iter().map(|&q| Lit::f(q).code()));
            }
            BodyDef::Sum { .. } => r.body_kind.push(layout::BODY_SUM),
        }
        r.body_off.push(r.body_items.len() as u32);
    }
    r
}

/// Static score of each literal code: occurrences in the input nogoods (occ), or the
/// Jeroslow-Wang sum of 2^-length over them (jw; also the tie-breaker under activity).
fn literal_scores(c: &Completion, h: Heuristic) -> Vec<f32> {
    let db = &c.db;
    let n = 2 * db.num_vars as usize;
    let mut s = vec![0f32; n];
    for (l, score) in s.iter_mut().enumerate() {
        for &id in db.occurrences(Lit(l as u32)) {
            let len = db.offsets[id as usize + 1] - db.offsets[id as usize];
            *score += match h {
                Heuristic::Occ => 1.0,
                Heuristic::Jw | Heuristic::Activity | Heuristic::Domain => {
                    (-(len.min(60) as i32) as f32).exp2()
                }
            };
        }
    }
    s
}

/// Literal -> input nogoods of length 2 or 3 (CSR), and the initial watches of the longer ones:
/// slots 0 and 1 watch the first two distinct literals; `head` per literal, `next` per node
/// (2 * id + slot), `NONE` ends a list.
struct InputWatches {
    socc_off: Vec<u32>,
    socc: Vec<u32>,
    watch: Vec<u64>,
    next: Vec<u32>,
    head: Vec<u32>,
}

fn input_watches(c: &Completion) -> InputWatches {
    let db = &c.db;
    let nl = 2 * db.num_vars as usize;
    let (short_lo, long_lo) = (db.bounds[0], db.bounds[2]);
    let mut w = InputWatches {
        socc_off: Vec::with_capacity(nl + 1),
        socc: Vec::new(),
        watch: vec![0; db.len()],
        next: vec![layout::NONE; 2 * db.len()],
        head: vec![layout::NONE; nl],
    };
    w.socc_off.push(0);
    for l in 0..nl {
        let occ = db.occurrences(Lit(l as u32));
        w.socc
            .extend(occ.iter().filter(|&&id| id >= short_lo && id < long_lo));
        w.socc_off.push(w.socc.len() as u32);
    }
    for id in long_lo as usize..db.len() {
        let lits = db.nogood(id);
        let a = lits[0];
        let b = lits.iter().copied().find(|&x| x != a).unwrap_or(a);
        w.watch[id] = ((b as u64) << 32) | a as u64;
        for (slot, l) in [(0usize, a), (1, b)] {
            w.next[2 * id + slot] = w.head[l as usize];
            w.head[l as usize] = (2 * id + slot) as u32;
        }
    }
    w
}

/// Learned-nogood watch lists rebuilt from the watch pairs (after compaction); a pair of
/// `u64::MAX` (a nogood of one literal) joins no list.
pub fn learned_lists(watch: &[u64], num_lits: usize) -> (Vec<u32>, Vec<u32>) {
    let mut head = vec![layout::NONE; num_lits];
    let mut next = vec![layout::NONE; 2 * watch.len()];
    for (j, &w) in watch.iter().enumerate() {
        if w == u64::MAX {
            continue;
        }
        for (slot, l) in [(0usize, w as u32), (1, (w >> 32) as u32)] {
            next[2 * j + slot] = head[l as usize];
            head[l as usize] = (2 * j + slot) as u32;
        }
    }
    (head, next)
}

/// Bytes of device memory by purpose (see [`Buffers::memory`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceMemory {
    /// The input nogoods: literals, offsets, occurrence lists and their watch structures.
    pub nogoods: u64,
    /// The learned-nogood store at its current capacity, with its watches.
    pub learned: u64,
    /// Rules and bodies (decisions, complete-assignment, the unfounded-set check).
    pub rules: u64,
    /// Per-variable search state: assignment, reasons, dependency bitmaps, frontiers, scores.
    pub state: u64,
}

impl DeviceMemory {
    pub fn total(&self) -> u64 {
        self.nogoods + self.learned + self.rules + self.state
    }
}

pub struct Buffers {
    stream: Arc<CudaStream>,
    pub reason: CudaSlice<u32>,
    pub lwatch: CudaSlice<u64>,
    pub lnext: CudaSlice<u32>,
    pub lhead: CudaSlice<u32>,
    _iw: (
        CudaSlice<u32>,
        CudaSlice<u32>,
        CudaSlice<u64>,
        CudaSlice<u32>,
        CudaSlice<u32>,
    ),
    pub st: CudaSlice<u32>,
    pub ctr: CudaSlice<u64>,
    pub a: CudaSlice<i32>,
    pub inject: CudaSlice<u32>,
    pub l_lits: CudaSlice<u32>,
    pub l_off: CudaSlice<u32>,
    /// The short learned partition: lb_lits, lb_next, lb_head, lt_lits, lt_next, lt_head.
    _short: Vec<CudaSlice<u32>>,
    // Held for their device memory; only their pointers are used (through `params`).
    _fixed: Vec<CudaSlice<u32>>,
    _deps: CudaSlice<u64>,
    _floats: Vec<CudaSlice<f32>>,
    _ufs: (Vec<CudaSlice<u32>>, Vec<CudaSlice<i64>>),
    params: DevParams,
    /// The program is not tight: `ufs_check_k` has data to work on.
    pub ufs_active: bool,
    /// Bytes uploaded before the search (not counted in Stats).
    pub setup_bytes: u64,
}

fn ptr<T>(s: &CudaSlice<T>, stream: &CudaStream) -> u64 {
    let (p, _sync) = s.device_ptr(stream);
    p
}

fn upload<T: DeviceRepr + ValidAsZeroBits + Clone>(
    stream: &Arc<CudaStream>,
    data: &[T],
    bytes: &mut u64,
) -> Result<CudaSlice<T>, EngineError> {
    *bytes += std::mem::size_of_val(data) as u64;
    if data.is_empty() {
        // Zero-length allocations are not portable; one zeroed element stands in.
        return stream
            .alloc_zeros::<T>(1)
            .map_err(|e| engine_error("allocating device memory", e));
    }
    stream
        .clone_htod(data)
        .map_err(|e| engine_error("uploading to the GPU", e))
}

fn zeros<T: DeviceRepr + ValidAsZeroBits>(
    stream: &Arc<CudaStream>,
    n: usize,
) -> Result<CudaSlice<T>, EngineError> {
    stream
        .alloc_zeros::<T>(n.max(1))
        .map_err(|e| engine_error("allocating device memory", e))
}

impl Buffers {
    pub fn new(
        stream: Arc<CudaStream>,
        g: &GroundProgram,
        c: &Completion,
        opts: &DeviceOptions,
    ) -> Result<Buffers, EngineError> {
        let db = &c.db;
        let nv = db.num_vars as usize;
        let mut bytes = 0u64;
        let s = &stream;
        let r = rule_arrays(g, c);

        let mut st_host = vec![0u32; st::WORDS];
        st_host[st::CDL] = 1;
        st_host[st::CONFLICT] = layout::NONE;
        st_host[st::ACT_INC] = 1.0f32.to_bits();
        let st_buf = upload(s, &st_host, &mut bytes)?;
        let ctr = zeros::<u64>(s, layout::ctr::WORDS)?;
        let a = zeros::<i32>(s, nv)?;
        let inject = zeros::<u32>(s, nv + 1)?;
        let l_cap_lits = (4 * nv).max(1 << 16);
        let l_cap_ng = 1 << 14;
        let l_lits = zeros::<u32>(s, l_cap_lits)?;
        let l_off = zeros::<u32>(s, l_cap_ng + 1)?;
        let lwatch = zeros::<u64>(s, l_cap_ng)?;
        let lnext = zeros::<u32>(s, 2 * l_cap_ng)?;
        let lhead = upload(s, &vec![layout::NONE; 2 * nv], &mut bytes)?;
        let reason = zeros::<u32>(s, nv)?;
        if db.len() as u64 + l_cap_ng as u64 >= layout::ID_LBIN as u64 {
            return Err(EngineError::OutOfMemory(
                "too many nogoods for 31-bit nogood ids".into(),
            ));
        }
        // Short learned partition: about one binary and one ternary per variable, at most 2^20
        // each (16 and 24 bytes apiece with their list nodes); learning spills into the long
        // store beyond that.
        let short_cap = nv.clamp(1 << 12, 1 << 20);
        let none_heads = vec![layout::NONE; 2 * nv];
        let short: Vec<CudaSlice<u32>> = vec![
            zeros(s, 2 * short_cap)?,            // lb_lits
            zeros(s, 2 * short_cap)?,            // lb_next
            upload(s, &none_heads, &mut bytes)?, // lb_head
            zeros(s, 3 * short_cap)?,            // lt_lits
            zeros(s, 3 * short_cap)?,            // lt_next
            upload(s, &none_heads, &mut bytes)?, // lt_head
        ];
        let iw = input_watches(c);
        let iw_dev = (
            upload(s, &iw.socc_off, &mut bytes)?,
            upload(s, &iw.socc, &mut bytes)?,
            upload(s, &iw.watch, &mut bytes)?,
            upload(s, &iw.next, &mut bytes)?,
            upload(s, &iw.head, &mut bytes)?,
        );

        // Order matters: the indices below name these buffers.
        let fixed: Vec<CudaSlice<u32>> = vec![
            upload(s, &db.lits, &mut bytes)?,        // 0 ng_lits
            upload(s, &db.offsets, &mut bytes)?,     // 1 ng_off
            upload(s, &db.occ_offsets, &mut bytes)?, // 2 occ_off
            upload(s, &db.occ, &mut bytes)?,         // 3 occ
            zeros(s, 1)?,                            // 4 (unused: reason is its own field)
            zeros(s, nv)?,                           // 5 stamp
            zeros(s, nv)?,                           // 6 ready
            zeros(s, nv + 1)?,                       // 7 front0
            zeros(s, nv + 1)?,                       // 8 front1
            zeros(s, nv + 2)?,                       // 9 dec_lit
            zeros(s, nv + 1)?,                       // 10 delta
            zeros(s, nv)?,                           // 11 mark
            upload(s, &r.body_var, &mut bytes)?,     // 12
            upload(s, &r.body, &mut bytes)?,         // 13
            upload(s, &r.head_off, &mut bytes)?,     // 14
            upload(s, &r.heads, &mut bytes)?,        // 15
            upload(s, &r.body_off, &mut bytes)?,     // 16
            upload(s, &r.body_items, &mut bytes)?,   // 17
            upload(s, &r.body_kind, &mut bytes)?,    // 18
        ];
        let deps = zeros::<u64>(s, nv * layout::DEPS_WORDS)?;
        let floats = vec![
            upload(s, &literal_scores(c, opts.heuristic), &mut bytes)?,
            zeros::<f32>(s, nv)?,
        ];
        let u = UfsArrays::new(g);
        let ufs_active = u.active();
        let na = if ufs_active {
            g.num_atoms as usize + 1
        } else {
            1
        };
        // Order matters: the indices below name these buffers.
        let ufs32: Vec<CudaSlice<u32>> = vec![
            zeros(s, na)?,                              // 0 founded
            zeros(s, na)?,                              // 1 part
            zeros(s, if ufs_active { nv } else { 1 })?, // 2 mark
            upload(s, &u.scc, &mut bytes)?,             // 3
            upload(s, &u.cyc_atoms, &mut bytes)?,       // 4
            upload(s, &u.sup_head, &mut bytes)?,        // 5
            upload(s, &u.sup_rule, &mut bytes)?,        // 6
            upload(s, &u.sum_off, &mut bytes)?,         // 7
            upload(s, &u.sum_lits, &mut bytes)?,        // 8
        ];
        let ufs64: Vec<CudaSlice<i64>> = vec![
            upload(s, &u.sum_w, &mut bytes)?,
            upload(s, &u.sum_lower, &mut bytes)?,
        ];
        let uf = |i: usize| ptr(&ufs32[i], s);
        let f = |i: usize| ptr(&fixed[i], s);
        let params = DevParams {
            st: ptr(&st_buf, s),
            ctr: ptr(&ctr, s),
            ng_lits: f(0),
            ng_off: f(1),
            occ_off: f(2),
            occ: f(3),
            a: ptr(&a, s),
            reason: ptr(&reason, s),
            stamp: f(5),
            deps: ptr(&deps, s),
            ready: f(6),
            front0: f(7),
            front1: f(8),
            dec_lit: f(9),
            l_lits: ptr(&l_lits, s),
            l_off: ptr(&l_off, s),
            delta: f(10),
            mark: f(11),
            inject: ptr(&inject, s),
            rule_body_var: f(12),
            rule_body: f(13),
            rule_head_off: f(14),
            rule_heads: f(15),
            body_off: f(16),
            body_items: f(17),
            body_kind: f(18),
            lit_score: ptr(&floats[0], s),
            act: ptr(&floats[1], s),
            socc_off: ptr(&iw_dev.0, s),
            socc: ptr(&iw_dev.1, s),
            iwatch: ptr(&iw_dev.2, s),
            inext: ptr(&iw_dev.3, s),
            ihead: ptr(&iw_dev.4, s),
            lwatch: ptr(&lwatch, s),
            lnext: ptr(&lnext, s),
            lhead: ptr(&lhead, s),
            lb_lits: ptr(&short[0], s),
            lb_next: ptr(&short[1], s),
            lb_head: ptr(&short[2], s),
            lt_lits: ptr(&short[3], s),
            lt_next: ptr(&short[4], s),
            lt_head: ptr(&short[5], s),
            ufs_founded: uf(0),
            ufs_part: uf(1),
            ufs_mark: uf(2),
            scc: uf(3),
            cyc_atoms: uf(4),
            sup_head: uf(5),
            sup_rule: uf(6),
            sum_off: uf(7),
            sum_lits: uf(8),
            sum_w: ptr(&ufs64[0], s),
            sum_lower: ptr(&ufs64[1], s),
            n_input: db.len() as u32,
            n_units: db.bounds[0],
            num_vars: db.num_vars,
            num_atoms: g.num_atoms,
            l_cap_lits: l_cap_lits as u32,
            l_cap_ng: l_cap_ng as u32,
            n_rules: g.rules.len() as u32,
            heuristic: match opts.heuristic {
                Heuristic::Occ => 0,
                Heuristic::Jw => 1,
                Heuristic::Activity | Heuristic::Domain => 2,
            },
            fwd: (opts.learning == crate::engine::Learning::Fwd) as u32,
            seed: (opts.seed as u32) ^ ((opts.seed >> 32) as u32),
            n_cyc: u.cyc_atoms.len() as u32,
            n_sup: u.sup_head.len() as u32,
            lb_cap: short_cap as u32,
            lt_cap: short_cap as u32,
        };
        Ok(Buffers {
            stream,
            reason,
            lwatch,
            lnext,
            lhead,
            _iw: iw_dev,
            st: st_buf,
            ctr,
            a,
            inject,
            l_lits,
            l_off,
            _short: short,
            _fixed: fixed,
            _deps: deps,
            _floats: floats,
            _ufs: (ufs32, ufs64),
            params,
            ufs_active,
            setup_bytes: bytes,
        })
    }

    pub fn stream(&self) -> &Arc<CudaStream> {
        &self.stream
    }

    pub fn params(&self) -> DevParams {
        self.params
    }

    /// Device memory held by the buffers now, by what it holds (allocated sizes, counted from
    /// the buffers themselves; the driver's own overhead is not included).
    pub fn memory(&self) -> DeviceMemory {
        fn b<T>(x: &CudaSlice<T>) -> u64 {
            x.num_bytes() as u64
        }
        let fixed = |r: std::ops::Range<usize>| self._fixed[r].iter().map(b).sum::<u64>();
        let iw = &self._iw;
        let nogoods = fixed(0..4) + b(&iw.0) + b(&iw.1) + b(&iw.2) + b(&iw.3) + b(&iw.4);
        let learned = b(&self.l_lits)
            + b(&self.l_off)
            + b(&self.lwatch)
            + b(&self.lnext)
            + self._short.iter().map(b).sum::<u64>();
        // Rules and bodies, and the unfounded-set check's per-rule data (`ufs.rs`).
        let rules = fixed(12..self._fixed.len())
            + self._ufs.0.iter().map(b).sum::<u64>()
            + self._ufs.1.iter().map(b).sum::<u64>();
        let state = fixed(4..12)
            + b(&self.reason)
            + b(&self.lhead)
            + b(&self.st)
            + b(&self.ctr)
            + b(&self.a)
            + b(&self.inject)
            + b(&self._deps)
            + self._floats.iter().map(b).sum::<u64>();
        DeviceMemory {
            nogoods,
            learned,
            rules,
            state,
        }
    }

    /// Make room for one more learned nogood of up to `num_vars` literals, given how much of
    /// the store is used (from the state words). Grows by doubling, copying on the device.
    pub fn reserve_learned(&mut self, used_lits: u32, count: u32) -> Result<(), EngineError> {
        let p = &mut self.params;
        let need_lits = used_lits as u64 + p.num_vars as u64 + 1;
        let need_ng = count as u64 + 2;
        if need_lits <= p.l_cap_lits as u64 && need_ng <= p.l_cap_ng as u64 {
            return Ok(());
        }
        let too_big =
            || EngineError::OutOfMemory("the learned-nogood store outgrew 32-bit offsets".into());
        let new_lits = (p.l_cap_lits as u64 * 2).max(need_lits);
        let new_ng = (p.l_cap_ng as u64 * 2).max(need_ng);
        if new_lits > u32::MAX as u64 / 2 || p.n_input as u64 + new_ng >= layout::ID_LBIN as u64 {
            return Err(too_big());
        }
        let s = &self.stream;
        let mut lits = zeros::<u32>(s, new_lits as usize)?;
        let mut off = zeros::<u32>(s, new_ng as usize + 1)?;
        if used_lits > 0 {
            s.memcpy_dtod(
                &self.l_lits.slice(..used_lits as usize),
                &mut lits.slice_mut(..used_lits as usize),
            )
            .map_err(|e| engine_error("growing the learned store", e))?;
        }
        s.memcpy_dtod(
            &self.l_off.slice(..count as usize + 1),
            &mut off.slice_mut(..count as usize + 1),
        )
        .map_err(|e| engine_error("growing the learned store", e))?;
        let mut lwatch = zeros::<u64>(s, new_ng as usize)?;
        let mut lnext = zeros::<u32>(s, 2 * new_ng as usize)?;
        if count > 0 {
            let c = count as usize;
            s.memcpy_dtod(&self.lwatch.slice(..c), &mut lwatch.slice_mut(..c))
                .map_err(|e| engine_error("growing the learned store", e))?;
            s.memcpy_dtod(&self.lnext.slice(..2 * c), &mut lnext.slice_mut(..2 * c))
                .map_err(|e| engine_error("growing the learned store", e))?;
        }
        p.lwatch = ptr(&lwatch, s);
        p.lnext = ptr(&lnext, s);
        self.lwatch = lwatch;
        self.lnext = lnext;
        p.l_lits = ptr(&lits, s);
        p.l_off = ptr(&off, s);
        p.l_cap_lits = new_lits as u32;
        p.l_cap_ng = new_ng as u32;
        self.l_lits = lits;
        self.l_off = off;
        Ok(())
    }
}
