//! The one literal encoding of the solver, shared by the host engine and the device kernels
//! (`kernels/search/common.cuh` defines the same; a test checks they agree).
//!
//! A variable is an atom of the program (same number) or an auxiliary the completion introduces
//! (bodies, aggregate counters); variable 0 is never used. A literal is a *signed assignment*
//! as in the paper: `T v` encoded `2v`, `F v` encoded `2v + 1`. A nogood is a set of literals
//! that must not all hold.

/// A variable index (atoms keep their program number).
pub type Var = u32;

/// `T v` = `2v`, `F v` = `2v + 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Lit(pub u32);

impl Lit {
    /// `T v`: v is true.
    #[inline]
    pub const fn t(v: Var) -> Lit {
        Lit(v << 1)
    }
    /// `F v`: v is false.
    #[inline]
    pub const fn f(v: Var) -> Lit {
        Lit((v << 1) | 1)
    }
    /// `T v` when `value`, else `F v`.
    #[inline]
    pub const fn new(v: Var, value: bool) -> Lit {
        Lit((v << 1) | (!value) as u32)
    }
    #[inline]
    pub const fn var(self) -> Var {
        self.0 >> 1
    }
    /// True for `T v`.
    #[inline]
    pub const fn is_true(self) -> bool {
        self.0 & 1 == 0
    }
    /// The same variable with the opposite sign (`p̄` in the paper).
    #[inline]
    pub const fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }
    #[inline]
    pub const fn code(self) -> u32 {
        self.0
    }
}

/// `T a` for the program literal `a`, `F a` for `-a`: the solver literal "the program literal
/// holds".
pub fn holds(lit: i32) -> Lit {
    Lit::new(lit.unsigned_abs(), lit > 0)
}

impl std::fmt::Display for Lit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}{}",
            if self.is_true() { 'T' } else { 'F' },
            self.var()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoding_round_trips() {
        for v in [1u32, 2, 77, (1 << 30) - 1] {
            assert_eq!(Lit::t(v).var(), v);
            assert_eq!(Lit::f(v).var(), v);
            assert!(Lit::t(v).is_true());
            assert!(!Lit::f(v).is_true());
            assert_eq!(Lit::t(v).negate(), Lit::f(v));
            assert_eq!(Lit::new(v, true), Lit::t(v));
            assert_eq!(Lit::new(v, false), Lit::f(v));
            assert_eq!(Lit::t(v).code(), 2 * v);
        }
    }
}
