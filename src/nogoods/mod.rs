//! Completion nogoods (the paper's section 2) and their CSR store.

pub mod db;

pub use db::{NogoodDb, NogoodDbBuilder, Origin};

use crate::lit::Var;

/// The completion of a [`crate::ground::GroundProgram`]: its nogoods, and the variable that
/// stands for each body (`body_var[i]` for `bodies[i]`; atoms are their own variables).
#[derive(Clone, Debug, Default)]
pub struct Completion {
    pub db: NogoodDb,
    pub body_var: Vec<Var>,
}
