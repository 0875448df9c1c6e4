//! The command line: parse the options, install the Ctrl-C handler, run the pipeline
//! ([`yasmin_rs::run`]) and turn its outcome into clingo's exit codes.
//!
//! Invariant: every way out of the program goes through `std::process::exit` (or [`leave`])
//! with a documented code; errors are printed once, on standard error, in clingo's `*** ERROR: (yasmin-rs): …` form.
//! That includes running out of memory: the allocator below turns a failed allocation into
//! exit 33 with a message, where Rust would abort with a signal.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use yasmin_rs::config::Config;
use yasmin_rs::run::{exit, exit_code_of, run};

/// The system allocator, except that a failed allocation ends the run with exit 33 and a clear
/// message instead of Rust's abort (SIGABRT, exit 134). What was found is not lost: the printer
/// flushes standard output after every model.
struct ExitOnOom;

// SAFETY: every call is forwarded unchanged to `System`; only a null result is acted on, and the
// exit path allocates nothing (the message is formatted on the stack).
unsafe impl GlobalAlloc for ExitOnOom {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: ExitOnOom = ExitOnOom;

#[cold]
fn out_of_memory(bytes: usize) -> ! {
    let mut buf = [0u8; 200];
    let mut w = &mut buf[..];
    let (size, unit) = if bytes >= 1 << 20 {
        (bytes >> 20, "MB")
    } else {
        (bytes, "bytes")
    };
    let _ = write!(
        w,
        "*** ERROR: (yasmin-rs): out of memory (an allocation of {size} {unit} failed); the \
         input is too large for the memory available\n"
    );
    let len = 200 - w.len();
    let _ = std::io::stderr().write_all(&buf[..len]);
    std::process::exit(exit::MEMORY)
}

/// Signals this soon after the first one are taken as part of it (see `main`).
const SIGNAL_GRACE: std::time::Duration = std::time::Duration::from_secs(2);

fn main() {
    let start = Instant::now();
    let config = Config::from_args(std::env::args_os());
    let interrupt = Arc::new(AtomicBool::new(false));
    let flag = interrupt.clone();
    // Ctrl-C, SIGTERM (what `timeout`, runsolver and schedulers send) and SIGHUP ask the search
    // to stop and print what it found, the result and the summary, as clingo does. Signals in
    // the first seconds after the first are part of that stop (a wrapper such as `timeout -s
    // INT` may deliver two at once); one later, while the stop is still being honoured, exits
    // at once.
    let first = std::sync::OnceLock::new();
    let handler = ctrlc::set_handler(move || {
        if !flag.swap(true, Ordering::SeqCst) {
            let _ = first.set(Instant::now());
        } else if first
            .get()
            .is_some_and(|t: &Instant| t.elapsed() >= SIGNAL_GRACE)
        {
            // No flush: the run may hold standard output's lock. The printer flushes after
            // every model, so nothing found is lost.
            leave(130, false);
        }
    });
    if let Err(e) = handler {
        eprintln!("*** Warn : (yasmin-rs): cannot install the Ctrl-C handler: {e}");
    }
    let _ = yasmin_rs::run::AFTER_SUMMARY.set(|code| leave(code, true));
    let code = match run(&config, interrupt, start) {
        Ok(code) => code,
        Err(e) => {
            let (code, message) = exit_code_of(&e);
            if !message.is_empty() {
                eprintln!("*** ERROR: (yasmin-rs): {message}");
            }
            code
        }
    };
    leave(code, true);
}

/// End the process with `code`. Once the CUDA driver started, its teardown (each context's
/// memory freed, a kernel still running stopped) is left to the operating system, which
/// reclaims all of it when the process ends: the driver's own takes 0.07 s on one H100 and
/// more with several, after the answer is printed. With `flush`, standard output and error
/// are flushed first.
fn leave(code: i32, flush: bool) -> ! {
    if yasmin_rs::engine::gpu::device::started() {
        if flush {
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().flush();
        }
        // SAFETY: `_exit` ends the process at once; the output is flushed (or, on a second
        // Ctrl-C, was flushed model by model), and nothing else this process holds needs its
        // exit handlers.
        unsafe { libc::_exit(code) }
    }
    std::process::exit(code)
}
