//! The device engine: the search of the paper's Algorithm 1 with kernel launches in place of
//! function calls (kernels in `kernels/*.cu`, compiled at start-up by NVRTC).
//!
//! Invariant: the device holds the whole search state (assignment with ±level, reasons, stamps,
//! dependency bitmaps, frontier, decision stack, learned nogoods); per loop iteration the host
//! reads back only the first state words (`st::HOST_WORDS`, 52 bytes); a search step (a
//! decision and the propagation rounds after it) is one cooperative launch of `step_k`.
//! On a total assignment of a non-tight program, `ufs_check_k` (`kernels/unfounded.cu`, data in
//! `ufs.rs`) runs the unfounded-set check on the device: the founded fixpoint per cyclic
//! component, and, if a true atom is unfounded, one loop nogood written straight into `inject`
//! with its length in `st[LOOP_LEN]` (a host word), which the host hands to `learn_analyse_k`
//! like a conflict — nothing crosses the bus but the state words. Sum bodies are handled there
//! too, so no program needs a host check. The host downloads the assignment only to report a
//! model.
//! A model is reported only at a propagation fixpoint with no violated nogood, nothing
//! unassigned, and (non-tight) no unfounded atom; after it, the decisions that led to it are
//! learned as a blocking nogood (kept for good), so no model is reported twice.
//!
//! Restarts follow the Luby sequence times [`crate::engine::restart::UNIT`] conflicts and go back to level 1
//! (the top level: levels are numbered from 1 here); learned-nogood deletion (`reduce.rs`) runs
//! at a restart, first after [`REDUCE_FIRST`] conflicts, then at gaps growing by
//! [`REDUCE_GROWTH`] (the host engine's schedule).

pub mod buffers;
pub mod cache;
pub mod device;
pub mod emu;
pub mod launch;
pub mod layout;
pub mod many;
pub mod many_cuda;
pub mod many_layout;
pub mod many_objective;
pub mod many_opt;
pub mod many_params;
pub mod many_share;
pub mod many_sums;
pub mod portfolio;
pub mod profile;
pub mod reduce;
pub mod split;
pub mod ufs;

pub use device::{available, kernel_source, KERNEL_NAMES};

use std::time::Instant;

use buffers::Buffers;
use launch::Launcher;
use layout::{act, ctr, src, st};

use crate::engine::restart::Restarts;
use crate::engine::{DeviceOptions, Engine, EngineError, Limits, Model, Stats, Step};
use crate::ground::GroundProgram;
use crate::nogoods::Completion;

/// Conflicts before the first learned-nogood deletion.
pub const REDUCE_FIRST: u64 = 2000;
/// Growth of the gap between deletions.
pub const REDUCE_GROWTH: u64 = 300;
/// Rounds per step_k launch at most (the host launches another step if it is reached).
const MAX_ROUNDS: u32 = 1 << 16;

pub struct GpuEngine {
    run: Launcher,
    buf: Buffers,
    num_vars: usize,
    /// The input's atoms, those a model reports (`GroundProgram::input_atoms`).
    input_atoms: u32,
    state: Vec<u32>,
    stats: Stats,
    /// The last batch was a decision (or completion): ACTION in the state words is fresh.
    decided: bool,
    /// A model was returned: block it before searching on.
    block_pending: bool,
    exhausted: bool,
    /// Rounds launched per batch (adapted to how many the last fixpoint needed).
    rounds: u32,
    conflicts: u64,
    restarts: Restarts,
    next_reduce: u64,
    reduce_gap: u64,
    /// Learned nogoods that must never be deleted (blocking nogoods of reported models).
    permanent: Vec<bool>,
    /// Driver's free device memory before the buffers were allocated (0 if unknown).
    free_at_start: usize,
}

impl GpuEngine {
    pub fn new(
        g: &GroundProgram,
        c: &Completion,
        opts: DeviceOptions,
    ) -> Result<GpuEngine, EngineError> {
        // The kernels know only nogoods: sums must come translated (`nogoods::complete`).
        assert!(
            c.native_sums.is_empty(),
            "native sums reached the device engine"
        );
        let t_open = Instant::now();
        let dev = device::Device::open()?;
        // The driver's free memory before the engine allocates anything: the baseline of
        // `Stats::device_mem.driver_used`.
        let free_at_start = dev.ctx.mem_get_info().map(|(free, _)| free).unwrap_or(0);
        let buf = Buffers::new(dev.stream.clone(), g, c, &opts)?;
        let mut e = GpuEngine {
            run: Launcher {
                dev,
                launches: 0,
                sync_always: opts.sync_always,
                coop: std::env::var_os("YASMIN_NO_COOP").is_none(),
                profile: profile::Profile::from_env(),
            },
            buf,
            num_vars: c.db.num_vars as usize,
            input_atoms: g.input_atoms(),
            state: vec![0; st::WORDS],
            stats: Stats::default(),
            decided: false,
            block_pending: false,
            exhausted: c.db.has_empty,
            rounds: 4,
            conflicts: 0,
            restarts: Restarts::default(),
            next_reduce: REDUCE_FIRST,
            reduce_gap: REDUCE_FIRST,
            permanent: Vec::new(),
            free_at_start,
        };
        e.stats.kernel_image = e.run.dev.image_origin.as_str();
        if !e.exhausted {
            e.run.prop_units(&e.buf)?;
        }
        e.sync("the first propagation failed on the GPU")?;
        e.stats.device_setup_time = t_open.elapsed();
        e.note_memory();
        Ok(e)
    }

    /// The name of the GPU in use.
    pub fn device_name(&self) -> &str {
        &self.run.dev.name
    }

    fn sync(&self, what: &str) -> Result<(), EngineError> {
        self.run
            .dev
            .stream
            .synchronize()
            .map_err(|e| device::engine_error(what, e))
    }

    /// Keep the peak of the device memory in use (buffers by purpose, and the driver's view).
    fn note_memory(&mut self) {
        let m = self.buf.memory();
        let d = &mut self.stats.device_mem;
        if m.total() > d.total() {
            (d.nogoods, d.learned, d.rules, d.state) = (m.nogoods, m.learned, m.rules, m.state);
        }
        if let Ok((free, _)) = self.run.dev.ctx.mem_get_info() {
            let used = self.free_at_start.saturating_sub(free) as u64;
            d.driver_used = d.driver_used.max(used);
        }
    }

    fn read_state(&mut self) -> Result<(), EngineError> {
        let t0 = Instant::now();
        let s = &self.run.dev.stream;
        let n = st::HOST_WORDS;
        s.memcpy_dtoh(&self.buf.st.slice(..n), &mut self.state[..n])
            .map_err(|e| device::engine_error("reading the search state", e))?;
        self.sync("the search failed on the GPU")?;
        self.stats.bytes_from_device += 4 * n as u64;
        if let Some(p) = &mut self.run.profile {
            p.add("state read-back", std::time::Duration::ZERO, t0.elapsed());
        }
        Ok(())
    }

    /// A search step: a decision if `decide`, then propagation (one cooperative launch, or
    /// the fallback launches).
    fn step(&mut self, decide: bool) -> Result<(), EngineError> {
        if self.run.step(&self.buf, decide, MAX_ROUNDS)? {
            return Ok(());
        }
        if decide {
            self.run.decide_rank(&self.buf)?;
        }
        self.launch_rounds()
    }

    /// Restart (and delete learned nogoods) when due; true if it did. Called at a fixpoint
    /// with no conflict, so level 1 is at a fixpoint after it.
    fn restart_if_due(&mut self) -> Result<bool, EngineError> {
        let reduce_due = self.conflicts >= self.next_reduce;
        // `due` schedules the next restart when this one is due.
        if !self.restarts.due(self.conflicts) && !reduce_due {
            return Ok(false);
        }
        self.run.backjump_undo(&self.buf, true)?;
        self.stats.restarts += 1;
        self.decided = false;
        if reduce_due {
            self.reduce_gap += REDUCE_GROWTH;
            self.next_reduce = self.conflicts + self.reduce_gap;
            self.read_state()?;
            let r = reduce::reduce(
                &mut self.buf,
                self.state[st::L_COUNT],
                self.state[st::L_USED],
                &mut self.permanent,
            )?;
            self.stats.deleted += r.deleted;
            self.stats.bytes_from_device += r.bytes_down;
            self.stats.bytes_to_device += r.bytes_up;
        }
        Ok(true)
    }

    fn launch_rounds(&mut self) -> Result<(), EngineError> {
        for _ in 0..self.rounds {
            self.run.prop_round(&self.buf)?;
        }
        Ok(())
    }

    /// Analyse (learn + backjump) the nogood named by `source`, then propagate.
    fn analyse(&mut self, source: u32, inject_len: u32) -> Result<(), EngineError> {
        let cap = self.buf.params().l_cap_lits;
        self.buf
            .reserve_learned(self.state[st::L_USED], self.state[st::L_COUNT])?;
        if self.buf.params().l_cap_lits != cap {
            self.note_memory(); // the store grew: a new peak
        }
        if source == src::CONFLICT {
            self.conflicts += 1;
        }
        self.run.learn_analyse(&self.buf, source, inject_len)?;
        self.run.backjump_undo(&self.buf, false)?;
        self.decided = false;
        self.step(false)
    }

    fn download_assignment(&mut self) -> Result<Vec<i32>, EngineError> {
        let t0 = Instant::now();
        let mut a = vec![0i32; self.num_vars.max(1)];
        let s = &self.run.dev.stream;
        s.memcpy_dtoh(&self.buf.a, &mut a[..])
            .map_err(|e| device::engine_error("reading the assignment", e))?;
        self.sync("reading the assignment")?;
        self.stats.bytes_from_device += 4 * a.len() as u64;
        if let Some(p) = &mut self.run.profile {
            p.add(
                "assignment download",
                std::time::Duration::ZERO,
                t0.elapsed(),
            );
        }
        Ok(a)
    }

    fn update_stats(&mut self) -> Result<(), EngineError> {
        let mut c = vec![0u64; ctr::WORDS];
        let s = &self.run.dev.stream;
        s.memcpy_dtoh(&self.buf.ctr, &mut c[..])
            .map_err(|e| device::engine_error("reading counters", e))?;
        self.sync("reading counters")?;
        self.stats.bytes_from_device += 8 * ctr::WORDS as u64;
        self.stats.propagations = c[ctr::PROPS];
        self.stats.decisions = c[ctr::DECISIONS];
        self.stats.conflicts = c[ctr::CONFLICTS];
        self.stats.learned = c[ctr::LEARNED];
        self.stats.learned_lits = c[ctr::LEARNED_LITS];
        self.stats.learned_short = c[ctr::LEARNED_SHORT];
        self.stats.fwd_fallbacks = c[ctr::FWD_FALLBACK];
        self.stats.kernel_launches = self.run.launches;
        self.note_memory();
        Ok(())
    }

    fn search(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        if self.exhausted {
            return Ok(Step::Exhausted);
        }
        if self.block_pending {
            self.block_pending = false;
            self.read_state()?;
            let id = self.state[st::L_COUNT];
            self.analyse(src::DECISIONS, 0)?;
            // The nogood learned from the decisions blocks the model and must never be
            // deleted. In the long store it got index `id`; in the short partition (length 2
            // or 3) it is never deleted anyway.
            self.read_state()?;
            if self.state[st::L_COUNT] > id {
                let id = id as usize;
                if self.permanent.len() <= id {
                    self.permanent.resize(id + 1, false);
                }
                self.permanent[id] = true;
            }
        }
        loop {
            if limits.reached() {
                return Ok(Step::Stopped);
            }
            self.read_state()?;
            let s = &self.state;
            if s[st::ERROR] != 0 {
                return Err(EngineError::Device(format!(
                    "internal error in the device search (code {}); please report it with the input",
                    s[st::ERROR]
                )));
            }
            if s[st::UNSAT] != 0 {
                self.exhausted = true;
                return Ok(Step::Exhausted);
            }
            if s[st::CONFLICT] != layout::NONE {
                self.analyse(src::CONFLICT, 0)?;
                continue;
            }
            if s[st::FIXPOINT] == 0 {
                // Not there yet: more rounds per batch next time.
                self.rounds = (self.rounds * 2).min(64);
                self.step(false)?;
                continue;
            }
            if self.decided && s[st::ACTION] == act::TOTAL {
                if self.buf.ufs_active {
                    // The unfounded-set check runs on the device; only its result comes back,
                    // with the state words, and the loop nogood is already in `inject`.
                    self.run.ufs_check(&self.buf)?;
                    self.read_state()?;
                    if self.state[st::ERROR] != 0 {
                        continue; // reported at the top of the loop
                    }
                    let len = self.state[st::LOOP_LEN];
                    if len > 0 {
                        self.stats.loop_nogoods += 1;
                        self.analyse(src::INJECT, len)?;
                        continue;
                    }
                }
                let a = self.download_assignment()?;
                let atoms = (1..=self.input_atoms)
                    .filter(|&v| a[v as usize] > 0)
                    .collect();
                self.stats.models += 1;
                self.block_pending = true;
                return Ok(Step::Model(Model { atoms }));
            }
            if self.restart_if_due()? {
                continue;
            }
            self.rounds = (self.rounds.saturating_sub(1)).max(2);
            self.step(true)?;
            self.decided = true;
        }
    }
}

impl Drop for GpuEngine {
    fn drop(&mut self) {
        if let Some(p) = &self.run.profile {
            eprintln!("{}", p.report());
        }
    }
}

impl Engine for GpuEngine {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let t0 = Instant::now();
        let r = self.search(limits);
        self.stats.search_time += t0.elapsed();
        self.update_stats()?;
        r
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }
}
