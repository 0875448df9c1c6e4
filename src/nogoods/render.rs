//! A readable text form of a completion, for snapshots and `--debug` dumps: a legend mapping
//! each variable to its atom, body or aggregate, then one nogood per line with its origin,
//! in store order (by length).
//!
//! Invariant: the text is a pure function of the program, the completion and the names given;
//! it reflects the store exactly (no nogood left out or reordered).

use super::{Completion, Origin};
use crate::analyse::{BodyDef, GroundProgram};
use crate::lit::Lit;
use std::fmt::Write;

/// Render `c`; `name(a)` gives the symbol of atom `a` when it has one.
pub fn render(g: &GroundProgram, c: &Completion, name: &dyn Fn(u32) -> Option<String>) -> String {
    let atom = |a: u32| name(a).unwrap_or_else(|| format!("#{a}"));
    let lit = |l: i32| {
        if l > 0 {
            atom(l as u32)
        } else {
            format!("not {}", atom(l.unsigned_abs()))
        }
    };
    let mut s = String::new();
    for a in 1..=g.num_atoms {
        let _ = writeln!(s, "{a} = {}", atom(a));
    }
    for (i, body) in g.bodies.iter().enumerate() {
        let text = match body {
            BodyDef::Conj { pos, neg } => {
                let lits: Vec<String> = pos
                    .iter()
                    .map(|&p| lit(p as i32))
                    .chain(neg.iter().map(|&q| lit(-(q as i32))))
                    .collect();
                format!("{{{}}}", lits.join(", "))
            }
            BodyDef::Sum { lower, lits } => {
                let terms: Vec<String> = lits
                    .iter()
                    .map(|&(l, w)| format!("{w}*{}", lit(l)))
                    .collect();
                format!("{lower} <= {}", terms.join(" + "))
            }
        };
        let _ = writeln!(s, "{} = body {text}", c.body_var[i]);
    }
    for (k, &b) in c.aux_body.iter().enumerate() {
        let _ = writeln!(
            s,
            "{} = aggregate node of body {}",
            c.first_aux + k as u32,
            c.body_var[b as usize]
        );
    }
    let _ = writeln!(s, "--");
    for i in 0..c.db.len() {
        let lits: Vec<String> = c.db.nogood(i).iter().map(|&l| Lit(l).to_string()).collect();
        let _ = writeln!(s, "{}: {}", origin_name(c.db.origins[i]), lits.join(" "));
    }
    if c.db.has_empty {
        let _ = writeln!(s, "(empty nogood: no answer set)");
    }
    s
}

fn origin_name(o: Origin) -> &'static str {
    match o {
        Origin::Body => "Body",
        Origin::Support => "Support",
        Origin::Head => "Head",
        Origin::Constraint => "Constraint",
        Origin::Aggregate => "Aggregate",
        Origin::Fact => "Fact",
    }
}
