//! The host's copy of the numbers and the parameter struct of `kernels/yasmin.cuh`.
//!
//! Invariant: every constant here equals the `#define YS_<NAME>` of the header (the test
//! `constants_match_header` parses the header and compares both ways), and [`DevParams`] has the
//! layout of `struct Dev` (size checked against `YS_DEV_BYTES` here and by a `static_assert` in
//! the header).

/// `(name, value)` of every `YS_*` number the host uses, as in the header.
pub const CONSTANTS: &[(&str, u64)] = &[
    ("LIT_SHIFT", LIT_SHIFT as u64),
    ("LIT_FALSE_BIT", LIT_FALSE_BIT as u64),
    ("NONE", NONE as u64),
    ("ST_CDL", st::CDL as u64),
    ("ST_CONFLICT", st::CONFLICT as u64),
    ("ST_PARITY", st::PARITY as u64),
    ("ST_FRONT_LEN0", st::FRONT_LEN0 as u64),
    ("ST_FRONT_LEN1", st::FRONT_LEN1 as u64),
    ("ST_ROUND_DONE", st::ROUND_DONE as u64),
    ("ST_FIXPOINT", st::FIXPOINT as u64),
    ("ST_ACTION", st::ACTION as u64),
    ("ST_EPOCH", st::EPOCH as u64),
    ("ST_UNSAT", st::UNSAT as u64),
    ("ST_L_COUNT", st::L_COUNT as u64),
    ("ST_L_USED", st::L_USED as u64),
    ("ST_BJ_LEVEL", st::BJ_LEVEL as u64),
    ("ST_LOOP_LEN", st::LOOP_LEN as u64),
    ("ST_UFS_SEED", st::UFS_SEED as u64),
    ("ST_UFS_EPOCH", st::UFS_EPOCH as u64),
    ("ST_UFS_FLAG0", st::UFS_FLAG0 as u64),
    ("ST_ASSERT_LIT", st::ASSERT_LIT as u64),
    ("ST_ASSERT_NG", st::ASSERT_NG as u64),
    ("ST_LEARN_EPOCH", st::LEARN_EPOCH as u64),
    ("ST_DEC_DONE", st::DEC_DONE as u64),
    ("ST_BEST_LO", st::BEST_LO as u64),
    ("ST_BEST_HI", st::BEST_HI as u64),
    ("ST_N_COMPLETED", st::N_COMPLETED as u64),
    ("ST_ERROR", st::ERROR as u64),
    ("ST_ACT_INC", st::ACT_INC as u64),
    ("ST_ROUNDS_BUSY", st::ROUNDS_BUSY as u64),
    ("ST_UNDO_DONE", st::UNDO_DONE as u64),
    ("ST_GO", st::GO as u64),
    ("ST_BAR_COUNT", st::BAR_COUNT as u64),
    ("ST_BAR_GEN", st::BAR_GEN as u64),
    ("ST_LB_COUNT", st::LB_COUNT as u64),
    ("ST_LT_COUNT", st::LT_COUNT as u64),
    ("ID_LBIN", ID_LBIN as u64),
    ("ID_LTER", ID_LTER as u64),
    ("ID_MASK", ID_MASK as u64),
    ("ST_HOST_WORDS", st::HOST_WORDS as u64),
    ("ST_WORDS", st::WORDS as u64),
    ("ACT_NONE", act::NONE as u64),
    ("ACT_DECIDED", act::DECIDED as u64),
    ("ACT_COMPLETED", act::COMPLETED as u64),
    ("ACT_TOTAL", act::TOTAL as u64),
    ("ERR_NOT_VIOLATED", 1),
    ("ERR_LEARN_CAPACITY", 2),
    ("ERR_NO_REASON", 3),
    ("ERR_WATCH", 4),
    ("ERR_UFS_EXTERNAL", 5),
    ("CTR_PROPS", ctr::PROPS as u64),
    ("CTR_DECISIONS", ctr::DECISIONS as u64),
    ("CTR_CONFLICTS", ctr::CONFLICTS as u64),
    ("CTR_LEARNED", ctr::LEARNED as u64),
    ("CTR_LEARNED_LITS", ctr::LEARNED_LITS as u64),
    ("CTR_ROUNDS", ctr::ROUNDS as u64),
    ("CTR_FWD_FALLBACK", ctr::FWD_FALLBACK as u64),
    ("CTR_RES_STEPS", ctr::RES_STEPS as u64),
    ("CTR_MINIMISED", ctr::MINIMISED as u64),
    ("CTR_LEARNED_SHORT", ctr::LEARNED_SHORT as u64),
    ("CTR_WORDS", ctr::WORDS as u64),
    ("DEPS_WORDS", DEPS_WORDS as u64),
    ("DEPS_LEVELS", DEPS_LEVELS as u64),
    ("HEUR_OCC", 0),
    ("HEUR_JW", 1),
    ("HEUR_ACTIVITY", 2),
    ("BODY_CONJ", BODY_CONJ as u64),
    ("BODY_SUM", BODY_SUM as u64),
    ("SRC_CONFLICT", src::CONFLICT as u64),
    ("SRC_INJECT", src::INJECT as u64),
    ("SRC_DECISIONS", src::DECISIONS as u64),
    ("BLOCK", BLOCK as u64),
    ("FULL_MASK", u32::MAX as u64),
    ("LEARN_THREADS", LEARN_THREADS as u64),
    ("DEV_BYTES", DEV_BYTES as u64),
];

pub const LIT_SHIFT: u32 = 1;
pub const LIT_FALSE_BIT: u32 = 1;
pub const NONE: u32 = u32::MAX;
pub const DEPS_WORDS: usize = 2;
pub const DEPS_LEVELS: u32 = 128;
pub const BODY_CONJ: u32 = 0;
pub const BODY_SUM: u32 = 1;
pub const BLOCK: u32 = 256;
pub const LEARN_THREADS: u32 = 256;
pub const DEV_BYTES: usize = 480;
/// Tags of the short learned partition in nogood ids (`kernels/yasmin.cuh`): binary j is
/// `ID_LBIN | j`, ternary j is `ID_LTER | j`; input and long learned ids stay below `ID_LBIN`.
pub const ID_LBIN: u32 = 0x8000_0000;
pub const ID_LTER: u32 = 0xC000_0000;
pub const ID_MASK: u32 = 0x3FFF_FFFF;

/// Indices into the state words `st`.
pub mod st {
    pub const CDL: usize = 0;
    pub const CONFLICT: usize = 1;
    pub const PARITY: usize = 2;
    pub const FRONT_LEN0: usize = 3;
    pub const FRONT_LEN1: usize = 4;
    pub const ERROR: usize = 5;
    pub const FIXPOINT: usize = 6;
    pub const ACTION: usize = 7;
    pub const EPOCH: usize = 8;
    pub const UNSAT: usize = 9;
    pub const L_COUNT: usize = 10;
    pub const L_USED: usize = 11;
    /// Length of the loop nogood `ufs_check_k` wrote into `inject` (0: the assignment is
    /// stable); read with the other host words.
    pub const LOOP_LEN: usize = 12;
    pub const ASSERT_LIT: usize = 13;
    pub const ASSERT_NG: usize = 14;
    pub const LEARN_EPOCH: usize = 15;
    pub const DEC_DONE: usize = 16;
    pub const BJ_LEVEL: usize = 17;
    pub const BEST_LO: usize = 18;
    pub const BEST_HI: usize = 19;
    pub const N_COMPLETED: usize = 20;
    pub const ROUND_DONE: usize = 22;
    pub const ACT_INC: usize = 23;
    pub const ROUNDS_BUSY: usize = 24;
    pub const UNDO_DONE: usize = 25;
    pub const GO: usize = 26;
    pub const BAR_COUNT: usize = 27;
    pub const BAR_GEN: usize = 28;
    pub const LB_COUNT: usize = 29;
    pub const LT_COUNT: usize = 30;
    pub const UFS_SEED: usize = 32;
    pub const UFS_EPOCH: usize = 33;
    pub const UFS_FLAG0: usize = 34;
    /// The host reads back only `st[..HOST_WORDS]` per iteration (CDL..L_USED, ERROR,
    /// LOOP_LEN).
    pub const HOST_WORDS: usize = 13;
    pub const WORDS: usize = 40;
}

/// Values of `st[ACTION]`.
pub mod act {
    pub const NONE: u32 = 0;
    pub const DECIDED: u32 = 1;
    pub const COMPLETED: u32 = 2;
    pub const TOTAL: u32 = 3;
}

/// Indices into the 64-bit counters `ctr`.
pub mod ctr {
    pub const PROPS: usize = 0;
    pub const DECISIONS: usize = 1;
    pub const CONFLICTS: usize = 2;
    pub const LEARNED: usize = 3;
    pub const LEARNED_LITS: usize = 4;
    pub const ROUNDS: usize = 5;
    pub const FWD_FALLBACK: usize = 6;
    pub const RES_STEPS: usize = 7;
    /// Literals dropped from res nogoods by local minimisation (learn.cu `minimise`).
    pub const MINIMISED: usize = 8;
    /// Learned nogoods stored in the short partition (length 2 or 3).
    pub const LEARNED_SHORT: usize = 9;
    pub const WORDS: usize = 10;
}

/// What `learn_analyse_k` analyses.
pub mod src {
    pub const CONFLICT: u32 = 0;
    pub const INJECT: u32 = 1;
    pub const DECISIONS: u32 = 2;
}

/// `struct Dev` of the header: device pointers (as `u64`), then 32-bit sizes and options.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct DevParams {
    pub st: u64,
    pub ctr: u64,
    pub ng_lits: u64,
    pub ng_off: u64,
    pub occ_off: u64,
    pub occ: u64,
    pub a: u64,
    pub reason: u64,
    pub stamp: u64,
    pub deps: u64,
    pub ready: u64,
    pub front0: u64,
    pub front1: u64,
    pub dec_lit: u64,
    pub l_lits: u64,
    pub l_off: u64,
    pub delta: u64,
    pub mark: u64,
    pub inject: u64,
    pub rule_body_var: u64,
    pub rule_body: u64,
    pub rule_head_off: u64,
    pub rule_heads: u64,
    pub body_off: u64,
    pub body_items: u64,
    pub body_kind: u64,
    pub lit_score: u64,
    pub act: u64,
    pub socc_off: u64,
    pub socc: u64,
    pub iwatch: u64,
    pub inext: u64,
    pub ihead: u64,
    pub lwatch: u64,
    pub lnext: u64,
    pub lhead: u64,
    pub lb_lits: u64,
    pub lb_next: u64,
    pub lb_head: u64,
    pub lt_lits: u64,
    pub lt_next: u64,
    pub lt_head: u64,
    pub ufs_founded: u64,
    pub ufs_part: u64,
    pub ufs_mark: u64,
    pub scc: u64,
    pub cyc_atoms: u64,
    pub sup_head: u64,
    pub sup_rule: u64,
    pub sum_off: u64,
    pub sum_lits: u64,
    pub sum_w: u64,
    pub sum_lower: u64,
    pub n_input: u32,
    pub n_units: u32,
    pub num_vars: u32,
    pub num_atoms: u32,
    pub l_cap_lits: u32,
    pub l_cap_ng: u32,
    pub n_rules: u32,
    pub heuristic: u32,
    pub fwd: u32,
    pub seed: u32,
    pub n_cyc: u32,
    pub n_sup: u32,
    pub lb_cap: u32,
    pub lt_cap: u32,
}

// SAFETY: plain old data, passed by value as a kernel parameter with the C layout of `Dev`.
unsafe impl cudarc::driver::DeviceRepr for DevParams {}

const _: () = assert!(std::mem::size_of::<DevParams>() == DEV_BYTES);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Lit;

    fn header_defines() -> Vec<(String, u64)> {
        let text = include_str!("../../../kernels/yasmin.cuh");
        let mut out = Vec::new();
        for line in text.lines() {
            let mut w = line.split_whitespace();
            if w.next() != Some("#define") {
                continue;
            }
            let (Some(name), Some(value)) = (w.next(), w.next()) else {
                continue;
            };
            let Some(name) = name.strip_prefix("YS_") else {
                continue;
            };
            let value = value.trim_end_matches('u');
            if let Ok(v) = value.parse::<u64>() {
                out.push((name.to_string(), v));
            }
        }
        out
    }

    #[test]
    fn constants_match_header() {
        let defs = header_defines();
        assert!(defs.len() > 40, "parsed too few #defines: {}", defs.len());
        for (name, v) in &defs {
            let host = CONSTANTS.iter().find(|(n, _)| n == name);
            assert_eq!(
                host.map(|h| h.1),
                Some(*v),
                "YS_{name} differs between header and host"
            );
        }
        for (name, v) in CONSTANTS {
            let dev = defs.iter().find(|(n, _)| n == name);
            assert_eq!(
                dev.map(|d| d.1),
                Some(*v),
                "YS_{name} missing or different in the header"
            );
        }
    }

    #[test]
    fn literal_encoding_matches_lit_rs() {
        for v in [1u32, 2, 1000, (1 << 30) - 1] {
            assert_eq!(Lit::t(v).code(), v << LIT_SHIFT);
            assert_eq!(Lit::f(v).code(), (v << LIT_SHIFT) | LIT_FALSE_BIT);
            assert_eq!(Lit::t(v).negate().code(), Lit::t(v).code() ^ LIT_FALSE_BIT);
        }
    }
}
