# cython: language_level=3
"""Whiskey and Snake Oil on the table (docs/shadows-battles.md, section 11; "Horses and Gear Summary").

Cimported by battle_table.pxd (the Shoot Test's dice, the Fearsome Nerve Test, a Charge, the start of an Action) and
shadows_battle.pyx (the Bottle Check, a game's start). Only state and dice: the one Move the policy makes is done by
the ``move`` function the caller hands in (battle_table.move_toward), so this file needs nothing of the table's.
A model that carries neither item never reaches the policy (the callers test its counts first) and rolls no die here.
"""
from libc.math cimport sqrt

from shadows_common cimport *
from battle_game cimport *

ctypedef void (*gear_move_fn)(Setup *p, Game *g, int s, int m, double tx, double ty,
                              double length) noexcept nogil


cdef inline void gear_reset(Setup *p, Game *g, int s, int m) noexcept nogil:
    """A game starts: the model carries the posse file's bottles (single-use each) and has drunk nothing."""
    g.whiskey[s][m] = p.mp[s][m][M_WHISKEY]
    g.oil[s][m] = p.mp[s][m][M_SNAKE_OIL]
    g.drunk[s][m] = 0


cdef inline int whiskey_on(Game *g, int s, int m) noexcept nogil:
    """It drank Whiskey this Game Turn: it "automatically passes all Nerve Tests it would have to make for the rest of
    this Turn (including Bottle Checks)"; "The effects of Whiskey end at the start of the following Game Turn"."""
    return g.drunk[s][m] == g.turn


cdef inline int whiskey_dice(Setup *p, Game *g, int s, int m, int dice) noexcept nogil:
    """Dice of a Shoot Test of model m: after Whiskey "a -1 Die Modifier on all Shoot Tests", never below 1 Die."""
    if g.drunk[s][m] != g.turn:
        return dice
    dice += p.opt[O_WHISKEY_DICE]
    return dice if dice >= 1 else 1


cdef inline void gear_drink(Game *g, int s, int m) noexcept nogil:
    g.whiskey[s][m] -= 1
    g.drunk[s][m] = g.turn


cdef inline void whiskey_at_charge(Setup *p, Game *g, int s, int m, int t, double d) noexcept nogil:
    """Policy: a Charge that reached a standing Fearsome enemy t from distance ``d`` (centres, less both bases'
    g.grow, as measured2 reads it; model m not Fearsome itself, no Nerve Test against a Fearsome model taken this
    Activation, not drunk already this Turn): it drank on the way, as part of the Charge's Move, when the Target was within the Charge's reach less Whiskey's 1"."""
    cdef int o = 1 - s
    if g.drunk[s][m] == g.turn or not standing(g, o, t) or not fearsome(p, g, o, t) or fearsome(p, g, s, m) \
            or (g.fear[s][m] >> 1) == g.act_id:
        return
    if d <= p.base + (p.mp[s][m][M_MOVE] - p.opt[O_WHISKEY_MOVE]) / 1000.0 + 1e-6:   # "within" up to rounding
        gear_drink(g, s, m)


cdef inline int gear_bottle_due(Setup *p, Game *g, int s) noexcept nogil:
    """Side s's posse models standing are half its starting number or fewer: a Bottle Check would be made now."""
    cdef int m, up = 0
    for m in range(p.n[s]):
        if standing(g, s, m):
            up += 1
    return up <= p.n[s] // 2


cdef inline int gear_touch(Setup *p, Game *g, int s, int m, int f) noexcept nogil:
    """Friend f of model m is on the table with its base touching m's (Contact)."""
    return g.on[s][f] and measured2(g, s, m, s, f) <= p.contact2


cdef inline void snake_oil(Setup *p, Game *g, int s, int m, int f) noexcept nogil:
    """Model m applies Snake Oil to f (itself or a friend in Contact): "Roll a D6. The model immediately removes its
    Shaken marker (or stands up as if it was Down) on a roll of 4+. Regardless of Success, the item is used up"
    (reading: a Down model stands up and keeps its Shaken marker if it had one)."""
    g.oil[s][m] -= 1
    if roll_die(&g.st, p.opt[O_OIL_DIE]) >= p.opt[O_OIL_ON]:
        if g.downed[s][f]:
            g.downed[s][f] = 0
        else:
            g.shaken[s][f] = 0
        refresh_masks(g, s)


cdef inline int gear_action(Setup *p, Game *g, int s, int m, gear_move_fn move) noexcept nogil:
    """Policy at the start of an Action of a standing model with Whiskey or Snake Oil left (section 11), first that
    applies: (1) it would make its posse's Bottle Check now and one is due: it drinks (a Move Action, staying put);
    Snake Oil (a full Move Action) on (2) a Downed friend in Contact (first in Activation order), (3) itself if
    Shaken, (4) a standing Shaken friend in Contact; (5) no standing enemy within D*: a Move into Contact with the
    closest Downed friend within its Move. Returns 1 when the gear took the Action (a Move), 0 when the plan goes on."""
    cdef int o = 1 - s, i, f, best = -1
    cdef double d2, bd = 1e18, r
    if g.whiskey[s][m] and g.drunk[s][m] != g.turn and gear_bottle_due(p, g, s) and bottle_roller(p, g, s) == m:
        gear_drink(g, s, m)
        return 1
    if not g.oil[s][m]:
        return 0
    for i in range(g.nm[s]):
        f = p.order[s][i]
        if f != m and g.downed[s][f] and gear_touch(p, g, s, m, f):
            snake_oil(p, g, s, m, f)
            return 1
    if g.shaken[s][m]:
        snake_oil(p, g, s, m, m)
        return 1
    for i in range(g.nm[s]):
        f = p.order[s][i]
        if f != m and g.shaken[s][f] and not g.downed[s][f] and gear_touch(p, g, s, m, f):
            snake_oil(p, g, s, m, f)
            return 1
    if g.onmask[s] == g.upmask[s]:
        return 0   # no Downed friend
    for i in range(g.nm[o]):
        if (g.upmask[o] >> i) & 1:
            if measured2(g, s, m, o, i) <= p.desired2[s][m]:
                return 0   # an enemy within D*: the plan goes on
    r = p.base + move_of(p, g, s, m) + 1e-6
    for i in range(g.nm[s]):
        f = p.order[s][i]
        if f != m and g.on[s][f] and g.downed[s][f]:
            d2 = measured2(g, s, m, s, f)
            if d2 <= r * r and d2 < bd:
                bd = d2
                best = f
    if best < 0:
        return 0
    move(p, g, s, m, g.x[s][best], g.y[s][best], sqrt(bd) - p.base)
    return 1
