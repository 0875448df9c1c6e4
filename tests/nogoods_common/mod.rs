//! A tiny ground-program notation for tests, so snapshots read like programs:
//!
//! ```text
//! a :- b, not c.          {a; b} :- c.        :- a, b.        a.
//! h :- 2 {1:a; 2:not b; -1:c}.               #external e=true.
//! ```
//!
//! Atoms are numbered in order of first appearance; `names[a]` is atom `a`'s name.

#![allow(dead_code)]

use lparse::{Body, External, ExternalValue, Head, HeadKind, Program, ProgramBuilder, Rule, WLit};

pub struct Mini {
    pub program: Program,
    pub names: Vec<String>,
}

impl Mini {
    pub fn name(&self, a: u32) -> Option<String> {
        self.names.get(a as usize).cloned()
    }
}

pub fn parse(text: &str) -> Mini {
    let mut m = Mini {
        program: Program::default(),
        names: vec![String::new()],
    };
    for stmt in text.split('.').map(str::trim).filter(|s| !s.is_empty()) {
        if let Some(rest) = stmt.strip_prefix("#external") {
            let (atom, value) = match rest.trim().split_once('=') {
                Some((a, v)) => (a.trim(), v.trim()),
                None => (rest.trim(), "free"),
            };
            let value = match value {
                "free" => ExternalValue::Free,
                "true" => ExternalValue::True,
                "false" => ExternalValue::False,
                "release" => ExternalValue::Release,
                v => panic!("bad external value {v}"),
            };
            let atom = m.atom(atom);
            m.program.external(External { atom, value });
            continue;
        }
        let (head, body) = match stmt.split_once(":-") {
            Some((h, b)) => (h.trim(), b.trim()),
            None => (stmt, ""),
        };
        let head = if let Some(inner) = head.strip_prefix('{') {
            let inner = inner.strip_suffix('}').expect("choice head ends with }");
            Head {
                kind: HeadKind::Choice,
                atoms: m.list(inner, ';').iter().map(|a| m.atom(a)).collect(),
            }
        } else {
            Head {
                kind: HeadKind::Disjunctive,
                atoms: m.list(head, ';').iter().map(|a| m.atom(a)).collect(),
            }
        };
        let body = if let Some(open) = body.find('{') {
            let lower: i64 = body[..open].trim().parse().expect("sum bound");
            let inner = body[open + 1..]
                .trim()
                .strip_suffix('}')
                .expect("sum ends with }");
            let lits = m
                .list(inner, ';')
                .iter()
                .map(|e| {
                    let (w, l) = e.split_once(':').expect("weight:literal");
                    WLit {
                        weight: w.trim().parse().expect("weight"),
                        lit: m.lit(l),
                    }
                })
                .collect();
            Body::Sum { lower, lits }
        } else {
            Body::Normal(m.list(body, ',').iter().map(|l| m.lit(l)).collect())
        };
        m.program.rule(Rule { head, body });
    }
    m
}

impl Mini {
    fn list(&self, s: &str, sep: char) -> Vec<String> {
        s.split(sep)
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect()
    }
    fn atom(&mut self, name: &str) -> u32 {
        if let Some(i) = self.names.iter().position(|n| n == name) {
            return i as u32;
        }
        self.names.push(name.to_string());
        let a = self.names.len() as u32 - 1;
        self.program.note_atom(a);
        a
    }
    fn lit(&mut self, s: &str) -> i32 {
        match s.trim().strip_prefix("not ") {
            Some(a) => -(self.atom(a.trim()) as i32),
            None => self.atom(s.trim()) as i32,
        }
    }
}
