//! Engines over an engine: each takes any [`crate::engine::Engine`] and answers the same calls,
//! so that the run can stack them (`run/engines.rs`).
//!
//! - `eliminated`: models of a program whose atoms `analyse::alias` eliminated, read back;
//! - `projective`: projective enumeration (`--project`), one model a class;
//! - `minimality_check`: disjunctive programs with a head cycle, each candidate checked for
//!   minimality by a second search;
//! - `oll`: core-guided optimisation (OLL) over the host engine's assumptions.
//!
//! Invariant: a wrapper reports only models its inner engine reported (changed only as its own
//! invariant says), so the engines' guarantees hold through it.

pub mod eliminated;
pub mod minimality_check;
pub mod oll;
pub mod projective;
