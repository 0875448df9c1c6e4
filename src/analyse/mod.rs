//! Program → analysed program: the atom table, distinct bodies shared between rules, the
//! positive dependency graph, its strongly connected components and tightness.
//!
//! Invariant: every rule of the input that the solver honours appears in `rules` exactly once
//! (after [`simplify`], when it ran: read under the atoms settled in every answer set, or left
//! out when that makes it say nothing),
//! pointing at the one `BodyDef` equal to its body, except a disjunctive rule `a₁;…;aₖ :- B`,
//! which appears as its `k` shifted rules `aᵢ :- B, not aⱼ (j ≠ i)` (module `shift`; in a program
//! with a head cycle the components with one are marked acyclic and described in `minimality`,
//! module `minimality`) or, in a head-cycle-free program whose head set has several bodies, as
//! `d :- B` for the one auxiliary atom `d` of that head set, shifted once as `aᵢ :- d, not aⱼ`;
//! no rule has a disjunctive head; the input's atoms keep their program numbers
//! (`1..=input_atoms()`) and the auxiliary atoms follow (`input_atoms()+1..=num_atoms`), each a
//! function of the others in every answer set, so that an answer set is determined by its input
//! atoms; an atom is in a cyclic component exactly when it lies on a cycle of the
//! positive dependency graph (head ← positive body atom, through sum bodies' positive literals
//! too) and not in a component with a head cycle; `tight` = no cyclic component.

pub mod alias;
mod analyse;
pub mod eq;
pub mod minimality;
pub mod normalise;
pub mod objective;
pub mod scc;
mod shift;
pub mod simplify;

pub use analyse::{analyse, analyse_with, Unsupported};

/// [`analyse`], then preprocessing as `--eq` asks: when on, the rules read under the atoms
/// settled in every answer set ([`simplify`]) and atom elimination ([`alias::eliminate`]);
/// when off, neither, and every body a variable of its own.
pub fn analyse_eq(program: &lparse::Program, eq: bool) -> Result<GroundProgram, Unsupported> {
    let mut ground = analyse_with(program, eq)?;
    if eq {
        alias::eliminate(&mut ground);
    } else {
        ground = ground.without_equivalences();
    }
    Ok(ground)
}
pub use minimality::Minimality;
pub use objective::Objective;

/// A distinct rule body. Literals use the program's signed convention (`a` / `-a`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BodyDef {
    /// `pos₁, …, not neg₁, …` (sorted, no duplicates).
    Conj { pos: Vec<u32>, neg: Vec<u32> },
    /// `lower <= Σ weight·[lit]`, weights > 0 after normalisation, lower > 0.
    Sum { lower: i64, lits: Vec<(i32, i64)> },
}

/// One rule: `head` (empty = integrity constraint) `:- bodies[body]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleDef {
    pub head: Vec<u32>,
    pub choice: bool,
    pub body: u32,
}

/// The analysed program every later stage reads.
#[derive(Clone, Debug, Default)]
pub struct GroundProgram {
    /// Atoms are `1..=num_atoms`: the input's, then `aux_atoms` auxiliary ones.
    pub num_atoms: u32,
    /// Atoms the analysis added (one per shared disjunctive head set, module `shift`), the last
    /// of `1..=num_atoms`. They are variables like any atom, but no model, checker, output or
    /// projection sees them: the engines report [`GroundProgram::input_atoms`] only.
    pub aux_atoms: u32,
    /// Shared (an `Arc`): the host engine's threads read them without a copy each.
    pub bodies: std::sync::Arc<Vec<BodyDef>>,
    pub rules: Vec<RuleDef>,
    /// Atom → rules with that atom in the head (CSR over `0..=num_atoms`).
    pub head_offsets: Vec<u32>,
    pub head_rules: Vec<u32>,
    /// Atom → id of its strongly connected component of the positive dependency graph.
    pub scc: Vec<u32>,
    /// Component id → it holds a cycle (more than one atom, or a self-loop).
    pub scc_cyclic: Vec<bool>,
    /// No cyclic component: supported models are answer sets (with `minimality`: candidates).
    pub tight: bool,
    /// Statements of the input that were ignored (e.g. `#heuristic`); the CLI prints them.
    pub warnings: Vec<String>,
    /// The `#heuristic` directives, for `--heuristic=domain` (host engine).
    pub heuristics: Vec<lparse::Heuristic>,
    /// The `#minimize` statements by priority (empty when there are none).
    pub objective: Objective,
    /// A disjunctive program that is not head-cycle-free: its components with a head cycle
    /// (marked acyclic in `scc_cyclic`) and their rules, for the minimality check of each
    /// candidate model (`wrap::minimality_check`). `None` for every other program.
    pub minimality: Option<Minimality>,
    /// What reading the rules under the atoms settled in every answer set did ([`simplify`];
    /// all zero when it did not run).
    pub simplified: simplify::Simplified,
    /// Bodies the completion may give an atom's variable ([`eq`]; off when `--eq=0`).
    pub eq: eq::Equivalences,
    /// Atoms read through another atom's literal ([`alias`]; empty unless
    /// [`alias::eliminate`] ran, which the CLI does with `--eq` > 0).
    pub aliases: alias::Aliases,
}

/// Test helper: `rules` as a program, analysed.
#[cfg(test)]
pub(crate) fn analysed(rules: &[lparse::Rule]) -> GroundProgram {
    use lparse::ProgramBuilder;
    let mut p = lparse::Program::default();
    for r in rules {
        p.rule(r.clone());
    }
    analyse(&p).unwrap()
}

impl GroundProgram {
    /// Rules with `atom` in the head.
    pub fn rules_of(&self, atom: u32) -> &[u32] {
        let a = atom as usize;
        &self.head_rules[self.head_offsets[a] as usize..self.head_offsets[a + 1] as usize]
    }
    /// The input program's atoms are `1..=input_atoms()`; a model holds only those.
    pub fn input_atoms(&self) -> u32 {
        self.num_atoms - self.aux_atoms
    }
    /// `atom` lies on a positive cycle.
    pub fn is_cyclic(&self, atom: u32) -> bool {
        self.scc_cyclic[self.scc[atom as usize] as usize]
    }
    /// Equivalence preprocessing off (`--eq=0`): every body gets a variable of its own.
    pub fn without_equivalences(mut self) -> GroundProgram {
        self.eq = eq::Equivalences::default();
        self.aliases = alias::Aliases::default();
        self
    }
}
