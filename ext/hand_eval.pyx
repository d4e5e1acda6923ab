# cython: language_level=3
"""Batch Doomtown hand evaluation: numpy arrays in, numpy arrays out, nogil loops.

The per-hand work is ``doomtown_hand.pxd``; this module only loops. Inputs are
not checked here: ``oddsmith.doomtown.evaluator`` validates them first
(codes 0..52, at most 2 jokers per hand, 5..15 cards).
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

cdef extern from *:
    """
    #if defined(_MSC_VER) && defined(_M_X64)
    #include <intrin.h>
    static __inline unsigned long long oddsmith_mul128(unsigned long long a, unsigned long long b, unsigned long long* hi) { return _umul128(a, b, hi); }
    #elif defined(__SIZEOF_INT128__)
    static inline unsigned long long oddsmith_mul128(unsigned long long a, unsigned long long b, unsigned long long* hi) {
        unsigned __int128 m = (unsigned __int128)a * b; *hi = (unsigned long long)(m >> 64); return (unsigned long long)m; }
    #else
    static unsigned long long oddsmith_mul128(unsigned long long a, unsigned long long b, unsigned long long* hi) {
        unsigned long long a0 = a & 0xFFFFFFFFull, a1 = a >> 32, b0 = b & 0xFFFFFFFFull, b1 = b >> 32;
        unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
        unsigned long long mid = (p00 >> 32) + (p01 & 0xFFFFFFFFull) + (p10 & 0xFFFFFFFFull);
        *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
        return (mid << 32) | (p00 & 0xFFFFFFFFull); }
    #endif
    """
    unsigned long long oddsmith_mul128(unsigned long long a, unsigned long long b, unsigned long long* hi) noexcept nogil


from doomtown_hand cimport (
    DT_RANK_SHIFT, DtHand, dt_best_key, dt_evaluate, dt_key5, dt_low5, dt_low_key,
)


def evaluate(const uint8_t[:, ::1] cards, const uint8_t[::1] lengths, bint lowball,
             int64_t[::1] key, uint8_t[::1] cheatin, uint8_t[:, ::1] five, uint8_t[:, ::1] ident,
             uint32_t[::1] kept, int64_t[::1] legal_key, uint8_t[:, ::1] legal_five,
             uint8_t[:, ::1] legal_ident, uint32_t[::1] legal_kept):
    """Best hand of any legality and best legal hand (key 0: none) of every row, with the
    five cards kept (as held and as counted) and the kept positions as bit masks."""
    cdef Py_ssize_t i, n = cards.shape[0]
    cdef int k
    cdef DtHand best, legal
    with nogil:
        for i in range(n):
            dt_evaluate(&cards[i, 0], lengths[i], lowball, &best, &legal)
            key[i] = best.key
            cheatin[i] = best.cheatin
            kept[i] = best.kept
            legal_key[i] = legal.key
            legal_kept[i] = legal.kept
            for k in range(5):
                five[i, k] = best.five[k]
                ident[i, k] = best.ident[k]
                legal_five[i, k] = legal.five[k]
                legal_ident[i, k] = legal.ident[k]


def evaluate_keys(const uint8_t[:, ::1] cards, const uint8_t[::1] lengths, bint lowball,
                  int64_t[::1] key, int64_t[::1] legal_key):
    """Keys only (the hot path): best key of any legality and best legal key of every row."""
    cdef Py_ssize_t i, n = cards.shape[0]
    cdef int64_t lk
    with nogil:
        if lowball:
            for i in range(n):
                key[i] = dt_low_key(&cards[i, 0], lengths[i], &lk)
                legal_key[i] = lk
        else:
            for i in range(n):
                key[i] = dt_best_key(&cards[i, 0], lengths[i], &lk)
                legal_key[i] = lk


def evaluate_five(const uint8_t[:, ::1] cards, bint lowball, int64_t[::1] key, uint8_t[::1] cheatin):
    """Exactly five cards per row: key and cheatin' flag (the 5-card fast path)."""
    cdef Py_ssize_t i, n = cards.shape[0]
    cdef int c
    with nogil:
        if lowball:
            for i in range(n):
                key[i] = dt_low5(&cards[i, 0], NULL)
                cheatin[i] = _dup5(&cards[i, 0])
        else:
            for i in range(n):
                key[i] = dt_key5(&cards[i, 0], &c)
                cheatin[i] = c


cdef inline uint8_t _dup5(const uint8_t* c) noexcept nogil:
    cdef uint64_t seen = 0
    cdef int i
    for i in range(5):
        if c[i] < 52:
            if (seen >> c[i]) & 1:
                return 1
            seen |= (<uint64_t>1) << c[i]
    return 0


ctypedef struct _Bits:
    bitgen_t* bg
    uint64_t buf
    int have


cdef inline uint32_t _next32(_Bits* r) noexcept nogil:
    # why: one 64-bit draw feeds two 32-bit ones (half the calls through the bit generator)
    if r.have:
        r.have = 0
        return <uint32_t>(r.buf >> 32)
    r.buf = r.bg.next_uint64(r.bg.state)
    r.have = 1
    return <uint32_t>r.buf


cdef inline uint32_t _bounded(_Bits* r, uint32_t rng) noexcept nogil:
    """Uniform integer in [0, rng) (Lemire's multiply-and-reject, exact)."""
    cdef uint64_t m = <uint64_t>_next32(r) * rng
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < rng:
        threshold = (<uint32_t>0 - rng) % rng
        while low < threshold:
            m = <uint64_t>_next32(r) * rng
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void _floyd_sample(bitgen_t* bg, const uint8_t* pool, int size, int k, uint64_t threshold,
                               uint8_t* hand) noexcept nogil:
    """k cards of pool[0..size-1] at distinct positions, uniformly (Floyd's algorithm: step i
    picks in 0..size-k+i, a position already taken is replaced by size-k+i). One 64-bit word
    feeds all k picks (batched multiply-and-reject, exact: Brackett-Rozinsky & Lemire 2024);
    ``threshold`` = 2**64 mod (product of the k ranges)."""
    cdef unsigned long long x, hi
    cdef int i
    cdef uint32_t pick
    cdef uint64_t taken
    while True:
        x = bg.next_uint64(bg.state)
        taken = 0
        for i in range(k):
            x = oddsmith_mul128(x, <uint64_t>(size - k + i + 1), &hi)
            pick = <uint32_t>hi
            if (taken >> pick) & 1:
                pick = size - k + i
            taken |= (<uint64_t>1) << pick
            hand[i] = pool[pick]
        # why: the leftover decides acceptance only after all k picks (rejected ~1e-8 of the time)
        if x >= threshold:
            return


def sample_rank_counts(const uint8_t[::1] deck, int hand_size, Py_ssize_t n_hands, bit_generator,
                       int64_t[::1] best_counts, int64_t[::1] legal_counts):
    """Draw ``n_hands`` hands of ``hand_size`` cards from ``deck`` (up to 64 cards; each hand a
    fresh uniform draw without replacement) and add each hand's best shootout rank to
    ``best_counts[rank]`` and its best legal rank to ``legal_counts[rank]`` (index 0: no legal
    five). Returns the sum of the best keys (a checksum). Drawing happens inside the loop, as
    in a shootout simulation."""
    cdef bitgen_t* bg = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef Py_ssize_t t
    cdef int i, size = deck.shape[0]
    cdef uint64_t bound = 1, threshold
    cdef uint8_t pool[64]
    cdef uint8_t hand[16]
    cdef int64_t key, lkey, total = 0
    for i in range(size):
        pool[i] = deck[i]
    for i in range(hand_size):
        bound *= <uint64_t>(size - hand_size + i + 1)
    # why: the batched draw needs the product of the ranges to fit in 64 bits
    if hand_size > 10 or bound == 0:
        raise ValueError("sample_rank_counts draws at most 10 cards per hand")
    threshold = (<uint64_t>0 - bound) % bound
    with bit_generator.lock, nogil:
        for t in range(n_hands):
            _floyd_sample(bg, pool, size, hand_size, threshold, hand)
            key = dt_best_key(hand, hand_size, &lkey)
            best_counts[key >> DT_RANK_SHIFT] += 1
            legal_counts[lkey >> DT_RANK_SHIFT] += 1
            total += key
    return total
