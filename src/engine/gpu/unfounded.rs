//! The unfounded-set check on a total assignment, run on the host (non-tight programs only):
//! the true atoms that the least model of the program's reduct does not derive, and a loop
//! nogood that excludes them.
//!
//! Invariant: [`loop_nogood`] returns `None` exactly when the true atoms of `a` are derived by
//! the rules whose bodies hold (so a nogood-consistent total assignment is an answer set), and
//! otherwise a nogood that every answer set satisfies and that `a` violates: `{T p}` for one
//! unfounded atom `p`, plus, for every rule that could support the unfounded set `U` from
//! outside, why it does not (its body variable false, or for a sum body true only through `U`,
//! its non-`U` literals that are false).

use crate::ground::{BodyDef, GroundProgram};
use crate::lit::Lit;

/// `a[v]` > 0: true, < 0: false (the device assignment, total).
pub fn loop_nogood(g: &GroundProgram, body_var: &[u32], a: &[i32]) -> Option<Vec<Lit>> {
    let n = g.num_atoms as usize;
    let tv = |x: u32| a[x as usize] > 0;
    // Least fixpoint of the reduct, restricted to true atoms: counters per body.
    let mut derived = vec![false; n + 1];
    let mut missing = vec![0i64; g.bodies.len()]; // conj: pos atoms not derived yet
    let mut sum = vec![0i64; g.bodies.len()]; // sum: weight reached
    let mut fired = vec![false; g.bodies.len()];
    let mut pos_occ: Vec<Vec<(u32, i64)>> = vec![Vec::new(); n + 1];
    let mut queue_bodies = Vec::new();
    for (i, b) in g.bodies.iter().enumerate() {
        match b {
            BodyDef::Conj { pos, neg } => {
                if neg.iter().any(|&q| tv(q)) {
                    fired[i] = true; // dead: never fires (marked so it is never queued)
                    missing[i] = i64::MAX;
                    continue;
                }
                missing[i] = pos.len() as i64;
                for &p in pos {
                    pos_occ[p as usize].push((i as u32, 1));
                }
                if pos.is_empty() {
                    queue_bodies.push(i);
                }
            }
            BodyDef::Sum { lower, lits } => {
                for &(l, w) in lits {
                    if l > 0 {
                        pos_occ[l as usize].push((i as u32, w));
                    } else if !tv((-l) as u32) {
                        sum[i] += w;
                    }
                }
                if sum[i] >= *lower {
                    queue_bodies.push(i);
                }
            }
        }
    }
    // Rules per body, built once here (the completion has the same CSR, but this module only
    // needs the program).
    let mut rules_of_body: Vec<Vec<u32>> = vec![Vec::new(); g.bodies.len()];
    for (r, rule) in g.rules.iter().enumerate() {
        rules_of_body[rule.body as usize].push(r as u32);
    }
    let mut queue_atoms: Vec<u32> = Vec::new();
    loop {
        while let Some(i) = queue_bodies.pop() {
            if std::mem::replace(&mut fired[i], true) && !matches!(g.bodies[i], BodyDef::Sum { .. })
            {
                continue;
            }
            for &r in &rules_of_body[i] {
                for &h in &g.rules[r as usize].head {
                    if tv(h) && !derived[h as usize] {
                        derived[h as usize] = true;
                        queue_atoms.push(h);
                    }
                }
            }
        }
        let Some(p) = queue_atoms.pop() else { break };
        for &(i, w) in &pos_occ[p as usize] {
            let i = i as usize;
            match &g.bodies[i] {
                BodyDef::Conj { .. } => {
                    if missing[i] != i64::MAX {
                        missing[i] -= 1;
                        if missing[i] == 0 {
                            queue_bodies.push(i);
                        }
                    }
                }
                BodyDef::Sum { lower, .. } => {
                    let before = sum[i];
                    sum[i] += w;
                    if before < *lower && sum[i] >= *lower {
                        queue_bodies.push(i);
                    }
                }
            }
        }
    }
    let unfounded: Vec<u32> = (1..=g.num_atoms)
        .filter(|&p| tv(p) && !derived[p as usize])
        .collect();
    let &p0 = unfounded.first()?;
    let mut in_u = vec![false; n + 1];
    for &u in &unfounded {
        in_u[u as usize] = true;
    }
    let mut ng = vec![Lit::t(p0)];
    let mut seen_body = vec![false; g.bodies.len()];
    for &u in &unfounded {
        for &r in g.rules_of(u) {
            let i = g.rules[r as usize].body as usize;
            if std::mem::replace(&mut seen_body[i], true) {
                continue;
            }
            let bv = body_var[i];
            match &g.bodies[i] {
                BodyDef::Conj { pos, .. } => {
                    if pos.iter().any(|&x| in_u[x as usize]) {
                        continue; // needs U itself: no external support
                    }
                    ng.push(Lit::f(bv));
                }
                BodyDef::Sum { lower, lits } => {
                    let outside: i64 = lits
                        .iter()
                        .filter(|(l, _)| !(*l > 0 && in_u[*l as usize]))
                        .map(|(_, w)| w)
                        .sum();
                    if outside < *lower {
                        continue;
                    }
                    if a[bv as usize] < 0 {
                        ng.push(Lit::f(bv));
                    } else {
                        for &(l, _) in lits {
                            if l > 0 && !in_u[l as usize] && !tv(l as u32) {
                                ng.push(Lit::f(l as u32));
                            } else if l < 0 && tv((-l) as u32) {
                                ng.push(Lit::t((-l) as u32));
                            }
                        }
                    }
                }
            }
        }
    }
    ng.sort_unstable();
    ng.dedup();
    Some(ng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::RuleDef;

    /// `p :- q. q :- p.` with p, q true (a supported, unfounded assignment).
    fn two_loop() -> (GroundProgram, Vec<u32>) {
        let g = GroundProgram {
            num_atoms: 2,
            bodies: vec![
                BodyDef::Conj {
                    pos: vec![2],
                    neg: vec![],
                },
                BodyDef::Conj {
                    pos: vec![1],
                    neg: vec![],
                },
            ],
            rules: vec![
                RuleDef {
                    head: vec![1],
                    choice: false,
                    body: 0,
                },
                RuleDef {
                    head: vec![2],
                    choice: false,
                    body: 1,
                },
            ],
            head_offsets: vec![0, 0, 1, 2],
            head_rules: vec![0, 1],
            ..Default::default()
        };
        (g, vec![3, 4])
    }

    #[test]
    fn positive_loop_is_unfounded() {
        let (g, bv) = two_loop();
        let a = vec![0, 1, 1, 1, 1];
        let ng = loop_nogood(&g, &bv, &a).expect("p, q are unfounded");
        // No external body: the loop nogood is just {T p}.
        assert_eq!(ng, vec![Lit::t(1)]);
    }

    #[test]
    fn all_false_is_founded() {
        let (g, bv) = two_loop();
        let a = vec![0, -1, -1, -1, -1];
        assert!(loop_nogood(&g, &bv, &a).is_none());
    }
}
