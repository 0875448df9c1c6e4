//! Finding a usable GPU, compiling the kernels with NVRTC for it, and the one table of kernels.
//!
//! Invariant: nothing in cudarc is called before [`available`] has confirmed that the driver and
//! NVRTC libraries load (cudarc panics when they are missing); every kernel of [`KERNEL_NAMES`]
//! is looked up at start-up, so a missing one fails before the search starts, and an NVRTC
//! failure carries its log.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaFunction, CudaStream, DriverError};
use cudarc::nvrtc::{CompileError, CompileOptions, Ptx};

use crate::engine::EngineError;

/// The shared header and one `.cu` per stage, in the order they are concatenated.
pub const HEADER: &str = include_str!("../../../kernels/yasmin.cuh");
pub const KERNEL_FILES: &[(&str, &str)] = &[
    (
        "propagate.cu",
        include_str!("../../../kernels/propagate.cu"),
    ),
    ("complete.cu", include_str!("../../../kernels/complete.cu")),
    ("decide.cu", include_str!("../../../kernels/decide.cu")),
    ("step.cu", include_str!("../../../kernels/step.cu")),
    ("learn.cu", include_str!("../../../kernels/learn.cu")),
    ("backjump.cu", include_str!("../../../kernels/backjump.cu")),
    (
        "unfounded.cu",
        include_str!("../../../kernels/unfounded.cu"),
    ),
];

/// Every kernel the engine launches (`<stage>_<variant>_k`); see `launch.rs` for the launchers.
pub const KERNEL_NAMES: &[&str] = &[
    "prop_units_k",
    "prop_round_k",
    "decide_rank_k",
    "step_k",
    "learn_analyse_k",
    "backjump_undo_k",
    "ufs_check_k",
];

/// One translation unit: the header once, then each stage without its `#include`.
pub fn kernel_source() -> String {
    let mut s = String::with_capacity(64 * 1024);
    s.push_str(HEADER);
    for (name, text) in KERNEL_FILES {
        s.push_str(&format!("\n// ---- {name} ----\n"));
        for line in text.lines() {
            if line.trim_start().starts_with("#include \"yasmin.cuh\"") {
                continue;
            }
            s.push_str(line);
            s.push('\n');
        }
    }
    s
}

/// The many-searches kernel (`kernels/search/`), one translation unit in include order.
pub const MANY_FILES: &[(&str, &str)] = &[
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

/// Compile the kernels to PTX for `compute_<arch>` (e.g. "90"); the error holds NVRTC's log.
/// Call only after [`nvrtc_present`].
pub fn compile(arch: &str) -> Result<Ptx, String> {
    let opts = CompileOptions {
        options: vec![
            format!("--gpu-architecture=compute_{arch}"),
            "--std=c++17".into(),
        ],
        name: Some("yasmin.cu".into()),
        ..Default::default()
    };
    cudarc::nvrtc::compile_ptx_with_opts(kernel_source(), opts).map_err(|e| match e {
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

/// Why the device engine cannot run here, or `Ok` when a driver, a GPU and NVRTC are present.
pub fn available() -> Result<(), String> {
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
    match CudaContext::device_count() {
        Ok(n) if n > 0 => Ok(()),
        Ok(_) => Err("the CUDA driver reports no GPU".into()),
        Err(e) => Err(format!("the CUDA driver could not start: {}", describe(&e))),
    }
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

/// The kernels, looked up by name once.
pub struct Kernels {
    funcs: Vec<CudaFunction>,
}

impl Kernels {
    pub fn get(&self, name: &str) -> &CudaFunction {
        let i = KERNEL_NAMES
            .iter()
            .position(|n| *n == name)
            .expect("kernel name not in KERNEL_NAMES");
        &self.funcs[i]
    }
}

/// A context on GPU 0, its stream and the loaded kernels.
pub struct Device {
    pub ctx: Arc<CudaContext>,
    pub stream: Arc<CudaStream>,
    pub kernels: Kernels,
    pub sm_count: u32,
    pub name: String,
    /// Whether the kernel image came from the on-disk cache (`cache.rs`) or from NVRTC.
    pub image_origin: super::cache::Origin,
}

/// A context on GPU 0, its architecture ("90" for compute capability 9.0) and its number of
/// multiprocessors. Checks [`available`] first.
pub fn open_context() -> Result<(Arc<CudaContext>, String, u32), EngineError> {
    available().map_err(EngineError::Device)?;
    let ctx = CudaContext::new(0).map_err(|e| engine_error("opening GPU 0", e))?;
    // One stream and explicit synchronisation: the engines order their own launches, so
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

impl Device {
    pub fn open() -> Result<Device, EngineError> {
        let (ctx, arch, sm_count) = open_context()?;
        let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
        let (image, origin) =
            super::cache::image(&kernel_source(), &arch).map_err(EngineError::Device)?;
        let module = ctx
            .load_module(image)
            .map_err(|e| engine_error("loading the compiled kernels", e))?;
        let mut funcs = Vec::with_capacity(KERNEL_NAMES.len());
        for n in KERNEL_NAMES {
            funcs.push(
                module
                    .load_function(n)
                    .map_err(|e| engine_error(&format!("kernel {n} is missing"), e))?,
            );
        }
        let stream = ctx.default_stream();
        Ok(Device {
            ctx,
            stream,
            kernels: Kernels { funcs },
            sm_count: sm_count.max(1),
            name,
            image_origin: origin,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_name_is_defined_once_in_the_sources() {
        let src = kernel_source();
        for n in KERNEL_NAMES {
            let decl = format!("extern \"C\" __global__ void {n}(");
            assert_eq!(
                src.matches(&decl).count(),
                1,
                "{n} must be defined exactly once"
            );
        }
        assert_eq!(
            src.matches("extern \"C\" __global__").count(),
            KERNEL_NAMES.len(),
            "a kernel is missing from KERNEL_NAMES"
        );
    }
}
