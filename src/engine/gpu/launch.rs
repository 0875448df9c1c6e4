//! The Rust launcher of each kernel (`<stage>_<variant>()` for `<stage>_<variant>_k`), and the
//! one place where raw launches happen.
//!
//! Invariant: every launch goes through [`Launcher::launch`], which counts it and, under
//! `--sync-always`, synchronises and turns a device fault into an `EngineError` at once.

use cudarc::driver::{LaunchConfig, PushKernelArg};

use super::buffers::Buffers;
use super::device::{engine_error, Device};
use super::layout::{DevParams, BLOCK, LEARN_THREADS};
use super::profile::Profile;
use crate::engine::EngineError;

pub struct Launcher {
    pub dev: Device,
    pub launches: u64,
    pub sync_always: bool,
    /// step_k can be launched cooperatively (false after a refused launch: then the host
    /// launches decide_rank_k and prop_round_k instead).
    pub coop: bool,
    /// Per-kernel timings under `YASMIN_PROFILE=1` (every launch is then synchronised).
    pub profile: Option<Profile>,
}

fn grid_for(n: u32, cap: u32) -> u32 {
    n.div_ceil(BLOCK).clamp(1, cap)
}

impl Launcher {
    fn launch(
        &mut self,
        name: &'static str,
        grid: u32,
        block: u32,
        p: &DevParams,
        extra: &[u32],
    ) -> Result<(), EngineError> {
        self.launch_as(name, grid, block, p, extra, false)
    }

    fn launch_as(
        &mut self,
        name: &'static str,
        grid: u32,
        block: u32,
        p: &DevParams,
        extra: &[u32],
        cooperative: bool,
    ) -> Result<(), EngineError> {
        let f = self.dev.kernels.get(name);
        let mut b = self.dev.stream.launch_builder(f);
        b.arg(p);
        for x in extra {
            b.arg(x);
        }
        let cfg = LaunchConfig {
            grid_dim: (grid, 1, 1),
            block_dim: (block, 1, 1),
            shared_mem_bytes: 0,
        };
        let t0 = std::time::Instant::now();
        // SAFETY: every kernel takes `Dev` by value (layout checked against the header), plus
        // the 32-bit words of `extra` for learn_analyse_k; all pointers in it are live buffers.
        if cooperative {
            // SAFETY: as below; cooperative launch additionally guarantees co-residency.
            unsafe { b.launch_cooperative(cfg) }
                .map_err(|e| engine_error(&format!("launching {name}"), e))?;
        } else {
            // SAFETY: see the comment above.
            unsafe { b.launch(cfg) }.map_err(|e| engine_error(&format!("launching {name}"), e))?;
        }
        self.launches += 1;
        if self.sync_always || self.profile.is_some() {
            let t1 = std::time::Instant::now();
            self.dev
                .stream
                .synchronize()
                .map_err(|e| engine_error(&format!("kernel {name} failed"), e))?;
            if let Some(prof) = &mut self.profile {
                prof.add(name, t1 - t0, t1.elapsed());
            }
        }
        Ok(())
    }

    fn wide(&self) -> u32 {
        self.dev.sm_count * 2
    }

    /// Blocks of a cooperative launch (step_k, ufs_check_k): one per multiprocessor at most
    /// (co-residency), and no more than the program has work for — every kernel strides over
    /// its items, so any grid size is correct, and a small grid makes each grid barrier (two per
    /// propagation round) cheaper: a program of a few hundred variables runs in one block.
    fn coop_grid(&self, p: &DevParams) -> u32 {
        grid_for(p.num_vars.max(p.n_rules), self.dev.sm_count)
    }

    /// Launch `name` cooperatively on [`Self::coop_grid`] blocks; false (nothing launched, and
    /// `coop` cleared for good) when the driver refuses cooperative launch.
    fn launch_coop(
        &mut self,
        name: &'static str,
        p: &DevParams,
        extra: &[u32],
    ) -> Result<bool, EngineError> {
        if !self.coop {
            return Ok(false);
        }
        let grid = self.coop_grid(p);
        match self.launch_as(name, grid, BLOCK, p, extra, true) {
            Ok(()) => Ok(true),
            Err(EngineError::Device(m))
                if m.contains("COOPERATIVE") || m.contains("NOT_SUPPORTED") =>
            {
                // Refused before running (too many blocks to co-reside, or unsupported).
                self.coop = false;
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// InitialPropagation: the input unit nogoods.
    pub fn prop_units(&mut self, b: &Buffers) -> Result<(), EngineError> {
        let p = b.params();
        self.launch(
            "prop_units_k",
            grid_for(p.n_units, self.wide()),
            BLOCK,
            &p,
            &[],
        )
    }

    /// One frontier round of PropagateAndCheck.
    pub fn prop_round(&mut self, b: &Buffers) -> Result<(), EngineError> {
        let p = b.params();
        self.launch("prop_round_k", self.wide(), BLOCK, &p, &[])
    }

    /// Decision: rank applicable rules, apply the best; CompleteAssignment when there is none.
    pub fn decide_rank(&mut self, b: &Buffers) -> Result<(), EngineError> {
        let p = b.params();
        self.launch(
            "decide_rank_k",
            grid_for(p.n_rules, self.wide()),
            BLOCK,
            &p,
            &[],
        )
    }

    /// Learning: analyse the nogood named by `src` (layout::src) in one block.
    pub fn learn_analyse(
        &mut self,
        b: &Buffers,
        src: u32,
        inject_len: u32,
    ) -> Result<(), EngineError> {
        let p = b.params();
        self.launch("learn_analyse_k", 1, LEARN_THREADS, &p, &[src, inject_len])
    }

    /// Backjump: undo the levels above the chosen one and assert the learned literal; with
    /// `restart`, undo every level above 1 and assert nothing.
    pub fn backjump_undo(&mut self, b: &Buffers, restart: bool) -> Result<(), EngineError> {
        let p = b.params();
        self.launch(
            "backjump_undo_k",
            grid_for(p.num_vars, self.wide()),
            BLOCK,
            &p,
            &[restart as u32],
        )
    }

    /// The unfounded-set check of a total assignment (non-tight programs): one cooperative
    /// launch, or one block when cooperative launch is not available (its grid barriers then
    /// only synchronise that block). Leaves the loop nogood's length in `st[LOOP_LEN]`.
    pub fn ufs_check(&mut self, b: &Buffers) -> Result<(), EngineError> {
        let p = b.params();
        if self.launch_coop("ufs_check_k", &p, &[])? {
            return Ok(());
        }
        self.launch("ufs_check_k", 1, BLOCK, &p, &[])
    }

    /// One search step in one cooperative launch: a decision if `decide`, then rounds until a
    /// fixpoint, a conflict or `max_rounds`. Returns false (nothing launched) when cooperative
    /// launch is not available; the caller then uses decide_rank / prop_round.
    pub fn step(
        &mut self,
        b: &Buffers,
        decide: bool,
        max_rounds: u32,
    ) -> Result<bool, EngineError> {
        let p = b.params();
        self.launch_coop("step_k", &p, &[decide as u32, max_rounds])
    }
}
