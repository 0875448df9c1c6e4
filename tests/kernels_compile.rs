//! The search kernel (`kernels/search/`) compiles with NVRTC for compute_90 (the H100), without
//! a GPU.
//!
//! Skips with a message when libnvrtc cannot be loaded, unless `YASMIN_REQUIRE_NVRTC=1`, which
//! CI sets after installing NVRTC (`pip install nvidia-cuda-nvrtc-cu12`, LD_LIBRARY_PATH).

use yasmin_rs::engine::gpu::device;

/// libnvrtc loads; else a skip message (or a failure under `YASMIN_REQUIRE_NVRTC=1`).
fn nvrtc_or_skip(test: &str) -> bool {
    if device::nvrtc_present() {
        return true;
    }
    if std::env::var("YASMIN_REQUIRE_NVRTC").as_deref() == Ok("1") {
        panic!("YASMIN_REQUIRE_NVRTC=1 but libnvrtc could not be loaded (LD_LIBRARY_PATH?)");
    }
    eprintln!("SKIPPED {test}: libnvrtc not found (set LD_LIBRARY_PATH)");
    false
}

#[test]
fn the_search_kernel_compiles_to_ptx_for_compute_90() {
    if !nvrtc_or_skip("the_search_kernel_compiles_to_ptx_for_compute_90") {
        return;
    }
    let ptx = match device::compile("90") {
        Ok(p) => p.to_src(),
        Err(log) => panic!("{log}"),
    };
    assert!(
        ptx.contains(".entry search_k("),
        "search_k is not in the PTX"
    );
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

#[test]
fn the_many_searches_kernel_compiles_to_a_cubin_for_sm_90() {
    // The image the engine loads and caches (src/engine/gpu/cache.rs) is a CUBIN, not PTX.
    if !nvrtc_or_skip("the_many_searches_kernel_compiles_to_a_cubin_for_sm_90") {
        return;
    }
    let bin = yasmin_rs::engine::gpu::cache::compile_cubin(&device::many_source(), "90")
        .unwrap_or_else(|log| panic!("{log}"));
    assert_eq!(&bin[..4], b"\x7fELF", "a CUBIN is an ELF image");
    assert!(
        bin.windows(8).any(|w| w == b"search_k"),
        "search_k is not in the CUBIN"
    );
}
