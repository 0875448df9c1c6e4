//! Restarts on the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times [`UNIT`] conflicts (both
//! engines), dynamic ones (host engine, `--restarts=dynamic`) on the learned nogoods' LBD,
//! glucose's way ([`Dynamic`]), or clasp's local ones (host engine, `--restarts=local`,
//! [`Local`]).
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

/// Conflicts per Luby unit of [`Local`] (clasp tweety's `--restarts=L,60`).
pub const LOCAL_UNIT: u64 = 60;

/// clasp's local restarts (`--local-restarts`, after Ryvchin and Strichman, 2008) on the Luby
/// sequence × [`LOCAL_UNIT`] conflicts, as clasp's `tweety` configuration (clingo's default
/// for ASP) runs them: a restart is due when the conflicts counted at the current decision
/// level reach the limit, where a conflict counts at the level its backjump lands on and
/// every level it undoes hands its count down to that level (clasp's `cflStamp_`). A search
/// that keeps its upper levels while it works below them therefore restarts later than a
/// global count would have it: on a deep trail a restart costs a decision per level.
///
/// Invariant: `stamp[l]` is the count of level `l` (levels above the last backjump's have
/// none yet); after any restart `stamp` is `[0]`; after one this policy asked for, `limit` is
/// the next term × `LOCAL_UNIT`.
#[derive(Debug)]
pub struct Local {
    index: u64,
    limit: u64,
    stamp: Vec<u64>,
}

impl Default for Local {
    fn default() -> Self {
        Local {
            index: 1,
            limit: LOCAL_UNIT * luby(1),
            stamp: vec![0],
        }
    }
}

impl Local {
    /// A conflict's backjump landed on `level`; true when a restart is due (the next limit
    /// is then set and the counts start anew).
    pub fn on_conflict(&mut self, level: u32) -> bool {
        let dl = level as usize;
        let mut n = 1;
        while self.stamp.len() > dl + 1 {
            n += self.stamp.pop().expect("longer than dl + 1");
        }
        if self.stamp.len() < dl + 1 {
            self.stamp.resize(dl + 1, 0);
        }
        self.stamp[dl] += n;
        if self.stamp[dl] < self.limit {
            return false;
        }
        self.index += 1;
        self.limit = LOCAL_UNIT * luby(self.index);
        self.restarted();
        true
    }

    /// The search went back to the top level: a new branch, whose counts start at zero.
    pub fn restarted(&mut self) {
        self.stamp.clear();
        self.stamp.push(0);
    }
}

/// The host engine's restart policy (`--restarts`): Luby's, or dynamic or local with the due
/// flag that the last conflict set.
#[derive(Debug)]
pub enum Schedule {
    Luby(Restarts),
    Dynamic(Dynamic, bool),
    Local(Local, bool),
}

impl Schedule {
    pub fn new(policy: crate::engine::RestartPolicy) -> Schedule {
        match policy {
            crate::engine::RestartPolicy::Luby => Schedule::Luby(Restarts::default()),
            crate::engine::RestartPolicy::Dynamic => Schedule::Dynamic(Dynamic::default(), false),
            crate::engine::RestartPolicy::Local => Schedule::Local(Local::default(), false),
        }
    }

    /// A conflict learned a nogood of LBD `lbd` with `trail` literals assigned, and its
    /// backjump landed on `level`.
    pub fn on_conflict(&mut self, lbd: u32, trail: u32, level: u32) {
        match self {
            Schedule::Dynamic(d, due) => *due |= d.on_conflict(lbd, trail),
            Schedule::Local(l, due) => *due |= l.on_conflict(level),
            Schedule::Luby(_) => {}
        }
    }

    /// The engine restarted, for this policy or another reason (a phase switch): local counts
    /// start anew.
    pub fn restarted(&mut self) {
        if let Schedule::Local(l, _) = self {
            l.restarted();
        }
    }

    /// True (once per restart) when a restart is due after `conflicts` conflicts.
    pub fn due(&mut self, conflicts: u64) -> bool {
        match self {
            Schedule::Luby(r) => r.due(conflicts),
            Schedule::Dynamic(_, due) | Schedule::Local(_, due) => std::mem::take(due),
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
    fn local_restarts_count_the_current_branch() {
        let mut l = Local::default();
        // 59 conflicts landing on level 10 and one on level 12: no level has 60 yet.
        for _ in 0..59 {
            assert!(!l.on_conflict(10));
        }
        assert!(!l.on_conflict(12));
        // One landing on level 4 takes the counts of every level it undid down with it:
        // 59 + 1 + 1 = 61 reaches 60 x luby(1).
        assert!(l.on_conflict(4));
        // Counts start anew: a search whose conflicts land ever deeper never restarts, its
        // levels hold one conflict each, until a backjump to the top gathers them all.
        for lv in 1..=100 {
            assert!(!l.on_conflict(lv));
        }
        assert!(l.on_conflict(0)); // 101 >= 60 x luby(2)
                                   // The third limit is 60 x luby(3) = 120 conflicts at one level.
        for _ in 0..119 {
            assert!(!l.on_conflict(3));
        }
        assert!(l.on_conflict(3));
        // A restart for another reason (a phase switch) starts the counts anew too.
        for _ in 0..59 {
            assert!(!l.on_conflict(5));
        }
        l.restarted();
        assert!(!l.on_conflict(5));
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
