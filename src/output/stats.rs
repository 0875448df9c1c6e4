//! `--stats`: the engine's counters, per-second rates over the search time, the host↔device
//! traffic per decision (the quantity that decides whether a GPU search can be fast), and the
//! problem's size in clingo's table (rules, atoms, bodies, variables, nogoods).
//!
//! Invariant: every number printed is a counter from [`Stats`] or a ratio of two of them; nothing
//! is estimated here.

use super::json_str;
use crate::engine::Stats;
use std::io::{self, Write};

/// The size of the problem the engine searched (clingo's `Rules`/`Atoms`/`Bodies`/`Tight`/
/// `Variables`/`Constraints` table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Rules of the ground program read, and how many of them are choice rules.
    pub rules: u64,
    pub choice_rules: u64,
    /// The largest atom number of the program read.
    pub atoms: u64,
    /// Distinct rule bodies after the analysis.
    pub bodies: u64,
    pub tight: bool,
    /// Variables of the completion (atoms, bodies, auxiliaries).
    pub variables: u64,
    /// Nogoods of the completion with two or more literals (units are assignments, not
    /// constraints, as clasp counts them), and how many of them have two and three.
    pub nogoods: u64,
    pub binary: u64,
    pub ternary: u64,
}

fn per(count: u64, over: u64) -> f64 {
    if over == 0 {
        0.0
    } else {
        count as f64 / over as f64
    }
}

/// The statistics block, labels padded to `w` and each line prefixed with `c`.
pub(super) fn write_text(o: &mut dyn Write, s: &Stats, c: &str, w: usize) -> io::Result<()> {
    let rate = |n| format!("(Per second: {:.1})", s.per_second(n));
    writeln!(
        o,
        "{c}{:<w$}: {:<8} {}",
        "Choices",
        s.decisions,
        rate(s.decisions)
    )?;
    writeln!(
        o,
        "{c}{:<w$}: {:<8} {}",
        "Conflicts",
        s.conflicts,
        rate(s.conflicts)
    )?;
    writeln!(
        o,
        "{c}{:<w$}: {:<8} {}",
        "Propagations",
        s.propagations,
        rate(s.propagations)
    )?;
    writeln!(o, "{c}{:<w$}: {}", "Restarts", s.restarts)?;
    writeln!(
        o,
        "{c}{:<w$}: {:<8} (Average Length: {:.1} Deleted: {})",
        "Lemmas",
        s.learned,
        s.avg_learned_len(),
        s.deleted
    )?;
    writeln!(o, "{c}{:<w$}: {}", "  Loop", s.loop_nogoods)?;
    if s.fwd_fallbacks > 0 {
        // --learning=fwd: conflicts analysed by resolution (past the bitmap width).
        writeln!(o, "{c}{:<w$}: {}", "  By res", s.fwd_fallbacks)?;
    }
    if s.fwd_lits_unknown > 0 {
        // --fwd-cut=lits: conflicts cut as the UIP and the lower decisions (a set unknown).
        writeln!(o, "{c}{:<w$}: {}", "  By decisions", s.fwd_lits_unknown)?;
    }
    if s.learned_short > 0 {
        // Device engine: lemmas of length 2 or 3 kept in the short partition.
        writeln!(o, "{c}{:<w$}: {}", "  Short", s.learned_short)?;
    }
    if s.unfounded_sets > 0 {
        // Host engine: unfounded sets found at partial assignments (source pointers).
        writeln!(o, "{c}{:<w$}: {}", "  Unfounded sets", s.unfounded_sets)?;
    }
    if s.minimality_checks > 0 {
        // Disjunctive programs with a head cycle: candidates checked by a second search, per
        // second of checking, and the loop nogoods the failed checks gave the search.
        let secs = s.minimality_time.as_secs_f64();
        writeln!(
            o,
            "{c}{:<w$}: {:<8} (Failed: {} Per second: {:.1} Nogoods: {})",
            "Minimality",
            s.minimality_checks,
            s.minimality_failed,
            if secs > 0.0 {
                s.minimality_checks as f64 / secs
            } else {
                0.0
            },
            s.minimality_nogoods
        )?;
    }
    writeln!(
        o,
        "{c}{:<w$}: {:.3}s",
        "Search time",
        s.search_time.as_secs_f64()
    )?;
    if s.kernel_launches > 0 || s.bytes_to_device > 0 || s.bytes_from_device > 0 {
        let pd = |n| format!("(Per choice: {:.1})", per(n, s.decisions));
        writeln!(
            o,
            "{c}{:<w$}: {:<8} {}",
            "Kernel calls",
            s.kernel_launches,
            pd(s.kernel_launches)
        )?;
        writeln!(
            o,
            "{c}{:<w$}: {:<8} {}",
            "Host->Device",
            s.bytes_to_device,
            pd(s.bytes_to_device)
        )?;
        writeln!(
            o,
            "{c}{:<w$}: {:<8} {}",
            "Device->Host",
            s.bytes_from_device,
            pd(s.bytes_from_device)
        )?;
    }
    let m = &s.device_mem;
    if m.total() > 0 {
        let mb = |b: u64| b as f64 / (1024.0 * 1024.0);
        writeln!(
            o,
            "{c}{:<w$}: {:.1} MB (nogoods {:.1} learned {:.1} rules {:.1} state {:.1}; driver {:.1})",
            "Device memory",
            mb(m.total()),
            mb(m.nogoods),
            mb(m.learned),
            mb(m.rules),
            mb(m.state),
            mb(m.driver_used)
        )?;
    }
    if s.gpu_searches > 0 {
        writeln!(
            o,
            "{c}{:<w$}: {} ({})",
            "GPU searches", s.gpu_searches, s.gpu_portfolio
        )?;
        let each = |n: u64| per(n, s.gpu_searches) / s.search_time.as_secs_f64().max(1e-9);
        writeln!(
            o,
            "{c}{:<w$}: {:.1} choices/s, {:.1} conflicts/s",
            "  Per search",
            each(s.decisions),
            each(s.conflicts)
        )?;
        writeln!(o, "{c}{:<w$}: {} conflicts", "  Deepest", s.gpu_deepest)?;
        writeln!(
            o,
            "{c}{:<w$}: {} shared, {} imported",
            "  Nogoods", s.shared_out, s.shared_in
        )?;
        let t = &s.gpu_time;
        if t.run > 0 {
            let pc = |x: u64| 100.0 * x as f64 / t.run as f64;
            let other = t
                .run
                .saturating_sub(t.propagate + t.resolve + t.unfounded + t.restart);
            writeln!(
                o,
                "{c}{:<w$}: propagation {:.1}% (short nogoods {:.1}%), analysis {:.1}%, unfounded sets {:.1}%, restarts {:.1}%, other {:.1}%",
                "  Time",
                pc(t.propagate),
                pc(t.short),
                pc(t.resolve),
                pc(t.unfounded),
                pc(t.restart),
                pc(other)
            )?;
            writeln!(
                o,
                "{c}{:<w$}: {:.2} literals per propagation step ({} steps)",
                "  Steps",
                per(s.propagations, t.steps),
                t.steps
            )?;
        }
        if s.gpu_bytes_per_search > 0 {
            writeln!(
                o,
                "{c}{:<w$}: {:.1} MB per search, {} native sums",
                "  Memory",
                s.gpu_bytes_per_search as f64 / (1024.0 * 1024.0),
                s.gpu_native_sums
            )?;
        }
        if s.gpu_cubes > 0 {
            writeln!(
                o,
                "{c}{:<w$}: {} refuted, {} base and {} split off",
                "  Cubes", s.gpu_cubes_refuted, s.gpu_cubes, s.gpu_cube_splits
            )?;
        }
        if s.gpu_bound_updates + s.gpu_bound_resets > 0 {
            writeln!(
                o,
                "{c}{:<w$}: {} tighter written to the device, {} looser (every search restarted)",
                "  Bounds", s.gpu_bound_updates, s.gpu_bound_resets
            )?;
        }
    }
    if !s.portfolio.is_empty() {
        writeln!(o, "{c}{:<w$}: {}", "Portfolio", s.portfolio)?;
    }
    if !s.kernel_image.is_empty() {
        let u = &s.gpu_setup;
        let split = match u.memory.is_zero() {
            true => String::new(),
            false => format!(
                ": context {:.3}s, image {:.3}s, loading {:.3}s, memory {:.3}s",
                u.context.as_secs_f64(),
                u.image.as_secs_f64(),
                u.module.as_secs_f64(),
                u.memory.as_secs_f64()
            ),
        };
        writeln!(
            o,
            "{c}{:<w$}: {} (GPU set-up {:.3}s{split})",
            "Kernel image",
            s.kernel_image,
            s.device_setup_time.as_secs_f64()
        )?;
    }
    Ok(())
}

/// The problem's table, labels padded to `w` and each line prefixed with `c`.
pub(super) fn write_problem(o: &mut dyn Write, p: &Problem, c: &str, w: usize) -> io::Result<()> {
    writeln!(o, "{c}{:<w$}: {}", "Rules", p.rules)?;
    if p.choice_rules > 0 {
        writeln!(o, "{c}{:<w$}: {}", "  Choice", p.choice_rules)?;
    }
    writeln!(o, "{c}{:<w$}: {}", "Atoms", p.atoms)?;
    writeln!(o, "{c}{:<w$}: {}", "Bodies", p.bodies)?;
    let tight = if p.tight { "Yes" } else { "No" };
    writeln!(o, "{c}{:<w$}: {tight}", "Tight")?;
    writeln!(o, "{c}{:<w$}: {}", "Variables", p.variables)?;
    let pct = |n: u64| 100.0 * per(n, p.nogoods);
    let other = p.nogoods - p.binary - p.ternary;
    writeln!(
        o,
        "{c}{:<w$}: {:<8} (Binary: {:5.1}% Ternary: {:5.1}% Other: {:5.1}%)",
        "Constraints",
        p.nogoods,
        pct(p.binary),
        pct(p.ternary),
        pct(other)
    )
}

/// A JSON value of the statistics: a number or string already written out, an object, a
/// list.
enum J {
    V(String),
    O(Vec<(&'static str, J)>),
    A(Vec<J>),
}

fn num(x: impl ToString) -> J {
    J::V(x.to_string())
}

fn write_j(o: &mut dyn Write, j: &J, indent: usize) -> io::Result<()> {
    let pad = " ".repeat(indent + 2);
    match j {
        J::V(v) => write!(o, "{v}"),
        J::O(fields) => {
            writeln!(o, "{{")?;
            for (i, (k, v)) in fields.iter().enumerate() {
                write!(o, "{pad}{}: ", json_str(k))?;
                write_j(o, v, indent + 2)?;
                writeln!(o, "{}", if i + 1 < fields.len() { "," } else { "" })?;
            }
            write!(o, "{}}}", " ".repeat(indent))
        }
        J::A(items) => {
            writeln!(o, "[")?;
            for (i, v) in items.iter().enumerate() {
                write!(o, "{pad}")?;
                write_j(o, v, indent + 2)?;
                writeln!(o, "{}", if i + 1 < items.len() { "," } else { "" })?;
            }
            write!(o, "{}]", " ".repeat(indent))
        }
    }
}

/// JSON's `Stats`, in clingo's objects and keys, each with the counters kept here: `Core`
/// (choices, conflicts, restarts), `More` (models, lemmas by type), `LP` (the program read:
/// rules, atoms, bodies, tightness) and `Problem` (the completion: variables, constraints);
/// what clingo has no key for is under `Yasmin`.
pub(super) fn write_json(
    o: &mut dyn Write,
    s: &Stats,
    problem: Option<&Problem>,
) -> io::Result<()> {
    let avg = |sum: u64, n: u64| J::V(format!("{:.3}", per(sum, n)));
    let mut stats = vec![
        (
            "Core",
            J::O(vec![
                ("Choices", num(s.decisions)),
                ("Conflicts", num(s.conflicts)),
                ("Restarts", num(s.restarts)),
            ]),
        ),
        (
            "More",
            J::O(vec![
                ("Models", num(s.models)),
                (
                    "Lemma",
                    J::O(vec![
                        ("Sum", num(s.learned + s.loop_nogoods)),
                        ("Deleted", num(s.deleted)),
                        (
                            "Type",
                            J::A(vec![
                                J::O(vec![
                                    ("Type", J::V("\"Conflict\"".into())),
                                    ("Sum", num(s.learned)),
                                    ("AvgLen", avg(s.learned_lits, s.learned)),
                                ]),
                                J::O(vec![
                                    ("Type", J::V("\"Loop\"".into())),
                                    ("Sum", num(s.loop_nogoods)),
                                ]),
                            ]),
                        ),
                    ]),
                ),
            ]),
        ),
    ];
    if let Some(p) = problem {
        let tight = if p.tight { "\"yes\"" } else { "\"no\"" };
        stats.push((
            "LP",
            J::O(vec![
                (
                    "Rules",
                    J::O(vec![
                        ("Original", num(p.rules)),
                        ("Choice", J::O(vec![("Original", num(p.choice_rules))])),
                    ]),
                ),
                ("Atoms", num(p.atoms)),
                ("Bodies", J::O(vec![("Original", num(p.bodies))])),
                ("Tight", J::V(tight.into())),
            ]),
        ));
        stats.push((
            "Problem",
            J::O(vec![
                ("Variables", num(p.variables)),
                (
                    "Constraints",
                    J::O(vec![
                        ("Sum", num(p.nogoods)),
                        ("Binary", num(p.binary)),
                        ("Ternary", num(p.ternary)),
                    ]),
                ),
            ]),
        ));
    }
    stats.push((
        "Yasmin",
        J::O(vec![
            ("Propagations", num(s.propagations)),
            ("LemmaLiterals", num(s.learned_lits)),
            ("KernelLaunches", num(s.kernel_launches)),
            ("BytesToDevice", num(s.bytes_to_device)),
            ("BytesFromDevice", num(s.bytes_from_device)),
            (
                "SearchTime",
                J::V(format!("{:.3}", s.search_time.as_secs_f64())),
            ),
            (
                "ChoicesPerSecond",
                J::V(format!("{:.1}", s.per_second(s.decisions))),
            ),
        ]),
    ));
    write!(o, "  \"Stats\": ")?;
    write_j(o, &J::O(stats), 2)?;
    writeln!(o)
}
