//! How the GPU members join a race (`race.rs`, `optimize.rs`) while its host threads search:
//! the device's completion of the program, then GPU 0's member built from it, both on a thread
//! of their own. The race's caller only looks at what that thread sent, between its looks at
//! the clock and at the other members, so a slow build (on a program of millions of rules the
//! layout, the upload and the searches' memory take seconds) never holds it: a race that ends
//! first — an answer, the time limit, Ctrl-C — leaves the thread behind and never waits for
//! it (a member built after that is dropped there).
//!
//! Invariant: the thread sends [`Joining::Completed`], then [`Joining::Built`], in that order
//! and at most once each; it builds no member once `stopped` holds or nobody listens.

use super::race::spawn;
use crate::analyse::GroundProgram;
use crate::engine::{Engine, EngineError};
use crate::nogoods::Completion;
use std::sync::mpsc::{self, Receiver};
use std::sync::Arc;

/// Builds a GPU member from the program and the device's completion, on whichever thread
/// calls it (the member may search on another); `Err` says why it cannot take part.
pub type GpuBuild =
    Box<dyn FnOnce(&GroundProgram, &Completion) -> Result<Box<dyn Engine + Send>, String> + Send>;

/// The program as the GPU members search it: analysed, and the device's completion of it.
pub type DeviceProgram = Arc<(GroundProgram, Completion)>;

/// What the joining thread sends.
pub enum Joining<T> {
    /// The device's completion is made (with what the race wanted of it): the members of
    /// further GPUs are built from it, on threads of their own.
    Completed(DeviceProgram, T),
    /// GPU 0's member, or why it does not take part.
    Built(Result<Box<dyn Engine + Send>, String>),
}

/// Start the joining thread: complete `ground` with `complete`, send the completion with `then`
/// of it, then, unless `stopped()`, build GPU 0's member with `build` and send it.
pub fn join_beside<T: Send + 'static>(
    ground: GroundProgram,
    complete: fn(&GroundProgram) -> Completion,
    then: fn(&Completion) -> T,
    build: GpuBuild,
    stopped: impl Fn() -> bool + Send + 'static,
) -> Result<Receiver<Joining<T>>, EngineError> {
    let (tx, rx) = mpsc::channel();
    spawn("gpu-join", move || {
        let completion = complete(&ground);
        let extra = then(&completion);
        let program = Arc::new((ground, completion));
        if tx.send(Joining::Completed(program.clone(), extra)).is_err() || stopped() {
            return;
        }
        let built = build(&program.0, &program.1);
        // The further GPUs' members hold the program as long as they need it.
        drop(program);
        let _ = tx.send(Joining::Built(built));
    })?;
    Ok(rx)
}
