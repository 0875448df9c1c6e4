//! Embedded grounding: turn clingo source files (`encoding.lp instance.lp`) into a ground
//! [`lparse::Program`] without an external gringo, through clingo's C library (clingo-sys,
//! built from source when the cargo feature `grounder` is on).
//!
//! Invariant: [`ground`] either feeds the builder the complete ground program of the `base` part
//! — exactly the statements gringo would print in aspif for the same files and constants (same
//! grounder, same output stage), facts included as shown outputs without condition — and
//! returns `Ok`, or returns an error; clingo's solver is never run. Without the feature,
//! [`ground`] always fails with [`GroundError::Unavailable`], so callers need no `cfg`.
//!
//! Which inputs are source and which are ground is decided by [`detect`], from the content.

mod detect;

#[cfg(feature = "grounder")]
mod clingo;

pub use detect::{detect, detect_text, InputKind};

use lparse::ProgramBuilder;
use std::path::PathBuf;

/// Exit code for a grounding failure the input caused (syntax error, unsafe variable, missing
/// file): 65, clingo's own code for errors and the code yasmin-rs uses for every bad input.
pub const EXIT_GROUND_ERROR: i32 = 65;

/// Why grounding did not produce a program. clingo's diagnostics (`file:line:col-col: error: …`)
/// have already been printed on standard error when this is returned, as clingo prints them.
#[derive(Debug, thiserror::Error)]
pub enum GroundError {
    /// This binary was built without the cargo feature `grounder`.
    #[error(
        "this build has no embedded grounder; pipe the files through gringo \
         (`gringo {files} | yasmin-rs`) or build with `--features grounder`"
    )]
    Unavailable { files: String },
    /// A `-c name=value` that is not of that form.
    #[error("bad constant '{0}': expected name=value")]
    BadConstant(String),
    /// clingo rejected the input (parsing, safety, undefined operations made errors, a file that
    /// cannot be opened) — the diagnostics were printed before.
    #[error("grounding failed: {0}")]
    Input(String),
    /// clingo ran out of memory.
    #[error("grounding ran out of memory: {0}")]
    OutOfMemory(String),
    /// Anything else clingo or the observer reported (a bug, not the user's input).
    #[error("grounder internal error: {0}")]
    Internal(String),
}

impl GroundError {
    /// The process exit code for this error (documented in `--help`): 65 bad input, 33 out of
    /// memory, 70 internal error — the codes `config.rs` documents.
    pub fn exit_code(&self) -> i32 {
        match self {
            GroundError::Unavailable { .. } => 66,
            GroundError::BadConstant(_) | GroundError::Input(_) => EXIT_GROUND_ERROR,
            GroundError::OutOfMemory(_) => 33,
            GroundError::Internal(_) => 70,
        }
    }
}

/// What the command line gives the grounder, as clingo's: `-c NAME=VALUE` constants and `-W`
/// switches of its warnings (`none`, `all`, `no-atom-undefined`, …; clingo checks them).
#[derive(Clone, Debug, Default)]
pub struct Args {
    pub constants: Vec<(String, String)>,
    pub warn: Vec<String>,
    /// clingo's `--mode=clasp`: no grounding; clingo source is an error of the input.
    pub refused: bool,
}

impl Args {
    /// The arguments of a clingo control object.
    pub fn argv(&self) -> Vec<String> {
        let c = self
            .constants
            .iter()
            .flat_map(|(n, v)| ["-c".into(), format!("{n}={v}")]);
        let w = self.warn.iter().flat_map(|w| ["-W".into(), w.clone()]);
        c.chain(w).collect()
    }
}

/// Parse `name=value` (clingo's `-c` syntax) into its two halves.
pub fn parse_constant(s: &str) -> Result<(String, String), GroundError> {
    match s.split_once('=') {
        Some((n, v)) if !n.trim().is_empty() && !v.trim().is_empty() => {
            Ok((n.trim().to_string(), v.trim().to_string()))
        }
        _ => Err(GroundError::BadConstant(s.to_string())),
    }
}

/// Ground the `base` part of `files` (clingo source) with `constants` (`-c name=value`) and feed
/// every ground statement to `builder`, in the order clingo's output stage emits them.
pub fn ground(
    files: &[PathBuf],
    constants: &[(String, String)],
    builder: &mut dyn ProgramBuilder,
) -> Result<(), GroundError> {
    let args = Args {
        constants: constants.to_vec(),
        ..Args::default()
    };
    ground_with_stdin(files, None, &args, builder)
}

/// [`ground`] with every argument of [`Args`], where the file `-` stands for `stdin`, standard
/// input's text (read by the caller), which diagnostics name `<stdin>`.
pub fn ground_with_stdin(
    files: &[PathBuf],
    stdin: Option<&[u8]>,
    args: &Args,
    builder: &mut dyn ProgramBuilder,
) -> Result<(), GroundError> {
    #[cfg(feature = "grounder")]
    {
        clingo::ground(files, stdin, &args.argv(), builder)
    }
    #[cfg(not(feature = "grounder"))]
    {
        let _ = (args, builder, stdin);
        let files = files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(" ");
        Err(GroundError::Unavailable { files })
    }
}
