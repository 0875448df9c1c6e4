//! Disjunctive programs that are not head-cycle-free: what the minimality check of a candidate
//! model needs (`wrap::minimality_check`).
//!
//! A component of the input's positive dependency graph (disjunctive heads included) is
//! *non-HCF* when two atoms of one disjunctive head lie in it. Every disjunctive rule is still
//! shifted for the completion (each answer set is a supported model of the shifted program),
//! but shifted unfounded sets are not the disjunctive ones inside a non-HCF component (for
//! `a;b. a :- b. b :- a.`, `{a,b}` is unfounded for the shifted rules, yet the answer set), so
//! [`super::analyse`] marks those components acyclic for the engines' unfounded-set reasoning
//! and keeps here what a second search needs to decide whether a candidate is minimal there.
//!
//! Invariant: `components` are the non-HCF components (atoms sorted, disjoint); `component_of`
//! maps each of their atoms to its index and every other atom to [`NONE`]; `rules` holds every
//! input rule (normalised body, head unshifted, externals excluded) with a head atom in one of
//! them, and no other.

use super::BodyDef;

/// `component_of` of an atom in no non-HCF component.
pub const NONE: u32 = u32::MAX;

/// One input rule as the minimality check reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MinRule {
    /// Sorted, distinct; a choice rule's atoms are each chosen on their own.
    pub head: Vec<u32>,
    pub choice: bool,
    pub body: BodyDef,
}

/// The non-HCF part of a program (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Minimality {
    pub components: Vec<Vec<u32>>,
    pub component_of: Vec<u32>,
    pub rules: Vec<MinRule>,
}

impl Minimality {
    /// From the components `scc` (atom → id, over `0..=num_atoms`) that `non_hcf` names, and
    /// every rule of the input (disjunctive ones unshifted).
    pub fn new<'a>(
        num_atoms: u32,
        scc: &[u32],
        non_hcf: &[u32],
        rules: impl Iterator<Item = (&'a [u32], bool, &'a BodyDef)>,
    ) -> Minimality {
        let mut index = vec![NONE; scc.iter().max().map_or(0, |&m| m as usize + 1)];
        for (k, &c) in non_hcf.iter().enumerate() {
            index[c as usize] = k as u32;
        }
        let mut component_of = vec![NONE; num_atoms as usize + 1];
        let mut components: Vec<Vec<u32>> = vec![Vec::new(); non_hcf.len()];
        for a in 1..=num_atoms {
            let k = index[scc[a as usize] as usize];
            if k != NONE {
                component_of[a as usize] = k;
                components[k as usize].push(a);
            }
        }
        let rules = rules
            .filter(|(head, _, _)| head.iter().any(|&a| component_of[a as usize] != NONE))
            .map(|(head, choice, body)| MinRule {
                head: head.to_vec(),
                choice,
                body: body.clone(),
            })
            .collect();
        Minimality {
            components,
            component_of,
            rules,
        }
    }
}
