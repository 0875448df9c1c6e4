//! What the user sees on standard output, in clingo's conventions: the text format (`--outf=0`),
//! the ASP competition format (`--outf=1`) and JSON (`--outf=2`), plus `--stats`.
//!
//! Invariant: the printer only formats; it never decides. The run tells it what happened (models,
//! result, times, statistics) and it writes exactly that, flushing after every model so that what
//! was found survives a kill. Shown atoms are printed in clasp's order: symbols whose condition is
//! empty (shown facts) first, in input order, then the others ordered (stably) by the atom of their
//! condition — the order clasp's solver variables give them.

mod json;
mod muted;
mod shown;
mod stats;
mod summary;
#[cfg(test)]
mod tests;

pub use muted::Muted;
pub use shown::ShownTable;
pub use stats::Problem;
pub use summary::{ConsSummary, OptSummary, Outcome, Summary};

use std::io::{self, Write};
use std::time::{Duration, Instant};

/// `--outf`: 0 = text, 1 = competition, 2 = JSON (3, no output: text into [`Muted`]).
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

/// `-q`: clingo's quiet levels, each 0 (print all), 1 (only the last) or 2 (none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Quiet {
    /// Models.
    pub models: u8,
    /// Optimisation values (`Optimization:` lines).
    pub costs: u8,
}

/// A model kept for the end: its number, shown symbols, costs and when it was found.
#[derive(Clone, Debug)]
struct Held {
    number: u64,
    atoms: Vec<String>,
    costs: Option<Vec<i64>>,
    /// Since the start of the process (clingo's `Answer: N (Time: …)`).
    time: Duration,
    /// `--enum-mode=brave|cautious`: the estimate `[lower;upper]` after this model.
    cons: Option<(u64, u64)>,
}

/// Writes one run's output, model by model, then the summary.
pub struct Printer<W: Write> {
    out: W,
    format: Format,
    quiet: Quiet,
    /// `-V`: 0 only models and the result, 1 clingo's lines, 2 also the preparation times.
    verbose: u8,
    /// The number of the last model (optN's optimal models are numbered from 1 again).
    count: u64,
    /// Competition format: models with costs are printed at once (optN's optimal models),
    /// not at the end.
    at_once: bool,
    /// The models printed at the end: the competition format's last one, JSON's last (or, under
    /// `-q1`, its only one).
    held: Vec<Held>,
    /// JSON: the document's head and the witnesses before the held one are written.
    json_streamed: bool,
    /// Text: each atom printed by this format (`%s` the atom; `--out-atomf`), between atoms
    /// this separator (`--out-ifs`).
    atomf: Option<String>,
    ifs: String,
    /// Text: the last model, printed again at the end under `-q1`.
    last: Option<Held>,
    input: String,
    /// The inputs by name (JSON's `Input` list; empty: `input` alone).
    inputs: Vec<String>,
    version: String,
    /// When the process started (`None`: every time is printed as zero, for snapshots).
    start: Option<Instant>,
    /// When solving began, since `start` (JSON's `Start`).
    call_start: Duration,
}

impl<W: Write> Printer<W> {
    /// `input` is what clingo writes after `Reading from` (a file name or `stdin`).
    pub fn new(out: W, format: Format, quiet: Quiet, input: &str) -> Self {
        Printer {
            out,
            format,
            quiet,
            verbose: 1,
            count: 0,
            at_once: false,
            held: Vec::new(),
            json_streamed: false,
            atomf: None,
            ifs: " ".to_string(),
            last: None,
            input: input.to_string(),
            inputs: Vec::new(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            start: None,
            call_start: Duration::ZERO,
        }
    }

    /// Pin the version string (snapshot tests must not change with every release).
    pub fn with_version(mut self, version: &str) -> Self {
        self.version = version.to_string();
        self
    }

    /// Name every input in JSON's `Input` list (several source files), as clingo does.
    pub fn with_inputs(mut self, inputs: Vec<String>) -> Self {
        self.inputs = inputs;
        self
    }

    /// Time models and the call from `start` (the start of the process).
    pub fn with_start(mut self, start: Instant) -> Self {
        self.start = Some(start);
        self
    }

    /// `-V` level.
    pub fn with_verbose(mut self, verbose: u8) -> Self {
        self.verbose = verbose;
        self
    }

    /// Text: print a model's atoms by `atomf` (`%s` the atom) and between them `ifs` (clingo's
    /// `--out-atomf`, `--out-ifs`; `None`: as they are, a space).
    pub fn with_atom_format(mut self, atomf: Option<&str>, ifs: Option<&str>) -> Self {
        self.atomf = atomf.map(str::to_owned);
        if let Some(s) = ifs {
            self.ifs = s.to_owned();
        }
        self
    }

    fn elapsed(&self) -> Duration {
        self.start.map_or(Duration::ZERO, |s| s.elapsed())
    }

    fn comment(&self) -> &'static str {
        if self.format == Format::Competition {
            "% "
        } else {
            ""
        }
    }

    /// clingo's informational lines: not in JSON, not under `-V0`.
    fn chatty(&self) -> bool {
        self.format != Format::Json && self.verbose >= 1
    }

    /// `yasmin-rs version X` and `Reading from …`.
    pub fn header(&mut self) -> io::Result<()> {
        if !self.chatty() {
            return Ok(());
        }
        let c = self.comment();
        writeln!(self.out, "{c}yasmin-rs version {}", self.version)?;
        writeln!(self.out, "{c}Reading from {}", self.input)?;
        self.out.flush()
    }

    /// `-V2`: how long reading and the rest of the preparation took, as clingo's `Reading` and
    /// `Preprocessing` lines.
    pub fn times(&mut self, reading: Duration, preparing: Duration) -> io::Result<()> {
        if !self.chatty() || self.verbose < 2 {
            return Ok(());
        }
        let c = self.comment();
        writeln!(
            self.out,
            "{c}{:<13}: {:.3}s",
            "Reading",
            reading.as_secs_f64()
        )?;
        writeln!(
            self.out,
            "{c}{:<13}: {:.3}s",
            "Preprocessing",
            preparing.as_secs_f64()
        )
    }

    /// `Solving...`, once the program is read and the search begins.
    pub fn solving(&mut self) -> io::Result<()> {
        self.call_start = self.elapsed();
        if !self.chatty() {
            return Ok(());
        }
        writeln!(self.out, "{}Solving...", self.comment())?;
        self.out.flush()
    }

    /// Whether a model's shown atoms are printed or kept (not under `-q2` and more: then
    /// [`Printer::model`] may be given none, and counting models costs no formatting).
    pub fn wants_atoms(&self) -> bool {
        self.quiet.models < 2
    }

    /// One model, given by its shown symbols in print order, and its costs when the run
    /// optimises.
    pub fn model(&mut self, shown: &[&str], costs: Option<&[i64]>) -> io::Result<()> {
        self.count += 1;
        let q = self.quiet;
        // A model printed neither as it comes nor at the end needs no clock reading (counting
        // with `-q`, a million models a second).
        let printed = q.models < 2 || (costs.is_some() && q.costs < 2);
        let held = Held {
            number: self.count,
            atoms: match self.wants_atoms() {
                true => shown.iter().map(|s| s.to_string()).collect(),
                false => Vec::new(),
            },
            costs: costs.map(<[i64]>::to_vec),
            time: match printed {
                true => self.elapsed(),
                false => Duration::ZERO,
            },
            cons: None,
        };
        match self.format {
            Format::Text => {
                let costs_now = costs.is_some() && q.costs == 0;
                if q.models == 0 || costs_now {
                    self.text_model(&held, q.models == 0, costs_now)?;
                }
                self.last = Some(held);
            }
            _ if q.models >= 2 => {}
            // clasp's competition format prints only the best model, at the end, or the
            // optimal ones as they come (optN).
            Format::Competition if costs.is_some() && self.at_once => {
                self.held.clear();
                self.competition_model(&held)?;
            }
            Format::Competition => {
                self.held.clear();
                self.held.push(held);
            }
            // JSON: every witness as it comes (the one before is written when the next comes,
            // so that its consequences' estimate is in it), or with `-q1` the last at the end.
            Format::Json => {
                if q.models == 1 {
                    self.held.clear();
                } else if let Some(prev) = self.held.pop() {
                    if !self.json_streamed {
                        let call = json::Call {
                            solver: &self.version,
                            input: &self.input,
                            inputs: &self.inputs,
                            start: self.call_start,
                            stop: Duration::ZERO,
                            witnesses: &[],
                        };
                        json::head(&mut self.out, &call)?;
                        json::open_witnesses(&mut self.out)?;
                        self.json_streamed = true;
                    }
                    json::witness(&mut self.out, &prev, true)?;
                }
                self.held.push(held);
            }
        }
        self.out.flush()
    }

    /// After the model just printed (the consequences so far): clasp's estimate of the
    /// consequences, `lower` known and `upper` possible (text: the line `Consequences:
    /// [lower;upper]` after the model; the other formats hold it with the model).
    pub fn consequences(&mut self, lower: u64, upper: u64) -> io::Result<()> {
        if self.format == Format::Text && self.quiet.models == 0 {
            writeln!(self.out, "Consequences: [{lower};{upper}]")?;
        }
        for h in self.last.iter_mut().chain(self.held.last_mut()) {
            h.cons = Some((lower, upper));
        }
        self.out.flush()
    }

    /// `Answer: N (Time: …)` (not under `-V0`), then the atoms (and the consequences'
    /// estimate, when known) and the costs if asked.
    fn text_model(&mut self, m: &Held, atoms: bool, costs: bool) -> io::Result<()> {
        if self.verbose >= 1 {
            let t = m.time.as_secs_f64();
            writeln!(self.out, "Answer: {} (Time: {t:.3}s)", m.number)?;
        }
        if atoms {
            let line = match &self.atomf {
                None => m.atoms.join(&self.ifs),
                Some(f) => m
                    .atoms
                    .iter()
                    .map(|a| f.replace("%s", a))
                    .collect::<Vec<_>>()
                    .join(&self.ifs),
            };
            writeln!(self.out, "{line}")?;
            if let Some((lo, hi)) = m.cons {
                writeln!(self.out, "Consequences: [{lo};{hi}]")?;
            }
        }
        match &m.costs {
            Some(c) if costs => writeln!(self.out, "Optimization: {}", join_costs(c, " ")),
            _ => Ok(()),
        }
    }

    /// optN found the optimum: the optimal models follow, numbered from 1 again (and in the
    /// competition format printed as they come).
    pub fn optimal_models(&mut self) {
        self.count = 0;
        self.at_once = true;
        if self.format != Format::Json {
            self.held.clear();
        }
    }

    /// `% Answer: N (Time: …)`, `ANSWER`, the atoms, `COST …`.
    fn competition_model(&mut self, m: &Held) -> io::Result<()> {
        if self.verbose >= 1 {
            let t = m.time.as_secs_f64();
            writeln!(self.out, "% Answer: {} (Time: {t:.3}s)", m.number)?;
        }
        writeln!(self.out, "ANSWER")?;
        let atoms: Vec<String> = m.atoms.iter().map(|a| format!("{a}.")).collect();
        writeln!(self.out, "{}", atoms.join(" "))?;
        if let Some((lo, hi)) = m.cons {
            writeln!(self.out, "% Consequences: [{lo};{hi}]")?;
        }
        if let Some(c) = &m.costs {
            writeln!(self.out, "COST {}", join_costs(c, " "))?;
        }
        Ok(())
    }

    /// The result line(s), then models / calls / time, then statistics if given.
    pub fn finish(&mut self, s: &Summary) -> io::Result<()> {
        match self.format {
            Format::Text => self.finish_text(s),
            Format::Competition => self.finish_competition(s),
            Format::Json => {
                let stop = self.elapsed();
                json::finish(
                    &mut self.out,
                    &json::Call {
                        solver: &self.version,
                        input: &self.input,
                        inputs: &self.inputs,
                        start: self.call_start,
                        stop,
                        witnesses: &self.held,
                    },
                    s,
                    self.json_streamed,
                )
            }
        }?;
        self.out.flush()
    }

    fn finish_text(&mut self, s: &Summary) -> io::Result<()> {
        // `-q1` (models or costs): the last model again, as much of it as asked.
        if let Some(last) = self.last.take() {
            let costs = last.costs.is_some();
            if self.quiet.models == 1 || (costs && self.quiet.costs == 1) {
                let (m, c) = (self.quiet.models <= 1, costs && self.quiet.costs <= 1);
                self.text_model(&last, m, c)?;
            }
        }
        if self.verbose >= 2 {
            writeln!(self.out, "{}|", "-".repeat(90))?;
        }
        writeln!(self.out, "{}", s.result())?;
        if self.verbose == 0 && s.stats.is_none() {
            return Ok(());
        }
        writeln!(self.out)?;
        self.summary_lines(s, "", 13)?;
        if let Some(stats) = s.stats {
            writeln!(self.out)?;
            stats::write_text(&mut self.out, stats, "", 13)?;
            if let Some(p) = s.problem {
                writeln!(self.out)?;
                stats::write_problem(&mut self.out, p, "", 13)?;
            }
        }
        Ok(())
    }

    fn finish_competition(&mut self, s: &Summary) -> io::Result<()> {
        let last = self.held.last().cloned();
        match (s.result(), last) {
            // Optimisation (clasp): the best model with its costs, then `OPTIMUM` when proved.
            (r, last) if s.opt().is_some() => {
                if let Some(m) = last {
                    self.competition_model(&m)?;
                }
                if r == "OPTIMUM FOUND" {
                    writeln!(self.out, "OPTIMUM")?;
                }
            }
            ("SATISFIABLE", Some(last)) => self.competition_model(&last)?,
            // Quiet: the answer itself was not asked for (clingo prints no ANSWER either).
            ("SATISFIABLE", None) => {}
            ("UNSATISFIABLE", _) => writeln!(self.out, "INCONSISTENT")?,
            _ => writeln!(self.out, "UNKNOWN")?,
        }
        if self.verbose == 0 && s.stats.is_none() {
            return Ok(());
        }
        writeln!(self.out, "% ")?;
        self.summary_lines(s, "% ", 15)?;
        if let Some(stats) = s.stats {
            writeln!(self.out, "% ")?;
            stats::write_text(&mut self.out, stats, "% ", 15)?;
            if let Some(p) = s.problem {
                writeln!(self.out, "% ")?;
                stats::write_problem(&mut self.out, p, "% ", 15)?;
            }
        }
        Ok(())
    }

    /// `Models : N[+]`, `Calls : 1`, `Time : …`, `CPU Time : …`, with labels padded to
    /// `width` as clingo does.
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
        if let Some(o) = s.opt() {
            let yes = if o.optimum { "yes" } else { "unknown" };
            writeln!(self.out, "{c}{:<w$}: {yes}", "  Optimum")?;
            if o.optimize {
                if o.optimal > 1 {
                    writeln!(self.out, "{c}{:<w$}: {}", "  Optimal", o.optimal)?;
                }
                let costs = join_costs(&o.costs, " ");
                writeln!(self.out, "{c}{:<w$}: {costs}", "Optimization")?;
            }
        }
        if let Some(k) = s.cons.filter(|_| s.models > 0) {
            let label = if k.brave { "  Brave" } else { "  Cautious" };
            let yes = if more.is_empty() { "yes" } else { "unknown" };
            writeln!(self.out, "{c}{label:<w$}: {yes}")?;
            writeln!(self.out, "{c}{:<w$}: {}{more}", "Consequences", k.lower)?;
        }
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
        )?;
        writeln!(
            self.out,
            "{c}{:<w$}: {:.3}s",
            "CPU Time",
            s.cpu.as_secs_f64()
        )
    }

    pub fn into_inner(self) -> W {
        self.out
    }
}

/// Costs as clasp prints them, `sep` between.
fn join_costs(costs: &[i64], sep: &str) -> String {
    let c: Vec<String> = costs.iter().map(i64::to_string).collect();
    c.join(sep)
}

pub(crate) use json::json_str;
