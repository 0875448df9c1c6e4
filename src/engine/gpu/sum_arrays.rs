//! The native sums of a completion (`nogoods::native`) as the many-searches kernel reads them
//! (`kernels/search/sums.cuh`): flat arrays uploaded once beside the nogoods, shared by every
//! search; each search keeps only its counters (`Geometry`: two `i64` per sum) and a few words
//! per variable for the lazy reasons.
//!
//! The objective of an optimisation (`folded_objective.rs`, folded into one weighted sum) is one
//! more sum, the last, without bounds (`obj`); its literals have only "true" entries (the kernel
//! counts no weight of false ones for it).
//!
//! Invariant: per sum, its literals are sorted by decreasing weight (rules 3 and 4 scan a
//! prefix), every weight is positive, its bounds ascend and lie in `1..=total`; the occurrence
//! entries of one literal code are grouped by sum (the kernel checks a sum once per literal).
//! `SumArrays::default()` is the program without native sums or objective.

use crate::lit::Lit;
use crate::nogoods::native::NativeSum;

/// Roles of an occurrence entry (bits 30-31 of `nocc_role`; `YSM_ROLE_*`).
const ROLE_TRUE: u32 = 0;
const ROLE_FALSE: u32 = 1 << 30;
const ROLE_BODY_TRUE: u32 = 2 << 30;
const ROLE_BODY_FALSE: u32 = 3 << 30;
/// Largest index an entry can carry (`YSM_ROLE_IDX`).
const IDX_MAX: usize = (1 << 30) - 1;
/// Input nogood ids must stay below the kernel's sum references (`YSM_SUMREF`).
pub const SUMREF: u32 = 0x7000_0000;

#[derive(Debug, Default)]
pub struct SumArrays {
    pub off: Vec<u32>,
    pub lits: Vec<u32>,
    pub w: Vec<i64>,
    pub total: Vec<i64>,
    pub boff: Vec<u32>,
    pub k: Vec<i64>,
    pub b: Vec<u32>,
    pub occ_off: Vec<u32>,
    pub occ_sum: Vec<u32>,
    pub occ_role: Vec<u32>,
    /// Literals of the longest sum.
    pub max_len: u32,
    /// The objective's index (the last sum), or `NONE`.
    pub obj: u32,
}

/// No objective (`YSM_NONE`).
pub const NONE: u32 = u32::MAX;

impl SumArrays {
    /// The kernel's view of `sums` over `num_vars` variables; an error when the kernel cannot
    /// address them (more than 2^28 variables: no GPU holds a search of that size anyway).
    /// With `objective`: its folded literals as the last sum.
    pub fn new(
        sums: &[NativeSum],
        objective: Option<&[(Lit, i64)]>,
        num_vars: u32,
    ) -> Result<SumArrays, String> {
        if sums.is_empty() && objective.is_none() {
            return Ok(SumArrays {
                obj: NONE,
                ..SumArrays::default()
            });
        }
        if u64::from(num_vars) >= (1u64 << 31) - u64::from(SUMREF) {
            return Err(format!("{num_vars} variables are too many for native sums"));
        }
        let mut a = SumArrays {
            off: vec![0],
            boff: vec![0],
            obj: NONE,
            ..SumArrays::default()
        };
        let mut entries: Vec<(u32, u32, u32)> = Vec::new(); // (lit code, sum, role)
        let objective = objective.map(|lits| NativeSum {
            lits: lits.to_vec(),
            bounds: Vec::new(),
        });
        for (s, ns) in sums.iter().chain(objective.as_ref()).enumerate() {
            let is_obj = s == sums.len();
            if ns.lits.len() > IDX_MAX || ns.bounds.len() > IDX_MAX {
                return Err("a native sum too long for the kernel".into());
            }
            let mut lits = ns.lits.clone();
            lits.sort_by_key(|&(l, w)| (std::cmp::Reverse(w), l));
            let s = s as u32;
            for (i, &(l, w)) in lits.iter().enumerate() {
                debug_assert!(w > 0, "native sum weights are positive");
                a.lits.push(l.code());
                a.w.push(w);
                entries.push((l.code(), s, ROLE_TRUE | i as u32));
                if !is_obj {
                    entries.push((l.negate().code(), s, ROLE_FALSE | i as u32));
                }
            }
            for (j, &(k, b)) in ns.bounds.iter().enumerate() {
                a.k.push(k);
                a.b.push(b);
                entries.push((Lit::t(b).code(), s, ROLE_BODY_TRUE | j as u32));
                entries.push((Lit::f(b).code(), s, ROLE_BODY_FALSE | j as u32));
            }
            a.total.push(lits.iter().map(|&(_, w)| w).sum());
            a.off.push(a.lits.len() as u32);
            a.boff.push(a.k.len() as u32);
            a.max_len = a.max_len.max(lits.len() as u32);
            if is_obj {
                a.obj = s;
            }
        }
        // Grouped by literal, then by sum (stable: the roles of one sum stay in order).
        entries.sort_by_key(|&(l, s, _)| (l, s));
        a.occ_off = vec![0u32; 2 * num_vars as usize + 1];
        for &(l, _, _) in &entries {
            a.occ_off[l as usize + 1] += 1;
        }
        for l in 0..2 * num_vars as usize {
            a.occ_off[l + 1] += a.occ_off[l];
        }
        a.occ_sum = entries.iter().map(|e| e.1).collect();
        a.occ_role = entries.iter().map(|e| e.2).collect();
        Ok(a)
    }

    /// Sums, the objective included.
    pub fn len(&self) -> usize {
        self.total.len()
    }

    /// The program's native sums (the objective not counted).
    pub fn native(&self) -> usize {
        self.len() - usize::from(self.obj != NONE)
    }

    pub fn is_empty(&self) -> bool {
        self.total.is_empty()
    }

    /// Bytes of the arrays (uploaded once).
    pub fn bytes(&self) -> u64 {
        let w32 = self.off.len()
            + self.lits.len()
            + self.boff.len()
            + self.b.len()
            + self.occ_off.len()
            + self.occ_sum.len()
            + self.occ_role.len();
        let w64 = self.w.len() + self.total.len() + self.k.len();
        (4 * w32 + 8 * w64) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_by_weight_and_entries_grouped_by_literal() {
        // b5 ↔ 1·a1 + 3·a2 ≥ 2, b6 ↔ … ≥ 4
        let s = NativeSum {
            lits: vec![(Lit::t(1), 1), (Lit::t(2), 3)],
            bounds: vec![(2, 5), (4, 6)],
        };
        let a = SumArrays::new(&[s], None, 7).unwrap();
        assert_eq!(a.lits, vec![Lit::t(2).code(), Lit::t(1).code()]);
        assert_eq!(a.w, vec![3, 1]);
        assert_eq!(a.total, vec![4]);
        assert_eq!((a.k.clone(), a.b.clone()), (vec![2, 4], vec![5, 6]));
        assert_eq!(a.max_len, 2);
        let code = Lit::f(1).code() as usize;
        let (from, to) = (a.occ_off[code] as usize, a.occ_off[code + 1] as usize);
        assert_eq!(a.occ_role[from..to], [ROLE_FALSE | 1]);
        let code = Lit::t(6).code() as usize;
        let (from, to) = (a.occ_off[code] as usize, a.occ_off[code + 1] as usize);
        assert_eq!(a.occ_role[from..to], [ROLE_BODY_TRUE | 1]);
        assert_eq!(*a.occ_off.last().unwrap() as usize, a.occ_sum.len());
    }

    #[test]
    fn the_objective_is_the_last_sum_without_bounds_or_false_entries() {
        let s = NativeSum {
            lits: vec![(Lit::t(1), 2)],
            bounds: vec![(1, 4)],
        };
        let obj = [(Lit::t(2), 1), (Lit::f(1), 5)];
        let a = SumArrays::new(&[s], Some(&obj), 5).unwrap();
        assert_eq!((a.len(), a.native(), a.obj), (2, 1, 1));
        assert_eq!(a.off, vec![0, 1, 3]);
        assert_eq!(a.boff, vec![0, 1, 1]);
        assert_eq!(&a.lits[1..], &[Lit::f(1).code(), Lit::t(2).code()]);
        assert_eq!(a.total, vec![2, 6]);
        assert_eq!(a.max_len, 2);
        // ¬a1 is an objective literal and a false one of sum 0: one entry each, by sum.
        let code = Lit::f(1).code() as usize;
        let (from, to) = (a.occ_off[code] as usize, a.occ_off[code + 1] as usize);
        assert_eq!(a.occ_sum[from..to], [0, 1]);
        assert_eq!(a.occ_role[from..to], [ROLE_FALSE, ROLE_TRUE]);
        // a2's complement triggers nothing.
        let code = Lit::f(2).code() as usize;
        assert_eq!(a.occ_off[code], a.occ_off[code + 1]);
        // An objective alone.
        let a = SumArrays::new(&[], Some(&obj), 5).unwrap();
        assert_eq!((a.len(), a.native(), a.obj), (1, 0, 0));
    }

    #[test]
    fn no_sums_no_arrays() {
        let a = SumArrays::new(&[], None, 10).unwrap();
        assert!(a.is_empty());
        assert_eq!(a.obj, NONE);
        assert_eq!(a.bytes(), 0);
    }
}
