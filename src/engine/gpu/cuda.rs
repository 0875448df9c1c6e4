//! The device backend of the many-searches engine: the program uploaded once, every search's
//! memory in one allocation, `search_k` launched once per slice with one warp per search.
//!
//! Invariant: the number of searches is at most what the GPU holds resident at once (so every
//! search runs for the whole slice) and what fits in 85 % of the free device memory; `prog` and
//! `geo` hold the addresses of buffers this struct owns.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DevicePtr, LaunchConfig, PushKernelArg,
};

use super::device::{engine_error, open_context};
use super::host_share::ring_ranges;
use super::layout::{g, SCRATCH};
use super::layout::{
    GeoParams, Geometry, ProgArrays, ProgParams, CFG_WORDS, C_WORDS, H_WORDS, SHARE_SLOTS,
    SHARE_WORDS,
};
use super::memory::{Memory, GLOBAL_READ};
use crate::engine::stats::GpuSetup;
use crate::engine::EngineError;
use cudarc::driver::sys::CUresult;

/// Searches (warps) per block.
const WARPS: u32 = 4;

pub struct CudaMemory {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    func: CudaFunction,
    _p32: Vec<CudaSlice<u32>>,
    _p64: Vec<CudaSlice<u64>>,
    _pi64: Vec<CudaSlice<i64>>,
    _p8: CudaSlice<u8>,
    prog: ProgParams,
    geo: GeoParams,
    base: CudaSlice<u32>,
    hdr: CudaSlice<u32>,
    ctr: CudaSlice<u64>,
    /// The searches' portfolio rows: only held (the kernel reads them through `geo`).
    _cfg_rows: CudaSlice<u32>,
    status: CudaSlice<u32>,
    global: CudaSlice<u32>,
    share: CudaSlice<u32>,
    n: usize,
    to_dev: u64,
    from_dev: u64,
    bytes: u64,
    pub image_origin: &'static str,
    /// Where the set-up's time went (`--stats`).
    pub setup: GpuSetup,
}

/// The device memory is freed as the fields drop, and cudarc frees a buffer (`cuMemFreeAsync`)
/// without making its context current: an engine dropped on a thread that never used the GPU
/// (a race drops its losers on a thread of their own) would leak every buffer and leave
/// `CUDA_ERROR_INVALID_CONTEXT` recorded in the context, where the next engine of the process
/// finds it as its own first error. So the context is made current here first.
impl Drop for CudaMemory {
    fn drop(&mut self) {
        let _ = self.ctx.bind_to_thread();
    }
}

/// A GPU's context and the search kernel loaded into it, made once per process and GPU
/// (`loaded_kernel`): a second engine in the same process (`cli_batch`, the library's caller,
/// a restart) finds them and only allocates its searches' memory.
#[derive(Clone)]
struct Loaded {
    ctx: Arc<CudaContext>,
    func: CudaFunction,
    origin: &'static str,
    /// Blocks of `32 * WARPS` threads resident per multiprocessor, and the multiprocessors.
    per_sm: usize,
    sms: usize,
    /// What making them took (zero when they were found made).
    setup: GpuSetup,
}

/// The context and kernel of GPU `gpu`, made on the first call and kept for the process.
fn loaded_kernel(gpu: u32) -> Result<Loaded, EngineError> {
    static LOADED: Mutex<Vec<(u32, Loaded)>> = Mutex::new(Vec::new());
    let mut all = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, l)) = all.iter().find(|(g, _)| *g == gpu) {
        return Ok(Loaded {
            setup: GpuSetup::default(),
            origin: "already loaded in this process",
            ..l.clone()
        });
    }
    let t0 = Instant::now();
    let (ctx, arch, sms) = open_context(gpu)?;
    let context = t0.elapsed();
    let (image, origin) = super::cache::image_of(&super::device::many_source(), "many", &arch)
        .map_err(EngineError::Device)?;
    let image_time = t0.elapsed() - context;
    let module = ctx
        .load_module(image)
        .map_err(|e| engine_error("loading the compiled kernels", e))?;
    let func = module
        .load_function("search_k")
        .map_err(|e| engine_error("kernel search_k is missing", e))?;
    let per_sm =
        func.occupancy_max_active_blocks_per_multiprocessor(32 * WARPS, 0, None)
            .map_err(|e| engine_error("querying the occupancy of search_k", e))? as usize;
    let l = Loaded {
        ctx,
        func,
        origin: origin.as_str(),
        per_sm,
        sms: sms as usize,
        setup: GpuSetup {
            context,
            image: image_time,
            module: t0.elapsed() - context - image_time,
            ..GpuSetup::default()
        },
    };
    all.push((gpu, l.clone()));
    Ok(l)
}

fn ptr<T>(s: &CudaSlice<T>, stream: &CudaStream) -> u64 {
    let (p, _sync) = s.device_ptr(stream);
    p
}

fn up<T: cudarc::driver::DeviceRepr + cudarc::driver::ValidAsZeroBits + Clone>(
    s: &Arc<CudaStream>,
    v: &[T],
) -> Result<CudaSlice<T>, EngineError> {
    if v.is_empty() {
        return s
            .alloc_zeros::<T>(1)
            .map_err(|e| engine_error("allocating device memory", e));
    }
    s.clone_htod(v)
        .map_err(|e| engine_error("uploading the program", e))
}

/// A search whose state takes more than this is of a huge program: by default at most
/// `HUGE_SEARCHES` of them run. The searches share the memory system, and past a few dozen
/// each slows almost in proportion (benchmarks/results/profiles/gpu-time-split-h200.md: qsr
/// 0125, 269 MB a search, 20 conflicts/s a search with 16, 13 with 32, 2.3 with the 448 that
/// fit on an H200; 16 proved it in 30 s, 448 not in 60 s); every other instance of the
/// benchmark set takes at most 89 MB a search and keeps the count that fits.
const HUGE_BYTES: u64 = 128 << 20;
const HUGE_SEARCHES: usize = 16;

/// The searches to run unless `--gpu-searches` says: as many as the GPU holds resident (the
/// device memory is a second limit), but `HUGE_SEARCHES` for a huge program.
fn default_searches(bytes_per_search: u64, resident: usize) -> usize {
    match bytes_per_search > HUGE_BYTES {
        true => HUGE_SEARCHES.min(resident),
        false => resident,
    }
}

impl CudaMemory {
    pub fn open(
        prog: ProgArrays,
        geo: &Geometry,
        requested: Option<usize>,
        room: usize,
        own_stream: bool,
        gpu: u32,
        configure: impl Fn(usize) -> (Vec<u32>, Vec<u32>),
    ) -> Result<CudaMemory, EngineError> {
        let t0 = Instant::now();
        let loaded = loaded_kernel(gpu)?;
        let (ctx, func, per_sm, sms) = (loaded.ctx, loaded.func, loaded.per_sm, loaded.sms);
        let origin = loaded.origin;
        let mut setup = loaded.setup;
        let kernel_ready = t0.elapsed();
        let resident = (per_sm * sms * WARPS as usize).max(1);
        let (free, _) = ctx
            .mem_get_info()
            .map_err(|e| engine_error("querying device memory", e))?;
        let budget = (free as u64 / 100 * 85).saturating_sub(prog.bytes());
        let fit = (budget / geo.bytes_per_search()) as usize;
        let default = default_searches(geo.bytes_per_search(), resident)
            .saturating_sub(room)
            .max(1);
        let mut n = requested.unwrap_or(default).min(resident).min(fit);
        if n == 0 {
            return Err(EngineError::OutOfMemory(format!(
                "one search needs {:.1} MB of device memory, {:.1} MB are free",
                geo.bytes_per_search() as f64 / 1e6,
                free as f64 / 1e6
            )));
        }
        let stream = match own_stream {
            true => ctx
                .new_stream()
                .map_err(|e| engine_error("creating a stream", e))?,
            false => ctx.default_stream(),
        };
        let s = &stream;
        let a = &prog;
        let p32 = vec![
            up(s, &a.ng_lits)?,        // 0
            up(s, &a.ng_off)?,         // 1
            up(s, &a.socc_off)?,       // 2
            up(s, &a.socc)?,           // 3
            up(s, &a.order_static)?,   // 4
            up(s, &a.img_len)?,        // 5
            up(s, &a.img_head)?,       // 6
            up(s, &a.scc)?,            // 7
            up(s, &a.cyc_atoms)?,      // 8
            up(s, &a.sup_head)?,       // 9
            up(s, &a.sup_rule)?,       // 10
            up(s, &a.hsup_off)?,       // 11
            up(s, &a.hsup)?,           // 12
            up(s, &a.dep_off)?,        // 13
            up(s, &a.dep_sup)?,        // 14
            up(s, &a.rule_body)?,      // 15
            up(s, &a.rule_body_var)?,  // 16
            up(s, &a.body_off)?,       // 17
            up(s, &a.body_items)?,     // 18
            up(s, &a.body_kind)?,      // 19
            up(s, &a.sum_off)?,        // 20
            up(s, &a.sum_lits)?,       // 21
            up(s, &a.nsums.off)?,      // 22
            up(s, &a.nsums.lits)?,     // 23
            up(s, &a.nsums.boff)?,     // 24
            up(s, &a.nsums.b)?,        // 25
            up(s, &a.nsums.occ_off)?,  // 26
            up(s, &a.nsums.occ_sum)?,  // 27
            up(s, &a.nsums.occ_role)?, // 28
        ];
        let p64 = vec![up(s, &a.img_pool)?];
        let pi64 = vec![
            up(s, &a.dep_w)?,
            up(s, &a.sum_w)?,
            up(s, &a.sum_lower)?,
            up(s, &a.nsums.w)?,     // 3
            up(s, &a.nsums.total)?, // 4
            up(s, &a.nsums.k)?,     // 5
        ];
        let p8 = up(s, &a.vkind)?;
        let q = |k: usize| ptr(&p32[k], s);
        let mut pp = ProgParams::counts(a);
        pp.ptrs = [
            q(0),
            q(1),
            q(2),
            q(3),
            q(4),
            ptr(&p8, s),
            q(5),
            q(6),
            ptr(&p64[0], s),
            q(7),
            q(8),
            q(9),
            q(10),
            q(11),
            q(12),
            q(13),
            q(14),
            ptr(&pi64[0], s),
            q(15),
            q(16),
            q(17),
            q(18),
            q(19),
            q(20),
            q(21),
            ptr(&pi64[1], s),
            ptr(&pi64[2], s),
            q(22),
            q(23),
            ptr(&pi64[3], s),
            ptr(&pi64[4], s),
            q(24),
            ptr(&pi64[5], s),
            q(25),
            q(26),
            q(27),
            q(28),
        ];
        // Another process may take device memory between the query above and this allocation
        // (two runs started together on one GPU): then half as many searches, down to one.
        let wanted = n;
        let base = loop {
            match s.alloc_zeros::<u32>((n as u64 * geo.stride) as usize) {
                Ok(base) => break base,
                Err(e) if n > 1 && e.0 == CUresult::CUDA_ERROR_OUT_OF_MEMORY => n /= 2,
                Err(e) => return Err(engine_error("allocating the searches' memory", e)),
            }
        };
        if n < wanted {
            eprintln!(
                "*** Warn : (yasmin-rs): device memory was taken meanwhile (another process?): {n} GPU searches instead of {wanted}"
            );
        }
        let hdr = s
            .alloc_zeros::<u32>(n * H_WORDS)
            .map_err(|e| engine_error("allocating device memory", e))?;
        let ctr = s
            .alloc_zeros::<u64>(n * C_WORDS)
            .map_err(|e| engine_error("allocating device memory", e))?;
        let (cfg_host, global_host) = configure(n);
        debug_assert_eq!(cfg_host.len(), n * CFG_WORDS);
        let cfg = up(s, &cfg_host)?;
        let st = s
            .alloc_zeros::<u32>(n)
            .map_err(|e| engine_error("allocating device memory", e))?;
        let global = up(s, &global_host)?;
        let share = s
            .alloc_zeros::<u32>(SHARE_SLOTS as usize * SHARE_WORDS)
            .map_err(|e| engine_error("allocating device memory", e))?;
        let mut g = GeoParams::new(geo, n as u32);
        g.share = ptr(&share, s);
        g.base = ptr(&base, s);
        g.hdr = ptr(&hdr, s);
        g.ctr = ptr(&ctr, s);
        g.cfg = ptr(&cfg, s);
        g.status = ptr(&st, s);
        g.global = ptr(&global, s);
        s.synchronize()
            .map_err(|e| engine_error("uploading the program", e))?;
        setup.memory = t0.elapsed() - kernel_ready;
        Ok(CudaMemory {
            ctx,
            stream,
            func,
            _p32: p32,
            _p64: p64,
            _pi64: pi64,
            _p8: p8,
            prog: pp,
            geo: g,
            base,
            hdr,
            ctr,
            _cfg_rows: cfg,
            status: st,
            global,
            share,
            n,
            to_dev: 0,
            from_dev: 0,
            bytes: 4 * n as u64 * geo.stride,
            image_origin: origin,
            setup,
        })
    }

    fn sync(&self, what: &str) -> Result<(), EngineError> {
        self.stream.synchronize().map_err(|e| engine_error(what, e))
    }
}

impl Memory for CudaMemory {
    fn searches(&self) -> usize {
        self.n
    }

    fn run_slice(&mut self, slice_ns: u64) -> Result<(), EngineError> {
        let mut b = self.stream.launch_builder(&self.func);
        b.arg(&self.prog);
        b.arg(&self.geo);
        b.arg(&slice_ns);
        let cfg = LaunchConfig {
            grid_dim: ((self.n as u32).div_ceil(WARPS), 1, 1),
            block_dim: (32 * WARPS, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: search_k takes (Prog, Geo, u64) by value; every address in them is a live
        // buffer of self (the invariant).
        unsafe { b.launch(cfg) }.map_err(|e| engine_error("launching search_k", e))?;
        self.sync("the search failed on the GPU")
    }

    fn global(&mut self) -> Result<[u32; GLOBAL_READ], EngineError> {
        let mut w = [0u32; GLOBAL_READ];
        self.stream
            .memcpy_dtoh(&self.global.slice(0..GLOBAL_READ), &mut w)
            .map_err(|e| engine_error("reading the search flags", e))?;
        self.sync("reading the search flags")?;
        self.from_dev += 4 * GLOBAL_READ as u64;
        Ok(w)
    }

    fn clear_global(&mut self) -> Result<(), EngineError> {
        // The words after STOP only grow (the sharing ring's head, the cube counters).
        self.stream
            .memcpy_htod(&[0u32; 3], &mut self.global.slice_mut(0..=g::STOP))
            .map_err(|e| engine_error("writing the search flags", e))?;
        self.to_dev += 12;
        Ok(())
    }

    fn statuses(&mut self) -> Result<Vec<u32>, EngineError> {
        let mut v = vec![0u32; self.n];
        self.stream
            .memcpy_dtoh(&self.status.slice(0..self.n), &mut v)
            .map_err(|e| engine_error("reading the search statuses", e))?;
        self.sync("reading the search statuses")?;
        self.from_dev += 4 * self.n as u64;
        Ok(v)
    }

    fn header_word(&mut self, sid: usize, w: usize) -> Result<u32, EngineError> {
        let mut v = [0u32; 1];
        let i = sid * H_WORDS + w;
        self.stream
            .memcpy_dtoh(&self.hdr.slice(i..i + 1), &mut v)
            .map_err(|e| engine_error("reading a search header", e))?;
        self.sync("reading a search header")?;
        self.from_dev += 4;
        Ok(v[0])
    }

    fn set_status(&mut self, sid: usize, st: u32) -> Result<(), EngineError> {
        let i = sid * H_WORDS;
        self.stream
            .memcpy_htod(&[st], &mut self.hdr.slice_mut(i..i + 1))
            .map_err(|e| engine_error("writing a search header", e))?;
        self.stream
            .memcpy_htod(&[st], &mut self.status.slice_mut(sid..sid + 1))
            .map_err(|e| engine_error("writing a search status", e))?;
        self.to_dev += 8;
        Ok(())
    }

    fn model_bits(&mut self, sid: usize, n: usize) -> Result<Vec<u32>, EngineError> {
        let at = (sid as u64 * self.geo.stride + self.geo.o[SCRATCH] as u64) as usize;
        let mut v = vec![0u32; n];
        self.stream
            .memcpy_dtoh(&self.base.slice(at..at + n), &mut v)
            .map_err(|e| engine_error("reading a model", e))?;
        self.sync("reading a model")?;
        self.from_dev += 4 * n as u64;
        Ok(v)
    }

    fn counters(&mut self) -> Result<Vec<u64>, EngineError> {
        let mut v = vec![0u64; self.ctr.len()];
        self.stream
            .memcpy_dtoh(&self.ctr, &mut v)
            .map_err(|e| engine_error("reading the counters", e))?;
        self.sync("reading the counters")?;
        self.from_dev += 8 * v.len() as u64;
        Ok(v)
    }

    fn share_read(&mut self, first: u32, n: u32) -> Result<Vec<u32>, EngineError> {
        let mut v = Vec::new();
        for r in ring_ranges(first, n) {
            let mut part = vec![0u32; r.len()];
            self.stream
                .memcpy_dtoh(&self.share.slice(r), &mut part)
                .map_err(|e| engine_error("reading the sharing ring", e))?;
            v.extend_from_slice(&part);
        }
        self.sync("reading the sharing ring")?;
        self.from_dev += 4 * v.len() as u64;
        Ok(v)
    }

    fn share_write(&mut self, first: u32, words: &[u32], head: u32) -> Result<(), EngineError> {
        let mut at = 0;
        for r in ring_ranges(first, (words.len() / SHARE_WORDS) as u32) {
            let len = r.len();
            self.stream
                .memcpy_htod(&words[at..at + len], &mut self.share.slice_mut(r))
                .map_err(|e| engine_error("writing the sharing ring", e))?;
            at += len;
        }
        let h = g::SHARE_HEAD;
        self.stream
            .memcpy_htod(&[head], &mut self.global.slice_mut(h..h + 1))
            .map_err(|e| engine_error("writing the sharing ring", e))?;
        self.sync("writing the sharing ring")?;
        self.to_dev += 4 * (words.len() as u64 + 1);
        Ok(())
    }

    fn write_global(&mut self, at: usize, words: &[u32]) -> Result<(), EngineError> {
        self.stream
            .memcpy_htod(words, &mut self.global.slice_mut(at..at + words.len()))
            .map_err(|e| engine_error("writing the global words", e))?;
        self.to_dev += 4 * words.len() as u64;
        Ok(())
    }

    fn reset(&mut self, global: &[u32]) -> Result<(), EngineError> {
        let s = &self.stream;
        let zero = |e| engine_error("resetting the searches", e);
        s.memset_zeros(&mut self.base).map_err(zero)?;
        s.memset_zeros(&mut self.hdr).map_err(zero)?;
        s.memset_zeros(&mut self.status).map_err(zero)?;
        s.memset_zeros(&mut self.share).map_err(zero)?;
        s.memcpy_htod(global, &mut self.global).map_err(zero)?;
        self.to_dev += 4 * global.len() as u64;
        self.sync("resetting the searches")
    }

    fn traffic(&self) -> (u64, u64) {
        (self.to_dev, self.from_dev)
    }

    fn memory_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_programs_run_few_searches() {
        assert_eq!(default_searches(36 << 20, 2112), 2112);
        assert_eq!(default_searches(HUGE_BYTES, 2112), 2112);
        assert_eq!(default_searches(269 << 20, 2112), HUGE_SEARCHES);
        assert_eq!(default_searches(269 << 20, 8), 8);
    }
}
