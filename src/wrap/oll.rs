//! Core-guided optimisation, the OLL algorithm (Andres, Kaufmann, Matheis, Schaub 2012; clasp's
//! `--opt-strategy=usc,oll`), priority level by priority level, highest first; used alone
//! (`run/usc.rs`, `--opt-strategy=usc`) and as a member of the host threads' optimisation race
//! (`portfolio/optimize.rs`).
//!
//! Every objective literal `s` of weight `w > 0` (negative weights normalised: `w·[l]` is
//! `−w·[¬l] + w`) is a *soft* literal, assumed false. The searches run on the host engine or on
//! the GPU engine ([`Searcher`]; `kernels/search/assume.cuh`: every search of the GPU under the
//! same assumptions, the first core or model ends the call). A search under these assumptions that
//! finds a model has found an optimal one; one that finds none returns a *core*, soft literals
//! not all false together (`engine/cpu/assume.rs`). With `m` the least weight in the core, the
//! level's lower bound rises by `m`, every soft of the core loses `m` of its weight (a soft at
//! 0 is no longer assumed), and the core's *count* gets a soft of weight `m`: a new atom
//! `o ← 2 {core}` ("at least two of the core hold"). When such an `o` for bound `k` is in a
//! later core, its count gets `o' ← k+1 {core}` too, with that core's least weight. The program
//! grows by these rules and the host engine is built again from it; learned nogoods do not carry
//! over. Before a rebuild the same engine looks for *disjoint* cores: a core's softs are no
//! longer assumed and the search goes on until a model (or no core) is left, and every core
//! found is relaxed at once (each is a core of the program before the relaxation, and they
//! share no soft), so one build serves several cores. Each core is first *trimmed*: searched
//! again under its own assumptions in reverse order, keeping the core that gives while it
//! shrinks (at most [`TRIMS`] times; on the build machine it made stilllife 007 4.4 s where it
//! took 7.0 s, and left the 27 optimisation instances' solved count at 15 in 10 s). A level's optimum reached, its remaining softs stay assumed false while the next levels
//! are optimised (every model optimal on the level satisfies them).
//!
//! Within a level the softs are *stratified* (Ansótegui, Bonet, Gabàs, Levy 2013): only those
//! of weight at least a threshold are assumed, the heaviest first; a model under them lowers
//! the threshold to the next weight below, and only a model with every soft assumed is optimal
//! (weighted objectives find their heavy cores first: valves, markovnl).
//!
//! Invariant (OLL's): for every model `x` of the grown program, level cost(x) = lower bound +
//! Σ weight(s) over the level's softs true in `x` (the new atoms are defined by their rules, so
//! `x` extends a model of the input uniquely); hence a model under all soft assumptions costs
//! the lower bound, which no model beats. The new atoms are not the input's and are dropped
//! from the model returned.

use super::eliminated::Alias;
use crate::analyse::alias::Aliases;
use crate::analyse::objective::Objective;
use crate::engine::cpu::CpuEngine;
use crate::engine::gpu::engine::{Backend, ManyEngine};
use crate::engine::{
    DeviceOptions, Engine, EngineError, HostOptions, Limits, Model, Stats, Step, Sums,
};
use crate::lit::Lit;
use lparse::{Program, Rule};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::Arc;
use std::time::Duration;
use std::time::Instant;

/// How an OLL run ended.
#[derive(Debug)]
pub enum Ended {
    /// An optimal model (the input's atoms), its costs, and the optimal models' source.
    Optimum(Model, Vec<i64>, Optimal),
    /// The program has no model.
    NoModel,
    /// Stopped (deadline or interrupt) before the optimum.
    Stopped,
    /// The solve limit (`HostOptions::limit`) was reached before the optimum: the conflicts
    /// and restarts of every engine built, summed, as one solver's.
    Limit,
    /// A disjunctive program with a head cycle: its minimality check wraps the engine, which
    /// then takes no assumptions; nothing was searched.
    HeadCycle,
}

/// How often a build's end, the deadline and the stop flag are looked at.
const POLL: Duration = Duration::from_millis(20);

/// How often a core is trimmed (searched again under its own assumptions) at most.
const TRIMS: usize = 3;

/// The last engine under the assumptions its optimum was found under: by OLL's invariant its
/// models are exactly the optimal models (`--opt-mode=optN`), and the one found is blocked.
pub struct Optimal {
    engine: Box<dyn Engine + Send>,
    input_atoms: u32,
}

impl std::fmt::Debug for Optimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Optimal")
    }
}

impl Optimal {
    /// The next optimal model (the input's atoms) and its costs, `Exhausted` when no other is
    /// left (the search ends with a core then), `Stopped` or `Limit`.
    pub fn next_model(&mut self, limits: &Limits) -> Result<(Step, Option<Vec<i64>>), EngineError> {
        match self.engine.next_model(limits)? {
            Step::Model(m) => {
                let atoms = m
                    .atoms
                    .into_iter()
                    .filter(|&a| a <= self.input_atoms)
                    .collect();
                Ok((Step::Model(Model { atoms }), self.engine.costs()))
            }
            step => Ok((step, None)),
        }
    }
}

/// The engine that searches under the assumptions, built again after each relaxation.
#[derive(Clone, Copy, Debug)]
pub enum Searcher {
    /// The host engine on one thread.
    Host(HostOptions),
    /// The GPU engine (`ManyEngine::assuming`), on the device or emulated.
    Device(DeviceOptions, Backend),
}

impl Searcher {
    /// The same, its solve limit counted on from `conflicts` and `restarts` already spent.
    fn after(self, conflicts: u64, restarts: u64) -> Searcher {
        match self {
            Searcher::Host(o) => Searcher::Host(HostOptions {
                limit: o.limit.after(conflicts, restarts),
                ..o
            }),
            Searcher::Device(o, b) => Searcher::Device(
                DeviceOptions {
                    limit: o.limit.after(conflicts, restarts),
                    ..o
                },
                b,
            ),
        }
    }
    fn sums(&self) -> Sums {
        match self {
            Searcher::Host(o) => o.sums,
            Searcher::Device(o, _) => o.sums,
        }
    }
}

/// An assumed-false objective literal: the input's, or the count of a core.
#[derive(Clone, Copy, Debug)]
struct Soft {
    lit: Lit,
    weight: i64,
    /// For a count's atom: its core and the bound `k` it stands for.
    count: Option<(usize, i64)>,
}

/// The engine and its aliases: a core names an eliminated atom's literal by its root's.
type Built = (Box<dyn Engine + Send>, Aliases);

/// What [`build_within`] ended with.
enum Build {
    Built(Built),
    HeadCycle,
    /// The deadline passed or the run stopped first (the build ends unobserved).
    Stopped,
}

/// [`build`] on a thread of its own, waited for in steps of [`POLL`] while `go_on` says so: an
/// engine's build cannot be interrupted, and a large program's takes seconds.
fn build_within(
    program: Arc<Program>,
    eq: bool,
    searcher: Searcher,
    go_on: &dyn Fn() -> bool,
) -> Result<Build, EngineError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("usc-build".into())
        .spawn(move || {
            let built = build(&program, eq, searcher);
            drop(program); // before the answer: the caller may grow it next
            let _ = tx.send(built);
        })
        .map_err(|e| EngineError::Internal(format!("cannot start a thread: {e}")))?;
    loop {
        match rx.recv_timeout(POLL) {
            Ok(built) => {
                return Ok(match built? {
                    Some(b) => Build::Built(b),
                    None => Build::HeadCycle,
                })
            }
            Err(RecvTimeoutError::Timeout) if go_on() => {}
            Err(RecvTimeoutError::Timeout) => return Ok(Build::Stopped),
            Err(RecvTimeoutError::Disconnected) => {
                return Err(EngineError::Internal("the engine's build failed".into()))
            }
        }
    }
}

/// The engine for `program` (its atoms' aliases put back into models); `None` for a program
/// with a head cycle.
fn build(program: &Program, eq: bool, searcher: Searcher) -> Result<Option<Built>, EngineError> {
    let mut ground = crate::analyse::analyse_eq(program, eq)
        .map_err(|e| EngineError::Unsupported(e.to_string()))?;
    if ground.minimality.is_some() {
        return Ok(None);
    }
    let completion = crate::nogoods::completer(Some(searcher.sums()))(&ground);
    let engine: Box<dyn Engine + Send> = match searcher {
        Searcher::Host(opts) => Box::new(CpuEngine::new(&ground, &completion, opts)),
        Searcher::Device(opts, backend) => {
            Box::new(ManyEngine::assuming(&ground, &completion, opts, backend)?)
        }
    };
    let aliases = std::mem::take(&mut ground.aliases);
    Ok(Some((
        Box::new(Alias::new(engine, aliases.clone())),
        aliases,
    )))
}

/// The softs of one level: weights made positive, repeats of a literal merged.
fn level_softs(lits: &[(Lit, i64)]) -> Vec<Soft> {
    let mut by_lit: Vec<(Lit, i64)> = lits
        .iter()
        .map(|&(l, w)| if w < 0 { (l.negate(), -w) } else { (l, w) })
        .collect();
    by_lit.sort_unstable_by_key(|&(l, _)| l);
    let mut out: Vec<Soft> = Vec::new();
    for (l, w) in by_lit {
        match out.last_mut() {
            Some(s) if s.lit == l => s.weight += w,
            _ => out.push(Soft {
                lit: l,
                weight: w,
                count: None,
            }),
        }
    }
    out
}

/// The heaviest weight of a soft still assumable below the stratification threshold `strat`.
fn lighter(softs: &[Soft], strat: i64) -> Option<i64> {
    softs
        .iter()
        .map(|s| s.weight)
        .filter(|&w| w > 0 && w < strat)
        .max()
}

/// `lit` as the input program writes it.
fn program_lit(l: Lit) -> i32 {
    if l.is_true() {
        l.var() as i32
    } else {
        -(l.var() as i32)
    }
}

/// The softs (through `of_lit`, those `keep` keeps, ascending) of the core the last search of
/// `engine` ended with; `None` when the core is empty (no model at all).
fn core_softs(
    engine: &(dyn Engine + Send),
    of_lit: &HashMap<Lit, Vec<usize>>,
    keep: impl Fn(usize) -> bool,
) -> Result<Option<Vec<usize>>, EngineError> {
    let core = engine
        .core()
        .ok_or_else(|| EngineError::Internal("no core after a search".into()))?;
    if core.is_empty() {
        return Ok(None);
    }
    let mut softs: Vec<usize> = core
        .iter()
        .filter_map(|l| of_lit.get(l))
        .flatten()
        .copied()
        .filter(|&i| keep(i))
        .collect();
    softs.sort_unstable();
    softs.dedup();
    Ok(Some(softs))
}

/// One search of `engine` under its assumptions, resumed after a stop while `go_on` says so;
/// its time added to `stats`.
fn search(
    engine: &mut (dyn Engine + Send),
    limits: &Limits,
    go_on: &dyn Fn() -> bool,
    stats: &mut Stats,
) -> Result<Step, EngineError> {
    let t = Instant::now();
    let step = loop {
        match engine.next_model(limits)? {
            Step::Stopped if go_on() => continue,
            step => break step,
        }
    };
    stats.search_time += t.elapsed();
    Ok(step)
}

/// Optimise `program` by OLL, searching with `searcher`, adding every engine's counters to
/// `stats`. Before the deadline, an interrupt (`limits.interrupt`) stops it only when `resume`
/// says no: a race pokes its members for other reasons than stopping, and `resume` clears the
/// poke and says yes unless the race stops; alone, `resume` says no.
pub fn oll(
    program: &Program,
    eq: bool,
    searcher: Searcher,
    limits: &Limits,
    resume: &dyn Fn() -> bool,
    stats: &mut Stats,
) -> Result<Ended, EngineError> {
    let past_deadline = || limits.deadline.is_some_and(|d| Instant::now() >= d);
    let go_on = || !past_deadline() && (!limits.interrupt.load(Ordering::Relaxed) || resume());
    let input_atoms = program.max_atom;
    let objective = Objective::new(program);
    // Shared with the build thread, which lets go of it before it answers.
    let mut grown = Arc::new(program.clone());
    // Per core: its literals (as the program writes them).
    let mut cores: Vec<Vec<i32>> = Vec::new();
    // The finished levels' softs, assumed false from then on.
    let mut hard: Vec<Lit> = Vec::new();
    let mut optimum = None;
    let mut last = None;
    for level in &objective.levels {
        let mut softs = level_softs(&level.lits);
        // Stratification: only softs of at least this weight are assumed; lowered to the next
        // weight when a model meets them all (it is optimal only once every soft is assumed).
        let mut strat = softs.iter().map(|s| s.weight).max().unwrap_or(0);
        loop {
            if !go_on() {
                return Ok(Ended::Stopped);
            }
            // Each engine built goes on where the last one stopped, against one solve limit.
            let searcher = searcher.after(stats.conflicts, stats.restarts);
            let (mut engine, aliases) =
                match build_within(Arc::clone(&grown), eq, searcher, &go_on)? {
                    Build::Built(built) => built,
                    Build::Stopped => return Ok(Ended::Stopped),
                    // Only the input can have one: the rules added have new heads.
                    Build::HeadCycle => return Ok(Ended::HeadCycle),
                };
            // The literal a core names -> the softs assumed through it.
            let mut of_lit: HashMap<Lit, Vec<usize>> = HashMap::new();
            for (i, s) in softs.iter().enumerate().filter(|(_, s)| s.weight > 0) {
                of_lit
                    .entry(aliases.lit(s.lit.negate()))
                    .or_default()
                    .push(i);
            }
            // Disjoint cores first: each core's softs are no longer assumed, and the search goes
            // on in the same engine until a model or no core is left; then every core found is
            // relaxed at once (each is a core of the current program) and the engine is built
            // again. A model with every soft assumed is optimal.
            let mut found: Vec<Vec<usize>> = Vec::new();
            let mut in_core = vec![false; softs.len()];
            let mut level_done = false;
            loop {
                let mut assumed: Vec<Lit> = hard.clone();
                assumed.extend(
                    softs
                        .iter()
                        .enumerate()
                        .filter(|&(i, s)| s.weight > 0 && s.weight >= strat && !in_core[i])
                        .map(|(_, s)| s.lit.negate()),
                );
                if !engine.assume(&assumed) {
                    return Err(EngineError::Internal(
                        "the engine took no assumptions".into(),
                    ));
                }
                let step = search(engine.as_mut(), limits, &go_on, stats)?;
                match step {
                    Step::Model(_) if found.is_empty() && lighter(&softs, strat).is_some() => {
                        // Every soft of weight `strat` or more can be false: the lighter ones
                        // next, in a new engine (one that reported a model may hold it as
                        // enumerated: the host engine blocks it).
                        strat = lighter(&softs, strat).expect("a lighter soft");
                        break;
                    }
                    Step::Model(m) if found.is_empty() => {
                        hard.extend(
                            softs
                                .iter()
                                .filter(|s| s.weight > 0)
                                .map(|s| s.lit.negate()),
                        );
                        optimum = Some((m, engine.costs()));
                        level_done = true;
                        break;
                    }
                    Step::Model(_) => break, // no further disjoint core
                    Step::Stopped => {
                        stats.add_counts(engine.stats());
                        return Ok(Ended::Stopped);
                    }
                    Step::Limit => {
                        stats.add_counts(engine.stats());
                        return Ok(Ended::Limit);
                    }
                    Step::Exhausted => {
                        // The softs of this level in the core (the finished levels' are given).
                        let Some(mut members) =
                            core_softs(engine.as_ref(), &of_lit, |i| !in_core[i])?
                        else {
                            return Ok(Ended::NoModel);
                        };
                        if members.is_empty() {
                            // The finished levels' assumptions hold in the model they came from.
                            return Err(EngineError::Internal(
                                "a core without a soft literal of the level".into(),
                            ));
                        }
                        // Trimming: the core's own assumptions again, in reverse order, give
                        // a core within it, often smaller (at most TRIMS times).
                        for _ in 0..TRIMS {
                            if members.len() <= 2 {
                                break;
                            }
                            let mut trial = hard.clone();
                            trial.extend(members.iter().rev().map(|&i| softs[i].lit.negate()));
                            engine.assume(&trial);
                            let step = search(engine.as_mut(), limits, &go_on, stats)?;
                            match step {
                                Step::Exhausted => {}
                                Step::Stopped => {
                                    stats.add_counts(engine.stats());
                                    return Ok(Ended::Stopped);
                                }
                                Step::Limit => {
                                    stats.add_counts(engine.stats());
                                    return Ok(Ended::Limit);
                                }
                                Step::Model(_) => {
                                    return Err(EngineError::Internal(
                                        "a model under the assumptions of a core".into(),
                                    ))
                                }
                            }
                            let Some(smaller) =
                                core_softs(engine.as_ref(), &of_lit, |i| members.contains(&i))?
                            else {
                                return Ok(Ended::NoModel);
                            };
                            if smaller.is_empty() || smaller.len() >= members.len() {
                                break;
                            }
                            members = smaller;
                        }
                        for &i in &members {
                            in_core[i] = true;
                        }
                        found.push(members);
                    }
                }
            }
            stats.add_counts(engine.stats());
            if level_done {
                last = Some(engine);
                break;
            }
            for members in found {
                let m = members
                    .iter()
                    .map(|&i| softs[i].weight)
                    .min()
                    .expect("a member");
                for &i in &members {
                    softs[i].weight -= m;
                }
                // The core's count, at least 2 of it; a count's own next bound.
                let mut counts: Vec<(usize, i64)> = vec![(cores.len(), 2)];
                cores.push(members.iter().map(|&i| program_lit(softs[i].lit)).collect());
                counts.extend(
                    members
                        .iter()
                        .filter_map(|&i| softs[i].count)
                        .map(|(c, k)| (c, k + 1)),
                );
                for (c, k) in counts {
                    if k > cores[c].len() as i64 {
                        continue; // at least k of fewer than k: never true
                    }
                    let grown = Arc::make_mut(&mut grown);
                    grown.max_atom += 1;
                    let o = grown.max_atom;
                    let body: Vec<(i32, i64)> = cores[c].iter().map(|&l| (l, 1)).collect();
                    grown.rules.push(Rule::sum(&[o], k, &body));
                    softs.push(Soft {
                        lit: Lit::t(o),
                        weight: m,
                        count: Some((c, k)),
                    });
                }
            }
        }
    }
    let (Some((m, costs)), Some(engine)) = (optimum, last) else {
        return Ok(Ended::NoModel); // no level: the caller has an objective
    };
    let costs = costs.ok_or_else(|| EngineError::Internal("a model without costs".into()))?;
    let atoms = m.atoms.into_iter().filter(|&a| a <= input_atoms).collect();
    let optimal = Optimal {
        engine,
        input_atoms,
    };
    Ok(Ended::Optimum(Model { atoms }, costs, optimal))
}
