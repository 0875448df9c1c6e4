//! The `#[repr(C)]` twins of the many-searches kernel's `struct Prog` and `struct Geo`
//! (`kernels/search/common.cuh`), passed by value at each launch.
//!
//! Invariant: their layout is the kernel structs' (size asserted, every `Geo` offset named in
//! [`OFFSETS`]), and every `YSM_*` constant mirrored in `layout.rs` equals the header's
//! (the tests parse it).

use super::layout::*;

/// The kernel's `struct Prog` (pointers as u64: device addresses, or host addresses under the
/// emulation).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ProgParams {
    pub ptrs: [u64; 37],
    pub num_vars: u32,
    pub num_atoms: u32,
    pub n_input: u32,
    pub n_units: u32,
    pub first_long: u32,
    pub img_blocks: u32,
    pub n_cyc: u32,
    pub n_sup: u32,
    pub ufs: u32,
    pub n_nsum: u32,
    pub nsum_max: u32,
    pub obj_sum: u32,
}

/// The kernel's `struct Geo`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct GeoParams {
    pub base: u64,
    pub hdr: u64,
    pub ctr: u64,
    pub cfg: u64,
    pub status: u64,
    pub global: u64,
    pub share: u64,
    pub stride: u64,
    pub o: [u32; 28],
    pub pool_blocks: u32,
    pub arena_words: u32,
    pub lcap: u32,
    pub n_searches: u32,
    pub stop_on_model: u32,
    pub share_slots: u32,
    pub pad: [u32; 2],
}

// SAFETY: plain old data, passed by value to the kernel.
unsafe impl cudarc::driver::DeviceRepr for ProgParams {}
// SAFETY: as above.
unsafe impl cudarc::driver::DeviceRepr for GeoParams {}

impl GeoParams {
    pub fn new(geo: &Geometry, n_searches: u32) -> GeoParams {
        GeoParams {
            stride: geo.stride,
            o: geo.o,
            pool_blocks: geo.pool_blocks,
            arena_words: geo.arena_words,
            lcap: geo.lcap,
            n_searches,
            stop_on_model: 1,
            share_slots: SHARE_SLOTS,
            ..GeoParams::default()
        }
    }
}

impl Default for ProgParams {
    fn default() -> Self {
        ProgParams {
            ptrs: [0; 37],
            num_vars: 0,
            num_atoms: 0,
            n_input: 0,
            n_units: 0,
            first_long: 0,
            img_blocks: 0,
            n_cyc: 0,
            n_sup: 0,
            ufs: 0,
            n_nsum: 0,
            nsum_max: 0,
            obj_sum: NONE,
        }
    }
}

impl ProgParams {
    pub fn counts(p: &ProgArrays) -> ProgParams {
        ProgParams {
            num_vars: p.num_vars,
            num_atoms: p.num_atoms,
            n_input: p.n_input,
            n_units: p.n_units,
            first_long: p.first_long,
            img_blocks: p.img_blocks,
            n_cyc: p.cyc_atoms.len() as u32,
            n_sup: p.sup_head.len() as u32,
            ufs: u32::from(p.ufs),
            n_nsum: p.nsums.len() as u32,
            nsum_max: p.nsums.max_len,
            obj_sum: p.nsums.obj,
            ..ProgParams::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lit::Lit;

    const HEADER: &str = include_str!("../../../kernels/search/common.cuh");

    fn define(name: &str) -> u64 {
        let line = HEADER
            .lines()
            .find(|l| l.starts_with(&format!("#define {name} ")))
            .unwrap_or_else(|| panic!("{name} not in common.cuh"));
        let v = line
            .split_whitespace()
            .nth(2)
            .unwrap()
            .trim_end_matches('u');
        v.parse().unwrap()
    }

    #[test]
    fn constants_match_the_kernel_header() {
        assert_eq!(define("YSM_NONE"), NONE as u64);
        assert_eq!(define("YSM_BLOCK"), BLOCK as u64);
        assert_eq!(define("YSM_H_WORDS"), H_WORDS as u64);
        assert_eq!(define("YSM_C_WORDS"), C_WORDS as u64);
        assert_eq!(define("YSM_CFG_WORDS"), CFG_WORDS as u64);
        assert_eq!(define("YSM_LHDR"), LHDR as u64);
        assert_eq!(define("YSM_SCNT"), SCNT);
        assert_eq!(define("YSM_SHARE_WORDS"), SHARE_WORDS as u64);
        assert_eq!(define("YSM_SHARE_MAX"), SHARE_MAX as u64);
        assert_eq!(define("YSM_H_STATUS"), h::STATUS as u64);
        assert_eq!(define("YSM_H_ERR"), h::ERR as u64);
        assert_eq!(define("YSM_H_LEN"), h::LEN as u64);
        assert_eq!(define("YSM_H_ASM_EPOCH"), h::ASM_EPOCH as u64);
        assert_eq!(
            define("YSM_NONE"),
            crate::engine::gpu::sum_arrays::NONE as u64
        );
        for (name, v) in [
            ("INIT", status::INIT),
            ("RUN", status::RUN),
            ("MODEL", status::MODEL),
            ("BLOCK", status::BLOCK),
            ("UNSAT", status::UNSAT),
            ("ERROR", status::ERROR),
            ("CORE", status::CORE),
        ] {
            assert_eq!(define(&format!("YSM_ST_{name}")), v as u64);
        }
        for (name, v) in [
            ("DECISIONS", c::DECISIONS),
            ("CONFLICTS", c::CONFLICTS),
            ("PROPS", c::PROPS),
            ("LEARNED", c::LEARNED),
            ("LEARNED_LITS", c::LEARNED_LITS),
            ("RESTARTS", c::RESTARTS),
            ("DELETED", c::DELETED),
            ("LOOPS", c::LOOPS),
            ("FWD_FALLBACK", c::FWD_FALLBACK),
            ("MODELS", c::MODELS),
            ("EXPORTED", c::EXPORTED),
            ("IMPORTED", c::IMPORTED),
            ("CUBES", c::CUBES),
            ("SPLITS", c::SPLITS),
            ("CY_RUN", c::CY_RUN),
            ("CY_PROP", c::CY_PROP),
            ("CY_SHORT", c::CY_SHORT),
            ("CY_RESOLVE", c::CY_RESOLVE),
            ("CY_UFS", c::CY_UFS),
            ("CY_RESTART", c::CY_RESTART),
            ("STEPS", c::STEPS),
        ] {
            assert_eq!(define(&format!("YSM_C_{name}")), v as u64);
        }
        for (name, v) in [
            ("LEARNING", cfg::LEARNING),
            ("RESTART", cfg::RESTART),
            ("SIGN", cfg::SIGN),
            ("ORDER", cfg::ORDER),
            ("SEED", cfg::SEED),
            ("SAVE", cfg::SAVE),
            ("CUBE", cfg::CUBE),
        ] {
            assert_eq!(define(&format!("YSM_CFG_{name}")), v as u64);
        }
        for (name, v) in [
            ("MODELS", g::MODELS),
            ("ENDED", g::ENDED),
            ("STOP", g::STOP),
            ("SHARE_HEAD", g::SHARE_HEAD),
            ("CUBE_OPEN", g::CUBE_OPEN),
            ("CUBE_BITS", g::CUBE_BITS),
            ("DECIDED", g::DECIDED),
            ("CUBE_VAR", g::CUBE_VAR),
            ("CUBE_SPLIT", g::CUBE_SPLIT),
            ("POOL_USED", g::POOL_USED),
            ("POOL_OPEN", g::POOL_OPEN),
            ("POOL", g::POOL),
            ("OBJ_K", g::OBJ_K),
            ("OBJ_EPOCH", g::OBJ_EPOCH),
            ("N_ASSUME", g::N_ASSUME),
            ("ASM_EPOCH", g::ASM_EPOCH),
            ("WORDS", g::WORDS),
        ] {
            assert_eq!(define(&format!("YSM_G_{name}")), v as u64);
        }
        assert_eq!(define("YSM_CUBE_MAX_BITS"), g::CUBE_MAX_BITS as u64);
        assert_eq!(define("YSM_POOL_SLOTS"), g::POOL_SLOTS as u64);
        assert_eq!(define("YSM_SLOT_WORDS"), g::SLOT_WORDS as u64);
    }

    #[test]
    fn the_literal_encoding_matches_lit_rs() {
        for def in [
            "YS_D u32 lvar(u32 l) { return l >> 1; }",
            "YS_D bool lpos(u32 l) { return (l & 1u) == 0; }",
            "YS_D u32 lneg(u32 l) { return l ^ 1u; }",
            "YS_D u32 ltrue(u32 v) { return v << 1; }",
            "YS_D u32 lfalse(u32 v) { return (v << 1) | 1u; }",
        ] {
            assert!(HEADER.lines().any(|l| l == def), "common.cuh lacks {def}");
        }
        for v in [1u32, 2, 1000, (1 << 30) - 1] {
            assert_eq!(Lit::t(v).code(), v << 1);
            assert_eq!(Lit::f(v).code(), (v << 1) | 1);
            assert_eq!(Lit::t(v).negate().code(), Lit::t(v).code() ^ 1);
            assert_eq!(Lit::f(v).code() >> 1, v);
        }
    }

    #[test]
    fn struct_sizes_match_the_kernel() {
        // struct Prog: 37 pointers, 12 words; struct Geo: 8 pointer-sized, 28 + 8 words.
        assert_eq!(std::mem::size_of::<ProgParams>(), 37 * 8 + 12 * 4);
        assert_eq!(std::mem::size_of::<GeoParams>(), 8 * 8 + 36 * 4);
        let geo_fields = HEADER
            .split("struct Geo {")
            .nth(1)
            .unwrap()
            .split("};")
            .next()
            .unwrap();
        assert_eq!(OFFSETS[SCRATCH], "scratch");
        for name in OFFSETS {
            assert!(
                geo_fields.contains(&format!("o_{name}")),
                "Geo lacks o_{name}"
            );
        }
    }
}
