//! The device engine: the search of the paper's Algorithm 1 with kernel launches in place of
//! function calls (kernels in `kernels/*.cu`, compiled at start-up by NVRTC).
//!
//! Invariant: the device holds the whole search state (assignment with ±level, reasons, stamps,
//! dependency bitmaps, frontier, decision stack, learned nogoods); per loop iteration the host
//! reads back only the first state words (`st::HOST_WORDS`, 48 bytes); a search step (a
//! decision and the propagation rounds after it) is one cooperative launch of `step_k`. The host also takes part in two places, both on
//! total assignments only: it downloads the assignment to report a model, and, for non-tight
//! programs, runs the host engine's unfounded-set check (`engine::cpu::unfounded`) on it and uploads the loop nogood it finds.
//! A model is reported only at a propagation fixpoint with no violated nogood, nothing
//! unassigned, and (non-tight) no unfounded atom; after it, the decisions that led to it are
//! learned as a blocking nogood (kept for good), so no model is reported twice.
//!
//! Restarts follow the Luby sequence times [`crate::engine::restart::UNIT`] conflicts and go back to level 1
//! (the top level: levels are numbered from 1 here); learned-nogood deletion (`reduce.rs`) runs
//! at a restart, first after [`REDUCE_FIRST`] conflicts, then at gaps growing by
//! [`REDUCE_GROWTH`] (the host engine's schedule).

pub mod buffers;
pub mod device;
pub mod launch;
pub mod layout;
pub mod reduce;

pub use device::{available, kernel_source, KERNEL_NAMES};

use std::time::Instant;

use buffers::Buffers;
use launch::Launcher;
use layout::{act, ctr, src, st};

use crate::engine::cpu::decide::Rules;
use crate::engine::cpu::unfounded::{self, Unfounded, Values};
use crate::engine::restart::Restarts;
use crate::engine::{Engine, EngineError, Limits, Model, Options, Stats, Step};
use crate::ground::GroundProgram;
use crate::lit::Lit;
use crate::nogoods::Completion;

/// Conflicts before the first learned-nogood deletion.
pub const REDUCE_FIRST: u64 = 2000;
/// Growth of the gap between deletions.
pub const REDUCE_GROWTH: u64 = 300;
/// Rounds per step_k launch at most (the host launches another step if it is reached).
const MAX_ROUNDS: u32 = 1 << 16;

/// What the host keeps for the unfounded-set check (non-tight programs only): the host
/// engine's check, run on the downloaded assignment.
struct HostCheck {
    ufs: Unfounded,
    rules: Rules,
}

/// The downloaded assignment: `a[v]` > 0 true, < 0 false (total when checked).
struct DeviceValues<'a>(&'a [i32]);

impl Values for DeviceValues<'_> {
    fn holds(&self, l: Lit) -> bool {
        let x = self.0[l.var() as usize];
        if l.is_true() {
            x > 0
        } else {
            x < 0
        }
    }
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
    conflicts: u64,
    restarts: Restarts,
    next_reduce: u64,
    reduce_gap: u64,
    /// Learned nogoods that must never be deleted (blocking nogoods of reported models).
    permanent: Vec<bool>,
}

impl GpuEngine {
    pub fn new(g: &GroundProgram, c: &Completion, opts: Options) -> Result<GpuEngine, EngineError> {
        // The kernels know only nogoods: sums must come translated (`nogoods::complete`).
        assert!(
            c.native_sums.is_empty(),
            "native sums reached the device engine"
        );
        let dev = device::Device::open()?;
        let buf = Buffers::new(dev.stream.clone(), g, c, &opts)?;
        let num_vars = c.db.num_vars as usize;
        let check = (!g.tight).then(|| HostCheck {
            ufs: Unfounded::new(g, num_vars),
            rules: Rules::new(g, c, num_vars),
        });
        let mut e = GpuEngine {
            run: Launcher {
                dev,
                launches: 0,
                sync_always: opts.sync_always,
                coop: std::env::var_os("YASMIN_NO_COOP").is_none(),
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
            conflicts: 0,
            restarts: Restarts::default(),
            next_reduce: REDUCE_FIRST,
            reduce_gap: REDUCE_FIRST,
            permanent: Vec::new(),
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
        let n = st::HOST_WORDS;
        s.memcpy_dtoh(&self.buf.st.slice(..n), &mut self.state[..n])
            .map_err(|e| device::engine_error("reading the search state", e))?;
        self.sync("the search failed on the GPU")?;
        self.stats.bytes_from_device += 4 * n as u64;
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
        self.buf
            .reserve_learned(self.state[st::L_USED], self.state[st::L_COUNT])?;
        if source == src::CONFLICT {
            self.conflicts += 1;
        }
        self.run.learn_analyse(&self.buf, source, inject_len)?;
        self.run.backjump_undo(&self.buf, false)?;
        self.decided = false;
        self.step(false)
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
            // The nogood learned from the decisions gets this index; it blocks the model and
            // must never be deleted.
            let id = self.state[st::L_COUNT] as usize;
            if self.permanent.len() <= id {
                self.permanent.resize(id + 1, false);
            }
            self.permanent[id] = true;
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
                self.step(false)?;
                continue;
            }
            if self.decided && s[st::ACTION] == act::TOTAL {
                let a = self.download_assignment()?;
                let num_atoms = self.num_atoms;
                let loop_nogood = self.check.as_mut().and_then(|hc| {
                    unfounded::check(&mut hc.ufs, &hc.rules, &DeviceValues(&a), num_atoms)
                        .into_iter()
                        .next()
                });
                if let Some(ng) = loop_nogood {
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
                let atoms = (1..=self.num_atoms)
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

#[cfg(test)]
mod tests {
    use super::*;
    use lparse::{Program, ProgramBuilder, Rule};

    /// `p :- q. q :- p.` (p = 1, q = 2), analysed and completed.
    fn two_loop() -> (GroundProgram, Completion) {
        let mut p = Program::default();
        for (h, b) in [(1u32, 2i32), (2, 1)] {
            p.rule(Rule::normal(&[h], &[b]));
        }
        let g = crate::ground::analyse(&p).unwrap();
        let c = crate::nogoods::complete(&g);
        (g, c)
    }

    fn loop_nogood(g: &GroundProgram, c: &Completion, a: &[i32]) -> Option<Vec<Lit>> {
        let n = c.db.num_vars as usize;
        let (mut ufs, rules) = (Unfounded::new(g, n), Rules::new(g, c, n));
        unfounded::check(&mut ufs, &rules, &DeviceValues(a), g.num_atoms)
            .into_iter()
            .next()
    }

    #[test]
    fn positive_loop_is_unfounded() {
        let (g, c) = two_loop();
        let a = vec![1; c.db.num_vars as usize];
        let ng = loop_nogood(&g, &c, &a).expect("p, q are unfounded");
        // No external body: the loop nogood is just {T p}.
        assert_eq!(ng, vec![Lit::t(1)]);
    }

    #[test]
    fn all_false_is_founded() {
        let (g, c) = two_loop();
        let a = vec![-1; c.db.num_vars as usize];
        assert!(loop_nogood(&g, &c, &a).is_none());
    }
}
