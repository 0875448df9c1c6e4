//! The device engine: the search of the paper's Algorithm 1 with kernel launches in place of
//! function calls (kernels in `kernels/*.cu`, compiled at start-up by NVRTC).
//!
//! Invariant: the device holds the whole search state (assignment with ±level, reasons, stamps,
//! dependency bitmaps, frontier, decision stack, learned nogoods); per loop iteration the host
//! reads back only the state words (128 bytes). The host also takes part in two places, both on
//! total assignments only: it downloads the assignment to report a model, and, for non-tight
//! programs, runs the unfounded-set check (`unfounded.rs`) and uploads the loop nogood it finds.
//! A model is reported only at a propagation fixpoint with no violated nogood, nothing
//! unassigned, and (non-tight) no unfounded atom; after it, the decisions that led to it are
//! learned as a blocking nogood, so no model is reported twice.

pub mod buffers;
pub mod device;
pub mod launch;
pub mod layout;
pub mod unfounded;

pub use device::{available, kernel_source, KERNEL_NAMES};

use std::time::Instant;

use buffers::Buffers;
use launch::Launcher;
use layout::{act, ctr, src, st};

use crate::engine::{Engine, EngineError, Limits, Model, Options, Stats, Step};
use crate::ground::GroundProgram;
use crate::nogoods::Completion;

/// What the host keeps for the unfounded-set check (non-tight programs only).
struct HostCheck {
    program: GroundProgram,
    body_var: Vec<u32>,
}

pub struct GpuEngine {
    run: Launcher,
    buf: Buffers,
    check: Option<HostCheck>,
    num_vars: usize,
    num_atoms: u32,
    state: Vec<u32>,
    stats: Stats,
    /// The last batch was a decision (or completion): ACTION in the state words is fresh.
    decided: bool,
    /// A model was returned: block it before searching on.
    block_pending: bool,
    exhausted: bool,
    /// Rounds launched per batch (adapted to how many the last fixpoint needed).
    rounds: u32,
}

impl GpuEngine {
    pub fn new(g: &GroundProgram, c: &Completion, opts: Options) -> Result<GpuEngine, EngineError> {
        let dev = device::Device::open()?;
        let buf = Buffers::new(dev.stream.clone(), g, c, &opts)?;
        let check = (!g.tight).then(|| HostCheck {
            program: g.clone(),
            body_var: c.body_var.clone(),
        });
        let mut e = GpuEngine {
            run: Launcher {
                dev,
                launches: 0,
                sync_always: opts.sync_always,
            },
            buf,
            check,
            num_vars: c.db.num_vars as usize,
            num_atoms: g.num_atoms,
            state: vec![0; st::WORDS],
            stats: Stats::default(),
            decided: false,
            block_pending: false,
            exhausted: c.db.has_empty,
            rounds: 4,
        };
        if !e.exhausted {
            e.run.prop_units(&e.buf)?;
        }
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

    fn read_state(&mut self) -> Result<(), EngineError> {
        let s = &self.run.dev.stream;
        s.memcpy_dtoh(&self.buf.st, &mut self.state[..])
            .map_err(|e| device::engine_error("reading the search state", e))?;
        self.sync("the search failed on the GPU")?;
        self.stats.bytes_from_device += 4 * st::WORDS as u64;
        Ok(())
    }

    fn launch_rounds(&mut self) -> Result<(), EngineError> {
        for _ in 0..self.rounds {
            self.run.prop_round(&self.buf)?;
        }
        Ok(())
    }

    /// Analyse (learn + backjump) the nogood named by `source`, then propagate.
    fn analyse(&mut self, source: u32, inject_len: u32) -> Result<(), EngineError> {
        self.buf
            .reserve_learned(self.state[st::L_USED], self.state[st::L_COUNT])?;
        self.run.learn_analyse(&self.buf, source, inject_len)?;
        self.run.backjump_undo(&self.buf)?;
        self.decided = false;
        self.launch_rounds()
    }

    fn download_assignment(&mut self) -> Result<Vec<i32>, EngineError> {
        let mut a = vec![0i32; self.num_vars.max(1)];
        let s = &self.run.dev.stream;
        s.memcpy_dtoh(&self.buf.a, &mut a[..])
            .map_err(|e| device::engine_error("reading the assignment", e))?;
        self.sync("reading the assignment")?;
        self.stats.bytes_from_device += 4 * a.len() as u64;
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
        self.stats.kernel_launches = self.run.launches;
        Ok(())
    }

    fn search(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        if self.exhausted {
            return Ok(Step::Exhausted);
        }
        if self.block_pending {
            self.block_pending = false;
            self.read_state()?;
            self.analyse(src::DECISIONS, 0)?;
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
                self.launch_rounds()?;
                continue;
            }
            if self.decided && s[st::ACTION] == act::TOTAL {
                let a = self.download_assignment()?;
                if let Some(hc) = &self.check {
                    if let Some(ng) = unfounded::loop_nogood(&hc.program, &hc.body_var, &a) {
                        let codes: Vec<u32> = ng.iter().map(|l| l.code()).collect();
                        let st = &self.run.dev.stream;
                        st.memcpy_htod(&codes, &mut self.buf.inject.slice_mut(..codes.len()))
                            .map_err(|e| device::engine_error("uploading a loop nogood", e))?;
                        self.sync("uploading a loop nogood")?;
                        self.stats.bytes_to_device += 4 * codes.len() as u64;
                        self.stats.loop_nogoods += 1;
                        self.analyse(src::INJECT, codes.len() as u32)?;
                        continue;
                    }
                }
                let atoms = (1..=self.num_atoms)
                    .filter(|&v| a[v as usize] > 0)
                    .collect();
                self.stats.models += 1;
                self.block_pending = true;
                return Ok(Step::Model(Model { atoms }));
            }
            self.rounds = (self.rounds.saturating_sub(1)).max(2);
            self.run.decide_rank(&self.buf)?;
            self.decided = true;
            self.launch_rounds()?;
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
