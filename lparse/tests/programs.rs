//! Snapshots of what the readers make of the corpus, and read → write → read round trips
//! through both writers.

mod common;

use common::corpus::CASES;
use common::{answer_sets, render, to_aspif, to_smodels};
use lparse::{read, read_with, AspifWriter, Format, Program, SmodelsWriter};

fn inputs() -> impl Iterator<Item = (String, Format, &'static str)> {
    CASES.iter().flat_map(|c| {
        let a = c
            .aspif
            .map(|t| (format!("{}_aspif", c.name), Format::Aspif, t));
        let s = c
            .smodels
            .map(|t| (format!("{}_smodels", c.name), Format::Smodels, t));
        a.into_iter().chain(s)
    })
}

fn read_ok(name: &str, text: &str) -> Program {
    read(text.as_bytes(), name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn snapshots() {
    for (name, format, text) in inputs() {
        assert_eq!(lparse::detect(text.as_bytes()), format, "{name}");
        let p = read_ok(&name, text);
        insta::assert_snapshot!(name.clone(), render(&p));
    }
}

/// Programs smodels can hold (no theory, heuristic, edge or projection).
fn smodels_expressible(p: &Program) -> bool {
    p.theory_statements == 0
        && p.heuristics.is_empty()
        && p.edges.is_empty()
        && p.projection.is_none()
}

#[test]
fn aspif_round_trip_is_exact() {
    for (name, _, text) in inputs() {
        let p = read_ok(&name, text);
        if p.theory_statements > 0 {
            let err = lparse::write_aspif(&p, &mut Vec::new()).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{name}");
            continue;
        }
        let written = to_aspif(&p);
        let q = read(&written, "written").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            p,
            q,
            "{name}: aspif round trip\n{}",
            String::from_utf8_lossy(&written)
        );

        // The streaming path (reader → AspifWriter as a ProgramBuilder) writes the same program.
        let mut streamed = Vec::new();
        let mut w = AspifWriter::new(&mut streamed);
        read_with(text.as_bytes(), &name, &mut w).unwrap();
        w.finish().unwrap();
        assert_eq!(
            read(&streamed, "streamed").unwrap(),
            p,
            "{name}: streamed aspif"
        );
    }
}

#[test]
fn smodels_round_trip_of_smodels_input_is_exact() {
    for c in CASES {
        let Some(text) = c.smodels else { continue };
        let p = read_ok(c.name, text);
        let written = to_smodels(&p);
        let q = read(&written, "written").unwrap_or_else(|e| panic!("{}: {e}", c.name));
        assert_eq!(p, q, "{}\n{}", c.name, String::from_utf8_lossy(&written));
    }
}

/// The smodels writer's translations (aux atoms, negative weights, constraints, outputs with
/// conditions) keep the answer sets: compare clingo's answer sets on the shown atoms.
#[test]
fn smodels_round_trip_keeps_answer_sets() {
    for (name, _, text) in inputs() {
        let p = read_ok(&name, text);
        if !smodels_expressible(&p) {
            let err = lparse::write_smodels(&p, &mut Vec::new()).unwrap_err();
            assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput, "{name}");
            continue;
        }
        let written = to_smodels(&p);
        let q = read(&written, "written").unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(q.max_atom >= p.max_atom);

        // Streaming path: SmodelsWriter as the reader's builder must write the same text.
        let mut streamed = Vec::new();
        let mut w = SmodelsWriter::new(&mut streamed, p.max_atom);
        read_with(text.as_bytes(), &name, &mut w).unwrap();
        w.finish().unwrap();
        // Same statements; only the place of auxiliary rules in the rule order may differ.
        let mut r = read(&streamed, "streamed").unwrap();
        let sorted = |p: &mut Program| p.rules.sort_by_key(|r| format!("{r:?}"));
        let mut q_sorted = q.clone();
        sorted(&mut r);
        sorted(&mut q_sorted);
        assert_eq!(r, q_sorted, "{name}: streamed smodels");

        let optimize = !p.minimize.is_empty();
        let (Some(before), Some(after)) = (
            answer_sets(&to_aspif(&p), optimize),
            answer_sets(&to_aspif(&q), optimize),
        ) else {
            return;
        };
        assert!(
            !before.is_empty() || name.starts_with("misc"),
            "{name}: no answer set at all"
        );
        assert_eq!(
            before,
            after,
            "{name}: answer sets differ\n{}",
            String::from_utf8_lossy(&written)
        );
    }
}
