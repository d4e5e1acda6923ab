# cython: language_level=3
"""Exact Shadows of the West dice engine: dynamic programming over dice outcomes.

No ordered roll is ever enumerated. A Test of ``n`` dice is split by what
the first roll shows: ``m`` maxima, ``s`` other Successes and ``f`` failing
dice (a multinomial count), and the re-rolls are counted by

* a token walk over the *sequence of maxima* among the re-rolled dice (the
  only thing the stopping rule of the chained reading B depends on),
* iid non-maximum faces for the other re-rolled dice,
* the faces of the failing dice not re-rolled (the player re-rolls the
  lowest failing dice first, so only the count of 1s and the highest
  failing face matter),
* Bless / Curse re-rolls after the Test's own re-rolls (the reading of
  ``oddsmith.rules.shadows.Blessing``).

Every probability is returned as an exact count over a known scale (a
product of die sizes) in unsigned 128-bit integers, split into uint64
halves for Python, plus its float value. Rules numbers (5+, the save table,
the damage bands, Jam dice) come in as arguments from
``oddsmith.rules.shadows`` through ``oddsmith.shadows.engine``.
"""
from libc.stdlib cimport malloc, calloc, free
from libc.string cimport memset, memcpy
from libc.stdint cimport uint64_t, int64_t, int32_t

import numpy as np

from shadows_common cimport *

# Column layout of the parameter rows the table kernels take (int64).
SHOT_COLUMNS = ("shooter_die", "dice", "reading", "shooter_mode", "rerolls", "cancel",
                "target_die", "target_shaken", "save_mod", "save_mode", "jam_die", "jam_rerolls")
SHOT_OUTCOMES = ("miss", "jam_check", "jammed", "cancelled", "saved", "shaken", "downed", "casualty")
SEQ_SHOT_COLUMNS = ("shooter_die", "dice", "reading", "shooter_mode", "rerolls", "cancel",
                    "save_mod", "jam_die", "jam_rerolls", "weapon")
SEQ_TARGET_COLUMNS = ("shots", "target_die", "target_die_shaken", "target_shaken")
SEQ_OUTCOMES = ("unhurt", "shaken", "downed", "casualty", "jammed", "shots_fired")
FIGHT_SIDE_COLUMNS = ("die", "dice", "dice_nerve_failed", "nerve_pass", "nerve_fail", "nerve_scale", "mode",
                      "save_die", "save_mod", "shaken", "worse_from_margin")
FIGHT_OUTCOMES = ("draw", "attacker_wins", "defender_wins",
                  "defender_saved", "defender_shaken", "defender_downed", "defender_casualty",
                  "attacker_saved", "attacker_shaken", "attacker_downed", "attacker_casualty")

cdef enum:
    MAX_SEQ = 4

MAX_DICE_PER_TEST = MAX_DICE
MAX_DIE_FACES = MAX_FACES
MAX_SEQUENCE_SHOTS = MAX_SEQ


# ---------------------------------------------------------------------------
# small integer helpers
# ---------------------------------------------------------------------------

cdef inline u128 ipow(u128 a, int e) noexcept nogil:
    cdef u128 r = 1
    cdef int i
    for i in range(e):
        r *= a
    return r


cdef inline u128 binom(int n, int k) noexcept nogil:
    cdef u128 r = 1
    cdef int i
    if k < 0 or k > n:
        return 0
    for i in range(1, k + 1):
        r = r * (n - k + i) // i
    return r


cdef inline int imax(int a, int b) noexcept nogil:
    return a if a > b else b


cdef inline int imin(int a, int b) noexcept nogil:
    return a if a < b else b


# ---------------------------------------------------------------------------
# One Test: joint counts of (successes, highest die, any die showing one_face)
# ---------------------------------------------------------------------------

ctypedef struct Dims:
    int D          # faces
    int T          # a Success is T or better
    int one_face   # the face a Jamming Check / Miscast looks for
    int n          # dice rolled
    int hd         # highest-die buckets (D + 1, or 1 when not tracked)
    int od         # jam-face buckets (2, or 1 when not tracked)
    int tsz        # entries of one (k, h, o) table of up to n dice


cdef inline int tix(const Dims *d, int k, int h, int o) noexcept nogil:
    return (k * d.hd + h) * d.od + o


cdef void add_die(const Dims *d, const u128 *src, u128 *dst, int top_face) noexcept nogil:
    """dst = src with one more fresh die of faces 1..top_face (top_face = D or D - 1)."""
    cdef int k, h, o, x, h2, o2, k2
    cdef u128 c
    memset(dst, 0, d.tsz * sizeof(u128))
    for k in range(d.n):
        for h in range(d.hd):
            for o in range(d.od):
                c = src[tix(d, k, h, o)]
                if c == 0:
                    continue
                for x in range(1, top_face + 1):
                    k2 = k + (1 if x >= d.T else 0)
                    h2 = imax(h, x) if d.hd > 1 else 0
                    o2 = (o | (1 if x == d.one_face else 0)) if d.od > 1 else 0
                    dst[tix(d, k2, h2, o2)] += c


cdef void chain_table(const Dims *d, int reading, int t, int f, const u128 *pnm, u128 *cf, const u128 *pw) noexcept nogil:
    """Counts of (successes, highest, jam face) of f failing dice after the maximum-face re-rolls.

    ``t`` re-roll tokens; the lowest failing dice are re-rolled first. Each
    failing die is weighted D (its unused re-roll) when not re-rolled, so the
    table sums to (T-1)**f * D**f.
    """
    cdef u128 ns[MAX_DICE + 1][MAX_DICE + 1]
    cdef u128 cur[MAX_DICE + 1][MAX_DICE + 2]
    cdef u128 nxt[MAX_DICE + 1][MAX_DICE + 2]
    cdef u128 wt[HDIM * 2]
    cdef int r, M, j, tau, q, c1, y, qq, fmax, hf, of, k, h, o, hh, hm
    cdef u128 c, base, w, pad
    cdef const u128 *tab
    memset(cf, 0, d.tsz * sizeof(u128))
    memset(ns, 0, sizeof(ns))
    if t > f:
        t = f
    if reading == READING_A:
        for M in range(t + 1):
            ns[t][M] = binom(t, M)
    else:
        memset(cur, 0, sizeof(cur))
        cur[t][0] = 1
        for j in range(f + 1):
            memset(nxt, 0, sizeof(nxt))
            for tau in range(t + 1):
                for M in range(j + 1):
                    c = cur[tau][M]
                    if c == 0:
                        continue
                    if tau == 0 or j == f:
                        ns[j][M] += c
                        continue
                    nxt[tau][M + 1] += c      # a maximum: spends a token, grants one
                    nxt[tau - 1][M] += c      # any other face
            memcpy(cur, nxt, sizeof(cur))
    for r in range(f + 1):
        # the failing dice left standing: the f - r highest
        memset(wt, 0, sizeof(wt))
        for c1 in range(f + 1):
            qq = f - c1
            for y in range(0, d.T):
                if qq == 0:
                    if y != 0:
                        continue
                    w = 1
                    fmax = 1 if c1 > 0 else 0
                else:
                    if y < 2:
                        continue
                    w = ipow(y - 1, qq) - ipow(y - 2, qq)
                    fmax = y
                w *= binom(f, c1)
                hf = (fmax if r < f else 0) if d.hd > 1 else 0
                of = (1 if c1 > r else 0) if d.od > 1 else 0
                # ones count only where one_face is 1 (the book's Jamming Check face)
                if d.one_face != 1:
                    of = 0
                wt[hf * 2 + of] += w
        pad = pw[f - r]
        for M in range(r + 1):
            c = ns[r][M]
            if c == 0:
                continue
            q = r - M
            tab = pnm + q * d.tsz
            hm = (d.D if (M > 0 and d.hd > 1) else 0)
            for k in range(q + 1):
                for h in range(d.hd):
                    for o in range(d.od):
                        base = tab[tix(d, k, h, o)]
                        if base == 0:
                            continue
                        base *= c * pad
                        hh = imax(h, hm)
                        for hf in range(d.hd):
                            for of in range(d.od):
                                w = wt[hf * 2 + of]
                                if w == 0:
                                    continue
                                cf[tix(d, k + M, imax(hh, hf), o | of)] += base * w


cdef int test_counts(int D, int T, int one_face, int n, int reading, int mode, int free_rr,
                     int track_h, int track_o, u128 *out) noexcept nogil:
    """Joint counts of one Test into ``out`` ((n+1) x hd x od), scale D**(2n). Returns -1 on no memory."""
    cdef Dims d
    d.D = D
    d.T = T
    d.one_face = one_face
    d.n = n
    d.hd = D + 1 if track_h else 1
    d.od = 2 if track_o else 1
    d.tsz = (n + 1) * d.hd * d.od
    cdef u128 pw[2 * MAX_DICE + 2]
    cdef int i, f, m, s, t, k, h, o, k2, h2, o2, x, h0, q
    cdef u128 mult, cnt, weight, c, c2
    cdef u128 sgc[HDIM]
    cdef u128 *pnm = <u128 *>calloc((n + 1) * d.tsz, sizeof(u128))
    cdef u128 *pl = <u128 *>calloc((n + 1) * d.tsz, sizeof(u128))
    cdef u128 *cf = <u128 *>calloc((n + 1) * (n + 1) * d.tsz, sizeof(u128))
    cdef char *have = <char *>calloc((n + 1) * (n + 1), 1)
    cdef u128 *tab
    if pnm == NULL or pl == NULL or cf == NULL or have == NULL:
        free(pnm); free(pl); free(cf); free(have)
        return -1
    pw[0] = 1
    for i in range(1, 2 * n + 2):
        pw[i] = pw[i - 1] * D
    pnm[0] = 1
    pl[0] = 1
    for i in range(1, n + 1):
        add_die(&d, pnm + (i - 1) * d.tsz, pnm + i * d.tsz, D - 1)
        add_die(&d, pl + (i - 1) * d.tsz, pl + i * d.tsz, D)
    memset(out, 0, d.tsz * sizeof(u128))
    for f in range(n + 1):
        for m in range(n - f + 1):
            s = n - f - m
            mult = binom(n, f) * binom(n - f, m)
            t = imin(m + free_rr, f)
            tab = cf + (t * (n + 1) + f) * d.tsz
            if mode != MODE_BLESS and not have[t * (n + 1) + f]:
                chain_table(&d, reading, t, f, pnm, tab, pw)
                have[t * (n + 1) + f] = 1
            if mode == MODE_CURSE:
                # every Success not re-rolled yet is re-rolled; the failing dice went through the chain
                weight = mult * ipow(D - T, s)
                q = m + s
                for k in range(q + 1):
                    for h in range(d.hd):
                        for o in range(d.od):
                            c = pl[q * d.tsz + tix(&d, k, h, o)]
                            if c == 0:
                                continue
                            c *= weight
                            for k2 in range(f + 1):
                                for h2 in range(d.hd):
                                    for o2 in range(d.od):
                                        c2 = tab[tix(&d, k2, h2, o2)]
                                        if c2:
                                            out[tix(&d, k + k2, imax(h, h2), o | o2)] += c * c2
                continue
            # highest die among the first roll's Successes
            memset(sgc, 0, sizeof(sgc))
            if m > 0:
                sgc[D if d.hd > 1 else 0] += ipow(D - T, s)
            elif s == 0:
                sgc[0] += 1
            else:
                for x in range(T, D):
                    sgc[x if d.hd > 1 else 0] += ipow(x - T + 1, s) - ipow(x - T, s)
            for h0 in range(d.hd):
                if sgc[h0] == 0:
                    continue
                weight = mult * sgc[h0] * pw[m + s]
                if mode == MODE_BLESS:
                    # every failing die ends up re-rolled exactly once
                    weight *= ipow(T - 1, f)
                    for k in range(f + 1):
                        for h in range(d.hd):
                            for o in range(d.od):
                                c = pl[f * d.tsz + tix(&d, k, h, o)]
                                if c:
                                    out[tix(&d, m + s + k, imax(h0, h), o)] += weight * c
                else:
                    for k in range(f + 1):
                        for h in range(d.hd):
                            for o in range(d.od):
                                c = tab[tix(&d, k, h, o)]
                                if c:
                                    out[tix(&d, m + s + k, imax(h0, h), o)] += weight * c
    free(pnm); free(pl); free(cf); free(have)
    return 0


# ---------------------------------------------------------------------------
# A cache of Tests for the table kernels
# ---------------------------------------------------------------------------

cdef enum:
    CACHE_MODES = 3
    CACHE_REROLLS = 4

ctypedef struct TestCache:
    u128 *slot[MAX_FACES + 1][MAX_DICE + 1][2][CACHE_MODES][CACHE_REROLLS + 1]
    int T
    int one_face
    int track_h
    int track_o


cdef void cache_init(TestCache *c, int T, int one_face, int track_h, int track_o) noexcept nogil:
    memset(c.slot, 0, sizeof(c.slot))
    c.T = T
    c.one_face = one_face
    c.track_h = track_h
    c.track_o = track_o


cdef void cache_free(TestCache *c) noexcept nogil:
    cdef int a, b, r, m, x
    for a in range(MAX_FACES + 1):
        for b in range(MAX_DICE + 1):
            for r in range(2):
                for m in range(CACHE_MODES):
                    for x in range(CACHE_REROLLS + 1):
                        if c.slot[a][b][r][m][x] != NULL:
                            free(c.slot[a][b][r][m][x])
                            c.slot[a][b][r][m][x] = NULL


cdef u128 *cache_get(TestCache *c, int D, int n, int reading, int mode, int rr) noexcept nogil:
    cdef u128 *p = c.slot[D][n][reading][mode][rr]
    cdef int sz
    if p != NULL:
        return p
    sz = (n + 1) * ((D + 1) if c.track_h else 1) * (2 if c.track_o else 1)
    p = <u128 *>malloc(sz * sizeof(u128))
    if p == NULL:
        return NULL
    if test_counts(D, c.T, c.one_face, n, reading, mode, rr, c.track_h, c.track_o, p) != 0:
        free(p)
        return NULL
    c.slot[D][n][reading][mode][rr] = p
    return p


# ---------------------------------------------------------------------------
# One Save ("Shoot: 4"), and one shot
# ---------------------------------------------------------------------------

cdef u128 save_counts(int die, int target, int mod, int mode, int start_shaken, int one_worse,
                      const int *dmg, u128 *res) noexcept nogil:
    """Counts of the final damage code (0..3) of one Save; returns the scale (die or die**2)."""
    cdef int x, y, code, code2
    memset(res, 0, 4 * sizeof(u128))
    for x in range(1, die + 1):
        code = damage_code(x + mod, target, dmg)
        if (mode == MODE_BLESS and code != DMG_NONE) or (mode == MODE_CURSE and code == DMG_NONE):
            for y in range(1, die + 1):
                code2 = damage_code(y + mod, target, dmg)
                res[apply_damage(start_shaken, code2, one_worse)] += 1
        elif mode == MODE_NONE:
            res[apply_damage(start_shaken, code, one_worse)] += 1
        else:
            res[apply_damage(start_shaken, code, one_worse)] += die
    return die if mode == MODE_NONE else die * die


cdef inline int save_on(const int *save_table, int successes) noexcept nogil:
    if successes >= MAX_TABLE:
        successes = MAX_TABLE - 1
    return save_table[successes]


cdef u128 shot_counts(const u128 *tj, int n, u128 tscale, int T, int cancel,
                      int tdie, int tshaken, int smod, int smode, int jam_die, int jam_rr,
                      const int *save_table, const int *dmg, u128 *res) noexcept nogil:
    """Counts of the 8 outcomes of one Shooting Attack (SHOT_OUTCOMES); returns the scale.

    ``tj`` is the shooter's Test as (successes, jam face) counts (hd = 1, od = 2).
    """
    cdef u128 js = ipow(jam_die, 1 + jam_rr)
    cdef u128 jfail = ipow(T - 1, 1 + jam_rr)
    cdef u128 sv[4]
    cdef u128 ss = tdie if smode == MODE_NONE else tdie * tdie
    cdef int k, e, code
    cdef u128 c
    memset(res, 0, 8 * sizeof(u128))
    c = tj[0] + tj[1]
    res[0] = c * js * ss
    res[1] = tj[1] * js * ss
    res[2] = tj[1] * jfail * ss
    for k in range(1, n + 1):
        c = tj[k * 2] + tj[k * 2 + 1]
        if c == 0:
            continue
        e = k - cancel
        if e <= 0:
            res[3] += c * js * ss
            continue
        save_counts(tdie, save_on(save_table, e), smod, smode, tshaken, 0, dmg, sv)
        for code in range(4):
            res[4 + code] += c * js * sv[code]
    return tscale * js * ss


def _hi_lo(u128 x):
    return (int(u128_hi(x)) << 64) | int(u128_lo(x))


def test_joint(int D, int T, int one_face, int n, int reading, int mode, int rerolls,
               bint track_high=True, bint track_one=True):
    """Exact joint counts of one Test.

    Returns ``(hi, lo, scale)``: uint64 arrays of shape (n+1, hd, od) holding
    the high and low halves of the counts of (successes, highest die, any die
    showing ``one_face``), and the Python int scale D**(2n). ``hd`` is D+1
    (index = highest face) or 1 when ``track_high`` is false; ``od`` is 2 or 1.
    """
    if not (1 <= n <= MAX_DICE and 2 <= T <= D <= MAX_FACES and 0 <= rerolls <= CACHE_REROLLS):
        raise ValueError("test_joint: parameters outside the kernel's limits")
    cdef int hd = D + 1 if track_high else 1
    cdef int od = 2 if track_one else 1
    cdef int sz = (n + 1) * hd * od
    cdef u128 *buf = <u128 *>malloc(sz * sizeof(u128))
    if buf == NULL:
        raise MemoryError()
    hi = np.zeros(sz, dtype=np.uint64)
    lo = np.zeros(sz, dtype=np.uint64)
    cdef uint64_t[::1] hv = hi
    cdef uint64_t[::1] lv = lo
    cdef int i, rc
    with nogil:
        rc = test_counts(D, T, one_face, n, reading, mode, rerolls, track_high, track_one, buf)
        if rc == 0:
            for i in range(sz):
                hv[i] = u128_hi(buf[i])
                lv[i] = u128_lo(buf[i])
    free(buf)
    if rc != 0:
        raise MemoryError()
    scale = int(D) ** (2 * n)
    return hi.reshape(n + 1, hd, od), lo.reshape(n + 1, hd, od), scale


def shot_table(const int64_t[:, ::1] rows, const int32_t[::1] save_table, const int32_t[::1] damage,
               int T, int one_face, bint want_counts=False):
    """Outcome probabilities of one Shooting Attack for every row of ``rows`` (SHOT_COLUMNS).

    Returns ``(prob, hi, lo, scale_hi, scale_lo)``: prob is float64 (rows, 8)
    in SHOT_OUTCOMES order; with ``want_counts`` the exact counts and scales
    as uint64 halves (else None).
    """
    if save_table.shape[0] != MAX_TABLE or damage.shape[0] != MAX_TABLE or rows.shape[1] != len(SHOT_COLUMNS):
        raise ValueError("shot_table: bad table or row shape")
    cdef Py_ssize_t nrows = rows.shape[0], r
    prob = np.zeros((nrows, 8), dtype=np.float64)
    cdef double[:, ::1] pv = prob
    hi = np.zeros((nrows, 8), dtype=np.uint64)
    lo = np.zeros((nrows, 8), dtype=np.uint64)
    shi = np.zeros(nrows, dtype=np.uint64)
    slo = np.zeros(nrows, dtype=np.uint64)
    cdef uint64_t[:, ::1] hv = hi
    cdef uint64_t[:, ::1] lv = lo
    cdef uint64_t[::1] shv = shi
    cdef uint64_t[::1] slv = slo
    cdef int st[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef int i, j, D, n, bad = 0
    cdef u128 res[8]
    cdef u128 scale
    cdef u128 *tj
    cdef TestCache *cache = <TestCache *>malloc(sizeof(TestCache))
    if cache == NULL:
        raise MemoryError()
    copy_rule_tables(save_table, damage, st, dm)
    with nogil:
        cache_init(cache, T, one_face, 0, 1)
        for r in range(nrows):
            D = <int>rows[r, 0]
            n = <int>rows[r, 1]
            tj = cache_get(cache, D, n, <int>rows[r, 2], <int>rows[r, 3], <int>rows[r, 4])
            if tj == NULL:
                bad = 1
                break
            scale = shot_counts(tj, n, ipow(D, 2 * n), T, <int>rows[r, 5], <int>rows[r, 6], <int>rows[r, 7],
                                <int>rows[r, 8], <int>rows[r, 9], <int>rows[r, 10], <int>rows[r, 11], st, dm, res)
            for j in range(8):
                pv[r, j] = u128_ratio(res[j], scale)
                if want_counts:
                    hv[r, j] = u128_hi(res[j])
                    lv[r, j] = u128_lo(res[j])
            shv[r] = u128_hi(scale)
            slv[r] = u128_lo(scale)
        cache_free(cache)
    free(cache)
    if bad:
        raise MemoryError()
    if not want_counts:
        return prob, None, None, None, None
    return prob, hi, lo, shi, slo


# ---------------------------------------------------------------------------
# Several shots at one target: Sixgun, Repeater Rifle, Trigger-Happy, Gunslinger
# ---------------------------------------------------------------------------

cdef void shot_state_table(const u128 *tj, int n, u128 tscale, int T, int cancel, int smod,
                           int jam_die, int jam_rr, int tdie, int tshaken,
                           const int *save_table, const int *dmg, u128 *out, u128 *scale) noexcept nogil:
    """Counts of (damage code 0..3, weapon jammed 0/1) of one shot: out[code * 2 + jammed]."""
    cdef u128 res[8]
    scale[0] = shot_counts(tj, n, tscale, T, cancel, tdie, tshaken, smod, MODE_NONE, jam_die, jam_rr,
                           save_table, dmg, res)
    out[0 * 2 + 0] = res[0] - res[2] + res[3] + res[4]
    out[0 * 2 + 1] = res[2]
    out[1 * 2 + 0] = res[5]
    out[1 * 2 + 1] = 0
    out[2 * 2 + 0] = res[6]
    out[2 * 2 + 1] = 0
    out[3 * 2 + 0] = res[7]
    out[3 * 2 + 1] = 0


def shot_sequence_table(const int64_t[:, ::1] targets, const int64_t[:, :, ::1] shots,
                        const int32_t[::1] save_table, const int32_t[::1] damage, int T, int one_face,
                        bint want_counts=False):
    """Final state of a target after up to four shots resolved one at a time ("Shoot").

    ``targets`` rows follow SEQ_TARGET_COLUMNS, ``shots[row, i]`` SEQ_SHOT_COLUMNS.
    A shot is not fired once its weapon is Jammed or the target is Downed (it
    may not be Shot at) or a Casualty. Outcomes (SEQ_OUTCOMES): unhurt (no new
    Damage), shaken (newly Shaken), downed, casualty, jammed (some weapon
    Jammed), shots_fired (expected number). Returns ``(prob, hi, lo, scale_hi,
    scale_lo, exact_ok)``; ``exact_ok[row]`` is 0 where the exact counts would
    overflow 128 bits (the floats are then still exact-engine values in double).
    """
    if save_table.shape[0] != MAX_TABLE or damage.shape[0] != MAX_TABLE:
        raise ValueError("shot_sequence_table: bad table shape")
    if shots.shape[0] != targets.shape[0] or shots.shape[1] != MAX_SEQ or shots.shape[2] != len(SEQ_SHOT_COLUMNS):
        raise ValueError("shot_sequence_table: bad shots shape")
    cdef Py_ssize_t nrows = targets.shape[0], r
    prob = np.zeros((nrows, 6), dtype=np.float64)
    hi = np.zeros((nrows, 6), dtype=np.uint64)
    lo = np.zeros((nrows, 6), dtype=np.uint64)
    shi = np.zeros(nrows, dtype=np.uint64)
    slo = np.zeros(nrows, dtype=np.uint64)
    okv = np.zeros(nrows, dtype=np.uint8)
    cdef double[:, ::1] pv = prob
    cdef uint64_t[:, ::1] hv = hi
    cdef uint64_t[:, ::1] lv = lo
    cdef uint64_t[::1] shv = shi
    cdef uint64_t[::1] slv = slo
    cdef unsigned char[::1] ok = okv
    cdef int st[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef int i, j, K, D, n, bad = 0, w, code, jam, state, mask, nstate, ovf, tstart
    # per shot, per target state (0 fresh, 1 Shaken): counts and scales
    cdef u128 tab[MAX_SEQ][2][8]
    cdef u128 tsc[MAX_SEQ][2]
    cdef u128 shot_scale[MAX_SEQ]
    cdef double ftab[MAX_SEQ][2][8]
    # distribution over (state 0..3, jam mask 0..15, shots fired 0..4)
    cdef u128 cur[4][16][MAX_SEQ + 1]
    cdef u128 nxt[4][16][MAX_SEQ + 1]
    cdef double fcur[4][16][MAX_SEQ + 1]
    cdef double fnxt[4][16][MAX_SEQ + 1]
    cdef u128 total, c, g
    cdef u128 acc[6]
    cdef double facc[6]
    cdef int fired
    cdef u128 *tj
    cdef TestCache *cache = <TestCache *>malloc(sizeof(TestCache))
    if cache == NULL:
        raise MemoryError()
    copy_rule_tables(save_table, damage, st, dm)
    with nogil:
        cache_init(cache, T, one_face, 0, 1)
        for r in range(nrows):
            K = <int>targets[r, 0]
            tstart = <int>targets[r, 3]
            ovf = 0
            total = 1
            for i in range(K):
                D = <int>shots[r, i, 0]
                n = <int>shots[r, i, 1]
                tj = cache_get(cache, D, n, <int>shots[r, i, 2], <int>shots[r, i, 3], <int>shots[r, i, 4])
                if tj == NULL:
                    bad = 1
                    break
                for state in range(2):
                    shot_state_table(tj, n, ipow(D, 2 * n), T, <int>shots[r, i, 5], <int>shots[r, i, 6],
                                     <int>shots[r, i, 7], <int>shots[r, i, 8],
                                     <int>targets[r, 1 + state], state, st, dm, tab[i][state], &tsc[i][state])
                # one scale per shot: bring both target states to the product of their scales, then reduce
                shot_scale[i] = tsc[i][0] * (tsc[i][1] // u128_gcd(tsc[i][0], tsc[i][1]))
                g = shot_scale[i]
                for state in range(2):
                    c = shot_scale[i] // tsc[i][state]
                    for j in range(8):
                        tab[i][state][j] *= c
                        g = u128_gcd(g, tab[i][state][j])
                shot_scale[i] //= g
                for state in range(2):
                    for j in range(8):
                        tab[i][state][j] //= g
                        ftab[i][state][j] = u128_ratio(tab[i][state][j], shot_scale[i])
                if mul_ovf(total, shot_scale[i], &total):
                    ovf = 1
            if bad:
                break
            memset(cur, 0, sizeof(cur))
            memset(fcur, 0, sizeof(fcur))
            cur[tstart][0][0] = 1
            fcur[tstart][0][0] = 1.0
            for i in range(K):
                memset(nxt, 0, sizeof(nxt))
                memset(fnxt, 0, sizeof(fnxt))
                w = <int>shots[r, i, 9]
                for state in range(4):
                    for mask in range(16):
                        for fired in range(i + 1):
                            c = cur[state][mask][fired]
                            if c == 0 and fcur[state][mask][fired] == 0.0:
                                continue
                            if state >= 2 or (mask >> w) & 1:
                                # Downed or gone, or this weapon Jammed: the shot is not fired
                                nxt[state][mask][fired] += c * shot_scale[i]
                                fnxt[state][mask][fired] += fcur[state][mask][fired]
                                continue
                            for code in range(4):
                                for jam in range(2):
                                    if tab[i][state][code * 2 + jam] == 0:
                                        continue
                                    if code == DMG_NONE:
                                        nstate = state
                                    else:
                                        nstate = code
                                    nxt[nstate][mask | (jam << w)][fired + 1] += c * tab[i][state][code * 2 + jam]
                                    fnxt[nstate][mask | (jam << w)][fired + 1] += \
                                        fcur[state][mask][fired] * ftab[i][state][code * 2 + jam]
                memcpy(cur, nxt, sizeof(cur))
                memcpy(fcur, fnxt, sizeof(fcur))
            memset(acc, 0, sizeof(acc))
            memset(facc, 0, sizeof(facc))
            for state in range(4):
                for mask in range(16):
                    for fired in range(K + 1):
                        c = cur[state][mask][fired]
                        # outcome relative to the start: a Shaken start stays "unhurt" unless Downed or worse
                        nstate = 0 if state == tstart else state
                        acc[nstate] += c
                        facc[nstate] += fcur[state][mask][fired]
                        if mask:
                            acc[4] += c
                            facc[4] += fcur[state][mask][fired]
                        acc[5] += c * fired
                        facc[5] += fcur[state][mask][fired] * fired
            for j in range(6):
                pv[r, j] = facc[j]
                if want_counts and not ovf:
                    hv[r, j] = u128_hi(acc[j])
                    lv[r, j] = u128_lo(acc[j])
            if not ovf:
                shv[r] = u128_hi(total)
                slv[r] = u128_lo(total)
            ok[r] = 0 if ovf else 1
        cache_free(cache)
    free(cache)
    if bad:
        raise MemoryError()
    return prob, hi, lo, shi, slo, okv


# ---------------------------------------------------------------------------
# Fights ("Fight")
# ---------------------------------------------------------------------------

cdef int side_counts(TestCache *cache, const int64_t *p, int reading, u128 *out, u128 *scale) noexcept nogil:
    """(successes, highest die) counts of one side's Fight Test, mixing a failed Fearsome Nerve Test.

    ``out`` is (MAX_DICE+1) x HDIM; returns the largest dice count or -1.
    """
    cdef int D = <int>p[0], n1 = <int>p[1], n0 = <int>p[2], mode = <int>p[6]
    cdef u128 wpass = <u128>p[3], wfail = <u128>p[4]
    cdef int nmax = n1 if n1 > n0 else n0
    cdef u128 *a
    cdef int k, h
    cdef u128 pad
    memset(out, 0, (MAX_DICE + 1) * HDIM * sizeof(u128))
    if wpass:
        a = cache_get(cache, D, n1, reading, mode, 0)
        if a == NULL:
            return -1
        pad = ipow(D, 2 * (nmax - n1)) * wpass
        for k in range(n1 + 1):
            for h in range(D + 1):
                out[k * HDIM + h] += a[k * (D + 1) + h] * pad
    if wfail:
        a = cache_get(cache, D, n0, reading, mode, 0)
        if a == NULL:
            return -1
        pad = ipow(D, 2 * (nmax - n0)) * wfail
        for k in range(n0 + 1):
            for h in range(D + 1):
                out[k * HDIM + h] += a[k * (D + 1) + h] * pad
    scale[0] = ipow(D, 2 * nmax) * <u128>p[5]
    return nmax


def fight_table(const int64_t[:, ::1] attackers, const int64_t[:, ::1] defenders, const int64_t[::1] readings,
                const int32_t[::1] save_table, const int32_t[::1] damage, int T, bint want_counts=False):
    """Fight outcomes for each row: both sides' 3 Dice Fight Tests, tie-break, the loser's Save.

    Side rows follow FIGHT_SIDE_COLUMNS: die, dice, dice after a failed
    Fearsome Nerve Test, that Nerve Test's pass / fail counts and scale (0, 1
    ... when there is none), Bless/Curse mode, the Save die and Save Modifier
    the side uses when it loses, whether it is already Shaken, and the margin
    from which a failed Save is one worse (bear-hug; 0 = never).

    Returns ``(prob, margins, hi, lo, scale_hi, scale_lo, exact_ok)``: prob
    (rows, 11) in FIGHT_OUTCOMES order; margins (rows, 2, MAX_DICE+1): the
    probability that the attacker (0) / defender (1) wins by k.
    """
    if save_table.shape[0] != MAX_TABLE or damage.shape[0] != MAX_TABLE:
        raise ValueError("fight_table: bad table shape")
    if attackers.shape[1] != len(FIGHT_SIDE_COLUMNS) or defenders.shape[1] != len(FIGHT_SIDE_COLUMNS):
        raise ValueError("fight_table: bad side shape")
    cdef Py_ssize_t nrows = attackers.shape[0], r
    prob = np.zeros((nrows, 11), dtype=np.float64)
    margins = np.zeros((nrows, 2, MAX_DICE + 1), dtype=np.float64)
    hi = np.zeros((nrows, 11 + 2 * (MAX_DICE + 1)), dtype=np.uint64)
    lo = np.zeros((nrows, 11 + 2 * (MAX_DICE + 1)), dtype=np.uint64)
    shi = np.zeros(nrows, dtype=np.uint64)
    slo = np.zeros(nrows, dtype=np.uint64)
    okv = np.zeros(nrows, dtype=np.uint8)
    cdef double[:, ::1] pv = prob
    cdef double[:, :, ::1] mv = margins
    cdef uint64_t[:, ::1] hv = hi
    cdef uint64_t[:, ::1] lv = lo
    cdef uint64_t[::1] shv = shi
    cdef uint64_t[::1] slv = slo
    cdef unsigned char[::1] ok = okv
    cdef int st[MAX_TABLE]
    cdef int dm[MAX_TABLE]
    cdef u128 A[(MAX_DICE + 1) * HDIM]
    cdef u128 B[(MAX_DICE + 1) * HDIM]
    cdef u128 sa, sb, ssa, ssd, total, c, pad_a, pad_d
    cdef u128 win[2][MAX_DICE + 1]
    cdef u128 draw
    cdef double fwin[2][MAX_DICE + 1]
    cdef double fdraw, fa, fc
    cdef u128 acc[11 + 2 * (MAX_DICE + 1)]
    cdef double facc[11 + 2 * (MAX_DICE + 1)]
    cdef u128 sv[4]
    cdef int i, na, nd, ka, kd, ha, hd, k, side, code, bad = 0, ovf
    cdef int Da, Dd
    cdef const int64_t *lp
    cdef TestCache *cache = <TestCache *>malloc(sizeof(TestCache))
    if cache == NULL:
        raise MemoryError()
    copy_rule_tables(save_table, damage, st, dm)
    with nogil:
        cache_init(cache, T, 1, 1, 0)
        for r in range(nrows):
            na = side_counts(cache, &attackers[r, 0], <int>readings[r], A, &sa)
            nd = side_counts(cache, &defenders[r, 0], <int>readings[r], B, &sb)
            if na < 0 or nd < 0:
                bad = 1
                break
            Da = <int>attackers[r, 0]
            Dd = <int>defenders[r, 0]
            ssa = <u128>attackers[r, 7]
            ssd = <u128>defenders[r, 7]
            ovf = 0
            if mul_ovf(sa, sb, &total) or mul_ovf(total, ssa * ssd, &total):
                ovf = 1
            memset(win, 0, sizeof(win))
            memset(fwin, 0, sizeof(fwin))
            draw = 0
            fdraw = 0.0
            for ka in range(na + 1):
                for ha in range(Da + 1):
                    if A[ka * HDIM + ha] == 0:
                        continue
                    fa = u128_ratio(A[ka * HDIM + ha], sa)
                    for kd in range(nd + 1):
                        for hd in range(Dd + 1):
                            c = B[kd * HDIM + hd]
                            if c == 0:
                                continue
                            fc = fa * u128_ratio(c, sb)
                            c *= A[ka * HDIM + ha]
                            side = fight_winner(ka, ha, kd, hd, &k)
                            if side < 0:
                                draw += c
                                fdraw += fc
                                continue
                            win[side][k] += c
                            fwin[side][k] += fc
            memset(acc, 0, sizeof(acc))
            memset(facc, 0, sizeof(facc))
            acc[0] = draw * ssa * ssd
            facc[0] = fdraw
            for side in range(2):
                # side 0: the attacker wins, the defender saves; side 1 the reverse
                lp = &defenders[r, 0] if side == 0 else &attackers[r, 0]
                pad_a = ssa if side == 0 else ssd   # the winner's save die does not roll
                for k in range(1, MAX_DICE + 1):
                    if fwin[side][k] == 0.0 and win[side][k] == 0:
                        continue
                    acc[1 + side] += win[side][k] * ssa * ssd
                    acc[11 + side * (MAX_DICE + 1) + k] += win[side][k] * ssa * ssd
                    facc[1 + side] += fwin[side][k]
                    facc[11 + side * (MAX_DICE + 1) + k] += fwin[side][k]
                    save_counts(<int>lp[7], save_on(st, k), <int>lp[8], MODE_NONE, <int>lp[9],
                                1 if (lp[10] > 0 and k >= lp[10]) else 0, dm, sv)
                    for code in range(4):
                        acc[3 + side * 4 + code] += win[side][k] * sv[code] * pad_a
                        facc[3 + side * 4 + code] += fwin[side][k] * (<double>sv[code] / <double>lp[7])
            for i in range(11):
                pv[r, i] = facc[i]
            for side in range(2):
                for k in range(MAX_DICE + 1):
                    mv[r, side, k] = facc[11 + side * (MAX_DICE + 1) + k]
            if want_counts and not ovf:
                for i in range(11 + 2 * (MAX_DICE + 1)):
                    hv[r, i] = u128_hi(acc[i])
                    lv[r, i] = u128_lo(acc[i])
                shv[r] = u128_hi(total)
                slv[r] = u128_lo(total)
            ok[r] = 0 if ovf else 1
        cache_free(cache)
    free(cache)
    if bad:
        raise MemoryError()
    return prob, margins, hi, lo, shi, slo, okv
