# cython: language_level=3
"""Lowball (Gamblin') kernels: exact hand distributions and Monte Carlo draws.

Hot loops only; the Python wrapper oddsmith.doomtown.lowball validates every
input before calling in. Hands are evaluated by the shared hand core
(doomtown_hand.pxd) in lowball mode: the five cards drawn are the hand, a
joker takes the identity that makes it lowest, and keys order hands exactly
as a shootout does (so the lowest key wins at lowball).

Exact distributions enumerate *value classes*: how many cards of each value
the hand holds, plus its jokers. Within a class the lowball key depends on the
suits only through a flush (all five valued cards of one suit, possible only
without jokers, since a joker takes a suit that breaks it) and Dead Man's
Hand (exactly A-spades A-clubs 8-spades 8-clubs J-diamonds). The number of
hands of each kind in a deck is a product of binomial coefficients (and, for
"no card twice", elementary symmetric polynomials of the per-suit counts), so
a deck's whole distribution costs a few thousand integer products. The
hand-by-hand enumeration over multisets of distinct cards is kept as a
second exact path to check the first.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

from card_stream cimport cs_below, cs_bitgen
from doomtown_hand cimport dt_binom, dt_low5, dt_is_legal

cdef enum:
    JOKER = 52
    NCODES = 53
    MAXDECK = 256       # largest deck the wrapper passes in
    HAND = 5
    MAX_REDRAWS = 100000  # a deal that stays identical this long never resolves (degenerate decks)
    MAXPLAYERS = 8


cdef inline uint32_t _key(const uint8_t* hand) noexcept nogil:
    # keys fit in 24 bits (rank << 20 | five 4-bit fields)
    return <uint32_t>dt_low5(hand, NULL)


cdef inline bint _cheatin(const uint8_t* hand) noexcept nogil:
    return not dt_is_legal(hand, HAND)


cdef inline int _rank(uint32_t key) noexcept nogil:
    return <int>(key >> 20)


cdef inline void _draw5(uint8_t* deck, int n, bitgen_t* bg) noexcept nogil:
    """Partial Fisher-Yates: deck[0:5] becomes a uniform 5-card draw. The deck stays a
    permutation of itself, so it need not be reset between draws."""
    cdef int i, j
    cdef uint8_t t
    for i in range(HAND):
        j = i + <int>cs_below(bg, <uint32_t>(n - i))
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


# ---------------------------------------------------------------------------
# Evaluating single hands (for the class table and for tests)
# ---------------------------------------------------------------------------

def evaluate(const uint8_t[:, ::1] hands, uint32_t[::1] keys, uint8_t[::1] cheatin):
    """Lowball key and cheatin' flag of each row of five codes."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(hands.shape[0]):
            keys[i] = _key(&hands[i, 0])
            cheatin[i] = 1 if _cheatin(&hands[i, 0]) else 0


# ---------------------------------------------------------------------------
# Exact: value classes
# ---------------------------------------------------------------------------

def exact_by_values(
    const uint8_t[::1] counts,
    const uint8_t[::1] cls_jokers,
    const uint8_t[::1] cls_pairs,
    const uint8_t[:, ::1] cls_value,
    const uint8_t[:, ::1] cls_count,
    const uint8_t[::1] cls_distinct,
    const int32_t[::1] ix_plain,
    const int32_t[::1] ix_flush,
    Py_ssize_t dmh_class,
    Py_ssize_t dmh_ix,
    const uint8_t[::1] dmh_codes,
    int64_t[::1] out_hands,
    int64_t[::1] out_cheatin,
):
    """Add, for every lowball key index, the number of 5-card hands of the deck with that
    key and how many of them are cheatin'. ``counts[c]`` = copies of code c (52 = jokers)."""
    cdef int64_t bin_v[13][6]
    cdef int64_t elem_v[13][6]
    cdef int64_t bin_vs[13][4][6]
    cdef int64_t bin_j[6]
    cdef int64_t m[4]
    cdef int v, s, k, p, j, a, b, c3
    cdef int64_t n_v, T, L, F, Fl, f, D
    cdef Py_ssize_t c
    with nogil:
        for v in range(13):
            n_v = 0
            for s in range(4):
                m[s] = counts[v * 4 + s]
                n_v += m[s]
                for k in range(6):
                    bin_vs[v][s][k] = dt_binom(m[s], k)
            for k in range(6):
                bin_v[v][k] = dt_binom(n_v, k)
            # elementary symmetric polynomials: ways to take k cards of value v, no code twice
            elem_v[v][0] = 1
            elem_v[v][1] = m[0] + m[1] + m[2] + m[3]
            elem_v[v][2] = 0
            elem_v[v][3] = 0
            for a in range(4):
                for b in range(a + 1, 4):
                    elem_v[v][2] += m[a] * m[b]
                    for c3 in range(b + 1, 4):
                        elem_v[v][3] += m[a] * m[b] * m[c3]
            elem_v[v][4] = m[0] * m[1] * m[2] * m[3]
            elem_v[v][5] = 0
        for k in range(6):
            bin_j[k] = dt_binom(counts[JOKER], k)

        for c in range(cls_jokers.shape[0]):
            j = cls_jokers[c]
            T = bin_j[j]
            if T == 0:
                continue
            L = T
            for p in range(cls_pairs[c]):
                v = cls_value[c, p] - 1
                k = cls_count[c, p]
                T *= bin_v[v][k]
                L *= elem_v[v][k]
            if T == 0:
                continue
            if j > 0:
                # a joker breaks any flush and never Dead Man's Hand: one key for the class
                out_hands[ix_plain[c]] += T
                out_cheatin[ix_plain[c]] += T - L
                continue
            F = 0
            for s in range(4):
                f = 1
                for p in range(cls_pairs[c]):
                    f *= bin_vs[cls_value[c, p] - 1][s][cls_count[c, p]]
                F += f
            # a flush of five different values is legal; with a repeated value it holds a card twice
            Fl = F if cls_distinct[c] else 0
            D = 0
            if c == dmh_class:
                D = 1
                for p in range(5):
                    D *= counts[dmh_codes[p]]
                out_hands[dmh_ix] += D
            out_hands[ix_plain[c]] += T - F - D
            out_cheatin[ix_plain[c]] += (T - L) - (F - Fl)
            out_hands[ix_flush[c]] += F
            out_cheatin[ix_flush[c]] += F - Fl


# ---------------------------------------------------------------------------
# Exact: hand by hand over multisets of distinct cards (the cross-check path)
# ---------------------------------------------------------------------------

cdef struct _Enum:
    int nd
    uint8_t code[NCODES]
    int mult[NCODES]
    uint8_t hand[HAND]
    const uint32_t* keys
    Py_ssize_t nkeys
    int64_t* out_hands
    int64_t* out_cheatin
    int missing


cdef inline Py_ssize_t _find(const uint32_t* keys, Py_ssize_t n, uint32_t key) noexcept nogil:
    cdef Py_ssize_t lo = 0, hi = n, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < n and keys[lo] == key:
        return lo
    return -1


cdef void _enum(_Enum* e, int start, int filled, int64_t weight) noexcept nogil:
    cdef int i, take, t
    cdef int64_t w
    cdef uint32_t key
    cdef Py_ssize_t ix
    for i in range(start, e.nd):
        for take in range(1, HAND - filled + 1):
            if take > e.mult[i]:
                break
            for t in range(take):
                e.hand[filled + t] = e.code[i]
            w = weight * dt_binom(e.mult[i], take)
            if filled + take == HAND:
                key = _key(e.hand)
                ix = _find(e.keys, e.nkeys, key)
                if ix < 0:
                    e.missing += 1
                    continue
                e.out_hands[ix] += w
                if _cheatin(e.hand):
                    e.out_cheatin[ix] += w
            else:
                _enum(e, i + 1, filled + take, w)


def exact_by_cards(
    const uint8_t[::1] counts,
    const uint32_t[::1] keys,
    int64_t[::1] out_hands,
    int64_t[::1] out_cheatin,
):
    """Hand-by-hand exact distribution: every multiset of distinct codes, weighted by the
    product of binomial coefficients of the copies it takes. ``keys`` is the sorted list
    of all lowball keys; returns how many hands had a key not in it (0 when consistent)."""
    cdef _Enum e
    cdef int c
    e.nd = 0
    for c in range(NCODES):
        if counts[c] > 0:
            e.code[e.nd] = <uint8_t>c
            e.mult[e.nd] = counts[c]
            e.nd += 1
    e.keys = &keys[0]
    e.nkeys = keys.shape[0]
    e.out_hands = &out_hands[0]
    e.out_cheatin = &out_cheatin[0]
    e.missing = 0
    with nogil:
        _enum(&e, 0, 0, 1)
    return e.missing


# ---------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------

cdef void _deck_loop(uint8_t* cards, int n, bitgen_t* bg, Py_ssize_t trials, int64_t* out) noexcept nogil:
    cdef Py_ssize_t t
    cdef uint32_t key
    for t in range(trials):
        _draw5(cards, n, bg)
        key = _key(cards)
        out[_rank(key)] += 1
        if _cheatin(cards):
            out[12] += 1


def simulate_deck(const uint8_t[::1] deck, object bit_generator, Py_ssize_t trials, int64_t[::1] out):
    """``trials`` lowball hands from ``deck`` (codes, at most 256). out[r] += hands of rank r
    (1..11), out[12] += cheatin' hands."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef uint8_t cards[MAXDECK]
    cdef int n = deck.shape[0]
    memcpy(cards, &deck[0], n)
    with bit_generator.lock:
        with nogil:
            _deck_loop(cards, n, bg, trials, &out[0])


cdef int _matchup_loop(uint8_t* a, int na, uint8_t* b, int nb, bitgen_t* bg, Py_ssize_t trials,
                       int64_t* out) noexcept nogil:
    cdef Py_ssize_t t
    cdef long redraws
    cdef uint32_t ka, kb
    for t in range(trials):
        _draw5(a, na, bg)
        _draw5(b, nb, bg)
        ka = _key(a)
        kb = _key(b)
        out[_rank(ka)] += 1
        out[12 + _rank(kb)] += 1
        if _cheatin(a):
            out[24] += 1
        if _cheatin(b):
            out[25] += 1
        if ka < kb:
            out[26] += 1
        elif kb < ka:
            out[27] += 1
        else:
            out[28] += 1
        redraws = 0
        while ka == kb:
            # identical hands are discarded and both players draw again
            redraws += 1
            if redraws > MAX_REDRAWS:
                return -1
            _draw5(a, na, bg)
            _draw5(b, nb, bg)
            ka = _key(a)
            kb = _key(b)
        out[31] += redraws
        if ka < kb:
            out[29] += 1
        else:
            out[30] += 1
    return 0


def simulate_matchup(
    const uint8_t[::1] deck_a,
    const uint8_t[::1] deck_b,
    object bit_generator,
    Py_ssize_t trials,
    int64_t[::1] out,
):
    """Head-to-head Gamblin' rounds. First deal: out[0:12] ranks of A, out[12:24] ranks of B,
    out[24] A cheatin', out[25] B cheatin', out[26] A lower, out[27] B lower, out[28] identical.
    Identical hands are discarded and both redraw (fresh deals) until one is lower:
    out[29] A wins, out[30] B wins, out[31] redraws. Returns -1 if a round never resolved."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef uint8_t a[MAXDECK]
    cdef uint8_t b[MAXDECK]
    cdef int na = deck_a.shape[0], nb = deck_b.shape[0]
    cdef int status
    memcpy(a, &deck_a[0], na)
    memcpy(b, &deck_b[0], nb)
    with bit_generator.lock:
        with nogil:
            status = _matchup_loop(a, na, b, nb, bg, trials, &out[0])
    return status


cdef int _table_loop(uint8_t (*cards)[MAXDECK], const int32_t* sizes, int np_, bitgen_t* bg,
                     Py_ssize_t trials, int64_t* out, int64_t* out_table) noexcept nogil:
    cdef uint32_t key[MAXPLAYERS]
    cdef bint tied[MAXPLAYERS]
    cdef int p, q, first, second, any_tied
    cdef long redraws
    cdef Py_ssize_t t
    for t in range(trials):
        for p in range(np_):
            _draw5(cards[p], sizes[p], bg)
            key[p] = _key(cards[p])
            out[p * 15 + _rank(key[p])] += 1
            if _cheatin(cards[p]):
                out[p * 15 + 12] += 1
        redraws = 0
        while True:
            any_tied = 0
            for p in range(np_):
                tied[p] = 0
            for p in range(np_):
                for q in range(p + 1, np_):
                    if key[p] == key[q]:
                        tied[p] = 1
                        tied[q] = 1
                        any_tied = 1
            if not any_tied:
                break
            if redraws == 0:
                out_table[0] += 1
            redraws += 1
            if redraws > MAX_REDRAWS:
                return -1
            for p in range(np_):
                if tied[p]:
                    _draw5(cards[p], sizes[p], bg)
                    key[p] = _key(cards[p])
        out_table[1] += redraws
        first = 0
        for p in range(1, np_):
            if key[p] < key[first]:
                first = p
        second = 1 if first == 0 else 0
        for p in range(np_):
            if p != first and key[p] < key[second]:
                second = p
        out[first * 15 + 13] += 1
        out[second * 15 + 14] += 1
    return 0


def simulate_table(
    const uint8_t[:, ::1] decks,
    const int32_t[::1] sizes,
    object bit_generator,
    Py_ssize_t trials,
    int64_t[:, ::1] out,
    int64_t[::1] out_table,
):
    """Multiplayer Gamblin' (Rulebook "Multiplayer Variant"), 2..8 players, decks padded to a
    common width. Per player p, first deal: out[p, 1..11] ranks, out[p, 12] cheatin'; after
    identical hands are redrawn (every player whose hand is identical to another's draws a
    fresh hand, then the table is compared again): out[p, 13] lowest, out[p, 14] second
    lowest. out_table[0] deals with identical hands, out_table[1] redraws. Returns -1 if a
    deal never resolved."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef int np_ = decks.shape[0]
    cdef uint8_t cards[MAXPLAYERS][MAXDECK]
    cdef int p, status
    if np_ < 2 or np_ > MAXPLAYERS or out.shape[1] != 15 or out.shape[0] != np_:
        raise ValueError("2..8 players and an output of shape (players, 15)")
    for p in range(np_):
        memcpy(cards[p], &decks[p, 0], sizes[p])
    with bit_generator.lock:
        with nogil:
            status = _table_loop(cards, &sizes[0], np_, bg, trials, &out[0, 0], &out_table[0])
    return status
