# cython: language_level=3
"""Monte Carlo Shadows of the West dice engine: the same procedures, rolled.

Each kernel plays ``trials`` independent repetitions with dice drawn from a
numpy bit generator (``bitgen_t``) and adds outcome counts into an int64
array, so chunks from ``oddsmith.sampling.run_chunks`` just add up. The
procedures mirror the exact engine's reading (oddsmith.rules.shadows):
maximum-face re-rolls on the lowest failing die first (reading B: a maximum
on a re-roll grants another), then Bless / Curse on the dice not re-rolled.
Rules numbers come in as arguments.
"""
from libc.stdint cimport uint64_t, uint32_t, int64_t, int32_t
from libc.string cimport memset
from libc.stdlib cimport malloc, free

from shadows_common cimport *

SHOT_COLUMNS = ("shooter_die", "dice", "reading", "shooter_mode", "rerolls", "cancel",
                "target_die", "target_shaken", "save_mod", "save_mode", "jam_die", "jam_rerolls")
SEQ_SHOT_COLUMNS = ("shooter_die", "dice", "reading", "shooter_mode", "rerolls", "cancel",
                    "save_mod", "jam_die", "jam_rerolls", "weapon")
FIGHT_SIDE_COLUMNS = ("die", "dice", "dice_nerve_failed", "nerve_die", "nerve_rerolls", "nerve_auto", "mode",
                      "save_die", "save_mod", "shaken", "worse_from_margin")


cdef inline void sim_test(DiceStream *st, int D, int T, int one_face, int n, int reading, int mode, int free_rr,
                          int *succ, int *high, int *one) noexcept nogil:
    """One Test: roll, maximum-face re-rolls (lowest failing die first), then Bless / Curse."""
    cdef int faces[MAX_DICE]
    cdef char rr[MAX_DICE]
    cdef int i, x, s = 0, h = 0, o = 0
    roll_and_reroll(st, D, T, n, reading, free_rr, faces, rr)
    if mode == MODE_BLESS:
        for i in range(n):
            if not rr[i] and faces[i] < T:
                faces[i] = roll_die(st, D)
    elif mode == MODE_CURSE:
        for i in range(n):
            if not rr[i] and faces[i] >= T:
                faces[i] = roll_die(st, D)
    for i in range(n):
        x = faces[i]
        if x >= T:
            s += 1
        if x > h:
            h = x
        if x == one_face:
            o = 1
    succ[0] = s
    high[0] = h
    one[0] = o


def mc_test(object bit_generator, int D, int T, int one_face, int n, int reading, int mode, int rerolls,
            int64_t trials, int64_t[::1] out):
    """Add the counts of (successes, highest die, any die showing ``one_face``) of ``trials`` Tests.

    ``out`` has (n+1) * (D+1) * 2 entries, index (s * (D+1) + h) * 2 + o.
    """
    if not (1 <= n <= MAX_DICE and 2 <= T <= D <= MAX_FACES) or out.shape[0] != (n + 1) * (D + 1) * 2:
        raise ValueError("mc_test: parameters outside the kernel's limits")
    cdef DiceStream st
    cdef int64_t t
    cdef int s, h, o
    stream_open(&st, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            sim_test(&st, D, T, one_face, n, reading, mode, rerolls, &s, &h, &o)
            out[(s * (D + 1) + h) * 2 + o] += 1


cdef enum:
    TABLE_LIMIT = 1 << 20


cdef uint32_t _power_or_zero(int D, int n) noexcept nogil:
    """D**n when it is at most TABLE_LIMIT, else 0."""
    cdef uint32_t R = 1
    cdef int i
    for i in range(n):
        if R > <uint32_t>(TABLE_LIMIT // D):
            return 0
        R *= D
    return R


def mc_successes(object bit_generator, int D, int T, int n, int reading, int64_t trials, int64_t[::1] out):
    """Add the success counts of ``trials`` plain Tests (no Bless/Curse): the benchmark's hot loop.

    The first roll of all n dice is one uniform draw in [0, D**n) looked up
    in a table of (Successes, maxima); the whole re-roll chain of f failing
    dice with t tokens is one more draw in [0, D**f) looked up in a table of
    Successes gained (digits past the chain's end are simply not used, so
    each re-roll is still an independent uniform die). Which failing die is
    re-rolled does not change the number of Successes.
    """
    if not (1 <= n <= MAX_DICE and 2 <= T <= D <= MAX_FACES) or out.shape[0] != n + 1:
        raise ValueError("mc_successes: parameters outside the kernel's limits")
    cdef DiceStream st
    cdef int64_t t
    cdef int i, j, x, tokens, fails, s, tt, ff, gained
    cdef uint32_t R = _power_or_zero(D, n), v, w, e
    cdef uint32_t RF[MAX_DICE + 1]
    cdef unsigned char *table = NULL
    cdef unsigned char *chain[MAX_DICE + 1][MAX_DICE + 1]
    cdef int ok = 1
    memset(chain, 0, sizeof(chain))
    if R:
        table = <unsigned char *>malloc(R)
        if table == NULL:
            raise MemoryError()
        for v in range(R):
            w = v
            s = 0
            tokens = 0
            for i in range(n):
                x = <int>(w % D) + 1
                w //= D
                if x >= T:
                    s += 1
                    if x == D:
                        tokens += 1
            table[v] = <unsigned char>(s | (tokens << 4))
        for ff in range(1, n + 1):
            RF[ff] = _power_or_zero(D, ff)
            for tt in range(1, ff + 1):
                if not RF[ff]:
                    continue
                chain[tt][ff] = <unsigned char *>malloc(RF[ff])
                if chain[tt][ff] == NULL:
                    ok = 0
                    continue
                for v in range(RF[ff]):
                    w = v
                    tokens = tt
                    fails = ff
                    gained = 0
                    while tokens > 0 and fails > 0:
                        x = <int>(w % D) + 1
                        w //= D
                        fails -= 1
                        tokens -= 1
                        if x >= T:
                            gained += 1
                            if x == D and reading == READING_B:
                                tokens += 1
                    chain[tt][ff][v] = <unsigned char>gained
    if not ok:
        for i in range(MAX_DICE + 1):
            for j in range(MAX_DICE + 1):
                free(chain[i][j])
        free(table)
        raise MemoryError()
    stream_open(&st, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            if R:
                e = table[roll_range(&st, R)]
                s = e & 15
                tokens = e >> 4
            else:
                s = 0
                tokens = 0
                for i in range(n):
                    x = roll_die(&st, D)
                    if x >= T:
                        s += 1
                        if x == D:
                            tokens += 1
            fails = n - s
            if tokens > 0 and fails > 0:
                if tokens > fails:
                    tokens = fails
                if chain[tokens][fails] != NULL:
                    s += chain[tokens][fails][roll_range(&st, RF[fails])]
                else:
                    while tokens > 0 and fails > 0:
                        x = roll_die(&st, D)
                        fails -= 1
                        tokens -= 1
                        if x >= T:
                            s += 1
                            if x == D and reading == READING_B:
                                tokens += 1
            out[s] += 1
    for i in range(MAX_DICE + 1):
        for j in range(MAX_DICE + 1):
            free(chain[i][j])
    free(table)


cdef inline int save_target_of(const int *save_table, int successes) noexcept nogil:
    if successes >= MAX_TABLE:
        successes = MAX_TABLE - 1
    return save_table[successes]


cdef inline int sim_save(DiceStream *st, int die, int target, int mod, int mode, int shaken, int worse,
                         const int *dmg) noexcept nogil:
    cdef int code = damage_code(roll_die(st, die) + mod, target, dmg)
    if (mode == MODE_BLESS and code != DMG_NONE) or (mode == MODE_CURSE and code == DMG_NONE):
        code = damage_code(roll_die(st, die) + mod, target, dmg)
    return apply_damage(shaken, code, worse)


cdef inline int sim_jam(DiceStream *st, int jam_die, int T, int jam_rr) noexcept nogil:
    """1 if a Jamming Check Jams the weapon (a Failure on the Jam Die, Gunsmith re-rolls it)."""
    cdef int i
    for i in range(1 + jam_rr):
        if roll_die(st, jam_die) >= T:
            return 0
    return 1


def mc_shot(object bit_generator, const int64_t[::1] p, const int32_t[::1] save_table, const int32_t[::1] damage,
            int T, int one_face, int64_t trials, int64_t[::1] out):
    """Add counts of the 8 outcomes of one Shooting Attack (miss, jam_check, jammed, cancelled,
    saved, shaken, downed, casualty) for the row ``p`` (SHOT_COLUMNS)."""
    if p.shape[0] != len(SHOT_COLUMNS) or out.shape[0] != 8 or save_table.shape[0] != MAX_TABLE \
            or damage.shape[0] != MAX_TABLE:
        raise ValueError("mc_shot: bad shapes")
    cdef DiceStream st
    cdef int stab[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef int64_t t
    cdef int s, h, o, e, code, i
    cdef int D = <int>p[0], n = <int>p[1], reading = <int>p[2], mode = <int>p[3], rr = <int>p[4]
    cdef int cancel = <int>p[5], tdie = <int>p[6], tshaken = <int>p[7], smod = <int>p[8], smode = <int>p[9]
    cdef int jdie = <int>p[10], jrr = <int>p[11]
    copy_rule_tables(save_table, damage, stab, dm)
    stream_open(&st, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            sim_test(&st, D, T, one_face, n, reading, mode, rr, &s, &h, &o)
            if s == 0:
                out[0] += 1
                if o:
                    out[1] += 1
                    out[2] += sim_jam(&st, jdie, T, jrr)
                continue
            e = s - cancel
            if e <= 0:
                out[3] += 1
                continue
            code = sim_save(&st, tdie, save_target_of(stab, e), smod, smode, tshaken, 0, dm)
            out[4 + code] += 1


def mc_shot_sequence(object bit_generator, const int64_t[::1] target, const int64_t[:, ::1] shots,
                     const int32_t[::1] save_table, const int32_t[::1] damage, int T, int one_face,
                     int64_t trials, int64_t[::1] out):
    """Add counts over a sequence of shots at one target (SEQ_SHOT_COLUMNS per shot; target: shots,
    die, die when Shaken, starts Shaken): out = unhurt, shaken, downed, casualty, jammed, shots fired (sum)."""
    if out.shape[0] != 6 or shots.shape[1] != len(SEQ_SHOT_COLUMNS) or save_table.shape[0] != MAX_TABLE \
            or damage.shape[0] != MAX_TABLE or target.shape[0] != 4 or shots.shape[0] < target[0]:
        raise ValueError("mc_shot_sequence: bad shapes")
    cdef DiceStream st
    cdef int stab[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef int64_t t
    cdef int i, s, h, o, e, code, state, mask, fired, w
    cdef int K = <int>target[0], start = <int>target[3]
    copy_rule_tables(save_table, damage, stab, dm)
    stream_open(&st, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            state = start
            mask = 0
            fired = 0
            for i in range(K):
                w = <int>shots[i, 9]
                if state >= DMG_DOWNED or (mask >> w) & 1:
                    continue
                fired += 1
                sim_test(&st, <int>shots[i, 0], T, one_face, <int>shots[i, 1], <int>shots[i, 2],
                         <int>shots[i, 3], <int>shots[i, 4], &s, &h, &o)
                if s == 0:
                    if o and sim_jam(&st, <int>shots[i, 7], T, <int>shots[i, 8]):
                        mask |= 1 << w
                    continue
                e = s - <int>shots[i, 5]
                if e <= 0:
                    continue
                code = sim_save(&st, <int>target[1 + state], save_target_of(stab, e), <int>shots[i, 6],
                                MODE_NONE, state, 0, dm)
                if code != DMG_NONE:
                    state = code
            out[0 if state == start else state] += 1
            if mask:
                out[4] += 1
            out[5] += fired


def mc_fight(object bit_generator, const int64_t[::1] att, const int64_t[::1] dfn, int reading,
             const int32_t[::1] save_table, const int32_t[::1] damage, int T, int64_t trials, int64_t[::1] out):
    """Add counts of a Fight (FIGHT_SIDE_COLUMNS per side): out[0..10] as the exact engine's
    FIGHT_OUTCOMES, then the attacker's (MAX_DICE+1) and the defender's (MAX_DICE+1) winning margins."""
    if att.shape[0] != len(FIGHT_SIDE_COLUMNS) or dfn.shape[0] != len(FIGHT_SIDE_COLUMNS) \
            or out.shape[0] != 11 + 2 * (MAX_DICE + 1) or save_table.shape[0] != MAX_TABLE \
            or damage.shape[0] != MAX_TABLE:
        raise ValueError("mc_fight: bad shapes")
    cdef DiceStream st
    cdef int stab[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef int64_t t
    cdef int i, sa, ha, oa, sd, hd, od, na, nd, side, k, code, ns, nh, no
    cdef const int64_t *lp
    copy_rule_tables(save_table, damage, stab, dm)
    stream_open(&st, stream_bitgen(bit_generator))
    with bit_generator.lock, nogil:
        for t in range(trials):
            na = <int>att[1]
            if att[3] > 0 and not att[5]:
                # Fearsome opponent: a 1 Die Nerve Test or fewer Fight dice
                sim_test(&st, <int>att[3], T, 1, 1, reading, MODE_NONE, <int>att[4], &ns, &nh, &no)
                if ns == 0:
                    na = <int>att[2]
            nd = <int>dfn[1]
            if dfn[3] > 0 and not dfn[5]:
                sim_test(&st, <int>dfn[3], T, 1, 1, reading, MODE_NONE, <int>dfn[4], &ns, &nh, &no)
                if ns == 0:
                    nd = <int>dfn[2]
            sim_test(&st, <int>att[0], T, 1, na, reading, <int>att[6], 0, &sa, &ha, &oa)
            sim_test(&st, <int>dfn[0], T, 1, nd, reading, <int>dfn[6], 0, &sd, &hd, &od)
            side = fight_winner(sa, ha, sd, hd, &k)
            if side < 0:
                out[0] += 1
                continue
            out[1 + side] += 1
            out[11 + side * (MAX_DICE + 1) + k] += 1
            lp = &dfn[0] if side == 0 else &att[0]
            code = sim_save(&st, <int>lp[7], save_target_of(stab, k), <int>lp[8], MODE_NONE, <int>lp[9],
                            1 if (lp[10] > 0 and k >= lp[10]) else 0, dm)
            out[3 + side * 4 + code] += 1
