//! Compiles the many-searches kernel (`kernels/search/`) for the host as well: the emulation
//! backend of the device engine (`src/engine/gpu/emu.rs`) runs the very code the GPU runs, one
//! lane per search, so the test suite checks it without a GPU.

fn main() {
    println!("cargo:rerun-if-changed=kernels/search");
    cc::Build::new()
        .cpp(true)
        .file("kernels/search/emu.cpp")
        .flag_if_supported("-std=c++17")
        .flag_if_supported("-Wno-unused-parameter")
        .flag_if_supported("-Wno-unused-function")
        .opt_level(2)
        .compile("ysm_emu");
}
