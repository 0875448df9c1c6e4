//! Learned-nogood deletion for the device engine: keeps the learned store bounded.
//!
//! Done on the host at a restart (every variable above level 1 unassigned, no round running):
//! one download of the learned store, its watch pairs, the reasons and the assignment; one
//! upload of the compacted store, rebuilt watch lists and remapped reasons.
//!
//! Invariant: a nogood that is the reason of an assigned variable (locked), a permanent one
//! (blocking a reported model: enumeration is incomplete-proof only while these stay), or one
//! of length <= 2 is never deleted; of the others, the longer half goes (older first among
//! equals). Surviving nogoods keep their watched literals, so the watch invariant of
//! kernels/propagate.cu still holds after the lists are rebuilt from the pairs. Only the long
//! store is compacted: the short partition of `buffers.rs` is never deleted, and its ids
//! (tagged with `ID_LBIN`/`ID_LTER`) keep their meaning.

use super::buffers::{learned_lists, Buffers};
use super::device::engine_error;
use super::layout::{st, ID_LBIN, NONE};
use crate::engine::EngineError;

/// What one reduction did (for Stats and the notes).
pub struct Reduced {
    pub deleted: u64,
    pub bytes_down: u64,
    pub bytes_up: u64,
}

fn err(e: cudarc::driver::DriverError) -> EngineError {
    engine_error("compacting the learned nogoods", e)
}

/// Delete about half of the deletable learned nogoods. `count`/`used`: learned nogoods and
/// literals stored (state words); `permanent[j]`: learned nogood j must stay (updated).
pub fn reduce(
    b: &mut Buffers,
    count: u32,
    used: u32,
    permanent: &mut Vec<bool>,
) -> Result<Reduced, EngineError> {
    let p = b.params();
    let n_input = p.n_input;
    let nv = p.num_vars as usize;
    let c = count as usize;
    let s = b.stream().clone();
    let mut off = vec![0u32; c + 1];
    let mut lits = vec![0u32; used as usize];
    let mut watch = vec![0u64; c];
    let mut reason = vec![0u32; nv.max(1)];
    let mut a = vec![0i32; nv.max(1)];
    s.memcpy_dtoh(&b.l_off.slice(..c + 1), &mut off[..])
        .map_err(err)?;
    if used > 0 {
        s.memcpy_dtoh(&b.l_lits.slice(..used as usize), &mut lits[..])
            .map_err(err)?;
    }
    if c > 0 {
        s.memcpy_dtoh(&b.lwatch.slice(..c), &mut watch[..])
            .map_err(err)?;
    }
    s.memcpy_dtoh(&b.reason, &mut reason[..]).map_err(err)?;
    s.memcpy_dtoh(&b.a, &mut a[..]).map_err(err)?;
    s.synchronize().map_err(err)?;
    let bytes_down = 4 * (c as u64 + 1 + used as u64) + 8 * c as u64 + 8 * nv as u64;

    permanent.resize(c, false);
    let mut keep = vec![true; c];
    let mut locked = vec![false; c];
    for v in 0..nv {
        let r = reason[v];
        if a[v] != 0 && r >= n_input && r < ID_LBIN && ((r - n_input) as usize) < c {
            locked[(r - n_input) as usize] = true;
        }
    }
    let len = |j: usize| off[j + 1] - off[j];
    let mut cands: Vec<usize> = (0..c)
        .filter(|&j| !permanent[j] && !locked[j] && len(j) > 2)
        .collect();
    // Longest first; the sort is stable, so older first among equal lengths.
    cands.sort_by_key(|&j| std::cmp::Reverse(len(j)));
    let del = cands.len() / 2;
    for &j in &cands[..del] {
        keep[j] = false;
    }

    let mut new_of = vec![NONE; c];
    let mut n_off = vec![0u32];
    let mut n_lits = Vec::with_capacity(lits.len());
    let mut n_watch = Vec::with_capacity(c - del);
    let mut n_perm = Vec::with_capacity(c - del);
    for j in 0..c {
        if !keep[j] {
            continue;
        }
        new_of[j] = n_watch.len() as u32;
        n_lits.extend_from_slice(&lits[off[j] as usize..off[j + 1] as usize]);
        n_off.push(n_lits.len() as u32);
        n_watch.push(watch[j]);
        n_perm.push(permanent[j]);
    }
    *permanent = n_perm;
    // Nogoods of one literal have no watches: they join no list.
    let listed: Vec<u64> = (0..n_watch.len())
        .map(|k| {
            if n_off[k + 1] - n_off[k] < 2 {
                u64::MAX
            } else {
                n_watch[k]
            }
        })
        .collect();
    let (head, next) = learned_lists(&listed, 2 * nv);
    for v in 0..nv {
        let r = reason[v];
        // Short learned nogoods (tagged ids) are neither moved nor deleted.
        if r >= n_input && r < ID_LBIN {
            let j = (r - n_input) as usize;
            reason[v] = if j < c && new_of[j] != NONE {
                n_input + new_of[j]
            } else {
                NONE // unassigned variable: its reason is never read
            };
        }
    }
    let nc = n_watch.len();
    s.memcpy_htod(&n_off, &mut b.l_off.slice_mut(..nc + 1))
        .map_err(err)?;
    if !n_lits.is_empty() {
        s.memcpy_htod(&n_lits, &mut b.l_lits.slice_mut(..n_lits.len()))
            .map_err(err)?;
    }
    if nc > 0 {
        s.memcpy_htod(&n_watch, &mut b.lwatch.slice_mut(..nc))
            .map_err(err)?;
        s.memcpy_htod(&next, &mut b.lnext.slice_mut(..2 * nc))
            .map_err(err)?;
    }
    s.memcpy_htod(&head, &mut b.lhead).map_err(err)?;
    s.memcpy_htod(&reason, &mut b.reason).map_err(err)?;
    let words = [nc as u32, n_lits.len() as u32];
    s.memcpy_htod(&words, &mut b.st.slice_mut(st::L_COUNT..st::L_USED + 1))
        .map_err(err)?;
    s.synchronize().map_err(err)?;
    let bytes_up = 4 * (nc as u64 + 1 + n_lits.len() as u64)
        + 8 * nc as u64
        + 8 * nc as u64
        + 8 * nv as u64
        + 4 * nv as u64
        + 8;
    Ok(Reduced {
        deleted: del as u64,
        bytes_down,
        bytes_up,
    })
}
