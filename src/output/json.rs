//! `--outf=2`: clingo's JSON, laid out as clingo 5.8 lays it out (two-space indents, a model's
//! values on one line, `Time` per witness, `Start`/`Stop` per call, `CPU` in `Time`).
//!
//! Invariant: the output is one JSON document and every string in it is escaped
//! ([`json_str`]); numbers of seconds have three decimals, as clingo's.

use super::{join_costs, stats, Held, Outcome, Summary};
use std::io::{self, Write};
use std::time::Duration;

/// The call's part of the document.
pub(super) struct Call<'a> {
    /// The version after `yasmin-rs version`.
    pub solver: &'a str,
    pub input: &'a str,
    /// Every input by name (empty: `input` alone).
    pub inputs: &'a [String],
    /// Since the start of the process: when solving began and ended.
    pub start: Duration,
    pub stop: Duration,
    pub witnesses: &'a [Held],
}

fn secs(d: Duration) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// The document up to the call's `Start` (written once, before the first witness or at the
/// end).
pub(super) fn head(o: &mut dyn Write, call: &Call) -> io::Result<()> {
    writeln!(o, "{{")?;
    let solver = json_str(&format!("yasmin-rs version {}", call.solver));
    writeln!(o, "  \"Solver\": {solver},")?;
    let inputs = match call.inputs {
        [] => json_str(call.input),
        names => names
            .iter()
            .map(|n| json_str(n))
            .collect::<Vec<_>>()
            .join(","),
    };
    writeln!(o, "  \"Input\": [\n    {inputs}\n  ],")?;
    writeln!(o, "  \"Call\": [\n    {{")?;
    writeln!(o, "      \"Start\": {},", secs(call.start))
}

/// The opening of the witnesses' list (after [`head`]).
pub(super) fn open_witnesses(o: &mut dyn Write) -> io::Result<()> {
    writeln!(o, "      \"Witnesses\": [")
}

/// One witness; `more`: another follows.
pub(super) fn witness(o: &mut dyn Write, w: &Held, more: bool) -> io::Result<()> {
    let values: Vec<String> = w.atoms.iter().map(|a| json_str(a)).collect();
    let costs = match &w.costs {
        Some(c) => format!(
            ",\n          \"Costs\": [\n            {}\n          ]",
            join_costs(c, ", ")
        ),
        None => String::new(),
    };
    let costs = match w.cons {
        Some((lo, hi)) => format!(
            "{costs},\n          \"Consequences\": {{\n            \"True\": {lo},\n            \"Open\": {}\n          }}",
            hi - lo
        ),
        None => costs,
    };
    let sep = if more { "," } else { "" };
    writeln!(
        o,
        "        {{\n          \"Time\": {},\n          \"Value\": [\n            {}\n          ]{costs}\n        }}{sep}",
        secs(w.time),
        values.join(", ")
    )
}

/// The rest of the document: the witnesses still held (`streamed`: [`head`], the list's
/// opening and the witnesses before these were written as they came), then the summary.
pub(super) fn finish(
    o: &mut dyn Write,
    call: &Call,
    s: &Summary,
    streamed: bool,
) -> io::Result<()> {
    if !streamed {
        head(o, call)?;
        if !call.witnesses.is_empty() {
            open_witnesses(o)?;
        }
    }
    for (i, w) in call.witnesses.iter().enumerate() {
        witness(o, w, i + 1 < call.witnesses.len())?;
    }
    if streamed || !call.witnesses.is_empty() {
        writeln!(o, "      ],")?;
    }
    writeln!(o, "      \"Stop\": {}\n    }}\n  ],", secs(call.stop))?;
    writeln!(o, "  \"Result\": \"{}\",", s.result())?;
    // As clingo: how a run that stopped early stopped.
    match s.outcome {
        Outcome::TimeLimit => writeln!(o, "  \"TIME LIMIT\": 1,")?,
        Outcome::Interrupted => writeln!(o, "  \"INTERRUPTED\": 1,")?,
        _ => {}
    }
    let more = if s.outcome == Outcome::Exhausted {
        "no"
    } else {
        "yes"
    };
    let opt = match s.opt().filter(|o| o.optimize) {
        Some(op) => format!(
            ",\n    \"Optimum\": \"{}\",\n    \"Optimal\": {},\n    \"Costs\": [\n      {}\n    ]",
            if op.optimum { "yes" } else { "unknown" },
            op.optimal,
            join_costs(&op.costs, ", ")
        ),
        None => String::new(),
    };
    let opt = match s.cons.filter(|_| s.models > 0) {
        Some(k) => format!(
            "{opt},\n    \"{}\": \"{}\",\n    \"Consequences\": {{\n      \"True\": {},\n      \"Open\": {}\n    }}",
            if k.brave { "Brave" } else { "Cautious" },
            if more == "no" { "yes" } else { "unknown" },
            k.lower,
            k.upper - k.lower
        ),
        None => opt,
    };
    writeln!(
        o,
        "  \"Models\": {{\n    \"Number\": {},\n    \"More\": \"{more}\"{opt}\n  }},",
        s.models
    )?;
    writeln!(o, "  \"Calls\": 1,")?;
    let first = s.first_model.unwrap_or_default();
    let time = format!(
        "  \"Time\": {{\n    \"Total\": {},\n    \"Solve\": {},\n    \"Model\": {},\n    \"Unsat\": {},\n    \"CPU\": {}\n  }}",
        secs(s.total),
        secs(s.solving),
        secs(first),
        secs(s.unsat),
        secs(s.cpu)
    );
    match s.stats {
        Some(stats) => {
            writeln!(o, "{time},")?;
            stats::write_json(o, stats, s.problem)?;
        }
        None => writeln!(o, "{time}")?,
    }
    writeln!(o, "}}")
}

/// A JSON string literal (RFC 8259 escapes).
pub(crate) fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
