//! Helpers shared by the lparse tests: a compact text rendering of a `Program` (for snapshots)
//! and answer-set comparison through clingo (skipped, with a note, when clingo is missing).
#![allow(dead_code)]

use lparse::{Body, HeadKind, Program, WLit};
use std::io::Write;
use std::process::{Command, Stdio};

fn lit(l: i32) -> String {
    if l < 0 {
        format!("not a{}", -l)
    } else {
        format!("a{l}")
    }
}

fn lits(ls: &[i32]) -> String {
    ls.iter().map(|&l| lit(l)).collect::<Vec<_>>().join(", ")
}

fn wlits(ws: &[WLit]) -> String {
    ws.iter()
        .map(|w| format!("{}={}", lit(w.lit), w.weight))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One line per statement, in ASP-like syntax with atoms written `aN`.
pub fn render(p: &Program) -> String {
    let mut s = String::new();
    for r in &p.rules {
        let atoms = r
            .head
            .atoms
            .iter()
            .map(|a| format!("a{a}"))
            .collect::<Vec<_>>();
        let head = match r.head.kind {
            HeadKind::Disjunctive => atoms.join("; "),
            HeadKind::Choice => format!("{{{}}}", atoms.join("; ")),
        };
        let body = match &r.body {
            Body::Normal(ls) => lits(ls),
            Body::Sum { lower, lits } => format!("{lower} <= #sum{{{}}}", wlits(lits)),
        };
        s += &format!("rule {head} :- {body}.\n");
    }
    for m in &p.minimize {
        s += &format!("minimize @{}: {}\n", m.priority, wlits(&m.lits));
    }
    for o in &p.outputs {
        s += &format!("output {:?} : {}\n", o.name, lits(&o.condition));
    }
    for e in &p.externals {
        s += &format!("external a{} {:?}\n", e.atom, e.value);
    }
    if let Some(atoms) = &p.projection {
        s += &format!("project {:?}\n", atoms);
    }
    if !p.assumptions.is_empty() {
        s += &format!("assume {}\n", lits(&p.assumptions));
    }
    for h in &p.heuristics {
        s += &format!(
            "heuristic {:?} a{} bias {} priority {} : {}\n",
            h.modifier,
            h.atom,
            h.bias,
            h.priority,
            lits(&h.condition)
        );
    }
    for e in &p.edges {
        s += &format!("edge {} -> {} : {}\n", e.u, e.v, lits(&e.condition));
    }
    s += &format!(
        "theory statements {}\nmax_atom {}\n",
        p.theory_statements, p.max_atom
    );
    s
}

pub fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

/// The answer sets (shown atoms, each sorted; the list sorted) of an aspif or smodels program,
/// all optimal ones if `optimize`, else all of them (minimize statements ignored); None when clingo is not installed.
pub fn answer_sets(program: &[u8], optimize: bool) -> Option<Vec<Vec<String>>> {
    if !have("clingo") {
        eprintln!("note: clingo not found, answer-set comparison skipped");
        return None;
    }
    let mut cmd = Command::new("clingo");
    cmd.args(["--mode=clasp", "-n", "0"]);
    if optimize {
        cmd.args(["--opt-mode=optN", "--quiet=1"]);
    } else {
        cmd.arg("--opt-mode=ignore");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn clingo");
    child.stdin.take().unwrap().write_all(program).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        matches!(out.status.code(), Some(10 | 20 | 30)),
        "clingo failed ({:?}): {}\n{}",
        out.status,
        text,
        String::from_utf8_lossy(&out.stderr)
    );
    let mut models = Vec::new();
    let mut lines = text.lines();
    while let Some(l) = lines.next() {
        if l.starts_with("Answer:") {
            let mut m: Vec<String> = lines
                .next()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect();
            m.sort();
            models.push(m);
        }
    }
    models.sort();
    Some(models)
}

/// Ground `lp` text with gringo in the given output mode (`None` = aspif).
pub fn gringo(lp: &str, output: Option<&str>) -> Option<Vec<u8>> {
    if !have("gringo") {
        eprintln!("note: gringo not found, grounding skipped");
        return None;
    }
    let mut cmd = Command::new("gringo");
    if let Some(o) = output {
        cmd.arg(format!("--output={o}"));
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gringo");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lp.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "gringo failed on {lp}");
    Some(out.stdout)
}

pub fn to_aspif(p: &Program) -> Vec<u8> {
    let mut out = Vec::new();
    lparse::write_aspif(p, &mut out).expect("write aspif");
    out
}

pub fn to_smodels(p: &Program) -> Vec<u8> {
    let mut out = Vec::new();
    lparse::write_smodels(p, &mut out).expect("write smodels");
    out
}
pub mod corpus;
