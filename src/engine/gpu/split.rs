//! Splitting for UNSAT on the many-searches engine: the 2^k cubes (sign patterns of k chosen
//! variables) that half the searches take as assumptions (`kernels/search/cube.cuh`), so that
//! a proof that no (further) model exists is shared out instead of repeated by every search.
//!
//! Invariant: the cubes cover every assignment (all 2^k sign patterns of k distinct
//! variables), so when each is refuted, no model is left; a cube is handed to one search.

use super::layout::{g, ProgArrays};

/// How many cube variables `n` searches split on: half of them take cubes, about four each
/// (`requested`: the user's `--gpu-cubes`, 0 = no splitting), at most the candidates found.
pub fn bits(n: usize, requested: Option<u32>, candidates: usize) -> u32 {
    let k = match requested {
        Some(k) => k as usize,
        None if n < 4 => 0,
        None => ((n / 2).next_power_of_two().trailing_zeros() + 2) as usize,
    };
    k.min(g::CUBE_MAX_BITS).min(candidates) as u32
}

/// Search `sid` of `n` takes cubes (every second one, so each portfolio row has some that do
/// and some that search freely; the only one when `n` is 1).
pub fn takes_cubes(sid: usize, n: usize) -> bool {
    n == 1 || sid % 2 == 1
}

/// The variables to split on, best first: atoms in the static order (`layout.rs`),
/// leaving out those a unit nogood fixes.
pub fn candidates(p: &ProgArrays) -> Vec<u32> {
    let mut fixed = vec![false; p.num_vars as usize];
    for i in 0..p.n_units as usize {
        let l = p.ng_lits[p.ng_off[i] as usize];
        fixed[(l >> 1) as usize] = true;
    }
    p.order_static
        .iter()
        .copied()
        .filter(|&v| p.vkind[v as usize] == 0 && !fixed[v as usize])
        .take(g::CUBE_MAX_BITS)
        .collect()
}

/// The global words at the start: zero, with the cube variables `vars`, their 2^k cubes open,
/// and `split` conflicts on a cube before a search splits it.
pub fn global_words(vars: &[u32], split: u32) -> Vec<u32> {
    assert!(vars.len() <= g::CUBE_MAX_BITS);
    let mut w = vec![0u32; g::WORDS];
    w[g::CUBE_BITS] = vars.len() as u32;
    w[g::CUBE_VAR..g::CUBE_VAR + vars.len()].copy_from_slice(vars);
    if !vars.is_empty() {
        w[g::CUBE_OPEN] = 1 << vars.len();
        w[g::CUBE_SPLIT] = split;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn about_four_cubes_per_splitting_search() {
        assert_eq!(bits(2, None, 16), 0);
        assert_eq!(bits(4, None, 16), 3); // 2 searches on cubes, 8 cubes
        assert_eq!(bits(200, None, 16), 9); // 100 on cubes, 512 cubes
        assert_eq!(bits(200, None, 5), 5);
        assert_eq!(bits(200, Some(0), 16), 0);
        assert_eq!(bits(200, Some(30), 16), 16);
    }

    #[test]
    fn global_words_hold_the_cube_variables() {
        let w = global_words(&[7, 3], 500);
        assert_eq!(w.len(), g::WORDS);
        assert_eq!(w[g::CUBE_BITS], 2);
        assert_eq!(&w[g::CUBE_VAR..g::CUBE_VAR + 2], &[7, 3]);
        assert_eq!(w[g::CUBE_OPEN], 4);
        assert_eq!(w[g::CUBE_SPLIT], 500);
        assert!(w[..g::CUBE_OPEN].iter().all(|&x| x == 0));
        assert!(w[g::POOL_USED..].iter().all(|&x| x == 0));
        let none = global_words(&[], 500);
        assert_eq!((none[g::CUBE_OPEN], none[g::CUBE_SPLIT]), (0, 0));
    }

    #[test]
    fn candidates_are_free_atoms_by_occurrence() {
        let p = ProgArrays {
            // nogood 0: the unit {T 2}; variables 1..=4, 4 is a body.
            ng_lits: vec![4],
            ng_off: vec![0, 1],
            n_units: 1,
            num_vars: 5,
            order_static: vec![4, 2, 3, 1],
            vkind: vec![0, 0, 0, 0, 1],
            ..ProgArrays::default()
        };
        assert_eq!(candidates(&p), vec![3, 1]);
    }
}
