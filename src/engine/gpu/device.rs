//! Finding a usable GPU, opening a context on it, and the source of the search kernel
//! (`kernels/search/`) that NVRTC compiles for it (`cache.rs` keeps the compiled image).
//!
//! Invariant: nothing in cudarc is called before [`available`] has confirmed that the driver and
//! NVRTC libraries load (cudarc panics when they are missing); an NVRTC failure carries its log.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use cudarc::driver::{CudaContext, DriverError};
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};

use crate::engine::EngineError;

/// The many-searches kernel (`kernels/search/`), one translation unit in include order.
pub const MANY_FILES: &[(&str, &str)] = &[
    (
        "lanes.cuh",
        include_str!("../../../kernels/search/lanes.cuh"),
    ),
    (
        "common.cuh",
        include_str!("../../../kernels/search/common.cuh"),
    ),
    (
        "watch.cuh",
        include_str!("../../../kernels/search/watch.cuh"),
    ),
    ("sums.cuh", include_str!("../../../kernels/search/sums.cuh")),
    (
        "objective.cuh",
        include_str!("../../../kernels/search/objective.cuh"),
    ),
    (
        "propagate.cuh",
        include_str!("../../../kernels/search/propagate.cuh"),
    ),
    (
        "decide.cuh",
        include_str!("../../../kernels/search/decide.cuh"),
    ),
    (
        "cube_pool.cuh",
        include_str!("../../../kernels/search/cube_pool.cuh"),
    ),
    (
        "assume.cuh",
        include_str!("../../../kernels/search/assume.cuh"),
    ),
    (
        "enumerate.cuh",
        include_str!("../../../kernels/search/enumerate.cuh"),
    ),
    (
        "share.cuh",
        include_str!("../../../kernels/search/share.cuh"),
    ),
    (
        "learn.cuh",
        include_str!("../../../kernels/search/learn.cuh"),
    ),
    (
        "reduce.cuh",
        include_str!("../../../kernels/search/reduce.cuh"),
    ),
    (
        "unfounded.cuh",
        include_str!("../../../kernels/search/unfounded.cuh"),
    ),
    ("cube.cuh", include_str!("../../../kernels/search/cube.cuh")),
    (
        "search.cu",
        include_str!("../../../kernels/search/search.cu"),
    ),
];

/// The many-searches kernel's source for NVRTC: every file once, without its `#include`s and
/// `#pragma once`.
pub fn many_source() -> String {
    let mut s = String::with_capacity(96 * 1024);
    for (name, text) in MANY_FILES {
        s.push_str(&format!("\n// ---- {name} ----\n"));
        for line in text.lines() {
            let t = line.trim_start();
            if t.starts_with("#include \"") || t.starts_with("#pragma once") {
                continue;
            }
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// Compile the search kernel to PTX for `compute_<arch>` (e.g. "90"); the error holds NVRTC's
/// log. Call only after [`nvrtc_present`]. The engine loads a CUBIN instead (`cache.rs`); the
/// PTX is for reading and comparing (`examples/ptx_dump.rs`).
pub fn compile(arch: &str) -> Result<Ptx, String> {
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture=compute_{arch}"),
            "--std=c++17".into(),
        ],
        name: Some("yasmin.cu".into()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(many_source(), opts).map_err(|e| match e {
        CompileError::CompileError { nvrtc, log, .. } => {
            format!(
                "NVRTC could not compile the kernels ({nvrtc:?}):\n{}",
                log.to_string_lossy()
            )
        }
        other => format!("NVRTC failed: {other:?}"),
    })
}

/// libnvrtc can be loaded.
pub fn nvrtc_present() -> bool {
    // SAFETY: only tries to dlopen the library by its usual names.
    unsafe { cudarc::nvrtc::sys::is_culib_present() }
}

/// How many GPUs the device engine can use here (at least 1), or why it cannot run: a driver,
/// a GPU and NVRTC must be present. Read without starting the driver where the kernel
/// driver's listing tells (`visible.rs`); a context opened later starts it.
pub fn count() -> Result<u32, String> {
    libraries()?;
    match super::visible::without_driver() {
        Some(n) => Ok(n),
        None => driver_count(),
    }
}

/// How many GPUs the CUDA driver shows (it starts the driver: 0.1 s or more), or why none can
/// be used.
pub fn count_by_driver() -> Result<u32, String> {
    libraries()?;
    driver_count()
}

/// [`count_by_driver`] once the libraries are known to load.
fn driver_count() -> Result<u32, String> {
    STARTED.store(true, Ordering::Relaxed);
    match CudaContext::device_count() {
        Ok(n) if n > 0 => Ok(n as u32),
        Ok(_) => Err("the CUDA driver reports no GPU".into()),
        Err(e) => Err(format!("the CUDA driver could not start: {}", describe(&e))),
    }
}

/// The CUDA driver was started in this process, or is being started (a GPU counted by it, a
/// context opened, the kernel warming): its teardown at exit then costs time a run need not
/// wait for, and its start must not meet the exit handlers (`main`).
pub fn started() -> bool {
    STARTED.load(Ordering::Relaxed)
}

static STARTED: AtomicBool = AtomicBool::new(false);

/// The driver and NVRTC libraries load, or which one does not.
fn libraries() -> Result<(), String> {
    // SAFETY: only tries to dlopen the library by its usual names.
    if !unsafe { cudarc::driver::sys::is_culib_present() } {
        return Err("no CUDA driver found (libcuda.so could not be loaded)".into());
    }
    if !nvrtc_present() {
        return Err(
            "NVRTC not found (libnvrtc.so could not be loaded; add the CUDA \
                    toolkit's lib directory to LD_LIBRARY_PATH)"
                .into(),
        );
    }
    Ok(())
}

/// Why the device engine cannot run here, or `Ok` when a driver, a GPU and NVRTC are present.
pub fn available() -> Result<(), String> {
    count().map(|_| ())
}

/// A driver error in words (name and description when the driver provides them).
pub fn describe(e: &DriverError) -> String {
    let name = e
        .error_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = e
        .error_string()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.is_empty() {
        format!("{e:?}")
    } else {
        format!("{name}: {text}")
    }
}

/// A driver error as an [`EngineError`]; out-of-memory gets its own variant.
pub fn engine_error(what: &str, e: DriverError) -> EngineError {
    use cudarc::driver::sys::CUresult;
    if e.0 == CUresult::CUDA_ERROR_OUT_OF_MEMORY {
        EngineError::OutOfMemory(format!("{what}: {}", describe(&e)))
    } else {
        EngineError::Device(format!("{what}: {}", describe(&e)))
    }
}

/// Start making the search kernel's image for GPU 0 on a thread of its own (`cache::warm_beside`),
/// where the GPU engine will be built later and the wait for NVRTC (seconds on a cold cache)
/// can overlap the program's preparation; call only after [`available`].
pub fn warm_kernel() {
    // Its context stays open, so that the engine's own finds the device's context made.
    static KEPT: std::sync::OnceLock<Arc<CudaContext>> = std::sync::OnceLock::new();
    // Marked before the thread starts the driver, so that a run ending first does not run
    // the process's exit handlers while the driver starts (`main::leave`).
    STARTED.store(true, Ordering::Relaxed);
    super::cache::warm_beside(|| {
        if let Ok((ctx, arch, _)) = open_context(0) {
            let _ = super::cache::image_of(&many_source(), "many", &arch);
            let _ = KEPT.set(ctx);
        }
    });
}

/// A context on GPU `gpu` (CUDA's number among the visible GPUs), its architecture ("90" for
/// compute capability 9.0) and its number of multiprocessors. Checks [`available`] first.
pub fn open_context(gpu: u32) -> Result<(Arc<CudaContext>, String, u32), EngineError> {
    available().map_err(EngineError::Device)?;
    STARTED.store(true, Ordering::Relaxed);
    let ctx = CudaContext::new(gpu as usize)
        .map_err(|e| engine_error(&format!("opening GPU {gpu}"), e))?;
    // One stream and explicit synchronisation: the engine orders its own launches, so
    // cudarc's per-buffer event tracking would only add work.
    // SAFETY: no buffer exists yet and only the default stream is ever used.
    unsafe { ctx.disable_event_tracking() };
    let (major, minor) = ctx
        .compute_capability()
        .map_err(|e| engine_error("querying the GPU", e))?;
    let sms = ctx
        .attribute(
            cudarc::driver::sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
        )
        .map_err(|e| engine_error("querying the GPU", e))? as u32;
    Ok((ctx, format!("{major}{minor}"), sms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_profilers_copy_of_the_kernel_source_is_this_one() {
        // scripts/lib/ncu_lines.py names a sampled instruction's line from kernel_source.py's
        // text: it must be NVRTC's, line for line.
        let out = std::process::Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/scripts/lib/kernel_source.py"
            ))
            .arg(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            String::from_utf8(out.stdout).unwrap() == many_source(),
            "kernel_source.py's source differs from many_source()"
        );
    }

    #[test]
    fn the_search_kernel_is_one_unit_with_one_entry_point() {
        let src = many_source();
        assert_eq!(src.matches("extern \"C\" __global__").count(), 1);
        assert_eq!(
            src.matches("extern \"C\" __global__ void search_k(")
                .count(),
            1
        );
        assert!(!src
            .lines()
            .any(|l| l.trim_start().starts_with("#include \"")));
        for (name, _) in MANY_FILES {
            assert_eq!(src.matches(&format!("// ---- {name} ----")).count(), 1);
        }
    }
}
