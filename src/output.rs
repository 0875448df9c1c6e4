//! What the user sees on standard output, in clingo's conventions: the text format (`--outf=0`),
//! the ASP competition format (`--outf=1`) and JSON (`--outf=2`), plus `--stats`.
//!
//! Invariant: the printer only formats; it never decides. The run tells it what happened (models,
//! result, times, statistics) and it writes exactly that, flushing after every model so that what
//! was found survives a kill. Shown atoms are printed in clasp's order: symbols whose condition is
//! empty (shown facts) first, in input order, then the others ordered (stably) by the atom of their
//! condition — the order clasp's solver variables give them.

mod stats;
#[cfg(test)]
mod tests;

use crate::engine::Stats;
use lparse::Program;
use std::io::{self, Write};
use std::time::Duration;

/// `--outf`: 0 = text, 1 = competition, 2 = JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Competition,
    Json,
}

impl Format {
    pub fn from_outf(outf: u8) -> Self {
        match outf {
            1 => Format::Competition,
            2 => Format::Json,
            _ => Format::Text,
        }
    }
}

/// The shown symbols of a program, in print order.
#[derive(Clone, Debug, Default)]
pub struct ShownTable {
    /// (name, condition) in print order.
    entries: Vec<(String, Vec<i32>)>,
}

impl ShownTable {
    pub fn new(program: &Program) -> Self {
        let mut facts = Vec::new();
        let mut conditional = Vec::new();
        for o in &program.outputs {
            let entry = (o.name.clone(), o.condition.clone());
            if o.condition.is_empty() {
                facts.push(entry);
            } else {
                conditional.push(entry);
            }
        }
        // Single-literal conditions sort by atom; longer ones (clasp gives them a fresh
        // variable, numbered after all atoms) go last, each group stable.
        conditional.sort_by_key(|(_, c)| match c[..] {
            [l] => (0u8, l.unsigned_abs()),
            _ => (1u8, 0),
        });
        facts.extend(conditional);
        ShownTable { entries: facts }
    }

    /// The names shown in the model whose true atoms are `atoms` (sorted or not).
    pub fn shown<'a>(&'a self, atoms: &[u32]) -> Vec<&'a str> {
        let max = atoms.iter().copied().max().unwrap_or(0) as usize;
        let mut m = vec![false; max + 1];
        atoms.iter().for_each(|&a| m[a as usize] = true);
        let holds = |l: i32| {
            let a = l.unsigned_abs() as usize;
            let t = a < m.len() && m[a];
            if l > 0 {
                t
            } else {
                !t
            }
        };
        self.entries
            .iter()
            .filter(|(_, c)| c.iter().all(|&l| holds(l)))
            .map(|(n, _)| n.as_str())
            .collect()
    }
}

/// How the search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The search space was exhausted (all models printed, or none exists).
    Exhausted,
    /// The requested number of models was reached; more may exist.
    Enough,
    /// The time limit was reached.
    TimeLimit,
    /// Interrupted by a signal (Ctrl-C).
    Interrupted,
}

/// Everything the final block needs.
#[derive(Clone, Debug)]
pub struct Summary<'a> {
    pub outcome: Outcome,
    pub models: u64,
    pub total: Duration,
    pub solving: Duration,
    /// From the start of solving to the first model (`None` = no model).
    pub first_model: Option<Duration>,
    /// From the last model (or the start) to the proof that no more exist (zero otherwise).
    pub unsat: Duration,
    pub stats: Option<&'a Stats>,
}

impl Summary<'_> {
    /// `SATISFIABLE`, `UNSATISFIABLE` or `UNKNOWN`.
    pub fn result(&self) -> &'static str {
        match (self.models, self.outcome) {
            (0, Outcome::Exhausted) => "UNSATISFIABLE",
            (0, _) => "UNKNOWN",
            _ => "SATISFIABLE",
        }
    }
    /// clasp's exit code: 10 = a model was found, +20 = the space was exhausted, +1 = stopped
    /// early by a time limit or a signal (so 0 never appears after a finished search).
    pub fn exit_code(&self) -> i32 {
        let mut code = 0;
        if self.models > 0 {
            code += 10;
        }
        match self.outcome {
            Outcome::Exhausted => code += 20,
            Outcome::Enough => {}
            Outcome::TimeLimit | Outcome::Interrupted => code += 1,
        }
        code
    }
}

/// Writes one run's output, model by model, then the summary.
pub struct Printer<W: Write> {
    out: W,
    format: Format,
    quiet: bool,
    count: u64,
    /// Competition format prints the last model at the end; JSON prints all at the end.
    held: Vec<Vec<String>>,
    input: String,
    version: String,
}

impl<W: Write> Printer<W> {
    /// `input` is what clingo writes after `Reading from` (a file name or `stdin`).
    pub fn new(out: W, format: Format, quiet: bool, input: &str) -> Self {
        Printer {
            out,
            format,
            quiet,
            count: 0,
            held: Vec::new(),
            input: input.to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// Pin the version string (snapshot tests must not change with every release).
    pub fn with_version(mut self, version: &str) -> Self {
        self.version = version.to_string();
        self
    }

    fn comment(&self) -> &'static str {
        if self.format == Format::Competition {
            "% "
        } else {
            ""
        }
    }

    /// `yasmin-rs version X` and `Reading from …`.
    pub fn header(&mut self) -> io::Result<()> {
        if self.format == Format::Json {
            return Ok(());
        }
        let c = self.comment();
        writeln!(self.out, "{c}yasmin-rs version {}", self.version)?;
        writeln!(self.out, "{c}Reading from {}", self.input)?;
        self.out.flush()
    }

    /// `Solving...`, once the program is read and the search begins.
    pub fn solving(&mut self) -> io::Result<()> {
        if self.format == Format::Json {
            return Ok(());
        }
        writeln!(self.out, "{}Solving...", self.comment())?;
        self.out.flush()
    }

    /// One model, given by its shown symbols in print order.
    pub fn model(&mut self, shown: &[&str]) -> io::Result<()> {
        self.count += 1;
        if self.quiet {
            return Ok(());
        }
        match self.format {
            Format::Text => {
                writeln!(self.out, "Answer: {}", self.count)?;
                writeln!(self.out, "{}", shown.join(" "))?;
            }
            Format::Competition => {
                writeln!(self.out, "% Answer: {}", self.count)?;
                self.held.clear();
                self.held
                    .push(shown.iter().map(|s| s.to_string()).collect());
            }
            Format::Json => self
                .held
                .push(shown.iter().map(|s| s.to_string()).collect()),
        }
        self.out.flush()
    }

    /// The result line(s), then models / calls / time, then statistics if given.
    pub fn finish(&mut self, s: &Summary) -> io::Result<()> {
        match self.format {
            Format::Text => self.finish_text(s),
            Format::Competition => self.finish_competition(s),
            Format::Json => self.finish_json(s),
        }?;
        self.out.flush()
    }

    fn finish_text(&mut self, s: &Summary) -> io::Result<()> {
        writeln!(self.out, "{}", s.result())?;
        writeln!(self.out)?;
        self.summary_lines(s, "", 13)?;
        if let Some(stats) = s.stats {
            writeln!(self.out)?;
            stats::write_text(&mut self.out, stats, "", 13)?;
        }
        Ok(())
    }

    fn finish_competition(&mut self, s: &Summary) -> io::Result<()> {
        match (s.result(), self.held.last()) {
            ("SATISFIABLE", Some(last)) => {
                writeln!(self.out, "ANSWER")?;
                let atoms: Vec<String> = last.iter().map(|a| format!("{a}.")).collect();
                writeln!(self.out, "{}", atoms.join(" "))?;
            }
            // Quiet: the answer itself was not asked for, only the verdict.
            ("SATISFIABLE", None) => writeln!(self.out, "ANSWER")?,
            ("UNSATISFIABLE", _) => writeln!(self.out, "INCONSISTENT")?,
            _ => writeln!(self.out, "UNKNOWN")?,
        }
        writeln!(self.out, "% ")?;
        self.summary_lines(s, "% ", 15)?;
        if let Some(stats) = s.stats {
            writeln!(self.out, "% ")?;
            stats::write_text(&mut self.out, stats, "% ", 15)?;
        }
        Ok(())
    }

    /// `Models : N[+]`, `Calls : 1`, `Time : …`, with labels padded to `width` as clingo does.
    fn summary_lines(&mut self, s: &Summary, c: &str, width: usize) -> io::Result<()> {
        let w = width;
        match s.outcome {
            Outcome::TimeLimit => writeln!(self.out, "{c}{:<w$}: 1", "TIME LIMIT")?,
            Outcome::Interrupted => writeln!(self.out, "{c}{:<w$}: 1", "INTERRUPTED")?,
            _ => {}
        }
        let more = if s.outcome == Outcome::Exhausted {
            ""
        } else {
            "+"
        };
        writeln!(self.out, "{c}{:<w$}: {}{more}", "Models", s.models)?;
        writeln!(self.out, "{c}{:<w$}: 1", "Calls")?;
        let first = s.first_model.unwrap_or_default();
        writeln!(
            self.out,
            "{c}{:<w$}: {:.3}s (Solving: {:.2}s 1st Model: {:.2}s Unsat: {:.2}s)",
            "Time",
            s.total.as_secs_f64(),
            s.solving.as_secs_f64(),
            first.as_secs_f64(),
            s.unsat.as_secs_f64()
        )
    }

    fn finish_json(&mut self, s: &Summary) -> io::Result<()> {
        let o = &mut self.out;
        writeln!(o, "{{")?;
        writeln!(
            o,
            "  \"Solver\": {},",
            json_str(&format!("yasmin-rs version {}", self.version))
        )?;
        writeln!(o, "  \"Input\": [\n    {}\n  ],", json_str(&self.input))?;
        if self.held.is_empty() {
            writeln!(o, "  \"Call\": [\n    {{\n    }}\n  ],")?;
        } else {
            writeln!(o, "  \"Call\": [\n    {{\n      \"Witnesses\": [")?;
            for (i, w) in self.held.iter().enumerate() {
                let values: Vec<String> = w
                    .iter()
                    .map(|a| format!("            {}", json_str(a)))
                    .collect();
                let sep = if i + 1 < self.held.len() { "," } else { "" };
                if values.is_empty() {
                    writeln!(
                        o,
                        "        {{\n          \"Value\": [\n          ]\n        }}{sep}"
                    )?;
                } else {
                    writeln!(
                        o,
                        "        {{\n          \"Value\": [\n{}\n          ]\n        }}{sep}",
                        values.join(",\n")
                    )?;
                }
            }
            writeln!(o, "      ]\n    }}\n  ],")?;
        }
        writeln!(o, "  \"Result\": \"{}\",", s.result())?;
        let more = if s.outcome == Outcome::Exhausted {
            "no"
        } else {
            "yes"
        };
        writeln!(
            o,
            "  \"Models\": {{\n    \"Number\": {},\n    \"More\": \"{more}\"\n  }},",
            s.models
        )?;
        writeln!(o, "  \"Calls\": 1,")?;
        let first = s.first_model.unwrap_or_default();
        let time = format!(
            "  \"Time\": {{\n    \"Total\": {:.3},\n    \"Solve\": {:.3},\n    \"Model\": {:.3},\n    \"Unsat\": {:.3}\n  }}",
            s.total.as_secs_f64(),
            s.solving.as_secs_f64(),
            first.as_secs_f64(),
            s.unsat.as_secs_f64()
        );
        match s.stats {
            Some(stats) => {
                writeln!(o, "{time},")?;
                stats::write_json(o, stats)?;
            }
            None => writeln!(o, "{time}")?,
        }
        writeln!(o, "}}")
    }

    pub fn into_inner(self) -> W {
        self.out
    }
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
