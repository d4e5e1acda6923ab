# cython: language_level=3
"""The table battle's steps (docs/shadows-battles.md, sections 1-9), cimported by shadows_battle.pyx.

Geometry in inches as doubles, a model a disc of diameter ``p.base`` plus twice its ``g.grow`` (a 40mm base:
section 11d): distances edge to edge ("Measuring", measured2), Contact at gap 0 (+1e-6). Moves ("Move", "Other
Models"), Charges, Disengaging, Targets
("Declare Weapon and Target", Spotting Tests), Shooting with Cover drawn per shot, Dynamite blasts on
positions, Fights ("Fight", "Outnumbered", Fighting Skills Table), Arcane Blast, and the plans' choice of
each Action. Every function is ``cdef inline noexcept nogil``.
"""
from libc.math cimport sqrt, fabs
from libc.stdint cimport uint64_t, uint32_t

from shadows_common cimport *
from battle_game cimport *
from battle_tokens cimport *
from battle_gear cimport *
from battle_reactions cimport *


# ---------------------------------------------------------------------------
# Geometry ("Measuring", "Contact")
# ---------------------------------------------------------------------------

cdef inline int popcount(int x) noexcept nogil:
    cdef int k = 0
    while x:
        x &= x - 1
        k += 1
    return k


cdef inline double cdist(Game *g, int s, int m, int o, int t) noexcept nogil:
    return sqrt(dist2(g, s, m, o, t))


cdef inline double gap_of(Setup *p, Game *g, int s, int m, int o, int t) noexcept nogil:
    """Edge-to-edge distance of two models, never below 0."""
    cdef double d = sqrt(measured2(g, s, m, o, t)) - p.base
    return d if d > 0 else 0.0


cdef inline void update_contacts(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Model m of side s has Moved: set_contacts, and the enemies it touches lose their Lookout Tokens."""
    cdef int o = 1 - s, mask = set_contacts(p, g, s, m)
    if g.nlook[o] and mask:
        lookout_contact(g, o, mask)   # "an enemy model Moves into Contact with it" ("Lookout")


cdef inline int touching(Setup *p, Game *g, int s, int m, int o, int t) noexcept nogil:
    """Enemy t of side o is on the table and in Contact with model m of side s."""
    return (g.cmask[s][m] >> t) & 1 and g.on[o][t]


cdef inline int n_contact(Setup *p, Game *g, int s, int m, int standing_only) noexcept nogil:
    """Enemies in Contact with the model (only those not Downed when ``standing_only``)."""
    return popcount(g.cmask[s][m] & (g.upmask[1 - s] if standing_only else g.onmask[1 - s]))


cdef inline int engaged(Setup *p, Game *g, int o, int t) noexcept nogil:
    """Model t of side o is in a Fight: in Contact with an enemy model not Downed."""
    return (g.cmask[o][t] & g.upmask[1 - o]) != 0


cdef inline double approach(Setup *p, Game *g, int s, int m, int t, double ux, double uy, double *b) noexcept nogil:
    """Model m's path along the unit vector (ux, uy) against enemy t's 1" ("Other Models"): returns the squared centre
    distance now less that of a 1" gap (<= 0: already within it); ``b``: the path's rate of approach (< 0: nearing).
    Along the path the squared distance less that of the gap is L² + 2 b L + c, so it enters and leaves the 1" at
    L = -b -/+ sqrt(b² - c)."""
    cdef int o = 1 - s
    cdef double wx = g.x[s][m] - g.x[o][t], wy = g.y[s][m] - g.y[o][t], e = g.grow[s][m] + g.grow[o][t]
    b[0] = ux * wx + uy * wy
    if e != 0:
        return wx * wx + wy * wy - (p.clear + e) * (p.clear + e)
    return wx * wx + wy * wy - p.clear2


cdef inline double clear_length(Setup *p, Game *g, int s, int m, double ux, double uy, double length,
                                int enemies) noexcept nogil:
    """How far model m may go along the unit vector (ux, uy), at most ``length``, before it would come closer than 1"
    to an enemy of the bit mask ``enemies`` ("Other Models"); already within 1" of one, it may not go any closer."""
    cdef int o = 1 - s, t
    cdef double b, c, disc, t1
    for t in range(g.nm[o]):
        if not (enemies >> t) & 1:
            continue
        c = approach(p, g, s, m, t, ux, uy, &b)
        if c <= 1e-9:
            if b < 0:
                length = 0.0
            continue
        if b >= 0:
            continue        # moving away from it
        if -b > length and c > length * (-2 * b - length) + 1e-7:
            continue        # it enters that 1" (if ever) beyond this Move: t1 >= length without a square root
        disc = b * b - c
        if disc < 0:
            continue
        t1 = -b - sqrt(disc)
        if t1 < length:
            length = t1
    return length


cdef inline double fly_length(Setup *p, Game *g, int s, int m, double ux, double uy, double length,
                              int enemies) noexcept nogil:
    """How far a Flying model goes along (ux, uy), at most ``length``: it "may ignore all other models ... as they
    Move", so only where it ends counts: not closer than 1" to an enemy of the bit mask ``enemies``. An end within one
    enemy's 1" moves back to where the path enters it, until no such enemy is left; as for any model, it goes no
    nearer to an enemy it starts within 1" of (docs/shadows-battles.md section 2)."""
    cdef int o = 1 - s, t, again = 1
    cdef double b, c, disc, r
    for t in range(g.nm[o]):
        if (enemies >> t) & 1 and approach(p, g, s, m, t, ux, uy, &b) <= 1e-9 and b < 0:
            return 0.0
    while again:
        again = 0
        for t in range(g.nm[o]):
            if not (enemies >> t) & 1:
                continue
            c = approach(p, g, s, m, t, ux, uy, &b)
            if c <= 1e-9:
                continue        # started within its 1": moving away (above)
            disc = b * b - c
            if disc <= 0:
                continue
            r = sqrt(disc)
            if -b - r < length < -b + r:
                length = -b - r   # the path's way into this enemy's 1"
                again = 1
    return length


cdef inline void move_line(Setup *p, Game *g, int s, int m, double ux, double uy, double length,
                           int exempt) noexcept nogil:
    """Move up to ``length`` along the unit vector (ux, uy), stopping where the model would come closer than 1" to
    an enemy not Downed (clear_length; enemies in the bit mask ``exempt`` do not stop it; a Flying model: fly_length,
    only its end counts); then clamp to the table."""
    if length <= 0:
        return
    if p.mp[s][m][M_FLYING] and not g.mounted[s][m]:   # a Flying rider follows the Mounted rules
        length = fly_length(p, g, s, m, ux, uy, length, g.upmask[1 - s] & ~exempt)
    else:
        length = clear_length(p, g, s, m, ux, uy, length, g.upmask[1 - s] & ~exempt)
    g.x[s][m] += ux * length
    g.y[s][m] += uy * length
    clamp(p, g, s, m)
    update_contacts(p, g, s, m)


cdef inline void move_toward(Setup *p, Game *g, int s, int m, double tx, double ty, double length) noexcept nogil:
    """A Move Action straight toward the point (tx, ty), at most ``length`` and never past the point."""
    cdef double dx = tx - g.x[s][m], dy = ty - g.y[s][m], d = sqrt(dx * dx + dy * dy)
    if d <= 1e-12:
        return
    if length > d:
        length = d
    move_line(p, g, s, m, dx / d, dy / d, length, 0)


cdef inline double tie2(Setup *p, double bd) noexcept nogil:
    """The squared centre distance up to which an enemy ties with the closest one (squared centre distance ``bd``):
    edge-to-edge distances within 1e-6" of each other are equal, a tie going to the first in Activation order
    (KERNEL-NOTES Q36: a gun model that closed to exactly D* of an enemy is as close as another that did, whatever
    the last bit of their squared distances)."""
    cdef double r = sqrt(bd)
    if r < p.base:
        r = p.base    # within one base every gap is 0
    r += 1e-6
    return r * r


cdef inline double tie_far(Setup *p, double bd) noexcept nogil:
    """A bound of tie2(p, bd) without a square root (with M = max(bd, base²): tie2 <= M + 2e-6 sqrt(M) + 1e-12 <=
    M (1 + 2e-6) + 2e-6, as 2 sqrt(M) <= M + 1): a distance above it is no tie, and most are. Worked out once per
    scan."""
    cdef double m = bd if bd > p.base * p.base else p.base * p.base
    return m * (1 + 2e-6) + 2e-6


cdef inline int ties(Setup *p, double bd, double far, double d, double *lim) noexcept nogil:
    """Does squared distance ``d`` tie (tie2) with the least, ``bd``? ``far``: tie_far(p, bd); ``lim`` caches
    tie2(p, bd) (negative: not yet worked out)."""
    if d <= bd:
        return 1
    if d > far:
        return 0
    if lim[0] < 0:
        lim[0] = tie2(p, bd)
    return d <= lim[0]


cdef inline int first_closest(Setup *p, Game *g, int o, int mask, double *dd, double least, double *d2) noexcept nogil:
    """Of side o's models in the bit mask ``mask`` (squared distances ``dd`` as measured2 gives them, the least of
    them ``least``, which the caller keeps as it fills ``dd``), the first in Activation order whose distance ties
    (tie2) with the least; -1 if the mask is empty. ``d2``: its squared distance (1e18: none)."""
    cdef int i, t
    cdef double lim = -1.0, far = tie_far(p, least)
    for i in range(g.nm[o]):
        t = p.order[o][i]
        if (mask >> t) & 1 and ties(p, least, far, dd[t], &lim):
            d2[0] = dd[t]
            return t
    d2[0] = 1e18
    return -1


cdef inline int closest_enemy(Setup *p, Game *g, int s, int m, int downed, double *d2) noexcept nogil:
    """The closest enemy not Downed (``downed``: the closest Downed one), ties (tie2) by Activation order; -1 if none;
    ``d2`` its squared centre distance."""
    cdef int o = 1 - s, t
    cdef int mask = (g.onmask[o] & ~g.upmask[o]) if downed else g.upmask[o]
    cdef double dd[MAXM]
    cdef double least = 1e18
    if mask == 0:
        d2[0] = 1e18
        return -1
    for t in range(g.nm[o]):
        if (mask >> t) & 1:
            dd[t] = enemy2(g, s, m, t)
            if dd[t] < least:
                least = dd[t]
    return first_closest(p, g, o, mask, dd, least, d2)


# ---------------------------------------------------------------------------
# Targets ("Shoot: 1: Declare Weapon and Target"), Cover ("Cover")
# ---------------------------------------------------------------------------

cdef inline int candidate(Setup *p, Game *g, int s, int m, int t, double reach2, double *d2) noexcept nogil:
    """Enemy t may be Shot at by model m within ``reach2`` (squared centre distance): on the table, not Downed, not
    in a Fight (never shot into, policy), within reach (and within 12" in a Dust Storm)."""
    cdef int o = 1 - s
    if not (g.upmask[o] >> t) & 1 or engaged(p, g, o, t):
        return 0
    d2[0] = enemy2(g, s, m, t)
    if d2[0] > reach2:
        return 0
    if g.dust and d2[0] > p.dust2 and gloomy(p, g, s, m):
        return 0
    return 1


cdef inline void scan_candidates(Setup *p, Game *g, int s, int m) noexcept nogil:
    """closest_candidate's cache (g.nc_*) for model m: the closest enemy that may be Shot at within any reach (ties,
    tie2: Activation order), -1 if none."""
    cdef int o = 1 - s, t, best = -1, mask = 0
    cdef double bd = 1e18, least = 1e18
    cdef double dd[MAXM]
    if g.upmask[o]:
        for t in range(g.nm[o]):
            if candidate(p, g, s, m, t, 1e18, &dd[t]):
                mask |= 1 << t
                if dd[t] < least:
                    least = dd[t]
        best = first_closest(p, g, o, mask, dd, least, &bd)
    g.nc_valid = 1
    g.nc_s = s
    g.nc_m = m
    g.nc_t = best
    g.nc_d2 = bd


cdef inline int closest_candidate(Setup *p, Game *g, int s, int m, double reach2) noexcept nogil:
    """The closest enemy that may be Shot at within ``reach2`` (ties, tie2: Activation order); -1 if none. The closest
    of all is the closest within any reach, so one scan (scan_candidates) serves every reach until something moves or
    is hurt."""
    if not (g.nc_valid and g.nc_s == s and g.nc_m == m):
        scan_candidates(p, g, s, m)
    return g.nc_t if g.nc_t >= 0 and g.nc_d2 <= reach2 else -1


cdef inline int preferred(Setup *p, Game *g, int o, int *cands, int k) noexcept nogil:
    """The ``--targets`` policy's choice among the candidates (in Activation order): the most dangerous, the
    weakest (lowest Grit Die now rolled, then Save Modifier, Shaken first) or the Boss (-1 if none)."""
    cdef int i, t, best = cands[0], bd = 1 << 30, d
    if p.opt[O_TARGETS] == TG_BOSS:
        for i in range(k):
            if p.mp[o][cands[i]][M_BOSS]:
                return cands[i]
        return -1   # no Boss among them: no preferred Target, the legal one is shot
    if p.opt[O_TARGETS] == TG_WEAKEST:
        for i in range(k):
            t = cands[i]
            d = cur_die(p, g, o, t) * 4 + tracked(p, g, o, t, M_SAVE, T_SAVE_MOD) - (1 if g.shaken[o][t] else 0)
            if d < bd:
                bd = d
                best = t
        return best
    return cands[0]


cdef inline int big_target(Setup *p, Game *g, int o, int t) noexcept nogil:
    """Enemy t stands on a base of ``big_target_mm`` or more (0: the rule is off): "so large that they can always be
    Targeted, even if they are not the closest visible enemy model to the Shooter" ("Shoot: 1")."""
    return p.opt[O_BIG_TARGET_MM] > 0 and base_mm_of(p, g, o, t) >= p.opt[O_BIG_TARGET_MM]


cdef inline int spot_worth(Setup *p, Game *g, int s, int m) noexcept nogil:
    """A Spotting Test is worth taking now (``p.spot_ok``, worked out at set-up from the Grit Die now rolled and
    Hawkeye): a read of Hawkeye, and of the Shaken Grit Die when Shaken (battle_game.pxd, ``tracked``)."""
    g.touch[s][m] |= T_HAWKEYE | (T_DIE_SHAKEN if g.shaken[s][m] else 0)
    return p.spot_ok[s][m][g.shaken[s][m]]


cdef inline int shot_target(Setup *p, Game *g, int s, int m, int w, int spot, int *wasted, int *band,
                            int *cover) noexcept nogil:
    """The Target of one shot with Weapon w: the legal Target is the closest candidate unless a more distant one is
    easier (more dice with its Cover this shot). With a ``--targets`` policy other than closest: its preferred
    candidate with no Test when on a 40mm base (big_target) and shot with the legal Target's dice; on a smaller base,
    with ``spot``, after a Spotting Test when it passes at least half the time (a Failure wastes the Action:
    ``wasted``); with no Test, the policy's choice among the legal Target and the 40mm ones as easy (section 3).
    Returns the Target or -1."""
    cdef int o = 1 - s, i, t, k = 0, legal = -1, ld = -1, dice, succ, one, b
    cdef int *wp = &p.wp[s][m][w][0]
    cdef double *edge2 = &p.band2[s][m][w][0]
    cdef int cands[MAXM]
    cdef int cb[MAXM]
    cdef int cc[MAXM]
    cdef int cd[MAXM]
    cdef double d = 0, lg = 1e18, lim, far
    cdef double dd[MAXM]
    wasted[0] = 0
    for i in range(g.nm[o]):
        t = p.order[o][i]
        if not candidate(p, g, s, m, t, edge2[2], &d):
            continue
        cands[k] = t
        b = band_at(p, s, m, w, d)
        cb[t] = b
        cc[t] = in_cover(p, g)
        dice = whiskey_dice(p, g, s, m, wp[(W_BCOVER if cc[t] else W_BDICE) + b])
        cd[t] = dice
        dd[t] = d
        if dice > ld or (dice == ld and d < lg):
            ld = dice
            lg = d
        k += 1
    if k == 0:
        return -1
    lim = -1.0   # the most dice, then the closest; ties (tie2) by Activation order
    far = tie_far(p, lg)
    for i in range(k):
        t = cands[i]
        if cd[t] == ld and ties(p, lg, far, dd[t], &lim):
            legal = t
            break
    t = legal
    if p.opt[O_TARGETS] != TG_CLOSEST:
        i = preferred(p, g, o, cands, k)
        if i >= 0 and i != legal:
            if big_target(p, g, o, i):
                # "so large that they can always be Targeted": no Spotting Test; policy (section 3): only at the
                # legal Target's dice, else the choice below
                if cd[i] == ld:
                    t = i
            elif spot and spot_worth(p, g, s, m):
                succ = model_test(p, g, s, m, p.opt[O_SPOT_DICE], tracked(p, g, s, m, M_HAWKEYE, T_HAWKEYE), &one)
                if succ == 0:
                    wasted[0] = 1
                    return -1
                t = i
            if t == legal:
                # no Spotting Test: the policy's choice among the legal Target and the 40mm ones as easy (section 3)
                b = 0
                for i in range(k):
                    if cands[i] == legal or (cd[cands[i]] == ld and big_target(p, g, o, cands[i])):
                        cands[b] = cands[i]
                        b += 1
                if b > 1:
                    i = preferred(p, g, o, cands, b)
                    if i >= 0:
                        t = i
    band[0] = cb[t]
    cover[0] = cc[t]
    return t


# ---------------------------------------------------------------------------
# Shooting on the table ("Shoot", "Dynamite", "Arcane Blast")
# ---------------------------------------------------------------------------

cdef inline int corridor_line(Game *g, int s, int m, int t, double *ux, double *uy) noexcept nogil:
    """The unit vector from model m (side s) towards enemy t: the fire corridor's direction; 0 if they coincide."""
    cdef double dx = g.x[1 - s][t] - g.x[s][m], dy = g.y[1 - s][t] - g.y[s][m], L = sqrt(dx * dx + dy * dy)
    if L <= 0:
        return 0
    ux[0] = dx / L
    uy[0] = dy / L
    return 1


cdef inline int beside_corridor(Setup *p, Game *g, int s, int m, double ux, double uy, double reach, int side, int x,
                                double *off, double *d2) noexcept nogil:
    """Model x of ``side`` is a potential victim of m's corridor along (ux, uy): on the table, not m, its centre's
    projection on the line within ``reach`` (Range plus one standard base) plus both models' g.grow, and its base
    within 1" of the line (``off``: the centre's distance from the line less its base's radius beyond a standard
    one; ``d2``: squared centre distance from m)."""
    cdef double dx, dy, a
    if not g.on[side][x] or (side == s and x == m):
        return 0
    dx = g.x[side][x] - g.x[s][m]
    dy = g.y[side][x] - g.y[s][m]
    a = dx * ux + dy * uy
    if a < 0 or a > reach + g.grow[s][m] + g.grow[side][x] + 1e-9:
        return 0
    off[0] = fabs(dx * uy - dy * ux) - g.grow[side][x]
    d2[0] = dx * dx + dy * dy
    return off[0] <= p.opt[O_CORRIDOR_HALF] / 1000.0 + p.base / 2 + 1e-9


cdef inline void fire_corridor(Setup *p, Game *g, int s, int m, int t, int range_) noexcept nogil:
    """A fire corridor ("Fire Corridors"; section 4a) of model m at Target t, ``range_`` thousandths of an inch long:
    the line from m's centre through t's, as far as the Range (measured edge to edge as every range: centres up to
    the Range plus one base along the line). Every model on the table but m, friend or foe, Downed too, whose base is
    within 1" of the line is a potential victim, from the closest to m to the most distant: one whose base lies under
    the line is Hit automatically, any other when m's Grit Die (Shaken-lowered) is a Success. Then every model Hit
    makes a 5+ Save; an enemy's Casualty is m's side's. No Shooting Test: no Jam, no Boilerplate."""
    cdef int vs[2 * MAXM]
    cdef int vx[2 * MAXM]
    cdef int hit[2 * MAXM]
    cdef double vd[2 * MAXM]
    cdef int side, x, n = 0, i
    cdef double ux, uy, e, d2, r = p.base / 2, reach = range_ / 1000.0 + p.base
    if not corridor_line(g, s, m, t, &ux, &uy):
        return
    for side in range(NSIDE):
        for x in range(g.nm[side]):
            if not beside_corridor(p, g, s, m, ux, uy, reach, side, x, &e, &d2):
                continue
            i = n   # insertion by distance from m, ties in side and model order
            while i > 0 and vd[i - 1] > d2:
                vd[i] = vd[i - 1]
                vs[i] = vs[i - 1]
                vx[i] = vx[i - 1]
                hit[i] = hit[i - 1]
                i -= 1
            vd[i] = d2
            vs[i] = side
            vx[i] = x
            hit[i] = e <= r + 1e-9   # "A model whose base lies under the line is Hit automatically"
            n += 1
    for i in range(n):
        if not hit[i]:
            hit[i] = roll_die(&g.st, cur_die(p, g, s, m)) >= p.opt[O_T]
    for i in range(n):
        if hit[i] and g.on[vs[i]][vx[i]]:
            hurt(p, g, vs[i], vx[i], save_roll(p, g, vs[i], vx[i], p.opt[O_CORRIDOR_SAVE], 0),
                 s if vs[i] != s else -1)


cdef inline int once_corridor_pays(Setup *p, Game *g, int s, int m, int t, int range_) noexcept nogil:
    """Policy (section 4a): a LeMat spends its once-per-game Sawn-Off shot when the corridor at its Target t reaches
    t and holds at least two enemy models and no friend."""
    cdef int x, foes = 0
    cdef double ux, uy, e, d2, reach = range_ / 1000.0 + p.base
    if not corridor_line(g, s, m, t, &ux, &uy) or measured2(g, s, m, 1 - s, t) > reach * reach + 1e-9:
        return 0
    for x in range(g.nm[s]):
        if beside_corridor(p, g, s, m, ux, uy, reach, s, x, &e, &d2):
            return 0
    for x in range(g.nm[1 - s]):
        foes += beside_corridor(p, g, s, m, ux, uy, reach, 1 - s, x, &e, &d2)
    return foes >= 2


cdef inline int fire_table(Setup *p, Game *g, int s, int m, int w, int shots, int *spot, int once_ok) noexcept nogil:
    """``shots`` Shooting Attacks with Weapon w, each at a Target chosen afresh (only the Action's first shot may take
    a Spotting Test); stops when it Jams. A fire-corridor Weapon fires its corridor; a LeMat (``once_ok``: not in a
    Gunslinger's pair) its once-per-game one when once_corridor_pays. Returns 1 if a failed Spotting Test wasted the
    Action."""
    cdef int o = 1 - s, i, t, succ, one, band = 0, cov = 0, wasted = 0
    cdef int *wp = &p.wp[s][m][w][0]
    for i in range(shots):
        t = shot_target(p, g, s, m, w, spot[0], &wasted, &band, &cov)
        spot[0] = 0
        if wasted:
            return 1
        if t < 0:
            return 0
        if wp[W_CORRIDOR]:
            fire_corridor(p, g, s, m, t, wp[W_EDGE_L])
            continue
        if wp[W_ONCE] and once_ok and not ((g.once[s][m] >> w) & 1) and once_corridor_pays(p, g, s, m, t, wp[W_ONCE]):
            g.once[s][m] |= 1 << w   # "Once per game, may Shoot as a Sawn-Off Shotgun"
            fire_corridor(p, g, s, m, t, wp[W_ONCE])
            continue
        succ = model_test(p, g, s, m, whiskey_dice(p, g, s, m, wp[(W_BCOVER if cov else W_BDICE) + band]), 0, &one)
        if succ == 0:
            if one and jams(p, g, s, m, w):
                return 0
            continue
        land_shot(p, g, s, m, o, t, succ, wp[W_BSAVE + band] + (wp[W_SILVER] if p.mp[o][t][M_SUPER] else 0))
    return 0


cdef inline int throw_choice(Setup *p, Game *g, int s, int m, int *t) noexcept nogil:
    """What a Shoot Action of model m throws at the closest candidate within 8" (t): TH_WATER at a Supernatural one
    when it carries Blessed Water, else its Vial of Nitro, else a stick of Dynamite; TH_NONE (policy, docs section
    11b: the Nitro first, as carrying it is the risk; the Water only where it can hurt)."""
    t[0] = -1
    if g.dyn[s][m] + g.nitro[s][m] + g.water[s][m] == 0 or g.beast[s][m]:
        return TH_NONE   # a Beast Form "cannot use any Weapons or Gear" (Dynamite included)
    t[0] = closest_candidate(p, g, s, m, p.dyn2)
    if t[0] < 0:
        return TH_NONE
    if g.water[s][m] and p.mp[1 - s][t[0]][M_SUPER]:
        return TH_WATER
    if g.nitro[s][m]:
        return TH_NITRO
    if g.dyn[s][m]:
        return TH_DYNAMITE
    return TH_NONE


cdef inline void use_throw(Game *g, int s, int m, int kind) noexcept nogil:
    """The thrown item is used up: "one use only" each."""
    if kind == TH_NITRO:
        g.nitro[s][m] = 0
    elif kind == TH_WATER:
        g.water[s][m] -= 1
    else:
        g.dyn[s][m] -= 1


cdef inline void throw_dynamite_table(Setup *p, Game *g, int s, int m, int t, int kind) noexcept nogil:
    """An unmodified 1 Die Shooting Test ("Dynamite"; the Vial of Nitro and Blessed Water follow its rules): a Success
    explodes on the Target; a Failure as the table says: on the thrower, or D6" from the Target along the
    thrower-Target line, towards or away from the thrower. Blessed Water's blast hurts Supernatural models only."""
    cdef int o = 1 - s, score, what, d, holy = kind == TH_WATER
    cdef double ux, uy, L
    score = model_die(p, g, s, m)
    use_throw(g, s, m, kind)
    if score >= p.opt[O_T]:
        blast_at(p, g, s, g.x[o][t], g.y[o][t], holy)
        return
    what = p.dyn_fail[score] if score < 8 else DY_DUD
    if what == DY_THROWER:
        blast_at(p, g, s, g.x[s][m], g.y[s][m], holy)
    elif what == DY_TOWARDS or what == DY_AWAY:
        d = roll_die(&g.st, p.opt[O_SCATTER_DIE])
        L = cdist(g, s, m, o, t)
        ux = (g.x[s][m] - g.x[o][t]) / L
        uy = (g.y[s][m] - g.y[o][t]) / L
        if what == DY_AWAY:
            ux = -ux
            uy = -uy
        blast_at(p, g, s, g.x[o][t] + ux * d, g.y[o][t] + uy * d, holy)


# ---------------------------------------------------------------------------
# The Lasso ("Horses and Gear Summary": Lasso; "And Falling"), section 11c
# ---------------------------------------------------------------------------

cdef inline int lasso_target(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The enemy model m's Lasso would be thrown at (policy, section 11c): the closest enemy on horseback that may be
    Shot at within the Lasso's 6" (candidate; ties, tie2: Activation order). A rider's 40mm base "can always be
    Targeted" (big_target); with that rule off, only when it is the closest candidate. -1: none, no Lasso, or the
    model is in a Beast Form ("cannot use any Weapons or Gear")."""
    cdef int o = 1 - s, t, mask = 0
    cdef double d2, least = 1e18
    cdef double dd[MAXM]
    if not p.mp[s][m][M_LASSO] or p.opt[O_LASSO_RANGE] == 0 or g.beast[s][m]:
        return -1
    for t in range(g.nm[o]):
        if g.mounted[o][t] and candidate(p, g, s, m, t, p.lasso2, &dd[t]):
            mask |= 1 << t
            if dd[t] < least:
                least = dd[t]
    if mask == 0:
        return -1
    t = first_closest(p, g, o, mask, dd, least, &d2)
    if not big_target(p, g, o, t) and closest_candidate(p, g, s, m, p.lasso2) != t:
        return -1
    return t


cdef inline void throw_lasso(Setup *p, Game *g, int s, int m, int t) noexcept nogil:
    """Model m's Lasso thrown at enemy t as a Shoot Action ("Lasso"): a 3 Dice Shooting Test "not modified for Range
    (though other modifiers will apply)": Cover drawn for the shot, Whiskey, the model's Skills and Injuries (columns
    lasso, lasso_cover); no Jamming Check (a Lasso has no Jam Die). Boilerplate cancels a Success, then the Target's
    Save. A failed Save does no Damage (a Vial of Nitro still goes off on a 1 or 2): the Target "is dragged 1" directly
    towards the Lasso thrower in a straight line for each Success" (1" at most when its base is larger than the
    thrower's), halting in Contact with the thrower; a rider is dragged off its horse and falls: a 5+ Save (Damage
    credited to the thrower's side). Being dragged is not a Move: no Lookout Token is lost to it."""
    cdef int o = 1 - s, succ, one, e
    cdef double d, pull
    succ = model_test(p, g, s, m, whiskey_dice(p, g, s, m, p.mp[s][m][M_LASSO_COVER if in_cover(p, g) else M_LASSO]),
                      0, &one)
    e = succ - (0 if g.beast[o][t] else p.mp[o][t][M_CANCEL])   # no Gear in a Beast Form: no Boilerplate
    if e <= 0:
        return
    if e >= MAX_TABLE:
        e = MAX_TABLE - 1
    if save_roll(p, g, o, t, p.stab[e], 0) == DMG_NONE:
        return
    if g.fuse:
        hurt(p, g, o, t, DMG_NONE, s)   # the Nitro's fuse: "immediately explodes", no Damage from the Lasso itself
        if not g.on[o][t]:
            return
    pull = e * p.opt[O_LASSO_DRAG] / 1000.0
    if base_mm_of(p, g, o, t) > base_mm_of(p, g, s, m) and pull > p.opt[O_LASSO_BIG_DRAG] / 1000.0:
        pull = p.opt[O_LASSO_BIG_DRAG] / 1000.0
    d = cdist(g, s, m, o, t)
    if pull > d - p.base - g.grow[s][m] - g.grow[o][t]:
        pull = d - p.base - g.grow[s][m] - g.grow[o][t]
    if pull > 0:
        g.x[o][t] += (g.x[s][m] - g.x[o][t]) / d * pull
        g.y[o][t] += (g.y[s][m] - g.y[o][t]) / d * pull
        set_contacts(p, g, o, t)   # dragged, not Moving into Contact: no Lookout Token lost ("Lookout")
    if g.mounted[o][t]:
        g.mounted[o][t] = 0   # "dragged off a horse ... and counts as falling"
        resize(p, g, o, t)
        hurt(p, g, o, t, save_roll(p, g, o, t, p.opt[O_FALL_SAVE], 0), s)


cdef inline int pick_weapon(Setup *p, Game *g, int s, int m, int fired, int again, int *twice) noexcept nogil:
    """The best ready Weapon not fired this Activation (Trigger-Happy: the same one once more: ``twice``) with a
    candidate within its Long Range; -1 if none."""
    cdef int w
    for w in range(MAXW):
        if not weapon_ready(p, g, s, m, w):
            continue
        twice[0] = 0
        if (fired >> w) & 1:
            if (tracked(p, g, s, m, M_TRIGGER, T_TRIGGER) and not again
                    and not tracked(p, g, s, m, M_GUNSLINGER, T_GUNSLINGER)):
                twice[0] = 1
            else:
                continue
        if closest_candidate(p, g, s, m, p.band2[s][m][w][2]) >= 0:
            return w
    return -1


cdef inline int pistol_pair(Setup *p, Game *g, int s, int m, int fired, int *b) noexcept nogil:
    """A Gunslinger's two ready Pistols not fired this Activation, the first with a candidate in range; -1 if none."""
    cdef int w, a = -1
    b[0] = -1
    if p.pistols[s][m] < 2 or not tracked(p, g, s, m, M_GUNSLINGER, T_GUNSLINGER):   # read only where a pair is
        return -1
    for w in range(MAXW):
        if p.wp[s][m][w][W_PISTOL] and weapon_ready(p, g, s, m, w) and not ((fired >> w) & 1):
            if a < 0:
                a = w
            elif b[0] < 0:
                b[0] = w
    if b[0] < 0 or closest_candidate(p, g, s, m, p.band2[s][m][a][2]) < 0:
        return -1
    return a


cdef inline int can_shoot(Setup *p, Game *g, int s, int m, int fired, int again) noexcept nogil:
    """A Shoot Action would shoot: Dynamite with a candidate within 8", a Gunslinger's pair, or a Weapon."""
    cdef int b, twice
    if g.beast[s][m]:
        return 0   # a Beast Form "cannot use any Weapons or Gear" (Dynamite included)
    if throw_choice(p, g, s, m, &b):
        return 1
    if pistol_pair(p, g, s, m, fired, &b) >= 0:
        return 1
    return pick_weapon(p, g, s, m, fired, again, &twice) >= 0


cdef inline void shoot_table(Setup *p, Game *g, int s, int m, int *fired, int *again) noexcept nogil:
    """One Shoot Action on the table: Dynamite (once per stick) at the closest candidate within 8", else a
    Gunslinger's two Pistols, else the best ready Weapon with a Target in range (Trigger-Happy: once more)."""
    cdef int t, a, b, w, twice = 0, spot = 1, kind = throw_choice(p, g, s, m, &t)
    if kind:
        if g.gs_pending and good_shot(p, g, s, m, kind):
            return   # the stick went off in its hand: the throw is not made
        throw_dynamite_table(p, g, s, m, t, kind)
        return
    a = pistol_pair(p, g, s, m, fired[0], &b)
    if a >= 0:
        fired[0] |= (1 << a) | (1 << b)
        # "LeMat Pistols cannot use their once-per-game ability when using this Skill" (Gunslinger)
        if fire_table(p, g, s, m, a, 1, &spot, 0):   # "Sixguns may not fire twice"
            return                                # a failed Spotting Test loses the second Pistol too
        fire_table(p, g, s, m, b, 1, &spot, 0)
        return
    w = pick_weapon(p, g, s, m, fired[0], again[0], &twice)
    if w < 0:
        return
    if twice:
        again[0] = 1
    fired[0] |= 1 << w
    fire_table(p, g, s, m, w, p.wp[s][m][w][W_SHOTS], &spot, 1)


cdef inline void arcane_blast(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The Vessel casts Arcane Blast ("Arcane Powers"): a 3 Dice Casting Test, Difficulty 2 (no Successes and a 1:
    Miscast, Shaken or Downed if already Shaken); on a Cast an unmodified 3 Dice Shooting Test at the closest
    candidate within 9" (no Jam, no range or Cover modifiers), Save and Damage as a shot."""
    cdef int o = 1 - s, t, succ, one
    succ = model_test(p, g, s, m, p.opt[O_CASTING_DICE] + (p.opt[O_STORM_DICE] if g.storm else 0), 0, &one)
    if succ == 0 and one:
        hurt(p, g, s, m, DMG_CASUALTY if g.storm else DMG_SHAKEN, -1)   # an Arcane Storm's Miscast: a Casualty
        return
    if succ < p.opt[O_ARCANE_DIFFICULTY]:
        return
    t = closest_candidate(p, g, s, m, p.arcane2)
    if t < 0:
        return
    succ = model_test_as_is(p, g, s, m, p.opt[O_ENTITY_BLAST_DICE] if t >= ENT0 else p.opt[O_ARCANE_DICE], 0,
                            &one)   # four Dice at an Entity (slots ENT0..)
    if succ > 0:
        land_shot(p, g, s, m, o, t, succ, 0)


# ---------------------------------------------------------------------------
# Fights ("Fight", "Outnumbered", "Downed", Fighting Skills Table, "Derringer")
# ---------------------------------------------------------------------------

cdef inline int fight_dice(Setup *p, Game *g, int x, int i, int j, int charging) noexcept nogil:
    """Dice of model i (side x)'s Fight Test against model j: 3, +1 Charging, Mean / Weakened, Close Work +1 per
    unjammed Pistol (at most 2), the Derringer once per game (not with Close Work's +2), -1 per unengaged enemy in
    Contact besides j ("Outnumbered"; 'Ornery ignores it); in a Beast Form no Weapon or Gear (no Close Work, no
    Derringer). At least 1 Die is left to the caller."""
    cdef int y = 1 - x, cw = 0, w, k, q, alone
    cdef int n = p.opt[O_FIGHT_DICE] + tracked(p, g, x, i, M_FIGHT_DICE, T_FIGHT_DICE)
    if charging:
        n += p.opt[O_CHARGE_DICE]
    if tracked(p, g, x, i, M_CLOSE_WORK, T_CLOSE_WORK) and not g.beast[x][i]:
        for w in range(MAXW):
            if p.wp[x][i][w][W_PISTOL] and p.wp[x][i][w][W_USABLE] and not ((g.jam[x][i] >> w) & 1):
                cw += 1
        if cw > p.opt[O_CLOSE_WORK_MAX]:
            cw = p.opt[O_CLOSE_WORK_MAX]
        n += cw
    if g.derringer[x][i] and cw < p.opt[O_CLOSE_WORK_MAX] and not g.beast[x][i]:
        g.derringer[x][i] = 0
        n += p.opt[O_DERRINGER_DICE]
    if not tracked(p, g, x, i, M_ORNERY, T_ORNERY):
        for k in range(g.nm[y]):
            if k == j or not standing(g, y, k) or not touching(p, g, x, i, y, k):
                continue
            alone = 1   # an enemy in Contact that no other model of this side engages
            for q in range(g.nm[x]):
                if q != i and standing(g, x, q) and touching(p, g, y, k, x, q):
                    alone = 0
                    break
            n += p.opt[O_OUTNUMBERED_DICE] * alone
    return n


cdef inline void fight_won(Setup *p, Game *g, int s, int m, int o, int d, int margin, int mod) noexcept nogil:
    """Model m (side s) won a Fight against d (side o) by ``margin``: d Saves as against a shot of that many Successes,
    with ``mod`` (Bull-Rush) and the winner's Fight Save Modifier: the Woodsman's Axe, or in a Beast Form the Bear's
    -1 and its bear-hug (won by 2 or more against a smaller base: a failed Save's Damage one worse)."""
    cdef int code
    if g.beast[s][m]:
        mod += p.mp[s][m][M_BEAST_SAVE]
    else:
        mod += tracked(p, g, s, m, M_FIGHT_SAVE, T_FIGHT_SAVE)
    code = save_roll(p, g, o, d, p.stab[margin], mod)
    if code != DMG_NONE and code < DMG_CASUALTY and g.beast[s][m] and p.mp[s][m][M_BEAST_HUG] \
            and margin >= p.mp[s][m][M_BEAST_HUG] and base_mm_of(p, g, o, d) < base_mm_of(p, g, s, m):
        code += 1   # "it treats the Damage result as one worse"
    if hurt(p, g, o, d, code, s):
        g.fight_cas[o] += d < ENT0   # a Summoned Entity is not counted (KERNEL-NOTES)


cdef inline int fight_action(Setup *p, Game *g, int s, int m, int target, int charging) noexcept nogil:
    """A Fight Action of model m (section 5): the Defender is the Charge's standing Target, else the standing enemy in
    Contact with the lowest Grit Die now rolled (ties: lower index); with none standing a Downed enemy in Contact is
    removed as a Casualty. Both roll their Fight Tests; the loser Saves against the margin as against a shot's
    Successes (Bull-Rush, the Woodsman's Axe -1); a Beast Form's Fight (fight_won). Returns DID_FIGHT, or DID_NOTHING
    with no enemy in Contact."""
    cdef int o = 1 - s, t, d = -1, bd = 99, da, dd, sa, sd, ha, hd, margin, win, mod, succ, one
    if target >= 0 and standing(g, o, target) and touching(p, g, s, m, o, target):
        d = target
    else:
        for t in range(g.nm[o]):
            if standing(g, o, t) and touching(p, g, s, m, o, t) and cur_die(p, g, o, t) < bd:
                bd = cur_die(p, g, o, t)
                d = t
    if d < 0:
        if target >= 0 and g.on[o][target] and touching(p, g, s, m, o, target):
            d = target
        else:
            for t in range(g.nm[o]):
                if g.on[o][t] and touching(p, g, s, m, o, t):
                    d = t
                    break
        if d < 0:
            return DID_NOTHING
        # "a Downed model that is Fought makes no Fight Test and is removed as a Casualty" ("Downed")
        g.fights += 1
        g.fought[s][m] = 1
        g.fought[o][d] = 1
        if hurt(p, g, o, d, DMG_CASUALTY, s):
            g.fight_cas[o] += d < ENT0   # a Summoned Entity is not counted (KERNEL-NOTES)
        return DID_FIGHT
    # Fearsome: "enemy models wishing to Fight this model" take a 1 Die Nerve Test (Other Fearsome models ignore it)
    # once per Activation (docs/shadows-battles.md 'Fights'): g.fear = 2 * act_id + 1 on a Failure, + 0 on a pass
    if fearsome(p, g, o, d) and not fearsome(p, g, s, m) and (g.fear[s][m] >> 1) != g.act_id:
        # Whiskey passes it (battle_gear.pxd)
        succ = 1 if whiskey_on(g, s, m) else model_test(p, g, s, m, p.opt[O_NERVE_DICE],
                                                        tracked(p, g, s, m, M_NERVE_RR, T_NERVE_RR), &one)
        g.fear[s][m] = 2 * g.act_id + (1 if succ == 0 else 0)
    da = fight_dice(p, g, s, m, d, charging)
    if g.mounted[o][d] and not g.mounted[s][m]:
        da += p.opt[O_FORTIFIED_DICE]   # "fighting ... from horseback against a model on the ground": Fortified
    if g.fear[s][m] == 2 * g.act_id + 1:
        da += p.opt[O_FEARSOME_DICE]
    if g.beast[s][m]:
        da += p.mp[s][m][M_BEAST_ATTACK]   # Wolf Form: "+2 Die Modifier in a Fight when on the Attack"
    dd = fight_dice(p, g, o, d, m, 0)
    sa = model_fight_test(p, g, s, m, da, &ha)
    sd = model_fight_test(p, g, o, d, dd, &hd)
    g.fights += 1
    g.fought[s][m] = 1
    g.fought[o][d] = 1
    win = fight_winner(sa, ha, sd, hd, &margin)
    if win < 0:
        return DID_FIGHT   # a Draw: nothing happens
    if margin >= MAX_TABLE:
        margin = MAX_TABLE - 1
    if win == 0:
        mod = p.opt[O_BULL_RUSH_SAVE] if charging and tracked(p, g, s, m, M_BULL_RUSH, T_BULL_RUSH) else 0
        fight_won(p, g, s, m, o, d, margin, mod)
    else:
        fight_won(p, g, o, d, s, m, margin, 0)
    return DID_FIGHT


cdef inline int charge(Setup *p, Game *g, int s, int m, int t) noexcept nogil:
    """Charge enemy t ("Charging Enemy Models"): a Move straight at it, to one base from its centre, then a free
    Fight Action with +1 Die for Charging. The 1" of "Other Models" holds for every other enemy along the way
    (only the Target is exempt, docs/shadows-battles.md 'Moving'): stopped short, it was a Move and no Fight."""
    cdef int o = 1 - s
    cdef double d = cdist(g, s, m, o, t), e = g.grow[s][m] + g.grow[o][t]
    if d > p.base + e + 1e-12:
        move_line(p, g, s, m, (g.x[o][t] - g.x[s][m]) / d, (g.y[o][t] - g.y[s][m]) / d, d - p.base - e, 1 << t)
    if not touching(p, g, s, m, o, t):
        return DID_MOVE
    if g.whiskey[s][m] and not g.beast[s][m]:
        whiskey_at_charge(p, g, s, m, t, d - e)   # battle_gear.pxd: a drink on the way to a Fearsome enemy
    fight_action(p, g, s, m, t, 1)
    return DID_CHARGE


cdef inline int may_throw(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Model m has something to throw (throw_choice: Dynamite, its Vial of Nitro, Blessed Water at a Supernatural
    Target) and a candidate within 8" (shoot_table throws it first)."""
    cdef int t
    return throw_choice(p, g, s, m, &t) != TH_NONE


cdef inline int good_shot(Setup *p, Game *g, int s, int m, int kind) noexcept nogil:
    """"Good Shot!": the waiting Lookout model (react) Shoots the stick in thrower m's hand: a normal Shooting Attack
    with its Weapon at m (no Spotting Test, the band by the gap, Cover drawn per shot, Jamming), -1 Die; its shots until
    one Hits. A Hit: "the Dynamite explodes centred on the thrower" (the stick used, the blast credited to the
    shooter's side). Then its Lookout Token goes (Bushwhacker may keep it) and m's Action goes on with its own dice.
    Returns 1 if the stick went off."""
    cdef int o = 1 - s, r = g.gs_r, w = g.gs_w, i, band, cov, n, one, hit = 0
    cdef int *wp = &p.wp[o][r][w][0]
    cdef double d2 = enemy2(g, o, r, m)
    g.gs_pending = 0
    dice_segment(g, g.gs_tag)
    band = band_at(p, o, r, w, d2)
    for i in range(wp[W_SHOTS]):
        cov = in_cover(p, g)
        n = wp[(W_BCOVER if cov else W_BDICE) + band] + p.opt[O_GOOD_SHOT_DICE]
        if model_test(p, g, o, r, n if n > 0 else 0, 0, &one) > 0:
            hit = 1
            break
        if one and jams(p, g, o, r, w):
            break
    if hit:
        use_throw(g, s, m, kind)
        blast_at(p, g, o, g.x[s][m], g.y[s][m], kind == TH_WATER)
    reaction_done(p, g, o, r)
    dice_segment(g, g.act_tag)
    return hit


cdef inline void react(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The Active model m of side s declares an Action: the one Passive model that Reacts (battle_reactions.
    reacting_model) makes its Shoot Reaction, or its Move Reaction into Contact with m, a Charge with its free Fight
    ("Charging Enemy Models": m is seen at the start of the Move), on its own stretch of dice; then its Lookout Token
    goes, unless Bushwhacker keeps it. One Reaction per triggering Action; m's Action follows if it still can."""
    cdef int o = 1 - s, rw = -1, r = reacting_model(p, g, s, m, &rw)
    cdef uint64_t tag = (<uint64_t>g.turn << 32) | (1 << 15) | (1 << 14) | (s << 11) | (m << 6) | (g.acts[s][m] & 63)
    if r < 0:
        return
    if rw >= 0 and p.opt[O_GOOD_SHOT] and may_throw(p, g, s, m):
        # policy (docs section 13): a shooter waits to see the Action declared; a throw gets its "Good Shot!"
        # (good_shot, from shoot_table), anything else no Reaction: it keeps its Lookout Token
        g.gs_pending = 1
        g.gs_r = r
        g.gs_w = rw
        g.gs_tag = tag
        return
    dice_segment(g, tag)
    if rw >= 0:
        reaction_shoot(p, g, o, r, rw, s, m)
    else:
        charge(p, g, o, r, m)   # stopped short by another enemy: it Moved all the same (docs section 13)
    reaction_done(p, g, o, r)


cdef inline int disengage(Setup *p, Game *g, int s, int m) noexcept nogil:
    """Disengaging From Contact: a 1 Die Disengage Test; on a Failure a 5+ Save for each enemy not Downed in Contact
    (in index order, a Casualty credited to that enemy's side); if still standing the model moves 4" straight away
    from the centroid of those enemies (policy), the 1" rule applying to every other enemy."""
    cdef int o = 1 - s, t, k = 0, mask = 0, succ, one
    cdef double cx = 0, cy = 0, ux, uy, d
    for t in range(g.nm[o]):
        if standing(g, o, t) and touching(p, g, s, m, o, t):
            mask |= 1 << t
            cx += g.x[o][t]
            cy += g.y[o][t]
            k += 1
    if k == 0:
        return DID_NOTHING
    succ = model_test(p, g, s, m, p.opt[O_DISENGAGE_DICE], 0, &one)
    if succ == 0:
        for t in range(g.nm[o]):
            if (mask >> t) & 1:
                hurt(p, g, s, m, save_roll(p, g, s, m, p.opt[O_DISENGAGE_SAVE], 0), o)
                if not standing(g, s, m):
                    return DID_DISENGAGE
    ux = g.x[s][m] - cx / k
    uy = g.y[s][m] - cy / k
    d = sqrt(ux * ux + uy * uy)
    if d <= 1e-12:   # no direction away: back towards the own corner
        ux = -1.0 if s == 0 else 1.0
        uy = ux
        d = sqrt(2.0)
    move_line(p, g, s, m, ux / d, uy / d, move_of(p, g, s, m), mask)
    return DID_DISENGAGE


# ---------------------------------------------------------------------------
# The plans: one Action of a model (section 6)
# ---------------------------------------------------------------------------

cdef inline int clear_jam(Setup *p, Game *g, int s, int m) noexcept nogil:
    cdef int w
    if g.jam[s][m] == 0:
        return 0
    for w in range(MAXW):
        if p.wp[s][m][w][W_USABLE] and (g.jam[s][m] >> w) & 1:
            g.jam[s][m] &= ~(1 << w)   # a Move Action clears one Jammed Weapon
            return 1
    return 0


cdef inline double gun_pace(Setup *p, Game *g, int s, double mv) noexcept nogil:
    """Policy (section 6, gun rule (6)): the posse's gun models advance together, at the pace of the slowest: a posse
    model's Move toward the enemy goes at most the least Move of its standing gun-style posse models (in Human Form;
    Revenants and Summoned Entities neither set it nor keep it). Its own Move ``mv`` is the most."""
    cdef int k, gun = p.gun_posse[s] & g.upmask[s]
    cdef double v
    for k in range(p.n[s]):
        if (gun >> k) & 1 and not g.beast[s][k]:
            v = move_of(p, g, s, k)
            if v < mv:
                mv = v
    return mv


cdef inline int gun_action(Setup *p, Game *g, int s, int m, int last, int second, int *fired,
                           int *again) noexcept nogil:
    """gun style: Disengage from a standing enemy; finish a Downed one in Contact; Charge a Downed enemy nobody of
    this side is fighting; Shoot when in range and (this is the Activation's last Action or the enemy is within D*);
    clear a Jam; Move toward the closest enemy to D* (a Lookout model on an Activation's last Action after its first
    (``second``): Lookout instead, when battle_reactions.lookout_wanted says so)."""
    cdef int o = 1 - s, t, reach = 0, downed = g.onmask[o] & ~g.upmask[o]
    cdef double d2, step, mv = move_of(p, g, s, m), least = 1e18
    cdef double dd[MAXM]
    if g.cmask[s][m] & g.upmask[o]:
        return disengage(p, g, s, m)
    if g.cmask[s][m] & g.onmask[o]:
        return fight_action(p, g, s, m, -1, 0)
    if downed:
        # the closest Downed enemy within reach that no standing model of this side is fighting (ties, tie2: order)
        for t in range(g.nm[o]):
            if (downed >> t) & 1 and not engaged(p, g, o, t):
                dd[t] = enemy2(g, s, m, t)
                if dd[t] <= reach2_of(p, g, s, m):
                    reach |= 1 << t
                    if dd[t] < least:
                        least = dd[t]
        t = first_closest(p, g, o, reach, dd, least, &d2)
        if t >= 0:
            return charge(p, g, s, m, t)
    t = closest_enemy(p, g, s, m, 0, &d2)
    if (last or (t >= 0 and d2 <= p.desired2[s][m])) and can_shoot(p, g, s, m, fired[0], again[0]):
        shoot_table(p, g, s, m, fired, again)
        return DID_SHOOT
    if clear_jam(p, g, s, m):
        return DID_CLEAR
    if t >= 0 and d2 > p.desired2[s][m]:
        if last and second and lookout_wanted(p, g, s, m, t, d2):
            return DID_LOOKOUT   # section 13: Lookout instead of this Move (battle_reactions.pxd)
        step = sqrt(d2) - p.base - p.desired_in[s][m]    # gap - D*
        if m < p.n[s] and p.opt[O_GUN_PACE]:
            mv = gun_pace(p, g, s, mv)
        move_toward(p, g, s, m, g.x[o][t], g.y[o][t], step if step < mv else mv)
        return DID_MOVE
    return DID_NOTHING


cdef inline int brawl_action(Setup *p, Game *g, int s, int m, int last, int solo_second, int prev, int *fired,
                             int *again) noexcept nogil:
    """brawl style: Fight an enemy in Contact; Charge one within 4" (Downed ones first, then the closest); Shoot as
    the second Action of a Solo that Moved; Move 4" toward the closest enemy (a Lookout model on an Activation's last
    Action after its first: Lookout instead, when battle_reactions.lookout_wanted_brawl says so)."""
    cdef int o = 1 - s, t
    cdef double d2
    if g.cmask[s][m] & g.onmask[o]:
        return fight_action(p, g, s, m, -1, 0)
    t = closest_enemy(p, g, s, m, 1, &d2)
    if t >= 0 and d2 <= reach2_of(p, g, s, m):
        return charge(p, g, s, m, t)
    if p.opt[O_LASSO_PLAN] and not last:
        # section 11c: a rider within 6" is dragged off its horse before the Charge (no Fortified Defender)
        t = lasso_target(p, g, s, m)
        if t >= 0:
            throw_lasso(p, g, s, m, t)
            return DID_SHOOT
    t = closest_enemy(p, g, s, m, 0, &d2)
    if t >= 0 and d2 <= reach2_of(p, g, s, m):
        return charge(p, g, s, m, t)
    # a Charge is a Move ("Charging Enemy Models"): after one that left nobody in Contact, the Solo may Shoot
    if solo_second and (prev == DID_MOVE or prev == DID_CHARGE) and can_shoot(p, g, s, m, fired[0], again[0]):
        shoot_table(p, g, s, m, fired, again)
        return DID_SHOOT
    if t >= 0:
        if last and solo_second and lookout_wanted_brawl(p, g, s, m, t, d2):
            return DID_LOOKOUT   # section 13: Lookout instead of this Move (battle_reactions.pxd)
        move_toward(p, g, s, m, g.x[o][t], g.y[o][t], move_of(p, g, s, m))
        return DID_MOVE
    return DID_NOTHING


cdef inline int limp_action(Setup *p, Game *g, int s, int m, int *fired, int *again) noexcept nogil:
    """Limp (Injury Table): "the model can only make one Move Action per Activation ... regardless of how many Actions
    it has". After its Move Action, policy (section 6): Fight an enemy in Contact, else Shoot when it can, else
    nothing (no second Move, Charge, Disengage, cleared Jam or Gear)."""
    if g.cmask[s][m] & g.onmask[1 - s]:
        return fight_action(p, g, s, m, -1, 0)
    if can_shoot(p, g, s, m, fired[0], again[0]):
        shoot_table(p, g, s, m, fired, again)
        return DID_SHOOT
    return DID_NOTHING


cdef inline int beast_wanted(Setup *p, Game *g, int s, int m, int last) noexcept nogil:
    """Policy (docs/shadows-battles.md section 9): a Skinwalker in Human Form whose plan plays its Beast Form assumes it
    when no enemy model is in Contact, at once (column ``beast_form`` 1: brawl style) or (2: gun style under balanced)
    on an Action another follows (not ``last``) when the closest standing enemy is within its Beast Form's Charge
    reach: the change, then the Charge."""
    cdef double d2
    if g.cmask[s][m] & g.onmask[1 - s]:
        return 0
    if p.mp[s][m][M_BEAST] == 1:
        return 1
    return not last and closest_enemy(p, g, s, m, 0, &d2) >= 0 and d2 <= p.beast_reach2[s][m]


cdef inline int human_wanted(Setup *p, Game *g, int s, int m, int last) noexcept nogil:
    """Policy (docs/shadows-battles.md section 9): a gun-style Skinwalker (column ``beast_form`` 2) in its Beast Form
    returns to Human Form ("may ... return to Human Form by using an entire Move Action") on an Action another follows
    (not ``last``), out of Contact, when no enemy model (Downed ones too) is within its Beast Form's Charge reach and a
    Weapon of its Human Form has a candidate in range: the return, then the shot."""
    cdef int o = 1 - s, t, w, ok = 0
    if last or p.mp[s][m][M_BEAST] != 2 or not p.opt[O_HUMAN_RETURN] or (g.cmask[s][m] & g.onmask[o]):
        return 0
    for t in range(g.nm[o]):
        if g.on[o][t] and measured2(g, s, m, o, t) <= p.beast_reach2[s][m]:
            return 0
    g.beast[s][m] = 0   # its Weapons as in Human Form (weapon_ready asks the Form), on its Human Form's base
    g.grow[s][m] = grow_of(p, g, s, m)
    measure_row(g, s, m)
    g.nc_valid = 0
    for w in range(MAXW):
        if weapon_ready(p, g, s, m, w) and closest_candidate(p, g, s, m, p.band2[s][m][w][2]) >= 0:
            ok = 1
            break
    g.beast[s][m] = 1
    g.grow[s][m] = grow_of(p, g, s, m)
    measure_row(g, s, m)
    g.nc_valid = 0
    return ok


cdef inline int feed(Setup *p, Game *g, int s, int m) noexcept nogil:
    """The Broodkin's Feed ("The Red Hand Coven"): a Shaken Broodkin "spends an Action while in Contact with a Downed
    ... non-Supernatural model": "Their victim is removed from play, and the Broodkin removes their Shaken marker".
    *Reading* (section 9): the victim is the first such enemy in model order, a Casualty worth no VP (Victory Points
    are for Casualties "as a direct result of your model's Attacks"); a Downed friend is never fed on. Returns 1 if it
    fed (the caller checks Shaken and the Broodkin column)."""
    cdef int o = 1 - s, t, prey = g.cmask[s][m] & g.onmask[o] & ~g.upmask[o]
    if not prey:
        return 0
    for t in range(g.nm[o]):
        if (prey >> t) & 1 and not p.mp[o][t][M_SUPER]:
            hurt(p, g, o, t, DMG_CASUALTY, -1)
            g.shaken[s][m] = 0
            return 1
    return 0


cdef inline int table_action(Setup *p, Game *g, int s, int m, int last, int solo_second, int prev, int *fired,
                             int *again) noexcept nogil:
    """One Action of model m by its style (the Vessel: Arcane Blast when free of Contact and an enemy is within 9"; a
    Skinwalker whose plan plays its Beast Form assumes it first, when no enemy is in Contact).
    ``last``: the Activation's last Action (a Dual Action, a Solo's second, a Revenant's one); ``solo_second`` and
    ``prev``: the second Action of a Solo and what the first did."""
    if not standing(g, s, m):
        return DID_NOTHING
    # each model's Actions roll their own dice: a change to one model leaves the others' rolls as they were
    g.act_tag = (<uint64_t>g.turn << 16) | (1 << 15) | (s << 11) | (m << 6) | (g.acts[s][m] & 63)
    dice_segment(g, g.act_tag)
    g.acts[s][m] += 1
    if p.special[s][m]:   # none of these checks can hold for a model without the column
        if p.mp[s][m][M_FEEDS] and g.shaken[s][m] and feed(p, g, s, m):
            return DID_FEED   # "they will Feed", whatever the Action was to be (a caster in Contact casts nothing)
        if p.mp[s][m][M_LIMP] and g.moved[s][m] == g.act_id and not g.mounted[s][m]:   # Limp: "If on foot"
            return limp_action(p, g, s, m, fired, again)
        if (g.whiskey[s][m] or g.oil[s][m]) and not g.beast[s][m] and gear_action(p, g, s, m, move_toward):
            return DID_MOVE   # battle_gear.pxd: Whiskey for the Bottle Check, Snake Oil
        if g.beast[s][m] and human_wanted(p, g, s, m, last):
            g.beast[s][m] = 0   # policy (section 9): back to Human Form, "using an entire Move Action"
            resize(p, g, s, m)
            return DID_MOVE
        if p.mp[s][m][M_BEAST] and not g.beast[s][m] and beast_wanted(p, g, s, m, last):
            g.beast[s][m] = 1   # policy (section 9): assume its Beast Form, "using an entire Move Action"
            g.mounted[s][m] = 0   # "which flees the table automatically if the Skinwalker transforms while riding"
            resize(p, g, s, m)
            return DID_MOVE
        if p.mp[s][m][M_ARCANE] and n_contact(p, g, s, m, 0) == 0 and closest_candidate(p, g, s, m, p.arcane2) >= 0:
            arcane_blast(p, g, s, m)
            return DID_CAST
    if p.mp[s][m][M_STYLE] == STYLE_GUN and not g.beast[s][m]:   # a Beast Form plays brawl
        return gun_action(p, g, s, m, last, solo_second, fired, again)
    return brawl_action(p, g, s, m, last, solo_second, prev, fired, again)
