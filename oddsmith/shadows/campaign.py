"""Exact odds of the Shadows of the West campaign rolls, as tidy DataFrames.

Advance rolls, Injury (Casualties and Downed models), the Doc's cure,
Income sums and Encounters, Recruitment and Searching for Uncommon Items.
Every table is small, so each is computed exactly in plain Python with
:class:`fractions.Fraction` (dice sums by convolution, Encounters by
weighting each count vector of the dice by its multinomial coefficient);
the tests check them against a brute-force enumeration of every ordered
roll. Probabilities are floats in ``p_*`` columns; ``exact=True`` adds the
same figures as :class:`~fractions.Fraction` in ``*_exact`` columns.

All numbers come from :mod:`oddsmith.rules.shadows`. Campaign rolls are made
outside a game, so no Dice Modifier or Shaken penalty applies ("Dice Tests
made outside of a game are never Modified").
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Iterable, Iterator, Sequence

import pandas as pd

from oddsmith.errors import check_whole
from oddsmith.rules import shadows as R

ALL_RANKS: tuple[R.Rank, ...] = (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO)


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def _ranks(ranks: R.Rank | str | Iterable[R.Rank | str] | None) -> list[R.Rank]:
    if ranks is None:
        return list(ALL_RANKS)
    if isinstance(ranks, (str, R.Rank, int)):
        return [R.rank(ranks)]
    return [R.rank(r) for r in ranks]


def _uniform(faces: int) -> dict[int, Fraction]:
    return {f: Fraction(1, faces) for f in range(1, faces + 1)}


def _finish(rows: list[dict], exact: bool) -> pd.DataFrame:
    """Rows hold Fractions in ``p_*`` keys; make float columns and, if asked, ``*_exact`` Fraction columns."""
    df = pd.DataFrame(rows)
    prob_cols = [c for c in df.columns if c.startswith("p_") or c.startswith("expected_")]
    if exact:
        for c in prob_cols:
            df[f"{c}_exact"] = df[c]
    for c in prob_cols:
        df[c] = df[c].map(float)
    return df




# ---------------------------------------------------------------------------
# Advance rolls ("Advancement Phase")
# ---------------------------------------------------------------------------


def advance_chance(model_rank: R.Rank | str, exp: int) -> Fraction:
    """Chance an Advance roll succeeds: Grit Die + EXP reaching 6 / 8 / 10."""
    r = R.rank(model_rank)
    check_whole(exp, "EXP", 0)
    need = r.advance_target - exp
    hits = sum(1 for face in range(1, r.die + 1) if face >= need)
    return Fraction(hits, r.die)


def expected_games_to_advance(model_rank: R.Rank | str, exp: int) -> Fraction:
    """Expected number of games survived until the model Advances (each miss adds 1 EXP)."""
    r = R.rank(model_rank)
    expected = Fraction(0)
    still = Fraction(1)  # chance of not having advanced before this game
    e = exp
    while still:
        expected += still
        still *= 1 - advance_chance(r, e)
        e += R.EXP_FOR_NOT_ADVANCING
    return expected


def advance_table(ranks=None, exp: int | Iterable[int] | None = None, *, exact: bool = False) -> pd.DataFrame:
    """Advance roll odds: one row per Rank and current EXP.

    Columns: ``rank``, ``die``, ``exp``, ``p_advance``, ``p_preferred_skill``,
    ``p_random_skill``, ``p_rank_up`` (Heroes take Random Skill instead),
    ``p_gain_exp`` (no Advance: +1 EXP) and ``expected_games_to_advance``.
    With ``exp=None`` every EXP from 0 up to the one that makes the Advance
    certain is listed.
    """
    rows = []
    for r in _ranks(ranks):
        if exp is None:
            exps: Iterable[int] = range(0, r.advance_target)
        elif isinstance(exp, int):
            exps = [exp]
        else:
            exps = list(exp)
        for e in exps:
            p = advance_chance(r, e)
            table: dict[R.Advance, Fraction] = {a: Fraction(0) for a in R.Advance}
            for d6 in range(1, R.ADVANCE_DIE + 1):
                table[R.advance_result(r, d6)] += Fraction(1, R.ADVANCE_DIE)
            rows.append({
                "rank": r.label, "die": r.die_name, "exp": e,
                "p_advance": p,
                "p_preferred_skill": p * table[R.Advance.PREFERRED_SKILL],
                "p_random_skill": p * table[R.Advance.RANDOM_SKILL],
                "p_rank_up": p * table[R.Advance.RANK_UP],
                "p_gain_exp": 1 - p,
                "expected_games_to_advance": expected_games_to_advance(r, e),
            })
    return _finish(rows, exact)


# ---------------------------------------------------------------------------
# Injury ("Injury Phase"), Doc
# ---------------------------------------------------------------------------

INJURY_COLUMNS: dict[R.Injury, str] = {
    R.Injury.DEAD: "p_dead", R.Injury.OLD_WOUND: "p_old_wound", R.Injury.ONE_EYED: "p_one_eyed",
    R.Injury.LIMP: "p_limp", R.Injury.WEAKENED: "p_weakened", R.Injury.LAID_UP: "p_laid_up",
    R.Injury.NOT_LISTED: "p_no_injury_7_10",
}


def injury_distribution(model_rank: R.Rank | str, cause: R.InjuryCause | str) -> dict[str, Fraction]:
    """Fate of a model that ended the game Downed or as a Casualty.

    Keys: ``full_recovery`` (a Downed model's Grit Die Success) and every
    Injury result (D10: 1 Dead, 2-5 Lasting Injuries, 6 Laid-Up, 7-10 not on
    the table: no Injury).
    """
    r = R.rank(model_rank)
    cause = _cause(cause)
    roll_chance = Fraction(1) if cause is R.InjuryCause.CASUALTY else 1 - R.success_chance(r.die)
    out = {"full_recovery": 1 - roll_chance}
    for injury in R.Injury:
        out[injury.name.lower()] = Fraction(0)
    for d10 in range(1, R.INJURY_DIE + 1):
        out[R.injury(d10).name.lower()] += roll_chance * Fraction(1, R.INJURY_DIE)
    return out


def _cause(cause: R.InjuryCause | str) -> R.InjuryCause:
    if isinstance(cause, R.InjuryCause):
        return cause
    return R.lookup("injury cause", str(cause), {c.value: c for c in R.InjuryCause}, {"down": "Downed", "dead": "Casualty"})


def injury_table(ranks=None, causes: Iterable[R.InjuryCause | str] | R.InjuryCause | str | None = None, *,
                 exact: bool = False) -> pd.DataFrame:
    """Injury odds: one row per Rank and how the model ended the game (Casualty or Downed).

    Columns: ``rank``, ``die``, ``cause``, ``p_full_recovery``, ``p_dead``,
    ``p_old_wound``, ``p_one_eyed``, ``p_limp``, ``p_weakened``, ``p_laid_up``,
    ``p_no_injury_7_10``, ``p_lasting_injury`` (any of the four) and
    ``p_survives`` (anything but Dead).
    """
    if causes is None:
        cause_list = list(R.InjuryCause)
    elif isinstance(causes, (str, R.InjuryCause)):
        cause_list = [_cause(causes)]
    else:
        cause_list = [_cause(c) for c in causes]
    rows = []
    for cause in cause_list:
        for r in _ranks(ranks):
            dist = injury_distribution(r, cause)
            row = {"rank": r.label, "die": r.die_name, "cause": cause.value, "p_full_recovery": dist["full_recovery"]}
            for injury, col in INJURY_COLUMNS.items():
                row[col] = dist[injury.name.lower()]
            row["p_lasting_injury"] = sum((dist[i.name.lower()] for i in R.Injury if i.lasting), Fraction(0))
            row["p_survives"] = 1 - dist["dead"]
            rows.append(row)
    return _finish(rows, exact)


def doc_table(ranks=None, *, exact: bool = False) -> pd.DataFrame:
    """The Doc's cure attempt by the Doc's Rank: the maximum score cancels the Lasting Injury, a 1 kills the patient."""
    rows = []
    for r in _ranks(ranks):
        rows.append({"doc_rank": r.label, "die": r.die_name, "p_cured": Fraction(1, r.die),
                     "p_patient_dies": Fraction(1, r.die), "p_no_effect": Fraction(r.die - 2, r.die)})
    return _finish(rows, exact)


# ---------------------------------------------------------------------------
# Income and Encounters ("Income Phase", "Encounters")
# ---------------------------------------------------------------------------


@lru_cache(maxsize=None)
def income_distribution(n_dice: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``n_dice`` D6 (convolution)."""
    check_whole(n_dice, "income dice", 1, 12)
    dist = {0: Fraction(1)}
    for _ in range(n_dice):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, R.INCOME_DIE + 1):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / R.INCOME_DIE
        dist = nxt
    return dict(sorted(dist.items()))


def _count_vectors(n: int, faces: int) -> Iterator[tuple[int, ...]]:
    """Every way ``n`` dice spread over ``faces`` values, as per-value counts."""
    if faces == 1:
        yield (n,)
        return
    for k in range(n, -1, -1):
        for rest in _count_vectors(n - k, faces - 1):
            yield (k, *rest)


def _multinomial(counts: Sequence[int]) -> int:
    out = math.factorial(sum(counts))
    for c in counts:
        out //= math.factorial(c)
    return out


@lru_cache(maxsize=None)
def _encounter_weights(n_dice: int) -> tuple[tuple[tuple[tuple[int, int], ...], Fraction], ...]:
    """(sorted Encounter sets of the roll, probability) for every count vector of ``n_dice`` D6."""
    check_whole(n_dice, "income dice", 1, 12)
    total = R.INCOME_DIE ** n_dice
    out = []
    for counts in _count_vectors(n_dice, R.INCOME_DIE):
        dice = [v + 1 for v, c in enumerate(counts) for _ in range(c)]
        out.append((tuple(R.encounter_sets(dice)), Fraction(_multinomial(counts), total)))
    return tuple(out)


MARKED_CARDS_REROLL_AT_MOST = 3
"""Policy for Marked Cards ("re-roll any single Die result"): the lowest die is re-rolled when it shows 3 or less,
the re-rolls that raise the expected $ (a new die is worth 3.5 on average); Encounters are read off the dice as they
end up. The nominated model is caught cheating when the new roll is a 1 (``R.MARKED_CARDS_CAUGHT_ON``)."""


@lru_cache(maxsize=None)
def _marked_rolls(n_dice: int) -> tuple[tuple[tuple[int, ...], bool, Fraction], ...]:
    """(the dice after the Marked Cards' re-roll, sorted; caught cheating; probability) for every outcome of
    ``n_dice`` D6 under :data:`MARKED_CARDS_REROLL_AT_MOST` (count vectors weighted by their multinomials)."""
    check_whole(n_dice, "income dice", 1, 12)
    total = R.INCOME_DIE ** n_dice
    out: dict[tuple[tuple[int, ...], bool], Fraction] = {}
    for counts in _count_vectors(n_dice, R.INCOME_DIE):
        dice = tuple(v + 1 for v, c in enumerate(counts) for _ in range(c))
        p = Fraction(_multinomial(counts), total)
        if dice[0] > MARKED_CARDS_REROLL_AT_MOST:
            out[(dice, False)] = out.get((dice, False), Fraction(0)) + p
            continue
        for face in range(1, R.INCOME_DIE + 1):
            key = (tuple(sorted(dice[1:] + (face,))), face == R.MARKED_CARDS_CAUGHT_ON)
            out[key] = out.get(key, Fraction(0)) + p / R.INCOME_DIE
    return tuple((d, caught, p) for (d, caught), p in out.items())


@lru_cache(maxsize=None)
def marked_income_distribution(n_dice: int) -> dict[int, Fraction]:
    """Exact distribution of the Income in $ when a model uses Marked Cards (:data:`MARKED_CARDS_REROLL_AT_MOST`)."""
    dist: dict[int, Fraction] = {}
    for dice, _, p in _marked_rolls(n_dice):
        dist[sum(dice)] = dist.get(sum(dice), Fraction(0)) + p
    return dict(sorted(dist.items()))


def _weights(n_dice: int, marked_cards: bool) -> Iterable[tuple[tuple[tuple[int, int], ...], Fraction]]:
    if not marked_cards:
        return _encounter_weights(n_dice)
    return ((tuple(R.encounter_sets(dice)), p) for dice, _, p in _marked_rolls(n_dice))


_SET_NAMES = {2: "two of a kind", 3: "three of a kind", 4: "four of a kind"}


def income_table(won: bool = False, *, n_dice: int | None = None, exact: bool = False,
                 marked_cards: bool = False) -> pd.DataFrame:
    """Income in $ after a game: $4D6 after a draw or loss, $5D6 after a win; ``marked_cards``: a model uses the
    posse's Marked Cards ("Horses and Gear Summary"; :data:`MARKED_CARDS_REROLL_AT_MOST`).

    Columns: ``dice``, ``dollars``, ``p_exactly``, ``p_at_least``.
    """
    n = R.income_dice(won) if n_dice is None else n_dice
    dist = marked_income_distribution(n) if marked_cards else income_distribution(n)
    rows = []
    at_least = Fraction(1)
    for dollars, p in dist.items():
        rows.append({"dice": f"{n}D6", "dollars": dollars, "p_exactly": p, "p_at_least": at_least})
        at_least -= p
    return _finish(rows, exact)


def encounter_table(won: bool = False, *, supernatural: bool = False, n_dice: int | None = None,
                    exact: bool = False, marked_cards: bool = False) -> pd.DataFrame:
    """Chance the Income dice show each Encounter: one row per set size (two, three, four of a kind) and value.

    Columns: ``dice``, ``set``, ``value``, ``encounter`` (the book's name;
    empty where this rulebook text lists no entry), ``p_rolled`` (the roll
    holds that set), ``p_only_encounter`` (it is the roll's only Encounter,
    so no choice is left). ``marked_cards``: read off the dice after the
    Marked Cards' re-roll (:data:`MARKED_CARDS_REROLL_AT_MOST`).
    """
    n = R.income_dice(won) if n_dice is None else n_dice
    tables = R.ENCOUNTER_TABLES[bool(supernatural)]
    rolled: dict[tuple[int, int], Fraction] = {}
    only: dict[tuple[int, int], Fraction] = {}
    for sets, p in _weights(n, marked_cards):
        for s in sets:
            rolled[s] = rolled.get(s, Fraction(0)) + p
        if len(sets) == 1:
            only[sets[0]] = only.get(sets[0], Fraction(0)) + p
    rows = []
    for size in R.ENCOUNTER_SETS:
        if size > n:
            continue
        for value in range(1, R.INCOME_DIE + 1):
            entry = tables[size].entry(value)
            rows.append({"dice": f"{n}D6", "set": _SET_NAMES[size], "value": value, "encounter": entry.name or "",
                         "p_rolled": rolled.get((size, value), Fraction(0)),
                         "p_only_encounter": only.get((size, value), Fraction(0))})
    return _finish(rows, exact)


def income_summary(won: bool = False, *, n_dice: int | None = None,
                   marked_cards: bool = False) -> dict[str, Fraction | int]:
    """Headline Income figures: expected $, and the chance of no / any / several Encounters and of each set size.
    ``marked_cards``: with a model using Marked Cards, plus ``expected_gain`` ($ more than without) and
    ``p_caught_cheating`` (the new roll a 1: the model rolls for Injury)."""
    n = R.income_dice(won) if n_dice is None else n_dice
    dist = marked_income_distribution(n) if marked_cards else income_distribution(n)
    out: dict[str, Fraction | int] = {"dice": n, "expected_dollars": sum((k * p for k, p in dist.items()), Fraction(0))}
    if marked_cards:
        out["expected_gain"] = out["expected_dollars"] - Fraction(7 * n, 2)
        out["p_caught_cheating"] = sum((p for _, caught, p in _marked_rolls(n) if caught), Fraction(0))
    none = anyone = several = Fraction(0)
    by_size = {s: Fraction(0) for s in R.ENCOUNTER_SETS}
    for sets, p in _weights(n, marked_cards):
        if not sets:
            none += p
        else:
            anyone += p
        if len(sets) >= 2:
            several += p
        for size in {s for s, _ in sets}:
            by_size[size] += p
    out["p_no_encounter"] = none
    out["p_encounter"] = anyone
    out["p_choice_of_encounters"] = several
    for size, p in by_size.items():
        out[f"p_{_SET_NAMES[size].replace(' ', '_')}"] = p
    return out


# ---------------------------------------------------------------------------
# Recruitment ("Recruitment")
# ---------------------------------------------------------------------------


def recruitment_distribution(boss_rank: R.Rank | str, won: bool = False) -> dict[int, Fraction]:
    """Recruitment score: the Boss's Grit Die, +1 if the Posse won its last game."""
    r = R.rank(boss_rank)
    bonus = R.RECRUITMENT_WIN_BONUS if won else 0
    return {face + bonus: p for face, p in _uniform(r.die).items()}


def recruitment_table(boss_rank: R.Rank | str = R.Rank.VETERAN, won: bool = False, *, exact: bool = False) -> pd.DataFrame:
    """Recruitment roll: one row per score, with the recruits that score allows (the table is cumulative).

    Columns: ``boss_rank``, ``won``, ``score``, ``result`` (the book's row),
    ``novices``, ``veterans`` (the most of each that may be hired),
    ``p_exactly``, ``p_at_least``.
    """
    r = R.rank(boss_rank)
    dist = recruitment_distribution(r, won)
    rows = []
    at_least = Fraction(1)
    for score, p in sorted(dist.items()):
        novices, veterans = R.recruits_available(score)
        rows.append({"boss_rank": r.label, "won": bool(won), "score": score,
                     "result": R.RECRUITMENT_RESULTS[min(score, max(R.RECRUITMENT_RESULTS))],
                     "novices": novices, "veterans": veterans, "p_exactly": p, "p_at_least": at_least})
        at_least -= p
    return _finish(rows, exact)


def recruitment_summary(ranks=None, won: bool | Iterable[bool] | None = None, *, exact: bool = False) -> pd.DataFrame:
    """Recruitment odds by Boss Rank and last game won or not.

    Columns: ``boss_rank``, ``won``, ``p_none``, ``p_veterans`` (at least one
    Veteran available), ``p_veterans_2``, ``p_veterans_3``,
    ``expected_novices``, ``expected_veterans``.
    """
    wons = [False, True] if won is None else ([won] if isinstance(won, bool) else list(won))
    rows = []
    for r in _ranks(ranks):
        for w in wons:
            row = {"boss_rank": r.label, "won": w, "p_none": Fraction(0), "p_veterans": Fraction(0),
                   "p_veterans_2": Fraction(0), "p_veterans_3": Fraction(0),
                   "expected_novices": Fraction(0), "expected_veterans": Fraction(0)}
            for score, p in recruitment_distribution(r, w).items():
                novices, veterans = R.recruits_available(score)
                if novices == 0 and veterans == 0:
                    row["p_none"] += p
                for k, col in ((1, "p_veterans"), (2, "p_veterans_2"), (3, "p_veterans_3")):
                    if veterans >= k:
                        row[col] += p
                row["expected_novices"] += p * novices
                row["expected_veterans"] += p * veterans
            rows.append(row)
    return _finish(rows, exact)


# ---------------------------------------------------------------------------
# Searching for Uncommon Items
# ---------------------------------------------------------------------------


def uncommon_search_distribution(boss_rank: R.Rank | str) -> dict[int, Fraction]:
    """Uncommon Items the Boss's Search allows: Novice D3-1, Veteran D4-1, Hero D5-1."""
    sides, shift = R.UNCOMMON_SEARCH[R.rank(boss_rank)]
    return {k + shift: p for k, p in R.halved_die_distribution(sides).items()}


def uncommon_search_table(ranks=None, *, exact: bool = False) -> pd.DataFrame:
    """One row per Boss Rank and number of Uncommon Items available.

    Columns: ``boss_rank``, ``roll`` (D3-1, D4-1 or D5-1), ``items``,
    ``p_exactly``, ``p_at_least``.
    """
    rows = []
    for r in _ranks(ranks):
        sides, shift = R.UNCOMMON_SEARCH[r]
        at_least = Fraction(1)
        for items, p in sorted(uncommon_search_distribution(r).items()):
            rows.append({"boss_rank": r.label, "roll": f"D{sides}{shift:+d}", "items": items, "p_exactly": p,
                         "p_at_least": at_least})
            at_least -= p
    return _finish(rows, exact)
