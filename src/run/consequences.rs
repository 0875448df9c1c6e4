//! `--enum-mode=brave|cautious`: clingo's consequences. The shown symbols true in some answer
//! set (brave) or in every one (cautious), found by enumerating answer sets that each refine
//! the set so far: after a model, the engine is told (`Engine::add_nogood`) that the next one
//! must make a symbol outside the brave set true, or a symbol of the cautious set false.
//! Each model is checked, printed as the consequences so far (clingo prints the set, not the
//! model) with clasp's estimate `Consequences: [lower;upper]`.
//!
//! With `#project` directives (and not `--project=show`) the consequences are clingo's over the
//! projection: only the shown symbols whose condition's atoms are all projection atoms count
//! (clingo 5.8 with `--eq=0`; its equivalence preprocessing also lets through symbols whose
//! atom it found equal to a projection atom).
//!
//! Invariant: when the engine reports `Exhausted`, the set printed last is exactly the brave
//! (cautious) consequences: every answer set was either found or satisfies the refinement
//! nogoods, which only exclude answer sets that cannot change the set. A symbol whose
//! condition has several literals cannot be put in a nogood: then no refinement is added and
//! every answer set is enumerated (as with an engine that takes no nogoods).

use super::enumerate::Found;
use super::{engine_failure, exit, output_failure, Failure};
use crate::check::Checker;
use crate::engine::{Engine, Limits, Step};
use crate::lit::Lit;
use crate::output::{ConsSummary, Outcome, Printer, ShownTable};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// Compute the brave (`brave`) or cautious consequences of `engine`'s answer sets, with at
/// most `max_models` models (0: until exhausted), over the shown symbols, or over those whose
/// condition's atoms are all in `projection` when there is one.
#[allow(clippy::too_many_arguments)]
pub fn consequences<W: Write>(
    engine: &mut dyn Engine,
    checker: Option<&Checker>,
    shown: &ShownTable,
    projection: Option<&[u32]>,
    brave: bool,
    max_models: u64,
    limits: &Limits,
    printer: &mut Printer<W>,
    mut on_model: impl FnMut(),
) -> anyhow::Result<Found> {
    let solve_start = Instant::now();
    let mut found = Found::new(Outcome::Enough, solve_start);
    let projection = projection.map(|p| {
        let mut p = p.to_vec();
        p.sort_unstable();
        p
    });
    let projected = |cond: &[i32]| {
        projection.as_ref().is_none_or(|p| {
            cond.iter()
                .all(|l| p.binary_search(&l.unsigned_abs()).is_ok())
        })
    };
    let entries: Vec<(String, Vec<i32>)> = shown
        .entries()
        .iter()
        .filter(|(_, cond)| projected(cond))
        .cloned()
        .collect();
    let entries = entries.as_slice();
    // In the brave (cautious) set so far; the cautious set starts as the first model.
    let mut cur = vec![false; entries.len()];
    let mut refine = true;
    let mut incremental = checker.map(|c| c.incremental());
    found.outcome = loop {
        if max_models > 0 && found.models >= max_models {
            break Outcome::Enough;
        }
        let model = match engine.next_model(limits).map_err(engine_failure)? {
            Step::Model(m) => m,
            Step::Exhausted => break Outcome::Exhausted,
            Step::Stopped if limits.interrupt.load(Ordering::Relaxed) => {
                break Outcome::Interrupted
            }
            Step::Stopped => break Outcome::TimeLimit,
            Step::Limit => break Outcome::SolveLimit,
        };
        if let Some(Err(v)) = incremental.as_mut().map(|c| c.check(&model.atoms)) {
            return Err(Failure::new(
                exit::INTERNAL,
                format!(
                    "internal error: the engine reported model {} but it is not an answer set: {v}",
                    found.models + 1
                ),
            )
            .into());
        }
        let holds = |l: i32| model.atoms.binary_search(&l.unsigned_abs()).is_ok() == (l > 0);
        for (k, (_, cond)) in entries.iter().enumerate() {
            let t = cond.iter().all(|&l| holds(l));
            cur[k] = if brave {
                cur[k] || t
            } else {
                (found.models == 0 || cur[k]) && t
            };
        }
        found.models += 1;
        found.last_model = Instant::now();
        found
            .first_model
            .get_or_insert(found.last_model - solve_start);
        on_model();
        let names: Vec<&str> = entries
            .iter()
            .zip(&cur)
            .filter(|(_, &c)| c)
            .map(|((n, _), _)| n.as_str())
            .collect();
        printer.model(&names, None).map_err(output_failure)?;
        let (lower, upper) = estimate(engine, entries, &cur, brave);
        printer.consequences(lower, upper).map_err(output_failure)?;
        found.cons = Some(ConsSummary {
            brave,
            lower,
            upper,
        });
        if refine {
            refine = match refinement(entries, &cur, brave) {
                Some(ng) => engine.add_nogood(&ng),
                None => false,
            };
        }
    };
    if let Some(k) = found
        .cons
        .as_mut()
        .filter(|_| found.outcome == Outcome::Exhausted)
    {
        // Every answer set is accounted for: the set is exact.
        let n = cur.iter().filter(|&&c| c).count() as u64;
        (k.lower, k.upper) = (n, n);
    }
    Ok(found)
}

/// clasp's `[lower;upper]`: brave — the set, and it plus the symbols not yet in it that are
/// not false at the engine's top level; cautious — the symbols of the set true at the top
/// level, and the set.
fn estimate(
    engine: &dyn Engine,
    entries: &[(String, Vec<i32>)],
    cur: &[bool],
    brave: bool,
) -> (u64, u64) {
    let fixed = |cond: &[i32]| -> Option<bool> {
        let mut all = true;
        for &l in cond {
            match engine.fixed(l.unsigned_abs()).map(|v| v == (l > 0)) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => all = false,
            }
        }
        all.then_some(true)
    };
    let set = cur.iter().filter(|&&c| c).count() as u64;
    let count = |f: &dyn Fn(usize) -> bool| (0..entries.len()).filter(|&k| f(k)).count() as u64;
    if brave {
        let open = count(&|k| !cur[k] && fixed(&entries[k].1) != Some(false));
        (set, set + open)
    } else {
        (
            count(&|k| cur[k] && fixed(&entries[k].1) == Some(true)),
            set,
        )
    }
}

/// The nogood that makes the next answer set refine the consequences: brave — not every
/// symbol outside the set false; cautious — not every symbol of the set (other than shown
/// facts, which are always true) true. `None` when a symbol has a condition of several
/// literals.
fn refinement(entries: &[(String, Vec<i32>)], cur: &[bool], brave: bool) -> Option<Vec<Lit>> {
    let lit = |l: i32, value: bool| Lit::new(l.unsigned_abs(), (l > 0) == value);
    let mut ng = Vec::new();
    for ((_, cond), &c) in entries.iter().zip(cur) {
        match (cond.as_slice(), brave, c) {
            (_, true, true) | (_, false, false) => {}
            ([], _, _) => {} // a shown fact: true in every model
            (&[l], true, false) => ng.push(lit(l, false)),
            (&[l], false, true) => ng.push(lit(l, true)),
            _ => return None,
        }
    }
    ng.sort_unstable();
    ng.dedup();
    Some(ng)
}
