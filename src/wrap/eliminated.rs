//! Models of a program with eliminated atoms (`analyse::alias`): each eliminated atom takes the
//! value of its root literal, so that what leaves the engine is the input program's model.
//!
//! Invariant: for every model the inner engine reports (eliminated atoms false there, their own
//! variables being fixed false), the model reported holds exactly the inner model's atoms plus
//! each eliminated atom whose root literal holds in it, sorted; a nogood handed in over atoms is
//! passed on over their roots' literals (none when it holds `T r` and `F r`), and `fixed` of an eliminated atom is its root's.

use crate::analyse::alias::Aliases;
use crate::engine::{exchange, Bound, Engine, EngineError, Limits, Stats, Step};
use crate::lit::Lit;

/// An engine whose models hold the eliminated atoms of `aliases` too.
pub struct Alias<E: Engine + ?Sized> {
    inner: Box<E>,
    aliases: Aliases,
    /// The eliminated atoms (those with `aliases.of[q] != 0`).
    eliminated: Vec<u32>,
}

impl<E: Engine + ?Sized> Alias<E> {
    pub fn new(inner: Box<E>, aliases: Aliases) -> Self {
        Alias {
            inner,
            eliminated: aliases.eliminated().collect(),
            aliases,
        }
    }
}

impl<E: Engine + ?Sized> Engine for Alias<E> {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let step = self.inner.next_model(limits)?;
        let Step::Model(mut model) = step else {
            return Ok(step);
        };
        if self.eliminated.is_empty() {
            return Ok(Step::Model(model));
        }
        let inner = &model.atoms;
        let added: Vec<u32> = self
            .eliminated
            .iter()
            .copied()
            .filter(|&q| {
                let r = self.aliases.of[q as usize];
                Aliases::holds(r, inner.binary_search(&r.unsigned_abs()).is_ok())
            })
            .collect();
        model.atoms.extend(added);
        model.atoms.sort_unstable();
        model.atoms.dedup();
        Ok(Step::Model(model))
    }

    fn stats(&self) -> &Stats {
        self.inner.stats()
    }

    fn costs(&self) -> Option<Vec<i64>> {
        self.inner.costs()
    }

    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        self.inner.set_bound(bound)
    }

    fn share_with_host(&mut self, link: exchange::DeviceLink) -> bool {
        self.inner.share_with_host(link)
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> bool {
        let mut mapped: Vec<Lit> = lits.iter().map(|&l| self.aliases.lit(l)).collect();
        mapped.sort_unstable();
        mapped.dedup();
        if mapped.windows(2).any(|w| w[0].var() == w[1].var()) {
            return true; // `T r` and `F r`: it can never be violated
        }
        self.inner.add_nogood(&mapped)
    }

    fn assume(&mut self, lits: &[Lit]) -> bool {
        let mapped: Vec<Lit> = lits.iter().map(|&l| self.aliases.lit(l)).collect();
        self.inner.assume(&mapped)
    }

    /// Over the roots of eliminated atoms (what `assume` passed on).
    fn core(&self) -> Option<Vec<Lit>> {
        self.inner.core()
    }

    fn enumerate_by_backtracking(&mut self) -> bool {
        self.inner.enumerate_by_backtracking()
    }

    /// Over the roots: an eliminated atom's class is its root's.
    fn enumerate_projected(&mut self, atoms: &[u32]) -> bool {
        let roots: Vec<u32> = atoms
            .iter()
            .map(|&a| self.aliases.lit(Lit::t(a)).var())
            .collect();
        self.inner.enumerate_projected(&roots)
    }

    fn fixed(&self, atom: u32) -> Option<bool> {
        match self.aliases.of_atom(atom) {
            Some(r) => self
                .inner
                .fixed(r.unsigned_abs())
                .map(|v| Aliases::holds(r, v)),
            None => self.inner.fixed(atom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Model;

    /// Replays fixed models and records the nogoods it is given.
    struct Scripted(Vec<Vec<u32>>, Stats, Vec<Vec<Lit>>);
    impl Engine for Scripted {
        fn next_model(&mut self, _: &Limits) -> Result<Step, EngineError> {
            Ok(match self.0.pop() {
                Some(atoms) => Step::Model(Model { atoms }),
                None => Step::Exhausted,
            })
        }
        fn stats(&self) -> &Stats {
            &self.1
        }
        fn add_nogood(&mut self, lits: &[Lit]) -> bool {
            self.2.push(lits.to_vec());
            true
        }
        fn fixed(&self, atom: u32) -> Option<bool> {
            (atom == 1).then_some(true)
        }
    }

    #[test]
    fn eliminated_atoms_follow_their_roots() {
        // 3 = 1, 4 = not 1, 5 = not 2
        let aliases = Aliases {
            of: vec![0, 0, 0, 1, -1, -2],
        };
        let inner = Scripted(vec![vec![2], vec![1]], Stats::default(), Vec::new());
        let mut e = Alias::new(Box::new(inner), aliases);
        let atoms = |e: &mut Alias<Scripted>| match e.next_model(&Limits::none()).unwrap() {
            Step::Model(m) => m.atoms,
            s => panic!("{s:?}"),
        };
        assert_eq!(atoms(&mut e), [1, 3, 5]);
        assert_eq!(atoms(&mut e), [2, 4]);
        assert_eq!(e.next_model(&Limits::none()).unwrap(), Step::Exhausted);
        assert!(e.add_nogood(&[Lit::t(4), Lit::f(5), Lit::t(2)]));
        assert_eq!(
            e.inner.2,
            [vec![Lit::t(2), Lit::f(1)]].map(|mut v| {
                v.sort_unstable();
                v
            })
        );
        assert!(
            e.add_nogood(&[Lit::t(3), Lit::t(4)]),
            "T 1 and F 1: dropped"
        );
        assert_eq!(e.inner.2.len(), 1);
        assert_eq!(e.fixed(3), Some(true));
        assert_eq!(e.fixed(4), Some(false));
        assert_eq!(e.fixed(5), None);
    }
}
