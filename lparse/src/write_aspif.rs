//! The aspif writer: a [`ProgramBuilder`] that prints each statement as one aspif line.
//!
//! Invariant: what it writes reads back (with [`crate::read`]) as exactly the statements it was
//! given — same rules, same order, same values — so read → write → read is the identity on
//! [`Program`] (sum bodies with negative weights, which no reader produces, are normalised to
//! non-negative ones). The first io error is kept and every later statement is skipped; `finish`
//! reports it. Theory statements cannot be written: the reader keeps only their count.

use crate::sink::LineSink;
use crate::{
    Body, Edge, External, ExternalValue, HeadKind, Heuristic, HeuristicModifier, Lit, Minimize,
    Output, Program, ProgramBuilder, Rule, WLit,
};
use std::io::{self, BufWriter, Write};

/// Append the decimal form of `v` to `buf` (the writers' hot path: no `fmt` machinery).
pub(crate) fn push_int(buf: &mut Vec<u8>, v: i64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut u = v.unsigned_abs();
    loop {
        i -= 1;
        digits[i] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        buf.push(b'-');
    }
    buf.extend_from_slice(&digits[i..]);
}

/// ` n x1 … xn`
fn push_list<T: Copy + Into<i64>>(buf: &mut Vec<u8>, xs: &[T]) {
    buf.push(b' ');
    push_int(buf, xs.len() as i64);
    for &x in xs {
        buf.push(b' ');
        push_int(buf, x.into());
    }
}

/// ` n l1 w1 … ln wn`
fn push_wlits(buf: &mut Vec<u8>, xs: &[WLit]) {
    buf.push(b' ');
    push_int(buf, xs.len() as i64);
    for w in xs {
        buf.push(b' ');
        push_int(buf, w.lit as i64);
        buf.push(b' ');
        push_int(buf, w.weight);
    }
}

/// Make all weights non-negative — `w·l` with `w < 0` is `-w·(not l)` with the bound raised by
/// `-w` — and check that weights and bound fit the formats' 32-bit range. A bound below 0 is
/// clamped to 0 (the sum of non-negative weights always reaches it).
pub(crate) fn positive_weights(lower: i64, lits: &[WLit]) -> io::Result<(i64, Vec<WLit>)> {
    let mut bound = lower as i128;
    let mut out = Vec::with_capacity(lits.len());
    let mut too_big = false;
    for w in lits {
        let (lit, weight) = if w.weight < 0 {
            bound -= w.weight as i128;
            (-w.lit, -(w.weight as i128))
        } else {
            (w.lit, w.weight as i128)
        };
        too_big |= weight > i32::MAX as i128;
        out.push(WLit {
            lit,
            weight: weight.min(i32::MAX as i128) as i64,
        });
    }
    let bound = bound.max(0);
    if bound > i32::MAX as i128 || too_big {
        return Err(invalid(format!(
            "a weight or bound does not fit the 32-bit range of aspif and smodels (bound {bound})"
        )));
    }
    Ok((bound as i64, out))
}

pub(crate) fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message)
}

pub struct AspifWriter<W: Write> {
    sink: LineSink<W>,
}

impl<W: Write> AspifWriter<W> {
    /// Start a program: writes the header `asp 1 0 0`.
    pub fn new(out: W) -> Self {
        let mut w = AspifWriter {
            sink: LineSink::new(out),
        };
        w.sink.line.extend_from_slice(b"asp 1 0 0");
        w.sink.emit();
        w
    }

    /// End the program (`0`), flush, and report the first error met, if any.
    pub fn finish(mut self) -> io::Result<()> {
        self.sink.line.push(b'0');
        self.sink.emit();
        self.sink.finish()
    }

    pub(crate) fn write_rule(&mut self, r: &Rule) {
        let l = &mut self.sink.line;
        l.extend_from_slice(match r.head.kind {
            HeadKind::Disjunctive => b"1 0",
            HeadKind::Choice => b"1 1",
        });
        push_list(l, &r.head.atoms);
        match &r.body {
            Body::Normal(lits) => {
                l.extend_from_slice(b" 0");
                push_list(l, lits);
            }
            // aspif sum bodies have non-negative weights: programs read from files always do;
            // others are normalised (same meaning, different literals).
            Body::Sum { lower, lits }
                if lits
                    .iter()
                    .all(|w| (0..=i32::MAX as i64).contains(&w.weight))
                    && (i32::MIN as i64..=i32::MAX as i64).contains(lower) =>
            {
                l.extend_from_slice(b" 1 ");
                push_int(l, *lower);
                push_wlits(l, lits);
            }
            Body::Sum { lower, lits } => match positive_weights(*lower, lits) {
                Ok((lower, lits)) => {
                    l.extend_from_slice(b" 1 ");
                    push_int(l, lower);
                    push_wlits(l, &lits);
                }
                Err(e) => {
                    self.sink.line.clear();
                    self.sink.fail(e);
                    return;
                }
            },
        }
        self.sink.emit();
    }

    pub(crate) fn write_minimize(&mut self, m: &Minimize) {
        let range = i32::MIN as i64..=i32::MAX as i64;
        if let Some(w) = m.lits.iter().find(|w| !range.contains(&w.weight)) {
            let weight = w.weight;
            self.sink.fail(invalid(format!(
                "minimize weight {weight} does not fit 32 bits"
            )));
            return;
        }
        self.sink.line.extend_from_slice(b"2 ");
        push_int(&mut self.sink.line, m.priority as i64);
        push_wlits(&mut self.sink.line, &m.lits);
        self.sink.emit();
    }

    pub(crate) fn write_output(&mut self, name: &str, condition: &[Lit]) {
        self.sink.line.extend_from_slice(b"4 ");
        push_int(&mut self.sink.line, name.len() as i64);
        self.sink.line.push(b' ');
        self.sink.line.extend_from_slice(name.as_bytes());
        push_list(&mut self.sink.line, condition);
        self.sink.emit();
    }

    pub(crate) fn write_project(&mut self, atoms: &[u32]) {
        self.sink.line.push(b'3');
        push_list(&mut self.sink.line, atoms);
        self.sink.emit();
    }

    pub(crate) fn write_assume(&mut self, lits: &[Lit]) {
        self.sink.line.push(b'6');
        push_list(&mut self.sink.line, lits);
        self.sink.emit();
    }

    pub(crate) fn write_heuristic(&mut self, h: &Heuristic) {
        let m = match h.modifier {
            HeuristicModifier::Level => 0,
            HeuristicModifier::Sign => 1,
            HeuristicModifier::Factor => 2,
            HeuristicModifier::Init => 3,
            HeuristicModifier::True => 4,
            HeuristicModifier::False => 5,
        };
        let l = &mut self.sink.line;
        l.extend_from_slice(b"7");
        for x in [m, h.atom as i64, h.bias as i64, h.priority as i64] {
            l.push(b' ');
            push_int(l, x);
        }
        push_list(l, &h.condition);
        self.sink.emit();
    }

    pub(crate) fn write_edge(&mut self, e: &Edge) {
        let l = &mut self.sink.line;
        l.extend_from_slice(b"8 ");
        push_int(l, e.u as i64);
        l.push(b' ');
        push_int(l, e.v as i64);
        push_list(l, &e.condition);
        self.sink.emit();
    }
}

impl<W: Write> ProgramBuilder for AspifWriter<W> {
    fn rule(&mut self, rule: Rule) {
        self.write_rule(&rule);
    }
    fn minimize(&mut self, minimize: Minimize) {
        self.write_minimize(&minimize);
    }
    fn output(&mut self, output: Output) {
        self.write_output(&output.name, &output.condition);
    }
    fn external(&mut self, e: External) {
        let v = match e.value {
            ExternalValue::Free => 0,
            ExternalValue::True => 1,
            ExternalValue::False => 2,
            ExternalValue::Release => 3,
        };
        self.sink.line.extend_from_slice(b"5 ");
        push_int(&mut self.sink.line, e.atom as i64);
        self.sink.line.push(b' ');
        push_int(&mut self.sink.line, v);
        self.sink.emit();
    }
    fn project(&mut self, atoms: Vec<u32>) {
        self.write_project(&atoms);
    }
    fn assume(&mut self, lits: Vec<Lit>) {
        self.write_assume(&lits);
    }
    fn heuristic(&mut self, heuristic: Heuristic) {
        self.write_heuristic(&heuristic);
    }
    fn edge(&mut self, edge: Edge) {
        self.write_edge(&edge);
    }
    fn theory(&mut self) {
        self.sink.fail(invalid(
            "theory statements cannot be written: the reader keeps only their number".into(),
        ));
    }
}

/// Write `program` as aspif. Fails (InvalidInput) if it has theory statements.
pub fn write_aspif(program: &Program, out: &mut dyn Write) -> io::Result<()> {
    if program.theory_statements > 0 {
        return Err(invalid(format!(
            "cannot write {} theory statement(s): the reader keeps only their number",
            program.theory_statements
        )));
    }
    let mut w = AspifWriter::new(BufWriter::with_capacity(1 << 16, out));
    program.rules.iter().for_each(|r| w.write_rule(r));
    program.minimize.iter().for_each(|m| w.write_minimize(m));
    if let Some(atoms) = &program.projection {
        w.write_project(atoms);
    }
    program
        .outputs
        .iter()
        .for_each(|o| w.write_output(&o.name, &o.condition));
    program.externals.iter().for_each(|&e| w.external(e));
    if !program.assumptions.is_empty() {
        w.write_assume(&program.assumptions);
    }
    program.heuristics.iter().for_each(|h| w.write_heuristic(h));
    program.edges.iter().for_each(|e| w.write_edge(e));
    w.finish()
}
