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
    pub loop_nogoods: u64,
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
    pub fn avg_learned_len(&self) -> f64 {
        if self.learned == 0 {
            0.0
        } else {
            self.learned_lits as f64 / self.learned as f64
        }
    }
}
