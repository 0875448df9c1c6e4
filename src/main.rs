//! The command line: parse the options, install the Ctrl-C handler, run the pipeline
//! ([`yasmin_rs::run`]) and turn its outcome into clingo's exit codes.
//!
//! Invariant: every way out of the program goes through `std::process::exit` with a documented
//! code; errors are printed once, on standard error, in clingo's `*** ERROR: (yasmin-rs): …` form.

use clap::Parser;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use yasmin_rs::config::Config;
use yasmin_rs::run::{exit, run, Failure};

fn main() {
    let start = Instant::now();
    let config = Config::parse();
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    // The first Ctrl-C asks the search to stop and print what it found; a second one, while the
    // first is still being honoured, exits at once.
    let handler = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    });
    if let Err(e) = handler {
        eprintln!("*** Warn : (yasmin-rs): cannot install the Ctrl-C handler: {e}");
    }
    let code = match run(&config, interrupt, start) {
        Ok(code) => code,
        Err(e) => match e.downcast_ref::<Failure>() {
            Some(f) => {
                if !f.message.is_empty() {
                    eprintln!("*** ERROR: (yasmin-rs): {}", f.message);
                }
                f.code
            }
            None => {
                eprintln!("*** ERROR: (yasmin-rs): {e:#}");
                exit::INTERNAL
            }
        },
    };
    std::process::exit(code);
}
