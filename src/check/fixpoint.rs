//! The least model of the reduct, and the head-cycle test that says whether disjunctive rules
//! may be read shifted.
//!
//! Invariant: `check_founded` derives an atom only through a rule of the reduct whose positive
//! body is already derived, so what it derives is exactly the least model of the reduct (for
//! normal, choice and shifted head-cycle-free disjunctive programs); it then requires that least
//! model to equal the candidate. For other disjunctive programs it derives only atoms of the
//! candidate (so it checks support), and minimality is `minimal.rs`'s search.

use super::{holds, Checker, Ext, Violation, EXTERNAL};
use lparse::{Body, HeadKind};

/// Require the candidate `m` (already known to be a model) to equal the least model of the
/// reduct `P^m`; `support`, when given, receives the rule that derived each atom (`EXTERNAL`:
/// its declaration).
pub(super) fn check_founded(
    c: &Checker,
    m: &[bool],
    mut support: Option<&mut [u32]>,
) -> Result<(), Violation> {
    let rules = &c.program.rules;
    let n = m.len() - 1;
    let disjunctive = c.disjunctive;

    let mut derived = vec![false; n + 1];
    let mut queue: Vec<u32> = Vec::new();
    // Weight (or count) each rule of the reduct still needs from positive body atoms;
    // `None` = not in the reduct (a negative literal is false in `m`).
    let mut need: Vec<Option<i64>> = Vec::with_capacity(rules.len());

    let fire = |r: usize,
                derived: &mut Vec<bool>,
                queue: &mut Vec<u32>,
                support: &mut Option<&mut [u32]>| {
        let head = &rules[r].head;
        for &h in &head.atoms {
            let ok = match head.kind {
                HeadKind::Choice => m[h as usize],
                // Shifted: `h :- B, not h'` for the other head atoms h'. Without
                // head-cycle-freedom, derive only what the candidate holds (a necessary condition).
                HeadKind::Disjunctive if c.head_cycle_free => {
                    head.atoms.iter().all(|&o| o == h || !m[o as usize])
                }
                HeadKind::Disjunctive => m[h as usize],
            };
            if ok && !derived[h as usize] {
                derived[h as usize] = true;
                queue.push(h);
                if let Some(s) = support.as_deref_mut() {
                    s[h as usize] = r as u32;
                }
            }
        }
    };

    for (r, rule) in rules.iter().enumerate() {
        let slot = match (&rule.body, &c.sums[r]) {
            (_, Some(s)) => {
                let neg: i64 = s
                    .lits
                    .iter()
                    .filter(|(l, _)| *l < 0 && holds(*l, m))
                    .map(|(_, w)| w)
                    .sum();
                Some(s.lower - neg)
            }
            (Body::Normal(lits), None) => {
                if lits.iter().all(|&l| l > 0 || holds(l, m)) {
                    Some(lits.iter().filter(|&&l| l > 0).count() as i64)
                } else {
                    None
                }
            }
            (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
        };
        if slot.is_some_and(|k| k <= 0) {
            fire(r, &mut derived, &mut queue, &mut support);
        }
        need.push(slot);
    }
    for (a, &e) in c.ext.iter().enumerate() {
        if (e == Ext::True || (e == Ext::Free && m[a])) && !derived[a] {
            derived[a] = true;
            queue.push(a as u32);
            if let Some(s) = support.as_deref_mut() {
                s[a] = EXTERNAL;
            }
        }
    }

    while let Some(a) = queue.pop() {
        let a = a as usize;
        for (r, w) in c.occ(a) {
            let r = r as usize;
            if let Some(k) = need[r].as_mut() {
                let before = *k;
                *k -= w;
                if before > 0 && *k <= 0 {
                    fire(r, &mut derived, &mut queue, &mut support);
                }
            }
        }
    }

    for a in 1..=n {
        if m[a] && !derived[a] {
            return Err(Violation::Unfounded(c.atom_name(a as u32)));
        }
        if !m[a] && derived[a] {
            // Unreachable when `m` is a model: report the rule that derives it.
            let index = rules
                .iter()
                .position(|r| r.head.atoms.contains(&(a as u32)))
                .unwrap_or(0);
            return Err(Violation::NotClosed {
                atom: c.atom_name(a as u32),
                index,
                rule: c.describe_rule(index),
            });
        }
    }
    // Without head-cycle-freedom the fixpoint above derived what `m` holds (a necessary
    // condition); minimality is the checker's own search.
    if disjunctive && !c.head_cycle_free {
        if let Some(y) = super::minimal::smaller_model(c, m) {
            let names: Vec<String> = y.iter().map(|&a| c.atom_name(a)).collect();
            return Err(Violation::NotMinimal(format!("{{{}}}", names.join(", "))));
        }
    }
    Ok(())
}

/// No disjunctive head has two atoms in one strongly connected component of the positive
/// dependency graph (head atom → positive body atom). Iterative Tarjan, so deep graphs do not
/// overflow the stack.
pub(super) fn head_cycle_free(c: &Checker) -> bool {
    let rules = &c.program.rules;
    if !rules
        .iter()
        .any(|r| r.head.kind == HeadKind::Disjunctive && r.head.atoms.len() > 1)
    {
        return true;
    }
    let n = c.program.max_atom as usize;
    // Edges atom → positive body atoms, as a CSR built from the rules.
    let pos = |r: usize| -> Vec<u32> {
        match (&rules[r].body, &c.sums[r]) {
            (_, Some(s)) => s
                .lits
                .iter()
                .filter(|(l, _)| *l > 0)
                .map(|(l, _)| *l as u32)
                .collect(),
            (Body::Normal(lits), None) => {
                lits.iter().filter(|&&l| l > 0).map(|&l| l as u32).collect()
            }
            (Body::Sum { .. }, None) => unreachable!("every sum body is normalised"),
        }
    };
    let mut adj: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    for (r, rule) in rules.iter().enumerate() {
        if rule.head.atoms.is_empty() {
            continue;
        }
        let body = pos(r);
        for &h in &rule.head.atoms {
            adj[h as usize].extend_from_slice(&body);
        }
    }
    let scc = tarjan(&adj);
    rules
        .iter()
        .filter(|r| r.head.kind == HeadKind::Disjunctive && r.head.atoms.len() > 1)
        .all(|r| {
            let h = &r.head.atoms;
            h.iter().enumerate().all(|(i, &a)| {
                h[i + 1..]
                    .iter()
                    .all(|&b| a == b || scc[a as usize] != scc[b as usize])
            })
        })
}

/// Strongly connected component id of every node.
fn tarjan(adj: &[Vec<u32>]) -> Vec<u32> {
    const UNSEEN: u32 = u32::MAX;
    let n = adj.len();
    let (mut index, mut low, mut comp) = (vec![UNSEEN; n], vec![0u32; n], vec![UNSEEN; n]);
    let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
    let (mut next, mut ncomp) = (0u32, 0u32);
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        // (node, next edge position)
        let mut call: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut e)) = call.last_mut() {
            if *e < adj[v].len() {
                let w = adj[v][*e] as usize;
                *e += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    loop {
                        let w = stack.pop().expect("v is on the stack");
                        on_stack[w] = false;
                        comp[w] = ncomp;
                        if w == v {
                            break;
                        }
                    }
                    ncomp += 1;
                }
            }
        }
    }
    comp
}
