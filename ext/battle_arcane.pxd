# cython: language_level=3
"""Arcane Powers of casting models on the table (docs/shadows-battles.md section 12), cimported by shadows_battle.pyx.

A model with a non-zero ``casts`` column (the Powers its policy casts, best first, 7 bits each: the code 1 Arcane
Blast, 2 Transfix, 3 Immolate, 4 Faith Healing, 5 Bless, 6 Curse, 7 Dispel (battle_tokens.pxd) in 4 bits, then one bit
per range band, Short, Medium, Long, at which the
Power's value beats the model's best shot; the wrapper ranks them by expected effect)
tries, before each Action of its plan, the first of them that has a Target ("Casting Powers": once per Activation,
instead of a Move or Shoot Action, not in Contact with an enemy). Nothing here rolls a die unless a Power is Cast;
models with ``casts`` 0 cost one column test per Action. The Congregation's Vessel keeps its own Arcane Blast
(battle_table.arcane_blast, section 9). Every function is ``cdef inline noexcept nogil``.

Concentrate ("Concentrate"): the ``concentrate`` column holds 3 band bits per Power of ``casts`` (bits 3k..3k+2), per
ranked Summon Difficulty (12 + 3k) and per enemy Entity type for Banish (21 + 3k): at that band of the closest
candidate, Concentrating and then Casting beats Casting and then the best shot. On the Activation's first Action with
another to follow (``conc`` CONC_MAY), the Power chosen now is not Cast: the Action is a Concentrate, and a Cast on the
very next Action rolls O_CONCENTRATE_DICE more (CONC_BONUS).
"""
from libc.stdint cimport uint64_t

from shadows_common cimport *
from battle_game cimport *
from battle_table cimport *
from battle_tokens cimport *

cdef enum:
    PW_BLAST = 1
    PW_TRANSFIX = 2
    PW_IMMOLATE = 3
    PW_HEAL = 4
    CAST_DONE = 256    # a bit of the Activation's ``fired`` mask (Weapons use bits 0..MAXW-1): it has Cast
    ACTED = 512        # ... it has begun an Action this Activation
    CONCENTRATED = 1024   # ... its last Action was a Concentrate
    CONC_NONE = 0      # this Action neither may Concentrate nor gains from it
    CONC_MAY = 1       # the Activation's first Action, another to follow: it may Concentrate
    CONC_BONUS = 2     # the Action after a Concentrate: a Cast rolls +1 Die
    CONC_SUMMON = 12   # the first bit of the ranked Summon Difficulties in the ``concentrate`` column
    CONC_BANISH = 21   # ... of the enemy Entity types for Banish


cdef inline double within2(Setup *p, int inches) noexcept nogil:
    """Squared centre distance of a model "within" ``inches`` (thousandths) of another, edge to edge."""
    cdef double r = p.base + inches / 1000.0 + 1e-6
    return r * r


cdef inline int harbinger_near(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The Magister's Harbinger of the Abyss is on the table, not Downed and within 6" of it ("The Crossroads
    Cult")."""
    cdef int t
    cdef double r2
    if not p.mp[s][m][M_MAGISTER]:
        return 0
    r2 = within2(p, p.opt[O_HARBINGER_RANGE])
    for t in range(g.nm[s]):
        if p.mp[s][t][M_HARBINGER] and g.on[s][t] and not g.downed[s][t] and measured2(g, s, m, s, t) <= r2:
            return 1
    return 0


cdef inline int casting_dice(Setup *p, Game *g, int s, int m, int mod) noexcept nogil:
    """The Casting Test's Dice: 3, +1 for a Grimoire given to an Arcanist, +1 for the Magister with its Harbinger
    near, +1 in an Arcane Storm, and ``mod`` more (+1 after a Concentrate, a unique Summoning's -1)."""
    return (p.opt[O_CASTING_DICE] + p.mp[s][m][M_GRIMOIRE] + (p.opt[O_HARBINGER_DICE] if harbinger_near(p, g, s, m)
                                                              else 0) + (p.opt[O_STORM_DICE] if g.storm else 0) + mod)


cdef inline int casting_test(Setup *p, Game *g, int s, int m, int difficulty, int conc, int mod) noexcept nogil:
    """A Casting Test ("Casting Powers") on :func:`casting_dice`, +1 after a Concentrate (``conc`` CONC_BONUS),
    ``mod`` more: 1 if Successes reach the Difficulty; no Successes and a 1 showing is a Miscast, the Caster Shaken
    (Downed if already Shaken; in an Arcane Storm "the Caster immediately becomes a Casualty")."""
    cdef int succ, one
    succ = model_test(p, g, s, m, casting_dice(p, g, s, m, mod + (p.opt[O_CONCENTRATE_DICE] if conc == CONC_BONUS
                                                                  else 0)), 0, &one)
    if succ == 0 and one:
        hurt(p, g, s, m, DMG_CASUALTY if g.storm else DMG_SHAKEN, -1)   # an Arcane Storm's Miscast: a Casualty
        return 0
    return succ >= difficulty


cdef inline int transfix_target(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Transfix's Target: the first enemy in its Activation order standing, not yet Activated (not Done) and within
    6" (no Entity is ever on the table); -1 if none."""
    cdef int o = 1 - s, i, t
    cdef double r2 = within2(p, p.opt[O_TRANSFIX_RANGE])
    for i in range(g.nm[o]):
        t = p.order[o][i]
        if (g.upmask[o] >> t) & 1 and not g.done[o][t] and measured2(g, s, m, o, t) <= r2 and t < ENT0:
            return t   # "non-Entity": Entity slots are ENT0.. (battle_summon.pxd)
    return -1


cdef inline int immolate_target(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Immolate is cast (policy) when a standing enemy's centre lies within 3" of the Caster (3" + its base's radius
    from its centre) and no friend is within the 3" radius at all; returns 0 or -1."""
    cdef int o = 1 - s, t, hit = 0
    cdef double rc = p.opt[O_IMMOLATE_RANGE] / 1000.0 + p.base / 2 + 1e-6, r2 = within2(p, p.opt[O_IMMOLATE_RANGE])
    for t in range(g.nm[s]):
        if t != m and g.on[s][t] and measured2(g, s, m, s, t) <= r2:
            return -1
    for t in range(g.nm[o]):
        if (g.upmask[o] >> t) & 1 and dist2(g, s, m, o, t) <= (rc + g.grow[s][m]) * (rc + g.grow[s][m]):
            hit = 1
    return 0 if hit else -1


cdef inline int heal_target(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Faith Healing's Target: a Downed friend in Contact (the first by index), else a Shaken one; -1 if none."""
    cdef int t, shaken = -1
    for t in range(g.nm[s]):
        if t != m and g.on[s][t] and measured2(g, s, m, s, t) <= p.contact2:
            if g.downed[s][t]:
                return t
            if g.shaken[s][t] and shaken < 0:
                shaken = t
    return shaken


cdef inline int power_target(Setup *p, Game *g, int s, int m, int code) noexcept nogil:
    if code == PW_BLAST:
        return closest_candidate(p, g, s, m, p.arcane2)
    if code == PW_TRANSFIX:
        return transfix_target(p, g, s, m)
    if code == PW_IMMOLATE:
        return immolate_target(p, g, s, m)
    if code == PW_HEAL:
        return heal_target(p, g, s, m)
    return token_target(p, g, s, m, code)   # Bless, Curse, Dispel (battle_tokens.pxd)


cdef inline void immolate(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Immolate: every other model whose centre lies within 3" of the Caster makes a 5+ Save; one within the radius
    whose centre is not makes a 1 Die Reaction Test and the Save if it Fails (enemies first, by index; the Caster's
    side earns the VP of enemy Casualties)."""
    cdef int k, side, t, succ, one
    cdef double d2, rc = p.opt[O_IMMOLATE_RANGE] / 1000.0 + p.base / 2 + 1e-6, r2 = within2(p, p.opt[O_IMMOLATE_RANGE])
    for k in range(2):
        side = 1 - s if k == 0 else s
        for t in range(g.nm[side]):
            if not g.on[side][t] or (side == s and t == m):
                continue
            if measured2(g, s, m, side, t) > r2:
                continue
            d2 = dist2(g, s, m, side, t)
            if d2 > (rc + g.grow[s][m]) * (rc + g.grow[s][m]):
                succ = model_test(p, g, side, t, p.opt[O_REACTION_DICE], 0, &one)
                if succ > 0:
                    continue
            hurt(p, g, side, t, save_roll(p, g, side, t, p.opt[O_IMMOLATE_SAVE], 0), s if side != s else -1)


cdef inline int shot_band(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The range band (0 Short, 1 Medium, 2 Long, 3 beyond) of the closest candidate for the model's best Weapon."""
    cdef int b
    cdef double d2
    if closest_candidate(p, g, s, m, 1e18) < 0:
        return 3
    d2 = g.nc_d2
    for b in range(3):
        if d2 <= p.band2[s][m][0][b]:
            return b
    return 3


cdef inline int beats_shot_now(Setup *p, Game *g, int s, int m, int bands, int fired, int again,
                               int *band) noexcept nogil:
    """A Power's value beats the model's best shot now: ``bands`` holds 3 bits (Short, Medium, Long) saying at which
    band of the closest candidate for its best Weapon it does; true also when a Shoot Action would not shoot. The
    band is worked out once per Action (``band``: -1 until then; 3: no shot)."""
    if bands == 7:
        return 1
    if band[0] < 0:
        band[0] = shot_band(p, g, s, m) if can_shoot(p, g, s, m, fired, again) else 3
    return band[0] == 3 or (bands >> band[0]) & 1


cdef inline int concentrates(Setup *p, Game *g, int s, int m, int conc, int bits, int fired, int again,
                             int *band) noexcept nogil:
    """Policy: this Action is a Concentrate instead of the Cast chosen now (``bits``: its 3 band bits of the
    ``concentrate`` column): only as the Activation's first Action with another to follow, where Concentrating beats
    the shot the other Action would make at the band now; with no shot now, the other Action is a Move toward one,
    taken to be worth a shot at Long Range."""
    if conc != CONC_MAY or bits == 0:
        return 0
    if band[0] < 0:
        band[0] = shot_band(p, g, s, m) if can_shoot(p, g, s, m, fired, again) else 3
    return (bits >> (band[0] if band[0] < 3 else 2)) & 1


cdef inline int concentrate(Game *g, int s, int m, int *fired) noexcept nogil:
    """A Concentrate Action ("Concentrate"): no die; the next Action's Casting Test gains +1 Die."""
    g.acts[s][m] += 1
    fired[0] |= CONCENTRATED
    return DID_CONCENTRATE


cdef inline int cast_action(Setup *p, Game *g, int s, int m, int *fired, int *again, int conc) noexcept nogil:
    """One Action of a casting model spent on a Power, if its policy has one with a Target now (DID_CAST), else
    DID_NOTHING without a die rolled (the plan's Action follows). Each Power's 7 bits: its code (4 bits), and 3 bits saying
    at which band (Short, Medium, Long) of the closest candidate its value beats the model's best shot; a Power is
    cast when a Shoot Action would not shoot now, or when it beats the shot at the current band. ``conc``: see
    Concentrate above."""
    cdef int k, nib, code = 0, t = -1, o = 1 - s, ranks = p.mp[s][m][M_CASTS], succ, one, band = -1
    if not standing(g, s, m) or (fired[0] & CAST_DONE) or n_contact(p, g, s, m, 0):
        return DID_NOTHING
    for k in range(4):
        nib = (ranks >> (7 * k)) & 127
        code = nib & 15
        if code == 0:
            return DID_NOTHING
        if not beats_shot_now(p, g, s, m, nib >> 4, fired[0], again[0], &band):
            continue
        t = power_target(p, g, s, m, code)
        if t >= 0:
            break
    if t < 0:
        return DID_NOTHING
    if concentrates(p, g, s, m, conc, (p.mp[s][m][M_CONCENTRATE] >> (3 * k)) & 7, fired[0], again[0], &band):
        return concentrate(g, s, m, fired)
    # the same stretch of dice as the plan's Action would have had (battle_table.table_action)
    dice_segment(g, (<uint64_t>g.turn << 16) | (1 << 15) | (s << 11) | (m << 6) | (g.acts[s][m] & 63))
    g.acts[s][m] += 1
    fired[0] |= CAST_DONE
    if code == PW_BLAST:
        if casting_test(p, g, s, m, p.opt[O_ARCANE_DIFFICULTY], conc, 0):
            # an unmodified 3 Dice Shooting Test, no Jam, Save and Damage as a shot
            succ = model_test_as_is(p, g, s, m, p.opt[O_ENTITY_BLAST_DICE] if t >= ENT0 else p.opt[O_ARCANE_DICE],
                                    0, &one)   # "Roll four Dice if the Target is an Entity"
            if succ > 0:
                land_shot(p, g, s, m, o, t, succ, 0)
    elif code == PW_TRANSFIX:
        if casting_test(p, g, s, m, p.opt[O_TRANSFIX_DIFFICULTY], conc, 0):
            succ = model_test(p, g, o, t, p.opt[O_TRANSFIX_DICE], tracked(p, g, o, t, M_NERVE_RR, T_NERVE_RR), &one)
            if succ == 0:
                g.done[o][t] = 1   # "immediately receive a Done Token"
    elif code == PW_IMMOLATE:
        if casting_test(p, g, s, m, p.opt[O_IMMOLATE_DIFFICULTY], conc, 0):
            immolate(p, g, s, m)
    elif code == PW_HEAL:
        if casting_test(p, g, s, m, p.opt[O_HEALING_DIFFICULTY], conc, 0):
            if g.downed[s][t]:
                g.downed[s][t] = 0   # "stands up if Down"
            else:
                g.shaken[s][t] = 0   # "if Shaken it removes this Token"
            refresh_masks(g, s)
    elif casting_test(p, g, s, m, token_difficulty(p, code), conc, 0):
        token_cast(p, g, s, m, code, t)   # Bless, Curse, Dispel (battle_tokens.pxd)
    return DID_CAST
