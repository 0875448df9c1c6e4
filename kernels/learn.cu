// learn.cu — Learning of the paper (Algorithm 1, line 8): conflict analysis in one block.
//
// Invariant: the stored nogood is a consequence of the input nogoods, the earlier learned ones
// and (for YS_SRC_INJECT / YS_SRC_DECISIONS) the nogood the host supplied; every literal of it
// holds under A, top-level literals (level 1) are left out, and exactly one literal lies on its
// highest level (the asserting literal), so after backjumping to the second highest level the
// nogood is unit. An empty result means no (further) model: st[UNSAT] = 1.
//
// res: resolution from the violated nogood on a literal of the highest level that has a reason
// (the most recently assigned one, by stamp) until one literal of that level is left — first UIP
// when stamps follow propagation order — then recursive minimisation (`minimise`). Each step
// replaces a literal by literals assigned strictly before it, so the loop ends even if
// concurrent propagation made stamps disagree with that order.
// fwd (Algorithm 4): the OR of the dependency bitmaps of the violated nogood names the decisions
// it depends on; the learned nogood is those decision literals. A level >= YS_DEPS_LEVELS is not
// tracked in the bitmaps: then this conflict falls back to res (counted in CTR_FWD_FALLBACK).
// Storage, by size like the input: a nogood of length 2 or 3 goes to the short partition
// (fixed stride, occurrence lists, never deleted) while it has room, every other one to the
// long CSR store with two watched literals (deleted by src/engine/gpu/reduce.rs).

#include "yasmin.cuh"

__device__ u64 block_or_u64(u64 x, u64* sh) {
    for (int o = 16; o > 0; o >>= 1) x |= __shfl_down_sync(0xffffffffu, x, o);
    u32 lane = threadIdx.x & 31u, wid = threadIdx.x >> 5;
    __syncthreads();
    if (lane == 0) sh[wid] = x;
    __syncthreads();
    x = (threadIdx.x < (blockDim.x >> 5)) ? sh[lane] : 0ull;
    if (wid == 0) {
        for (int o = 16; o > 0; o >>= 1) x |= __shfl_down_sync(0xffffffffu, x, o);
        if (lane == 0) sh[0] = x;
    }
    __syncthreads();
    x = sh[0];
    __syncthreads();
    return x;
}

struct LearnShared {
    u32 len, epoch, x, res, err, cnt;
};

// Add literal x (which must hold) to the nogood under analysis, unless it is top-level or its
// variable is already in.
__device__ void add_lit(const Dev& d, LearnShared* s, u32 x) {
    u32 v = lit_var(x);
    i32 a = ld_a(d, v);
    if (!holds(x, a)) {
        s->err = YS_ERR_NOT_VIOLATED;
        return;
    }
    if (level_of(a) <= 1) return;
    if (atomicExch(&d.mark[v], s->epoch) != s->epoch) {
        u32 pos = atomicAdd(&s->len, 1u);
        d.delta[pos] = x;
    }
}

__device__ u64 max_level(const Dev& d, LearnShared* s, u64* sh) {
    u64 m = 0;
    for (u32 k = threadIdx.x; k < s->len; k += blockDim.x) {
        u64 l = level_of(ld_a(d, lit_var(d.delta[k])));
        m = l > m ? l : m;
    }
    return block_max_u64(m, sh);
}

// Whether variable v0 (in the nogood, with a reason, below the highest level) is implied by the
// nogood's other literals: a depth-first walk over reasons (MiniSat's recursive minimisation,
// one thread per literal) that succeeds when every path ends in a marked variable (in the
// nogood) or a top-level one, and gives up on a decision, on a level that has no literal in the
// nogood (its chain would reach that level's decision: `levels` is the nogood's level
// signature), or after YS_MIN_NODES variables (a bound, so the proof may be missed, never
// wrong). Variables may be visited twice: the walk keeps no visited set.
#define YS_MIN_NODES 64
#define YS_MIN_STACK 32
__device__ bool implied_rec(const Dev& d, u32 v0, u32 epoch, u64 levels) {
    u32 stack[YS_MIN_STACK];
    u32 top = 0, visited = 0;
    stack[top++] = v0;
    while (top > 0) {
        u32 v = stack[--top];
        const u32* p;
        u32 n;
        ng_span(d, d.reason[v], &p, &n);
        for (u32 j = 0; j < n; ++j) {
            u32 u = lit_var(p[j]);
            if (u == v || d.mark[u] == epoch) continue;
            u32 lvl = level_of(ld_a(d, u));
            if (lvl <= 1) continue;
            if (d.reason[u] == YS_NONE || !(levels & (1ull << (lvl & 63u)))) return false;
            if (++visited > YS_MIN_NODES || top == YS_MIN_STACK) return false;
            stack[top++] = u;
        }
    }
    return true;
}

// Minimisation of a res nogood: a literal below the highest level that is implied by the
// others (implied_rec) is dropped. Every decision is made against the marks as they were before
// any drop; that is sound because reasons are acyclic (a reason's literals held before the
// literal it implied): by induction on assignment order, the earliest dropped literal is implied
// by kept ones, and so is each later one. Bit 31 of a delta entry flags a drop (literal codes
// are below 2^31); thread 0 then compacts in order.
#define YS_DROP 0x80000000u
__device__ void minimise(const Dev& d, LearnShared* s, u64* sh) {
    u64 L = max_level(d, s, sh);
    u64 levels = 0;
    for (u32 k = threadIdx.x; k < s->len; k += blockDim.x) {
        levels |= 1ull << (level_of(ld_a(d, lit_var(d.delta[k]))) & 63u);
    }
    levels = block_or_u64(levels, sh);
    for (u32 k = threadIdx.x; k < s->len; k += blockDim.x) {
        u32 x = d.delta[k];
        u32 v = lit_var(x);
        if (d.reason[v] == YS_NONE || level_of(ld_a(d, v)) == L) continue;
        if (implied_rec(d, v, s->epoch, levels)) d.delta[k] = x | YS_DROP;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        u32 j = 0;
        for (u32 k = 0; k < s->len; ++k) {
            u32 x = d.delta[k];
            if (x & YS_DROP) continue;
            d.delta[j++] = x;
        }
        d.ctr[YS_CTR_MINIMISED] += s->len - j;
        s->len = j;
    }
    __syncthreads();
}

extern "C" __global__ void learn_analyse_k(Dev d, u32 src, u32 inject_len) {
    __shared__ LearnShared s;
    __shared__ u64 sh[32];
    u32* st = d.st;
    u32 tid = threadIdx.x;
    if (tid == 0) {
        s.epoch = st[YS_ST_LEARN_EPOCH] + 1;
        st[YS_ST_LEARN_EPOCH] = s.epoch;
        s.len = 0;
        s.err = 0;
        if (src == YS_SRC_CONFLICT) d.ctr[YS_CTR_CONFLICTS] += 1;
    }
    __syncthreads();
    const u32* p;
    u32 n;
    if (src == YS_SRC_CONFLICT) {
        ng_span(d, st[YS_ST_CONFLICT], &p, &n);
    } else if (src == YS_SRC_INJECT) {
        p = d.inject;
        n = inject_len;
    } else {
        u32 cdl = st[YS_ST_CDL];
        p = d.dec_lit + 2;
        n = cdl >= 2 ? cdl - 1 : 0;
    }
    for (u32 k = tid; k < n; k += blockDim.x) add_lit(d, &s, p[k]);
    __syncthreads();

    u64 L = max_level(d, &s, sh);
    bool use_fwd = d.fwd && L < YS_DEPS_LEVELS;
    if (d.fwd && !use_fwd && tid == 0) d.ctr[YS_CTR_FWD_FALLBACK] += 1;
    if (s.err == 0 && s.len > 0 && use_fwd) {
        u64 acc[YS_DEPS_WORDS];
        for (u32 w = 0; w < YS_DEPS_WORDS; ++w) acc[w] = 0;
        for (u32 k = tid; k < s.len; k += blockDim.x) or_deps(d, lit_var(d.delta[k]), acc);
        for (u32 w = 0; w < YS_DEPS_WORDS; ++w) acc[w] = block_or_u64(acc[w], sh);
        if (tid == 0) s.len = 0;
        __syncthreads();
        u32 top = (u32)L;
        for (u32 l = 2 + tid; l <= top; l += blockDim.x) {
            if ((acc[l / 64] >> (l % 64)) & 1ull) {
                u32 pos = atomicAdd(&s.len, 1u);
                d.delta[pos] = d.dec_lit[l];
            }
        }
        __syncthreads();
    } else {
        // res: resolve on the latest literal of the highest level until it is the only one.
        while (s.err == 0) {
            L = max_level(d, &s, sh);
            if (tid == 0) s.cnt = 0;
            __syncthreads();
            u64 best = 0;
            for (u32 k = tid; k < s.len; k += blockDim.x) {
                u32 v = lit_var(d.delta[k]);
                if (level_of(ld_a(d, v)) != L) continue;
                atomicAdd(&s.cnt, 1u);
                if (d.reason[v] == YS_NONE) continue;
                u64 key = (((u64)d.stamp[v] + 1) << 32) | k;
                best = key > best ? key : best;
            }
            best = block_max_u64(best, sh);
            if (s.cnt <= 1) break;
            if (best == 0) {
                if (tid == 0) s.err = YS_ERR_NO_REASON;
                __syncthreads();
                break;
            }
            if (tid == 0) {
                u32 k = (u32)best;
                u32 x = d.delta[k];
                d.delta[k] = d.delta[s.len - 1];
                s.len -= 1;
                d.mark[lit_var(x)] = 0;
                s.x = x;
                s.res = d.reason[lit_var(x)];
                d.ctr[YS_CTR_RES_STEPS] += 1;
            }
            __syncthreads();
            ng_span(d, s.res, &p, &n);
            u32 xv = lit_var(s.x);
            for (u32 k = tid; k < n; k += blockDim.x) {
                if (lit_var(p[k]) != xv) add_lit(d, &s, p[k]);
            }
            __syncthreads();
        }
    }
    if (s.err == 0 && !use_fwd && s.len > 2) minimise(d, &s, sh);
    if (s.err != 0) {
        if (tid == 0) st[YS_ST_ERROR] = s.err;
        return;
    }
    if (s.len == 0) {
        if (tid == 0) st[YS_ST_UNSAT] = 1;
        return;
    }
    // Highest level, the second highest (the backjump level) and the asserting literal.
    L = max_level(d, &s, sh);
    u64 second = 0;
    for (u32 k = tid; k < s.len; k += blockDim.x) {
        u32 x = d.delta[k];
        u64 l = level_of(ld_a(d, lit_var(x)));
        if (l == L) s.x = x;  // unique by construction
        else second = l > second ? l : second;
    }
    second = block_max_u64(second, sh);
    // The second watch: a literal of the second highest level (watch invariant of
    // propagate.cu: after the backjump it holds at level bj and the asserting one is false at
    // bj). Any one of them will do.
    __shared__ u32 w2;
    if (tid == 0) w2 = YS_NONE;
    __syncthreads();
    for (u32 k = tid; k < s.len; k += blockDim.x) {
        u32 x = d.delta[k];
        if (x != s.x && level_of(ld_a(d, lit_var(x))) == second) atomicExch(&w2, x);
    }
    __syncthreads();
    // Where the nogood goes: the short partition (length 2 or 3, while it has room), else the
    // long CSR store with two watches.
    u32 sid = YS_NONE;
    if (s.len == 2 && st[YS_ST_LB_COUNT] < d.lb_cap) sid = YS_ID_LBIN | st[YS_ST_LB_COUNT];
    if (s.len == 3 && st[YS_ST_LT_COUNT] < d.lt_cap) sid = YS_ID_LTER | st[YS_ST_LT_COUNT];
    u32 id = st[YS_ST_L_COUNT], off = st[YS_ST_L_USED];
    if (sid == YS_NONE && (off + s.len > d.l_cap_lits || id + 1 > d.l_cap_ng)) {
        if (tid == 0) st[YS_ST_ERROR] = YS_ERR_LEARN_CAPACITY;
        return;
    }
    u32* dst = d.l_lits + off;
    if (sid != YS_NONE) {
        u32 j = sid & YS_ID_MASK;
        dst = s.len == 2 ? d.lb_lits + 2 * j : d.lt_lits + 3 * j;
    }
    float inc = __uint_as_float(st[YS_ST_ACT_INC]);
    for (u32 k = tid; k < s.len; k += blockDim.x) {
        u32 x = d.delta[k];
        dst[k] = x;
        atomicAdd(&d.act[lit_var(x)], inc);
    }
    __syncthreads();
    if (tid == 0) {
        // No round runs during this kernel, so plain pushes onto the lists are safe.
        u32 ng;
        if (sid != YS_NONE) {
            // Short partition: one occurrence node per literal.
            u32 j = sid & YS_ID_MASK;
            u32 *head = s.len == 2 ? d.lb_head : d.lt_head, *nxt = s.len == 2 ? d.lb_next : d.lt_next;
            for (u32 k = 0; k < s.len; ++k) {
                u32 node = s.len * j + k;
                nxt[node] = head[dst[k]];
                head[dst[k]] = node;
            }
            st[s.len == 2 ? YS_ST_LB_COUNT : YS_ST_LT_COUNT] = j + 1;
            d.ctr[YS_CTR_LEARNED_SHORT] += 1;
            ng = sid;
        } else {
            d.l_off[id + 1] = off + s.len;
            // Watches (nogoods of one literal need none: it is asserted at level 1 for good).
            if (s.len >= 2) {
                d.lwatch[id] = ((u64)w2 << 32) | (u64)s.x;
                d.lnext[2 * id] = d.lhead[s.x];
                d.lhead[s.x] = 2 * id;
                d.lnext[2 * id + 1] = d.lhead[w2];
                d.lhead[w2] = 2 * id + 1;
            }
            st[YS_ST_L_COUNT] = id + 1;
            st[YS_ST_L_USED] = off + s.len;
            ng = d.n_input + id;
        }
        st[YS_ST_BJ_LEVEL] = second > 1 ? (u32)second : 1u;
        st[YS_ST_ASSERT_LIT] = s.x;
        st[YS_ST_ASSERT_NG] = ng;
        d.ctr[YS_CTR_LEARNED] += 1;
        d.ctr[YS_CTR_LEARNED_LITS] += s.len;
        st[YS_ST_ACT_INC] = __float_as_uint(inc * (1.0f / 0.95f));
    }
    // Keep activities finite: rescale all of them when the increment grows large.
    if (inc > 1e20f) {
        for (u32 v = tid; v < d.num_vars; v += blockDim.x) d.act[v] *= 1e-20f;
        __syncthreads();
        if (tid == 0) st[YS_ST_ACT_INC] = __float_as_uint(inc * 1e-20f * (1.0f / 0.95f));
    }
}
