# cython: language_level=3
"""Shootout hand building blocks shared by the one-round kernels (shootout.pyx) and the
whole-shootout kernel (full_shootout.pyx): the hand-keeping policy, the discard
heuristic and the Automaton's hand rule (Rulebook "Shootout Sequence", step 4 "Draw!";
"Automaton Variant", "Shootout Hands"). Every function is ``cdef inline noexcept nogil``.

``margin``: 0 = greedy, k >= 1 = cheat only for k ranks or more, SH_LEGAL (99) = legal.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int64_t
from libc.string cimport memcpy, memset

from doomtown_hand cimport (
    DtCounts, DT_BIT, dt_best_key, dt_count, dt_lobit, dt_legal_as_well, dt_legal_counts, dt_max_key,
    dt_popcount, dt_straight_lows,
)

cdef enum:
    SH_JOKER = 52
    SH_LEGAL = 99
    SH_MAXHAND = 15


cdef inline int64_t _keep(int64_t key, int64_t lkey, int margin, int* cheat) noexcept nogil:
    """Key of the five the policy keeps, and whether they are cheatin'."""
    if lkey == 0:
        cheat[0] = 1
        return key
    if margin == 0:
        if key > lkey:
            cheat[0] = 1
            return key
    elif <int>(key >> 20) - <int>(lkey >> 20) >= margin:
        cheat[0] = 1
        return key
    cheat[0] = 0
    return lkey


cdef inline int64_t _kept_key(const uint8_t* hand, int n, int margin, int* cheat) noexcept nogil:
    cdef int64_t lkey
    cdef int64_t key = dt_best_key(hand, n, &lkey)
    return _keep(key, lkey, margin, cheat)


cdef inline uint32_t _one_per_value(const uint32_t* vpos, unsigned int values, uint32_t allowed) noexcept nogil:
    """One position (the first allowed one) for each value in ``values``."""
    cdef uint32_t out = 0, m
    cdef int v
    while values:
        v = dt_lobit(values)
        values &= values - 1
        m = vpos[v] & allowed
        out |= m & (~m + 1)
    return out


cdef inline uint32_t _take_low(const uint32_t* vpos, unsigned int values, uint32_t candidates,
                               int* budget) noexcept nogil:
    """Up to ``budget`` of the ``candidates`` positions, lowest values first."""
    cdef uint32_t out = 0, m
    cdef int v
    while values and budget[0] > 0:
        v = dt_lobit(values)
        values &= values - 1
        m = vpos[v] & candidates
        while m and budget[0] > 0:
            out |= m & (~m + 1)
            m &= m - 1
            budget[0] -= 1
    return out


cdef inline uint32_t _heuristic(const uint8_t* hand, int n, int maxd, int margin,
                         int64_t* kept_out, int* cheat_out) noexcept nogil:
    """Positions to discard (at most ``maxd``): a sensible player's rule (docs/rules-doomtown.md, 'Shootouts').

    1. Keep the structure of the best hand the policy keeps now: a straight, flush,
       straight flush or Dead Man's Hand whole; the groups of the other ranks (the four
       of a four of a kind, both pairs of two pair, ...); jokers always. A pair made by a
       joker is no structure (the joker pairs whatever it is kept with).
    2. Up to a straight, also keep four cards to a flush (jokers count); up to three of a
       kind with no flush draw, four cards to a straight (open or inside); beside two
       pair, a third pair.
    3. When that leaves nothing to draw to: a pair is kept alone (it is worth about the
       draw); two pair keep the flush draw and the pair that shares a card with it.
    4. Discard the rest, up to the draw bonus: first second copies of a card when the
       hand is played legal (they can never be in a legal hand; a legal player forced
       to cheat drops them too, to get a legal hand), then cards in no draw, then
       straight-draw cards, then a third pair; lowest values first within each.

    ``kept_out``/``cheat_out`` receive the kept key and cheatin' flag of the hand as
    dealt (the result when nothing is discarded).
    """
    cdef int cheat, rank, i, v, s, c, cnt, best_s, best_cnt, nd, budget
    cdef int64_t key, lkey, kept
    cdef DtCounts h, hl
    cdef const DtCounts* hk
    cdef uint32_t vpos[14]
    cdef uint32_t spos[4]
    cdef uint32_t jpos = 0, dpos = 0, b, allowed, protect, made, draw_flush = 0, draw_straight = 0
    cdef uint32_t pairs = 0, full, free_, out
    cdef unsigned int window, w, group
    cdef uint64_t seen = 0
    cdef bint legal
    dt_count(hand, n, &h)
    # per value and suit, the positions holding it; second copies of a card
    memset(vpos, 0, sizeof(vpos))
    for s in range(4):
        spos[s] = 0
    for i in range(n):
        c = hand[i]
        b = DT_BIT(i)
        if c == SH_JOKER:
            jpos |= b
            continue
        vpos[(c >> 2) + 1] |= b
        spos[c & 3] |= b
        dpos |= (<uint32_t>((seen >> c) & 1)) << i
        seen |= (<uint64_t>1) << c
    key = dt_max_key(&h, hand, n, 0)
    hk = &h
    if not h.dup:
        lkey = key
    else:
        # as dt_best_key does: no legal re-evaluation when the best five is legal as well
        nd = dt_legal_counts(&h, &hl)
        if dt_legal_as_well(&h, key):
            lkey = key
        else:
            lkey = dt_max_key(&hl, hand, n, 1) if nd >= 5 else 0
    kept = _keep(key, lkey, margin, &cheat)
    kept_out[0] = kept
    cheat_out[0] = cheat
    if maxd <= 0:
        return 0
    # a legal player forced to cheat still aims at a legal hand: it drops second copies
    legal = cheat == 0 or margin == SH_LEGAL
    if legal and h.dup:
        hk = &hl
    # legal play never keeps a second copy
    allowed = ~dpos if legal else <uint32_t>0xFFFFFFFF
    rank = <int>(kept >> 20)
    protect = jpos
    full = ((<uint32_t>1) << n) - 1
    group = 0
    if (rank == 2 and h.jokers == 0) or rank == 4 or rank == 8 or rank == 10:
        # (a pair made by a joker is no structure: the joker pairs whatever it is kept with)
        group = DT_BIT((kept >> 16) & 15)
    elif rank == 3:
        group = DT_BIT((kept >> 16) & 15) | DT_BIT((kept >> 8) & 15)
    elif rank == 7:
        group = DT_BIT((kept >> 16) & 15) | DT_BIT((kept >> 4) & 15)
    if rank == 5:
        protect |= _one_per_value(vpos, (<unsigned int>0x1F) << (((kept >> 16) & 15) - 4), allowed)
    elif rank == 6 or rank == 9:
        window = (<unsigned int>0x1F) << (((kept >> 16) & 15) - 4)
        for s in range(4):
            if hk.scnt[s] + hk.jokers >= 5:
                if rank == 6:
                    protect |= spos[s] & allowed
                    break
                if dt_popcount(hk.suit[s] & window) + hk.jokers >= 5:
                    protect |= _one_per_value(vpos, window, spos[s])
                    break
    elif rank == 11:
        # Dead Man's Hand: A spades, A clubs, 8 spades, 8 clubs, J diamonds
        protect |= _one_per_value(vpos, DT_BIT(1), spos[0]) | _one_per_value(vpos, DT_BIT(1), spos[3]) \
            | _one_per_value(vpos, DT_BIT(8), spos[0]) | _one_per_value(vpos, DT_BIT(8), spos[3]) \
            | _one_per_value(vpos, DT_BIT(11), spos[2])
    w = group
    while w:
        v = dt_lobit(w)
        w &= w - 1
        protect |= vpos[v] & allowed
    made = protect
    # cards worth keeping beside the made hand: four to a flush (it beats a straight),
    # else four to a straight (open or inside; jokers fill), and a third pair beside two
    # pair (it makes a full house more likely)
    if rank <= 5:
        # one suit: the most cards, then the highest
        best_s = -1
        for s in range(4):
            if hk.scnt[s] + hk.jokers == 4 and (best_s < 0 or hk.scnt[s] > hk.scnt[best_s]
                                                or (hk.scnt[s] == hk.scnt[best_s] and hk.suit[s] > hk.suit[best_s])):
                best_s = s
        if best_s >= 0:
            draw_flush = spos[best_s] & allowed
    if rank <= 4 and not draw_flush and h.jokers < 2:
        w = dt_straight_lows(h.ge[1], h.jokers + 1)
        if w:
            window = 0
            while w:
                window |= (<unsigned int>0x1F) << dt_lobit(w)
                w &= w - 1
            draw_straight = _one_per_value(vpos, window & h.ge[1], allowed)
    if rank == 3:
        w = hk.ge[2] & ~group
        while w:
            v = dt_lobit(w)
            w &= w - 1
            pairs |= vpos[v] & allowed
    # a flush draw is kept whole
    protect = made | draw_flush
    if protect == full and protect != made:
        # nothing left to draw to: a pair stands alone (it is worth about the draw);
        # two pair keep the flush draw and the pair that shares a card with it
        if rank <= 2:
            protect = made
        elif rank == 3:
            protect = jpos | draw_flush
            w = group
            while w:
                v = dt_lobit(w)
                w &= w - 1
                if vpos[v] & draw_flush:
                    protect |= vpos[v] & allowed
    free_ = full & ~protect
    if free_ == 0:
        return 0
    # discard order: second copies (legal play), cards in no draw, then a straight draw's
    # cards, then other pairs; lowest values first within each
    budget = maxd
    out = 0
    if legal and (free_ & dpos):
        out = _take_low(vpos, h.ge[1], free_ & dpos, &budget)
    out |= _take_low(vpos, h.ge[1], free_ & ~(draw_straight | pairs) & ~out, &budget)
    out |= _take_low(vpos, h.ge[1], free_ & draw_straight & ~pairs & ~out, &budget)
    out |= _take_low(vpos, h.ge[1], free_ & ~out, &budget)
    return out


cdef inline int64_t _automaton_key(const uint8_t* cards, int n, int draws, int* cheat) noexcept nogil:
    """Rulebook "Automaton Variant", "Shootout Hands": ``cards[0:n]`` drawn (5 + stud),
    ``cards[n:n + draws]`` revealed. The highest rank made from the n cards and at most
    one revealed card; a legal hand when one of that rank exists (the best such key),
    else the best hand of that rank."""
    cdef uint8_t buf[SH_MAXHAND + 1]
    cdef int i, best_rank = 0
    cdef int64_t key, lkey, best_any = 0, best_legal = 0
    cdef int64_t keys[SH_MAXHAND + 1]
    cdef int64_t lkeys[SH_MAXHAND + 1]
    memcpy(buf, cards, n)
    for i in range(draws + 1):
        if i == 0:
            key = dt_best_key(buf, n, &lkey)
        else:
            buf[n] = cards[n + i - 1]
            key = dt_best_key(buf, n + 1, &lkey)
        keys[i] = key
        lkeys[i] = lkey
        if <int>(key >> 20) > best_rank:
            best_rank = <int>(key >> 20)
    for i in range(draws + 1):
        if <int>(lkeys[i] >> 20) == best_rank and lkeys[i] > best_legal:
            best_legal = lkeys[i]
        if <int>(keys[i] >> 20) == best_rank and keys[i] > best_any:
            best_any = keys[i]
    if best_legal:
        cheat[0] = 0
        return best_legal
    cheat[0] = 1
    return best_any
