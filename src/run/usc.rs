//! `--opt-strategy=usc`: core-guided optimisation, the OLL algorithm (Andres, Kaufmann, Matheis,
//! Schaub 2012; clasp's `usc,oll`), priority level by priority level, highest first.
//!
//! Every objective literal `s` of weight `w > 0` (negative weights normalised: `w·[l]` is
//! `−w·[¬l] + w`) is a *soft* literal, assumed false. A search under these assumptions that
//! finds a model has found an optimal one; one that finds none returns a *core*, soft literals
//! not all false together. With `m` the least weight in the core, the level's lower bound rises
//! by `m`, every soft of the core loses `m` of its weight (a soft at 0 is no longer assumed),
//! and the core's *count* gets a soft of weight `m`: a new atom `o ← 2 {core}` ("at least two
//! of the core hold"). When such an `o` for bound `k` is in a later core, its count gets
//! `o' ← k+1 {core}` too, with that core's least weight. The program grows by these rules and
//! the engine is built again from it (the host engine, one thread); learned nogoods do not
//! carry over. A level's optimum reached, its remaining softs stay assumed false while the
//! next levels are optimised (every model optimal on the level satisfies them).
//!
//! Invariant (OLL's): for every model `x` of the grown program, level cost(x) = lower bound +
//! Σ weight(s) over the level's softs true in `x` (the new atoms are defined, so `x` extends
//! every model of the input uniquely); hence a model under all soft assumptions costs the
//! lower bound, which no model beats. The model printed is checked as any other (rules and
//! costs from the input program); the new atoms are not the input's and are dropped from it.

use super::enumerate::Found;
use super::{engine_failure, exit, output_failure, prepare, Failure};
use crate::check::Checker;
use crate::engine::alias::Alias;
use crate::engine::cpu::CpuEngine;
use crate::engine::{Engine, HostOptions, Limits, Stats, Step};
use crate::ground::alias::Aliases;
use crate::ground::objective::Objective;
use crate::lit::Lit;
use crate::output::{OptSummary, Outcome, Printer, ShownTable};
use lparse::{Program, Rule};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// An assumed-false objective literal: the input's, or the count of a core.
#[derive(Clone, Copy, Debug)]
struct Soft {
    lit: Lit,
    weight: i64,
    /// For a count's atom: its core and the bound `k` it stands for.
    count: Option<(usize, i64)>,
}

/// The engine for `program` (the host engine, its atoms' aliases put back into models), and
/// the aliases: a core names an eliminated atom's literal by its root's (`Aliases::lit`).
/// `None` for a disjunctive program with a head cycle (its minimality check wraps the engine,
/// which then takes no assumptions).
fn build(
    program: &Program,
    eq: bool,
    opts: HostOptions,
) -> Result<Option<(Box<dyn Engine>, Aliases)>, Failure> {
    let mut ground = crate::ground::analyse(program)
        .map_err(|e| Failure::new(exit::UNSUPPORTED, e.to_string()))?;
    if eq {
        crate::ground::alias::eliminate(&mut ground);
    } else {
        ground = ground.without_equivalences();
    }
    if ground.minimality.is_some() {
        return Ok(None);
    }
    let completion = prepare::completer(Some(opts.sums))(&ground);
    let engine = CpuEngine::new(&ground, &completion, opts);
    let aliases = std::mem::take(&mut ground.aliases);
    Ok(Some((
        Box::new(Alias::new(Box::new(engine), aliases.clone())),
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

/// `lit` as the input program writes it.
fn program_lit(l: Lit) -> i32 {
    if l.is_true() {
        l.var() as i32
    } else {
        -(l.var() as i32)
    }
}

/// Find an optimal model of `program` (with `--opt-mode=opt`), print it, and return what was
/// found with the search statistics of every engine built; `None`, before anything is
/// printed, for a program with a head cycle (branch and bound runs it instead).
#[allow(clippy::too_many_arguments)]
pub fn solve<W: Write>(
    program: &Program,
    eq: bool,
    opts: HostOptions,
    checker: Option<&Checker>,
    shown: &ShownTable,
    limits: &Limits,
    printer: &mut Printer<W>,
    mut on_model: impl FnMut(),
) -> anyhow::Result<Option<(Found, Stats)>> {
    let Some(built) = build(program, eq, opts)? else {
        return Ok(None);
    };
    let mut first = Some(built);
    printer.solving().map_err(output_failure)?;
    let solve_start = Instant::now();
    let mut found = Found {
        outcome: Outcome::Exhausted,
        models: 0,
        solve_start,
        first_model: None,
        last_model: solve_start,
        opt: None,
        cons: None,
    };
    let mut stats = Stats::default();
    let input_atoms = program.max_atom;
    let objective = Objective::new(program);
    let mut grown = program.clone();
    // Per core: its literals (as the program writes them).
    let mut cores: Vec<Vec<i32>> = Vec::new();
    // The finished levels' softs, assumed false from then on.
    let mut hard: Vec<Lit> = Vec::new();
    let mut model = None;
    for level in &objective.levels {
        let mut softs = level_softs(&level.lits);
        loop {
            if limits.interrupt.load(Ordering::Relaxed) {
                found.outcome = Outcome::Interrupted;
                return Ok(Some((found, stats)));
            }
            if limits.deadline.is_some_and(|d| Instant::now() >= d) {
                found.outcome = Outcome::TimeLimit;
                return Ok(Some((found, stats)));
            }
            let (mut engine, aliases) = match first.take() {
                Some(built) => built,
                None => build(&grown, eq, opts)?.expect("no head cycle: the first build had none"),
            };
            let mut assumed: Vec<Lit> = hard.clone();
            // The literal a core names (an eliminated atom's by its root's) -> the softs
            // assumed through it.
            let mut of_lit: HashMap<Lit, Vec<usize>> = HashMap::new();
            for (i, s) in softs.iter().enumerate().filter(|(_, s)| s.weight > 0) {
                assumed.push(s.lit.negate());
                of_lit
                    .entry(aliases.lit(s.lit.negate()))
                    .or_default()
                    .push(i);
            }
            if !engine.assume(&assumed) {
                return Err(Failure::new(exit::INTERNAL, "internal error: no assumptions").into());
            }
            let step = engine.next_model(limits).map_err(engine_failure)?;
            stats.add_counts(engine.stats());
            stats.search_time += engine.stats().search_time;
            match step {
                Step::Model(m) => {
                    hard.extend(
                        softs
                            .iter()
                            .filter(|s| s.weight > 0)
                            .map(|s| s.lit.negate()),
                    );
                    model = Some((m, engine.costs()));
                    break;
                }
                Step::Stopped => {
                    found.outcome = if limits.interrupt.load(Ordering::Relaxed) {
                        Outcome::Interrupted
                    } else {
                        Outcome::TimeLimit
                    };
                    return Ok(Some((found, stats)));
                }
                Step::Exhausted => {
                    let core = engine.core().ok_or_else(|| {
                        Failure::new(exit::INTERNAL, "internal error: no core after a search")
                    })?;
                    if core.is_empty() {
                        return Ok(Some((found, stats))); // no model at all
                    }
                    // The softs of this level in the core (the finished levels' are given).
                    let mut members: Vec<usize> = core
                        .iter()
                        .filter_map(|l| of_lit.get(l))
                        .flatten()
                        .copied()
                        .collect();
                    members.sort_unstable();
                    members.dedup();
                    if members.is_empty() {
                        // The finished levels' assumptions hold in a model they were found in.
                        return Err(Failure::new(
                            exit::INTERNAL,
                            "internal error: a core without a soft literal of the level",
                        )
                        .into());
                    }
                    let m = members
                        .iter()
                        .map(|&i| softs[i].weight)
                        .min()
                        .expect("a member");
                    let lits: Vec<i32> =
                        members.iter().map(|&i| program_lit(softs[i].lit)).collect();
                    for &i in &members {
                        softs[i].weight -= m;
                    }
                    // The core's count, at least 2 of it; a count's own next bound.
                    let mut new_counts: Vec<(usize, i64)> = vec![(cores.len(), 2)];
                    cores.push(lits);
                    for &i in &members {
                        if let Some((c, k)) = softs[i].count {
                            if k < cores[c].len() as i64 {
                                new_counts.push((c, k + 1));
                            }
                        }
                    }
                    for (c, k) in new_counts {
                        if k > cores[c].len() as i64 {
                            continue; // "at least 2 of 1": never true
                        }
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
    }
    let Some((m, costs)) = model else {
        return Ok(Some((found, stats))); // no level at all cannot be: the caller has an objective
    };
    let atoms: Vec<u32> = m.atoms.into_iter().filter(|&a| a <= input_atoms).collect();
    let costs = costs
        .ok_or_else(|| Failure::new(exit::INTERNAL, "internal error: a model without its costs"))?;
    if let Some(checker) = checker {
        if let Err(v) = checker
            .check(&atoms)
            .and_then(|_| checker.check_costs(&atoms, &costs))
        {
            return Err(Failure::new(
                exit::INTERNAL,
                format!("internal error: the optimal model is not an answer set: {v}"),
            )
            .into());
        }
    }
    found.models = 1;
    found.last_model = Instant::now();
    found.first_model = Some(found.last_model - solve_start);
    on_model();
    printer
        .model(&shown.shown(&atoms), Some(&costs))
        .map_err(output_failure)?;
    found.opt = Some(OptSummary {
        costs,
        optimum: true,
        optimal: 1,
        optimize: true,
    });
    Ok(Some((found, stats)))
}
