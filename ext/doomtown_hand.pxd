# cython: language_level=3
"""Doomtown: Weird West Edition poker hand evaluation core (header-only).

Every function here is ``cdef inline ... noexcept nogil`` and touches no
Python object, so any kernel in ext/ can ``cimport doomtown_hand`` and call it
per hand; there is no runtime module. The rules are those of
``oddsmith/rules/doomtown.py`` (Rulebook "Poker Hand Ranks", "Tied Hand Ranks",
"Cheatin'", "Jokers"); ``tests/test_hand_kernel.py`` checks every function
against the brute-force reference in ``tests/reference_doomtown.py``.

Encoding
--------
* Card code: ``(value - 1) * 4 + suit`` for valued cards (0..51; value 1..13,
  aces low; suit spades=0, hearts=1, diamonds=2, clubs=3); ``DT_JOKER`` (52)
  for a joker. Hands are ``const uint8_t*`` arrays of ``n`` codes, 5 <= n <= 15,
  at most 2 jokers, any duplicates.
* Key (``int64_t``): ``rank << 20 | f0 << 16 | f1 << 12 | f2 << 8 | f3 << 4 | f4``
  where f0..f4 are the five values in the rank's tie-break order (largest
  group first then by value for pairs/sets/full houses/quads; from the top
  for high card, flush and straights). Larger key = better shootout hand,
  smaller key = better lowball hand; equal keys tie. Key 0 means "no hand"
  (no legal five exists). ``key >> 20`` is the hand rank 1..11.
* Legal: a five whose valued cards are pairwise distinct (jokers never make a
  hand cheatin'). The best legal five of a multiset is the best five of its
  de-duplicated set; none exists when fewer than five distinct cards
  (jokers counted) are held.

API (all noexcept nogil)
------------------------
Shootout (higher wins):
  int64_t dt_best_key(const uint8_t* codes, int n, int64_t* legal_key)
      Best key of any legality (returned) and best legal key (*legal_key, 0
      when none). Cheatin' iff legal_key != key. Hot path: no card selection.
  int64_t dt_key5(const uint8_t* codes, int* cheatin)
      Key of exactly five cards (jokers take their best identity) and whether
      they are cheatin'. Fast 5-card path.
Lowball (lower wins; jokers take the identity giving the lowest hand):
  int64_t dt_low5(const uint8_t* codes, uint8_t* ident)
      Key of exactly five cards; ident (may be NULL) receives the identity each
      card counts as (jokers resolved). Cheatin' iff two valued cards are equal.
  int64_t dt_low_key(const uint8_t* codes, int n, int64_t* legal_key)
      Lowest key of any legality over all five-card subsets (returned) and
      lowest legal key (*legal_key, 0 when none).
Full results with the five cards kept:
  void dt_evaluate(const uint8_t* codes, int n, bint lowball, DtHand* best, DtHand* legal)
      Both results for either mode. ``best.cheatin`` is 0 whenever a legal
      five ties the best key (the legal five is then reported as best).
      ``legal.key == 0`` when no legal five exists.
  void dt_select(const uint8_t* codes, int n, int64_t key, bint legal, DtHand* out)
      Shootout only: rebuild the five cards achieving ``key`` (as returned by
      dt_best_key) from the hand, preferring distinct cards (legal=1 demands them).
  void dt_fill_low(const uint8_t* codes, uint32_t mask, int64_t key, DtHand* out)
      Lowball only: the DtHand for the five positions in ``mask`` (e.g. from dt_low_search).
  int64_t dt_low_search(const uint8_t* codes, int n, int64_t* legal_key, uint32_t* any_mask, uint32_t* legal_mask)
      dt_low_key plus the positions (bit masks, may be NULL) of the lowest fives.
Building blocks (for kernels that keep their own counts):
  void dt_count(const uint8_t* codes, int n, DtCounts* h)        codes must be 0..52
  DtAcc, dt_acc_clear(a), dt_acc_add(a, code), dt_acc_add_bits(a, vbit4, sbit, sinc),
  dt_acc_close(a, n, h, distinct)
      dt_count card by card (e.g. while dealing); the accumulator stays in registers.
  int64_t dt_best_key_counts(const DtCounts* h, const uint8_t* codes, int n, int64_t* legal_key)
  int64_t dt_best_key_acc(const DtAcc* a, const uint8_t* codes, int n, int64_t* legal_key)
      dt_best_key from counts already made.
  bint dt_legal_as_well_ge(const uint16_t* legal_ge, int jokers, int64_t key)
      dt_legal_as_well from dt_legal_counts' out.ge (lookups instead of recomputing).
  int dt_legal_counts(const DtCounts* h, DtCounts* out)          returns distinct cards + jokers
  int64_t dt_max_key(const DtCounts* h, const uint8_t* codes, int n, bint legal)
      Best key from counts (codes are read only for a flush built on duplicates).
  bint dt_legal_as_well(const DtCounts* h, int64_t key)
      Can the best key's five be made from distinct cards? (False: evaluate the legal counts.)
  bint dt_is_legal(const uint8_t* codes, int n)
  unsigned int dt_straight_lows(unsigned int values, int jokers)
  int dt_hibit(unsigned int x), dt_lobit(x), dt_popcount(x); DT_BIT(v)

Cost (one core here, see scripts/bench_hands.py): counting ~2 ns a card, a
best-key evaluation ~15-20 ns; dt_best_key on 7 cards ~45 ns with the legal
key (about 400 instructions on the benchmark's stacked deck, callgrind). Lowball beyond five cards enumerates the C(n, 5) subsets (n = 7: ~1 us).
Thread safety: no global state; call from any number of threads.
"""
from libc.stdint cimport int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.string cimport memset

cdef extern from *:
    """
    #include <string.h>
    #if defined(_MSC_VER)
    #include <intrin.h>
    static __inline int dt_hibit(unsigned int x) { unsigned long i; _BitScanReverse(&i, x); return (int)i; }
    static __inline int dt_lobit(unsigned int x) { unsigned long i; _BitScanForward(&i, x); return (int)i; }
    static __inline int dt_popcount(unsigned int x) { int c = 0; while (x) { x &= x - 1; c++; } return c; }
    #else
    static inline int dt_hibit(unsigned int x) { return 31 - __builtin_clz(x); }
    static inline int dt_lobit(unsigned int x) { return __builtin_ctz(x); }
    static inline int dt_popcount(unsigned int x) { x = x - ((x >> 1) & 0x55555555u); x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u); x = (x + (x >> 4)) & 0x0F0F0F0Fu; return (int)((x * 0x01010101u) >> 24); }
    #endif
    #define DT_BIT(v) (1u << (v))
    /* why: no popcnt instruction without -mpopcnt; one SWAR pass counts all four suit lanes
       (16 bits each) of a packed suit mask at once */
    static inline unsigned long long dt_lane_popcount(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ull);
        x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
        return (x + (x >> 8)) & 0x00FF00FF00FF00FFull; }
    /* the four per-suit counts (bytes, 0..15) as one word, whatever the byte order */
    static inline unsigned int dt_load4(const unsigned char* p) { unsigned int x; memcpy(&x, p, 4); return x; }
    /* per-code lookups for dt_count: value bit, value bit in its suit's 16-bit lane, a
       suit-count increment (8-bit lane per suit; bit 32 counts jokers), and the value bit in
       each of four 16-bit lanes (the count masks' carry chain runs in one register) */
    static const unsigned short dt_vbit[53] = {2, 2, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 16, 16, 16, 16, 32, 32, 32, 32, 64, 64, 64, 64, 128, 128, 128, 128, 256, 256, 256, 256, 512, 512, 512, 512, 1024, 1024, 1024, 1024, 2048, 2048, 2048, 2048, 4096, 4096, 4096, 4096, 8192, 8192, 8192, 8192, 0};
    static const unsigned long long dt_sbit[53] = {0x2ull, 0x20000ull, 0x200000000ull, 0x2000000000000ull, 0x4ull, 0x40000ull, 0x400000000ull, 0x4000000000000ull, 0x8ull, 0x80000ull, 0x800000000ull, 0x8000000000000ull, 0x10ull, 0x100000ull, 0x1000000000ull, 0x10000000000000ull, 0x20ull, 0x200000ull, 0x2000000000ull, 0x20000000000000ull, 0x40ull, 0x400000ull, 0x4000000000ull, 0x40000000000000ull, 0x80ull, 0x800000ull, 0x8000000000ull, 0x80000000000000ull, 0x100ull, 0x1000000ull, 0x10000000000ull, 0x100000000000000ull, 0x200ull, 0x2000000ull, 0x20000000000ull, 0x200000000000000ull, 0x400ull, 0x4000000ull, 0x40000000000ull, 0x400000000000000ull, 0x800ull, 0x8000000ull, 0x80000000000ull, 0x800000000000000ull, 0x1000ull, 0x10000000ull, 0x100000000000ull, 0x1000000000000000ull, 0x2000ull, 0x20000000ull, 0x200000000000ull, 0x2000000000000000ull, 0ull};
    static const unsigned long long dt_sinc[53] = {0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x1u, 0x100u, 0x10000u, 0x1000000u, 0x100000000ull};
    static const unsigned long long dt_vbit4[53] = {0x2000200020002ull, 0x2000200020002ull, 0x2000200020002ull, 0x2000200020002ull, 0x4000400040004ull, 0x4000400040004ull, 0x4000400040004ull, 0x4000400040004ull, 0x8000800080008ull, 0x8000800080008ull, 0x8000800080008ull, 0x8000800080008ull, 0x10001000100010ull, 0x10001000100010ull, 0x10001000100010ull, 0x10001000100010ull, 0x20002000200020ull, 0x20002000200020ull, 0x20002000200020ull, 0x20002000200020ull, 0x40004000400040ull, 0x40004000400040ull, 0x40004000400040ull, 0x40004000400040ull, 0x80008000800080ull, 0x80008000800080ull, 0x80008000800080ull, 0x80008000800080ull, 0x100010001000100ull, 0x100010001000100ull, 0x100010001000100ull, 0x100010001000100ull, 0x200020002000200ull, 0x200020002000200ull, 0x200020002000200ull, 0x200020002000200ull, 0x400040004000400ull, 0x400040004000400ull, 0x400040004000400ull, 0x400040004000400ull, 0x800080008000800ull, 0x800080008000800ull, 0x800080008000800ull, 0x800080008000800ull, 0x1000100010001000ull, 0x1000100010001000ull, 0x1000100010001000ull, 0x1000100010001000ull, 0x2000200020002000ull, 0x2000200020002000ull, 0x2000200020002000ull, 0x2000200020002000ull, 0x0ull};
    """
    unsigned int DT_BIT(int v) noexcept nogil
    const unsigned short* dt_vbit
    const unsigned long long* dt_sbit
    const unsigned long long* dt_sinc
    const unsigned long long* dt_vbit4
    int dt_hibit(unsigned int x) noexcept nogil
    int dt_lobit(unsigned int x) noexcept nogil
    int dt_popcount(unsigned int x) noexcept nogil
    unsigned long long dt_lane_popcount(unsigned long long x) noexcept nogil
    unsigned int dt_load4(const uint8_t* p) noexcept nogil

cdef enum:
    DT_JOKER = 52
    DT_MAX_CARDS = 15
    DT_MAX_JOKERS = 2
    DT_RANK_SHIFT = 20
    DT_ALL_VALUES = 0x3FFE        # bits 1..13
    DT_STRAIGHT_LOWS = 0x3FE      # a straight's low card is 1..9 (aces low only)
    DT_HIGH_CARD = 1
    DT_PAIR = 2
    DT_TWO_PAIR = 3
    DT_THREE_OF_A_KIND = 4
    DT_STRAIGHT = 5
    DT_FLUSH = 6
    DT_FULL_HOUSE = 7
    DT_FOUR_OF_A_KIND = 8
    DT_STRAIGHT_FLUSH = 9
    DT_FIVE_OF_A_KIND = 10
    DT_DEAD_MANS_HAND = 11

ctypedef struct DtCounts:
    # built by dt_count; jokers are counted, never placed in the masks
    uint16_t ge[6]      # ge[k]: bit v set when at least k valued cards have value v; ge[0] = all values
    uint16_t suit[4]    # bit v set when value v is held in that suit
    uint8_t scnt[4]     # valued cards held in each suit (duplicates included; distinct ones after dt_legal_counts)
    int jokers
    int dup             # 1 when two valued cards share suit and value
    int distinct        # distinct valued cards

ctypedef struct DtAcc:
    # running counts while cards arrive one at a time (dt_acc_add); dt_acc_close makes a DtCounts
    uint64_t g                        # values held at least 2, 3, 4, 5 times (16-bit lanes)
    uint64_t g1                       # values held, in all four 16-bit lanes
    uint64_t sm                       # four 16-bit suit masks
    uint64_t sc                       # suit counts (8-bit lanes 0..3) and jokers (bits 32..39)

ctypedef struct DtHand:
    int64_t key         # 0: no such hand
    int rank            # key >> 20 (0: none)
    int cheatin         # 1 when the five is cheatin'
    uint32_t kept       # bit i set when codes[i] is one of the five
    uint8_t five[5]     # the five as held (52 = joker), in tie-break order
    uint8_t ident[5]    # what each counts as (jokers resolved to a suit and value)


cdef inline void dt_acc_clear(DtAcc* a) noexcept nogil:
    a.g = 0
    a.g1 = 0
    a.sm = 0
    a.sc = 0


cdef inline void dt_acc_add(DtAcc* a, int c) noexcept nogil:
    """Count one card (code 0..52) into the accumulator."""
    dt_acc_add_bits(a, dt_vbit4[c], dt_sbit[c], dt_sinc[c])


cdef inline void dt_acc_add_bits(DtAcc* a, uint64_t b4, uint64_t bb, uint64_t inc) noexcept nogil:
    """Count one card given its table words dt_vbit4[c], dt_sbit[c], dt_sinc[c] (a kernel drawing
    from a fixed pool can look them up once per pool position)."""
    a.sc += inc
    # why: count masks by carry-propagation, no per-value counter to clear; the masks for
    # "at least 2..5" sit in one register's 16-bit lanes, so one shift moves every level up
    # and lane 0 takes "at least 1" before this card
    a.g |= ((a.g << 16) | (a.g1 & 0xFFFF)) & b4
    a.g1 |= b4
    a.sm |= bb


cdef inline void dt_acc_close(const DtAcc* a, int n, DtCounts* h, bint distinct) noexcept nogil:
    """DtCounts of the ``n`` cards counted in ``a`` (``distinct`` is kept for callers; the
    distinct count is always filled in, since the duplicate flag is derived from it)."""
    cdef uint64_t sm = a.sm, sc = a.sc, lanes
    h.ge[0] = DT_ALL_VALUES
    h.ge[1] = a.g1 & 0xFFFF
    h.ge[2] = a.g & 0xFFFF
    h.ge[3] = (a.g >> 16) & 0xFFFF
    h.ge[4] = (a.g >> 32) & 0xFFFF
    h.ge[5] = a.g >> 48
    h.suit[0] = sm & 0xFFFF
    h.suit[1] = (sm >> 16) & 0xFFFF
    h.suit[2] = (sm >> 32) & 0xFFFF
    h.suit[3] = sm >> 48
    h.scnt[0] = sc & 0xFF
    h.scnt[1] = (sc >> 8) & 0xFF
    h.scnt[2] = (sc >> 16) & 0xFF
    h.scnt[3] = (sc >> 24) & 0xFF
    h.jokers = (sc >> 32) & 0xFF
    # why: a repeated card leaves the suit masks with fewer bits than valued cards; one SWAR
    # pass after the loop is cheaper than tracking repeats card by card (and frees a register)
    lanes = dt_lane_popcount(sm)
    h.distinct = <int>((lanes * 0x0001000100010001ull) >> 48)
    h.dup = h.distinct != n - <int>((sc >> 32) & 0xFF)


cdef inline void dt_count_opt(const uint8_t* codes, int n, DtCounts* h, bint distinct) noexcept nogil:
    # why: the accumulator (count masks, the four 16-bit suit masks, the suit and joker counts
    # in 8-bit lanes) stays in registers and comes from per-code tables: no branches, no
    # shifts by variable amounts, no loads or stores besides the cards and the tables
    cdef DtAcc a
    cdef int i
    dt_acc_clear(&a)
    for i in range(n):
        dt_acc_add(&a, codes[i])
    dt_acc_close(&a, n, h, distinct)


cdef inline void dt_count(const uint8_t* codes, int n, DtCounts* h) noexcept nogil:
    """Per-value count masks, per-suit value masks and counts, jokers, duplicates."""
    dt_count_opt(codes, n, h, 1)


cdef inline int dt_legal_counts(const DtCounts* h, DtCounts* out) noexcept nogil:
    """Counts of the de-duplicated hand; returns its number of distinct cards (jokers included)."""
    cdef unsigned int a = h.suit[0], b = h.suit[1], c = h.suit[2], d = h.suit[3]
    cdef uint64_t lanes = dt_lane_popcount(a | (<uint64_t>b << 16) | (<uint64_t>c << 32) | (<uint64_t>d << 48))
    out.ge[0] = DT_ALL_VALUES
    out.ge[1] = a | b | c | d
    out.ge[2] = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    out.ge[3] = (a & b & (c | d)) | (c & d & (a | b))
    out.ge[4] = a & b & c & d
    out.ge[5] = 0
    out.suit[0] = a
    out.suit[1] = b
    out.suit[2] = c
    out.suit[3] = d
    out.scnt[0] = lanes & 0xFF
    out.scnt[1] = (lanes >> 16) & 0xFF
    out.scnt[2] = (lanes >> 32) & 0xFF
    out.scnt[3] = lanes >> 48
    out.jokers = h.jokers
    out.dup = 0
    out.distinct = <int>((lanes * 0x0001000100010001ull) >> 48)
    return out.distinct + h.jokers


cdef inline unsigned int dt_straight_lows(unsigned int m, int jokers) noexcept nogil:
    """Bit lo (1..9) set when at least 5 - jokers of the values lo..lo+4 are in mask m."""
    cdef unsigned int a = m, b = m >> 1, c = m >> 2, d = m >> 3, e = m >> 4
    cdef unsigned int s1, c1, s2, c2
    if jokers == 0:
        return a & b & c & d & e & DT_STRAIGHT_LOWS
    # why: bit-sliced 5-input adder, count = s2 + 2 * (c1 + c2), no loop over windows
    s1 = a ^ b ^ c
    c1 = (a & b) | (c & (a ^ b))
    s2 = s1 ^ d ^ e
    c2 = (s1 & d) | (e & (s1 ^ d))
    if jokers == 1:
        return c1 & c2 & DT_STRAIGHT_LOWS
    return ((c1 & c2) | ((c1 | c2) & s2)) & DT_STRAIGHT_LOWS


cdef inline int64_t dt_pack_top(unsigned int m, int k, int shift) noexcept nogil:
    """The k highest values of mask m packed into 4-bit fields from bit ``shift`` down."""
    cdef int64_t out = 0
    cdef int v
    while k > 0 and m:
        v = dt_hibit(m)
        out |= (<int64_t>v) << shift
        m ^= DT_BIT(v)
        shift -= 4
        k -= 1
    return out


cdef inline int64_t dt_flush_fields(const DtCounts* h, const uint8_t* codes, int n, int s, bint legal) noexcept nogil:
    """Fields of the best flush in suit s: jokers as kings of s, then the highest cards of s
    (duplicates count unless legal)."""
    cdef int j = h.jokers, i, v, k, shift = 16
    cdef int64_t out = 0
    cdef uint8_t cnt[14]
    for i in range(j):
        out |= (<int64_t>13) << shift
        shift -= 4
    k = 5 - j
    if legal or h.scnt[s] == dt_popcount(h.suit[s]):
        return out | dt_pack_top(h.suit[s], k, shift)
    memset(cnt, 0, 14)
    for i in range(n):
        if codes[i] < DT_JOKER and (codes[i] & 3) == s:
            cnt[(codes[i] >> 2) + 1] += 1
    v = 13
    while k > 0 and v > 0:
        if cnt[v]:
            out |= (<int64_t>v) << shift
            shift -= 4
            cnt[v] -= 1
            k -= 1
        else:
            v -= 1
    return out


cdef inline int64_t dt_max_key0(const DtCounts* h, const uint8_t* codes, int n, bint legal) noexcept nogil:
    """dt_max_key for a hand without jokers (the common case), same categories, fewer steps."""
    cdef unsigned int g1 = h.ge[1], g2 = h.ge[2], g3 = h.ge[3], g4 = h.ge[4], w, rest
    cdef int t, p, s, top
    cdef int64_t f, bestf
    # why: the four suit counts (at most 15) as bytes of one word: +123 sets a byte's top bit at 5
    cdef bint flushable = ((dt_load4(h.scnt) + 0x7B7B7B7Bu) & 0x80808080u) != 0
    if (g2 & 0x102) == 0x102 and (h.suit[0] & 0x102) == 0x102 and (h.suit[3] & 0x102) == 0x102 \
            and (h.suit[2] & 0x800):
        return (<int64_t>DT_DEAD_MANS_HAND << DT_RANK_SHIFT) | 0x8811B
    if h.ge[5]:
        t = dt_hibit(h.ge[5])
        return (<int64_t>DT_FIVE_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>t * 0x11111)
    if flushable:
        top = 0
        for s in range(4):
            if h.scnt[s] >= 5:
                w = dt_straight_lows(h.suit[s], 0)
                if w and dt_hibit(w) + 4 > top:
                    top = dt_hibit(w) + 4
        if top:
            return (<int64_t>DT_STRAIGHT_FLUSH << DT_RANK_SHIFT) | (<int64_t>top * 0x11111 - 0x1234)
    if g4:
        t = dt_hibit(g4)
        rest = g1 & ~DT_BIT(t)
        return (<int64_t>DT_FOUR_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>t * 0x11110) | dt_hibit(rest)
    if g3:
        t = dt_hibit(g3)
        rest = g2 & ~DT_BIT(t)
        if rest:
            p = dt_hibit(rest)
            return (<int64_t>DT_FULL_HOUSE << DT_RANK_SHIFT) | (<int64_t>t * 0x11100) | (<int64_t>p * 0x11)
    if flushable:
        bestf = 0
        for s in range(4):
            if h.scnt[s] >= 5:
                f = dt_flush_fields(h, codes, n, s, legal)
                if f > bestf:
                    bestf = f
        return (<int64_t>DT_FLUSH << DT_RANK_SHIFT) | bestf
    w = g1 & (g1 >> 1) & (g1 >> 2) & (g1 >> 3) & (g1 >> 4) & DT_STRAIGHT_LOWS
    if w:
        top = dt_hibit(w) + 4
        return (<int64_t>DT_STRAIGHT << DT_RANK_SHIFT) | (<int64_t>top * 0x11111 - 0x1234)
    if g3:
        t = dt_hibit(g3)
        return ((<int64_t>DT_THREE_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>t * 0x11100)
                | dt_pack_top(g1 & ~DT_BIT(t), 2, 4))
    if g2:
        t = dt_hibit(g2)
        rest = g2 & ~DT_BIT(t)
        if rest:
            p = dt_hibit(rest)
            return ((<int64_t>DT_TWO_PAIR << DT_RANK_SHIFT) | (<int64_t>t * 0x11000) | (<int64_t>p * 0x110)
                    | dt_hibit(g1 & ~DT_BIT(t) & ~DT_BIT(p)))
        return ((<int64_t>DT_PAIR << DT_RANK_SHIFT) | (<int64_t>t * 0x11000)
                | dt_pack_top(g1 & ~DT_BIT(t), 3, 8))
    return (<int64_t>DT_HIGH_CARD << DT_RANK_SHIFT) | dt_pack_top(g1, 5, 16)


cdef inline int64_t dt_max_key(const DtCounts* h, const uint8_t* codes, int n, bint legal) noexcept nogil:
    """Best shootout key from counts (any legality, or of the de-duplicated hand when ``legal``).

    Categories are tried from Dead Man's Hand down; the first that can be made
    is the answer, and each category takes its best tie-break values. Because
    every higher category was impossible, later steps may assume e.g. that no
    value plus the jokers reaches four (docs/design.md, 'The hand core')."""
    cdef int j = h.jokers, s, t, p, v, jt, jp, top, best
    cdef bint flushable
    cdef unsigned int g1 = h.ge[1], m, w, pm, rest
    cdef int64_t f, bestf
    if j == 0:
        return dt_max_key0(h, codes, n, legal)
    # Dead Man's Hand: exactly A♠ A♣ 8♠ 8♣ J♦, jokers standing in for the missing ones
    if j or (h.ge[2] & 0x102) == 0x102:
        m = (((h.suit[0] >> 1) & 1) + ((h.suit[3] >> 1) & 1) + ((h.suit[0] >> 8) & 1)
             + ((h.suit[3] >> 8) & 1) + ((h.suit[2] >> 11) & 1))
        if <int>m + j >= 5:
            return (<int64_t>DT_DEAD_MANS_HAND << DT_RANK_SHIFT) | 0x8811B
    flushable = ((dt_load4(h.scnt) + (0x7Bu + <unsigned int>j) * 0x01010101u) & 0x80808080u) != 0
    # Five of a Kind
    m = h.ge[5 - j]
    if m:
        v = dt_hibit(m)
        return (<int64_t>DT_FIVE_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>v * 0x11111)
    # Straight Flush: highest top card over the suits that hold enough cards
    top = 0
    for s in range(4 if flushable else 0):
        if h.scnt[s] + j >= 5:
            w = dt_straight_lows(h.suit[s], j)
            if w:
                t = dt_hibit(w) + 4
                if t > top:
                    top = t
    if top:
        return (<int64_t>DT_STRAIGHT_FLUSH << DT_RANK_SHIFT) | (<int64_t>top * 0x11111 - 0x1234)
    # Four of a Kind: the set, then the kicker (leftover jokers would have made five)
    m = h.ge[4 - j]
    if m:
        v = dt_hibit(m)
        rest = g1 & ~DT_BIT(v)
        p = dt_hibit(rest) if rest else 13
        return (<int64_t>DT_FOUR_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>v * 0x11110) | p
    # Full House: the three of a kind first, then the pair (Comparison Example 2)
    best = 0
    for jt in range(j + 1):
        m = h.ge[3 - jt]
        if m == 0:
            continue
        t = dt_hibit(m)
        jp = j - jt
        pm = h.ge[2 - jp if jp < 2 else 0] & ~DT_BIT(t)
        if pm == 0:
            continue
        p = dt_hibit(pm)
        if (t << 4 | p) > best:
            best = t << 4 | p
    if best:
        t = best >> 4
        p = best & 15
        return (<int64_t>DT_FULL_HOUSE << DT_RANK_SHIFT) | (<int64_t>t * 0x11100) | (<int64_t>p * 0x11)
    # Flush: all five from the top; duplicates allow it beside pairs and sets
    bestf = 0
    for s in range(4 if flushable else 0):
        if h.scnt[s] + j >= 5:
            f = dt_flush_fields(h, codes, n, s, legal)
            if f > bestf:
                bestf = f
    if bestf:
        return (<int64_t>DT_FLUSH << DT_RANK_SHIFT) | bestf
    # Straight: aces low only (A-2-3-4-5 counts, 10-J-Q-K-A does not)
    w = dt_straight_lows(g1, j)
    if w:
        top = dt_hibit(w) + 4
        return (<int64_t>DT_STRAIGHT << DT_RANK_SHIFT) | (<int64_t>top * 0x11111 - 0x1234)
    # Three of a Kind: jokers join the highest value they can lift to three
    m = h.ge[3 - j]
    if m:
        t = dt_hibit(m)
        return ((<int64_t>DT_THREE_OF_A_KIND << DT_RANK_SHIFT) | (<int64_t>t * 0x11100)
                | dt_pack_top(g1 & ~DT_BIT(t), 2, 4))
    # Two Pair (no jokers left here: a joker beside a pair makes three of a kind)
    m = h.ge[2]
    if m & (m - 1):
        t = dt_hibit(m)
        p = dt_hibit(m & ~DT_BIT(t))
        return ((<int64_t>DT_TWO_PAIR << DT_RANK_SHIFT) | (<int64_t>t * 0x11000) | (<int64_t>p * 0x110)
                | dt_pack_top(g1 & ~DT_BIT(t) & ~DT_BIT(p), 1, 0))
    # Pair: a joker pairs the highest card
    m = h.ge[2 - j]
    if m:
        t = dt_hibit(m)
        return ((<int64_t>DT_PAIR << DT_RANK_SHIFT) | (<int64_t>t * 0x11000)
                | dt_pack_top(g1 & ~DT_BIT(t), 3, 8))
    return (<int64_t>DT_HIGH_CARD << DT_RANK_SHIFT) | dt_pack_top(g1, 5, 16)


cdef inline unsigned int dt_at_least(unsigned int a, unsigned int b, unsigned int c, unsigned int d, int k) noexcept nogil:
    """Values held in at least k of the four suit masks (k <= 0: every value; k >= 5: none)."""
    if k <= 0:
        return DT_ALL_VALUES
    if k == 1:
        return a | b | c | d
    if k == 2:
        return (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    if k == 3:
        return (a & b & (c | d)) | (c & d & (a | b))
    if k == 4:
        return a & b & c & d
    return 0  # no value has five distinct cards


cdef inline bint dt_legal_as_well(const DtCounts* h, int64_t key) noexcept nogil:
    """True when the five behind the best key ``key`` can also be made from distinct cards:
    the group the jokers join needs (size - jokers) distinct cards of its value, every other
    group its size. Flushes, and full houses with jokers, are left to a full legal evaluation
    (False here); False never gives a wrong answer, only a slower one."""
    cdef unsigned int a = h.suit[0], b = h.suit[1], c = h.suit[2], d = h.suit[3]
    cdef unsigned int f0 = DT_BIT((key >> 16) & 15), f2 = DT_BIT((key >> 8) & 15), f3 = DT_BIT((key >> 4) & 15)
    cdef int rank = <int>(key >> DT_RANK_SHIFT), j = h.jokers
    if rank == DT_HIGH_CARD or rank == DT_STRAIGHT or rank == DT_STRAIGHT_FLUSH or rank == DT_DEAD_MANS_HAND:
        return 1  # five different cards (a straight flush is built from the suit's distinct values)
    if rank == DT_PAIR:
        return (dt_at_least(a, b, c, d, 2 - j) & f0) != 0
    if rank == DT_TWO_PAIR and j == 0:
        return (dt_at_least(a, b, c, d, 2) & f0) != 0 and (dt_at_least(a, b, c, d, 2) & f2) != 0
    if rank == DT_THREE_OF_A_KIND:
        return (dt_at_least(a, b, c, d, 3 - j) & f0) != 0
    if rank == DT_FULL_HOUSE and j == 0:
        return (dt_at_least(a, b, c, d, 3) & f0) != 0 and (dt_at_least(a, b, c, d, 2) & f3) != 0
    if rank == DT_FOUR_OF_A_KIND:
        return (dt_at_least(a, b, c, d, 4 - j) & f0) != 0
    if rank == DT_FIVE_OF_A_KIND:
        return (dt_at_least(a, b, c, d, 5 - j) & f0) != 0
    return 0


cdef inline bint dt_legal_as_well_ge(const uint16_t* lge, int j, int64_t key) noexcept nogil:
    """dt_legal_as_well from the de-duplicated hand's count masks ``lge`` (dt_legal_counts' out.ge:
    lge[k] is dt_at_least(..., k) for k = 0..5) and the joker count."""
    cdef unsigned int f0 = DT_BIT((key >> 16) & 15)
    cdef int rank = <int>(key >> DT_RANK_SHIFT)
    if rank == DT_HIGH_CARD or rank == DT_STRAIGHT or rank == DT_STRAIGHT_FLUSH or rank == DT_DEAD_MANS_HAND:
        return 1
    if rank == DT_PAIR:
        return (lge[2 - j] & f0) != 0
    if rank == DT_TWO_PAIR and j == 0:
        return (lge[2] & f0) != 0 and (lge[2] & DT_BIT((key >> 8) & 15)) != 0
    if rank == DT_THREE_OF_A_KIND:
        return (lge[3 - j] & f0) != 0
    if rank == DT_FULL_HOUSE and j == 0:
        return (lge[3] & f0) != 0 and (lge[2] & DT_BIT((key >> 4) & 15)) != 0
    if rank == DT_FOUR_OF_A_KIND:
        return (lge[4 - j] & f0) != 0
    if rank == DT_FIVE_OF_A_KIND:
        return (lge[5 - j] & f0) != 0
    return 0


cdef inline int64_t dt_best_key(const uint8_t* codes, int n, int64_t* legal_key) noexcept nogil:
    """Best shootout key of any legality; *legal_key gets the best legal key (0: none)."""
    cdef DtAcc a
    cdef int i
    dt_acc_clear(&a)
    for i in range(n):
        dt_acc_add(&a, codes[i])
    return dt_best_key_acc(&a, codes, n, legal_key)


cdef inline int64_t dt_best_key_acc(const DtAcc* a, const uint8_t* codes, int n, int64_t* legal_key) noexcept nogil:
    """dt_best_key for cards already counted into ``a`` (a kernel that deals the cards can count
    them as they come); ``codes`` still holds the n cards (read for flushes on duplicates)."""
    cdef DtCounts h
    dt_acc_close(a, n, &h, 0)
    return dt_best_key_counts(&h, codes, n, legal_key)


cdef inline int64_t dt_best_key_counts(const DtCounts* hp, const uint8_t* codes, int n, int64_t* legal_key) noexcept nogil:
    """dt_best_key from the hand's counts (dt_count or dt_acc_close; h.distinct is not read)."""
    cdef DtCounts hl
    cdef int64_t key
    cdef int nd
    key = dt_max_key(hp, codes, n, 0)
    if not hp.dup:
        legal_key[0] = key
        return key
    # why: the de-duplicated count masks answer dt_legal_as_well's questions by lookup, and
    # they are needed anyway whenever the best five is not legal as well
    nd = dt_legal_counts(hp, &hl)
    if dt_legal_as_well_ge(hl.ge, hp.jokers, key):
        legal_key[0] = key
    elif nd < 5:
        legal_key[0] = 0
    else:
        legal_key[0] = dt_max_key(&hl, codes, n, 1)
    return key


cdef inline int64_t dt_key5(const uint8_t* codes, int* cheatin) noexcept nogil:
    """Shootout key of exactly five cards and their cheatin' flag."""
    cdef DtCounts h
    dt_count_opt(codes, 5, &h, 0)
    cheatin[0] = h.dup
    return dt_max_key(&h, codes, 5, 0)


cdef inline int64_t dt_low5(const uint8_t* codes, uint8_t* ident) noexcept nogil:
    """Lowball key of exactly five cards: each joker takes the suit and value making the hand
    lowest, tie-breaks included (Rulebook "Jokers"; docs/rules-doomtown.md, 'Jokers')."""
    cdef DtCounts h
    cdef uint8_t card[5]
    cdef int i, x, y, jsuit, first = -1, k
    cdef unsigned int S, free, m, bx, by
    cdef int64_t f, bestf
    cdef int jv[2]
    dt_count_opt(codes, 5, &h, 0)
    for i in range(5):
        card[i] = codes[i]
        if first < 0 and codes[i] < DT_JOKER:
            first = i
    if h.jokers:
        S = h.ge[1]
        free = DT_ALL_VALUES & ~S
        # why: a joker in another suit than the first valued card can never complete a flush
        jsuit = ((codes[first] & 3) + 1) & 3
        if h.ge[2]:
            # A value repeats, so no straight is possible: fresh low values add only kickers.
            jv[0] = dt_lobit(free)
            jv[1] = dt_lobit(free & ~DT_BIT(jv[0]))
        elif h.jokers == 1:
            m = free
            while m:
                x = dt_lobit(m)
                m ^= DT_BIT(x)
                if dt_straight_lows(S | DT_BIT(x), 0) == 0:
                    jv[0] = x
                    break
        else:
            bestf = 0x7FFFFFFF
            m = free
            while m:
                x = dt_lobit(m)
                bx = DT_BIT(x)
                m ^= bx
                free = m
                while free:
                    y = dt_lobit(free)
                    by = DT_BIT(y)
                    free ^= by
                    if dt_straight_lows(S | bx | by, 0):
                        continue
                    f = dt_pack_top(S | bx | by, 5, 16)
                    if f < bestf:
                        bestf = f
                        jv[0] = x
                        jv[1] = y
        k = 0
        for i in range(5):
            if card[i] >= DT_JOKER:
                card[i] = (jv[k] - 1) * 4 + jsuit
                k += 1
        dt_count_opt(card, 5, &h, 0)
    if ident != NULL:
        for i in range(5):
            ident[i] = card[i]
    return dt_max_key(&h, card, 5, 0)


cdef inline bint dt_is_legal(const uint8_t* codes, int n) noexcept nogil:
    """True when no two valued cards share suit and value."""
    cdef uint64_t seen = 0
    cdef int i
    for i in range(n):
        if codes[i] < DT_JOKER:
            if (seen >> codes[i]) & 1:
                return 0
            seen |= (<uint64_t>1) << codes[i]
    return 1


cdef inline int64_t dt_low_search(const uint8_t* codes, int n, int64_t* legal_key,
                                  uint32_t* any_mask, uint32_t* legal_mask) noexcept nogil:
    """Lowest lowball key over every five-card subset (returned) and the lowest legal one."""
    cdef int a, b, c, d, e
    cdef uint8_t sub[5]
    cdef int64_t key, best = 0, bestl = 0
    cdef uint32_t bm = 0, lm = 0
    for a in range(n - 4):
        sub[0] = codes[a]
        for b in range(a + 1, n - 3):
            sub[1] = codes[b]
            for c in range(b + 1, n - 2):
                sub[2] = codes[c]
                for d in range(c + 1, n - 1):
                    sub[3] = codes[d]
                    for e in range(d + 1, n):
                        sub[4] = codes[e]
                        key = dt_low5(sub, NULL)
                        if best == 0 or key < best:
                            best = key
                            bm = DT_BIT(a) | DT_BIT(b) | DT_BIT(c) | DT_BIT(d) | DT_BIT(e)
                        if (bestl == 0 or key < bestl) and dt_is_legal(sub, 5):
                            bestl = key
                            lm = DT_BIT(a) | DT_BIT(b) | DT_BIT(c) | DT_BIT(d) | DT_BIT(e)
    legal_key[0] = bestl
    if any_mask != NULL:
        any_mask[0] = bm
    if legal_mask != NULL:
        legal_mask[0] = lm
    return best


cdef inline int64_t dt_low_key(const uint8_t* codes, int n, int64_t* legal_key) noexcept nogil:
    """Lowest lowball key of any legality (returned) and lowest legal key (*legal_key, 0: none)."""
    cdef int64_t key
    if n == 5:
        key = dt_low5(codes, NULL)
        legal_key[0] = key if dt_is_legal(codes, 5) else 0
        return key
    return dt_low_search(codes, n, legal_key, NULL, NULL)


cdef inline void dt_select(const uint8_t* codes, int n, int64_t key, bint legal, DtHand* out) noexcept nogil:
    """Rebuild, from the hand, five cards making shootout key ``key`` (which must be the hand's
    best key of that legality): valued cards first (distinct ones first; only distinct ones
    when ``legal``), jokers for what is missing, each joker given the identity it stands for."""
    cdef DtCounts h, hl
    cdef const DtCounts* hp
    cdef int rank = <int>(key >> DT_RANK_SHIFT)
    cdef int fields[5]
    cdef int i, k, v, s = -1, want, pos, su, top
    cdef uint32_t used = 0
    cdef uint64_t picked = 0
    cdef unsigned int w
    dt_count_opt(codes, n, &h, 0)
    hp = &h
    if legal:
        dt_legal_counts(&h, &hl)
        hp = &hl
    for i in range(5):
        fields[i] = (key >> (16 - 4 * i)) & 15
    if rank == DT_DEAD_MANS_HAND:
        fields[0] = 28
        fields[1] = 31
        fields[2] = 0
        fields[3] = 3
        fields[4] = 42
    elif rank == DT_STRAIGHT_FLUSH:
        top = fields[0]
        w = 0x1F << (top - 4)
        for su in range(4):
            if dt_popcount(hp.suit[su] & w) + hp.jokers >= 5:
                s = su
                break
    elif rank == DT_FLUSH:
        for su in range(4):
            if hp.scnt[su] + hp.jokers >= 5 and dt_flush_fields(hp, codes, n, su, legal) == (key & 0xFFFFF):
                s = su
                break
    out.key = key
    out.rank = rank
    out.cheatin = 0
    for k in range(5):
        pos = -1
        if rank == DT_DEAD_MANS_HAND or s >= 0:
            want = fields[k] if rank == DT_DEAD_MANS_HAND else (fields[k] - 1) * 4 + s
            for i in range(n):
                if not (used >> i) & 1 and codes[i] == want:
                    if (picked >> want) & 1 and (legal or pos >= 0):
                        continue
                    pos = i
                    if not (picked >> want) & 1:
                        break
        else:
            want = -1
            for i in range(n):
                if not (used >> i) & 1 and codes[i] < DT_JOKER and (codes[i] >> 2) + 1 == fields[k]:
                    if not (picked >> codes[i]) & 1:
                        pos = i
                        break
                    if not legal and pos < 0:
                        pos = i
        if pos < 0:
            # a joker stands in; give it an identity not yet in the five when one exists
            for i in range(n):
                if not (used >> i) & 1 and codes[i] >= DT_JOKER:
                    pos = i
                    break
            if want < 0:
                want = (fields[k] - 1) * 4
                for su in range(4):
                    if not (picked >> ((fields[k] - 1) * 4 + su)) & 1:
                        want = (fields[k] - 1) * 4 + su
                        break
            out.ident[k] = want
        else:
            out.ident[k] = codes[pos]
            if (picked >> codes[pos]) & 1:
                out.cheatin = 1
        used |= DT_BIT(pos)
        picked |= (<uint64_t>1) << out.ident[k]
        out.five[k] = codes[pos]
    out.kept = used


cdef inline void dt_clear(DtHand* out) noexcept nogil:
    cdef int k
    out.key = 0
    out.rank = 0
    out.cheatin = 0
    out.kept = 0
    for k in range(5):
        out.five[k] = 0
        out.ident[k] = 0


cdef inline void dt_fill_low(const uint8_t* codes, uint32_t mask, int64_t key, DtHand* out) noexcept nogil:
    """Lowball result for the five positions in ``mask``, listed in tie-break order."""
    cdef uint8_t sub[5]
    cdef uint8_t idn[5]
    cdef int i, k = 0, f
    cdef uint32_t taken = 0
    for i in range(DT_MAX_CARDS):
        if (mask >> i) & 1:
            sub[k] = codes[i]
            k += 1
    dt_low5(sub, idn)
    out.key = key
    out.rank = <int>(key >> DT_RANK_SHIFT)
    out.cheatin = not dt_is_legal(sub, 5)
    out.kept = mask
    # order the five like the key's fields (Dead Man's Hand cannot be a lowest hand with a choice)
    for k in range(5):
        f = (key >> (16 - 4 * k)) & 15
        for i in range(5):
            if not (taken >> i) & 1 and (idn[i] >> 2) + 1 == f:
                taken |= DT_BIT(i)
                out.five[k] = sub[i]
                out.ident[k] = idn[i]
                break


cdef inline void dt_evaluate(const uint8_t* codes, int n, bint lowball, DtHand* best, DtHand* legal) noexcept nogil:
    """Best hand of any legality and best legal hand, with the five cards kept, in either mode."""
    cdef int64_t key, lkey
    cdef uint32_t bm, lm
    dt_clear(best)
    dt_clear(legal)
    if not lowball:
        key = dt_best_key(codes, n, &lkey)
        if lkey:
            dt_select(codes, n, lkey, 1, legal)
        if lkey == key:
            best[0] = legal[0]
        else:
            dt_select(codes, n, key, 0, best)
            best.cheatin = 1
        return
    if n == 5:
        bm = 0x1F
        key = dt_low5(codes, NULL)
        lkey = key if dt_is_legal(codes, 5) else 0
        lm = bm if lkey else 0
    else:
        key = dt_low_search(codes, n, &lkey, &bm, &lm)
    if lkey:
        dt_fill_low(codes, lm, lkey, legal)
    if lkey == key:
        best[0] = legal[0]
    else:
        dt_fill_low(codes, bm, key, best)
        best.cheatin = 1


cdef inline int64_t dt_binom(int64_t n, int k) noexcept nogil:
    """C(n, k) for the small n of a deck (exact in 64 bits up to C(255, 7) and beyond what decks need)."""
    cdef int64_t r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r
