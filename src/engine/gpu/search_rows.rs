//! The rows of the device engine's portfolio: how the searches that run at once differ (restart
//! unit, sign policy, initial decision order, phase saving, seed), as data.
//!
//! Invariant: search i takes row `i % ROWS.len()` with its own seed; the learning scheme is the
//! one the user chose, the same for every search, and so is the initial order when the user
//! chose a static heuristic (`--heuristic=occ|jw`: every search starts from the static order,
//! which that heuristic ranks); with `activity` each row's own. Row 0 is the default search.

use super::layout::{cfg, CFG_WORDS};
use crate::engine::{GpuDecide, Heuristic, Learning};

/// Sign policies (`YSM_SIGN_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sign {
    /// Atoms false, bodies and auxiliaries true (clasp's).
    Asp = 0,
    False = 1,
    True = 2,
    Random = 3,
}

/// Initial VMTF order (`YSM_ORDER_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Index = 0,
    /// The program's static order (`layout::static_order`).
    Static = 1,
    Random = 2,
}

/// One row: a search configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub name: &'static str,
    /// Luby unit in conflicts.
    pub restart: u32,
    pub sign: Sign,
    pub order: Order,
    pub save_phase: bool,
}

pub const ROWS: [Row; 8] = [
    Row {
        name: "asp-luby100",
        restart: 100,
        sign: Sign::Asp,
        order: Order::Index,
        save_phase: true,
    },
    Row {
        name: "asp-luby256-occ",
        restart: 256,
        sign: Sign::Asp,
        order: Order::Static,
        save_phase: true,
    },
    Row {
        name: "false-luby64-random",
        restart: 64,
        sign: Sign::False,
        order: Order::Random,
        save_phase: true,
    },
    Row {
        name: "random-luby512-random-nosave",
        restart: 512,
        sign: Sign::Random,
        order: Order::Random,
        save_phase: false,
    },
    Row {
        name: "asp-luby32-occ-nosave",
        restart: 32,
        sign: Sign::Asp,
        order: Order::Static,
        save_phase: false,
    },
    Row {
        name: "asp-luby100-random",
        restart: 100,
        sign: Sign::Asp,
        order: Order::Random,
        save_phase: true,
    },
    Row {
        name: "true-luby128-random",
        restart: 128,
        sign: Sign::True,
        order: Order::Random,
        save_phase: true,
    },
    Row {
        name: "false-luby256-occ",
        restart: 256,
        sign: Sign::False,
        order: Order::Static,
        save_phase: true,
    },
];

/// The configuration words of `n` searches (`split`: the ones `split::takes_cubes` names work
/// on cubes).
pub fn configure(
    n: usize,
    learning: Learning,
    heuristic: Heuristic,
    decide: GpuDecide,
    seed: u64,
    split: bool,
) -> Vec<u32> {
    let mut out = vec![0u32; n * CFG_WORDS];
    for i in 0..n {
        let r = &ROWS[i % ROWS.len()];
        let w = &mut out[i * CFG_WORDS..(i + 1) * CFG_WORDS];
        w[cfg::LEARNING] = u32::from(learning == Learning::Fwd);
        w[cfg::RESTART] = r.restart;
        w[cfg::SIGN] = r.sign as u32;
        w[cfg::ORDER] = match uses_static_order(heuristic) {
            true => Order::Static,
            false => r.order,
        } as u32;
        w[cfg::SEED] = (seed as u32).wrapping_mul(1_000_003).wrapping_add(i as u32);
        w[cfg::SAVE] = u32::from(r.save_phase);
        w[cfg::CUBE] = u32::from(split && super::split::takes_cubes(i, n));
        w[cfg::DECIDE] = u32::from(match decide {
            GpuDecide::Vmtf => false,
            GpuDecide::Vsids => true,
            GpuDecide::Mixed => i % 2 == 1,
        });
    }
    out
}

/// Every search starts from the static order under `heuristic`.
fn uses_static_order(heuristic: Heuristic) -> bool {
    matches!(heuristic, Heuristic::Occ | Heuristic::Jw)
}

/// The rows the first `n` searches use, with how many searches run each ("name×k"), and the
/// order all start from under a static `heuristic`.
pub fn describe(n: usize, heuristic: Heuristic) -> String {
    let rows = ROWS
        .iter()
        .enumerate()
        .filter(|&(k, _)| k < n)
        .map(|(k, r)| format!("{}×{}", r.name, (n - k).div_ceil(ROWS.len())))
        .collect::<Vec<_>>()
        .join(", ");
    match uses_static_order(heuristic) {
        true => {
            let h = format!("{heuristic:?}").to_lowercase();
            format!("{rows}; every search starts from the {h} order")
        }
        false => rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_cycle_through_the_rows_with_their_own_seeds() {
        let c = configure(
            10,
            Learning::Res,
            Heuristic::Activity,
            GpuDecide::Vmtf,
            1,
            true,
        );
        let row = |i: usize| &c[i * CFG_WORDS..(i + 1) * CFG_WORDS];
        assert_eq!(row(0)[cfg::RESTART], ROWS[0].restart);
        assert_eq!(row(8)[cfg::RESTART], ROWS[0].restart);
        assert_ne!(row(0)[cfg::SEED], row(8)[cfg::SEED]);
        assert_eq!(row(3)[cfg::SIGN], Sign::Random as u32);
        assert!((0..10).all(|i| row(i)[cfg::LEARNING] == 0));
        assert_eq!((0..10).filter(|&i| row(i)[cfg::CUBE] == 1).count(), 5);
        assert!(configure(
            10,
            Learning::Res,
            Heuristic::Activity,
            GpuDecide::Vmtf,
            1,
            false
        )
        .chunks(CFG_WORDS)
        .all(|w| w[cfg::CUBE] == 0));
        let f = configure(
            2,
            Learning::Fwd,
            Heuristic::Activity,
            GpuDecide::Vmtf,
            1,
            false,
        );
        assert_eq!(f[cfg::LEARNING], 1);
        assert_eq!(row(2)[cfg::ORDER], Order::Random as u32);
        // A static heuristic: every search starts from the static order.
        let jw = configure(10, Learning::Res, Heuristic::Jw, GpuDecide::Vmtf, 1, false);
        assert!(jw
            .chunks(CFG_WORDS)
            .all(|w| w[cfg::ORDER] == Order::Static as u32));
        assert!(describe(3, Heuristic::Jw).ends_with("every search starts from the jw order"));
        assert_eq!(describe(10, Heuristic::Activity), "asp-luby100×2, asp-luby256-occ×2, false-luby64-random×1, random-luby512-random-nosave×1, asp-luby32-occ-nosave×1, asp-luby100-random×1, true-luby128-random×1, false-luby256-occ×1");
    }
}
