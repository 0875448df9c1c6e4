//! Where the program comes from: one ground file, standard input, or clingo source files that
//! the embedded grounder turns into a ground program (feature `grounder`); `-` among source
//! files is standard input, grounded with them (`enc.lp -`), as clingo reads it.
//!
//! Invariant: a run reads exactly one ground program. Several ground files are a usage error
//! (gringo prints one program; concatenating two would renumber nothing and mean nonsense), and
//! so is a mix of ground and source files. Every read, parse or grounding failure is a [`Failure`]
//! with the exit code the user is told about (65 bad input, 66 grounder not built in), naming the
//! file — and for a parse error the line and column.

use super::{exit, Failure};
use crate::grounder::{self, InputKind};
use lparse::Program;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The input of a run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Standard input: a ground program (or, with the grounder, clingo source).
    Stdin,
    /// One ground program file.
    Ground(PathBuf),
    /// clingo source files, grounded together in-process; `-` is standard input.
    Sources(Vec<PathBuf>),
    /// A program read already (standard input cannot be read twice), with its source's label.
    Read(Box<Program>, String),
}

impl Source {
    /// What clingo prints after `Reading from` (the first file, then `...` if there are more).
    /// Every input by name, as clingo's JSON lists them (`-` as given, `stdin` for none).
    pub fn names(&self) -> Vec<String> {
        match self {
            Source::Sources(files) => files.iter().map(|f| f.display().to_string()).collect(),
            _ => vec![self.label()],
        }
    }

    pub fn label(&self) -> String {
        match self {
            Source::Stdin => "stdin".into(),
            Source::Read(_, label) => label.clone(),
            Source::Ground(p) => p.display().to_string(),
            Source::Sources(files) => {
                let first = files[0].display().to_string();
                if files.len() > 1 {
                    format!("{first} ...")
                } else {
                    first
                }
            }
        }
    }
}

/// The input named on the command line: none or `-` = standard input; the files' first lines
/// decide between ground and source (see [`grounder::detect`]).
pub fn choose(files: &[PathBuf]) -> Result<Source, Failure> {
    match files {
        [] => return Ok(Source::Stdin),
        [f] if f == Path::new("-") => return Ok(Source::Stdin),
        _ => {}
    }
    if files.iter().filter(|f| *f == Path::new("-")).count() > 1 {
        return Err(Failure::new(
            exit::USAGE,
            "'-' (standard input) is given more than once",
        ));
    }
    let mut kinds = Vec::with_capacity(files.len());
    for f in files {
        // Standard input beside files is source, grounded with them.
        if f == Path::new("-") {
            kinds.push(InputKind::Source);
            continue;
        }
        let kind = grounder::detect(f).map_err(|e| {
            Failure::new(exit::BAD_INPUT, format!("cannot read {}: {e}", f.display()))
        })?;
        kinds.push(kind);
    }
    let ground = kinds.iter().filter(|&&k| k == InputKind::Ground).count();
    match (ground, files.len()) {
        (0, _) => Ok(Source::Sources(files.to_vec())),
        (1, 1) => Ok(Source::Ground(files[0].clone())),
        (g, n) if g == n => Err(Failure::new(
            exit::USAGE,
            format!(
                "{n} ground programs given ({}), but a run reads one: pass the one file gringo \
                 wrote for all of them (`gringo encoding.lp instance.lp | yasmin-rs`)",
                names(files)
            ),
        )),
        _ => Err(Failure::new(
            exit::USAGE,
            format!(
                "ground programs and clingo source mixed ({}): give either one ground program \
                 or only source files",
                names(files)
            ),
        )),
    }
}

/// `--mode=clasp` given clingo source `what`.
fn refused(what: &str) -> Failure {
    Failure::new(
        exit::BAD_INPUT,
        format!(
            "{what}: clingo source, and --mode=clasp reads a ground program (aspif or smodels); \
             ground it first (`gringo`, or --mode=gringo) or leave --mode out"
        ),
    )
}

fn names(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Read, parse or ground the program of `source`; `args`: the grounder's (`-c`, `-W`).
pub fn read(source: &Source, args: &grounder::Args) -> Result<Program, Failure> {
    let label = source.label();
    let bytes = match source {
        Source::Read(program, _) => return Ok((**program).clone()),
        Source::Sources(files) if args.refused => return Err(refused(&names(files))),
        Source::Sources(files) => return ground(files, args),
        Source::Stdin => {
            let mut buf = Vec::new();
            std::io::stdin().lock().read_to_end(&mut buf).map(|_| buf)
        }
        Source::Ground(p) => std::fs::read(p),
    }
    .map_err(|e| Failure::new(exit::BAD_INPUT, format!("cannot read {label}: {e}")))?;
    let source_text = *source == Source::Stdin
        && grounder::detect_text(&String::from_utf8_lossy(&bytes[..bytes.len().min(1 << 16)]))
            == InputKind::Source;
    if source_text && args.refused {
        return Err(refused("<stdin>"));
    }
    if source_text && cfg!(feature = "grounder") {
        return ground_stdin(&bytes, args);
    }
    // Diagnostics name standard input `<stdin>`, as the grounder's do.
    let name = match source {
        Source::Stdin => "<stdin>",
        _ => &label,
    };
    lparse::read(&bytes, name).map_err(|e| {
        let hint = if source_text {
            "\n(if this is clingo source, ground it first: `gringo file.lp | yasmin-rs`; this \
             build has no embedded grounder)"
        } else {
            ""
        };
        Failure::new(exit::BAD_INPUT, format!("{e}{hint}"))
    })
}

/// Ground source `files`; a `-` among them is standard input, read here.
fn ground(files: &[PathBuf], args: &grounder::Args) -> Result<Program, Failure> {
    let stdin = match files.iter().any(|f| f == Path::new("-")) {
        true => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| Failure::new(exit::BAD_INPUT, format!("cannot read stdin: {e}")))?;
            Some(buf)
        }
        false => None,
    };
    ground_with(files, stdin.as_deref(), args)
}

fn ground_with(
    files: &[PathBuf],
    stdin: Option<&[u8]>,
    args: &grounder::Args,
) -> Result<Program, Failure> {
    let mut program = Program::default();
    grounder::ground_with_stdin(files, stdin, args, &mut program)
        .map_err(|e| Failure::new(e.exit_code(), e.to_string()))?;
    Ok(program)
}

/// clingo source on standard input (already read, to tell it from a ground program): the
/// grounder takes its text as it is, and names it `<stdin>` in diagnostics.
fn ground_stdin(bytes: &[u8], args: &grounder::Args) -> Result<Program, Failure> {
    ground_with(&[PathBuf::from("-")], Some(bytes), args)
}
