"""Each posse model's odds through the exact dice engine: its shooting and fight tables, and the summary.

Part of the posse analyses (:mod:`oddsmith.shadows.posse`, where every name here is importable too): the
models as the book's rules make them (Skills, Injuries, the Weapons they use in a game,
:meth:`~oddsmith.shadows.posse.PosseModel.battle_weapons`) go into :mod:`oddsmith.shadows.engine` and
:mod:`oddsmith.shadows.tables`; every figure is exact.
"""
from __future__ import annotations

from typing import Iterable

from oddsmith import lazy
from oddsmith.rules import shadows as R
from oddsmith.shadows.posse import Posse, PosseModel, cost_rows, resolve_posse, shootable

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)


TARGET_RANKS = (R.Rank.NOVICE, R.Rank.VETERAN, R.Rank.HERO)
RANGE_BANDS = (R.RangeBand.SHORT, R.RangeBand.MEDIUM, R.RangeBand.LONG)

SHOOTING_COLUMNS = ["model", "rank", "weapon", "range_band", "target", "dice", "save_modifier", "hit", "hurt", "saved",
                    "shaken", "downed", "casualty", "jam_check", "jammed"]
ACTION_COLUMNS = ["action_unhurt", "action_shaken", "action_downed", "action_casualty", "action_jammed",
                  "action_shots_fired"]
FIGHT_COLUMNS = ["model", "rank", "form", "defender", "charging", "attacker_dice", "defender_dice", "attacker_wins",
                 "draw", "defender_wins", "defender_saved", "defender_shaken", "defender_downed", "defender_casualty",
                 "attacker_saved", "attacker_shaken", "attacker_downed", "attacker_casualty"]


def _engine():
    from oddsmith.shadows import engine, tables  # the compiled kernels load only when odds are asked for
    return engine, tables


def shooter_of(model: PosseModel):
    """The dice engine's Shooter for a posse model (Rank, Skills, One-Eyed)."""
    E, _ = _engine()
    return E.Shooter.of(model.rank, skills=[s.name for s in model.all_skills],
                        one_eyed=R.Injury.ONE_EYED in model.injuries)


def fighter_of(model: PosseModel, form: str | None = None):
    """The dice engine's Fighter for a posse model (Rank, Skills, Weakened, Close Work Pistols, the Woodsman's Axe)."""
    E, _ = _engine()
    skills = [s.name for s in model.all_skills]
    pistols = 0
    weapons = model.battle_weapons()
    if form is None and any(s.close_work for s in model.all_skills):
        pistols = min(R.CLOSE_WORK_MAX_PISTOLS, sum(1 for w in weapons if w.weapon_class is R.WeaponClass.PISTOL))
    axe = form is None and any(w.fight_save for w in weapons)
    return E.Fighter.of(model.rank, skills=skills, weakened=R.Injury.WEAKENED in model.injuries,
                        close_work_pistols=pistols, axe=axe, form=form)


def shooting_table(posse: Posse, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                   targets: Iterable[R.Rank | str] = TARGET_RANKS, range_bands: Iterable[R.RangeBand | str] = RANGE_BANDS,
                   fractions: bool = False) -> pd.DataFrame:
    """Each model's Shooting Attack with each of its Weapons at each range band against each target Rank.

    The model's Skills (Deadeye, Trick Shooter, Gunsmith ...) and One-Eyed
    apply; targets are plain models of each Rank, standing, in the open.
    Columns: ``model``, ``rank``, ``weapon``, ``range_band``, ``target``,
    ``dice`` (rolled after modifiers), ``save_modifier``, ``hit``, ``hurt``,
    ``saved``, ``shaken``, ``downed``, ``casualty``, ``jam_check``,
    ``jammed`` (one Shooting Attack), and for Weapons or Skills that fire
    more than once per Action (Sixgun, Repeater Rifle, Trigger-Happy) the
    target's final state after the whole Action: ``action_unhurt``,
    ``action_shaken``, ``action_downed``, ``action_casualty``,
    ``action_jammed``, ``action_shots_fired`` (empty for single shots).
    Weapons the engine cannot shoot are listed by :func:`untabulated_weapons`.
    """
    posse = resolve_posse(posse)
    _, T = _engine()
    target_list = [R.rank(t) for t in targets]
    bands = [R.range_band(b) for b in range_bands]
    frames = []
    for m in posse.models:
        shooter = shooter_of(m)
        for w in m.battle_weapons():
            if shootable(w) is not None:
                continue
            df = T.shooting_table([shooter], target_list, weapon=w, range_bands=bands, reading=reading,
                                  fractions=fractions, action=True)
            df.insert(0, "model", m.name)
            df.insert(1, "rank", m.rank.label)
            frames.append(df)
    if not frames:
        return pd.DataFrame(columns=SHOOTING_COLUMNS)
    df = pd.concat(frames, ignore_index=True)
    cols = [c for c in SHOOTING_COLUMNS if c in df.columns]
    cols += [c for c in ACTION_COLUMNS if c in df.columns]
    if fractions:
        cols += [f"{c}_exact" for c in cols if f"{c}_exact" in df.columns]
    return df[cols]


def fight_table(posse: Posse, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING,
                defenders: Iterable[R.Rank | str] = TARGET_RANKS, charging: Iterable[bool] = (False, True),
                fractions: bool = False) -> pd.DataFrame:
    """Each model attacking a plain defender of each Rank, with and without Charging.

    The model's Skills (Mean, 'Ornery, Bull-Rush, Tough, Close Work with its
    Pistols), Weakened and the Woodsman's Axe apply; a Skinwalker also gets
    rows in its Beast Form (``form``). Columns: ``model``, ``rank``,
    ``form``, ``defender``, ``charging``, ``attacker_dice``,
    ``defender_dice``, ``attacker_wins``, ``draw``, ``defender_wins``, the
    defender's result when the model wins (``defender_saved`` ...
    ``defender_casualty``) and the model's own when it loses
    (``attacker_saved`` ... ``attacker_casualty``).
    """
    posse = resolve_posse(posse)
    _, T = _engine()
    defender_list = [R.rank(d) for d in defenders]
    charge_list = list(charging)
    frames = []
    for m in posse.models:
        forms: list[str | None] = [None]
        if m.role is not None and m.role.name.startswith("Skinwalker"):
            forms.append("wolf" if "Wolf" in m.role.name else "bear")
        for form in forms:
            df = T.fight_table([fighter_of(m, form)], defender_list, charging=charge_list, reading=reading,
                               fractions=fractions)
            df.insert(0, "model", m.name)
            df.insert(1, "rank", m.rank.label)
            df.insert(2, "form", "" if form is None else f"{form.title()} Form")
            frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    cols = list(FIGHT_COLUMNS)
    if fractions:
        cols += [f"{c}_exact" for c in cols if f"{c}_exact" in df.columns]
    return df[cols]


SUMMARY_COLUMNS = ["model", "rank", "role", "cost", "weapons", "skills", "best_shot", "p_hurt", "p_fight_win"]


def summary_table(posse: Posse, *, reading: R.RerollReading | str = R.DEFAULT_REROLL_READING) -> pd.DataFrame:
    """One short row per model, what a player reads first: its cost, what it uses in a game, and two exact odds.

    ``cost``: the model and everything bought for it ($; empty when an item has no price). ``weapons``:
    :meth:`PosseModel.battle_weapons` ("none this game" for the Vessel). ``best_shot`` / ``p_hurt``: the
    Weapon most likely to hurt (Shaken, Downed or a Casualty) a plain Veteran at Medium Range with one
    Shooting Attack, and that chance. ``p_fight_win``: the chance it wins a Fight it starts against a plain
    Veteran, not Charging. Every figure is exact (:func:`shooting_table`, :func:`fight_table`).
    """
    posse = resolve_posse(posse)
    shots = shooting_table(posse, reading=reading, targets=(R.Rank.VETERAN,), range_bands=(R.RangeBand.MEDIUM,))
    fights = fight_table(posse, reading=reading, defenders=(R.Rank.VETERAN,), charging=(False,))
    wins = list(fights.loc[fights["form"] == "", "attacker_wins"])  # one row per model, in file order
    costs: dict[str, int | None] = {}
    for row in cost_rows(posse):
        have = costs.get(row["model"], 0)
        costs[row["model"]] = None if have is None or row["cost"] is None else have + row["cost"]
    rows = []
    for i, m in enumerate(posse.models):
        mine = shots[shots["model"] == m.name]
        best = mine.loc[mine["hurt"].idxmax()] if not mine.empty else None
        used = m.battle_weapons()
        rows.append({
            "model": m.name, "rank": m.rank.label,
            "role": m.role.name if m.role else (f"Hired Gun: {m.hired_gun.name}" if m.hired_gun else ""),
            "cost": costs.get(m.name), "weapons": ", ".join(w.name for w in used) or "none this game",
            "skills": ", ".join(s.name for s in m.all_skills),
            "best_shot": "" if best is None else best["weapon"],
            "p_hurt": None if best is None else float(best["hurt"]),
            "p_fight_win": float(wins[i]),
        })
    return pd.DataFrame(rows, columns=SUMMARY_COLUMNS)
