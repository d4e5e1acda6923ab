# cython: language_level=3
"""The fixed-range firefight's Shoot Action (``--movement none``, docs/shadows-battles.md), cimported by
shadows_battle.pyx: every enemy stands equally far on open ground, the Target by the ``--targets`` policy,
Dynamite on the line between thrower and Target, the Vessel's Arcane Blast within ``--range``. Every
function is ``cdef inline noexcept nogil``; the random numbers are drawn exactly as before the table existed.
"""
from libc.stdint cimport uint64_t

from shadows_common cimport *
from battle_game cimport *


# ---------------------------------------------------------------------------
# Shooting ("Shoot", "Damage", "Shaken", "Downed")
# ---------------------------------------------------------------------------

cdef inline int choose_target(Setup *p, Game *g, int o) noexcept nogil:
    """A visible enemy not Downed, by the target policy; -1 if none (all enemies stand equally far on open ground,
    so any of them may be the Target with no Spotting Test)."""
    cdef int i, m, best = -1, bd = 99, d
    cdef int pol = p.opt[O_TARGETS]
    if pol == TG_BOSS:
        for m in range(p.n[o]):
            if p.mp[o][m][M_BOSS] and standing(g, o, m):
                return m
    if pol == TG_WEAKEST:
        for i in range(g.nm[o]):
            m = p.order[o][i]
            if standing(g, o, m):
                # lowest Grit Die now rolled, then the smaller Save Modifier, Shaken ones first
                d = cur_die(p, g, o, m) * 4 + tracked(p, g, o, m, M_SAVE, T_SAVE_MOD)
                if g.shaken[o][m]:
                    d -= 1  # a Shaken model goes Down from any further Shaken result
                if d < bd:
                    bd = d
                    best = m
        return best
    for i in range(g.nm[o]):
        m = p.order[o][i]
        if standing(g, o, m):
            return m
    return -1


cdef inline int fire(Setup *p, Game *g, int s, int m, int w, int shots) noexcept nogil:
    """``shots`` Shooting Attacks with Weapon w, each at a Target chosen afresh; stops when it Jams."""
    cdef int o = 1 - s, i, t, succ, one
    cdef int *wp = &p.wp[s][m][w][0]
    for i in range(shots):
        t = choose_target(p, g, o)
        if t < 0:
            return 0
        succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], light_dice(p, g, s, m, wp[W_DICE]),
                         p.opt[O_READING], 0, p.opt[O_ONE_FACE], &one)
        if succ == 0:
            if one and jams(p, g, s, m, w):
                return 0
            continue
        land_shot(p, g, s, m, o, t, succ, wp[W_SAVE] + (wp[W_SILVER] if p.mp[o][t][M_SUPER] else 0))
    return 0


cdef inline void blast(Setup *p, Game *g, int o, int t, int thrower_side) noexcept nogil:
    """A model caught by Dynamite: a 7+ Save ("Ka-Boom!"); its thrower's side earns VP for an enemy Casualty."""
    if not g.on[o][t]:
        return
    cdef int code = save_roll(p, g, o, t, p.opt[O_BLAST_SAVE], 0)
    hurt(p, g, o, t, code, thrower_side if o != thrower_side else -1)


cdef inline void throw_dynamite(Setup *p, Game *g, int s, int m, int t) noexcept nogil:
    """An unmodified 1 Die Shooting Test ("Dynamite"); on open ground the thrower and the Target stand on one line
    ``distance`` apart (in thousandths of an inch) and only they can be caught within the blast radius."""
    cdef int o = 1 - s, d, score, what
    cdef int r = p.opt[O_BLAST_RADIUS] * 1000, dist = p.opt[O_DISTANCE]
    score = roll_die(&g.st, cur_die(p, g, s, m))
    g.dyn[s][m] -= 1
    if score >= p.opt[O_T]:
        blast(p, g, o, t, s)
        return
    what = p.dyn_fail[score] if score < 8 else DY_DUD
    if what == DY_THROWER:
        blast(p, g, s, m, s)
    elif what == DY_TOWARDS:
        d = roll_die(&g.st, p.opt[O_SCATTER_DIE]) * 1000
        if d <= r:
            blast(p, g, o, t, s)
        if (dist - d if dist >= d else d - dist) <= r:
            blast(p, g, s, m, s)
    elif what == DY_AWAY:
        d = roll_die(&g.st, p.opt[O_SCATTER_DIE]) * 1000
        if d <= r:
            blast(p, g, o, t, s)
        if dist + d <= r:
            blast(p, g, s, m, s)


cdef inline void arcane_fixed(Setup *p, Game *g, int s, int m, int t) noexcept nogil:
    """Arcane Blast at the fixed range (docs/shadows-battles.md, section 9): the Casting Test, then an unmodified
    3 Dice Shooting Test at the policy's Target."""
    cdef int succ, one
    succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T],
                     light_dice(p, g, s, m, p.opt[O_CASTING_DICE] + (p.opt[O_STORM_DICE] if g.storm else 0)),
                     p.opt[O_READING], 0, p.opt[O_ONE_FACE], &one)
    if succ == 0 and one:
        hurt(p, g, s, m, DMG_CASUALTY if g.storm else DMG_SHAKEN, -1)   # Miscast (a Casualty in an Arcane Storm)
        return
    if succ < p.opt[O_ARCANE_DIFFICULTY]:
        return
    succ = roll_test(&g.st, cur_die(p, g, s, m), p.opt[O_T], p.opt[O_ARCANE_DICE], p.opt[O_READING], 0,
                     p.opt[O_ONE_FACE], &one)
    if succ > 0:
        land_shot(p, g, s, m, 1 - s, t, succ, 0)


cdef inline void shoot_action(Setup *p, Game *g, int s, int m, int *fired, int *again) noexcept nogil:
    """One Action of model m: Dynamite (once per stick, within throwing range), else a Gunslinger's two Pistols,
    else its best ready Weapon not fired this Activation (Trigger-Happy: the same one once more), else clear a Jam."""
    cdef int w, a, b, t
    if not standing(g, s, m):
        return
    # each model's Actions roll their own dice: a change to one model leaves the others' rolls as they were
    dice_segment(g, (<uint64_t>g.turn << 16) | (1 << 15) | (s << 11) | (m << 6) | (g.acts[s][m] & 63))
    g.acts[s][m] += 1
    if p.mp[s][m][M_ARCANE]:
        # the Vessel casts Arcane Blast when the enemy is within 9" (Faction Benefit: The Vessel)
        if 0 <= p.opt[O_DISTANCE] <= p.opt[O_ARCANE_RANGE]:
            t = choose_target(p, g, 1 - s)
            if t >= 0:
                arcane_fixed(p, g, s, m, t)
        return
    if g.dyn[s][m] > 0 and p.opt[O_DISTANCE] >= 0 and p.opt[O_DISTANCE] <= p.opt[O_DYN_RANGE] * 1000:
        t = choose_target(p, g, 1 - s)
        if t >= 0:
            throw_dynamite(p, g, s, m, t)
            return
    if p.pistols[s][m] >= 2 and tracked(p, g, s, m, M_GUNSLINGER, T_GUNSLINGER):   # read only where a pair is
        a = -1
        b = -1
        for w in range(MAXW):
            if p.wp[s][m][w][W_PISTOL] and weapon_ready(p, g, s, m, w) and not ((fired[0] >> w) & 1):
                if a < 0:
                    a = w
                elif b < 0:
                    b = w
        if b >= 0:
            fired[0] |= (1 << a) | (1 << b)
            fire(p, g, s, m, a, 1)   # "Sixguns may not fire twice"
            fire(p, g, s, m, b, 1)
            return
    for w in range(MAXW):
        if not weapon_ready(p, g, s, m, w):
            continue
        if (fired[0] >> w) & 1:
            if (tracked(p, g, s, m, M_TRIGGER, T_TRIGGER) and not again[0]
                    and not tracked(p, g, s, m, M_GUNSLINGER, T_GUNSLINGER)):
                again[0] = 1
            else:
                continue
        fired[0] |= 1 << w
        fire(p, g, s, m, w, p.wp[s][m][w][W_SHOTS])
        return
    for w in range(MAXW):
        if p.wp[s][m][w][W_USABLE] and (g.jam[s][m] >> w) & 1:
            g.jam[s][m] &= ~(1 << w)   # a Move Action clears one Jammed Weapon
            return
