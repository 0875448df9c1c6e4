//! The many-searches engine's memory: the read-only program arrays every search shares
//! (`ProgArrays`, built once on the host), the per-search geometry (`Geometry`: where each
//! per-search array starts and how many words one search takes); the kernel structs' twins are
//! in `params.rs`.
//!
//! Invariant: every `YSM_*` constant mirrored here equals the header's (`params.rs` tests
//! it); the watch pool of [`Geometry`] has enough blocks that it never runs out (every long
//! nogood has two entries, and a list of n entries takes ceil(n / BLOCK) blocks).

use crate::analyse::{BodyDef, GroundProgram};
use crate::engine::Heuristic;
use crate::lit::Lit;
use crate::nogoods::{Completion, NogoodDb};

pub use super::params::{GeoParams, ProgParams};
use super::sum_arrays::{SumArrays, SUMREF};

pub const NONE: u32 = u32::MAX;
pub const BLOCK: usize = 16;
pub const H_WORDS: usize = 44;
pub const C_WORDS: usize = 21;
/// Sharing ring: words per slot, and slots.
pub const SHARE_WORDS: usize = 8;
pub const SHARE_SLOTS: u32 = 1 << 16;
/// Literals a slot of the sharing ring holds at most (`YSM_SHARE_MAX`).
pub const SHARE_MAX: usize = 6;
const _: () = assert!(
    SHARE_MAX + 2 <= SHARE_WORDS,
    "a slot holds its header and literals"
);
/// The search id a slot the host wrote carries (no search has it: every search imports it).
pub const HOST_SID: u32 = 0x00ff_ffff;
pub const CFG_WORDS: usize = 8;
pub const LHDR: usize = 3;
/// `i64` words per native sum and search (`YSM_SCNT`, `kernels/search/sums.cuh`).
pub const SCNT: u64 = 6;
/// Supports of cyclic atoms below this: a source is `YSM_SRC_SHIFT` = 3 bits up in a `u32`
/// (`kernels/search/unfounded.cuh`).
pub const SUP_MAX: u64 = (1 << 29) - 1;

/// Header words the host reads or writes (`YSM_H_*`).
pub mod h {
    pub const STATUS: usize = 0;
    pub const ERR: usize = 19;
    /// The length of a core (`assume.cuh`: the core in `scratch`).
    pub const LEN: usize = 20;
    pub const ASM_EPOCH: usize = 41;
}

/// Search statuses (`YSM_ST_*`).
pub mod status {
    pub const INIT: u32 = 0;
    pub const RUN: u32 = 1;
    pub const MODEL: u32 = 2;
    pub const BLOCK: u32 = 3;
    pub const UNSAT: u32 = 4;
    pub const ERROR: u32 = 5;
    /// An assumption is false: the search holds a core (`assume.cuh`).
    pub const CORE: u32 = 6;
}

/// Per-search counters (`YSM_C_*`).
pub mod c {
    pub const DECISIONS: usize = 0;
    pub const CONFLICTS: usize = 1;
    pub const PROPS: usize = 2;
    pub const LEARNED: usize = 3;
    pub const LEARNED_LITS: usize = 4;
    pub const RESTARTS: usize = 5;
    pub const DELETED: usize = 6;
    pub const LOOPS: usize = 7;
    pub const FWD_FALLBACK: usize = 8;
    pub const MODELS: usize = 9;
    pub const EXPORTED: usize = 10;
    pub const IMPORTED: usize = 11;
    pub const CUBES: usize = 12;
    pub const SPLITS: usize = 13;
    pub const CY_RUN: usize = 14;
    pub const CY_PROP: usize = 15;
    pub const CY_SHORT: usize = 16;
    pub const CY_RESOLVE: usize = 17;
    pub const CY_UFS: usize = 18;
    pub const CY_RESTART: usize = 19;
    pub const STEPS: usize = 20;
}

/// The global words (`YSM_G_*`), one array for all searches.
pub mod g {
    pub const MODELS: usize = 0;
    pub const ENDED: usize = 1;
    pub const STOP: usize = 2;
    pub const SHARE_HEAD: usize = 3;
    pub const CUBE_OPEN: usize = 5;
    pub const CUBE_BITS: usize = 6;
    pub const DECIDED: usize = 7;
    pub const CUBE_VAR: usize = 8;
    pub const CUBE_MAX_BITS: usize = 16;
    /// Conflicts a search spends on a cube before it splits it (`cube.cuh`; 0: never).
    pub const CUBE_SPLIT: usize = 24;
    /// The pool of split cubes (`cube_pool.cuh`): slots, words per slot, the two bitmaps
    /// (in use, published) and the slots.
    pub const POOL_SLOTS: usize = 4096;
    pub const SLOT_WORDS: usize = 24;
    pub const POOL_USED: usize = 32;
    pub const POOL_OPEN: usize = POOL_USED + POOL_SLOTS / 32;
    pub const POOL: usize = POOL_OPEN + POOL_SLOTS / 32;
    /// The objective's bound `k` (`i64`, low word first) and its epoch (`objective.cuh`).
    pub const OBJ_K: usize = POOL + POOL_SLOTS * SLOT_WORDS;
    pub const OBJ_EPOCH: usize = OBJ_K + 2;
    /// The assumptions (`assume.cuh`): how many, and the epoch the host raises with each list;
    /// the list itself follows the fixed words.
    pub const N_ASSUME: usize = OBJ_K + 4;
    pub const ASM_EPOCH: usize = OBJ_K + 5;
    pub const WORDS: usize = OBJ_K + 6;
}

/// Configuration words (`YSM_CFG_*`), the portfolio's rows.
pub mod cfg {
    pub const LEARNING: usize = 0;
    pub const RESTART: usize = 1;
    pub const SIGN: usize = 2;
    pub const ORDER: usize = 3;
    pub const SEED: usize = 4;
    pub const SAVE: usize = 5;
    pub const CUBE: usize = 6;
    /// 1: VSIDS decisions (`YSM_DECIDE_VSIDS`), 0: VMTF.
    pub const DECIDE: usize = 7;
}

/// The program as every search reads it.
#[derive(Debug, Default)]
pub struct ProgArrays {
    pub ng_lits: Vec<u32>,
    pub ng_off: Vec<u32>,
    /// Per literal its input nogoods of length 2 and 3 (CSR over occurrences): occurrence k is
    /// `socc[3k..3k + 3]` = (nogood id, the other literal, the third literal or NONE), so that
    /// propagation reads the other literals without going through `ng_off` and `ng_lits`.
    pub socc_off: Vec<u32>,
    pub socc: Vec<u32>,
    pub order_static: Vec<u32>,
    pub vkind: Vec<u8>,
    pub img_len: Vec<u32>,
    pub img_head: Vec<u32>,
    pub img_pool: Vec<u64>,
    pub scc: Vec<u32>,
    pub cyc_atoms: Vec<u32>,
    pub sup_head: Vec<u32>,
    pub sup_rule: Vec<u32>,
    pub hsup_off: Vec<u32>,
    pub hsup: Vec<u32>,
    pub dep_off: Vec<u32>,
    pub dep_sup: Vec<u32>,
    pub dep_w: Vec<i64>,
    pub rule_body: Vec<u32>,
    pub rule_body_var: Vec<u32>,
    pub body_off: Vec<u32>,
    pub body_items: Vec<u32>,
    pub body_kind: Vec<u32>,
    pub sum_off: Vec<u32>,
    pub sum_lits: Vec<u32>,
    pub sum_w: Vec<i64>,
    pub sum_lower: Vec<i64>,
    /// The native sums (`sum_arrays.rs`; empty when every sum is translated).
    pub nsums: SumArrays,
    pub num_vars: u32,
    pub num_atoms: u32,
    pub n_input: u32,
    pub n_units: u32,
    pub first_long: u32,
    pub img_blocks: u32,
    pub ufs: bool,
}

/// The variables in the static decision order (`YSM_ORDER_STATIC`), best first: by decreasing
/// Jeroslow-Wang score (Σ 2^-length over the input nogoods with the variable) under
/// `--heuristic=jw`, else by decreasing occurrences in the input nogoods; ties by index.
fn static_order(db: &NogoodDb, heuristic: Heuristic) -> Vec<u32> {
    let mut score = vec![0f64; db.num_vars as usize];
    for id in 0..db.len() {
        let n = db.nogood(id);
        let w = match heuristic {
            Heuristic::Jw => (-(n.len().min(1000) as f64)).exp2(),
            _ => 1.0,
        };
        for &l in n {
            score[(l >> 1) as usize] += w;
        }
    }
    let mut order: Vec<u32> = (1..db.num_vars).collect();
    order.sort_by(|&a, &b| {
        score[b as usize]
            .total_cmp(&score[a as usize])
            .then(a.cmp(&b))
    });
    order
}

/// Build a CSR over `n` keys from (key, value) pairs.
fn csr<T: Copy + Default>(n: usize, pairs: &[(usize, T)]) -> (Vec<u32>, Vec<T>) {
    crate::csr::Csr::from_pairs(n, pairs.iter().copied()).into_parts()
}

impl ProgArrays {
    /// The arrays of `c`; an error when the kernel cannot address them.
    /// `objective`: the folded objective's literals, bounded in every search.
    pub fn new(
        g: &GroundProgram,
        c: &Completion,
        objective: Option<&[(Lit, i64)]>,
        heuristic: Heuristic,
    ) -> Result<ProgArrays, String> {
        let db = &c.db;
        let nv = db.num_vars as usize;
        let n_input = db.len();
        if n_input >= SUMREF as usize {
            return Err(format!(
                "{n_input} nogoods are too many for the device engine"
            ));
        }
        let nsums = SumArrays::new(&c.native_sums, objective, db.num_vars)?;
        let n_units = db.bounds[0] as usize;
        let first_long = db.bounds[2] as usize;
        // Input nogoods of length 2 and 3 per literal, with their other literals.
        let mut pairs = Vec::new();
        for id in n_units..first_long {
            let n = db.nogood(id);
            for (k, &l) in n.iter().enumerate() {
                let mut other = n
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != k)
                    .map(|(_, &x)| x);
                let x = other.next().unwrap_or(NONE);
                let y = other.next().unwrap_or(NONE);
                pairs.push((l as usize, [id as u32, x, y]));
            }
        }
        let (socc_off, socc) = csr(2 * nv, &pairs);
        let socc = socc.into_iter().flatten().collect();
        let order_static = static_order(db, heuristic);
        let vkind = (0..nv).map(|v| u8::from(v as u32 > g.num_atoms)).collect();
        // The initial watch image: literals 0 and 1 of each long nogood.
        let mut img_len = vec![0u32; 2 * nv];
        for id in first_long..n_input {
            let n = db.nogood(id);
            img_len[n[0] as usize] += 1;
            img_len[n[1] as usize] += 1;
        }
        let mut img_head = vec![NONE; 2 * nv];
        let mut blocks = 0u32;
        for l in 0..2 * nv {
            if img_len[l] > 0 {
                img_head[l] = blocks;
                blocks += img_len[l].div_ceil(BLOCK as u32);
            }
        }
        let mut img_pool = vec![0u64; blocks as usize * BLOCK];
        let mut fill = vec![0u32; 2 * nv];
        for id in first_long..n_input {
            let n = db.nogood(id);
            for (w, b) in [(n[0], n[1]), (n[1], n[0])] {
                let l = w as usize;
                let pos = img_head[l] as usize * BLOCK + fill[l] as usize;
                img_pool[pos] = ((id as u64) << 32) | b as u64;
                fill[l] += 1;
            }
        }
        let mut p = ProgArrays {
            ng_lits: db.lits.clone(),
            ng_off: db.offsets.clone(),
            socc_off,
            socc,
            order_static,
            vkind,
            img_len,
            img_head,
            img_pool,
            num_vars: db.num_vars,
            num_atoms: g.num_atoms,
            n_input: n_input as u32,
            n_units: n_units as u32,
            first_long: first_long as u32,
            img_blocks: blocks,
            ufs: !g.tight,
            nsums,
            ..ProgArrays::default()
        };
        if !g.tight {
            p.add_unfounded(g, c);
        }
        Ok(p)
    }

    /// The data of the unfounded-set check (`kernels/search/unfounded.cuh`).
    fn add_unfounded(&mut self, g: &GroundProgram, c: &Completion) {
        let na = g.num_atoms as usize;
        self.scc = g.scc.clone();
        self.cyc_atoms = (1..=g.num_atoms).filter(|&a| g.is_cyclic(a)).collect();
        let mut used = vec![false; g.bodies.len()];
        for (r, rule) in g.rules.iter().enumerate() {
            for &h in rule.head.iter().filter(|&&h| g.is_cyclic(h)) {
                self.sup_head.push(h);
                self.sup_rule.push(r as u32);
                used[rule.body as usize] = true;
            }
        }
        self.rule_body = g.rules.iter().map(|r| r.body).collect();
        self.rule_body_var = g
            .rules
            .iter()
            .map(|r| c.body_var[r.body as usize])
            .collect();
        self.body_off.push(0);
        self.sum_off.push(0);
        self.sum_lower = vec![0; g.bodies.len()];
        for (b, body) in g.bodies.iter().enumerate() {
            match body {
                BodyDef::Conj { pos, neg } => {
                    self.body_kind.push(0);
                    self.body_items
                        .extend(pos.iter().map(|&q| Lit::t(q).code()));
                    self.body_items
                        .extend(neg.iter().map(|&q| Lit::f(q).code()));
                }
                BodyDef::Sum { lower, lits } => {
                    self.body_kind.push(1);
                    if used[b] {
                        self.sum_lower[b] = *lower;
                        for &(l, w) in lits {
                            let q = l.unsigned_abs();
                            self.sum_lits
                                .push(if l > 0 { Lit::t(q) } else { Lit::f(q) }.code());
                            self.sum_w.push(w);
                        }
                    }
                }
            }
            self.body_off.push(self.body_items.len() as u32);
            self.sum_off.push(self.sum_lits.len() as u32);
        }
        let mut by_head = Vec::new();
        let mut deps = Vec::new();
        for (s, (&h, &r)) in self.sup_head.iter().zip(&self.sup_rule).enumerate() {
            by_head.push((h as usize, s as u32));
            let b = self.rule_body[r as usize] as usize;
            let comp = g.scc[h as usize];
            let (items, weights): (Vec<u32>, Vec<i64>) = if self.body_kind[b] == 0 {
                let k = self.body_off[b] as usize..self.body_off[b + 1] as usize;
                (self.body_items[k.clone()].to_vec(), vec![1; k.len()])
            } else {
                let k = self.sum_off[b] as usize..self.sum_off[b + 1] as usize;
                (self.sum_lits[k.clone()].to_vec(), self.sum_w[k].to_vec())
            };
            for (it, w) in items.into_iter().zip(weights) {
                let q = (it >> 1) as usize;
                if it & 1 == 0 && g.scc[q] == comp {
                    deps.push((q, (s as u32, w)));
                }
            }
        }
        let (hsup_off, hsup) = csr(na + 1, &by_head);
        self.hsup_off = hsup_off;
        self.hsup = hsup;
        let (dep_off, dep) = csr(na + 1, &deps);
        self.dep_off = dep_off;
        self.dep_sup = dep.iter().map(|d| d.0).collect();
        self.dep_w = dep.iter().map(|d| d.1).collect();
    }

    pub fn n_long(&self) -> usize {
        (self.n_input - self.first_long) as usize
    }

    /// Bytes of the arrays (uploaded once).
    pub fn bytes(&self) -> u64 {
        let w32 = self.ng_lits.len()
            + self.ng_off.len()
            + self.socc_off.len()
            + self.socc.len()
            + self.order_static.len()
            + self.img_len.len()
            + self.img_head.len()
            + self.scc.len()
            + self.cyc_atoms.len()
            + 2 * self.sup_head.len()
            + self.hsup_off.len()
            + self.hsup.len()
            + self.dep_off.len()
            + self.dep_sup.len()
            + 2 * self.rule_body.len()
            + self.body_off.len()
            + self.body_items.len()
            + self.body_kind.len()
            + self.sum_off.len()
            + self.sum_lits.len();
        let w64 = self.img_pool.len() + self.dep_w.len() + self.sum_w.len() + self.sum_lower.len();
        (4 * w32 + 8 * w64 + self.vkind.len()) as u64 + self.nsums.bytes()
    }
}

/// Where each per-search array starts (32-bit words from the search's base).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Geometry {
    pub stride: u64,
    pub o: [u32; 28],
    pub pool_blocks: u32,
    pub arena_words: u32,
    pub lcap: u32,
}

/// Index of `scratch` in `Geometry::o` (where a search leaves its model's bits).
pub const SCRATCH: usize = 11;

/// Names of `Geometry::o`, in the order of the kernel's `Geo` fields.
pub const OFFSETS: [&str; 28] = [
    "asg", "reason", "trail", "lim", "deps", "mark", "lmark", "prev", "next", "stamp", "phase",
    "scratch", "inject", "wpair", "whead", "wtail", "wlen", "bnext", "pool", "arena", "founded",
    "ufsq", "ufsacc", "scnt", "tpos", "srec", "sconf", "sbuf",
];

/// Learned nogoods a search stores at most (with the arena's room, `Geometry::lcap`): the
/// default arena's share. The arena grows with the program (a learned nogood may be long), the
/// count need not: each stored nogood takes two watch entries, and the watch pool, sized for
/// them, was most of a large program's search (qsr 0043: 111 of 185 MB).
pub const LCAP_MAX: u64 = 1 << 16;

/// Words of learned arena a search gets at most per word of the program's nogoods and per
/// variable: a small program's learned nogoods are short and few, and the fixed arena (2^19
/// words and a watch pool for [`LCAP_MAX`] nogoods, about 3 MB a search) made each process of
/// the generated corpus hold about 7 GB of an H200 for its thousands of searches. A program of
/// 2,048 words or more (every benchmark instance) keeps the full arena.
pub const ARENA_PER_WORD: u64 = 256;

/// Watch-pool blocks beyond what the stored entries can hold (`kernels/search/watch.cuh`): while
/// the walk of a literal's list (`prop_watches`) moves entries out of it, its blocks are freed
/// only at the walk's end, so they are held twice: at most a block for each 16 entries moved,
/// so at most `entries / 16` (the list may hold every entry), which is given up to 4,096 blocks
/// (1 MB a search). A larger program's pool is then short only if one literal's list of more
/// than 65,536 entries moves nearly all of them while the learned store is full.
pub fn walk_slack(entries: u64) -> u64 {
    (entries / BLOCK as u64 + 1).min(4096)
}

impl Geometry {
    /// The layout of one search of `p`, with a learned arena of `arena_words` (less for a small
    /// program, [`ARENA_PER_WORD`], but never under four words a variable and 1,024); `fwd`: the
    /// searches learn forward (the paper's decision nogoods), which needs the dependency bitmaps.
    pub fn new(p: &ProgArrays, arena_words: u32, fwd: bool) -> Result<Geometry, String> {
        let nv = p.num_vars as u64;
        let na = p.num_atoms as u64 + 1;
        let small = ARENA_PER_WORD * (nv + p.ng_lits.len() as u64);
        let arena_words = (arena_words as u64).min(small).max(4 * nv + 1024);
        let lcap = (arena_words / 8).clamp(64, LCAP_MAX);
        let entries = 2 * (p.n_long() as u64 + lcap);
        let pool_blocks = entries / BLOCK as u64 + entries.min(2 * nv) + 2 + walk_slack(entries);
        let n_sup = p.sup_head.len() as u64;
        if p.ufs && n_sup >= SUP_MAX {
            // The unfounded-set check keeps a source support in 29 bits of a word.
            return Err(format!(
                "{n_sup} supports of cyclic atoms; the GPU engine's unfounded-set check takes at most {}",
                SUP_MAX - 1
            ));
        }
        // Native sums: SCNT i64 counters per sum, the lazy reasons' records per variable, and
        // a conflict and a reason of the longest sum (+ two literals).
        let (n_sums, sum_len) = (p.nsums.len() as u64, p.nsums.max_len as u64 + 2);
        let with_sums = |words: u64| if n_sums > 0 { words } else { 1 };
        // (words, 8-byte aligned)
        let sizes: [(u64, bool); 28] = [
            (nv, false),                               // asg
            (nv, false),                               // reason
            (nv + 1, false),                           // trail
            (nv + 2, false),                           // lim
            (if fwd { 4 * nv } else { 2 }, true),      // deps
            (nv, false),                               // mark
            (nv + 2, false),                           // lmark
            (nv, false),                               // prev
            (2 * nv, true),                            // next (VSIDS: 64-bit entries)
            (nv, false),                               // stamp
            (nv, false),                               // phase
            (nv + 1, false),                           // scratch
            (nv + 1, false),                           // inject
            (2 * p.n_long() as u64, true),             // wpair
            (2 * nv, false),                           // whead
            (2 * nv, false),                           // wtail
            (2 * nv, false),                           // wlen
            (pool_blocks, false),                      // bnext
            (pool_blocks * 2 * BLOCK as u64, true),    // pool
            (arena_words, false),                      // arena
            (if p.ufs { na } else { 1 }, false),       // founded
            (if p.ufs { 2 * na } else { 1 }, false),   // ufsq: S, then the atoms it founds
            (if p.ufs { 2 * n_sup } else { 2 }, true), // ufsacc
            (with_sums(2 * SCNT * n_sums), true),      // scnt
            (nv, false),                               // tpos
            (with_sums(3 * nv), false),                // srec
            (with_sums(sum_len), false),               // sconf
            (with_sums(sum_len), false),               // sbuf
        ];
        let mut o = [0u32; 28];
        let mut at = 0u64;
        for (k, &(words, align)) in sizes.iter().enumerate() {
            if align && at % 2 == 1 {
                at += 1;
            }
            if at > u32::MAX as u64 {
                return Err("one search needs more than 16 GiB".into());
            }
            o[k] = at as u32;
            at += words.max(1);
        }
        at += at % 2;
        if at > u32::MAX as u64 {
            return Err("one search needs more than 16 GiB".into());
        }
        Ok(Geometry {
            stride: at,
            o,
            pool_blocks: pool_blocks as u32,
            arena_words: arena_words as u32,
            lcap: lcap as u32,
        })
    }

    pub fn bytes_per_search(&self) -> u64 {
        4 * self.stride + 4 * (H_WORDS + 2 * C_WORDS + CFG_WORDS + 1) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_groups_values_by_key() {
        let (off, vals) = csr(3, &[(2, 'a'), (0, 'b'), (2, 'c')]);
        assert_eq!(off, vec![0, 1, 1, 3]);
        assert_eq!(vals, vec!['b', 'a', 'c']);
    }
}
