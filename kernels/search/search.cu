// search.cu — the many-searches engine: every warp owns one complete CDNL search (the paper's
// Algorithm 1 with variable decisions) and runs it for a time slice; the host launches
// `search_k` once per slice, so no round-trip per decision. The searches are the rows of a
// portfolio (src/engine/gpu/search_rows.rs): they differ in learning scheme, restart unit, sign
// policy, initial order and seed.
//
// Invariant: between slices, a search's whole state is in global memory (its header `hdr`
// included) and it is at the top of its loop; H_STATUS says whether it runs, has a model for
// the host (MODEL: a total assignment, no violated nogood, no unfounded atom; its true atoms as
// bits in `scratch`, atom v at bit v % 32 of word v / 32), must block the model the host took
// (BLOCK), or has ended (UNSAT: no further model; ERROR).

#include "cube.cuh"

// First slice: watches from the image, the VMTF queue, the units at level 1.
YS_D void search_init(const Prog& P, const Geo& g, const Srch& s) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    const u32 nv = P.num_vars, nv2 = 2 * nv;
    for (u32 l = lane; l < nv2; l += YS_WARP) {
        u32 n = P.img_len[l];
        s.wlen[l] = n;
        if (n == 0) {
            s.whead[l] = s.wtail[l] = YSM_NONE;
        } else {
            u32 h = P.img_head[l], nb = (n + YSM_BLOCK - 1) / YSM_BLOCK;
            s.whead[l] = h;
            s.wtail[l] = h + nb - 1;
            for (u32 k = 0; k + 1 < nb; ++k) s.bnext[h + k] = h + k + 1;
            s.bnext[h + nb - 1] = YSM_NONE;
        }
    }
    u64 img_words = (u64)P.img_blocks * YSM_BLOCK;
    for (u64 k = lane; k < img_words; k += YS_WARP) s.pool[k] = P.img_pool[k];
    // Native sums: nothing true, nothing false yet.
    for (u32 k = lane; k < P.n_nsum; k += YS_WARP) {
        i64* c = s.scnt + YSM_SCNT * (u64)k;
        c[0] = 0;
        c[1] = P.nsum_total[k];
        c[4] = -1;  // no scan yet
    }
    u32 n_long = P.n_input - P.first_long;
    for (u32 j = lane; j < n_long; j += YS_WARP) {
        const u32* l = P.ng_lits + P.ng_off[P.first_long + j];
        s.wpair[j] = ((u64)l[1] << 32) | (u64)l[0];
    }
    // The first decisions' order (decide_init): scratch holds it, the first decided last.
    u32 order = s.cfg[YSM_CFG_ORDER];
    for (u32 k = lane; k + 1 < nv; k += YS_WARP) {
        s.scratch[k] = order == YSM_ORDER_STATIC ? P.order_static[nv - 2 - k] : k + 1;
    }
    ys_sync();
    if (lane == 0) {
        H[YSM_H_RNG] = hash32(s.cfg[YSM_CFG_SEED] + 0x632be5abu) | 1u;
        if (order == YSM_ORDER_RANDOM) {
            for (u32 k = nv - 1; k > 1; --k) {
                u32 j = rng_next(s) % k;
                u32 t = s.scratch[k - 1];
                s.scratch[k - 1] = s.scratch[j];
                s.scratch[j] = t;
            }
        }
    }
    ys_sync();
    for (u32 k = lane; k + 1 < nv; k += YS_WARP) {
        u32 v = s.scratch[k];
        s.asg[v] = 0;
        s.phase[v] = 0;
    }
    ys_sync();
    decide_init(P, s, s.scratch);
    if (lane == 0) {
        H[YSM_H_LEVEL] = 1;
        H[YSM_H_TRAIL] = 0;
        H[YSM_H_QHEAD] = 0;
        H[YSM_H_CONFL] = YSM_NONE;
        H[YSM_H_EPOCH] = 1;
        H[YSM_H_LTOP] = 0;
        H[YSM_H_LCOUNT] = 0;
        H[YSM_H_POOL_BUMP] = P.img_blocks;
        H[YSM_H_POOL_FREE] = YSM_NONE;
        H[YSM_H_LUBY] = 0;
        u32 unit = s.cfg[YSM_CFG_RESTART];
        H[YSM_H_RESTART_LEFT] = unit ? unit * luby(0) : YSM_NONE;
        H[YSM_H_REDUCE_AT] = 2000;
        H[YSM_H_REDUCE_INC] = 300;
        H[YSM_H_ERR] = 0;
        H[YSM_H_FORCE] = 0;
        H[YSM_H_TICK] = 0;
        H[YSM_H_UFS_NEXT] = 0;
        H[YSM_H_UFS_GAP] = 1;
        H[YSM_H_CUBE] = YSM_NONE;
        H[YSM_H_BJ_EPOCH] = 0;
        H[YSM_H_BT_LEVEL] = 1;
        H[YSM_H_CUBE_OUT] = 0;
        H[YSM_H_OBJ_SEEN] = YSM_NONE;  // read the objective's bound before the first step
        H[YSM_H_CSLOT] = YSM_NONE;
        H[YSM_H_ASM_EPOCH] = g.global[YSM_G_ASM_EPOCH];
        s.lim[1] = 0;
    }
    ys_sync();
    if (s.cfg[YSM_CFG_CUBE]) cube_take(g, s);
    // Input units {l}: F l at level 1.
    for (u32 i = lane; i < P.n_units; i += YS_WARP) {
        u32 l = P.ng_lits[P.ng_off[i]];
        u32 q = lneg(l), v = lvar(q);
        i32 val = val_for(q, 1);
        i32 old = ys_cas_i(&s.asg[v], 0, val);
        if (old == 0) {
            s.reason[v] = YSM_NONE;
            if (s.cfg[YSM_CFG_LEARNING] == 1) {
                s.deps[2 * (u64)v] = 0;
                s.deps[2 * (u64)v + 1] = 0;
            }
            u32 pos = ys_add(&H[YSM_H_TRAIL], 1u);
            s.tpos[v] = pos;
            s.trail[pos] = q;
        } else if ((old > 0) != (val > 0)) {
            ys_cas(&H[YSM_H_CONFL], YSM_NONE, i);
        }
    }
    ys_sync();
    if (lane == 0) H[YSM_H_STATUS] = YSM_ST_RUN;
    ys_sync();
}

// Run one search until the deadline, a model, its end, or the global stop flag.
YS_D void search_run(const Prog& P, const Geo& g, const Srch& s, u64 deadline) {
    const u32 lane = YS_LANE;
    u32* H = s.H;
    const u32 nv2 = 2 * P.num_vars;
    const u64 c_run = ys_clock();
    // Each status is read by every lane before any lane may change it.
    u32 st = H[YSM_H_STATUS];
    ys_sync();
    if (st == YSM_ST_INIT) search_init(P, g, s);
    asm_refresh(P, g, s);
    st = H[YSM_H_STATUS];
    ys_sync();
    if (st == YSM_ST_BLOCK) bt_next_model(P, g, s);
    if (ys_vol(H[YSM_H_STATUS]) == YSM_ST_RUN) obj_refresh(P, g, s);
    while (ys_vol(H[YSM_H_STATUS]) == YSM_ST_RUN) {
        if (H[YSM_H_ERR] != 0) {
            if (lane == 0) H[YSM_H_STATUS] = YSM_ST_ERROR;
            break;
        }
        // The clock every iteration: one iteration can take milliseconds on a large program
        // (a decision scans the variables, the unfounded-set check the cyclic atoms); looked
        // at every 16, a slice of 100 ms ran 1.7 s on an H200, past the time limit. The stop
        // flag, a read of global memory, every 16.
        u32 stop = 0;
        if (lane == 0) {
            stop = ys_now_ns() >= deadline ||
                   ((++H[YSM_H_TICK] & 15u) == 0 && ys_vol(g.global[YSM_G_STOP]) != 0);
        }
        if (ys_bcast(stop)) break;
        u32 t0 = H[YSM_H_TRAIL];
        u64 c0 = ys_clock();
        bool cut = propagate(P, g, s, deadline);
        count_ticks(s, YSM_C_CY_PROP, c0);
        if (lane == 0) s.C[YSM_C_PROPS] += H[YSM_H_TRAIL] - t0;
        if (H[YSM_H_ERR] != 0) continue;
        if (cut) break;  // the slice ended inside propagation: it resumes there
        u32 confl = H[YSM_H_CONFL];
        if (confl != YSM_NONE) {
            if (lane == 0) {
                s.C[YSM_C_CONFLICTS] += 1;
                if (H[YSM_H_RESTART_LEFT] != YSM_NONE && H[YSM_H_RESTART_LEFT] > 0) H[YSM_H_RESTART_LEFT] -= 1;
            }
            ys_sync();
            if (H[YSM_H_LEVEL] <= 1) {
                if (lane == 0) H[YSM_H_STATUS] = YSM_ST_UNSAT;
                ys_sync();
                break;
            }
            if (H[YSM_H_FORCE] && max_level(P, s, confl) > H[YSM_H_BT_LEVEL]) {
                // The learned store is nearly full: restart and delete first (this conflict
                // teaches nothing; the restart undoes it, so it will be met again if it
                // matters; one at or below the backtrack level flips a decision first).
                restart_import(P, g, s, nv2);
                continue;
            }
            c0 = ys_clock();
            resolve(P, g, s, confl, false);
            count_ticks(s, YSM_C_CY_RESOLVE, c0);
            continue;
        }
        if (H[YSM_H_RESTART_LEFT] == 0 || H[YSM_H_FORCE]) {
            restart_import(P, g, s, nv2);
            // A search for cubes that has none looks for a split-off one (at level 1 only).
            if (s.cfg[YSM_CFG_CUBE] && H[YSM_H_CUBE] == YSM_NONE && H[YSM_H_BT_LEVEL] == 1) cube_take(g, s);
            continue;
        }
        if (asm_count(g) > 0) {
            u32 a = asm_next(P, g, s);
            if (a == YSM_ASM_ENDED) break;
            if (a != YSM_NONE) {
                decide(s, a);
                continue;
            }
        }
        if (H[YSM_H_CUBE] != YSM_NONE) {
            u32 a = cube_assumption(g, s);
            if (a == YSM_REFUTED) {
                cube_refuted(P, g, s, nv2);
                continue;
            }
            if (a != YSM_NONE) {
                decide(s, a);
                continue;
            }
        }
        // Read by every lane before pick_var's ys_sync, counted down by lane 0 after it: no
        // lane can see the new count and take the other branch (the warp's collectives differ).
        u32 ufs_next = H[YSM_H_UFS_NEXT];
        u32 v = pick_var(s);
        if (v == YSM_PICK_LATER) continue;  // the clock, then the walk goes on
        // Non-tight: the unfounded-set check at every total assignment, and at partial ones
        // at gaps that double while it finds nothing (reset when it finds something).
        bool check = P.ufs && (v == YSM_NONE || ufs_next == 0);
        if (check) {
            c0 = ys_clock();
            u32 r = ufs_check(P, s);
            count_ticks(s, YSM_C_CY_UFS, c0);
            if (lane == 0) {
                u32 gap = r ? 1u : (H[YSM_H_UFS_GAP] < 64 ? 2 * H[YSM_H_UFS_GAP] : 64u);
                H[YSM_H_UFS_GAP] = gap;
                H[YSM_H_UFS_NEXT] = gap;
            }
            ys_sync();
            if (H[YSM_H_ERR] != 0) continue;
            if (r == 1) {
                c0 = ys_clock();
                resolve(P, g, s, YSM_INJECT, false);
                count_ticks(s, YSM_C_CY_RESOLVE, c0);
                continue;
            }
            if (r == 2) {
                assert_loop(P, g, s);
                continue;
            }
        } else if (P.ufs && lane == 0) {
            H[YSM_H_UFS_NEXT] = ufs_next - 1;
        }
        if (v == YSM_NONE && P.obj_sum != YSM_NONE && obj_violated(P, s)) {
            obj_check(P, s, H[YSM_H_LEVEL]);  // the conflict: see objective.cuh
            continue;
        }
        if (v == YSM_NONE) {
            // The true atoms as bits in scratch (free until the host has taken the model).
            u32 nw = (P.num_atoms + 32) / 32;
            for (u32 w = lane; w < nw; w += YS_WARP) {
                u32 bits = 0;
                for (u32 j = 0; j < 32; ++j) {
                    u32 v = w * 32 + j;
                    if (v >= 1 && v <= P.num_atoms && s.asg[v] > 0) bits |= 1u << j;
                }
                s.scratch[w] = bits;
            }
            ys_sync();
            if (lane == 0) {
                H[YSM_H_STATUS] = YSM_ST_MODEL;
                s.C[YSM_C_MODELS] += 1;
                ys_add(&g.global[YSM_G_MODELS], 1u);
                if (g.stop_on_model) g.global[YSM_G_STOP] = 1;
            }
            ys_sync();
            break;
        }
        u32 l = pick_lit(P, s, v);
        cube_split(g, s, l);
        decide(s, l);
    }
    ys_sync();
    count_ticks(s, YSM_C_CY_RUN, c_run);
}

// The host looks at the searches that ended in a slice: no (further) model, an error, a core.
YS_D bool ended(u32 st) { return st == YSM_ST_UNSAT || st == YSM_ST_ERROR || st == YSM_ST_CORE; }

// Whether the search with header h runs in this slice: not while it holds a model or a core
// for the host, unless the assumptions changed since (assume.cuh), nor after its end.
YS_D bool runs(const Geo& g, const u32* h) {
    u32 st = h[YSM_H_STATUS];
    if (st == YSM_ST_UNSAT || st == YSM_ST_ERROR) return false;
    if (st == YSM_ST_MODEL || st == YSM_ST_CORE) return h[YSM_H_ASM_EPOCH] != g.global[YSM_G_ASM_EPOCH];
    return true;
}

#ifdef YS_EMU
// The host emulation: one search for at most `budget_ns` (src/engine/gpu/emu.rs), if it runs.
extern "C" void ysm_search_host(const Prog* P, const Geo* g, u32 sid, u64 budget_ns) {
    u32* H = g->hdr + (u64)sid * YSM_H_WORDS;
    if (!runs(*g, H)) return;
    Srch s = srch_of(*g, sid, H);
    u64 d0 = s.C[YSM_C_DECISIONS];
    search_run(*P, *g, s, ys_now_ns() + budget_ns);
    g->global[YSM_G_DECIDED] += (u32)(s.C[YSM_C_DECISIONS] - d0);
    g->status[sid] = H[YSM_H_STATUS];
    if (ended(H[YSM_H_STATUS])) g->global[YSM_G_ENDED] += 1;
}
#else
#define YSM_MAX_WARPS 8
// One warp per search; the header lives in shared memory during the slice.
extern "C" __global__ void search_k(Prog P, Geo g, u64 slice_ns) {
    __shared__ u32 hdr[YSM_MAX_WARPS][YSM_H_WORDS];
    u32 w = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    u32 sid = blockIdx.x * (blockDim.x >> 5) + w;
    if (sid >= g.n_searches) return;
    u32* H = hdr[w];
    u32* gh = g.hdr + (u64)sid * YSM_H_WORDS;
    if (!runs(g, gh)) return;
    for (u32 k = lane; k < YSM_H_WORDS; k += 32) H[k] = gh[k];
    ys_sync();
    u64 deadline = ys_now_ns() + slice_ns;
    Srch s = srch_of(g, sid, H);
    u64 d0 = s.C[YSM_C_DECISIONS];
    search_run(P, g, s, deadline);
    ys_sync();
    for (u32 k = lane; k < YSM_H_WORDS; k += 32) gh[k] = H[k];
    if (lane == 0) {
        // One atomic a search and slice: the host sizes its exchange by the decisions made.
        atomicAdd(&g.global[YSM_G_DECIDED], (u32)(s.C[YSM_C_DECISIONS] - d0));
        g.status[sid] = H[YSM_H_STATUS];
        if (ended(H[YSM_H_STATUS])) atomicAdd(&g.global[YSM_G_ENDED], 1u);
    }
}
#endif
