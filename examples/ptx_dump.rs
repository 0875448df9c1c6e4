//! Print the PTX of the search kernel (`kernels/search/`; NVRTC, `compute_<ARCH>`, default 90),
//! as `engine::gpu::device::compile` makes it (the engine loads a CUBIN of the same source,
//! `engine::gpu::cache`). Needs libnvrtc (the PyPI wheel will do, see `.ci/run`), no GPU.
//!
//! A refactor of the kernels that should not change what runs can be checked without a GPU:
//! `cargo run --release --example ptx_dump > before.ptx`, change, run again, `diff` the two
//! (lines starting with `//` name the compiler and may differ).

use yasmin_rs::engine::gpu::device;

fn main() {
    let arch = std::env::args().nth(1).unwrap_or_else(|| "90".into());
    if !device::nvrtc_present() {
        eprintln!("ptx_dump: libnvrtc not found (set LD_LIBRARY_PATH)");
        std::process::exit(2);
    }
    match device::compile(&arch) {
        Ok(ptx) => print!("{}", ptx.to_src()),
        Err(log) => {
            eprintln!("{log}");
            std::process::exit(1);
        }
    }
}
