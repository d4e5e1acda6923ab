"""Plain, slow, obviously-right reference for the Shadows of the West dice engine.

Enumerates every ordered roll and every re-roll with ``fractions.Fraction``
and applies the procedures as the rulebook words them (and as
``oddsmith.rules.shadows`` reads them). Only for small cases: the number of
paths grows like D**(2n). The exact engine must match it exactly.
"""
from __future__ import annotations

import functools
import itertools
from collections import defaultdict
from fractions import Fraction
from typing import Iterator

from oddsmith.rules import shadows as R

SUCCESS_ON = R.SUCCESS_ON


def _resolve(faces: list[int], rerolled: list[bool], tokens: int, D: int, chained: bool,
             blessing: str) -> Iterator[tuple[list[int], Fraction]]:
    """Every way the re-rolls of one Test can go, with its probability.

    Maximum-face re-rolls ("Tests", Roll the Dice): each token re-rolls one
    failing die not re-rolled yet, lowest score first; in reading B a maximum
    on a re-roll gives a new token. Then Bless re-rolls every failing die not
    re-rolled yet, or Curse every succeeding one; those re-rolls stand.
    """
    waiting = [i for i, x in enumerate(faces) if not rerolled[i] and x < SUCCESS_ON]
    if tokens > 0 and waiting:
        i = min(waiting, key=lambda j: faces[j])
        for x in range(1, D + 1):
            f2 = faces.copy()
            r2 = rerolled.copy()
            f2[i] = x
            r2[i] = True
            t2 = tokens - 1 + (1 if (chained and x == D) else 0)
            for final, p in _resolve(f2, r2, t2, D, chained, blessing):
                yield final, p / D
        return
    if blessing == "none":
        yield faces, Fraction(1)
        return
    if blessing == "bless":
        idx = [i for i, x in enumerate(faces) if not rerolled[i] and x < SUCCESS_ON]
    else:
        idx = [i for i, x in enumerate(faces) if not rerolled[i] and x >= SUCCESS_ON]
    for new in itertools.product(range(1, D + 1), repeat=len(idx)):
        f2 = faces.copy()
        for i, x in zip(idx, new):
            f2[i] = x
        yield f2, Fraction(1, D ** len(idx))


@functools.lru_cache(maxsize=None)
def test_rolls(D: int, n: int, reading: str = "b", blessing: str = "none", rerolls: int = 0
               ) -> dict[tuple[int, ...], Fraction]:
    """Distribution of the final dice (sorted tuple) of an n-dice Test (cached: treat as read-only)."""
    out: dict[tuple[int, ...], Fraction] = defaultdict(Fraction)
    base = Fraction(1, D ** n)
    for roll in itertools.product(range(1, D + 1), repeat=n):
        faces = list(roll)
        tokens = sum(1 for x in faces if x == D) + rerolls
        for final, p in _resolve(faces, [False] * n, tokens, D, reading == "b", blessing):
            out[tuple(sorted(final))] += base * p
    return dict(out)


def test_joint(D: int, n: int, reading: str = "b", blessing: str = "none", rerolls: int = 0
               ) -> dict[tuple[int, int, int], Fraction]:
    """{(successes, highest die, any die showing 1): probability}."""
    out: dict[tuple[int, int, int], Fraction] = defaultdict(Fraction)
    for final, p in test_rolls(D, n, reading, blessing, rerolls).items():
        key = (sum(1 for x in final if x >= SUCCESS_ON), max(final), int(1 in final))
        out[key] += p
    return dict(out)


def successes(D: int, n: int, reading: str = "b", blessing: str = "none", rerolls: int = 0) -> dict[int, Fraction]:
    out: dict[int, Fraction] = defaultdict(Fraction)
    for (s, _h, _o), p in test_joint(D, n, reading, blessing, rerolls).items():
        out[s] += p
    return dict(out)


def save(die: int, successes_: int, modifier: int, shaken: bool, blessing: str = "none",
         one_worse: bool = False) -> dict[str, Fraction]:
    """{'saved'|'shaken'|'downed'|'casualty': p} of one Save against ``successes_`` ("Shoot: 4", "Damage")."""
    target = R.save_target(successes_)
    start = R.ModelState.SHAKEN if shaken else R.ModelState.STANDING
    out: dict[str, Fraction] = defaultdict(Fraction)
    for x in range(1, die + 1):
        dmg = R.save_result(x, target, modifier)
        finals = [(x, Fraction(1, die))]
        if (blessing == "bless" and dmg is not None) or (blessing == "curse" and dmg is None):
            finals = [(y, Fraction(1, die * die)) for y in range(1, die + 1)]
        for y, p in finals:
            d = R.save_result(y, target, modifier)
            if d is None:
                out["saved"] += p
                continue
            if one_worse:
                d = d.worse()
            state = R.apply_damage(start, d)
            out[state.value.lower()] += p
    return dict(out)


def shoot(shooter_die: int, dice: int, target_die: int, *, reading: str = "b", shooter_blessing: str = "none",
          rerolls: int = 0, cancel: int = 0, shaken: bool = False, save_mod: int = 0, save_blessing: str = "none",
          jam_die: int = 10, jam_rerolls: int = 0) -> dict[str, Fraction]:
    """Outcomes of one Shooting Attack, by enumerating the shooter's dice ("Shoot", "Jamming Checks")."""
    out: dict[str, Fraction] = defaultdict(Fraction)
    jam_fail = Fraction(SUCCESS_ON - 1, jam_die) ** (1 + jam_rerolls)
    for final, p in test_rolls(shooter_die, dice, reading, shooter_blessing, rerolls).items():
        s = sum(1 for x in final if x >= SUCCESS_ON)
        if s == 0:
            out["miss"] += p
            if 1 in final:
                out["jam_check"] += p
                out["jammed"] += p * jam_fail
            continue
        if s - cancel <= 0:
            out["cancelled"] += p
            continue
        for k, q in save(target_die, s - cancel, save_mod, shaken, save_blessing).items():
            out[k] += p * q
    return dict(out)


def fight(att_die: int, att_dice: int, def_die: int, def_dice: int, *, reading: str = "b",
          att_blessing: str = "none", def_blessing: str = "none",
          att_save: tuple[int, int, bool] = None, def_save: tuple[int, int, bool] = None,
          att_worse_from: int = 0, def_worse_from: int = 0) -> dict[str, Fraction]:
    """Fight outcomes by enumerating both sides' dice ("Fight: 2", "3: Loser Makes a Save").

    ``att_save`` = (die, modifier, shaken) the attacker uses if it loses;
    ``def_worse_from``: the defender's failed Save is one worse when it lost by at least that much.
    """
    att_save = att_save or (att_die, 0, False)
    def_save = def_save or (def_die, 0, False)
    out: dict[str, Fraction] = defaultdict(Fraction)
    a_rolls = test_rolls(att_die, att_dice, reading, att_blessing)
    d_rolls = test_rolls(def_die, def_dice, reading, def_blessing)
    for (fa, pa), (fd, pd) in itertools.product(a_rolls.items(), d_rolls.items()):
        p = pa * pd
        result, margin = R.fight_result(fa, fd)
        if result is R.FightResult.DRAW:
            out["draw"] += p
            continue
        if result is R.FightResult.ATTACKER_WINS:
            who, (die, mod, sh), worse = "defender", def_save, def_worse_from
            out["attacker_wins"] += p
        else:
            who, (die, mod, sh), worse = "attacker", att_save, att_worse_from
            out["defender_wins"] += p
        out[f"{'attacker' if who == 'defender' else 'defender'}_by_{margin}"] += p
        for k, q in save(die, margin, mod, sh, one_worse=bool(worse and margin >= worse)).items():
            out[f"{who}_{k}"] += p * q
    return dict(out)


def shot_sequence(shots: list[dict], target_die: int, target_die_shaken: int, start_shaken: bool
                  ) -> dict[str, Fraction]:
    """Several shots at one target, one at a time; a shot is not fired once its weapon is Jammed
    or the target is Downed or a Casualty. Each shot dict: die, dice, reading, cancel, save_mod,
    jam_die, jam_rerolls, weapon."""
    states: dict[tuple[str, frozenset, int], Fraction] = {("shaken" if start_shaken else "standing", frozenset(), 0): Fraction(1)}
    for shot in shots:
        nxt: dict[tuple[str, frozenset, int], Fraction] = defaultdict(Fraction)
        for (state, jammed, fired), p in states.items():
            if state in ("downed", "casualty") or shot["weapon"] in jammed:
                nxt[(state, jammed, fired)] += p
                continue
            sh = state == "shaken"
            res = shoot(shot["die"], shot["dice"], target_die_shaken if sh else target_die,
                        reading=shot.get("reading", "b"), cancel=shot.get("cancel", 0), shaken=sh,
                        save_mod=shot.get("save_mod", 0), jam_die=shot["jam_die"],
                        jam_rerolls=shot.get("jam_rerolls", 0))
            j2 = jammed | {shot["weapon"]}
            nxt[(state, j2, fired + 1)] += p * res.get("jammed", 0)
            nxt[(state, jammed, fired + 1)] += p * (res.get("miss", 0) - res.get("jammed", 0)
                                                   + res.get("cancelled", 0) + res.get("saved", 0))
            for k in ("shaken", "downed", "casualty"):
                nxt[(k, jammed, fired + 1)] += p * res.get(k, 0)
        states = dict(nxt)
    out: dict[str, Fraction] = defaultdict(Fraction)
    start = "shaken" if start_shaken else "standing"
    for (state, jammed, fired), p in states.items():
        out["unhurt" if state == start else state] += p
        if jammed:
            out["jammed"] += p
        out["shots_fired"] += p * fired
    return dict(out)
