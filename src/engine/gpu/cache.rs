//! The search kernel compiled to a CUBIN for the GPU found, cached on disk so that later runs skip
//! NVRTC (start-up cost: `benchmarks/results/checks/startup-h200x2.txt`).
//!
//! Invariant: a cached image is used only when its file name carries the hash of exactly the
//! kernel source, the target architecture and NVRTC's version, and its content hash matches
//! the one stored beside it; anything missing, short or unreadable is compiled afresh; failing
//! to write the cache never fails the run (the image is used from memory). The directory is
//! `$YASMIN_KERNEL_CACHE`, else `$XDG_CACHE_HOME/yasmin-rs`, else `$HOME/.cache/yasmin-rs`;
//! `YASMIN_KERNEL_CACHE=off` turns the cache off. Within one process an image is made once
//! (kept in memory by its key): [`warm_beside`] makes it on a thread of its own while the
//! program is prepared, and the engine's build then takes it from memory.

use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use cudarc::nvrtc::{result, sys, Ptx};

/// Where the image came from, for `--stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Cached,
    Compiled,
}

impl Origin {
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Cached => "cached",
            Origin::Compiled => "compiled by NVRTC",
        }
    }
}

/// NVRTC's options besides the architecture (part of the cache key). Line information costs
/// nothing at run time and lets compute-sanitizer and the profilers name source lines.
const OPTIONS: [&str; 2] = ["--std=c++17", "--generate-line-info"];

/// The kernel image of source `src` for `sm_<arch>` (e.g. "90"), cache files named after `tag`:
/// from the cache, or compiled (and cached). The error holds NVRTC's log. Call only after
/// `device::nvrtc_present`.
pub fn image_of(src: &str, tag: &str, arch: &str) -> Result<(Ptx, Origin), String> {
    let key = key_of(src, arch);
    // Held while the image is made, so that a second caller waits for it instead of compiling.
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, bin, origin)) = made.iter().find(|(k, _, _)| *k == key) {
        return Ok((Ptx::from_binary(bin.clone()), *origin));
    }
    let path = cache_dir().map(|d| d.join(format!("{tag}-sm{arch}-{key:016x}.cubin")));
    let (bin, origin) = match path.as_deref().and_then(read_checked) {
        Some(bin) => (bin, Origin::Cached),
        None => {
            let bin = compile_cubin(src, arch)?;
            if let Some(p) = &path {
                // A cache that cannot be written only costs the next run a compile.
                let _ = write_checked(p, &bin);
            }
            (bin, Origin::Compiled)
        }
    };
    made.push((key, bin.clone(), origin));
    Ok((Ptx::from_binary(bin), origin))
}

/// The image's key: the source, the architecture, NVRTC's version and the options.
fn key_of(src: &str, arch: &str) -> u64 {
    fnv1a(&[
        src.as_bytes(),
        arch.as_bytes(),
        nvrtc_version().as_bytes(),
        OPTIONS.join(" ").as_bytes(),
    ])
}

/// The images this process made, by key.
static MADE: Mutex<Vec<(u64, Vec<u8>, Origin)>> = Mutex::new(Vec::new());

/// Make the image of `src` (`make` finds the architecture, e.g. by opening the GPU, and calls
/// [`image_of`]) on a thread of its own, so that NVRTC runs while the program is prepared; a
/// failure is left for the engine's build to meet and report (a build that comes first waits
/// for the image in [`image_of`]).
pub fn warm_beside(make: fn()) {
    // A thread that cannot start leaves the image to the engine's build.
    let _ = std::thread::Builder::new()
        .name("kernel-compile".into())
        .spawn(make);
}

/// Compile `src` to a CUBIN for `sm_<arch>`.
pub fn compile_cubin(src: &str, arch: &str) -> Result<Vec<u8>, String> {
    let c_src = CString::new(src).map_err(|_| "kernel source holds a NUL byte".to_string())?;
    let prog = result::create_program(&c_src, Some(c"yasmin.cu"))
        .map_err(|e| format!("NVRTC could not create the program: {e:?}"))?;
    let mut opts = vec![format!("--gpu-architecture=sm_{arch}")];
    opts.extend(OPTIONS.iter().map(|o| o.to_string()));
    // SAFETY: `prog` was created above and is destroyed once, at the end.
    let out = unsafe {
        match result::compile_program(prog, &opts) {
            Ok(()) => cubin_of(prog),
            Err(e) => {
                let log = result::get_program_log(prog)
                    .map(|l| CStr::from_ptr(l.as_ptr()).to_string_lossy().into_owned())
                    .unwrap_or_default();
                Err(format!(
                    "NVRTC could not compile the kernels ({e:?}):\n{log}"
                ))
            }
        }
    };
    // SAFETY: created above, not destroyed before.
    let _ = unsafe { result::destroy_program(prog) };
    out
}

/// # Safety
/// `prog` must be a compiled, live NVRTC program.
unsafe fn cubin_of(prog: sys::nvrtcProgram) -> Result<Vec<u8>, String> {
    let mut size = 0usize;
    sys::nvrtcGetCUBINSize(prog, &mut size)
        .result()
        .map_err(|e| format!("NVRTC gave no CUBIN size: {e:?}"))?;
    let mut bin = vec![0u8; size];
    sys::nvrtcGetCUBIN(prog, bin.as_mut_ptr().cast())
        .result()
        .map_err(|e| format!("NVRTC gave no CUBIN: {e:?}"))?;
    if bin.is_empty() {
        return Err("NVRTC produced an empty CUBIN".into());
    }
    Ok(bin)
}

fn nvrtc_version() -> String {
    let (mut major, mut minor) = (0, 0);
    // SAFETY: plain out-parameters.
    let _ = unsafe { sys::nvrtcVersion(&mut major, &mut minor) };
    format!("{major}.{minor}")
}

fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os("YASMIN_KERNEL_CACHE") {
        Some(v) if v == "off" => return None,
        Some(v) if !v.is_empty() => return Some(PathBuf::from(v)),
        _ => {}
    }
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        return Some(PathBuf::from(x).join("yasmin-rs"));
    }
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".cache").join("yasmin-rs"))
}

/// The file's bytes when its trailing 8-byte FNV-1a hash matches the rest.
fn read_checked(p: &Path) -> Option<Vec<u8>> {
    let mut bytes = std::fs::read(p).ok()?;
    if bytes.len() <= 8 {
        return None;
    }
    let tail = bytes.split_off(bytes.len() - 8);
    let stored = u64::from_le_bytes(tail.try_into().ok()?);
    (stored == fnv1a(&[&bytes])).then_some(bytes)
}

/// Write `bin` plus its hash to a temporary file and rename it into place, so a concurrent
/// reader sees the old state or the whole new file.
fn write_checked(p: &Path, bin: &[u8]) -> std::io::Result<()> {
    let dir = p.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let tmp = dir.join(format!(".tmp-{}-{}", std::process::id(), fnv1a(&[bin])));
    let mut data = bin.to_vec();
    data.extend_from_slice(&fnv1a(&[bin]).to_le_bytes());
    std::fs::write(&tmp, &data)?;
    std::fs::rename(&tmp, p).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })
}

/// 64-bit FNV-1a over the parts, each followed by a separator byte.
fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &b in part.iter().chain(std::iter::once(&0xffu8)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checked_file_round_trips_and_a_corrupt_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("yasmin-cache-test-{}", std::process::id()));
        let p = dir.join("k.cubin");
        write_checked(&p, b"image bytes").unwrap();
        assert_eq!(read_checked(&p).as_deref(), Some(&b"image bytes"[..]));
        let mut raw = std::fs::read(&p).unwrap();
        raw[0] ^= 1;
        std::fs::write(&p, &raw).unwrap();
        assert_eq!(read_checked(&p), None, "a flipped byte must be detected");
        std::fs::write(&p, b"short").unwrap();
        assert_eq!(read_checked(&p), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_image_is_made_once_per_process() {
        if !super::super::device::nvrtc_present() {
            // scripts/test.sh sets YASMIN_REQUIRE_NVRTC where the NVRTC wheel is installed.
            assert!(
                std::env::var_os("YASMIN_REQUIRE_NVRTC").is_none(),
                "NVRTC is missing"
            );
            return;
        }
        let src = "extern \"C\" __global__ void k(int* x) { *x = 1; }";
        let (_, first) = image_of(src, "test-once", "90").unwrap();
        let (_, again) = image_of(src, "test-once", "90").unwrap();
        assert_eq!(
            first, again,
            "the second call returns the first one's image"
        );
        let made = MADE.lock().unwrap();
        let key = key_of(src, "90");
        assert_eq!(
            made.iter().filter(|(k, _, _)| *k == key).count(),
            1,
            "made once"
        );
    }

    #[test]
    fn the_key_depends_on_every_part() {
        let a = fnv1a(&[b"src", b"90"]);
        assert_ne!(a, fnv1a(&[b"src", b"80"]));
        assert_ne!(a, fnv1a(&[b"sr", b"c90"]), "parts are separated");
    }
}
