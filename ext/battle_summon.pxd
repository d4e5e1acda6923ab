# cython: language_level=3
"""Summon and Banish on the table (docs/shadows-battles.md section 12, "Summoned Models"), cimported by
shadows_battle.pyx.

A side's Summoned Entities take slots of their own, ENT0 + Difficulty - 1 (Lesser, Minor, Major: "may only have one of
each type of Entity at a time"), filled by the wrapper with the Entity's profile (oddsmith.shadows.battle_plan); the
first Summon of a game sets the side's g.nm to MAXM, so every scan of models sees its Entities (the slots between its
Revenants and ENT0 stay off the table). A model's ``summon`` column: the Difficulties its policy may choose, best
first, 5 bits each (2 bits Difficulty, then one bit per range band, Short, Medium, Long, at which that Summon's value
beats the model's best shot); ``banish``: 4 bits per enemy Entity type (bit 0: its value is positive, then the band
bits). Nothing here rolls a die unless a Power is Cast. Every function is ``cdef inline noexcept nogil``.
"""
from libc.stdint cimport uint64_t

from shadows_common cimport *
from battle_game cimport *
from battle_gear cimport *
from battle_table cimport *
from battle_arcane cimport *


cdef inline int summoned_of(Game *g, int s, int m) noexcept nogil:
    """The Entity slot of Summoner m's Summoned model in play (-1: none): "one Summoned model in play per
    Summoner"."""
    cdef int e
    if g.nm[s] != MAXM:
        return -1
    for e in range(ENT0, MAXM):
        if g.on[s][e] and g.owner[s][e] == m:
            return e
    return -1


cdef inline int caster_clear(Setup *p, Game *g, int s, int m) noexcept nogil:
    """1 if no enemy model on the table is closer than 1" to the Caster (the Entity starts from the Caster's centre and
    must be placed "no closer than 1" to an enemy")."""
    cdef int o = 1 - s, t
    for t in range(g.nm[o]):
        if g.on[o][t] and measured2(g, s, m, o, t) < p.clear2 - 1e-9:
            return 0
    return 1


cdef inline void place_entity(Setup *p, Game *g, int s, int m, int e, int toward) noexcept nogil:
    """Place Entity slot e "within LOS and 3" of the Caster, and no closer than 1" to an enemy" (policy): from the
    Caster's centre straight toward the closest standing enemy ``toward``, up to 3" edge to edge, stopping where it
    would come closer than 1" to any enemy on the table (Downed ones too); then onto the table."""
    cdef int o = 1 - s
    cdef double ux, uy, d, length
    g.x[s][e] = g.x[s][m]
    g.y[s][e] = g.y[s][m]
    d = cdist(g, s, m, o, toward)
    ux = (g.x[o][toward] - g.x[s][m]) / d
    uy = (g.y[o][toward] - g.y[s][m]) / d
    # every enemy on the table stops it, Downed ones too (the Caster stands 1" clear of them: can_summon)
    length = clear_length(p, g, s, e, ux, uy, p.opt[O_SUMMON_RANGE] / 1000.0 + p.base + g.grow[s][m] + g.grow[s][e],
                          g.onmask[o])
    if length < 0:
        length = 0.0
    g.x[s][e] += ux * length
    g.y[s][e] += uy * length
    clamp(p, g, s, e)


cdef inline void entity_enters(Setup *p, Game *g, int s, int m, int e, int toward) noexcept nogil:
    """A successful Summon: Entity slot e comes onto the table, no tokens, not Done (it may Activate this Turn), owned
    by Summoner m. A slot used again keeps its Casualty and Fight marks (the per-slot figures count games)."""
    g.on[s][e] = 1
    g.look[s][e] = 0
    g.downed[s][e] = 0
    g.shaken[s][e] = 0
    g.done[s][e] = 0
    g.jam[s][e] = 0
    g.omen[s][e] = 0
    g.dyn[s][e] = 0
    g.derringer[s][e] = 0
    g.fear[s][e] = 0
    g.acts[s][e] = 0
    gear_reset(p, g, s, e)
    g.owner[s][e] = m
    g.nm[s] = MAXM
    g.grow[s][e] = grow_of(p, g, s, e)   # a Major Entity's 40mm base (section 11d)
    place_entity(p, g, s, m, e, toward)
    refresh_masks(g, s)
    update_contacts(p, g, s, e)


cdef inline int summon_choice(Setup *p, Game *g, int s, int m, int fired, int again, int *band, int *rank,
                              int conc) noexcept nogil:
    """The Difficulty the policy Summons at now (0: none; ``rank``: its place among the ranked ones): the first of its
    ranked Difficulties whose Entity type is not in play, whose Casting Test can succeed (a unique Major Entity's
    Dice reach its Difficulty only after a Concentrate, declared now or just before) and whose value beats the shot
    now (or there is no shot). Only with no Summoned model of its own in play, so no Summoned model is ever removed
    to make room."""
    cdef int col = p.mp[s][m][M_SUMMON], k, nib, d, dice
    if col == 0 or summoned_of(g, s, m) >= 0:
        return 0
    # the Dice a Cast now would roll (a Concentrate declared now or just before counts: CONC_MAY or CONC_BONUS)
    dice = casting_dice(p, g, s, m, p.opt[O_CONCENTRATE_DICE] if conc != CONC_NONE else 0)
    for k in range(3):
        nib = (col >> (5 * k)) & 31
        d = nib & 3
        if d == 0:
            return 0
        if g.nm[s] == MAXM and g.on[s][ENT0 + d - 1]:
            continue
        if dice + (p.opt[O_UNIQUE_DICE] if p.mp[s][ENT0 + d - 1][M_UNIQUE] else 0) < d:
            continue
        if beats_shot_now(p, g, s, m, nib >> 2, fired, again, band):
            rank[0] = k
            return d
    return 0


cdef inline int banish_target(Setup *p, Game *g, int s, int m, int fired, int again, int *band) noexcept nogil:
    """Banish's Target (-1: none): a standing enemy Entity within 6", the Major first, whose type's value is positive
    and beats the shot now (or there is no shot)."""
    cdef int o = 1 - s, k, e, bits
    cdef double r2 = within2(p, p.opt[O_BANISH_RANGE])
    if g.nm[o] != MAXM:
        return -1
    for k in range(2, -1, -1):
        e = ENT0 + k
        bits = (p.mp[s][m][M_BANISH] >> (4 * k)) & 15
        if not (bits & 1) or not standing(g, o, e) or measured2(g, s, m, o, e) > r2:
            continue
        if beats_shot_now(p, g, s, m, bits >> 1, fired, again, band):
            return e
    return -1


cdef inline int summon_action(Setup *p, Game *g, int s, int m, int *fired, int *again, int conc) noexcept nogil:
    """One Action of a model that knows Summon or Banish spent Casting one (DID_CAST) or Concentrating for it
    (DID_CONCENTRATE, battle_arcane.concentrates), else DID_NOTHING without a die rolled (the other Powers and the
    plan's Action follow). Summon first: with a standing enemy to face, no enemy within 1" of the Caster, and a
    Difficulty to choose; else Banish at a Target."""
    cdef int d = 0, e = -1, o = 1 - s, toward = -1, band = -1, k = 0, bits
    cdef double d2
    if not standing(g, s, m) or (fired[0] & CAST_DONE) or n_contact(p, g, s, m, 0):
        return DID_NOTHING
    if p.mp[s][m][M_SUMMON]:
        toward = closest_enemy(p, g, s, m, 0, &d2)
        if toward >= 0 and caster_clear(p, g, s, m):
            d = summon_choice(p, g, s, m, fired[0], again[0], &band, &k, conc)
    if d == 0 and p.mp[s][m][M_BANISH]:
        e = banish_target(p, g, s, m, fired[0], again[0], &band)
    if d == 0 and e < 0:
        return DID_NOTHING
    bits = p.mp[s][m][M_CONCENTRATE] >> (CONC_SUMMON + 3 * k if d else CONC_BANISH + 3 * (e - ENT0))
    if concentrates(p, g, s, m, conc, bits & 7, fired[0], again[0], &band):
        return concentrate(g, s, m, fired)
    # the same stretch of dice as the plan's Action would have had (battle_arcane.cast_action)
    dice_segment(g, (<uint64_t>g.turn << 16) | (1 << 15) | (s << 11) | (m << 6) | (g.acts[s][m] & 63))
    g.acts[s][m] += 1
    fired[0] |= CAST_DONE
    if d:
        # a unique Summoning of this type: "the Casting Test suffers a -1 Die Modifier"
        if casting_test(p, g, s, m, d, conc, p.opt[O_UNIQUE_DICE] if p.mp[s][ENT0 + d - 1][M_UNIQUE] else 0):
            entity_enters(p, g, s, m, ENT0 + d - 1, toward)
    elif casting_test(p, g, s, m, p.opt[O_BANISH_DIFFICULTY], conc, 0):
        # "Roll one Grit Die on behalf of the Caster — a visible Target enemy Entity model within 6" does the same. If
        # the Caster rolls higher, the Target is immediately removed from play": not a Casualty, no VP
        if roll_die(&g.st, cur_die(p, g, s, m)) > roll_die(&g.st, cur_die(p, g, o, e)):
            g.on[o][e] = 0
            g.downed[o][e] = 0
            refresh_masks(g, o)
    return DID_CAST


# ---------------------------------------------------------------------------
# Activations of Entities: "Summoned models are part of the Summoner's Posse", after its models in Activation order;
# the caller asks only for a side that has Summoned (g.nm[s] == MAXM)
# ---------------------------------------------------------------------------

cdef inline int entity_pick(Game *g, int s, int skip) noexcept nogil:
    """The first Entity slot able to Activate (standing, not Done), other than ``skip``; -1 if none."""
    cdef int e
    for e in range(ENT0, MAXM):
        if e != skip and standing(g, s, e) and not g.done[s][e]:
            return e
    return -1


cdef inline int entities_eligible(Game *g, int s) noexcept nogil:
    cdef int e, k = 0
    for e in range(ENT0, MAXM):
        if standing(g, s, e) and not g.done[s][e]:
            k += 1
    return k


cdef inline int entities_waiting(Game *g, int s) noexcept nogil:
    """An Entity on the table not yet Done (it keeps the Action Phase going)."""
    cdef int e
    for e in range(ENT0, MAXM):
        if g.on[s][e] and not g.done[s][e]:
            return 1
    return 0


cdef inline void entity_pass(Game *g, int s) noexcept nogil:
    """Only Downed models left to Activate: the first Downed Entity not Done is Done (after the posse's)."""
    cdef int e
    for e in range(ENT0, MAXM):
        if g.on[s][e] and not g.done[s][e]:
            g.done[s][e] = 1
            return
