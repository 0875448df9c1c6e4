//! How many GPUs CUDA will show this process, read from what the kernel driver lists
//! (`/proc/driver/nvidia/gpus`) and `CUDA_VISIBLE_DEVICES`, without starting the CUDA driver:
//! its start (`cuInit`, 0.1 s on one H100, more with several) then overlaps the program's
//! preparation instead of preceding it.
//!
//! Invariant: a count is given only where it follows from numbers alone; GPU UUIDs, MIG
//! instances, or anything else only the driver resolves give `None`, and the caller asks the
//! driver.

use std::path::Path;

/// The number of GPUs CUDA will show, or `None` when only the driver can tell (no NVIDIA
/// kernel driver listing, a MIG instance configured, a mask of names).
pub fn without_driver() -> Option<u32> {
    let root = Path::new("/proc/driver/nvidia");
    let listed = std::fs::read_dir(root.join("gpus")).ok()?.flatten().count() as u32;
    if mig_instances(&root.join("capabilities")) {
        return None;
    }
    let mask = std::env::var("CUDA_VISIBLE_DEVICES").ok();
    visible(listed, mask.as_deref())
}

/// A GPU instance of MIG exists (`capabilities/gpuN/mig/giM`): CUDA then shows MIG devices,
/// which only the driver counts.
fn mig_instances(caps: &Path) -> bool {
    let Ok(gpus) = std::fs::read_dir(caps) else {
        return false;
    };
    gpus.flatten().any(|gpu| {
        std::fs::read_dir(gpu.path().join("mig")).is_ok_and(|entries| {
            entries
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("gi"))
        })
    })
}

/// How many of `listed` GPUs CUDA shows under the mask `CUDA_VISIBLE_DEVICES` = `mask`: the
/// distinct indices before the first one out of range, as CUDA reads the list; `None` for a
/// mask CUDA resolves by name (UUIDs, MIG) or one this does not follow (a repeated index), and
/// for no GPU (the driver's message says why).
fn visible(listed: u32, mask: Option<&str>) -> Option<u32> {
    let n = match mask {
        None => listed,
        Some(mask) => {
            let mut seen: Vec<u32> = Vec::new();
            for item in mask.split(',').map(str::trim) {
                match item.parse::<u32>() {
                    Ok(i) if seen.contains(&i) => return None,
                    Ok(i) if i < listed => seen.push(i),
                    Ok(_) => break,
                    Err(_) if item.is_empty() && seen.is_empty() => break,
                    Err(_) => return None,
                }
            }
            seen.len() as u32
        }
    };
    (n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::visible;

    #[test]
    fn without_a_mask_every_listed_gpu_is_visible() {
        assert_eq!(visible(4, None), Some(4));
        assert_eq!(visible(1, None), Some(1));
        assert_eq!(visible(0, None), None);
    }

    #[test]
    fn a_mask_of_indices_counts_those_before_the_first_out_of_range() {
        assert_eq!(visible(4, Some("0")), Some(1));
        assert_eq!(visible(4, Some("2,3")), Some(2));
        assert_eq!(visible(4, Some("3, 1")), Some(2));
        assert_eq!(visible(4, Some("1,7,2")), Some(1));
        assert_eq!(visible(4, Some("7")), None);
        assert_eq!(visible(4, Some("")), None);
    }

    #[test]
    fn names_and_repeats_are_left_to_the_driver() {
        assert_eq!(visible(4, Some("GPU-8f2c1a3e-0000")), None);
        assert_eq!(visible(4, Some("0,MIG-1")), None);
        assert_eq!(visible(4, Some("1,1")), None);
        assert_eq!(visible(4, Some("-1")), None);
    }
}
