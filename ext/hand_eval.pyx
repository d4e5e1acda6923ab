# cython: language_level=3
"""Batch Doomtown hand evaluation: numpy arrays in, numpy arrays out, nogil loops.

The per-hand work is ``doomtown_hand.pxd``; this module only loops. Inputs are
not checked here: ``oddsmith.doomtown.evaluator`` validates them first
(codes 0..52, at most 2 jokers per hand, 5..15 cards).
"""
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t

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


cdef inline uint32_t _bounded(bitgen_t* bg, uint32_t rng) noexcept nogil:
    """Uniform integer in [0, rng) (Lemire's multiply-and-reject, exact)."""
    cdef uint64_t m = <uint64_t>bg.next_uint32(bg.state) * rng
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < rng:
        threshold = (<uint32_t>0 - rng) % rng
        while low < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * rng
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


def sample_rank_counts(const uint8_t[::1] deck, int hand_size, Py_ssize_t n_hands, bit_generator,
                       int64_t[::1] best_counts, int64_t[::1] legal_counts):
    """Draw ``n_hands`` hands of ``hand_size`` cards from ``deck`` (without replacement, a fresh
    shuffle each time) and add each hand's best shootout rank to ``best_counts[rank]`` and its
    best legal rank to ``legal_counts[rank]`` (index 0: no legal five). Returns the sum of the
    best keys (a checksum). Drawing happens inside the loop, as in a shootout simulation."""
    cdef bitgen_t* bg = <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")
    cdef Py_ssize_t t
    cdef int i, size = deck.shape[0], r
    cdef uint8_t tmp
    cdef uint8_t pool[64]
    cdef int64_t key, lkey, total = 0
    for i in range(size):
        pool[i] = deck[i]
    with bit_generator.lock, nogil:
        for t in range(n_hands):
            # partial Fisher-Yates: the first hand_size entries become a uniform random hand
            for i in range(hand_size):
                r = i + <int>_bounded(bg, size - i)
                tmp = pool[i]
                pool[i] = pool[r]
                pool[r] = tmp
            key = dt_best_key(pool, hand_size, &lkey)
            best_counts[key >> DT_RANK_SHIFT] += 1
            legal_counts[lkey >> DT_RANK_SHIFT] += 1
            total += key
    return total
