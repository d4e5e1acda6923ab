# cython: language_level=3
"""Lookout and Reactions on the table (docs/shadows-battles.md, 'The table battle' 13; cimported by battle_table.pxd
and shadows_battle.pyx).

"Lookout": a model expends an Action to go on Lookout (its Activation ends, a Lookout Token instead of a Done
Token); it loses the Token, replaced by a Done Token, when Shaken, Downed or when an enemy Moves into Contact with
it (battle_game.lookout_lost, called from ``hurt`` and ``update_contacts``), and at the start of its next Activation
at no penalty. "Declaring Reactions" / "Resolving a Reaction": when an Active model declares an Action, one Passive
model on Lookout may React; here a gun model's Shoot Reaction at the triggering model (no Spotting Test, no
Trigger-Happy or Gunslinger: "cannot be used as part of a Reaction") or a brawl model's Move Reaction into Contact
with it, a Charge (battle_table.react, which has the Charge), resolved before the triggering Action, then its
Lookout Token is replaced by a Done Token unless Bushwhacker's Grit Die is a Success. In a two-player game one
Passive model Reacts per triggering Action, so no Reaction Test is rolled (Quickdraw's re-roll never comes up).

A side with no model on Lookout (``g.nlook[side] == 0``) costs one comparison per Action. Every function is
``cdef inline noexcept nogil``; this file needs only battle_game.pxd (the squared distance and the Cover draw
live there, shared with battle_table.pxd); ``react`` itself is in battle_table.pxd, beside the Charge it may make.
"""
from libc.math cimport sqrt
from libc.stdint cimport uint64_t, uint32_t

from shadows_common cimport *
from battle_game cimport *
from battle_tokens cimport *


cdef inline double enemy_move(Setup *p, Game *g, int o, int t) noexcept nogil:
    """One Move of enemy t (side o) as rules (4) and (6) reckon it: the book's 4", or with option ``lookout_move`` (off
    by default: measured worse, docs section 13) its own Move in the Form it is in or on horseback."""
    return move_of(p, g, o, t) if p.opt[O_LOOKOUT_MOVE] else p.opt[O_MOVE] / 1000.0


cdef inline int lookout_wanted(Setup *p, Game *g, int s, int m, int t, double d2) noexcept nogil:
    """Gun rule (6) of a Lookout model (column ``lookout``), on the last Action of an Activation in which it has
    already acted (the caller checks that): instead of Moving toward the closest standing enemy t (squared centre
    distance ``d2``) it goes on Lookout when t is within its best ready Weapon's Long Range plus one Move (enemy_move:
    the book's 4"): t can come into range with one Move."""
    cdef int w
    cdef double lim
    if not tracked(p, g, s, m, M_LOOKOUT, T_LOOKOUT):
        return 0
    for w in range(MAXW):
        if weapon_ready(p, g, s, m, w):
            lim = p.base + p.wp[s][m][w][W_EDGE_L] / 1000.0 + enemy_move(p, g, 1 - s, t) + 1e-6
            return d2 <= lim * lim
    return 0


cdef inline int lookout_wanted_brawl(Setup *p, Game *g, int s, int m, int t, double d2) noexcept nogil:
    """Brawl rule (4) of a Lookout model (column ``lookout``), on the last Action of an Activation in which it has
    already acted (the caller checks that): instead of Moving toward the closest standing enemy t (squared centre
    distance ``d2``, beyond its Charge) it goes on Lookout when t plays brawl and is within its Charge reach plus one
    Move (enemy_move: the book's 4"): t can come into its reach with one Move, and its Charge Reaction then meets t
    first."""
    cdef double lim
    if not tracked(p, g, s, m, M_LOOKOUT, T_LOOKOUT) or (p.mp[1 - s][t][M_STYLE] == STYLE_GUN
                                                         and not g.beast[1 - s][t]):
        return 0
    lim = sqrt(reach2_of(p, g, s, m)) + enemy_move(p, g, 1 - s, t) + 1e-6
    return d2 <= lim * lim


cdef inline void go_lookout(Game *g, int s, int m) noexcept nogil:
    """"By expending an entire Action, a model may go on Lookout": a Lookout Token (it is already marked as
    Activated this Turn, so it is not Activated again)."""
    if not g.look[s][m]:
        g.look[s][m] = 1
        g.nlook[s] += 1


cdef inline void lookout_activated(Game *g, int s, int m) noexcept nogil:
    """"A model loses its Lookout Token at the start of its next Activation at no penalty"."""
    if m >= 0 and g.look[s][m]:
        g.look[s][m] = 0
        g.nlook[s] -= 1


cdef inline void lookout_contact(Game *g, int o, int mask) noexcept nogil:
    """An enemy model Moved into Contact with the models of side o in ``mask``: those on Lookout lose it."""
    cdef int t = 0
    while mask:
        if mask & 1 and g.look[o][t]:
            lookout_lost(g, o, t)
        mask >>= 1
        t += 1


cdef inline void reaction_shoot(Setup *p, Game *g, int o, int r, int w, int s, int m) noexcept nogil:
    """A Shoot Reaction of model r (side o) with Weapon w at the triggering model m (side s): the Weapon's shots,
    each at m while it may be Shot at (not Downed, not in a Fight), no Spotting Test, the band by the gap, Cover
    drawn per shot, Jamming, Boilerplate, the Save, as any shot ("Resolving a Reaction")."""
    cdef int i, band, cov, succ, one
    cdef int *wp = &p.wp[o][r][w][0]
    cdef double d2 = enemy2(g, o, r, m)
    band = band_at(p, o, r, w, d2)
    for i in range(wp[W_SHOTS]):
        if not standing(g, s, m) or (g.cmask[s][m] & g.upmask[o]):
            return
        cov = in_cover(p, g)
        succ = model_test(p, g, o, r, wp[(W_BCOVER if cov else W_BDICE) + band], 0, &one)
        if succ == 0:
            if one and jams(p, g, o, r, w):
                return
            continue
        land_shot(p, g, o, r, s, m, succ, wp[W_BSAVE + band] + (wp[W_SILVER] if p.mp[s][m][M_SUPER] else 0))


cdef inline int reacting_model(Setup *p, Game *g, int s, int m, int *rw) noexcept nogil:
    """The Active model m of side s declares an Action ("Declaring Reactions"): the one Passive model that Reacts, or -1.
    It is the first model of the Passive side in its Activation order that is on Lookout, standing, not in a Fight, and
    can React to m (m standing, not in a Fight, within 12" in a Dust Storm): a gun-style model (in Human Form) with a
    ready Weapon whose Long Range reaches m makes a Shoot Reaction with the best such Weapon (``rw``); a brawl-style
    model, or one in its Beast Form, whose Charge reaches m makes a Move Reaction into Contact with it, a Charge
    (``rw`` -1: "A Reacting model may make a Move Reaction to bring itself into Contact with the triggering model")."""
    cdef int o = 1 - s, i, t, w
    cdef double d2
    if not standing(g, s, m) or (g.cmask[s][m] & g.upmask[o]):
        return -1
    for i in range(g.nm[o]):
        t = p.order[o][i]
        if not g.look[o][t] or not standing(g, o, t) or (g.cmask[o][t] & g.upmask[s]):
            continue
        d2 = enemy2(g, o, t, m)
        if g.dust and d2 > p.dust2 and gloomy(p, g, o, t):
            continue
        if p.mp[o][t][M_STYLE] != STYLE_GUN or g.beast[o][t]:
            if d2 <= reach2_of(p, g, o, t):
                rw[0] = -1
                return t
            continue
        for w in range(MAXW):
            if weapon_ready(p, g, o, t, w) and d2 <= p.band2[o][t][w][2]:
                rw[0] = w
                return t
    return -1


cdef inline void reaction_done(Setup *p, Game *g, int o, int r) noexcept nogil:
    """After its Reaction "the Lookout Token is replaced by a Done Token", unless Bushwhacker's one Grit Die (rolled
    now) is a Success: it "retains its Lookout marker and is not classed as Done"."""
    if not g.look[o][r]:
        return
    if tracked(p, g, o, r, M_BUSHWHACKER, T_BUSHWHACKER) and roll_die(&g.st, cur_die(p, g, o, r)) >= p.opt[O_T]:
        return
    lookout_lost(g, o, r)
