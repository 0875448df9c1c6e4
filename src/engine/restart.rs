//! Restarts on the Luby sequence (1, 1, 2, 1, 1, 2, 4, …) times [`UNIT`] conflicts.
//!
//! Shared by both engines. Invariant: `next` is the conflict count at which the next restart is
//! due; restarting only backtracks to the top level, so learned, loop and blocking nogoods all
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
}
