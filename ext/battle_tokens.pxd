# cython: language_level=3
"""Bless, Curse and Dispel on the table (docs/shadows-battles.md section 12, "Bless and Curse tokens"), cimported by
battle_table.pxd, battle_reactions.pxd and battle_arcane.pxd.

The state is the Game's ``tok``, ``tok_by`` and ``ntok`` (battle_game.pxd, with the Save hook ``save_roll`` and the
end of a Downed Caster's Powers ``caster_out``). "The Blessed model may re-roll all Failures it scores once in the
very next Test or Save it has to make, after which the token is removed"; the Cursed model "must re-roll all
Successes". Reading (oddsmith.rules.shadows.Blessing, KERNEL-NOTES Q27): after the Test's own maximum-face re-rolls,
every die not yet re-rolled that Failed (Bless) or Succeeded (Curse) is re-rolled once; those dice stand. The
Tests are the book's named Tests (Shooting, Spotting, Fight, Nerve, Disengage, Casting, Reaction; Recovery Tests
and Bottle Checks come after the tokens have ceased); a Jamming Check ("roll the Weapon's Jam Die"), Slick's and
Bushwhacker's Grit Die and other plain rolls are not Tests (KERNEL-NOTES Q28). A model with no token rolls exactly
as before: ``model_test`` is ``roll_test`` then. Every function is ``cdef inline noexcept nogil``.
"""
from shadows_common cimport *
from battle_game cimport *

cdef enum:
    PW_BLESS = 5       # the kernel's Power codes (battle_arcane.pxd: 1..4 there)
    PW_CURSE = 6
    PW_DISPEL = 7


cdef inline void token_rerolls(DiceStream *st, int D, int T, int n, int k, int *faces, char *rr) noexcept nogil:
    """Bless (k MODE_BLESS) re-rolls every die not re-rolled yet that Failed, Curse every one that Succeeded."""
    cdef int i
    for i in range(n):
        if not rr[i] and ((faces[i] < T) == (k == MODE_BLESS)):
            faces[i] = roll_die(st, D)


cdef inline int model_test(Setup *p, Game *g, int s, int m, int n, int free_rr, int *one) noexcept nogil:
    """A Test of n dice by model m of side s on its current Grit Die ("Tests"), Let There Be Light's -1 Die for a
    Supernatural model included (battle_game.light_dice): model_test_as_is."""
    return model_test_as_is(p, g, s, m, light_dice(p, g, s, m, n), free_rr, one)


cdef inline int model_test_as_is(Setup *p, Game *g, int s, int m, int n, int free_rr, int *one) noexcept nogil:
    """A Test of exactly n dice ("an unmodified 3 Dice Shooting Test": Arcane Blast's) by model m of side s on its
    current Grit Die: roll_test, then its Bless or Curse token (spent) if it has one. Successes; ``one``: a final die
    shows the Jam face."""
    cdef int faces[MAX_DICE]
    cdef char rr[MAX_DICE]
    cdef int i, k, D = cur_die(p, g, s, m), T = p.opt[O_T], c = 0
    if not (g.ntok and g.tok[s][m]):
        return roll_test(&g.st, D, T, n, p.opt[O_READING], free_rr, p.opt[O_ONE_FACE], one)
    if n > MAX_DICE:
        n = MAX_DICE
    roll_and_reroll(&g.st, D, T, n, p.opt[O_READING], free_rr, faces, rr)
    k = spend_token(g, s, m)
    token_rerolls(&g.st, D, T, n, k, faces, rr)
    one[0] = 0
    for i in range(n):
        if faces[i] >= T:
            c += 1
        if faces[i] == p.opt[O_ONE_FACE]:
            one[0] = 1
    return c


cdef inline int model_fight_test(Setup *p, Game *g, int s, int m, int n, int *high) noexcept nogil:
    """A Fight Test of model m (roll_fight_test), then its Bless or Curse token if it has one; ``high`` the single
    highest final die."""
    cdef int faces[MAX_DICE]
    cdef char rr[MAX_DICE]
    cdef int k, D = cur_die(p, g, s, m), T = p.opt[O_T]
    n = light_dice(p, g, s, m, n)
    if not (g.ntok and g.tok[s][m]):
        return roll_fight_test(&g.st, D, T, n, p.opt[O_READING], high)
    if n < 1:
        n = 1
    if n > MAX_DICE:
        n = MAX_DICE
    roll_and_reroll(&g.st, D, T, n, p.opt[O_READING], 0, faces, rr)
    k = spend_token(g, s, m)
    token_rerolls(&g.st, D, T, n, k, faces, rr)
    return fight_result_of(faces, n, T, high)


cdef inline int model_die(Setup *p, Game *g, int s, int m) noexcept nogil:
    """An unmodified 1 Die Test read by its face (Dynamite's throw): the die, re-rolled once by a Bless if it Failed
    or by a Curse if it Succeeded (a single die's maximum has no other die to re-roll)."""
    cdef int D = cur_die(p, g, s, m), x = roll_die(&g.st, D), k
    if g.ntok and g.tok[s][m]:
        k = spend_token(g, s, m)
        if (x < p.opt[O_T]) == (k == MODE_BLESS):
            x = roll_die(&g.st, D)
    return x


cdef inline void tokens_clear(Game *g) noexcept nogil:
    """No token in play: the game's start, and "the start of this Game Turn's Recovery Phase"."""
    cdef int s, m
    for s in range(NSIDE):
        for m in range(MAXM):
            g.tok[s][m] = 0
    g.ntok = 0


# ---------------------------------------------------------------------------
# Casting Bless, Curse and Dispel (policy: docs/shadows-battles.md section 12)
# ---------------------------------------------------------------------------

cdef inline int token_in_play(Game *g, int kind, int c) noexcept nogil:
    """Is a token of ``kind`` cast by Caster c on a model? ("A model can have only one of each Power in play")"""
    cdef int s, m
    if g.ntok == 0:
        return 0
    for s in range(NSIDE):
        for m in range(MAXM):
            if g.tok[s][m] == kind and g.tok_by[s][m] == c:
                return 1
    return 0


cdef inline int token_target(Setup *p, Game *g, int s, int m, int code) noexcept nogil:
    """The policy's Target of Bless, Curse or Dispel now (-1: none), every model on the table visible, "within 12""
    edge to edge. Bless: the first friend (not the Caster) in Activation order standing, not Done and not Blessed;
    Curse: the first such enemy not Cursed; neither while the Caster's token of that Power is in play. Dispel: the
    first enemy in Activation order with a Bless, else the first friend (not the Caster) with a Curse, returned as
    side * MAXM + model."""
    cdef int i, t, o = 1 - s, c = s * MAXM + m
    cdef double r = p.base + p.opt[O_TOKEN_RANGE] / 1000.0 + 1e-6, r2 = r * r
    if code == PW_BLESS or code == PW_CURSE:
        o = 1 - s if code == PW_CURSE else s
        if token_in_play(g, MODE_BLESS if code == PW_BLESS else MODE_CURSE, c):
            return -1
        for i in range(g.nm[o]):
            t = p.order[o][i]
            if (o == s and t == m) or not standing(g, o, t) or g.done[o][t] or measured2(g, s, m, o, t) > r2:
                continue
            if g.tok[o][t] != (MODE_BLESS if code == PW_BLESS else MODE_CURSE):
                return t
        return -1
    if g.ntok == 0:
        return -1
    for i in range(g.nm[1 - s]):
        t = p.order[1 - s][i]
        if g.on[1 - s][t] and g.tok[1 - s][t] == MODE_BLESS and measured2(g, s, m, 1 - s, t) <= r2:
            return (1 - s) * MAXM + t
    for i in range(g.nm[s]):
        t = p.order[s][i]
        if t != m and g.on[s][t] and g.tok[s][t] == MODE_CURSE and measured2(g, s, m, s, t) <= r2:
            return s * MAXM + t
    return -1


cdef inline int token_difficulty(Setup *p, int code) noexcept nogil:
    if code == PW_BLESS:
        return p.opt[O_BLESS_DIFFICULTY]
    if code == PW_CURSE:
        return p.opt[O_CURSE_DIFFICULTY]
    return p.opt[O_DISPEL_DIFFICULTY]


cdef inline void token_cast(Setup *p, Game *g, int s, int m, int code, int t) noexcept nogil:
    """The Cast Power's effect: Bless on friend t, Curse on enemy t ("Blessing a Cursed model removes that token, but
    otherwise has no effect. The reverse is also true"), or Dispel of the token on model t (side * MAXM + model)."""
    cdef int o = s if code == PW_BLESS else 1 - s, kind = MODE_BLESS if code == PW_BLESS else MODE_CURSE
    if code == PW_DISPEL:
        spend_token(g, t // MAXM, t % MAXM)
        return
    if g.tok[o][t]:
        spend_token(g, o, t)   # the other token: removed, and no more
        return
    g.tok[o][t] = kind
    g.tok_by[o][t] = s * MAXM + m
    g.ntok += 1
