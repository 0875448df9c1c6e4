// watch.cuh — one search's watch lists: per literal a chain of pool blocks (YSM_BLOCK entries
// each, entry = (nogood ref << 32) | blocker literal), and the pool's free list.
//
// Invariant: the list of literal l holds wlen[l] entries in the blocks whead[l] -> bnext ->
// ... -> wtail[l], entry i in the (i / YSM_BLOCK)-th block at slot i % YSM_BLOCK, and exactly
// ceil(wlen[l] / YSM_BLOCK) blocks (none when empty: whead[l] = YSM_NONE); every block is in
// exactly one list or in the free list or at or past H_POOL_BUMP. So the blocks in use are at
// most (entries / YSM_BLOCK + literals with a non-empty list), plus, during the walk of a list
// (propagate.cuh), a block for each YSM_BLOCK entries moved out of it (its blocks are freed
// only at the walk's end). That sizes the pool (layout.rs, walk_slack).
//
// Each long nogood (input, length > 3, or learned, length >= 2) has exactly two entries, in
// the lists of its two watched literals (input: wpair; learned: its literals 0 and 1).

#include "common.cuh"

// Take a block (lane 0 only). YSM_NONE and H_ERR = YSM_ERR_POOL if the pool is exhausted.
YS_D u32 pool_alloc(const Geo& g, const Srch& s) {
    u32 b = s.H[YSM_H_POOL_FREE];
    if (b != YSM_NONE) {
        s.H[YSM_H_POOL_FREE] = s.bnext[b];
    } else {
        b = s.H[YSM_H_POOL_BUMP];
        if (b >= g.pool_blocks) {
            s.H[YSM_H_ERR] = YSM_ERR_POOL;
            return YSM_NONE;
        }
        s.H[YSM_H_POOL_BUMP] = b + 1;
    }
    s.bnext[b] = YSM_NONE;
    return b;
}

// Give a chain of blocks from b to its end back (any lane; lock-free push of each block).
YS_D void pool_free_chain(const Srch& s, u32 b) {
    while (b != YSM_NONE) {
        u32 nb = s.bnext[b];
        u32 h = ys_vol(s.H[YSM_H_POOL_FREE]);
        while (true) {
            s.bnext[b] = h;
            u32 seen = ys_cas(&s.H[YSM_H_POOL_FREE], h, b);
            if (seen == h) break;
            h = seen;
        }
        b = nb;
    }
}

// Append an entry to the list of l (one lane at a time: it may take a block from the pool; see
// propagate.cuh). False if the pool is exhausted.
YS_D bool watch_add(const Geo& g, const Srch& s, u32 l, u32 ref, u32 blocker) {
    u32 n = s.wlen[l];
    u32 blk;
    if (n % YSM_BLOCK == 0) {
        blk = pool_alloc(g, s);
        if (blk == YSM_NONE) return false;
        if (n == 0) {
            s.whead[l] = blk;
        } else {
            s.bnext[s.wtail[l]] = blk;
        }
        s.wtail[l] = blk;
    } else {
        blk = s.wtail[l];
    }
    s.pool[(u64)blk * YSM_BLOCK + n % YSM_BLOCK] = ((u64)ref << 32) | (u64)blocker;
    s.wlen[l] = n + 1;
    return true;
}

// Append an entry to the list of l if its last block has room (false: it needs a new block).
// Lanes may do this at once for distinct literals.
YS_D bool watch_add_in_tail(const Srch& s, u32 l, u32 ref, u32 blocker) {
    u32 n = s.wlen[l];
    if (n % YSM_BLOCK == 0) return false;
    s.pool[(u64)s.wtail[l] * YSM_BLOCK + n % YSM_BLOCK] = ((u64)ref << 32) | (u64)blocker;
    s.wlen[l] = n + 1;
    return true;
}

// Cut the list of l to its first n entries, freeing the blocks past them (one lane).
YS_D void watch_truncate(const Srch& s, u32 l, u32 n) {
    if (n == 0) {
        u32 h = s.whead[l];
        s.whead[l] = YSM_NONE;
        s.wtail[l] = YSM_NONE;
        s.wlen[l] = 0;
        pool_free_chain(s, h);
        return;
    }
    u32 keep = (n + YSM_BLOCK - 1) / YSM_BLOCK;
    u32 b = s.whead[l];
    for (u32 k = 1; k < keep; ++k) b = s.bnext[b];
    u32 rest = s.bnext[b];
    s.bnext[b] = YSM_NONE;
    s.wtail[l] = b;
    s.wlen[l] = n;
    pool_free_chain(s, rest);
}
