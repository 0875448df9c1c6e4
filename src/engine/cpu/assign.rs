//! The assignment and its trail: which literals hold, at which decision level, for what reason.
//!
//! Invariant: `vals[l]` is 1 exactly when `l` holds and -1 exactly when `l.negate()` holds
//! (both entries of a variable are kept in step); every assigned variable appears once on
//! `trail`, in assignment order, with `trail_pos` pointing at it; `lim[i]` is the trail length
//! when level `i + 1` began, so the decision of level `i + 1` is `trail[lim[i]]`; a variable's
//! `reason` is the nogood that propagated it, or `NO_REASON` for decisions and level-0 units.

use crate::lit::{Lit, Var};

/// `reason` of a decision or of a literal fixed at level 0 by a unit nogood.
pub const NO_REASON: u32 = u32::MAX;

#[derive(Debug, Default)]
pub struct Assignment {
    /// By literal code: 1 holds, -1 its complement holds, 0 unassigned.
    pub vals: Vec<i8>,
    /// By variable: the decision level it was assigned at.
    pub level: Vec<u32>,
    /// By variable: the nogood that propagated it (or `NO_REASON`).
    pub reason: Vec<u32>,
    /// By variable: its index on the trail.
    pub trail_pos: Vec<u32>,
    pub trail: Vec<Lit>,
    /// Trail length at the start of each decision level `1..`.
    pub lim: Vec<u32>,
    /// Trail entries before `qhead` have been propagated.
    pub qhead: usize,
}

impl Assignment {
    /// Room for variables `0..num_vars`.
    pub fn new(num_vars: usize) -> Self {
        Assignment {
            vals: vec![0; 2 * num_vars],
            level: vec![0; num_vars],
            reason: vec![NO_REASON; num_vars],
            trail_pos: vec![0; num_vars],
            trail: Vec::with_capacity(num_vars),
            lim: Vec::new(),
            qhead: 0,
        }
    }

    #[inline]
    pub fn holds(&self, l: Lit) -> bool {
        self.vals[l.code() as usize] > 0
    }
    /// The complement of `l` holds.
    #[inline]
    pub fn is_false(&self, l: Lit) -> bool {
        self.vals[l.code() as usize] < 0
    }
    #[inline]
    pub fn value(&self, l: Lit) -> i8 {
        self.vals[l.code() as usize]
    }
    #[inline]
    pub fn is_unassigned(&self, v: Var) -> bool {
        self.vals[(v << 1) as usize] == 0
    }
    #[inline]
    pub fn level_of(&self, v: Var) -> u32 {
        self.level[v as usize]
    }
    /// The current decision level.
    #[inline]
    pub fn level(&self) -> u32 {
        self.lim.len() as u32
    }
    /// The decision literal of level `lvl >= 1`.
    #[inline]
    pub fn decision(&self, lvl: u32) -> Lit {
        self.trail[self.lim[lvl as usize - 1] as usize]
    }

    /// Make `l` hold at the current level (bookkeeping only; the engine adds its hooks).
    #[inline(always)]
    pub fn set(&mut self, l: Lit, reason: u32) {
        let v = l.var() as usize;
        assert!(v < self.level.len(), "{l} is no variable of the assignment");
        debug_assert_eq!(self.vals[l.code() as usize], 0, "{l} assigned twice");
        // SAFETY: v < level.len() (checked above) = reason.len() = trail_pos.len(), and
        // vals.len() = 2 * level.len() holds both literals of v (`new`).
        unsafe {
            *self.vals.get_unchecked_mut(l.code() as usize) = 1;
            *self.vals.get_unchecked_mut(l.negate().code() as usize) = -1;
            *self.level.get_unchecked_mut(v) = self.lim.len() as u32;
            *self.reason.get_unchecked_mut(v) = reason;
            *self.trail_pos.get_unchecked_mut(v) = self.trail.len() as u32;
        }
        let n = self.trail.len();
        // Every variable is on the trail at most once and `new` reserved room for all of them,
        // so the push never grows the vector (checked here; unchecked on the hot path).
        assert!(n < self.trail.capacity(), "trail longer than the variables");
        // SAFETY: n < capacity (checked above), and the slot is initialised before the length
        // is raised to cover it.
        unsafe {
            self.trail.as_mut_ptr().add(n).write(l);
            self.trail.set_len(n + 1);
        }
    }

    /// Forget `l` (the caller pops it from the trail).
    #[inline(always)]
    pub fn clear(&mut self, l: Lit) {
        let v = l.var() as usize;
        assert!(
            v < self.reason.len(),
            "{l} is no variable of the assignment"
        );
        // SAFETY: as in `set`.
        unsafe {
            *self.vals.get_unchecked_mut(l.code() as usize) = 0;
            *self.vals.get_unchecked_mut(l.negate().code() as usize) = 0;
            *self.reason.get_unchecked_mut(v) = NO_REASON;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_clear_keep_both_signs_in_step() {
        let mut a = Assignment::new(4);
        a.lim.push(0);
        a.set(Lit::f(2), NO_REASON);
        assert!(a.holds(Lit::f(2)));
        assert!(a.is_false(Lit::t(2)));
        assert_eq!(a.level_of(2), 1);
        assert_eq!(a.decision(1), Lit::f(2));
        a.set(Lit::t(3), 7);
        assert_eq!(a.reason[3], 7);
        assert_eq!(a.trail_pos[3], 1);
        a.clear(Lit::f(2));
        assert!(a.is_unassigned(2));
        assert_eq!(a.value(Lit::t(2)), 0);
    }
}
