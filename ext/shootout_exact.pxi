# Exact shootout hands without a draw bonus (included by shootout.pyx).
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


cdef inline int64_t _binom64(int64_t n, int k) noexcept nogil:
    cdef int64_t r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


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
        wt = _binom64(e.c[v][e.S], x)
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
            _part_c_rest(d, c + 1, filled + x, w * _binom64(d.counts[c], x))


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
        _part_c_dmh(d, i + 1, filled + x, present + (1 if x > 0 else 0), w * _binom64(d.counts[c], x))


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
                        e.W[v][mm][kk] += _binom64(e.c[v][0], x0) * _binom64(e.c[v][1], x1) \
                            * _binom64(e.c[v][2], x2) * _binom64(e.c[v][3], x3)
    e.cap[14] = 0
    for v in range(13, 0, -1):
        e.cap[v] = e.cap[v + 1] + e.c[v][0] + e.c[v][1] + e.c[v][2] + e.c[v][3]
    jmax = e.jokers if e.jokers < n else n
    for j in range(jmax + 1):
        e.j = j
        e.wj = _binom64(e.jokers, j)
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
                    e.two1[v] += _binom64(e.c[v][s2], 2)
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
