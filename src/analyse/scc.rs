//! Strongly connected components of a graph in CSR form (Tarjan's algorithm, iterative).
//!
//! Invariant: `comp[u] == comp[v]` exactly when u and v reach each other; component ids are
//! `0..count`, numbered in the order Tarjan closes them (a component is closed only after every
//! component it reaches). No recursion: ground programs have hundreds of thousands of atoms and
//! dependency chains as long, which would overflow a thread's stack.

use crate::csr::Csr;

/// Components of the graph `g` on nodes `0..g.offsets.len()-1` (the successors of `u` are row
/// `u`), and for each component whether it holds a cycle (more than one node, or a node with an
/// edge to itself).
pub fn tarjan(g: &Csr<u32>) -> (Vec<u32>, Vec<bool>) {
    const UNSEEN: u32 = u32::MAX;
    let n = g.offsets.len().saturating_sub(1);
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![UNSEEN; n];
    let mut cyclic = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    // Call stack of the depth-first search: (node, position in its successor list).
    let mut calls: Vec<(u32, u32)> = Vec::new();
    let mut next_index = 0u32;

    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root as u32, 0));
        index[root] = next_index;
        low[root] = next_index;
        next_index += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (u, ref mut pos)) = calls.last_mut() {
            let u = u as usize;
            let succ = g.row(u);
            if let Some(&v) = succ.get(*pos as usize) {
                *pos += 1;
                let v = v as usize;
                if index[v] == UNSEEN {
                    index[v] = next_index;
                    low[v] = next_index;
                    next_index += 1;
                    stack.push(v as u32);
                    on_stack[v] = true;
                    calls.push((v as u32, 0));
                } else if on_stack[v] {
                    low[u] = low[u].min(index[v]);
                }
                continue;
            }
            // All successors done: close u's component if u is its root, then return.
            calls.pop();
            if low[u] == index[u] {
                let id = cyclic.len() as u32;
                let mut size = 0usize;
                loop {
                    let w = stack.pop().expect("u is on the stack") as usize;
                    on_stack[w] = false;
                    comp[w] = id;
                    size += 1;
                    if w == u {
                        break;
                    }
                }
                cyclic.push(size > 1 || succ.contains(&(u as u32)));
            }
            if let Some(&(parent, _)) = calls.last() {
                let p = parent as usize;
                low[p] = low[p].min(low[u]);
            }
        }
    }
    (comp, cyclic)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csr(n: usize, edges: &[(u32, u32)]) -> Csr<u32> {
        Csr::from_pairs(n, edges.iter().map(|&(u, v)| (u as usize, v)))
    }

    #[test]
    fn two_cycles_a_self_loop_and_a_chain() {
        // 0→1→2→0, 2→3, 3→4→3, 5→5, 6→0
        let g = csr(
            7,
            &[
                (0, 1),
                (1, 2),
                (2, 0),
                (2, 3),
                (3, 4),
                (4, 3),
                (5, 5),
                (6, 0),
            ],
        );
        let (comp, cyclic) = tarjan(&g);
        assert_eq!(comp[0], comp[1]);
        assert_eq!(comp[1], comp[2]);
        assert_eq!(comp[3], comp[4]);
        assert_ne!(comp[0], comp[3]);
        assert_ne!(comp[6], comp[0]);
        assert!(cyclic[comp[0] as usize] && cyclic[comp[3] as usize] && cyclic[comp[5] as usize]);
        assert!(!cyclic[comp[6] as usize]);
        // {3,4} is reached from {0,1,2}, so it closes first.
        assert!(comp[3] < comp[0]);
    }

    #[test]
    fn long_chain_does_not_overflow() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n - 1).map(|i| (i, i + 1)).chain([(n - 1, 0)]).collect();
        let g = csr(n as usize, &edges);
        let (comp, cyclic) = tarjan(&g);
        assert!(comp.iter().all(|&c| c == 0));
        assert_eq!(cyclic, vec![true]);
    }
}
