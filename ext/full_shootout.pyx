# cython: language_level=3
"""Whole shootouts: posse against posse, round after round, until a posse is empty.

Hot loop only; ``oddsmith.doomtown.full_shootout`` builds and validates every array
and policy code (from ``oddsmith.rules.doomtown``) before calling in. Rules followed
(Rulebook "Shootout Sequence" steps 3-11, "Ending a Shootout", "Where Cards Go"):

* each side's deck is shuffled at the start (its in-play cards removed by the caller)
  and its top five cards are set aside as the play hand;
* each round: shooters (policy codes SP_*), stud/draw bonus from the standing posse,
  draw 5 + stud from the top, use the draw bonus (discard heuristic: discarded cards
  go to the discard pile, then replacements are drawn; Automaton: reveal the draw
  bonus), keep five (shootout_hand.pxd), compare keys, casualties by rank difference
  (1 each on equal ranks), Take Your Lumps (CP_*), Flight or Fight (FK_*), loser first;
* draw-hand cards (jokers too) go to the discard pile after the round; discarded dudes'
  and Sidekicks' cards too; aced dudes to boot hill; an empty deck is refilled by
  shuffling the discard pile ("Deck");
* each side draws from its own bit generator, so a change to one side (one more stud
  card, say) leaves the other side's cards and the first cards of its own hand the same:
  common random numbers for the what-if analysis.
"""
from libc.stdint cimport uint8_t, uint32_t, uint64_t, int8_t, int32_t, int64_t
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t

from card_stream cimport cs_bitgen, cs_shuffle
from shootout_hand cimport _automaton_key, _heuristic, _kept_key
from doomtown_hand cimport dt_lobit, dt_popcount

DEF MAXD = 16                  # dudes per posse
DEF MAXSK = 8                  # Sidekicks per dude
DEF MAXC = 256                 # cards in one side's deck cycle
DEF NB = 11                    # bonuses 0..10
DEF MAXHAND = 40
DEF CAP = 50

# policy codes (oddsmith.rules.doomtown: ShooterPolicy, CasualtyPolicy, FleeKind)
DEF SP_BEST = 0
DEF SP_AUTOMATON = 1
DEF SP_LISTED = 2
DEF CP_AUTOMATON = 0
DEF CP_KEEP_POSSE = 1
DEF CP_SAVE_DUDES = 2
DEF FK_NEVER = 0
DEF FK_OUTNUMBERED = 1
DEF FK_LOSSES = 2
DEF MODE_HEURISTIC = 0
DEF MODE_AUTOMATON = 2

# dude fates
DEF F_STANDING = 0
DEF F_ACED = 1
DEF F_DISCARDED = 2
DEF F_HOME = 3
DEF F_FLED = 4
N_FATES = 5
MAX_DUDES = MAXD
MAX_SIDEKICKS = MAXSK
MAX_CARDS = MAXC
ROUND_CAP = CAP
MAX_DECK = MAXC - MAXD - MAXD * MAXSK
BONUSES = NB

# summary output layout
cpdef enum:
    S_A_WINS = 0
    S_B_WINS = 1
    S_NOBODY = 2
    S_A_FLED = 3
    S_B_FLED = 4
    S_CAP = 5
    S_RESHUFFLE_A = 6
    S_RESHUFFLE_B = 7
    S_RESHUFFLE_ANY = 8
    S_ROUNDS = 9
    S_ROUNDS_SQ = 10
    S_BOUNTY_A = 11
    S_BOUNTY_A_SQ = 12
    S_BOUNTY_B = 13
    S_BOUNTY_B_SQ = 14
    S_LOST_A = 15
    S_LOST_A_SQ = 16
    S_LOST_B = 17
    S_LOST_B_SQ = 18
    S_SIZE = 20


cdef struct Side:
    int nd
    int bullets[MAXD]
    int stud[MAXD]
    int harrowed[MAXD]
    int token[MAXD]
    int bounty[MAXD]
    int code[MAXD]             # card code, -1: no card (given directly, token)
    int nsk[MAXD]
    int skcode[MAXD][MAXSK]
    int shooter_policy
    int casualty_policy
    int flee_kind
    int flee_k
    int margin
    int mode
    int order_shoot[MAXD]      # SP_AUTOMATON / SP_LISTED: first standing dude in this order
    int order_cas[MAXD]        # casualty order of the side's policy
    uint8_t init[MAXC]
    int ninit
    # per shootout
    uint8_t deck[MAXC]
    int top
    int ndeck
    uint8_t disc[MAXC]
    int ndisc
    int state[MAXD]
    int sk_left[MAXD]
    int standing
    int n_stud
    int n_draw
    int gone
    int reshuffled
    int bounty_paid            # bounty of this side's dudes taken as casualties
    int lost                   # dudes aced or discarded
    bitgen_t* bg


cdef inline void _reset(Side* sd) noexcept nogil:
    """A shuffled deck with the play hand (its top five cards) set aside ("4. Draw!"). The
    whole deck is shuffled up front, not card by card as drawn: a side that draws one card
    more (one more stud, say) then meets the same sequence of cards, shifted, which keeps the
    what-if comparisons on common random numbers."""
    memcpy(sd.deck, sd.init, sd.ninit)
    cs_shuffle(sd.deck, sd.ninit, sd.bg)
    sd.top = 5 if sd.ninit >= 5 else sd.ninit
    sd.ndeck = sd.ninit
    _reset_posse(sd)


cdef inline void _reset_posse(Side* sd) noexcept nogil:
    cdef int i
    sd.ndisc = 0
    sd.n_stud = 0
    sd.n_draw = 0
    for i in range(sd.nd):
        sd.state[i] = F_STANDING
        sd.sk_left[i] = sd.nsk[i]
        if sd.stud[i]:
            sd.n_stud += 1
        else:
            sd.n_draw += 1
    sd.standing = sd.nd
    sd.gone = 0
    sd.reshuffled = 0
    sd.bounty_paid = 0
    sd.lost = 0


cdef inline int _draw(Side* sd, uint8_t* card) noexcept nogil:
    """Top card of the deck; an empty deck is refilled by shuffling the discard pile ("Deck")."""
    if sd.top == sd.ndeck:
        if sd.ndisc == 0:
            return 0
        memcpy(sd.deck, sd.disc, sd.ndisc)
        sd.ndeck = sd.ndisc
        sd.top = 0
        sd.ndisc = 0
        cs_shuffle(sd.deck, sd.ndeck, sd.bg)
        sd.reshuffled = 1
    card[0] = sd.deck[sd.top]
    sd.top += 1
    return 1


cdef inline void _to_discard(Side* sd, int code) noexcept nogil:
    if code >= 0:
        sd.disc[sd.ndisc] = <uint8_t>code
        sd.ndisc += 1


cdef inline int _draw_many(Side* sd, uint8_t* cards, int want) noexcept nogil:
    """Up to ``want`` cards from the top of the deck, as ``want`` calls of _draw; returns how many.

    why: a byte written through ``cards`` may alias the side's counters, so a card-by-card loop
    reloads and stores ``sd.top`` for every card; one copy when the deck holds enough."""
    cdef int n = 0
    if sd.ndeck - sd.top >= want:
        memcpy(cards, &sd.deck[sd.top], want)
        sd.top += want
        return want
    while n < want and _draw(sd, &cards[n]):
        n += 1
    return n


cdef inline void _discard_hand(Side* sd, const uint8_t* cards, int n) noexcept nogil:
    """Every card of a hand to the discard pile, in order (as n calls of _to_discard: card codes are >= 0)."""
    memcpy(&sd.disc[sd.ndisc], cards, n)
    sd.ndisc += n


cdef inline void _bonus(const Side* sd, int i, int* s, int* d) noexcept nogil:
    """Rulebook "4. Draw!": the shooter's full bullets, one per backup dude of each type."""
    if sd.stud[i]:
        s[0] = sd.bullets[i] + sd.n_stud - 1
        d[0] = sd.n_draw
    else:
        s[0] = sd.n_stud
        d[0] = sd.bullets[i] + sd.n_draw - 1


cdef inline int _fixed_shooter(const Side* sd) noexcept nogil:
    cdef int k, i
    for k in range(sd.nd):
        i = sd.order_shoot[k]
        if sd.state[i] == F_STANDING:
            return i
    return -1


cdef inline int _options(const Side* sd, int* opt) noexcept nogil:
    """Distinct bonuses (s * NB + d) the side can field, or its one fixed choice."""
    cdef int n = 0, i, k, s, d, b, dup
    if sd.shooter_policy != SP_BEST:
        i = _fixed_shooter(sd)
        _bonus(sd, i, &s, &d)
        opt[0] = s * NB + d
        return 1
    for i in range(sd.nd):
        if sd.state[i] != F_STANDING:
            continue
        _bonus(sd, i, &s, &d)
        b = s * NB + d
        dup = 0
        for k in range(n):
            if opt[k] == b:
                dup = 1
                break
        if not dup:
            opt[n] = b
            n += 1
    return n


cdef inline int _choose(const Side* me, const int* mine, int n_mine, const int* theirs, int n_theirs,
                        const double* pwin, bint me_is_a) noexcept nogil:
    """Maximin: the bonus whose worst P(win the round) over the other side's options is
    highest (first in posse order on ties)."""
    cdef int k, j, best = mine[0], idx
    cdef double worst, top = -1.0, p
    if n_mine == 1:
        return mine[0]
    for k in range(n_mine):
        worst = 2.0
        for j in range(n_theirs):
            if me_is_a:
                idx = mine[k] * NB * NB + theirs[j]
            else:
                idx = theirs[j] * NB * NB + mine[k]
            p = pwin[idx]
            if p < worst:
                worst = p
        if worst > top:
            top = worst
            best = mine[k]
    return best


cdef inline void _redraw(Side* sd, uint8_t* hand, uint32_t mask) noexcept nogil:
    """The cards at the positions of ``mask`` (bit i: position i) to the discard pile, in position order, then each
    replaced, in the same order, by a card drawn as _draw does (as _to_discard and _draw card by card).

    why: card by card, each byte stored may alias the side's counters (the pile's size, the deck's top), which the
    compiler then reloads, and a loop over every position mispredicts on the mask's bits; counters held here and the
    set bits visited one by one cost less."""
    cdef uint32_t m = mask
    cdef int k = sd.ndisc, top, i
    while m:
        sd.disc[k] = hand[dt_lobit(m)]
        k += 1
        m &= m - 1
    sd.ndisc = k
    m = mask
    top = sd.top
    if sd.ndeck - top >= dt_popcount(mask):   # no reshuffle on the way
        while m:
            hand[dt_lobit(m)] = sd.deck[top]
            top += 1
            m &= m - 1
        sd.top = top
        return
    while m:
        i = dt_lobit(m)
        _draw(sd, &hand[i])
        m &= m - 1


cdef inline int64_t _hand(Side* sd, int stud, int draw, int* cheat) noexcept nogil:
    """Rulebook "4. Draw!" from the side's deck; every card ends in the discard pile."""
    cdef uint8_t hand[MAXHAND]
    cdef int n = 0, i, r = 0, want = 5 + stud
    cdef uint32_t mask
    cdef int64_t key
    n = _draw_many(sd, hand, want)
    if draw > 0 and sd.mode == MODE_AUTOMATON:
        r = _draw_many(sd, &hand[n], draw)
        key = _automaton_key(hand, n, r, cheat)
        _discard_hand(sd, hand, n + r)
        return key
    if draw > 0:
        mask = _heuristic(hand, n, draw, sd.margin, &key, cheat)
        if mask:
            _redraw(sd, hand, mask)
            key = _kept_key(hand, n, sd.margin, cheat)
    else:
        key = _kept_key(hand, n, sd.margin, cheat)
    _discard_hand(sd, hand, n)
    return key


cdef inline void _remove(Side* sd, Side* other, int i, int fate) noexcept nogil:
    """Dude ``i`` leaves the posse: aced, discarded or sent home (a casualty), or fled."""
    cdef int k
    sd.state[i] = fate
    sd.standing -= 1
    if sd.stud[i]:
        sd.n_stud -= 1
    else:
        sd.n_draw -= 1
    if fate == F_FLED:
        return
    sd.gone += 1
    if fate == F_HOME:
        return
    sd.lost += 1
    sd.bounty_paid += sd.bounty[i]
    if fate == F_DISCARDED and not sd.token[i]:
        _to_discard(sd, sd.code[i])
    # "Discard Pile": cards attached to an aced or discarded dude go to the discard pile
    for k in range(sd.nsk[i] - sd.sk_left[i], sd.nsk[i]):
        _to_discard(sd, sd.skcode[i][k])
    sd.sk_left[i] = 0


cdef inline int _cover(Side* sd, Side* other, int i, int rem) noexcept nogil:
    """Dude ``i`` covers as many casualties as it can, at most ``rem``; returns them."""
    if sd.harrowed[i]:
        if rem >= 3:
            _remove(sd, other, i, F_ACED)
            return 3
        if rem == 2:
            _remove(sd, other, i, F_DISCARDED)
            return 2
        _remove(sd, other, i, F_HOME)
        return 1
    if rem >= 2:
        _remove(sd, other, i, F_ACED)
        return 2
    _remove(sd, other, i, F_DISCARDED)
    return 1


cdef inline int _discard_sidekick(Side* sd, int i) noexcept nogil:
    """Discard the next Sidekick of dude ``i`` (1 casualty)."""
    cdef int k = sd.nsk[i] - sd.sk_left[i]
    _to_discard(sd, sd.skcode[i][k])
    sd.sk_left[i] -= 1
    return 1


cdef inline int _raise_plan(const Side* sd, int* plan, int extra, bint harrowed) noexcept nogil:
    """One more casualty on each standing dude that is (or is not) Harrowed, in casualty order,
    while ``extra`` lasts; returns what is left of it."""
    cdef int k, i
    for k in range(sd.nd):
        i = sd.order_cas[k]
        if extra > 0 and sd.state[i] == F_STANDING and (sd.harrowed[i] != 0) == harrowed:
            plan[i] += 1
            extra -= 1
    return extra


cdef void _lumps(Side* sd, Side* other, int casualties) noexcept nogil:
    """Rulebook "9. Take Your Lumps" under the side's casualty policy."""
    cdef int rem = casualties, k, i, cat, items, extra, t
    cdef int plan[MAXD]
    if sd.casualty_policy == CP_AUTOMATON:
        # Harrowed (as 1), then Token dudes, then Sidekicks, then dudes
        for cat in range(4):
            for k in range(sd.nd):
                i = sd.order_cas[k]
                if rem <= 0:
                    return
                if sd.state[i] != F_STANDING:
                    continue
                if cat == 0:
                    if sd.harrowed[i]:
                        _remove(sd, other, i, F_HOME)
                        rem -= 1
                elif cat == 1:
                    if sd.token[i] and not sd.harrowed[i]:
                        rem -= _cover(sd, other, i, rem)
                elif cat == 2:
                    while sd.sk_left[i] > 0 and rem > 0:
                        rem -= _discard_sidekick(sd, i)
                else:
                    rem -= _cover(sd, other, i, rem)
        return
    if sd.casualty_policy == CP_KEEP_POSSE:
        for k in range(sd.nd):
            i = sd.order_cas[k]
            if sd.state[i] == F_STANDING:
                while sd.sk_left[i] > 0 and rem > 0:
                    rem -= _discard_sidekick(sd, i)
        for k in range(sd.nd):
            if rem <= 0:
                return
            i = sd.order_cas[k]
            if sd.state[i] == F_STANDING:
                rem -= _cover(sd, other, i, rem)
        return
    # CP_SAVE_DUDES: every item covers 1 first; upgrades only as far as needed
    items = 0
    for i in range(sd.nd):
        if sd.state[i] == F_STANDING:
            items += 1 + sd.sk_left[i]
    if rem <= items:
        # the first rem items: Sidekicks, then Harrowed dudes home, then dudes discarded
        # (Sidekicks first: a Harrowed dude sent home takes his along)
        for k in range(sd.nd):
            i = sd.order_cas[k]
            if sd.state[i] == F_STANDING:
                while sd.sk_left[i] > 0 and rem > 0:
                    rem -= _discard_sidekick(sd, i)
        for k in range(sd.nd):
            i = sd.order_cas[k]
            if rem > 0 and sd.state[i] == F_STANDING and sd.harrowed[i]:
                _remove(sd, other, i, F_HOME)
                rem -= 1
        for k in range(sd.nd):
            i = sd.order_cas[k]
            if rem > 0 and sd.state[i] == F_STANDING:
                _remove(sd, other, i, F_DISCARDED)
                rem -= 1
        return
    extra = rem - items
    # cover per dude: 1 at first; +1 Harrowed (discard), +1 dudes (ace), +1 Harrowed (ace)
    for i in range(sd.nd):
        plan[i] = 1
    extra = _raise_plan(sd, plan, extra, 1)
    extra = _raise_plan(sd, plan, extra, 0)
    extra = _raise_plan(sd, plan, extra, 1)
    for k in range(sd.nd):
        i = sd.order_cas[k]
        if sd.state[i] != F_STANDING:
            continue
        while sd.sk_left[i] > 0:
            _discard_sidekick(sd, i)
        if sd.harrowed[i]:
            t = F_HOME if plan[i] == 1 else (F_DISCARDED if plan[i] == 2 else F_ACED)
        else:
            t = F_DISCARDED if plan[i] == 1 else F_ACED
        _remove(sd, other, i, t)


cdef inline bint _flees(const Side* sd, const Side* other, bint lost_round) noexcept nogil:
    """Rulebook "10. Flight or Fight" under the side's flee policy (all dudes or none)."""
    if sd.flee_kind == FK_OUTNUMBERED:
        return lost_round and sd.standing < other.standing
    if sd.flee_kind == FK_LOSSES:
        return sd.gone >= sd.flee_k
    return 0


cdef inline void _flee(Side* sd, Side* other) noexcept nogil:
    cdef int i
    for i in range(sd.nd):
        if sd.state[i] == F_STANDING:
            _remove(sd, other, i, F_FLED)


cdef int _shootout(Side* a, Side* b, const double* pw_a, const double* pw_b, int* rounds_out, int* fled,
                   int* capped) noexcept nogil:
    """One whole shootout; returns the winner (1 = A, 2 = B, 0 = nobody); ``rounds_out``:
    rounds played; ``fled``: bit 0 A fled, bit 1 B fled; ``capped``: stopped at the cap."""
    cdef int opt_a[MAXD]
    cdef int opt_b[MAXD]
    cdef int na, nb, ba, bb, ca, cb, ra, rb, cas_a, cas_b, rounds = 0, loser
    cdef int64_t ka, kb
    fled[0] = 0
    capped[0] = 0
    _reset(a)
    _reset(b)
    while True:
        if rounds == CAP:
            capped[0] = 1
            rounds_out[0] = rounds
            return 0
        rounds += 1
        # 3. Choose Your Shooters
        na = _options(a, opt_a)
        nb = _options(b, opt_b)
        ba = _choose(a, opt_a, na, opt_b, nb, pw_a, 1) if a.shooter_policy == SP_BEST else opt_a[0]
        bb = _choose(b, opt_b, nb, opt_a, na, pw_b, 0) if b.shooter_policy == SP_BEST else opt_b[0]
        # 4. Draw! ... 7. Compare Hand Ranks
        ka = _hand(a, ba // NB, ba % NB, &ca)
        kb = _hand(b, bb // NB, bb % NB, &cb)
        ra = <int>(ka >> 20)
        rb = <int>(kb >> 20)
        # 8. Determine Casualties
        if ra == rb:
            cas_a = 1
            cas_b = 1
        elif ra > rb:
            cas_a = 0
            cas_b = ra - rb
        else:
            cas_a = rb - ra
            cas_b = 0
        loser = 0 if ka == kb else (2 if ka > kb else 1)
        # 9. Take Your Lumps (the order does not change what either side chooses)
        if cas_a:
            _lumps(a, b, cas_a)
        if cas_b:
            _lumps(b, a, cas_b)
        if a.standing == 0 or b.standing == 0:
            break
        # 10. Flight or Fight: the loser first (the leader, A, on identical hands)
        if loser == 2:
            if _flees(b, a, 1):
                _flee(b, a)
                fled[0] |= 2
                break
            if _flees(a, b, 0):
                _flee(a, b)
                fled[0] |= 1
                break
        else:
            if _flees(a, b, loser == 1):
                _flee(a, b)
                fled[0] |= 1
                break
            if _flees(b, a, 0):
                _flee(b, a)
                fled[0] |= 2
                break
    rounds_out[0] = rounds
    if a.standing == 0 and b.standing == 0:
        return 0
    if a.standing == 0:
        return 2
    return 1


cdef int _side_init(Side* sd, const uint8_t[::1] deck, const int32_t[:, ::1] dudes, const int32_t[:, ::1] skcodes,
                    const int32_t[::1] policy, const int32_t[::1] order_shoot,
                    const int32_t[::1] order_cas, object bit_generator) except -1:
    """``dudes`` rows: bullets, stud (1/0), harrowed, token, bounty, card code (-1 none),
    Sidekicks. ``policy``: shooter, casualty, flee kind, flee K, margin, mode."""
    cdef int i, k
    memset(sd, 0, sizeof(Side))
    if deck.shape[0] > MAXC - MAXD - MAXD * MAXSK or dudes.shape[0] < 1 or dudes.shape[0] > MAXD or dudes.shape[1] != 7:
        raise ValueError("full shootout: bad deck or posse arrays")
    if skcodes.shape[0] != dudes.shape[0] or skcodes.shape[1] != MAXSK or policy.shape[0] != 6:
        raise ValueError("full shootout: bad Sidekick or policy arrays")
    sd.nd = dudes.shape[0]
    sd.ninit = deck.shape[0]
    if sd.ninit:
        memcpy(sd.init, &deck[0], sd.ninit)
    for i in range(sd.nd):
        sd.bullets[i] = dudes[i, 0]
        sd.stud[i] = dudes[i, 1]
        sd.harrowed[i] = dudes[i, 2]
        sd.token[i] = dudes[i, 3]
        sd.bounty[i] = dudes[i, 4]
        sd.code[i] = dudes[i, 5]
        sd.nsk[i] = dudes[i, 6]
        if sd.nsk[i] < 0 or sd.nsk[i] > MAXSK:
            raise ValueError("full shootout: bad Sidekick count")
        for k in range(MAXSK):
            sd.skcode[i][k] = skcodes[i, k]
        sd.order_shoot[i] = order_shoot[i]
        sd.order_cas[i] = order_cas[i]
        if not (0 <= order_shoot[i] < sd.nd and 0 <= order_cas[i] < sd.nd):
            raise ValueError("full shootout: bad order arrays")
    sd.shooter_policy = policy[0]
    sd.casualty_policy = policy[1]
    sd.flee_kind = policy[2]
    sd.flee_k = policy[3]
    sd.margin = policy[4]
    sd.mode = policy[5]
    sd.bg = cs_bitgen(bit_generator) if bit_generator is not None else NULL
    return 0


def simulate(const uint8_t[::1] deck_a, const int32_t[:, ::1] dudes_a, const int32_t[:, ::1] sk_a,
             const int32_t[::1] policy_a, const int32_t[::1] shoot_a, const int32_t[::1] cas_a,
             const uint8_t[::1] deck_b, const int32_t[:, ::1] dudes_b, const int32_t[:, ::1] sk_b,
             const int32_t[::1] policy_b, const int32_t[::1] shoot_b, const int32_t[::1] cas_b,
             const double[::1] pw_a, const double[::1] pw_b,
             object gen_a, object gen_b, Py_ssize_t trials,
             int64_t[::1] summary, int64_t[::1] rounds_hist, int64_t[::1] fates,
             int8_t[::1] per_winner, int8_t[::1] per_lost_a, int8_t[::1] per_lost_b):
    """``trials`` whole shootouts, side A (the leader) against side B. Adds to ``summary``
    (S_* layout), ``rounds_hist`` (rounds played 0..CAP), ``fates`` ([side, dude, fate]
    flattened, 2 * MAX_DUDES * N_FATES). ``per_*``: per-trial winner (0 nobody, 1 A, 2 B)
    and dudes lost (aced or discarded) when their length is ``trials``, else unused.
    ``pw_a``/``pw_b``: P(A wins the round)/P(B wins) per (stud_a, draw_a, stud_b, draw_b)
    (NB**4 entries), used by the ``best`` shooter policy."""
    cdef Side a
    cdef Side b
    cdef Py_ssize_t t
    cdef int rounds, winner, fled, capped, i
    cdef bint per = per_winner.shape[0] == trials
    _side_init(&a, deck_a, dudes_a, sk_a, policy_a, shoot_a, cas_a, gen_a)
    _side_init(&b, deck_b, dudes_b, sk_b, policy_b, shoot_b, cas_b, gen_b)
    if pw_a.shape[0] != NB ** 4 or pw_b.shape[0] != NB ** 4:
        raise ValueError("full shootout: the round-win tables need NB**4 entries")
    if summary.shape[0] < S_SIZE or rounds_hist.shape[0] < CAP + 1 or fates.shape[0] < 2 * MAXD * 5:
        raise ValueError("full shootout: output arrays too small")
    if per and (per_lost_a.shape[0] != trials or per_lost_b.shape[0] != trials):
        raise ValueError("full shootout: per-trial arrays differ in length")
    with gen_a.lock, gen_b.lock:
      with nogil:
        for t in range(trials):
            winner = _shootout(&a, &b, &pw_a[0], &pw_b[0], &rounds, &fled, &capped)
            if capped:
                summary[S_CAP] += 1
            if winner == 1:
                summary[S_A_WINS] += 1
            elif winner == 2:
                summary[S_B_WINS] += 1
            else:
                summary[S_NOBODY] += 1
            if fled & 1:
                summary[S_A_FLED] += 1
            if fled & 2:
                summary[S_B_FLED] += 1
            summary[S_RESHUFFLE_A] += a.reshuffled
            summary[S_RESHUFFLE_B] += b.reshuffled
            summary[S_RESHUFFLE_ANY] += a.reshuffled | b.reshuffled
            summary[S_ROUNDS] += rounds
            summary[S_ROUNDS_SQ] += rounds * rounds
            summary[S_BOUNTY_A] += b.bounty_paid
            summary[S_BOUNTY_A_SQ] += b.bounty_paid * b.bounty_paid
            summary[S_BOUNTY_B] += a.bounty_paid
            summary[S_BOUNTY_B_SQ] += a.bounty_paid * a.bounty_paid
            summary[S_LOST_A] += a.lost
            summary[S_LOST_A_SQ] += a.lost * a.lost
            summary[S_LOST_B] += b.lost
            summary[S_LOST_B_SQ] += b.lost * b.lost
            rounds_hist[rounds] += 1
            for i in range(a.nd):
                fates[i * 5 + a.state[i]] += 1
            for i in range(b.nd):
                fates[(MAXD + i) * 5 + b.state[i]] += 1
            if per:
                per_winner[t] = <int8_t>winner
                per_lost_a[t] = <int8_t>a.lost
                per_lost_b[t] = <int8_t>b.lost


def sample_keys(const uint8_t[::1] deck, int stud, int draw, int margin, int mode, object bit_generator,
                int64_t[::1] keys):
    """Kept keys of ``keys.shape[0]`` shootout hands with (stud, draw) from a freshly shuffled
    ``deck`` (play hand set aside), as a round of :func:`simulate` plays them: the round-win
    table of the ``best`` shooter policy is built from these."""
    cdef Side sd
    cdef Py_ssize_t t
    cdef int cheat
    memset(&sd, 0, sizeof(Side))
    if deck.shape[0] > MAXC - MAXD - MAXD * MAXSK or deck.shape[0] < 10 + stud:
        raise ValueError("sample_keys: bad deck")
    sd.ninit = deck.shape[0]
    memcpy(sd.init, &deck[0], sd.ninit)
    sd.margin = margin
    sd.mode = mode
    sd.bg = cs_bitgen(bit_generator)
    with bit_generator.lock:
      with nogil:
        for t in range(keys.shape[0]):
            _reset(&sd)
            keys[t] = _hand(&sd, stud, draw, &cheat)


def take_lumps(const int32_t[:, ::1] dudes, const int32_t[:, ::1] skcodes, const int32_t[::1] policy,
               const int32_t[::1] order_cas, int casualties, int32_t[::1] fates, int32_t[::1] sidekicks_left,
               int32_t[::1] discarded_cards):
    """One "Take Your Lumps" on a fresh posse (tests): each dude's fate (F_*), the Sidekicks
    it keeps, and the cards put in the discard pile (in order; returns how many)."""
    cdef Side sd
    cdef Side other
    cdef int i
    cdef uint8_t empty[1]
    cdef const uint8_t[::1] no_deck = empty
    _side_init(&sd, no_deck[:0], dudes, skcodes, policy, order_cas, order_cas, None)
    memset(&other, 0, sizeof(Side))
    _reset_posse(&sd)
    _lumps(&sd, &other, casualties)
    for i in range(sd.nd):
        fates[i] = sd.state[i]
        sidekicks_left[i] = sd.sk_left[i]
    for i in range(sd.ndisc):
        discarded_cards[i] = sd.disc[i]
    return sd.ndisc
