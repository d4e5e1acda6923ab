# cython: language_level=3
"""Shootout hand kernels: Monte Carlo hands and head-to-head rounds, the discard
policies, and the exact distribution without a draw bonus.

Hot loops only; ``oddsmith.doomtown.shootout`` validates every input before
calling in. Hands are evaluated by the shared hand core (doomtown_hand.pxd).

Rulebook "Shootout Sequence", step 4 "Draw!": each side draws 5 + stud bonus
cards, may discard up to its draw bonus and draw that many once, then keeps
five. Kernel parameters:

* ``margin``, the hand-keeping policy (docs/rules-doomtown.md, 'Shootouts'): 0 = greedy (keep the
  best hand whatever its legality), k >= 1 = cheat only when the best hand is
  k ranks or more above the best legal one; LEGAL_MARGIN (99) = legal (cheat
  only when no legal hand exists).
* ``mode``, the discard policy: HEURISTIC (a sensible player's rule, below),
  SEARCH (the discard set maximising the exact expected kept rank, by
  enumeration of every discard set and every replacement draw: small cases
  only), AUTOMATON (Rulebook "Automaton Variant", "Shootout Hands": reveal
  ``draw`` cards, keep the highest rank made from the 5 + stud cards and at
  most one revealed card, a legal hand when one of that rank exists).

Decks are arrays of card codes (52 = joker). The first ``n + draws`` cards
of a partial Fisher-Yates shuffle are the hand and its replacements; the deck
array stays a permutation, so it is never reset between trials.
"""
from libc.stdint cimport uint8_t, uint16_t, uint32_t, uint64_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from doomtown_hand cimport (
    DtCounts, DtHand, DT_ALL_VALUES, DT_BIT, DT_JOKER, dt_best_key, dt_binom, dt_count, dt_hibit, dt_lobit,
    dt_legal_as_well, dt_legal_counts, dt_max_key, dt_popcount, dt_select, dt_straight_lows,
)
from card_stream cimport cs_bitgen
from shootout_hand cimport _automaton_key, _heuristic, _keep, _kept_key

DEF JOKER = 52
DEF NCODES = 53
DEF MAXDECK = 256
DEF MAXHAND = 15
DEF NOUT = 24                  # rank * 2 + cheatin'
LEGAL_MARGIN = 99
DEF C_LEGAL = 99
HEURISTIC = 0
SEARCH = 1
AUTOMATON = 2
DEF M_HEURISTIC = 0
DEF M_SEARCH = 1
DEF M_AUTOMATON = 2
# head-to-head output layout
RND_A = 0                     # [0:24] side A kept hands (rank * 2 + cheatin')
RND_B = 24                    # [24:48] side B
RND_A_WINS = 48
RND_B_WINS = 49
RND_IDENTICAL = 50
RND_EQUAL_RANKS = 51
RND_CAS_A = 52                # [52:63] casualties A suffers, 0..10
RND_CAS_B = 63                # [63:74]
RND_SIZE = 74

# ---------------------------------------------------------------------------
# Randomness
# ---------------------------------------------------------------------------

cdef inline void _deal(uint8_t* deck, int size, int k, bitgen_t* bg) noexcept nogil:
    """Partial Fisher-Yates: deck[0:k] becomes a uniform ordered draw of k cards. Each
    64-bit output gives two 32-bit words, each turned into a position without bias by
    Lemire's multiply-and-reject (a rejected word is replaced by a fresh one)."""
    cdef int i, j
    cdef uint8_t t
    cdef uint64_t word = 0, m
    cdef uint32_t x, bound, low, threshold
    cdef bint have = 0
    for i in range(k):
        if have:
            x = <uint32_t>(word >> 32)
            have = 0
        else:
            word = bg.next_uint64(bg.state)
            x = <uint32_t>word
            have = 1
        bound = <uint32_t>(size - i)
        m = <uint64_t>x * bound
        low = <uint32_t>m
        if low < bound:
            threshold = (<uint32_t>(-bound)) % bound
            while low < threshold:
                m = <uint64_t>bg.next_uint32(bg.state) * bound
                low = <uint32_t>m
        j = i + <int>(m >> 32)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


# ---------------------------------------------------------------------------
# Keeping five (the hand-keeping policy)
# ---------------------------------------------------------------------------

# _keep, _kept_key: shootout_hand.pxd


# ---------------------------------------------------------------------------
# Exact, no draw bonus: the value-class enumeration
# ---------------------------------------------------------------------------

# Exact shootout hands without a draw bonus.
#
# The kept hand of 5 + stud cards (stud <= 2, no draw) is a function of
#   * per value: how many cards (m_v) and how many distinct suit+value codes (k_v),
#   * the jokers, and
#   * two suit facts: a flush (only one suit can hold 5 - jokers cards of 7) and
#     Dead Man's Hand (its five exact cards, jokers standing in).
# So the distribution is summed in three exact parts (integer weights, products of
# binomial coefficients of the copies taken):
#   A. every hand, evaluated by its values alone (DFS over value classes);
#   B. every hand that can hold a flush: enumerate the flush suit's cards, the at most
#      two other cards by value class, and move the weight from the value-only outcome
#      to the true one;
#   C. every hand that can hold Dead Man's Hand, card by card (a few thousand), moved
#      from the outcome of A+B to Dead Man's Hand (rank 11, legal).
# The hand-by-hand enumeration (exact_direct) checks this in the tests.

DEF NONE_KEY = 0

cdef inline int64_t _pack(int rank, int f0, int f1, int f2, int f3, int f4) noexcept nogil:
    return ((<int64_t>rank) << 20) | ((<int64_t>f0) << 16) | ((<int64_t>f1) << 12) \
        | ((<int64_t>f2) << 8) | ((<int64_t>f3) << 4) | (<int64_t>f4)


cdef inline int64_t _straight_key(int rank, int top) noexcept nogil:
    return _pack(rank, top, top - 1, top - 2, top - 3, top - 4)


cdef inline int64_t _value_key(const int* cnt, int j, bint legal) noexcept nogil:
    """Best key of a hand from its value counts ``cnt[1..13]`` and ``j`` jokers, suits
    ignored (no flush, straight flush or Dead Man's Hand), by the shared hand core. The
    caller guarantees at least five cards."""
    cdef DtCounts h
    cdef unsigned int b
    cdef int v, c
    memset(&h, 0, sizeof(DtCounts))
    h.ge[0] = DT_ALL_VALUES
    for v in range(1, 14):
        c = cnt[v]
        if c > 0:
            b = DT_BIT(v)
            h.ge[1] |= b
            if c >= 2:
                h.ge[2] |= b
                if c >= 3:
                    h.ge[3] |= b
                    if c >= 4:
                        h.ge[4] |= b
                        if c >= 5:
                            h.ge[5] |= b
    h.jokers = j
    return dt_max_key(&h, NULL, 0, legal)


cdef int64_t _flush_key(const int* a, int j, bint legal) noexcept nogil:
    """Best flush or straight flush key from the cards of one suit (``a[1..13]`` copies
    per value) and ``j`` jokers; 0 if none. Legal: each value once (two copies of a card
    make a hand cheatin'). A joker in a flush counts as a king (it may copy one)."""
    cdef unsigned int present = 0, w
    cdef int v, total = 0, n, c
    cdef int f[5]
    for v in range(1, 14):
        if a[v] > 0:
            present |= (<unsigned int>1) << v
            total += a[v]
    if legal:
        total = dt_popcount(present)
    if total + j < 5:
        return NONE_KEY
    w = dt_straight_lows(present, j)
    if w:
        return _straight_key(9, dt_hibit(w) + 4)
    n = 0
    while n < j and n < 5:
        f[n] = 13
        n += 1
    v = 13
    while n < 5:
        c = a[v]
        if c > 0:
            if legal:
                c = 1
            while c > 0 and n < 5:
                f[n] = v
                n += 1
                c -= 1
        v -= 1
    return _pack(6, f[0], f[1], f[2], f[3], f[4])


cdef inline int _outcome(int64_t kany, int64_t klegal, int margin) noexcept nogil:
    """rank * 2 + cheatin' of the five the hand-keeping policy ``margin`` keeps."""
    cdef int cheat
    cdef int64_t kept = _keep(kany, klegal, margin, &cheat)
    return <int>(kept >> 20) * 2 + cheat


cdef struct _Exact:
    int c[14][4]               # copies per value (1..13) and suit
    int jokers
    int margin
    int j                      # jokers in the hand being enumerated
    int64_t wj                 # ways to take them
    # part A
    int64_t W[14][8][5]        # ways to take m cards of value v with k distinct codes
    int cap[15]                # most cards values v..13 can give (suffix sums, capped)
    int m[14]
    int k[14]
    # part B
    int S                      # the flush suit
    int a[14]
    int64_t one[14]            # ways to take one card of value v outside suit S
    int64_t two1[14]           # two copies of one code of value v outside S
    int64_t two2[14]           # two different codes of value v outside S
    int64_t fa                # flush keys of the suit-S cards (any, legal)
    int64_t fl
    int64_t dist[24]


cdef void _part_a(_Exact* e, int v, int remaining, int ksum, int64_t w) noexcept nogil:
    cdef int mm, kk, top
    cdef int64_t wt
    cdef int64_t kany, klegal
    if v == 14:
        if remaining == 0:
            kany = _value_key(e.m, e.j, 0)
            klegal = _value_key(e.k, e.j, 1) if ksum + e.j >= 5 else NONE_KEY
            e.dist[_outcome(kany, klegal, e.margin)] += w * e.wj
        return
    if e.cap[v] < remaining:
        return
    top = remaining if remaining < 7 else 7
    for mm in range(top + 1):
        for kk in range(5):
            wt = e.W[v][mm][kk]
            if wt == 0:
                continue
            e.m[v] = mm
            e.k[v] = kk
            _part_a(e, v + 1, remaining - mm, ksum + kk, w * wt)
    e.m[v] = 0
    e.k[v] = 0


cdef inline void _b_eval(_Exact* e, int ksum, int64_t w) noexcept nogil:
    """Move weight ``w`` of the current (flush suit cards + others) class from its
    value-only outcome to its true outcome."""
    cdef int64_t kany = _value_key(e.m, e.j, 0)
    cdef int64_t klegal = _value_key(e.k, e.j, 1) if ksum + e.j >= 5 else NONE_KEY
    cdef int before = _outcome(kany, klegal, e.margin)
    cdef int64_t tany = kany if kany > e.fa else e.fa
    cdef int64_t tlegal = klegal if klegal > e.fl else e.fl
    cdef int after = _outcome(tany, tlegal, e.margin)
    if after != before:
        e.dist[after] += w
        e.dist[before] -= w


cdef void _part_b_others(_Exact* e, int rest, int ksum, int64_t w) noexcept nogil:
    """The ``rest`` (0..2) cards outside the flush suit, by value class."""
    cdef int u, x
    if rest == 0:
        _b_eval(e, ksum, w)
        return
    if rest == 1:
        for u in range(1, 14):
            if e.one[u]:
                e.m[u] += 1
                e.k[u] += 1
                _b_eval(e, ksum + 1, w * e.one[u])
                e.m[u] -= 1
                e.k[u] -= 1
        return
    for u in range(1, 14):
        if e.two1[u]:
            e.m[u] += 2
            e.k[u] += 1
            _b_eval(e, ksum + 1, w * e.two1[u])
            e.m[u] -= 2
            e.k[u] -= 1
        if e.two2[u]:
            e.m[u] += 2
            e.k[u] += 2
            _b_eval(e, ksum + 2, w * e.two2[u])
            e.m[u] -= 2
            e.k[u] -= 2
        if e.one[u] == 0:
            continue
        e.m[u] += 1
        e.k[u] += 1
        for x in range(u + 1, 14):
            if e.one[x]:
                e.m[x] += 1
                e.k[x] += 1
                _b_eval(e, ksum + 2, w * e.one[u] * e.one[x])
                e.m[x] -= 1
                e.k[x] -= 1
        e.m[u] -= 1
        e.k[u] -= 1


cdef void _part_b_suit(_Exact* e, int v, int taken, int total, int ksum, int64_t w) noexcept nogil:
    """Choose the flush suit's cards value by value (``taken`` so far, ``total`` = cards
    without jokers); every choice of at least 5 - jokers cards can hold a flush."""
    cdef int x
    cdef int64_t wt
    if v == 14:
        if taken + e.j < 5:
            return
        e.fa = _flush_key(e.a, e.j, 0)
        e.fl = _flush_key(e.a, e.j, 1)
        _part_b_others(e, total - taken, ksum, w)
        return
    for x in range(e.c[v][e.S] + 1):
        if taken + x > total:
            break
        wt = dt_binom(e.c[v][e.S], x)
        e.a[v] = x
        e.m[v] = x
        e.k[v] = 1 if x > 0 else 0
        _part_b_suit(e, v + 1, taken + x, total, ksum + e.k[v], w * wt)
    e.a[v] = 0
    e.m[v] = 0
    e.k[v] = 0


cdef int _outcome_no_dmh(const uint8_t* hand, int n, int margin) noexcept nogil:
    """Outcome of one explicit hand as parts A and B count it (Dead Man's Hand ignored)."""
    cdef int m[14]
    cdef int k[14]
    cdef int a[4][14]
    cdef int seen[53]
    cdef int i, v, s, c, j = 0, ksum = 0, flush_suit = -1
    cdef int per_suit[4]
    cdef int64_t kany, klegal, fa, fl
    for v in range(14):
        m[v] = 0
        k[v] = 0
        for s in range(4):
            a[s][v] = 0
    for c in range(53):
        seen[c] = 0
    for s in range(4):
        per_suit[s] = 0
    for i in range(n):
        c = hand[i]
        if c == JOKER:
            j += 1
            continue
        v = c // 4 + 1
        s = c % 4
        m[v] += 1
        a[s][v] += 1
        per_suit[s] += 1
        if not seen[c]:
            seen[c] = 1
            k[v] += 1
            ksum += 1
    kany = _value_key(m, j, 0)
    klegal = _value_key(k, j, 1) if ksum + j >= 5 else NONE_KEY
    for s in range(4):
        if per_suit[s] + j >= 5:
            flush_suit = s
    if flush_suit >= 0:
        fa = _flush_key(a[flush_suit], j, 0)
        fl = _flush_key(a[flush_suit], j, 1)
        if fa > kany:
            kany = fa
        if fl > klegal:
            klegal = fl
    return _outcome(kany, klegal, margin)


cdef uint8_t _DMH[5]
_DMH[0] = 0    # A spades
_DMH[1] = 3    # A clubs
_DMH[2] = 28   # 8 spades
_DMH[3] = 31   # 8 clubs
_DMH[4] = 42   # J diamonds


cdef struct _Dmh:
    int counts[53]
    int is_dmh[53]
    int margin
    int nreal                # valued cards in the hand
    int j                    # jokers in the hand (kept after the valued cards)
    int need                 # distinct Dead Man's Hand cards needed (5 - jokers)
    int64_t wj
    uint8_t hand[16]
    int64_t dist[24]


cdef void _part_c_rest(_Dmh* d, int start, int filled, int64_t w) noexcept nogil:
    """Fill the hand with cards that are not in Dead Man's Hand (codes >= start)."""
    cdef int c, x, t
    if filled == d.nreal:
        for t in range(d.j):
            d.hand[filled + t] = JOKER
        d.dist[11 * 2] += w * d.wj
        d.dist[_outcome_no_dmh(d.hand, d.nreal + d.j, d.margin)] -= w * d.wj
        return
    for c in range(start, 52):
        if d.is_dmh[c] or d.counts[c] == 0:
            continue
        for x in range(1, d.nreal - filled + 1):
            if x > d.counts[c]:
                break
            for t in range(x):
                d.hand[filled + t] = <uint8_t>c
            _part_c_rest(d, c + 1, filled + x, w * dt_binom(d.counts[c], x))


cdef void _part_c_dmh(_Dmh* d, int i, int filled, int present, int64_t w) noexcept nogil:
    """Choose the copies of each Dead Man's Hand card (at least ``need`` of the five)."""
    cdef int x, t
    cdef int c
    if i == 5:
        if present >= d.need:
            _part_c_rest(d, 0, filled, w)
        return
    if present + (5 - i) < d.need:
        return
    c = _DMH[i]
    for x in range(d.counts[c] + 1):
        if filled + x > d.nreal:
            break
        for t in range(x):
            d.hand[filled + t] = <uint8_t>c
        _part_c_dmh(d, i + 1, filled + x, present + (1 if x > 0 else 0), w * dt_binom(d.counts[c], x))


cdef void _exact_decomposed(const int* counts, int n, int margin, int64_t* dist) noexcept nogil:
    """dist[rank * 2 + cheatin'] += hands of ``n`` (5..7) cards of the deck ``counts``
    (copies per code, 52 = jokers, at most 2) kept as the policy ``margin`` says."""
    cdef _Exact e
    cdef _Dmh d
    cdef int v, s, s2, x0, x1, x2, x3, mm, kk, i, j, jmax
    cdef int64_t wt
    memset(&e, 0, sizeof(_Exact))
    memset(&d, 0, sizeof(_Dmh))
    for v in range(1, 14):
        for s in range(4):
            e.c[v][s] = counts[(v - 1) * 4 + s]
    e.jokers = counts[JOKER]
    e.margin = margin
    # per-value class weights
    for v in range(1, 14):
        for x0 in range(e.c[v][0] + 1):
            for x1 in range(e.c[v][1] + 1):
                for x2 in range(e.c[v][2] + 1):
                    for x3 in range(e.c[v][3] + 1):
                        mm = x0 + x1 + x2 + x3
                        if mm > 7:
                            continue
                        kk = (x0 > 0) + (x1 > 0) + (x2 > 0) + (x3 > 0)
                        e.W[v][mm][kk] += dt_binom(e.c[v][0], x0) * dt_binom(e.c[v][1], x1) \
                            * dt_binom(e.c[v][2], x2) * dt_binom(e.c[v][3], x3)
    e.cap[14] = 0
    for v in range(13, 0, -1):
        e.cap[v] = e.cap[v + 1] + e.c[v][0] + e.c[v][1] + e.c[v][2] + e.c[v][3]
    jmax = e.jokers if e.jokers < n else n
    for j in range(jmax + 1):
        e.j = j
        e.wj = dt_binom(e.jokers, j)
        _part_a(&e, 1, n - j, 0, 1)
        # part B: one flush suit at a time
        for s in range(4):
            e.S = s
            for v in range(1, 14):
                e.one[v] = 0
                e.two1[v] = 0
                e.two2[v] = 0
                for s2 in range(4):
                    if s2 == s:
                        continue
                    e.one[v] += e.c[v][s2]
                    e.two1[v] += dt_binom(e.c[v][s2], 2)
                    for i in range(s2 + 1, 4):
                        if i != s:
                            e.two2[v] += <int64_t>e.c[v][s2] * e.c[v][i]
            _part_b_suit(&e, 1, 0, n - j, 0, e.wj)
        # part C
        for i in range(53):
            d.counts[i] = counts[i]
            d.is_dmh[i] = 0
        for i in range(5):
            d.is_dmh[_DMH[i]] = 1
        d.margin = margin
        d.nreal = n - j
        d.j = j
        d.need = 5 - j
        d.wj = e.wj
        _part_c_dmh(&d, 0, 0, 0, 1)
    for i in range(24):
        dist[i] += e.dist[i] + d.dist[i]


# ---------------------------------------------------------------------------
# The discard heuristic
# ---------------------------------------------------------------------------

# _one_per_value, _take_low, _heuristic: shootout_hand.pxd


# ---------------------------------------------------------------------------
# The search reference: exact expected kept rank of every discard set
# ---------------------------------------------------------------------------

cdef struct _Search:
    uint8_t hand[MAXHAND]
    int n
    int margin
    int rem[NCODES]           # the rest of the deck: copies per code
    int slots[MAXHAND]        # positions being replaced
    int r
    int64_t total_w
    int64_t sum_wr


cdef void _search_fill(_Search* e, int start, int filled, int64_t w) noexcept nogil:
    cdef int c, x, t, cheat
    cdef int64_t key
    if filled == e.r:
        key = _kept_key(e.hand, e.n, e.margin, &cheat)
        e.total_w += w
        # a legal player does not aim at being forced to cheat: such a hand scores 0
        if not (cheat and e.margin == C_LEGAL):
            e.sum_wr += w * (key >> 20)
        return
    for c in range(start, NCODES):
        if e.rem[c] == 0:
            continue
        for x in range(1, e.r - filled + 1):
            if x > e.rem[c]:
                break
            for t in range(x):
                e.hand[e.slots[filled + t]] = <uint8_t>c
            _search_fill(e, c + 1, filled + x, w * dt_binom(e.rem[c], x))


cdef double _expected_rank(const uint8_t* hand, int n, uint32_t mask, const int* rem, int margin) noexcept nogil:
    """Exact expected rank of the kept hand after discarding the positions in ``mask``
    and drawing as many from the rest of the deck (``rem``: copies per code)."""
    cdef _Search e
    cdef int i
    memcpy(e.hand, hand, n)
    memcpy(e.rem, rem, NCODES * sizeof(int))
    e.n = n
    e.margin = margin
    e.r = 0
    for i in range(n):
        if (mask >> i) & 1:
            e.slots[e.r] = i
            e.r += 1
    e.total_w = 0
    e.sum_wr = 0
    _search_fill(&e, 0, 0, 1)
    if e.total_w == 0:
        return 0.0
    return <double>e.sum_wr / <double>e.total_w


cdef inline bint _canonical(const uint8_t* hand, int n, uint32_t mask) noexcept nogil:
    """Discarding one copy of a card or another copy of it is the same choice: only the
    set that discards the earliest copies is searched."""
    cdef int p, q
    for q in range(n):
        if (mask >> q) & 1:
            for p in range(q):
                if hand[p] == hand[q] and not (mask >> p) & 1:
                    return 0
    return 1


cdef uint32_t _search(const uint8_t* hand, int n, int maxd, const int* rem, int margin,
                      double* best_out) noexcept nogil:
    """The discard set (at most ``maxd`` cards) with the highest exact expected kept
    rank; ties go to the smaller set found first."""
    cdef uint32_t best_mask = 0, mask, full, cbit, rbit
    cdef double best, e
    cdef int r
    best = _expected_rank(hand, n, 0, rem, margin)
    full = ((<uint32_t>1) << n) - 1
    for r in range(1, maxd + 1):
        if r > n:
            break
        # Gosper's hack: every n-bit mask with r bits set
        mask = ((<uint32_t>1) << r) - 1
        while mask <= full:
            if _canonical(hand, n, mask):
                e = _expected_rank(hand, n, mask, rem, margin)
                if e > best + 1e-12:
                    best = e
                    best_mask = mask
            cbit = mask & (~mask + 1)
            rbit = mask + cbit
            mask = (((rbit ^ mask) >> 2) // cbit) | rbit
    if best_out != NULL:
        best_out[0] = best
    return best_mask


# ---------------------------------------------------------------------------
# One side's shootout hand
# ---------------------------------------------------------------------------

cdef struct _Side:
    uint8_t deck[MAXDECK]
    int size
    int n                    # 5 + stud
    int draws                # cards that can be replaced: min(draw bonus, size - n)
    int margin
    int mode
    int counts[NCODES]       # the whole deck, copies per code (search)
    int64_t discarded        # cards discarded in total


cdef int _side_init(_Side* sd, const uint8_t[::1] deck, int stud, int draw, int margin, int mode) except -1:
    cdef int i
    sd.size = deck.shape[0]
    memcpy(sd.deck, &deck[0], sd.size)
    sd.n = 5 + stud
    sd.draws = draw if draw < sd.size - sd.n else sd.size - sd.n
    sd.margin = margin
    sd.mode = mode
    sd.discarded = 0
    memset(sd.counts, 0, NCODES * sizeof(int))
    for i in range(sd.size):
        sd.counts[sd.deck[i]] += 1
    return 0


cdef inline int64_t _automaton(_Side* sd, int* cheat) noexcept nogil:
    """The Automaton's kept key (shootout_hand.pxd, _automaton_key)."""
    return _automaton_key(sd.deck, sd.n, sd.draws, cheat)


cdef int64_t _play(_Side* sd, bitgen_t* bg, int* cheat) noexcept nogil:
    """Deal one shootout hand, use the draw bonus, return the kept key."""
    cdef uint32_t mask = 0
    cdef int i, k, n = sd.n
    cdef uint8_t t
    cdef int64_t key
    cdef int rem[NCODES]
    _deal(sd.deck, sd.size, n + sd.draws, bg)
    if sd.draws > 0:
        if sd.mode == M_AUTOMATON:
            return _automaton(sd, cheat)
        if sd.mode == M_HEURISTIC:
            mask = _heuristic(sd.deck, n, sd.draws, sd.margin, &key, cheat)
            if mask == 0:
                return key
        else:
            memcpy(rem, sd.counts, NCODES * sizeof(int))
            for i in range(n):
                rem[sd.deck[i]] -= 1
            mask = _search(sd.deck, n, sd.draws, rem, sd.margin, NULL)
        # replace the discarded cards with the next cards of the shuffled deck
        k = n
        for i in range(n):
            if (mask >> i) & 1:
                t = sd.deck[i]
                sd.deck[i] = sd.deck[k]
                sd.deck[k] = t
                k += 1
        sd.discarded += k - n
    return _kept_key(sd.deck, n, sd.margin, cheat)


def simulate_hands(const uint8_t[::1] deck, int stud, int draw, int margin, int mode,
                   object bit_generator, Py_ssize_t trials, int64_t[::1] out):
    """``trials`` shootout hands: out[rank * 2 + cheatin'] += 1 per kept hand;
    out[24] += cards discarded."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef _Side sd
    cdef Py_ssize_t t
    cdef int cheat
    cdef int64_t key
    _side_init(&sd, deck, stud, draw, margin, mode)
    with bit_generator.lock:
      with nogil:
        for t in range(trials):
            key = _play(&sd, bg, &cheat)
            out[<int>(key >> 20) * 2 + cheat] += 1
        out[NOUT] += sd.discarded


def simulate_rounds(const uint8_t[::1] deck_a, int stud_a, int draw_a, int margin_a, int mode_a,
                    const uint8_t[::1] deck_b, int stud_b, int draw_b, int margin_b, int mode_b,
                    object bit_generator, Py_ssize_t trials, int64_t[::1] out):
    """``trials`` shootout rounds, each side drawing from its own deck (Rulebook "Shootout
    Sequence" steps 4, 7, 8): higher key wins, identical keys tie; the loser suffers the
    rank difference, equal ranks cost each side 1. Layout: RND_* constants."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef _Side a
    cdef _Side b
    cdef Py_ssize_t t
    cdef int ca, cb, ra, rb
    cdef int64_t ka, kb
    _side_init(&a, deck_a, stud_a, draw_a, margin_a, mode_a)
    _side_init(&b, deck_b, stud_b, draw_b, margin_b, mode_b)
    with bit_generator.lock:
      with nogil:
        for t in range(trials):
            ka = _play(&a, bg, &ca)
            kb = _play(&b, bg, &cb)
            ra = <int>(ka >> 20)
            rb = <int>(kb >> 20)
            out[ra * 2 + ca] += 1
            out[24 + rb * 2 + cb] += 1
            if ka > kb:
                out[48] += 1
            elif kb > ka:
                out[49] += 1
            else:
                out[50] += 1
            if ra == rb:
                out[51] += 1
                out[52 + 1] += 1
                out[63 + 1] += 1
            elif ra > rb:
                out[52] += 1
                out[63 + ra - rb] += 1
            else:
                out[52 + rb - ra] += 1
                out[63] += 1


# ---------------------------------------------------------------------------
# Single hands (tests, the gap between the heuristic and the search)
# ---------------------------------------------------------------------------

def kept_keys(const uint8_t[:, ::1] hands, int n, int margin, int64_t[::1] keys, uint8_t[::1] cheat):
    """Key of the five each hand (first ``n`` codes of each row) keeps under ``margin``."""
    cdef Py_ssize_t i
    cdef int c
    with nogil:
        for i in range(hands.shape[0]):
            keys[i] = _kept_key(&hands[i, 0], n, margin, &c)
            cheat[i] = c


def heuristic_masks(const uint8_t[:, ::1] hands, int n, int maxd, int margin, uint32_t[::1] masks):
    """The heuristic's discard positions (bit i = position i) for each hand."""
    cdef Py_ssize_t i
    cdef int64_t key
    cdef int c
    with nogil:
        for i in range(hands.shape[0]):
            masks[i] = _heuristic(&hands[i, 0], n, maxd, margin, &key, &c)


def automaton_keys(const uint8_t[:, ::1] hands, int n, int draws, int64_t[::1] keys, uint8_t[::1] cheat):
    """The Automaton's kept key for each row: ``n`` cards drawn then ``draws`` revealed."""
    cdef _Side sd
    cdef Py_ssize_t i
    cdef int c
    sd.n = n
    sd.draws = draws
    with nogil:
        for i in range(hands.shape[0]):
            memcpy(sd.deck, &hands[i, 0], n + draws)
            keys[i] = _automaton(&sd, &c)
            cheat[i] = c


def heuristic_discard(hand, int maxd, int margin):
    """One hand through the discard heuristic (shootout_hand.pxd, ``_heuristic``), for the
    plain-Python port's tests: (discard positions as a bit mask, kept key of the hand as
    dealt, cheatin'). ``hand``: 5..15 card codes 0..52, at most 2 jokers."""
    cdef uint8_t buf[MAXHAND]
    cdef int n, i, c
    cdef int64_t key
    cdef uint32_t mask
    codes = [int(x) for x in hand]
    n = len(codes)
    if not 5 <= n <= MAXHAND:
        raise ValueError(f"a hand holds 5 to {MAXHAND} cards, not {n}")
    if any(not 0 <= x <= JOKER for x in codes):
        raise ValueError(f"card codes are 0..{JOKER} ({JOKER} a joker)")
    if codes.count(JOKER) > 2:
        raise ValueError("at most 2 jokers in a hand")
    if maxd < 0 or not (0 <= margin <= 11 or margin == C_LEGAL):
        raise ValueError(f"need a draw bonus >= 0 and a margin 0..11 or {C_LEGAL} (legal)")
    for i in range(n):
        buf[i] = codes[i]
    with nogil:
        mask = _heuristic(buf, n, maxd, margin, &key, &c)
    return int(mask), int(key), bool(c)


def expected_rank(const uint8_t[::1] hand, uint32_t mask, const int32_t[::1] rem, int margin):
    """Exact expected kept rank after discarding ``mask`` and drawing from ``rem``."""
    cdef int r[NCODES]
    cdef int i
    for i in range(NCODES):
        r[i] = rem[i]
    return _expected_rank(&hand[0], hand.shape[0], mask, r, margin)


def best_discard(const uint8_t[::1] hand, int maxd, const int32_t[::1] rem, int margin):
    """(mask, expected rank) of the search reference's discard choice."""
    cdef int r[NCODES]
    cdef int i
    cdef double best
    cdef uint32_t mask
    for i in range(NCODES):
        r[i] = rem[i]
    mask = _search(&hand[0], hand.shape[0], maxd, r, margin, &best)
    return mask, best


def discard_gap(const uint8_t[::1] deck, int stud, int draw, int margin, object bit_generator,
                Py_ssize_t hands, double[::1] e_heuristic, double[::1] e_search, double[::1] e_keep,
                uint32_t[::1] heuristic_mask, uint32_t[::1] search_mask):
    """For ``hands`` dealt hands: exact expected kept rank under the heuristic's discards,
    under the search reference's, and with no discard at all."""
    cdef bitgen_t* bg = cs_bitgen(bit_generator)
    cdef _Side sd
    cdef Py_ssize_t t
    cdef int i
    cdef int rem[NCODES]
    cdef uint32_t hm, sm
    cdef double best
    cdef int64_t key
    cdef int c
    _side_init(&sd, deck, stud, draw, margin, M_HEURISTIC)
    with bit_generator.lock:
      with nogil:
        for t in range(hands):
            _deal(sd.deck, sd.size, sd.n, bg)
            memcpy(rem, sd.counts, NCODES * sizeof(int))
            for i in range(sd.n):
                rem[sd.deck[i]] -= 1
            hm = _heuristic(sd.deck, sd.n, sd.draws, margin, &key, &c)
            sm = _search(sd.deck, sd.n, sd.draws, rem, margin, &best)
            e_search[t] = best
            e_heuristic[t] = _expected_rank(sd.deck, sd.n, hm, rem, margin)
            e_keep[t] = _expected_rank(sd.deck, sd.n, 0, rem, margin)
            heuristic_mask[t] = hm
            search_mask[t] = sm


# ---------------------------------------------------------------------------
# Exact, no draw bonus
# ---------------------------------------------------------------------------

cdef struct _Direct:
    int nd
    uint8_t code[NCODES]
    int mult[NCODES]
    uint8_t hand[MAXHAND]
    int n
    int margin
    int64_t dist[NOUT]


cdef void _direct(_Direct* e, int start, int filled, int64_t weight) noexcept nogil:
    cdef int i, take, t, cheat
    cdef int64_t key
    for i in range(start, e.nd):
        for take in range(1, e.n - filled + 1):
            if take > e.mult[i]:
                break
            for t in range(take):
                e.hand[filled + t] = e.code[i]
            if filled + take == e.n:
                key = _kept_key(e.hand, e.n, e.margin, &cheat)
                e.dist[<int>(key >> 20) * 2 + cheat] += weight * dt_binom(e.mult[i], take)
            else:
                _direct(e, i + 1, filled + take, weight * dt_binom(e.mult[i], take))


def exact_direct(const int32_t[::1] counts, int n, int margin, int64_t[::1] out):
    """Hand by hand: every multiset of ``n`` distinct codes weighted by the product of the
    binomial coefficients of the copies it takes (the cross-check of exact_values)."""
    cdef _Direct e
    cdef int c
    e.nd = 0
    e.n = n
    e.margin = margin
    memset(e.dist, 0, NOUT * sizeof(int64_t))
    for c in range(NCODES):
        if counts[c] > 0:
            e.code[e.nd] = <uint8_t>c
            e.mult[e.nd] = counts[c]
            e.nd += 1
    with nogil:
        _direct(&e, 0, 0, 1)
    for c in range(NOUT):
        out[c] += e.dist[c]


def exact_values(const int32_t[::1] counts, int n, int margin, int64_t[::1] out):
    """By value classes with flush and Dead Man's Hand corrections (5 <= n <= 7, at most
    two jokers): out[rank * 2 + cheatin'] += number of n-card hands."""
    cdef int c[NCODES]
    cdef int64_t dist[NOUT]
    cdef int i
    for i in range(NCODES):
        c[i] = counts[i]
    memset(dist, 0, NOUT * sizeof(int64_t))
    with nogil:
        _exact_decomposed(c, n, margin, dist)
    for i in range(NOUT):
        out[i] += dist[i]
