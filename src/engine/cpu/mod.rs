//! The reference CDNL search on the host: the paper's Algorithm 1 run sequentially, with the
//! gaps of the design brief closed (unfounded sets, deep forward learning, enumeration).
//!
//! Invariants the engine keeps (each file states its own in detail):
//! - **Assignment** (`assign`): every assigned variable is on the trail once, with its decision
//!   level and its reason (the nogood that forced it; none for decisions and level-0 units).
//!   Every propagated literal is assigned at the highest level among its reason's other
//!   literals, so a literal of level `i > 0` always depends on the decision of level `i`.
//! - **Watches** (`watch`): literals 0 and 1 of every stored nogood are watched; after
//!   propagation without conflict no nogood is violated and none is unit with its literal
//!   unpropagated. Nogoods added during search (learned, loop, blocking) go through
//!   `integrate`, which picks watches and backjumps so this still holds.
//! - **Decisions** (`decide`): ASP computations first — `T b` for an applicable rule (head
//!   unassigned, body not false, positive body true), `T h` for a choice head whose body is
//!   true — ranked by `--heuristic`; when none is left, complete-assignment decides `F` on the
//!   remaining variables (atoms first), each as a decision of its own so that both learning
//!   schemes see it as one. With `--decide=vars` (`decide_vars`) any unassigned variable is
//!   decided instead, with a fixed or saved sign, and the rule hooks are not run.
//! - **Learning**: both schemes (`learn_res`: first UIP; `learn_fwd`: decision-level dependency
//!   sets, exact at any depth) produce a nogood implied by the stored ones with exactly one
//!   literal at the conflict level; the engine backjumps to the second-highest level, where it
//!   is unit and propagates (asserting). A conflict at level 0 means no (further) model.
//! - **Store** (`store`, `reduce`): only `Learned` nogoods are deleted, never one that is the
//!   reason of an assigned variable; loop and blocking nogoods are `Permanent`.
//! - **Unfounded sets** (`source`): at every fixpoint of unit propagation, every atom of a
//!   cyclic component is false or has a source (acyclic support through non-false bodies);
//!   the atoms of an unfounded set are made false by loop nogoods (`Learned`, re-derivable).
//! - **Answer sets** (`unfounded`): for a non-tight program a total assignment is reported only
//!   when no true atom of a cyclic component is unfounded; otherwise loop nogoods (violated by
//!   the assignment) are added and the search goes on as after a conflict. Where the source
//!   pointers are exact (no sum body inside a component, `Sources::exact`), the fixpoint of
//!   propagation that the total assignment is has shown that already, and the total check is
//!   skipped.
//! - **Enumeration**: after a model, either its last decision is flipped (`enum_bt.rs`, plain
//!   enumeration once `Engine::enumerate_by_backtracking` was asked; with
//!   `Engine::enumerate_projected`, the projection atoms are decided first and the deepest
//!   decision on one is flipped, one model per projection) or a permanent blocking
//!   nogood excludes exactly that model (over its atoms assigned above level 0, every atom's
//!   literal under a bound), so models never repeat and enumeration ends with `Exhausted`.
//! - **Solve limit** (`HostOptions::limit`): once the engine has had that many conflicts or
//!   restarts since it was built, every search ends with `Step::Limit` — after the analysis of
//!   the conflict that reached it, else at the next fixpoint of propagation — before any
//!   further decision or model.

mod assign;
mod assume;
mod decide;
pub mod decide_turns;
mod decide_vars;
// `--heuristic=domain`: the program's #heuristic directives.
mod domain;
mod enum_bt;
mod heuristic;
mod input;
mod integrate;
mod learn_fwd;
mod learn_res;
// The watch lists' pool.
mod lists;
mod loops;
// Optimisation: the objective's bound.
mod optimize;
mod reduce;
// Sharing learned nogoods with other host threads (`portfolio`).
mod search;
mod share;
mod source;
mod store;
// (agg) native sum constraints: the counter propagator.
mod sums;
mod unfounded;
mod watch;

#[cfg(test)]
pub(crate) mod tests;

use self::assign::{Assignment, NO_REASON};
use self::decide::Rules;
use self::decide_vars::SavedPhases;
use self::heuristic::Scores;
use self::integrate::Added;
use self::learn_fwd::Deps;
use self::optimize::ObjectiveBound;
use self::reduce::Reduce;
use self::source::Sources;
use self::store::{Kind, NgRef, Store};
use self::sums::SumPropagator;
use self::unfounded::Unfounded;

use super::{Bound, Engine, EngineError, HostOptions, Limits, Stats, Step};
use crate::analyse::GroundProgram;
use crate::engine::restart::Schedule;
use crate::engine::{Decide, Learning};
use crate::lit::{Lit, Var};
use crate::nogoods::Completion;
use std::time::Instant;

/// An atom's bump reaches the bodies of at most this many of its rules.
const BUMP_RULES: usize = 4;

/// The sequential search engine.
pub struct CpuEngine {
    opts: HostOptions,
    num_atoms: u32,
    /// The input's atoms, those a model reports (`GroundProgram::input_atoms`).
    input_atoms: u32,
    a: Assignment,
    store: Store,
    /// By literal code: the long nogoods to visit when that literal starts to hold.
    watches: lists::Lists,
    /// By literal code: the binary nogoods with that literal (the other one as `blocker`).
    bins: lists::Lists,
    scores: Scores,
    rules: Rules,
    /// `--decide=vars`: decide on any variable (`decide_vars`), not on applicable rules.
    vars: bool,
    /// `--decide=vars`: the sign of each variable's next decision.
    phases: SavedPhases,
    /// `--phase-switch`.
    switch: Option<decide_vars::PhaseSwitch>,
    /// `--decide=alternate`: when decisions switch between variables and rules.
    turns: Option<decide_turns::Turns>,
    /// `--heuristic=domain` (with `--decide=vars`).
    domain: Option<domain::Domain>,
    deps: Deps,
    ufs: Unfounded,
    /// Source pointers: unfounded-set propagation at partial assignments (`source`).
    src: Sources,
    /// (agg) The native sum constraints of the completion (`sums`).
    sums: SumPropagator,
    /// The objective and its bound (`optimize`).
    opt: ObjectiveBound,
    /// The cost vector of the last model (with an objective).
    last_costs: Option<Vec<i64>>,
    /// The last model's blocking nogood, added when the search goes on (unless a new bound
    /// excludes the model).
    block: Option<Vec<Lit>>,
    /// Enumeration by backtracking (`enum_bt`): on, and its backtrack level; the search goes
    /// on with a flip (a model was reported, or a unit integrated at the backtrack level is
    /// false in the branch).
    bt: bool,
    bl: u32,
    flip_due: bool,
    /// Projective enumeration by backtracking: its atoms, decided first (`enum_bt`).
    proj: Option<enum_bt::Projection>,
    /// The literals the input's unit nogoods and the permanent unit nogoods added since fix at
    /// level 0 (`forget` assigns them again).
    units: Vec<Lit>,
    /// `units[..units_fixed]` hold at level 0 (`enum_bt`; `forget` starts it again).
    units_fixed: usize,
    /// The input has an empty nogood.
    input_unsat: bool,
    /// `--restarts`.
    restarts: Schedule,
    reduce: Reduce,
    /// Nogoods waiting to be integrated (loop nogoods beyond the first, the blocking nogood).
    pending: Vec<Vec<Lit>>,
    /// A violated nogood found while integrating, to analyse next.
    conflict: Option<NgRef>,
    /// No (further) model exists.
    unsat: bool,
    /// Candidates popped while not applicable, with the decision level then (non-decreasing).
    parked: Vec<(u32, Var)>,
    /// Complete-assignment scans variables upwards from here (lowered on backtracking).
    cursor: Var,
    /// When the search loop looks at its limits.
    looks: crate::engine::Looks,
    /// Deepest decision level reached (tests and diagnostics).
    max_level: u32,
    stats: Stats,
    // Scratch for conflict analysis.
    seen: Vec<bool>,
    learnt: Vec<Lit>,
    /// Forward learning's scratch of kept literals.
    min_stack: Vec<Lit>,
    /// Scratch of recursive minimisation: the variables to unmark, the search's path and
    /// poison marks.
    min_clear: Vec<Var>,
    min: learn_res::MinScratch,
    level_stamp: Vec<u32>,
    stamp: u32,
    /// A host portfolio's sharing (`share`); `None` when the engine searches alone.
    port: Option<crate::engine::exchange::Port>,
    /// Sharing goes on after models and under bounds (`share::share_under_bounds`).
    share_bounded: bool,
    /// Scratch of `import`.
    inbox: Vec<Box<[Lit]>>,
    /// The assumptions of the search (`assume`), decided first.
    assumed: Vec<Lit>,
    /// Per leading assumption known to hold: the highest level among it and those before it.
    held: Vec<u32>,
    /// The core the last search under assumptions ended with (`assume`).
    core: Option<Vec<Lit>>,
}

/// What the host engines of one program on several threads share, read-only, instead of a
/// copy each: the rule graph decisions and the unfounded-set checks read (`decide::Rules`),
/// the bodies (an `Arc` in the `GroundProgram`). Made once per race ([`Shared::new`]); each
/// thread's engine is built over it ([`CpuEngine::with_shared`]).
#[derive(Clone)]
pub struct Shared {
    rules: std::sync::Arc<decide::RuleGraph>,
}

impl Shared {
    pub fn new(g: &GroundProgram, c: &Completion) -> Shared {
        Shared {
            rules: Rules::new(g, c, num_vars(g, c)).graph(),
        }
    }
}

/// The variables of the engine of `g` completed as `c`: atoms, bodies, auxiliary variables.
fn num_vars(g: &GroundProgram, c: &Completion) -> usize {
    let max_body_var = c.body_var.iter().copied().max().unwrap_or(0);
    (c.db.num_vars as usize)
        .max(g.num_atoms as usize + 1)
        .max(max_body_var as usize + 1)
}

impl CpuEngine {
    pub fn new(g: &GroundProgram, c: &Completion, opts: HostOptions) -> CpuEngine {
        CpuEngine::over_rules(g, c, opts, Rules::new(g, c, num_vars(g, c)))
    }

    /// [`CpuEngine::new`] over the rule graph of `shared` (made from the same `g` and `c`):
    /// the same engine, without a copy of the graph of its own.
    pub fn with_shared(
        g: &GroundProgram,
        c: &Completion,
        opts: HostOptions,
        shared: &Shared,
    ) -> CpuEngine {
        CpuEngine::over_rules(g, c, opts, Rules::over(shared.rules.clone()))
    }

    /// The engine of `g` and `c` whose decisions read `rules`, its input loaded.
    fn over_rules(g: &GroundProgram, c: &Completion, opts: HostOptions, rules: Rules) -> CpuEngine {
        let mut e = CpuEngine::without_input(g, c, opts, rules);
        e.load_input(&c.db);
        e.queue_candidates();
        e
    }

    /// Whether this engine and `other` read one rule graph (tests of [`Shared`]).
    pub fn shares_rules_with(&self, other: &CpuEngine) -> bool {
        self.rules.shares_with(&other.rules)
    }

    /// [`CpuEngine::new`] for a run of one engine, which owns the analysed program and its
    /// completion: each is dropped as soon as the engine has what it needs of it (the program
    /// before the input nogoods are stored and watched, the completion after), so that the
    /// peak of a large program's preparation holds neither beside the whole engine. The same
    /// engine as `new`'s.
    pub fn from_owned(mut g: GroundProgram, c: Completion, opts: HostOptions) -> CpuEngine {
        let rules = Rules::new(&g, &c, num_vars(&g, &c));
        let size = g.rules.len().max(g.bodies.len());
        // The rest of the engine reads the program's bodies (only where it is not tight: the
        // unfounded-set checks), never its rules: both freed before the engine grows.
        g.rules = Vec::new();
        (g.head_offsets, g.head_rules) = (Vec::new(), Vec::new());
        if g.tight {
            g.bodies = Default::default();
        }
        crate::memory::give_back(size);
        let mut e = CpuEngine::without_input(&g, &c, opts, rules);
        drop(g);
        crate::memory::give_back(size);
        e.load_input(&c.db);
        drop(c);
        crate::memory::give_back(size);
        e.queue_candidates();
        e
    }

    /// The engine without its input nogoods (`load_input`) and with no variable queued.
    fn without_input(
        g: &GroundProgram,
        c: &Completion,
        opts: HostOptions,
        rules: Rules,
    ) -> CpuEngine {
        let db = &c.db;
        let num_vars = num_vars(g, c);
        let input = (0..db.len()).map(|i| lits_of(db.nogood(i)));
        let scores = Scores::new(opts.heuristic, num_vars, input, opts.seed);
        let vars = opts.decide.on_vars();
        let mut phases = if vars {
            SavedPhases::new(num_vars, |v| {
                v > g.num_atoms && !rules.var_bodies.get(v as usize).is_empty()
            })
        } else {
            SavedPhases::default()
        };
        let switch = opts
            .phase_switch
            .filter(|_| vars && opts.save_progress.is_some())
            .map(|c| decide_vars::PhaseSwitch::new(c, &mut phases));
        // (agg) the sums keep decision-level sets for the cuts that use them
        let deps = Deps::new(opts.learning == Learning::Fwd, opts.fwd_cut);
        let sums = SumPropagator::new(&c.native_sums, num_vars, deps.decision_sets());
        let opt = ObjectiveBound::new(&g.objective, num_vars, opts.learning == Learning::Fwd);
        CpuEngine {
            opts,
            num_atoms: g.num_atoms,
            input_atoms: g.input_atoms(),
            a: Assignment::new(num_vars),
            store: Store::default(),
            watches: lists::Lists::new(2 * num_vars),
            bins: lists::Lists::new(2 * num_vars),
            scores,
            deps,
            ufs: Unfounded::new(g, num_vars),
            src: Sources::new(g, &rules, num_vars),
            sums,
            opt,
            last_costs: None,
            block: None,
            bt: false,
            bl: 0,
            flip_due: false,
            proj: None,
            units: Vec::new(),
            units_fixed: 0,
            input_unsat: db.has_empty,
            rules,
            vars,
            phases,
            switch,
            turns: (opts.decide == Decide::Alternate)
                .then(|| decide_turns::Turns::new(opts.decide_turn)),
            domain: (vars && opts.heuristic == super::Heuristic::Domain)
                .then(|| domain::Domain::new(&g.heuristics)),
            restarts: Schedule::new(opts.restarts),
            reduce: Reduce::default(),
            pending: Vec::new(),
            conflict: None,
            unsat: db.has_empty,
            parked: Vec::new(),
            cursor: 1,
            looks: crate::engine::Looks::new(),
            max_level: 0,
            stats: Stats::default(),
            seen: vec![false; num_vars],
            learnt: Vec::new(),
            min_stack: Vec::new(),
            min_clear: Vec::new(),
            min: learn_res::MinScratch::new(num_vars),
            level_stamp: Vec::new(),
            stamp: 0,
            port: None,
            share_bounded: false,
            inbox: Vec::new(),
            assumed: Vec::new(),
            held: Vec::new(),
            core: None,
        }
    }

    /// Queue every variable the decisions may pick (all of them, deciding on variables).
    fn queue_candidates(&mut self) {
        for v in 1..self.a.level.len() as Var {
            if self.vars || self.rules.is_candidate(v) {
                self.scores.insert(v);
            }
        }
    }

    /// Analyse conflict `confl`, backjump, and add the learned nogood (which then propagates).
    /// False when the conflict does not depend on any decision (no model).
    fn resolve(&mut self, confl: NgRef) -> bool {
        let use_fwd = self.opts.learning == Learning::Fwd && self.deps.usable();
        if self.opts.learning == Learning::Fwd && !use_fwd {
            self.stats.fwd_fallbacks += 1;
        }
        let trail = self.a.trail.len() as u32;
        // Each analysis bumps the activity of the variables it meets.
        let jump = if use_fwd {
            self.analyse_fwd(confl)
        } else {
            self.analyse_res(confl)
        };
        let Some(jump) = jump else { return false };
        self.backtrack(jump);
        let learnt = std::mem::take(&mut self.learnt);
        let lbd = self.lbd(&learnt);
        self.restarts.on_conflict(lbd, trail, jump);
        self.stats.learned += 1;
        self.stats.learned_lits += learnt.len() as u64;
        self.export(&learnt, lbd);
        let out = self.integrate(&learnt, Kind::Learned, lbd);
        self.learnt = learnt;
        match out {
            Added::Ok => true,
            Added::Unsat => false,
            // A learned nogood is asserting after the backjump, never violated.
            Added::Conflict(r) => {
                debug_assert!(false, "learned nogood violated after backjump");
                self.conflict = Some(r);
                true
            }
        }
    }

    /// Variable `v` took part in a conflict. With `--decide=rules` decisions are only made on
    /// candidates (bodies, choice heads), so an atom that is no candidate passes the bump on
    /// to the bodies of (a few of) its rules, the decisions that would make it true.
    fn bump_var(&mut self, v: Var) {
        self.scores.bump(v);
        if !self.vars && v <= self.num_atoms && !self.rules.is_candidate(v) {
            let rs = self.rules.atom_rules.get(v as usize);
            for &r in rs.iter().take(BUMP_RULES) {
                let bv = self.rules.body_var[self.rules.rule_body[r as usize] as usize];
                self.scores.bump(bv);
            }
        }
    }

    /// Make `l` hold at the current level with `reason`, with every hook that depends on it.
    #[inline(always)]
    fn assign(&mut self, l: Lit, reason: u32) {
        self.a.set(l, reason);
        // Propagation will read `l`'s list headers (at random): ask for them now.
        watch::prefetch(self.bins.hdr_ptr(l.code() as usize));
        watch::prefetch(self.watches.hdr_ptr(l.code() as usize));
        self.deps.on_assign(&self.a, &self.store, l, reason);
        // `--decide=vars` never asks which rules are applicable: their counters can rest.
        if !self.vars {
            self.rules
                .on_assign(&self.a, &mut self.scores, l, self.num_atoms);
        }
    }

    /// Undo every level above `lvl` (enumerating by backtracking: above `lvl` and the
    /// backtrack level, `enum_bt`).
    fn backtrack(&mut self, lvl: u32) {
        let lvl = if self.bt { lvl.max(self.bl) } else { lvl };
        if self.a.level() <= lvl {
            return;
        }
        let start = self.a.lim[lvl as usize] as usize;
        // `--save-progress N`: only a long backjump saves signs (clasp's rule).
        let save = self
            .opts
            .save_progress
            .is_some_and(|n| self.a.level() - lvl > n);
        self.unassign_from(start, lvl, save);
    }

    /// Pop the trail down to `start` entries and `lvl` levels, with every hook (`save`: save
    /// the signs).
    fn unassign_from(&mut self, start: usize, lvl: u32, save: bool) {
        self.sums_backtrack(start); // (agg) before the trail is popped
        self.objective_backtrack(start);
        for i in (start..self.a.trail.len()).rev() {
            let l = self.a.trail[i];
            self.a.clear(l);
            if self.vars {
                if save {
                    self.phases.save(l);
                }
                self.scores.insert(l.var());
            } else {
                self.rules.on_unassign(&mut self.scores, l, self.num_atoms);
            }
            self.src.on_unassign(l); // re-queue an unsourced atom no longer false
            self.cursor = self.cursor.min(l.var());
            if let Some(p) = self.proj.as_mut() {
                p.unassigned(l.var());
            }
        }
        self.a.trail.truncate(start);
        self.a.lim.truncate(lvl as usize);
        self.assumptions_backtrack(lvl);
        self.a.qhead = self.a.qhead.min(start);
        while let Some(&(pl, v)) = self.parked.last() {
            if pl <= lvl && start > 0 {
                break;
            }
            self.parked.pop();
            if self.a.is_unassigned(v) {
                self.scores.insert(v);
            }
        }
        self.deps.truncate(start);
        self.src.on_backtrack(start);
    }

    /// Start over with what the input alone implies: the whole trail undone (level 0 too),
    /// every learned nogood deleted, the input's and the permanent units assigned again. Loop
    /// and blocking nogoods stay (they hold whatever the bound, `blocking_nogood`), and so do
    /// those waiting to be integrated (`pending`: loop nogoods, the wrappers' nogoods); the
    /// heuristic keeps its scores. For a
    /// bound that admits costs an earlier one excluded: what was learned may depend on it.
    fn forget(&mut self) {
        debug_assert!(!self.bt, "a bound while enumerating by backtracking");
        self.unassign_from(0, 0, false);
        self.units_fixed = 0;
        self.conflict = None;
        for i in 0..self.store.learned.len() {
            let r = self.store.learned[i];
            if !self.store.is_deleted(r) {
                self.store.delete(r);
            }
        }
        self.collect_garbage();
        self.unsat = self.input_unsat;
        for i in 0..self.units.len() {
            let l = self.units[i];
            if self.a.is_unassigned(l.var()) {
                self.assign(l, NO_REASON);
            } else if !self.a.holds(l) {
                self.unsat = true; // two permanent units disagree: no model is left
            }
        }
    }

    /// Number of distinct decision levels among `lits` (literal block distance).
    fn lbd(&mut self, lits: &[Lit]) -> u32 {
        self.stamp = self.stamp.wrapping_add(1);
        let mut n = 0;
        for l in lits {
            let lv = self.a.level_of(l.var()) as usize;
            if self.level_stamp.len() <= lv {
                self.level_stamp.resize(lv + 1, 0);
            }
            if self.level_stamp[lv] != self.stamp {
                self.level_stamp[lv] = self.stamp;
                n += 1;
            }
        }
        n
    }

    /// A stored nogood that the assignment violates (for debug checks).
    fn violated(&self) -> Option<NgRef> {
        self.store.refs().find(|&r| {
            !self.store.is_deleted(r) && self.store.lits(r).iter().all(|&l| self.a.holds(l))
        })
    }
}

impl Engine for CpuEngine {
    fn next_model(&mut self, limits: &Limits) -> Result<Step, EngineError> {
        let t = Instant::now();
        let step = self.search(limits);
        self.stats.search_time += t.elapsed();
        Ok(step)
    }

    fn stats(&self) -> &Stats {
        &self.stats
    }

    fn costs(&self) -> Option<Vec<i64>> {
        self.last_costs.clone()
    }

    fn set_bound(&mut self, bound: &Bound) -> Result<(), EngineError> {
        self.set_objective_bound(bound);
        Ok(())
    }

    fn add_nogood(&mut self, lits: &[Lit]) -> bool {
        self.pending.push(lits.to_vec()); // integrated as `Permanent` by the search
        true
    }

    fn assume(&mut self, lits: &[Lit]) -> bool {
        self.set_assumptions(lits);
        true
    }

    fn core(&self) -> Option<Vec<Lit>> {
        self.core.clone()
    }

    fn enumerate_by_backtracking(&mut self) -> bool {
        self.start_backtracking()
    }

    fn enumerate_projected(&mut self, atoms: &[u32]) -> bool {
        self.start_projecting(atoms)
    }

    fn fixed(&self, atom: u32) -> Option<bool> {
        if self.bt {
            return None; // level 0 may hold flipped decisions (`enum_bt`)
        }
        let fixed =
            atom <= self.num_atoms && !self.a.is_unassigned(atom) && self.a.level_of(atom) == 0;
        fixed.then(|| self.a.holds(Lit::t(atom)))
    }
}

/// A nogood of the input database as literals.
fn lits_of(codes: &[u32]) -> &[Lit] {
    // SAFETY: `Lit` is `repr(transparent)` over `u32`.
    unsafe { std::slice::from_raw_parts(codes.as_ptr() as *const Lit, codes.len()) }
}
