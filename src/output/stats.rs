//! `--stats`: the engine's counters, per-second rates over the search time, and the host↔device
//! traffic per decision (the quantity that decides whether a GPU search can be fast).
//!
//! Invariant: every number printed is a counter from [`Stats`] or a ratio of two of them; nothing
//! is estimated here.

use super::json_str;
use crate::engine::Stats;
use std::io::{self, Write};

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
        // Disjunctive programs with a head cycle: candidates checked by a second search.
        writeln!(
            o,
            "{c}{:<w$}: {:<8} (Failed: {})",
            "Minimality", s.minimality_checks, s.minimality_failed
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
        writeln!(
            o,
            "{c}{:<w$}: {} shared, {} imported",
            "  Nogoods", s.shared_out, s.shared_in
        )?;
        if s.gpu_cubes > 0 {
            writeln!(
                o,
                "{c}{:<w$}: {} of {} refuted",
                "  Cubes", s.gpu_cubes_refuted, s.gpu_cubes
            )?;
        }
    }
    if !s.portfolio.is_empty() {
        writeln!(o, "{c}{:<w$}: {}", "Portfolio", s.portfolio)?;
    }
    if !s.kernel_image.is_empty() {
        writeln!(
            o,
            "{c}{:<w$}: {} (GPU set-up {:.3}s)",
            "Kernel image",
            s.kernel_image,
            s.device_setup_time.as_secs_f64()
        )?;
    }
    Ok(())
}

/// The statistics as a JSON member `"Stats": {…}` (no trailing comma).
pub(super) fn write_json(o: &mut dyn Write, s: &Stats) -> io::Result<()> {
    let fields: [(&str, String); 13] = [
        ("Choices", s.decisions.to_string()),
        ("Conflicts", s.conflicts.to_string()),
        ("Propagations", s.propagations.to_string()),
        ("Restarts", s.restarts.to_string()),
        ("Lemmas", s.learned.to_string()),
        ("LemmaLiterals", s.learned_lits.to_string()),
        ("LoopNogoods", s.loop_nogoods.to_string()),
        ("Deleted", s.deleted.to_string()),
        ("KernelLaunches", s.kernel_launches.to_string()),
        ("BytesToDevice", s.bytes_to_device.to_string()),
        ("BytesFromDevice", s.bytes_from_device.to_string()),
        ("SearchTime", format!("{:.3}", s.search_time.as_secs_f64())),
        (
            "ChoicesPerSecond",
            format!("{:.1}", s.per_second(s.decisions)),
        ),
    ];
    writeln!(o, "  \"Stats\": {{")?;
    for (i, (k, v)) in fields.iter().enumerate() {
        let sep = if i + 1 < fields.len() { "," } else { "" };
        writeln!(o, "    {}: {v}{sep}", json_str(k))?;
    }
    writeln!(o, "  }}")
}
