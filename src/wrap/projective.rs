//! Projective enumeration (clingo's `--project`): models that agree on the projection atoms
//! count as one, and only the first of each class is reported (with all its atoms, as clingo
//! prints it).
//!
//! Invariant: no two models reported agree on every projection atom, and every class of the
//! inner engine's models is reported once before `Exhausted`. After each model the inner
//! engine gets the nogood of its projection (`Engine::add_nogood`), so the search skips the
//! rest of the class, until the model loop asks for enumeration by backtracking: then the
//! inner engine enumerates one model per class itself (`Engine::enumerate_projected`, the host
//! engine's projective backtracking), nothing more is added and nothing is kept per class. An
//! engine that takes no nogoods (the GPU engine) enumerates every model and the repeats are
//! dropped here.

use crate::engine::{Bound, Engine, EngineError, Limits, Stats, Step};
use crate::lit::Lit;
use std::collections::HashSet;

/// An engine whose models are `inner`'s, one per projection class.
pub struct Project<E: Engine + ?Sized> {
    inner: Box<E>,
    /// The projection atoms, sorted, distinct.
    atoms: Vec<u32>,
    /// The projections reported (true projection atoms, sorted).
    seen: HashSet<Vec<u32>>,
    learns: bool,
    /// The inner engine enumerates one model per class (`Engine::enumerate_projected`).
    by_backtracking: bool,
}

impl<E: Engine + ?Sized> Project<E> {
    /// Project `inner`'s models onto `atoms`.
    pub fn new(inner: Box<E>, mut atoms: Vec<u32>) -> Self {
        atoms.sort_unstable();
        atoms.dedup();
        Project {
            inner,
            atoms,
            seen: HashSet::new(),
            learns: true,
            by_backtracking: false,
        }
    }
}

impl<E: Engine + ?Sized> Engine for Project<E> {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        loop {
            let step = self.inner.next_model(limits)?;
            let Step::Model(model) = step else {
                return Ok(step);
            };
            if self.by_backtracking {
                return Ok(Step::Model(model)); // one per class, by the engine's own search
            }
            let holds = |a: &u32| model.atoms.binary_search(a).is_ok();
            let projection: Vec<u32> = self.atoms.iter().copied().filter(holds).collect();
            if !self.seen.insert(projection) {
                continue; // a class reported already (an engine that took no nogood)
            }
            if self.learns {
                let ng: Vec<Lit> = self
                    .atoms
                    .iter()
                    .map(|a| if holds(a) { Lit::t(*a) } else { Lit::f(*a) })
                    .collect();
                self.learns = self.inner.add_nogood(&ng);
            }
            return Ok(Step::Model(model));
        }
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

    fn fixed(&self, atom: u32) -> Option<bool> {
        self.inner.fixed(atom)
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> bool {
        self.inner.add_nogood(lits)
    }

    /// The classes reported so far are blocked by their nogoods: the inner engine takes over
    /// (it learned each of them, else it does not enumerate by backtracking).
    fn enumerate_by_backtracking(&mut self) -> bool {
        if !self.by_backtracking && self.learns {
            self.by_backtracking = self.inner.enumerate_projected(&self.atoms);
            if self.by_backtracking {
                self.seen = HashSet::new();
            }
        }
        self.by_backtracking
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cpu::tests::{opts, prog};
    use crate::engine::cpu::CpuEngine;
    use crate::engine::Model;
    use crate::engine::{Heuristic, Learning};
    use lparse::Rule;

    /// Replays fixed models and takes no nogoods, as the GPU engine.
    struct Scripted(Vec<Vec<u32>>, Stats);
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
    }

    fn all(e: &mut dyn Engine) -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        while let Step::Model(m) = e.next_model(&Limits::none()).unwrap() {
            out.push(m.atoms);
        }
        out
    }

    #[test]
    fn one_model_per_class_with_and_without_nogoods() {
        // {a; b; c}. :- not b.  projected onto a: {b} and {a, b} classes.
        let p = prog(vec![
            Rule::choice(&[1, 2, 3], &[]),
            Rule::normal(&[], &[-2]),
        ]);
        let g = crate::analyse::analyse(&p).unwrap();
        let c = crate::nogoods::complete(&g);
        let cpu = CpuEngine::new(&g, &c, opts(Learning::Res, Heuristic::Activity, 1));
        let mut e = Project::new(Box::new(cpu), vec![1]);
        let got = all(&mut e);
        assert_eq!(got.len(), 2, "{got:?}");
        assert_ne!(got[0].contains(&1), got[1].contains(&1));
        assert!(e.stats().models <= 3, "the nogood cuts the class short");

        // Asked after the first model (as the model loop does), the engine takes over.
        let cpu = CpuEngine::new(&g, &c, opts(Learning::Res, Heuristic::Activity, 1));
        let mut e = Project::new(Box::new(cpu), vec![1]);
        let Step::Model(first) = e.next_model(&Limits::none()).unwrap() else {
            panic!("a model")
        };
        assert!(e.enumerate_by_backtracking());
        let rest = all(&mut e);
        assert_eq!(rest.len(), 1, "{rest:?}");
        assert_ne!(first.atoms.contains(&1), rest[0].contains(&1));
        assert_eq!(e.stats().models, 2, "one model a class");

        let models = vec![vec![2], vec![2, 3], vec![1, 2], vec![1, 2, 3]];
        let mut e = Project::new(Box::new(Scripted(models, Stats::default())), vec![1]);
        assert_eq!(all(&mut e), vec![vec![1, 2, 3], vec![2, 3]]);
        // The empty projection: one model.
        let models = vec![vec![2], vec![1, 2]];
        let mut e = Project::new(Box::new(Scripted(models, Stats::default())), vec![]);
        assert_eq!(all(&mut e), vec![vec![1, 2]]);
    }
}
