//! Search statistics: the metrics of the paper's figures, shared by both engines.

use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub decisions: u64,
    pub conflicts: u64,
    /// Literals assigned by propagation (not by decisions).
    pub propagations: u64,
    pub learned: u64,
    /// Sum of lengths of learned nogoods (average = learned_lits / learned).
    pub learned_lits: u64,
    /// Device engine: learned nogoods of length 2 or 3 stored in the short partition (checked
    /// in full, never deleted); the others are watched in the long store.
    pub learned_short: u64,
    pub loop_nogoods: u64,
    /// `--learning=fwd`: conflicts analysed by resolution instead (host: the dependency sets
    /// were not recorded; device: a level past the bitmap width).
    pub fwd_fallbacks: u64,
    /// `--fwd-cut=lits`: conflicts whose nogood is the UIP and every lower decision (a
    /// lower-level set of the conflict level unknown: past the cap, or a sum's implied
    /// literal; or none of the violated nogood's literals is of the conflict level).
    pub fwd_lits_unknown: u64,
    /// Unfounded sets found by propagation at partial assignments (host engine).
    pub unfounded_sets: u64,
    pub restarts: u64,
    pub deleted: u64,
    pub models: u64,
    /// Host↔device traffic during search (0 on the host engine).
    pub bytes_to_device: u64,
    pub bytes_from_device: u64,
    pub kernel_launches: u64,
    pub search_time: Duration,
    /// Device engine only (zero on the host engine): its device memory at the peak.
    pub device_mem: DeviceMem,
    /// Device engine only: how the kernel image was obtained ("cached", "compiled by NVRTC")
    /// and how long opening the GPU took (context, kernels, upload).
    pub kernel_image: &'static str,
    pub device_setup_time: Duration,
    /// Device engine: the set-up's parts (zero where this process had made them before).
    pub gpu_setup: GpuSetup,
    /// Many-searches device engine: how many searches ran at once, and their portfolio rows.
    pub gpu_searches: u64,
    pub gpu_portfolio: String,
    /// Many-searches device engine: the conflicts of the search that made the most (how deep
    /// the deepest search got).
    pub gpu_deepest: u64,
    /// Many-searches device engine: learned nogoods written to the sharing ring, and taken
    /// from it by other searches.
    pub shared_out: u64,
    pub shared_in: u64,
    /// Many-searches device engine: cubes of the split (0: none), and how many were refuted.
    pub gpu_cubes: u64,
    pub gpu_cubes_refuted: u64,
    /// Cubes split off to the pool (`kernels/search/cube.cuh`).
    pub gpu_cube_splits: u64,
    /// Many-searches device engine: device memory one search takes, and the sums its kernel
    /// propagates natively (`kernels/search/sums.cuh`; the others are translated).
    pub gpu_bytes_per_search: u64,
    pub gpu_native_sums: u64,
    /// Disjunctive programs that are not head-cycle-free (`wrap::minimality_check`): candidate
    /// models checked for minimality by a second search, those that failed, the loop nogoods
    /// the failed ones gave the search, and the time the checks took.
    pub minimality_checks: u64,
    pub minimality_failed: u64,
    pub minimality_nogoods: u64,
    pub minimality_time: std::time::Duration,
    /// Many-searches engine, optimisation: tighter bounds written to device memory, and
    /// looser ones that restarted every search.
    pub gpu_bound_updates: u64,
    pub gpu_bound_resets: u64,
    /// Many-searches engine: where the searches' time went (`GpuTime`), summed over them.
    pub gpu_time: GpuTime,
    /// Whole-machine portfolio (`engine::race`): which member answered, beside which others
    /// (empty: one engine ran).
    pub portfolio: String,
}

/// Where opening the GPU's engine went: the context, the kernel image (cache or NVRTC), loading
/// it, and the searches' memory with the program's upload. The first three are made once per
/// process and GPU, so a later engine shows them as zero.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GpuSetup {
    pub context: Duration,
    pub image: Duration,
    pub module: Duration,
    pub memory: Duration,
}

/// Peak bytes of device memory of the device engine: its buffers by purpose (allocated sizes)
/// and the growth of the driver's "used" figure since the context was made (allocation
/// granularity included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DeviceMem {
    pub nogoods: u64,
    pub learned: u64,
    pub rules: u64,
    pub state: u64,
    pub driver_used: u64,
}

/// The many-searches kernel's clock ticks (SM cycles; nanoseconds under the emulation), summed
/// over the searches, by phase (`YSM_C_CY_*`), and its propagation steps (each takes up to a
/// warp's width of queued literals): only ratios are meaningful.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GpuTime {
    pub run: u64,
    pub propagate: u64,
    /// Part of `propagate`: the nogoods of length 2 and 3.
    pub short: u64,
    pub resolve: u64,
    pub unfounded: u64,
    pub restart: u64,
    pub steps: u64,
}

impl DeviceMem {
    pub fn total(&self) -> u64 {
        self.nogoods + self.learned + self.rules + self.state
    }
}

impl Stats {
    pub fn per_second(&self, count: u64) -> f64 {
        let s = self.search_time.as_secs_f64();
        if s > 0.0 {
            count as f64 / s
        } else {
            0.0
        }
    }
    /// Add `o`'s search counters to these (a portfolio's members summed, as clingo sums its
    /// threads'); times, device figures and descriptions stay these.
    pub fn add_counts(&mut self, o: &Stats) {
        self.decisions += o.decisions;
        self.conflicts += o.conflicts;
        self.propagations += o.propagations;
        self.learned += o.learned;
        self.learned_lits += o.learned_lits;
        self.loop_nogoods += o.loop_nogoods;
        self.fwd_fallbacks += o.fwd_fallbacks;
        self.fwd_lits_unknown += o.fwd_lits_unknown;
        self.unfounded_sets += o.unfounded_sets;
        self.restarts += o.restarts;
        self.deleted += o.deleted;
    }

    pub fn avg_learned_len(&self) -> f64 {
        if self.learned == 0 {
            0.0
        } else {
            self.learned_lits as f64 / self.learned as f64
        }
    }
}
