//! `--project`: the atoms projective enumeration projects onto (clingo's choice of them).
//!
//! Invariant: `Project` takes the `#project` atoms (none when the program has no `#project`
//! directive: one class), `Show` every atom of an output statement's condition, `Auto` the
//! first when the program has a `#project` directive and the second otherwise.

use super::{exit, Failure};
use crate::config::Projection;
use lparse::Program;

/// The projection atoms for `mode`; an error with an objective (not supported yet).
pub fn atoms(mode: Projection, program: &Program, optimising: bool) -> Result<Vec<u32>, Failure> {
    if optimising {
        return Err(Failure::new(
            exit::UNSUPPORTED,
            "projection (--project) with optimization (#minimize) is not supported yet \
             (use --opt-mode=ignore or leave out --project)",
        ));
    }
    let mode = match (mode, &program.projection) {
        (Projection::Auto, Some(_)) => Projection::Project,
        (Projection::Auto, None) => Projection::Show,
        (m, _) => m,
    };
    Ok(match mode {
        Projection::Show => program
            .outputs
            .iter()
            .flat_map(|o| o.condition.iter().map(|l| l.unsigned_abs()))
            .collect(),
        _ => program.projection.clone().unwrap_or_default(),
    })
}
