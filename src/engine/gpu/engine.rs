//! The many-searches device engine: hundreds of complete CDNL searches at once, one per warp,
//! each with its own state in device memory and its row of the portfolio (`search_rows.rs`),
//! sharing the read-only program (`layout.rs`). The host launches `search_k`
//! (`kernels/search/search.cu`) once per time slice and between slices reads a few words: how
//! many searches hold a model, how many ended. Only models cross the bus.
//!
//! Invariant: a model is returned once (the host keeps every model returned and drops repeats:
//! each search enumerates on its own; a looser bound restarts every search, and the models
//! since are counted afresh); the program is exhausted when any search has exhausted its space,
//! or every cube of the split (`split.rs`) is refuted or enumerated, since every model they
//! passed over was returned before. A search that found a model waits (status MODEL) until the
//! host takes it — only when the caller asks for the next model, so with `-n 1` one model
//! crosses the bus however many searches found one — then flips its last decision and runs on
//! (enumeration by backtracking, `kernels/search/enumerate.cuh`: no nogood of a model is
//! stored, so any number of models fits in a search's fixed learned store). With an objective
//! (`ManyEngine::optimising`) every search keeps the bound of branch and bound
//! (`kernels/search/objective.cuh`, the host side in `branch_bound.rs`),
//! and a model is returned only if its costs are within the bound set last.

use std::collections::{HashSet, VecDeque};
use std::time::{Duration, Instant};

use super::branch_bound::{BranchBound, Change};
use super::emu::EmuMemory;
use super::host_share::HostShare;
use super::layout::{c, g, h, status, Geometry, ProgArrays, C_WORDS};
use super::memory::Memory;
use super::{search_rows, split};
use crate::analyse::GroundProgram;
use crate::engine::exchange::DeviceLink;
use crate::engine::stats::GpuTime;
use crate::engine::{Bound, DeviceOptions, Engine, EngineError, Limits, Model, Stats, Step};
use crate::nogoods::Completion;

/// Where the searches run: on the GPU, or (tests, machines without one) emulated on the host.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Device,
    Emulated,
}

/// The first slice; each later one is twice as long, up to [`MAX_SLICE`].
const FIRST_SLICE: Duration = Duration::from_millis(2);
const MAX_SLICE: Duration = Duration::from_millis(100);
/// Searches under the emulation unless `--gpu-searches` says otherwise.
const EMULATED_SEARCHES: usize = 4;
/// The searches' counters (8 bytes each, `C_WORDS` per search) cross the bus at most this
/// often while models come or progress is shown, and when a call ends without a model.
const COUNTERS_EVERY: Duration = Duration::from_millis(250);
/// Words of the learned arena per search before the program's size raises it:
/// `DeviceOptions::arena_words`'s default (`--gpu-arena-words`).
pub const ARENA_WORDS: u32 = 1 << 19;

pub struct ManyEngine {
    mem: Box<dyn Memory + Send>,
    /// The input's atoms, those a model reports (`GroundProgram::input_atoms`; the auxiliary
    /// atoms after them are a function of these, so models distinct on all atoms are distinct
    /// on these).
    input_atoms: u32,
    /// Searches holding a model the host has not taken yet.
    pending: VecDeque<usize>,
    seen: HashSet<Vec<u32>>,
    exhausted: bool,
    /// Cubes to refute (0: no splitting).
    cubes: u32,
    stats: Stats,
    slice: Duration,
    /// When the counters were last read (`None`: never).
    counters_read: Option<Instant>,
    /// Bytes of the counter read made where the search stopped (at an answer, the end or a
    /// limit), while it has not gone on since: `Stats::bytes_from_device` is traffic during
    /// search and leaves them out.
    stop_read: u64,
    /// Sharing with a portfolio's host threads (`--engine=auto`).
    host: Option<HostShare>,
    num_vars: u32,
    /// Optimisation: the bound and the costs (`branch_bound.rs`); `None` without an objective.
    opt: Option<BranchBound>,
    /// The global words as at the start (for [`Memory::reset`]).
    global_init: Vec<u32>,
    /// The completion has the empty nogood.
    trivially_unsat: bool,
    /// The portfolio rows and global words for a number of searches.
    layout: Layout,
    /// Under assumptions (`ManyEngine::assuming`): the list's epoch, and the core the last
    /// search ended with (`kernels/search/assume.cuh`).
    asm_epoch: u32,
    core: Option<Vec<crate::lit::Lit>>,
}

/// Counter `k` (`c::*`) summed over the searches' counters `ctr` (`C_WORDS` each).
fn column(ctr: &[u64], k: usize) -> u64 {
    ctr.chunks(C_WORDS).map(|w| w[k]).sum()
}

/// What the portfolio rows and the cubes of `n` searches follow from.
struct Layout {
    opts: DeviceOptions,
    /// The variables cubes may split on, best first (`split::candidates`).
    candidates: Vec<u32>,
    /// Room for this many assumptions after the fixed global words (0: none taken).
    assume_cap: usize,
}

impl Layout {
    fn bits(&self, n: usize) -> usize {
        split::bits(n, self.opts.cubes, self.candidates.len()) as usize
    }
    /// The portfolio rows of `n` searches and the global words at their start.
    fn at(&self, n: usize) -> (Vec<u32>, Vec<u32>) {
        let o = &self.opts;
        let k = self.bits(n);
        let mut global = split::global_words(&self.candidates[..k], o.split);
        global.resize(g::WORDS + self.assume_cap, 0);
        (
            search_rows::configure(n, o.learning, o.heuristic, o.decide, o.seed, k > 0),
            global,
        )
    }
    fn cubes(&self, n: usize) -> u32 {
        match self.bits(n) {
            0 => 0,
            k => 1u32 << k,
        }
    }
}

impl ManyEngine {
    /// The engine for a decision problem (an objective of `g` is not looked at).
    pub fn new(
        g: &GroundProgram,
        c: &Completion,
        opts: DeviceOptions,
        backend: Backend,
    ) -> Result<ManyEngine, EngineError> {
        Self::build(g, c, opts, backend, false, false)
    }

    /// The engine for core-guided optimisation (`wrap/oll.rs`): every search under the
    /// assumptions of [`Engine::assume`], no cubes; `g`'s objective gives a model's costs
    /// ([`Engine::costs`]) and bounds nothing.
    pub fn assuming(
        g: &GroundProgram,
        c: &Completion,
        opts: DeviceOptions,
        backend: Backend,
    ) -> Result<ManyEngine, EngineError> {
        let opts = DeviceOptions {
            cubes: Some(0),
            ..opts
        };
        Self::build(g, c, opts, backend, !g.objective.is_empty(), true)
    }

    /// The engine for optimisation: `g`'s objective bounded in every search
    /// ([`Engine::set_bound`]). Unsupported when its levels do not fit one 64-bit sum.
    pub fn optimising(
        g: &GroundProgram,
        c: &Completion,
        opts: DeviceOptions,
        backend: Backend,
    ) -> Result<ManyEngine, EngineError> {
        Self::build(g, c, opts, backend, !g.objective.is_empty(), false)
    }

    fn build(
        g: &GroundProgram,
        c: &Completion,
        opts: DeviceOptions,
        backend: Backend,
        optimise: bool,
        assume: bool,
    ) -> Result<ManyEngine, EngineError> {
        let t0 = Instant::now();
        let opt = match optimise {
            true => Some(BranchBound::new(&g.objective).map_err(EngineError::Unsupported)?),
            false => None,
        };
        let prog = ProgArrays::new(g, c, opt.as_ref().map(|o| o.lits()), opts.heuristic)
            .map_err(EngineError::OutOfMemory)?;
        let fwd = opts.learning == crate::engine::Learning::Fwd;
        let geo = Geometry::new(&prog, opts.arena_words, fwd).map_err(EngineError::OutOfMemory)?;
        let requested = opts.searches.map(|n| n as usize);
        let layout = Layout {
            opts,
            candidates: split::candidates(&prog),
            // As many as `scratch` holds of a core (the whole list, at most).
            assume_cap: if assume {
                c.db.num_vars as usize + 1
            } else {
                0
            },
        };
        let setup = |n: usize| layout.at(n);
        let mut stats = Stats {
            gpu_bytes_per_search: geo.bytes_per_search(),
            gpu_native_sums: prog.nsums.native() as u64,
            ..Stats::default()
        };
        stats.device_mem.nogoods = prog.bytes();
        let mut mem: Box<dyn Memory + Send> = match backend {
            Backend::Emulated => {
                let n = requested.unwrap_or(EMULATED_SEARCHES).max(1);
                let (cfg, global) = setup(n);
                stats.kernel_image = "host emulation";
                Box::new(EmuMemory::new(prog, &geo, cfg, global))
            }
            Backend::Device => {
                let m = super::cuda::CudaMemory::open(
                    prog,
                    &geo,
                    requested,
                    opts.room as usize,
                    opts.own_stream,
                    opts.gpu,
                    setup,
                )?;
                stats.kernel_image = m.image_origin;
                stats.gpu_setup = m.setup;
                Box::new(m)
            }
        };
        stats.device_setup_time = t0.elapsed();
        stats.gpu_searches = mem.searches() as u64;
        let cubes = layout.cubes(mem.searches());
        stats.gpu_cubes = u64::from(cubes);
        stats.gpu_portfolio = search_rows::describe(mem.searches(), opts.heuristic);
        stats.device_mem.state = mem.memory_bytes();
        let mut global_init = setup(mem.searches()).1;
        if let Some(o) = &opt {
            // No bound yet: k above every cost.
            let w = o.words();
            global_init[g::OBJ_K..g::OBJ_K + w.len()].copy_from_slice(&w);
            mem.write_global(g::OBJ_K, &w)?;
        }
        Ok(ManyEngine {
            mem,
            input_atoms: g.input_atoms(),
            pending: VecDeque::new(),
            seen: HashSet::new(),
            exhausted: c.db.has_empty,
            cubes,
            stats,
            slice: FIRST_SLICE,
            counters_read: None,
            stop_read: 0,
            host: None,
            num_vars: c.db.num_vars,
            opt,
            global_init,
            trivially_unsat: c.db.has_empty,
            layout,
            asm_epoch: 0,
            core: None,
        })
    }

    /// `--solve-limit` (`DeviceOptions::limit`): whether one search has had its conflicts or
    /// restarts (each search counts its own, as each of clasp's threads). Looked at between
    /// slices, so the searches may pass it by up to a slice; the counters are read for it only
    /// when there is a limit.
    fn limit_reached(&mut self) -> Result<bool, EngineError> {
        let limit = self.layout.opts.limit;
        if limit.is_none() {
            return Ok(false);
        }
        let ctr = self.mem.counters()?;
        Ok(ctr
            .chunks(C_WORDS)
            .any(|w| limit.reached(w[c::CONFLICTS], w[c::RESTARTS])))
    }

    /// Take bound `b` (see [`Engine::set_bound`] and `branch_bound.rs`).
    fn bound(&mut self, b: &Bound) -> Result<(), EngineError> {
        let Some(o) = self.opt.as_mut() else {
            return Ok(());
        };
        let change = o.set(b);
        let w = o.words();
        match change {
            Change::Same => {}
            Change::Tighter => {
                self.mem.write_global(g::OBJ_K, &w)?;
                self.stats.gpu_bound_updates += 1;
            }
            Change::Looser => {
                let mut global = self.global_init.clone();
                global[g::OBJ_K..g::OBJ_K + w.len()].copy_from_slice(&w);
                self.mem.reset(&global)?;
                self.pending.clear();
                self.seen.clear();
                self.exhausted = self.trivially_unsat;
                self.slice = FIRST_SLICE;
                self.stats.gpu_bound_resets += 1;
            }
        }
        Ok(())
    }

    /// Take the models waiting and note the searches that ended.
    fn collect(&mut self) -> Result<(), EngineError> {
        let sts = self.mem.statuses()?;
        let mut unsat = false;
        for (sid, &st) in sts.iter().enumerate() {
            match st {
                status::MODEL if !self.pending.contains(&sid) => self.pending.push_back(sid),
                status::UNSAT => unsat = true,
                status::CORE if self.core.is_none() => {
                    // Of this list (a search holding an older one's starts over first).
                    if self.mem.header_word(sid, h::ASM_EPOCH)? == self.asm_epoch {
                        let n = self.mem.header_word(sid, h::LEN)? as usize;
                        let words = self.mem.model_bits(sid, n)?;
                        self.core = Some(words.into_iter().map(crate::lit::Lit).collect());
                    }
                }
                status::ERROR => {
                    let e = self.mem.header_word(sid, h::ERR)?;
                    return Err(EngineError::Device(format!(
                        "internal error in device search {sid} (code {e}); please report it with the input"
                    )));
                }
                _ => {}
            }
        }
        self.mem.clear_global()?;
        if unsat {
            self.exhausted = true;
        }
        Ok(())
    }

    fn search(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        loop {
            while let Some(sid) = self.pending.pop_front() {
                let bits = self
                    .mem
                    .model_bits(sid, (self.input_atoms as usize + 32) / 32)?;
                self.mem.set_status(sid, status::BLOCK)?;
                let atoms: Vec<u32> = (1..=self.input_atoms)
                    .filter(|&v| bits[v as usize / 32] >> (v % 32) & 1 == 1)
                    .collect();
                // Optimisation: a model found under an earlier bound may be beyond this one.
                let costs = match &self.opt {
                    Some(o) => match o.admits(&atoms) {
                        Some(c) => Some(c),
                        None => continue,
                    },
                    None => None,
                };
                if self.seen.insert(atoms.clone()) {
                    if let Some(o) = self.opt.as_mut() {
                        o.last_costs = costs;
                    }
                    self.stats.models += 1;
                    return Ok(Step::Model(Model { atoms }));
                }
            }
            if self.exhausted || self.core.is_some() {
                return Ok(Step::Exhausted);
            }
            if limits.reached() {
                return Ok(Step::Stopped);
            }
            if self.limit_reached()? {
                return Ok(Step::Limit);
            }
            // A slice never runs past the deadline (searches check the clock inside
            // propagation too).
            let left = limits
                .deadline
                .map(|d| d.saturating_duration_since(Instant::now()))
                .unwrap_or(MAX_SLICE);
            let slice = self.slice.min(left).max(Duration::from_millis(1));
            self.mem.run_slice(slice.as_nanos() as u64)?;
            self.stats.kernel_launches += 1;
            self.slice = (self.slice * 2).min(MAX_SLICE);
            let w = self.mem.global()?;
            if let Some(host) = &mut self.host {
                host.after_slice(&mut *self.mem, w[g::SHARE_HEAD], w[g::DECIDED])?;
            }
            let refuted = self.cubes > 0 && w[g::CUBE_OPEN] == 0;
            if w[g::MODELS] > 0 || w[g::ENDED] > 0 || refuted {
                self.collect()?;
            }
            if refuted {
                // Every cube is refuted: the models left were taken by collect.
                self.exhausted = true;
            }
            if limits.progress.is_some() && self.counters_due() {
                self.update_stats(false)?;
                limits.report(&self.stats);
            }
        }
    }

    fn counters_due(&self) -> bool {
        self.counters_read
            .is_none_or(|t| t.elapsed() >= COUNTERS_EVERY)
    }

    /// Reads the searches' counters into `stats`; `stopped`: the search has stopped (at an
    /// answer, the end or a limit), so this read is not part of its traffic unless it goes on.
    fn update_stats(&mut self, stopped: bool) -> Result<(), EngineError> {
        self.counters_read = Some(Instant::now());
        let before = self.mem.traffic().1;
        let ctr = self.mem.counters()?;
        if stopped {
            self.stop_read = self.mem.traffic().1 - before;
        }
        let sum = |k: usize| column(&ctr, k);
        let s = &mut self.stats;
        s.decisions = sum(c::DECISIONS);
        s.conflicts = sum(c::CONFLICTS);
        s.gpu_deepest = ctr
            .chunks(C_WORDS)
            .map(|w| w[c::CONFLICTS])
            .max()
            .unwrap_or(0);
        s.propagations = sum(c::PROPS);
        s.learned = sum(c::LEARNED);
        s.learned_lits = sum(c::LEARNED_LITS);
        s.restarts = sum(c::RESTARTS);
        s.deleted = sum(c::DELETED);
        s.loop_nogoods = sum(c::LOOPS);
        s.fwd_fallbacks = sum(c::FWD_FALLBACK);
        s.shared_out = sum(c::EXPORTED);
        s.shared_in = sum(c::IMPORTED);
        s.gpu_cubes_refuted = sum(c::CUBES);
        s.gpu_cube_splits = sum(c::SPLITS);
        s.gpu_time = GpuTime {
            run: sum(c::CY_RUN),
            propagate: sum(c::CY_PROP),
            short: sum(c::CY_SHORT),
            resolve: sum(c::CY_RESOLVE),
            unfounded: sum(c::CY_UFS),
            restart: sum(c::CY_RESTART),
            steps: sum(c::STEPS),
        };
        let (to, from) = self.mem.traffic();
        s.bytes_to_device = to;
        s.bytes_from_device = from - self.stop_read;
        Ok(())
    }
}

impl Engine for ManyEngine {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let t0 = Instant::now();
        // The search goes on: the counters read where it stopped were read during it.
        self.stop_read = 0;
        let r = self.search(limits);
        self.stats.search_time += t0.elapsed();
        // While models come, the counters are a snapshot at most COUNTERS_EVERY old (read at
        // the first model); an end of the search reads them.
        if !matches!(r, Ok(Step::Model(_))) || self.counters_due() {
            self.update_stats(true)?;
        }
        r
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    fn share_with_host(&mut self, link: DeviceLink) -> bool {
        self.host = Some(HostShare::new(link, self.num_vars));
        true
    }

    fn costs(&self) -> Option<Vec<i64>> {
        self.opt.as_ref().and_then(|o| o.last_costs.clone())
    }

    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        self.bound(bound)
    }

    fn assume(&mut self, lits: &[crate::lit::Lit]) -> bool {
        let mut once = HashSet::new();
        let lits: Vec<crate::lit::Lit> = lits.iter().copied().filter(|l| once.insert(*l)).collect();
        if lits.len() > self.layout.assume_cap {
            return false;
        }
        self.assume_list(&lits).is_ok()
    }

    fn core(&self) -> Option<Vec<crate::lit::Lit>> {
        match self.exhausted {
            true => Some(Vec::new()), // no model at all
            false => self.core.clone(),
        }
    }
}

impl ManyEngine {
    /// Write the assumptions and their new epoch; every search starts over under them at its
    /// next slice, and what the searches held of the last list is dropped.
    fn assume_list(&mut self, lits: &[crate::lit::Lit]) -> Result<(), EngineError> {
        let words: Vec<u32> = lits.iter().map(|l| l.code()).collect();
        self.mem.write_global(g::WORDS, &words)?;
        self.asm_epoch = self.asm_epoch.wrapping_add(1);
        self.mem
            .write_global(g::N_ASSUME, &[words.len() as u32, self.asm_epoch])?;
        self.pending.clear();
        self.seen.clear();
        self.core = None;
        self.slice = FIRST_SLICE;
        Ok(())
    }
}
// `--engine=auto`'s members on further GPUs are built and search on threads of their own, and
// the one that answers is handed to the caller's thread (`portfolio`).
const _: fn() = || {
    fn send<T: Send>() {}
    send::<ManyEngine>();
};
