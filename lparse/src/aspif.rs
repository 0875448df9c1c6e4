//! The aspif reader (gringo 5's default output, `asp 1 0 0`).
//!
//! Invariant: each statement is read whole from its own line and handed to the builder only
//! after its last token and its line end were accepted; the first statement that does not fit
//! the format stops the read with an error at the offending token. A single incremental step is
//! accepted (clingo 5.8 tags its one-shot output `incremental`); a second step is an error.

use crate::lexer::Lexer;
use crate::{
    Body, Edge, External, ExternalValue, Head, HeadKind, Heuristic, HeuristicModifier, Minimize,
    Output, ParseError, ProgramBuilder, Rule, WLit,
};

/// Read a whole aspif program from `lx` (positioned at the header) into `b`.
pub(crate) fn read(lx: &mut Lexer, b: &mut dyn ProgramBuilder) -> Result<(), ParseError> {
    let incremental = header(lx)?;
    loop {
        let kind = lx.int_in(0, 10, "a statement type (0 to 10)")?;
        match kind {
            0 => {
                lx.end_line()?;
                break;
            }
            1 => b.rule(rule(lx)?),
            2 => {
                let priority = lx.weight("a minimize priority")? as i32;
                let lits = wlits(lx, false)?;
                b.minimize(Minimize { priority, lits });
            }
            3 => {
                let atoms = atoms(lx)?;
                lx.end_line()?;
                b.project(atoms);
            }
            4 => {
                let len = lx.count("the length of the output name")?;
                lx.single_space("the output name")?;
                let start = lx.pos();
                let raw = lx.bytes(len, "an output name")?;
                let name = std::str::from_utf8(raw)
                    .map_err(|_| lx.error_at(start, "the output name is not valid UTF-8"))?
                    .to_string();
                let condition = lits(lx)?;
                lx.end_line()?;
                b.output(Output { name, condition });
            }
            5 => {
                let atom = lx.atom()?;
                let value = match lx.int_in(
                    0,
                    3,
                    "an external value (0 free, 1 true, 2 false, 3 release)",
                )? {
                    0 => ExternalValue::Free,
                    1 => ExternalValue::True,
                    2 => ExternalValue::False,
                    _ => ExternalValue::Release,
                };
                lx.end_line()?;
                b.external(External { atom, value });
            }
            6 => {
                let lits = lits(lx)?;
                lx.end_line()?;
                b.assume(lits);
            }
            7 => {
                let modifier = match lx.int_in(
                    0,
                    5,
                    "a heuristic modifier (0 level, 1 sign, 2 factor, 3 init, 4 true, 5 false)",
                )? {
                    0 => HeuristicModifier::Level,
                    1 => HeuristicModifier::Sign,
                    2 => HeuristicModifier::Factor,
                    3 => HeuristicModifier::Init,
                    4 => HeuristicModifier::True,
                    _ => HeuristicModifier::False,
                };
                let atom = lx.atom()?;
                let bias = lx.weight("a heuristic bias")? as i32;
                let priority =
                    lx.int_in(0, u32::MAX as i64, "a heuristic priority (non-negative)")? as u32;
                let condition = lits(lx)?;
                lx.end_line()?;
                b.heuristic(Heuristic {
                    modifier,
                    atom,
                    bias,
                    priority,
                    condition,
                });
            }
            8 => {
                let u = lx.weight("an edge's start node")? as i32;
                let v = lx.weight("an edge's end node")? as i32;
                let condition = lits(lx)?;
                lx.end_line()?;
                b.edge(Edge { u, v, condition });
            }
            9 => {
                theory(lx)?;
                b.theory();
            }
            _ => {
                // 10: a comment, the rest of the line is free text.
                lx.rest_of_line();
                lx.end_line()?;
            }
        }
    }
    if !lx.only_whitespace_left() {
        return Err(if incremental {
            lx.error("several incremental steps are not supported (only one step is read)")
        } else {
            lx.error("unexpected content after the end statement `0`")
        });
    }
    Ok(())
}

/// `asp 1 0 0 [incremental]`; returns whether the incremental tag was given.
fn header(lx: &mut Lexer) -> Result<bool, ParseError> {
    lx.word(b"asp", "the aspif header `asp 1 0 0`")?;
    lx.int_in(1, 1, "aspif major version 1")?;
    lx.int_in(0, 0, "aspif minor version 0")?;
    lx.int_in(0, 0, "aspif revision 0")?;
    let mut incremental = false;
    loop {
        let tag = lx.peek_token();
        if tag.is_empty() {
            break;
        }
        if tag == b"incremental" {
            incremental = true;
            lx.advance(tag.len());
        } else {
            return Err(lx.error(format!(
                "unknown aspif header tag `{}` (only `incremental` is supported)",
                String::from_utf8_lossy(tag).escape_debug()
            )));
        }
    }
    lx.end_line()?;
    Ok(incremental)
}

/// Capacity to reserve for `n` items: never more than the input could still hold.
fn cap(lx: &Lexer, n: usize) -> usize {
    n.min(lx.remaining() / 2 + 1)
}

fn atoms(lx: &mut Lexer) -> Result<Vec<u32>, ParseError> {
    let n = lx.count("the number of atoms")?;
    let mut v = Vec::with_capacity(cap(lx, n));
    for _ in 0..n {
        v.push(lx.atom()?);
    }
    Ok(v)
}

fn lits(lx: &mut Lexer) -> Result<Vec<i32>, ParseError> {
    let n = lx.count("the number of literals")?;
    let mut v = Vec::with_capacity(cap(lx, n));
    for _ in 0..n {
        v.push(lx.lit()?);
    }
    Ok(v)
}

/// `n l1 w1 … ln wn`, then the line end. Sum bodies need non-negative weights; minimize
/// statements may have any.
fn wlits(lx: &mut Lexer, non_negative: bool) -> Result<Vec<WLit>, ParseError> {
    let n = lx.count("the number of weighted literals")?;
    let mut v = Vec::with_capacity(cap(lx, n));
    for _ in 0..n {
        let lit = lx.lit()?;
        let weight = if non_negative {
            lx.int_in(0, i32::MAX as i64, "a non-negative weight")?
        } else {
            lx.weight("a weight")?
        };
        v.push(WLit { lit, weight });
    }
    lx.end_line()?;
    Ok(v)
}

/// `1 H n a1…an B …`: head type 0 disjunction / 1 choice, body type 0 normal / 1 sum.
fn rule(lx: &mut Lexer) -> Result<Rule, ParseError> {
    let kind = match lx.int_in(0, 1, "a head type (0 disjunction, 1 choice)")? {
        0 => HeadKind::Disjunctive,
        _ => HeadKind::Choice,
    };
    let head = Head {
        kind,
        atoms: atoms(lx)?,
    };
    let body = match lx.int_in(0, 1, "a body type (0 normal, 1 weight)")? {
        0 => {
            let lits = lits(lx)?;
            lx.end_line()?;
            Body::Normal(lits)
        }
        _ => {
            let lower = lx.weight("a lower bound")?;
            Body::Sum {
                lower,
                lits: wlits(lx, true)?,
            }
        }
    };
    Ok(Rule { head, body })
}

/// `9 t …`: theory terms and atoms. Their contents are not kept (the solver rejects theory
/// programs), but every form is read so that the rest of the file is parsed correctly.
fn theory(lx: &mut Lexer) -> Result<(), ParseError> {
    lx.peek_token();
    let at = lx.pos();
    let t = lx.int_in(0, 6, "a theory statement type (0, 1, 2, 4, 5 or 6)")?;
    match t {
        0 => {
            lx.count("a theory term id")?;
            lx.weight("a number")?;
        }
        1 => {
            lx.count("a theory term id")?;
            let len = lx.count("the length of the theory symbol")?;
            lx.single_space("the theory symbol")?;
            lx.bytes(len, "a theory symbol")?;
        }
        2 => {
            lx.count("a theory term id")?;
            lx.int_in(
                -3,
                i32::MAX as i64,
                "a compound term type (-3..-1 or a term id)",
            )?;
            ids(lx)?;
        }
        4 => {
            lx.count("a theory element id")?;
            ids(lx)?;
            lits(lx)?;
        }
        5 | 6 => {
            lx.count("an atom or 0")?;
            lx.count("a theory term id")?;
            ids(lx)?;
            if t == 6 {
                lx.count("a theory operator id")?;
                lx.count("a theory term id")?;
            }
        }
        _ => {
            return Err(lx.error_at(
                at,
                "expected a theory statement type (0, 1, 2, 4, 5 or 6), found `3`",
            ))
        }
    }
    lx.end_line()
}

fn ids(lx: &mut Lexer) -> Result<(), ParseError> {
    let n = lx.count("the number of ids")?;
    for _ in 0..n {
        lx.count("an id")?;
    }
    Ok(())
}
