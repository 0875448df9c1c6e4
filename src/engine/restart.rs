//! Restarts on the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times [`UNIT`] conflicts (both
//! engines), or dynamic ones (host engine, `--restarts=dynamic`) on the learned nogoods' LBD,
//! glucose's way ([`Dynamic`]).
//!
//! Invariant (Luby): `next` is the conflict count at which the next restart is due;
//! restarting only backtracks to the top level, so learned, loop and blocking nogoods all
//! survive it.

/// Conflicts per Luby unit.
pub const UNIT: u64 = 100;

#[derive(Debug)]
pub struct Restarts {
    index: u64,
    next: u64,
}

impl Default for Restarts {
    fn default() -> Self {
        Restarts {
            index: 1,
            next: UNIT * luby(1),
        }
    }
}

impl Restarts {
    /// True (and the next restart is scheduled) when `conflicts` reached the due point.
    pub fn due(&mut self, conflicts: u64) -> bool {
        if conflicts < self.next {
            return false;
        }
        self.index += 1;
        self.next = conflicts + UNIT * luby(self.index);
        true
    }
}

/// Glucose's dynamic restarts (Audemard and Simon, 2012): restart when the LBD average of the
/// last [`WINDOW`] learned nogoods, times [`K`], exceeds the average of all, i.e. when the
/// recent nogoods are markedly worse than usual; block (postpone) a restart when the trail is
/// [`BLOCK_R`] times longer than its recent average, since the search may be near a model.
///
/// Invariant: `lbds` holds the LBDs since the last restart or block, at most `WINDOW`, and
/// `lbd_sum` is their sum; `trails` likewise for the last [`TRAIL_WINDOW`] trail lengths.
#[derive(Debug, Default)]
pub struct Dynamic {
    lbds: std::collections::VecDeque<u32>,
    lbd_sum: u64,
    all_sum: u64,
    all_n: u64,
    trails: std::collections::VecDeque<u32>,
    trail_sum: u64,
}

/// LBDs in the recent average.
pub const WINDOW: usize = 50;
/// A restart is due when recent average × K > global average.
pub const K: f64 = 0.8;
/// Trail lengths in the blocking average.
pub const TRAIL_WINDOW: usize = 5000;
/// Block when the trail is this much longer than its recent average…
pub const BLOCK_R: f64 = 1.4;
/// …and at least this many conflicts have been seen.
pub const BLOCK_AFTER: u64 = 10_000;

impl Dynamic {
    /// A conflict learned a nogood of LBD `lbd` with `trail` literals assigned when it was
    /// found; true when a restart is due (the recent window then starts anew).
    pub fn on_conflict(&mut self, lbd: u32, trail: u32) -> bool {
        self.all_sum += lbd as u64;
        self.all_n += 1;
        push_window(&mut self.trails, &mut self.trail_sum, trail, TRAIL_WINDOW);
        if self.all_n > BLOCK_AFTER
            && self.lbds.len() == WINDOW
            && self.trails.len() == TRAIL_WINDOW
            && trail as f64 > BLOCK_R * self.trail_sum as f64 / TRAIL_WINDOW as f64
        {
            self.lbds.clear();
            self.lbd_sum = 0;
        }
        push_window(&mut self.lbds, &mut self.lbd_sum, lbd, WINDOW);
        let due = self.lbds.len() == WINDOW
            && self.lbd_sum as f64 / WINDOW as f64 * K > self.all_sum as f64 / self.all_n as f64;
        if due {
            self.lbds.clear();
            self.lbd_sum = 0;
        }
        due
    }
}

/// The host engine's restart policy (`--restarts`): Luby's, or dynamic with the due flag
/// that the last conflict set.
#[derive(Debug)]
pub enum Schedule {
    Luby(Restarts),
    Dynamic(Dynamic, bool),
}

impl Schedule {
    pub fn new(policy: crate::engine::RestartPolicy) -> Schedule {
        match policy {
            crate::engine::RestartPolicy::Luby => Schedule::Luby(Restarts::default()),
            crate::engine::RestartPolicy::Dynamic => Schedule::Dynamic(Dynamic::default(), false),
        }
    }

    /// A conflict learned a nogood of LBD `lbd` with `trail` literals assigned.
    pub fn on_conflict(&mut self, lbd: u32, trail: u32) {
        if let Schedule::Dynamic(d, due) = self {
            *due |= d.on_conflict(lbd, trail);
        }
    }

    /// True (once per restart) when a restart is due after `conflicts` conflicts.
    pub fn due(&mut self, conflicts: u64) -> bool {
        match self {
            Schedule::Luby(r) => r.due(conflicts),
            Schedule::Dynamic(_, due) => std::mem::take(due),
        }
    }
}

fn push_window(q: &mut std::collections::VecDeque<u32>, sum: &mut u64, x: u32, cap: usize) {
    if q.len() == cap {
        *sum -= q.pop_front().expect("a full window") as u64;
    }
    q.push_back(x);
    *sum += x as u64;
}

/// The `i`-th term (from 1) of the Luby sequence.
pub fn luby(i: u64) -> u64 {
    // Find the subsequence of length 2^k - 1 that holds i, then recurse into its prefix.
    let mut i = i;
    loop {
        let mut k = 1;
        while (1u64 << k) - 1 < i {
            k += 1;
        }
        if (1u64 << k) - 1 == i {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn luby_sequence() {
        let got: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(got, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn restarts_follow_luby() {
        let mut r = Restarts::default();
        assert!(!r.due(UNIT - 1));
        assert!(r.due(UNIT));
        assert!(!r.due(2 * UNIT - 1));
        assert!(r.due(2 * UNIT)); // luby(2) = 1 unit later
        assert!(!r.due(4 * UNIT - 1));
        assert!(r.due(4 * UNIT)); // luby(3) = 2 units later
    }

    #[test]
    fn dynamic_restarts_when_recent_lbds_exceed_the_average() {
        let mut d = Dynamic::default();
        // A steady LBD never restarts: recent × K stays below the average.
        for _ in 0..1000 {
            assert!(!d.on_conflict(10, 100));
        }
        // Worse nogoods: due once the window's average × K exceeds the global one.
        let mut n = 0;
        while !d.on_conflict(30, 100) {
            n += 1;
            assert!(n < WINDOW, "no restart after a window of bad nogoods");
        }
        // The window starts anew: not due before it fills again.
        for _ in 0..WINDOW - 1 {
            assert!(!d.on_conflict(30, 100));
        }
    }

    #[test]
    fn dynamic_restarts_are_blocked_by_a_long_trail() {
        let warm = |d: &mut Dynamic| {
            for _ in 0..BLOCK_AFTER as usize + TRAIL_WINDOW {
                assert!(!d.on_conflict(10, 100));
            }
        };
        // Unblocked, bad nogoods make a restart due within a few conflicts.
        let mut d = Dynamic::default();
        warm(&mut d);
        assert!((0..5).any(|_| d.on_conflict(40, 100)));
        // One conflict with a trail twice the usual clears the window: no restart before it
        // has filled again, however bad the nogoods.
        let mut d = Dynamic::default();
        warm(&mut d);
        assert!(!d.on_conflict(40, 200));
        for _ in 0..WINDOW - 2 {
            assert!(!d.on_conflict(40, 100));
        }
        assert!(d.on_conflict(40, 100));
    }
}
