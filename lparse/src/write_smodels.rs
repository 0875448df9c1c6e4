//! The smodels writer: a [`ProgramBuilder`] that prints the lparse numeric format, introducing
//! fresh auxiliary atoms (above the `max_atom` it is given, never shown) for what smodels cannot
//! say directly.
//!
//! Invariant: the written program has the same answer sets as the input projected onto the
//! input's atoms, and the same shown atoms. Translations:
//! - `:- l` (one literal) goes to the compute statement (`B-` for `:- a`, `B+` for `:- not a`),
//!   which the reader turns back into the same constraint; other constraints get a fresh
//!   "false" atom as head, listed under `B-`.
//! - a sum body under a choice or disjunctive head: a fresh atom `x :- sum`, then `head :- x`.
//! - a negative weight: `w·l` with `w < 0` is `-w·(not l)` with the bound raised by `-w`.
//!   In minimize statements that shifts the cost by a constant (the optimal models stay the
//!   same, the printed optimisation value changes); minimize statements are merged per priority
//!   and written lowest priority first (smodels priorities are positions).
//! - an output whose condition is not one positive atom: a fresh atom defined by that condition.
//! - externals: clasp's `91 a v` / `92 a`. Assumptions: the compute statement.
//! - projection, heuristics, edges and theory statements have no smodels form: InvalidInput.
//!
//! Rules are streamed; outputs, minimize statements and the compute statement are held until
//! [`SmodelsWriter::finish`], because smodels puts them after the rules.

use crate::sink::LineSink;
use crate::write_aspif::{invalid, positive_weights, push_int};
use crate::{
    Atom, Body, Edge, External, ExternalValue, HeadKind, Heuristic, Lit, Minimize, Output, Program,
    ProgramBuilder, Rule, WLit,
};
use std::io::{self, BufWriter, Write};

pub struct SmodelsWriter<W: Write> {
    sink: LineSink<W>,
    max_atom: Atom,
    next_aux: u64,
    false_atom: Option<Atom>,
    symbols: Vec<(Atom, String)>,
    minimize: Vec<Minimize>,
    b_plus: Vec<Atom>,
    b_minus: Vec<Atom>,
}

impl<W: Write> SmodelsWriter<W> {
    /// `max_atom`: the highest atom the statements will mention; auxiliary atoms are numbered
    /// from `max_atom + 1`. A statement with a higher atom is an error (InvalidInput).
    pub fn new(out: W, max_atom: Atom) -> Self {
        SmodelsWriter {
            sink: LineSink::new(out),
            max_atom,
            next_aux: max_atom as u64 + 1,
            false_atom: None,
            symbols: Vec::new(),
            minimize: Vec::new(),
            b_plus: Vec::new(),
            b_minus: Vec::new(),
        }
    }

    /// Write what was held back (minimize, symbol table, compute statement, model count),
    /// flush, and report the first error met, if any.
    pub fn finish(mut self) -> io::Result<()> {
        let mut minimize = std::mem::take(&mut self.minimize);
        minimize.sort_by_key(|m| m.priority); // stable: statements keep their order
        for group in minimize.chunk_by(|a, b| a.priority == b.priority) {
            let lits: Vec<WLit> = group.iter().flat_map(|m| m.lits.iter().copied()).collect();
            self.sink.line.extend_from_slice(b"6 0");
            if let Some((_, lits)) = self.normalise(0, &lits) {
                self.push_sum_lits(&lits, true);
            }
            self.sink.emit();
        }
        self.sink.line.push(b'0');
        self.sink.emit();
        for (atom, name) in std::mem::take(&mut self.symbols) {
            push_int(&mut self.sink.line, atom as i64);
            self.sink.line.push(b' ');
            self.sink.line.extend_from_slice(name.as_bytes());
            self.sink.emit();
        }
        self.sink.line.push(b'0');
        self.sink.emit();
        let b_plus = std::mem::take(&mut self.b_plus);
        let mut b_minus = std::mem::take(&mut self.b_minus);
        b_minus.extend(self.false_atom);
        for (word, atoms) in [(&b"B+"[..], b_plus), (&b"B-"[..], b_minus)] {
            self.sink.line.extend_from_slice(word);
            self.sink.emit();
            for a in atoms {
                push_int(&mut self.sink.line, a as i64);
                self.sink.emit();
            }
            self.sink.line.push(b'0');
            self.sink.emit();
        }
        self.sink.line.push(b'1');
        self.sink.emit();
        self.sink.finish()
    }

    /// A fresh auxiliary atom, or None (error recorded) when atoms run out.
    fn fresh(&mut self) -> Option<Atom> {
        if self.next_aux > i32::MAX as u64 {
            self.sink
                .fail(invalid("no atom number left for an auxiliary atom".into()));
            return None;
        }
        self.next_aux += 1;
        Some((self.next_aux - 1) as Atom)
    }

    fn false_atom(&mut self) -> Option<Atom> {
        if self.false_atom.is_none() {
            self.false_atom = self.fresh();
        }
        self.false_atom
    }

    /// Record an error (and return false) if `atom` is 0 or above the declared `max_atom`.
    fn check_atom(&mut self, atom: Atom) -> bool {
        if atom == 0 || atom > self.max_atom || atom > i32::MAX as Atom {
            let max = self.max_atom;
            self.sink.fail(invalid(format!(
                "atom {atom} is not in 1..={max} (the max_atom given to SmodelsWriter::new)"
            )));
            return false;
        }
        true
    }

    fn check_lits(&mut self, lits: impl Iterator<Item = Lit>) -> bool {
        lits.into_iter()
            .all(|l| l != i32::MIN && self.check_atom(l.unsigned_abs()))
    }

    /// ` n m negs… poss…` for a normal body.
    fn push_body(&mut self, lits: &[Lit]) {
        let neg = lits.iter().filter(|&&l| l < 0).count();
        let l = &mut self.sink.line;
        for x in [lits.len(), neg] {
            l.push(b' ');
            push_int(l, x as i64);
        }
        for &x in lits
            .iter()
            .filter(|&&x| x < 0)
            .chain(lits.iter().filter(|&&x| x > 0))
        {
            l.push(b' ');
            push_int(l, x.unsigned_abs() as i64);
        }
    }

    /// ` n m negs… poss…` then, if `weights`, the weights in the same order.
    fn push_sum_lits(&mut self, lits: &[WLit], weights: bool) {
        let neg: Vec<&WLit> = lits.iter().filter(|w| w.lit < 0).collect();
        let pos: Vec<&WLit> = lits.iter().filter(|w| w.lit > 0).collect();
        let l = &mut self.sink.line;
        for x in [lits.len(), neg.len()] {
            l.push(b' ');
            push_int(l, x as i64);
        }
        for w in neg.iter().chain(pos.iter()) {
            l.push(b' ');
            push_int(l, w.lit.unsigned_abs() as i64);
        }
        if weights {
            for w in neg.iter().chain(pos.iter()) {
                l.push(b' ');
                push_int(l, w.weight);
            }
        }
    }

    /// [`positive_weights`], recording its error.
    fn normalise(&mut self, lower: i64, lits: &[WLit]) -> Option<(i64, Vec<WLit>)> {
        match positive_weights(lower, lits) {
            Ok(x) => Some(x),
            Err(e) => {
                self.sink.fail(e);
                None
            }
        }
    }

    /// `head :- lower <= sum` as type 2 (all weights 1) or type 5.
    fn write_sum(&mut self, head: Atom, lower: i64, lits: &[WLit]) {
        let Some((bound, lits)) = self.normalise(lower, lits) else {
            return;
        };
        if lits.iter().all(|w| w.weight == 1) {
            self.sink.line.extend_from_slice(b"2 ");
            push_int(&mut self.sink.line, head as i64);
            let neg = lits.iter().filter(|w| w.lit < 0).count();
            for x in [lits.len() as i64, neg as i64, bound] {
                self.sink.line.push(b' ');
                push_int(&mut self.sink.line, x);
            }
            let (negs, poss): (Vec<&WLit>, Vec<&WLit>) = lits.iter().partition(|w| w.lit < 0);
            for w in negs.iter().chain(poss.iter()) {
                self.sink.line.push(b' ');
                push_int(&mut self.sink.line, w.lit.unsigned_abs() as i64);
            }
        } else {
            self.sink.line.extend_from_slice(b"5 ");
            push_int(&mut self.sink.line, head as i64);
            self.sink.line.push(b' ');
            push_int(&mut self.sink.line, bound);
            self.push_sum_lits(&lits, true);
        }
        self.sink.emit();
    }

    /// `head :- body` with a normal body: type 1 (≤ 1 atom), 8 (disjunction) or 3 (choice).
    fn write_normal(&mut self, kind: HeadKind, head: &[Atom], body: &[Lit]) {
        match (kind, head.len()) {
            (HeadKind::Disjunctive, 1) => {
                self.sink.line.extend_from_slice(b"1 ");
                push_int(&mut self.sink.line, head[0] as i64);
            }
            (kind, _) => {
                self.sink
                    .line
                    .extend_from_slice(if kind == HeadKind::Choice {
                        b"3 "
                    } else {
                        b"8 "
                    });
                push_int(&mut self.sink.line, head.len() as i64);
                for &a in head {
                    self.sink.line.push(b' ');
                    push_int(&mut self.sink.line, a as i64);
                }
            }
        }
        self.push_body(body);
        self.sink.emit();
    }

    pub(crate) fn write_rule(&mut self, r: &Rule) {
        let body_lits: Box<dyn Iterator<Item = Lit>> = match &r.body {
            Body::Normal(l) => Box::new(l.iter().copied()),
            Body::Sum { lits, .. } => Box::new(lits.iter().map(|w| w.lit)),
        };
        if !self.check_lits(body_lits) || !r.head.atoms.iter().all(|&a| self.check_atom(a)) {
            return;
        }
        let head = &r.head.atoms;
        match (r.head.kind, &r.body) {
            // `{} :- body` says nothing.
            (HeadKind::Choice, _) if head.is_empty() => {}
            (HeadKind::Disjunctive, Body::Normal(lits)) if head.is_empty() && lits.len() == 1 => {
                let l = lits[0];
                if l > 0 {
                    self.b_minus.push(l as Atom);
                } else {
                    self.b_plus.push(l.unsigned_abs());
                }
            }
            (HeadKind::Disjunctive, Body::Normal(lits)) if head.is_empty() => {
                if let Some(f) = self.false_atom() {
                    self.write_normal(HeadKind::Disjunctive, &[f], lits);
                }
            }
            (kind, Body::Normal(lits)) => self.write_normal(kind, head, lits),
            (HeadKind::Disjunctive, Body::Sum { lower, lits }) if head.len() <= 1 => {
                let h = match head.first() {
                    Some(&a) => Some(a),
                    None => self.false_atom(),
                };
                if let Some(h) = h {
                    self.write_sum(h, *lower, lits);
                }
            }
            (kind, Body::Sum { lower, lits }) => {
                if let Some(x) = self.fresh() {
                    self.write_sum(x, *lower, lits);
                    self.write_normal(kind, head, &[x as Lit]);
                }
            }
        }
    }

    pub(crate) fn write_output(&mut self, name: &str, condition: &[Lit]) {
        if name.is_empty() || name.contains(['\n', '\r']) {
            self.sink.fail(invalid(format!(
                "output name {name:?} cannot be written in smodels (empty or with a line break)"
            )));
            return;
        }
        if !self.check_lits(condition.iter().copied()) {
            return;
        }
        let atom = match condition {
            [a] if *a > 0 => *a as Atom,
            _ => match self.fresh() {
                Some(x) => {
                    self.write_normal(HeadKind::Disjunctive, &[x], condition);
                    x
                }
                None => return,
            },
        };
        self.symbols.push((atom, name.to_string()));
    }

    pub(crate) fn write_assume(&mut self, lits: &[Lit]) {
        if self.check_lits(lits.iter().copied()) {
            for &l in lits {
                if l > 0 {
                    self.b_plus.push(l as Atom);
                } else {
                    self.b_minus.push(l.unsigned_abs());
                }
            }
        }
    }
}

impl<W: Write> ProgramBuilder for SmodelsWriter<W> {
    fn rule(&mut self, rule: Rule) {
        self.write_rule(&rule);
    }
    fn minimize(&mut self, minimize: Minimize) {
        if self.check_lits(minimize.lits.iter().map(|w| w.lit)) {
            self.minimize.push(minimize);
        }
    }
    fn output(&mut self, output: Output) {
        self.write_output(&output.name, &output.condition);
    }
    fn external(&mut self, e: External) {
        if !self.check_atom(e.atom) {
            return;
        }
        let (kind, value) = match e.value {
            ExternalValue::False => (91, Some(0)),
            ExternalValue::True => (91, Some(1)),
            ExternalValue::Free => (91, Some(2)),
            ExternalValue::Release => (92, None),
        };
        push_int(&mut self.sink.line, kind);
        self.sink.line.push(b' ');
        push_int(&mut self.sink.line, e.atom as i64);
        if let Some(v) = value {
            self.sink.line.push(b' ');
            push_int(&mut self.sink.line, v);
        }
        self.sink.emit();
    }
    fn project(&mut self, _atoms: Vec<Atom>) {
        self.sink.fail(invalid(
            "projection (#project) cannot be written in smodels format".into(),
        ));
    }
    fn assume(&mut self, lits: Vec<Lit>) {
        self.write_assume(&lits);
    }
    fn heuristic(&mut self, _h: Heuristic) {
        self.sink.fail(invalid(
            "#heuristic directives cannot be written in smodels format".into(),
        ));
    }
    fn edge(&mut self, _e: Edge) {
        self.sink.fail(invalid(
            "#edge directives cannot be written in smodels format".into(),
        ));
    }
    fn theory(&mut self) {
        self.sink.fail(invalid(
            "theory statements cannot be written in smodels format".into(),
        ));
    }
}

/// Write `program` in smodels format (see the module doc for the translations). Fails with
/// InvalidInput before writing anything if the program has statements smodels cannot express.
pub fn write_smodels(program: &Program, out: &mut dyn Write) -> io::Result<()> {
    let unsupported = [
        (program.theory_statements > 0, "theory statements"),
        (!program.heuristics.is_empty(), "#heuristic directives"),
        (!program.edges.is_empty(), "#edge directives"),
        (program.projection.is_some(), "projection (#project)"),
    ];
    if let Some((_, what)) = unsupported.iter().find(|(has, _)| *has) {
        return Err(invalid(format!(
            "{what} cannot be written in smodels format"
        )));
    }
    let mut w = SmodelsWriter::new(BufWriter::with_capacity(1 << 16, out), program.max_atom);
    program.rules.iter().for_each(|r| w.write_rule(r));
    program.minimize.iter().for_each(|m| w.minimize(m.clone()));
    program
        .outputs
        .iter()
        .for_each(|o| w.write_output(&o.name, &o.condition));
    program.externals.iter().for_each(|&e| w.external(e));
    w.write_assume(&program.assumptions);
    w.finish()
}
