# cython: language_level=3
"""Random draws from numpy's bit generators for the card kernels (lowball, shootout, whole shootouts).

Header-only: every function is ``cdef inline``. The streams come from
oddsmith.sampling (one SeedSequence child per fixed-size chunk), so the same
seed gives the same figures whatever the number of workers.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t


cdef inline bitgen_t* cs_bitgen(object bit_generator) except NULL:
    """The C state of a numpy BitGenerator (its capsule)."""
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef inline uint32_t cs_below(bitgen_t* bg, uint32_t n) noexcept nogil:
    """Uniform integer in [0, n) without bias (Lemire's multiply-and-reject)."""
    cdef uint64_t m = <uint64_t>bg.next_uint32(bg.state) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = <uint64_t>bg.next_uint32(bg.state) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline void cs_shuffle(uint8_t* cards, int n, bitgen_t* bg) noexcept nogil:
    """Fisher-Yates shuffle of ``cards[0:n]`` in place."""
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1):
        j = i + <int>cs_below(bg, <uint32_t>(n - i))
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
