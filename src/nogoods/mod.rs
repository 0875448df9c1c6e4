//! Completion nogoods (the paper's section 2) and their CSR store.
//!
//! Invariant: see [`completion`]: the nogoods of a [`Completion`] are satisfied by exactly the
//! supported models of the program, each extended in exactly one way to the body and aggregate
//! variables.

pub mod adder;
pub mod aggregate;
pub mod completion;
pub mod db;
pub mod native;
pub mod pairwise;
pub mod render;

pub use completion::{
    complete, complete_all_native, complete_native, complete_native_device, complete_with,
};

/// How a completion writes sum (cardinality and weight) bodies (both engines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sums {
    /// Sums whose decision diagram is small as nogoods, the others left to the engine's
    /// counter propagator ([`native`]).
    Native,
    /// Every sum left to the propagator (tests it on small programs).
    AllNative,
    /// Every sum as nogoods over a decision diagram (an adder past a size budget).
    Translate,
}

/// The host engine's completion for `sums` (`None`: every sum translated).
pub fn completer(sums: Option<Sums>) -> fn(&crate::analyse::GroundProgram) -> Completion {
    match sums {
        Some(Sums::Native) => complete_native,
        Some(Sums::AllNative) => complete_all_native,
        _ => complete,
    }
}

/// The device engine's completion for `sums`: as [`completer`]'s, with fewer small counts
/// native ([`aggregate::SMALL_COUNT_LOWER_DEVICE`]).
pub fn device_completer(sums: Option<Sums>) -> fn(&crate::analyse::GroundProgram) -> Completion {
    match sums {
        Some(Sums::Native) => complete_native_device,
        _ => completer(sums),
    }
}
pub use db::{NogoodDb, NogoodDbBuilder, Origin};

use crate::lit::Var;

/// The completion of a [`crate::analyse::GroundProgram`]: its nogoods, and the variable that
/// stands for each body (`body_var[i]` for `bodies[i]`; atoms are their own variables). The
/// variable of a conjunctive body that only integrity constraints use is fixed false (its
/// constraint nogood is written on the body's literals), so it does not mirror the body. With
/// equivalence preprocessing (`analyse::eq`) a body's variable may be an atom's, and several
/// bodies may share one variable: `body_var` is not injective and not above the atoms.
#[derive(Clone, Debug, Default)]
pub struct Completion {
    pub db: NogoodDb,
    pub body_var: Vec<Var>,
    /// Body index → the rules with that body (CSR over `0..bodies.len()`).
    pub body_rule_offsets: Vec<u32>,
    pub body_rules: Vec<u32>,
    /// The first aggregate auxiliary variable; the bodies' own variables are
    /// `num_atoms + 1 .. first_aux`, auxiliaries `first_aux .. db.num_vars`.
    pub first_aux: Var,
    /// Auxiliary `first_aux + k` was made for the sum body `aux_body[k]` (later sum bodies with
    /// the same weighted literals may share it).
    pub aux_body: Vec<u32>,
    /// Sum bodies encoded by an adder because their decision diagram was too large.
    pub sums_as_adders: usize,
    /// Sum bodies left to the engines' counter propagators ([`complete_native`]: the host's
    /// `engine/cpu/sums.rs`, the device kernel's `kernels/search/sums.cuh`); empty when every
    /// sum is translated to nogoods.
    pub native_sums: Vec<native::NativeSum>,
}

impl Completion {
    /// Rules whose body is `bodies[body]`.
    pub fn rules_of_body(&self, body: usize) -> &[u32] {
        &self.body_rules
            [self.body_rule_offsets[body] as usize..self.body_rule_offsets[body + 1] as usize]
    }
    /// The first body whose variable is `v` (an atom's variable too, with equivalences).
    pub fn body_of_var(&self, v: Var) -> Option<usize> {
        self.body_var.iter().position(|&b| b == v)
    }
    /// `v` is an aggregate auxiliary (neither atom nor body).
    pub fn is_aux(&self, v: Var) -> bool {
        v >= self.first_aux
    }
    /// Nogoods per partition: units, binaries, ternaries, longer.
    pub fn partition_sizes(&self) -> [usize; 4] {
        let b = self.db.bounds.map(|x| x as usize);
        [b[0], b[1] - b[0], b[2] - b[1], self.db.len() - b[2]]
    }
}
