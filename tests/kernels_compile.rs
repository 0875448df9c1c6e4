//! Every kernel compiles with NVRTC for compute_90 (the H100), without a GPU.
//!
//! Skips with a message when libnvrtc cannot be loaded, unless `YASMIN_REQUIRE_NVRTC=1`, which
//! CI sets after installing NVRTC (`pip install nvidia-cuda-nvrtc-cu12`, LD_LIBRARY_PATH).

use yasmin_rs::engine::gpu::{device, KERNEL_NAMES};

#[test]
fn kernels_compile_for_compute_90() {
    if !device::nvrtc_present() {
        if std::env::var("YASMIN_REQUIRE_NVRTC").as_deref() == Ok("1") {
            panic!("YASMIN_REQUIRE_NVRTC=1 but libnvrtc could not be loaded (LD_LIBRARY_PATH?)");
        }
        eprintln!(
            "SKIPPED kernels_compile_for_compute_90: libnvrtc not found (set LD_LIBRARY_PATH)"
        );
        return;
    }
    let ptx = match device::compile("90") {
        Ok(p) => p.to_src(),
        Err(log) => panic!("{log}"),
    };
    for name in KERNEL_NAMES {
        assert!(
            ptx.contains(&format!(".entry {name}(")),
            "kernel {name} is not in the PTX"
        );
    }
}

#[test]
fn a_broken_kernel_reports_the_nvrtc_log() {
    if !device::nvrtc_present() {
        eprintln!("SKIPPED a_broken_kernel_reports_the_nvrtc_log: libnvrtc not found");
        return;
    }
    let err = cudarc::nvrtc::compile_ptx("extern \"C\" __global__ void k() { undefined_thing(); }")
        .expect_err("must not compile");
    assert!(format!("{err:?}").contains("undefined_thing"), "{err:?}");
}
