// lanes.cuh — the portability layer: the same kernel source runs as CUDA (one warp per search)
// and as plain C++ on the host (YS_EMU: one "lane" per search, src/engine/gpu/emu.rs, used by
// the tests on machines without a GPU): the integer types, the function qualifiers, the warp's
// collectives (ballot, shuffle, max, sum, prefix sums), atomics, fences and clocks.
//
// Invariant: each primitive means the same under both builds for a warp of YS_WARP lanes (one
// under YS_EMU, where a collective is the identity on its one lane and an atomic a plain
// read-modify-write: the emulation runs one search at a time).
#pragma once

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned char u8;

#ifdef YS_EMU
#include <stdint.h>
#include <time.h>
#define YS_D static inline
#define YS_D_OUT static
#define YS_WARP 1u
#define YS_LANE 0u
static inline void ys_sync() {}
static inline u32 ys_ballot(bool p) { return p ? 1u : 0u; }
static inline u32 ys_bcast(u32 x) { return x; }
static inline u32 ys_cas(u32* a, u32 c, u32 v) {
    u32 o = *a;
    if (o == c) *a = v;
    return o;
}
static inline i32 ys_cas_i(i32* a, i32 c, i32 v) {
    i32 o = *a;
    if (o == c) *a = v;
    return o;
}
static inline u32 ys_add(u32* a, u32 v) {
    u32 o = *a;
    *a += v;
    return o;
}
static inline u32 ys_popc(u32 x) { return (u32)__builtin_popcount(x); }
static inline u32 ys_ffs(u32 x) { return (u32)__builtin_ffs((int)x); }
static inline u64 ys_now_ns() {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (u64)t.tv_sec * 1000000000ull + (u64)t.tv_nsec;
}
// The clock the time split counts in (YSM_C_CY_*: only their ratios are read).
static inline u64 ys_clock() { return ys_now_ns(); }
template <class T> static inline T ys_vol(const T& x) { return x; }
static inline float ys_u2f(u32 x) {
    float f;
    __builtin_memcpy(&f, &x, 4);
    return f;
}
static inline u32 ys_f2u(float f) {
    u32 x;
    __builtin_memcpy(&x, &f, 4);
    return x;
}
#else
#define YS_D __device__ __forceinline__
// Out of line: a cold or serial step whose registers would otherwise add to the search loop's.
#define YS_D_OUT __device__ __noinline__
#define YS_WARP 32u
#define YS_LANE (threadIdx.x & 31u)
#define YS_FULL 0xffffffffu
__device__ __forceinline__ void ys_sync() { __syncwarp(YS_FULL); }
__device__ __forceinline__ u32 ys_ballot(bool p) { return __ballot_sync(YS_FULL, p); }
__device__ __forceinline__ u32 ys_bcast(u32 x) { return __shfl_sync(YS_FULL, x, 0); }
__device__ __forceinline__ u32 ys_cas(u32* a, u32 c, u32 v) { return atomicCAS(a, c, v); }
__device__ __forceinline__ i32 ys_cas_i(i32* a, i32 c, i32 v) { return atomicCAS(a, c, v); }
__device__ __forceinline__ u32 ys_add(u32* a, u32 v) { return atomicAdd(a, v); }
__device__ __forceinline__ u32 ys_popc(u32 x) { return __popc(x); }
__device__ __forceinline__ u32 ys_ffs(u32 x) { return __ffs(x); }
__device__ __forceinline__ u64 ys_now_ns() {
    u64 t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}
__device__ __forceinline__ u64 ys_clock() { return clock64(); }
template <class T> __device__ __forceinline__ T ys_vol(const T& x) { return *(const volatile T*)&x; }
__device__ __forceinline__ float ys_u2f(u32 x) { return __uint_as_float(x); }
__device__ __forceinline__ u32 ys_f2u(float f) { return __float_as_uint(f); }
#endif

// Read-modify-write of a word, atomic on the device, returning the value before: `new` is the
// value written in terms of the old one `o` and the operand `v` (the host emulation runs one
// search at a time).
#ifdef YS_EMU
#define YS_RMW(name, cuda, new) \
    YS_D u32 name(u32* a, u32 v) { \
        u32 o = *a; \
        *a = (new); \
        return o; \
    }
#else
#define YS_RMW(name, cuda, new) \
    YS_D u32 name(u32* a, u32 v) { return cuda(a, v); }
#endif
YS_RMW(ys_xchg, atomicExch, v)
YS_RMW(ys_fetch_or, atomicOr, o | v)
YS_RMW(ys_fetch_and, atomicAnd, o & v)

// The largest x over the lanes (every lane gets it).
YS_D u32 ys_max(u32 x) {
#ifdef YS_EMU
    return x;
#else
    return __reduce_max_sync(YS_FULL, x);
#endif
}

// Sum over the lanes (every lane gets it).
YS_D u32 ys_sum(u32 x) {
#ifdef YS_EMU
    return x;
#else
    return __reduce_add_sync(YS_FULL, x);
#endif
}

// x of lane src (every lane gets it).
YS_D u32 ys_shfl(u32 x, u32 src) {
#ifdef YS_EMU
    (void)src;
    return x;
#else
    return __shfl_sync(YS_FULL, x, src);
#endif
}

// The lanes whose x equals this lane's (every lane a mask with its own bit set).
YS_D u32 ys_match(u32 x) {
#ifdef YS_EMU
    (void)x;
    return 1u;
#else
    return __match_any_sync(YS_FULL, x);
#endif
}

// Bitwise or over the lanes (every lane gets it).
YS_D u32 ys_or(u32 x) {
#ifdef YS_EMU
    return x;
#else
    return __reduce_or_sync(YS_FULL, x);
#endif
}

// Lanes below this one in mask (for compaction: a lane's rank among the set lanes).
YS_D u32 ys_rank(u32 mask) {
#ifdef YS_EMU
    (void)mask;
    return 0;
#else
    return __popc(mask & ((1u << YS_LANE) - 1u));
#endif
}

// Atomic add on a 64-bit signed counter; the value before.
YS_D i64 ys_fetch_add_i64(i64* a, i64 v) {
#ifdef YS_EMU
    i64 o = *a;
    *a += v;
    return o;
#else
    return (i64)atomicAdd((unsigned long long*)a, (unsigned long long)v);
#endif
}

// Atomic add on a 64-bit signed counter.
YS_D void ys_add_i64(i64* a, i64 v) { (void)ys_fetch_add_i64(a, v); }

// Order this thread's earlier writes to global memory before its later ones, for every reader.
YS_D void ys_fence() {
#ifndef YS_EMU
    __threadfence();
#endif
}

// Inclusive prefix sum over the lanes (u32 or i64).
template <class T> YS_D T ys_scan(T x) {
#ifndef YS_EMU
    for (u32 d = 1; d < 32; d <<= 1) {
        T y = __shfl_up_sync(YS_FULL, x, d);
        if (YS_LANE >= d) x += y;
    }
#endif
    return x;
}

// x of lane src (every lane gets it).
YS_D i64 ys_shfl_i64(i64 x, u32 src) {
#ifdef YS_EMU
    (void)src;
    return x;
#else
    return __shfl_sync(YS_FULL, x, src);
#endif
}

