# cython: language_level=3
"""Helpers shared by the Shadows of the West exact and Monte Carlo kernels.

Only ctypedefs and ``cdef inline`` functions: cimported by shadows_exact.pyx,
shadows_mc.pyx and shadows_battle.pyx, no runtime module of its own.

Exact counts are unsigned 128-bit integers: every probability of the exact
engine is ``count / scale`` with ``scale`` a product of die sizes (a Test of
n dice of D faces has scale D**(2n): each die is rolled at most twice).
"""
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

cdef extern from *:
    """
    typedef unsigned __int128 oddsmith_u128;
    static inline int oddsmith_mul_ovf(oddsmith_u128 a, oddsmith_u128 b, oddsmith_u128 *r) {
        return __builtin_mul_overflow(a, b, r);
    }
    static inline int oddsmith_add_ovf(oddsmith_u128 a, oddsmith_u128 b, oddsmith_u128 *r) {
        return __builtin_add_overflow(a, b, r);
    }
    static inline unsigned long long oddsmith_hi(oddsmith_u128 x) { return (unsigned long long)(x >> 64); }
    static inline unsigned long long oddsmith_lo(oddsmith_u128 x) { return (unsigned long long)x; }
    static inline double oddsmith_ratio(oddsmith_u128 num, oddsmith_u128 den) {
        return den ? (double)((long double)num / (long double)den) : 0.0;
    }
    static inline oddsmith_u128 oddsmith_gcd(oddsmith_u128 a, oddsmith_u128 b) {
        while (b) { oddsmith_u128 t = a % b; a = b; b = t; }
        return a;
    }
    """
    ctypedef unsigned long long u128 "oddsmith_u128"
    int mul_ovf "oddsmith_mul_ovf"(u128 a, u128 b, u128 *r) nogil
    int add_ovf "oddsmith_add_ovf"(u128 a, u128 b, u128 *r) nogil
    uint64_t u128_hi "oddsmith_hi"(u128 x) nogil
    uint64_t u128_lo "oddsmith_lo"(u128 x) nogil
    double u128_ratio "oddsmith_ratio"(u128 num, u128 den) nogil
    u128 u128_gcd "oddsmith_gcd"(u128 a, u128 b) nogil


# Limits of the kernels (the Python wrappers check them before entering C).
cdef enum:
    MAX_DICE = 16          # dice in one Test after modifiers
    MAX_FACES = 12         # faces of a die (Grit Dice are D6, D8, D10)
    HDIM = MAX_FACES + 1   # highest-die index 0..MAX_FACES (0: no die / not tracked)
    JOINT = (MAX_DICE + 1) * HDIM * 2
    MAX_TABLE = 32         # length of the save-target and damage tables passed in

# Reading of the maximum-face re-roll (oddsmith.rules.shadows.RerollReading).
cdef enum:
    READING_A = 0
    READING_B = 1

# Bless / Curse on the model making a Test or Save (oddsmith.rules.shadows.Blessing).
cdef enum:
    MODE_NONE = 0
    MODE_BLESS = 1
    MODE_CURSE = 2

# Damage codes: what a Save leaves ("Damage"), in increasing severity.
cdef enum:
    DMG_NONE = 0
    DMG_SHAKEN = 1
    DMG_DOWNED = 2
    DMG_CASUALTY = 3


cdef inline void copy_rule_tables(const int32_t[::1] save_table, const int32_t[::1] damage,
                                  int *save_out, int *damage_out) noexcept nogil:
    """Copy the Save and Damage tables the wrapper passed in (from the rules model) into C arrays."""
    cdef int i
    for i in range(MAX_TABLE):
        save_out[i] = save_table[i]
        damage_out[i] = damage[i]


cdef inline int jidx(int s, int h, int o) noexcept nogil:
    """Index of (successes, highest die, any die showing the jam face) in a joint table."""
    return (s * HDIM + h) * 2 + o


cdef inline int damage_code(int score, int target, const int *damage_by_margin) noexcept nogil:
    """Damage of one Save: 0 if ``score >= target``, else the table entry for the amount failed by."""
    cdef int margin = target - score
    if margin <= 0:
        return DMG_NONE
    if margin >= MAX_TABLE:
        margin = MAX_TABLE - 1
    return damage_by_margin[margin]


cdef inline int fight_winner(int s_att, int h_att, int s_def, int h_def, int *margin) noexcept nogil:
    """Fight resolution ("Fight"): 0 Attacker wins, 1 Defender wins, -1 Draw; ``margin`` the winning margin.

    More Successes wins by the difference; equal Successes: the single highest die wins by 1; else a Draw.
    """
    if s_att != s_def:
        margin[0] = s_att - s_def if s_att > s_def else s_def - s_att
        return 0 if s_att > s_def else 1
    if h_att != h_def:
        margin[0] = 1
        return 0 if h_att > h_def else 1
    margin[0] = 0
    return -1


cdef inline int apply_damage(int start_shaken, int code, int one_worse) noexcept nogil:
    """Final damage code: a Shaken model Shaken again is Downed; ``one_worse`` (bear-hug) worsens it."""
    if code == DMG_NONE:
        return DMG_NONE
    if one_worse and code < DMG_CASUALTY:
        code += 1
    if start_shaken and code == DMG_SHAKEN:
        code = DMG_DOWNED
    return code


# ---------------------------------------------------------------------------
# Random dice for the Monte Carlo kernels
# ---------------------------------------------------------------------------

ctypedef struct DiceStream:
    bitgen_t *rng
    uint64_t buf
    int left          # 32-bit halves left in buf


cdef inline bitgen_t *stream_bitgen(object bit_generator) except NULL:
    """The C state of a numpy BitGenerator (from its capsule), for :func:`stream_open`."""
    return <bitgen_t *>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef inline void stream_open(DiceStream *st, bitgen_t *rng) noexcept nogil:
    """Start a dice stream on a numpy bit generator (no buffered bits yet)."""
    st.rng = rng
    st.buf = 0
    st.left = 0


cdef inline uint32_t stream_u32(DiceStream *st) noexcept nogil:
    if st.left == 0:
        st.buf = st.rng.next_uint64(st.rng.state)
        st.left = 2
    st.left -= 1
    cdef uint32_t v = <uint32_t>(st.buf & 0xFFFFFFFFu)
    st.buf >>= 32
    return v


cdef inline uint32_t roll_range(DiceStream *st, uint32_t r) noexcept nogil:
    """Uniform 0..r-1, exactly (Lemire's multiply-shift with rejection)."""
    cdef uint64_t m = <uint64_t>stream_u32(st) * r
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < r:
        threshold = (<uint32_t>(-r)) % r
        while low < threshold:
            m = <uint64_t>stream_u32(st) * r
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


cdef inline int roll_die(DiceStream *st, uint32_t faces) noexcept nogil:
    """Uniform 1..faces, exactly."""
    return <int>roll_range(st, faces) + 1


cdef inline void roll_and_reroll(DiceStream *st, int D, int T, int n, int reading, int free_rr,
                                 int *faces, char *rerolled) noexcept nogil:
    """Roll a Test's n dice, then its maximum-face re-rolls ("Tests").

    Each die showing its maximum grants one re-roll, spent on the lowest failing die not yet re-rolled;
    reading B: a maximum on a re-roll grants another; ``free_rr`` extra re-rolls (Skills, Gear) are spent
    the same way. Fills ``faces[0:n]`` and ``rerolled[0:n]`` (1: the die was re-rolled; Bless / Curse
    leave those dice alone). Draws: the n dice in order, then each re-roll in turn.
    """
    cdef int i, x, idx, tokens = free_rr
    for i in range(n):
        x = roll_die(st, D)
        faces[i] = x
        rerolled[i] = 0
        if x == D:
            tokens += 1
    while tokens > 0:
        idx = -1
        for i in range(n):
            if not rerolled[i] and faces[i] < T and (idx < 0 or faces[i] < faces[idx]):
                idx = i
        if idx < 0:
            break
        x = roll_die(st, D)
        faces[idx] = x
        rerolled[idx] = 1
        tokens -= 1
        if reading == READING_B and x == D:
            tokens += 1
