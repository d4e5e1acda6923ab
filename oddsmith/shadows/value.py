"""What each dollar buys: every Skill, Weapon and item of Gear a model could buy, valued in the battle.

For each model of posse A and each purchase it could legally make (the
posse-building rules of :mod:`oddsmith.shadows.posse`; the Dollar Limit is
only flagged, and a budget, by default the dollars the posse has left, splits
the ranking into what it can pay for and the rest), the battle
of :mod:`oddsmith.shadows.battle` is played again on the same games (common
random numbers: game t draws the same cards, and the same dice for every
model and stretch of play the purchase leaves alone) and compared with the
posse as it is: the change in P(posse A wins) and in the expected enemy
Casualties, per $ spent ("Item Price List"; Skills: "Add Skills"). The
standard error of each change comes from the spread of the per-game
differences (paired), not from the two runs' own errors. Items the rulebook text gives no
price for use the posse file's house ``[prices]`` or are skipped and listed;
items this abstraction gives no effect are listed too, not simulated.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from oddsmith import lazy
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.sampling import check_trials, check_workers, resolve_seed
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from oddsmith.notebook import notebook_view

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

DEFAULT_TRIALS = 5_000

BATTLE_SKILLS = ("Trigger-Happy", "Gunslinger", "Gunsmith", "Trick Shooter", "Deadeye", "Tough", "Hard to Kill",
                 "Nerves of Steel", "Lead-Belly")
"""Skills that change something in either battle (shooting, Saves, Recovery, Nerve and Bottle Checks)."""
FIGHTING_SKILLS = ("Mean", "Close Work", "Fearsome", "'Ornery", "Bull-Rush")
"""The Fighting Skills Table: they act in Fights, which only the table battle (``movement="table"``) plays."""
TABLE_SKILLS = ("Quickdraw", "Bushwhacker", "Slick")
"""Skills only the table battle plays: Quickdraw and Bushwhacker make a model play Lookout, a gun model Reacting
with a shot, a brawl model with a Charge (docs/shadows-battles.md section 13), Slick rolls for an extra Action
(section 10); valued there only."""
SPOTTING_SKILLS = ("Hawkeye",)
"""Skills of the Spotting Test, taken on the table when ``targets`` prefers a model that is not the legal Target."""
BATTLE_GEAR = ("Boilerplate", "Dynamite", "Telescopic Sight", "Silver Bullets")
"""Gear that changes something in either battle."""
FIGHT_GEAR = ("Derringer",)
"""Gear that acts in Fights (the Derringer's +1 Die once per game): valued on the table only."""
TABLE_GEAR = ("Whiskey", "Snake Oil", "Horse", "Appaloosa Horse", "Vial of Nitro", "Blessed Water", "Lasso")
"""Gear used in a Move Action, horses, the Vial of Nitro, Blessed Water and the Lasso (docs/shadows-battles.md
sections 11, 11a, 11b and 11c): valued on the table only (the Lasso for a model that throws it: :func:`lasso_thrown`).
The rulebook text gives Whiskey, Snake Oil, the Vial of Nitro and Blessed Water no price: they are valued when the
posse file gives a house price."""

VALUE_COLUMNS = ["model", "rank", "item", "kind", "cost", "d_p_win", "d_p_win_stderr", "d_casualties_b",
                 "d_casualties_b_stderr", "d_p_win_per_dollar", "d_casualties_b_per_dollar", "over_limit",
                 "within_budget", "why"]
"""``over_limit``: the purchase takes the posse over its Dollar Limit; ``within_budget``: it costs no more
than the budget (by default the dollars the posse has left); ``why``: the key of :data:`EXPLANATIONS` that
says why such a value can happen, or empty."""

EXPLANATIONS = {
    "spare-weapon": ("a second Weapon of a kind the model carries is a spare: when the first Jams, a model with "
                     "nothing ready spends its Action clearing the Jam, so the spare keeps it shooting (and a "
                     "Gunslinger fires two Pistols as one Action)"),
    "other-weapon": ("another Weapon is fired when it is the better one at this range, and is a spare when the "
                     "first Jams (a model with nothing ready spends its Action clearing the Jam)"),
    "noise": ("a change within two standard errors of zero (a negative one included) is not told apart from no "
              "change by this many battles"),
}
"""Why a surprising value can happen, by key (the ``why`` column; the output prints the ones its rows use)."""
SKIPPED_COLUMNS = ["model", "item", "kind", "reason", "detail"]
"""``reason`` is the same words for every model a reason covers (so rows group by item); ``detail``
what is wrong for this model (a broken rule's own message), else empty."""

NO_EFFECT = ("no effect in the fixed-range firefight (--movement none: no Moves, Charges, Fights, Spotting Tests "
             "or Reactions)")
NO_SPOTTING = "no effect with --targets closest (no Spotting Test is ever taken)"
NOT_PLAYED_SKILL = "no effect in this battle: the battle does not play this Skill's own rules"
NOT_PLAYED_GEAR = "no effect in this battle: the battle does not play this item's own rules (the notes list them)"
INCOME_GEAR = ("no effect in a battle: it is used when rolling for Income (oddsmith shadows income "
               "--marked-cards)")
NO_RIFLE = "a Telescopic Sight fits a Rifle-Class Weapon that shoots, and this model has none"
NO_PRICE = "the rulebook text gives no price and the posse file has no house price"
VESSEL = "the Vessel loses its Weapons, Gear and Horse for the game (The Congregation)"
SECOND_LASSO = "no effect: the model carries a Lasso already, and one is thrown per Shoot Action"
GUN_LASSO = ("no effect under this plan: a gun-style model shoots, and only brawl-style models throw a Lasso (at a "
             "rider, before their Charge; docs/shadows-battles.md section 11c)")


def _table_battle(options: B.BattleOptions) -> bool:
    """True when ``options`` play the table battle (Moves, Charges, Fights), False for the fixed-range firefight."""
    return options.movement != "none"


def skill_not_modelled(name: str, options: B.BattleOptions) -> str | None:
    """Why the Skill ``name`` changes nothing in the battle ``options`` play, or None when it is valued."""
    table = _table_battle(options)
    if name in BATTLE_SKILLS:
        return None
    if name in FIGHTING_SKILLS or name in TABLE_SKILLS:
        return None if table else NO_EFFECT
    if name in SPOTTING_SKILLS:
        if not table:
            return NO_EFFECT
        return NO_SPOTTING if options.targets == "closest" else None
    return NOT_PLAYED_SKILL if table else NO_EFFECT


def gear_not_modelled(model: P.PosseModel, name: str, options: B.BattleOptions) -> str | None:
    """Why the Gear ``name`` bought by ``model`` changes nothing in the battle ``options`` play, or None."""
    if name == "Telescopic Sight" and not any(w.weapon_class is R.WeaponClass.RIFLE and w.stats_known
                                              for w in model.battle_weapons()):
        return NO_RIFLE
    if name in BATTLE_GEAR:
        return None
    if name in FIGHT_GEAR or name in TABLE_GEAR:
        if not _table_battle(options):
            return NO_EFFECT
        if name == "Lasso" and not lasso_thrown(model, options):
            return GUN_LASSO
        if name == "Lasso" and any(g.name == "Lasso" for g in model.gear):
            return SECOND_LASSO
        return None
    if R.gear(name).income_only:   # Marked Cards (oddsmith.shadows.campaign, --marked-cards)
        return INCOME_GEAR
    return NOT_PLAYED_GEAR


def lasso_thrown(model: P.PosseModel, options: B.BattleOptions) -> bool:
    """Would ``model`` throw a Lasso it carried, under side A's plan (``ModelPlan.throws_lasso``)?"""
    with_lasso = replace(model, gear=model.gear + (R.gear("Lasso"),))
    return B.plan_model(with_lasso, False, options.distance, False, table=True, plan=options.plan_a).throws_lasso


@dataclass(frozen=True)
class Candidate:
    model_index: int
    item: str
    kind: str
    cost: int
    posse: P.Posse


@notebook_view
@dataclass(frozen=True)
class ValueResult:
    """``table``: one row per simulated purchase, best ΔP(win) per $ first; ``skipped``: the rest and why;
    ``base``: the battle of the posse as it is."""

    table: pd.DataFrame
    skipped: pd.DataFrame
    base: B.BattleResult
    trials: int
    seed: int
    budget: int | None = None
    """Dollars a purchase may cost to be affordable (None: no budget, the Basic method)."""

    @property
    def options(self) -> B.BattleOptions:
        """The battle the values hold for (movement, terrain, plans, targets, ...): the base battle's options."""
        return self.base.setup.options

    @property
    def battle_words(self) -> str:
        """Which battle the values hold for, in words: 'the table battle, plan balanced against brawl, terrain
        open' or 'the fixed-range firefight at 10"'."""
        return battle_words(self.options)

    @property
    def affordable(self) -> pd.DataFrame:
        """The ranked purchases that cost no more than the budget."""
        return self.table[self.table["within_budget"].astype(bool)].reset_index(drop=True)

    @property
    def over_budget(self) -> pd.DataFrame:
        """The ranked purchases the budget cannot pay for."""
        return self.table[~self.table["within_budget"].astype(bool)].reset_index(drop=True)

    def to_json(self) -> dict:
        o = self.options
        return {"command": "value", "posse_a": self.base.setup.a.posse.name, "posse_b": self.base.setup.b.posse.name,
                "movement": o.movement, "terrain": o.terrain, "plan": o.plan_a, "vs_plan": o.plan_b,
                "values_hold_for": self.battle_words,
                "range": o.distance.label, "cover_a": o.cover_a, "cover_b": o.cover_b, "turns": o.turns,
                "targets": o.targets, "activation": o.activation,
                "base": {"p_a_wins": self.base["p_a_wins"], "casualties_b": self.base["casualties_b"],
                         "stderr": {"p_a_wins": self.base.stderr("p_a_wins"),
                                    "casualties_b": self.base.stderr("casualties_b")}},
                "budget": self.budget, "purchases": self.affordable, "over_budget": self.over_budget,
                "explanations": EXPLANATIONS, "skipped": self.skipped, "trials": self.trials, "seed": self.seed,
                "common_random_numbers": True,
                "stderr_note": "standard errors of the changes are paired: each purchase replays the same games as "
                               "the posse as it is, and the error is sd(per-game difference) / sqrt(trials)"}


def battle_words(options: B.BattleOptions) -> str:
    """The battle ``options`` play, in words (the value output says which battle its values hold for)."""
    o = options
    events = f", {B.EVENT_TABLE_WORDS[o.events]}" if B.EVENT_TABLE_WORDS[o.events] else ""
    if not _table_battle(o):
        cover = {(False, False): "", (True, False): ", posse A in Cover", (False, True): ", posse B in Cover",
                 (True, True): ", both posses in Cover"}[(bool(o.cover_a), bool(o.cover_b))]
        return f"the fixed-range firefight (movement none) at {o.distance.label}{cover}{events}"
    name = next((n for n, v in B.TERRAINS.items() if v == float(o.terrain)), None)
    terrain = name if name is not None else f"cover density {float(o.terrain):g}"
    return f"the table battle (movement table), plan {o.plan_a} against plan {o.plan_b}, terrain {terrain}{events}"


def _with_model(posse: P.Posse, i: int, model: P.PosseModel) -> P.Posse:
    models = list(posse.models)
    models[i] = model
    return replace(posse, models=tuple(models))


def _broken(posse: P.Posse) -> set[tuple[str, str, str]]:
    return {(v.where, v.rule, v.message) for v in P.validate(posse)}


def _new_violations(before: set[tuple[str, str, str]], changed: P.Posse) -> list[P.Violation]:
    """What ``changed`` breaks of the posse-building rules that the posse it came from (``before``: :func:`_broken`)
    did not, the Dollar Limit aside."""
    return [v for v in P.validate(changed) if (v.where, v.rule, v.message) not in before and v.rule != "dollar-limit"]


def candidates(posse: P.Posse, options: B.BattleOptions | None = None) -> tuple[list[Candidate], list[dict]]:
    """Every purchase a model of ``posse`` could make: (legal, priced, modelled ones; the skipped with reasons).

    What is modelled depends on the battle ``options`` play (default: the table battle): Fighting Skills and the
    Derringer act in Fights, Hawkeye in Spotting Tests, neither in the fixed-range firefight."""
    options = B.battle_options() if options is None else options
    out: list[Candidate] = []
    skipped: list[dict] = []
    before = _broken(posse)

    def consider(i: int, m: P.PosseModel, item: str, kind: str, cost: int | None, changed: P.PosseModel,
                 not_modelled: str | None) -> None:
        def skip(reason: str, detail: str = "") -> None:
            skipped.append({"model": m.name, "item": item, "kind": kind, "reason": reason, "detail": detail})

        if cost is None:
            return skip(NO_PRICE)
        new = _with_model(posse, i, changed)
        bad = _new_violations(before, new)
        if bad:  # the rule in its own words: the same for every model it stops
            rule = R.POSSE_RULES[bad[0].rule]
            return skip(f"not allowed: {rule.text} ({rule.section})", bad[0].message)
        if not_modelled is not None:
            return skip(not_modelled)
        out.append(Candidate(i, item, kind, int(cost), new))

    for i, m in enumerate(posse.models):
        for name, sk in R.SKILLS.items():
            if sk in m.all_skills:
                continue
            cost = R.skill_cost(m.rank, len(m.skills) + 1)
            consider(i, m, name, "skill", cost, replace(m, skills=m.skills + (sk,)), skill_not_modelled(name, options))
        for name, w in R.WEAPONS.items():
            if w.only_for is not None or (w.native_americans_only and not posse.native_american):
                continue
            # a Weapon with [house_weapons] stats shoots as PosseModel.battle_weapons() gives it
            used = posse.house_weapons.get(name, w)
            why = P.shootable(used)
            if why is not None and w.takes_house_stats:
                why += " and the posse file gives it no house stats"
            if R.corridor_range(used):   # a Sawn-Off Shotgun with a house Range: its fire corridor, on the table
                why = None
            elif why is not None and w.fire_corridor:
                why += " and the posse file gives it no house Range"
            reason = None if why is None else f"no Shooting Test in this battle ({why})"
            if R.corridor_range(used) and not _table_battle(options):
                reason = NO_EFFECT   # the fixed range places nobody along a corridor
            consider(i, m, name, "weapon", P.item_price(posse, name), replace(m, weapons=m.weapons + (w,)),
                     VESSEL if m.is_vessel else reason)
        for name, g in R.GEAR.items():
            if g.kind is R.GearKind.SUPERNATURAL and not posse.dracula and posse.faction is R.Faction.NONE:
                continue
            if g.kind is R.GearKind.HORSE:
                if m.horse is not None and m.horse.name == name:
                    continue  # it rides one already
                changed = replace(m, horse=g)
            else:
                changed = replace(m, gear=m.gear + (g,))
            consider(i, m, name, "gear", P.item_price(posse, name), changed,
                     VESSEL if m.is_vessel else gear_not_modelled(m, name, options))
    return out, skipped


def remaining_dollars(posse: P.Posse) -> int | None:
    """Dollars the posse has left under its Dollar Limit ("Advanced Posse Creation"; a new Campaign Posse's
    $22), never below 0; None for the Basic method, which has no Dollar Limit."""
    limit = P.dollar_limit(posse)
    if limit is None:
        return None
    return max(limit - (P.spent(posse) or 0), 0)


def check_budget(budget: int | None) -> int | None:
    if budget is not None and (isinstance(budget, bool) or not isinstance(budget, int) or budget < 0):
        raise OddsmithError(f"--budget must be a whole number of dollars, 0 or more, got {budget!r}")
    return budget


def _why(model: P.PosseModel, c: Candidate, d: float, se: float) -> str:
    if abs(d) <= 2 * se:
        return "noise"
    if c.kind == "weapon":
        used = {w.name for w in model.battle_weapons()}
        return "spare-weapon" if c.item in used else ("other-weapon" if used else "")
    return ""


def value(posse_a: P.Posse, posse_b: P.Posse, options: B.BattleOptions | None = None, *,
          trials: int = DEFAULT_TRIALS, seed: int | None = None, workers: int = 1,
          budget: int | None = None) -> ValueResult:
    """ΔP(win) and Δ expected enemy Casualties per $ of every purchase, on common random numbers, ranked.

    ``base`` is the same battle as ``battle.battle(posse_a, posse_b, options, trials=trials, seed=seed)``; the
    standard errors of the changes are those of the paired per-game differences. ``budget``: the dollars a
    purchase may cost to count as affordable (``within_budget``; default :func:`remaining_dollars`, no limit
    for a Basic posse); every purchase is valued either way, and :attr:`ValueResult.affordable` /
    :attr:`ValueResult.over_budget` split the ranking."""
    trials = check_trials(int(trials))
    workers = check_workers(int(workers))
    budget = check_budget(budget)
    if budget is None:
        budget = remaining_dollars(posse_a)
    sd = resolve_seed(seed)
    base_setup = B.prepare(posse_a, posse_b, options)
    cands, skipped = candidates(posse_a, base_setup.options)
    setups = [B.prepare(c.posse, posse_b, base_setup.options, check=False)  # legal but for the Dollar Limit
              for c in cands]
    runs = B.run_paired(base_setup, setups, trials, sd, workers, label="purchases", changed_counts=False)
    summary, models = B.summarise(base_setup, runs.base, trials)
    base = B.BattleResult(base_setup, summary, models, B.activation_table(base_setup), trials, sd, runs.base)
    rows = []
    for j, c in enumerate(cands):
        dp, sp = runs.difference(j, "a_wins")
        dc, sc = runs.difference(j, "casualties_b")
        rows.append({
            "model": posse_a.models[c.model_index].name, "rank": posse_a.models[c.model_index].rank.label,
            "item": c.item, "kind": c.kind, "cost": c.cost,
            "d_p_win": dp, "d_p_win_stderr": sp, "d_casualties_b": dc, "d_casualties_b_stderr": sc,
            "d_p_win_per_dollar": dp / c.cost if c.cost else np.nan,
            "d_casualties_b_per_dollar": dc / c.cost if c.cost else np.nan,
            "over_limit": P.dollar_limit_violation(c.posse) is not None,
            "within_budget": budget is None or c.cost <= budget,
            "why": _why(posse_a.models[c.model_index], c, dp, sp),
        })
    table = pd.DataFrame(rows, columns=VALUE_COLUMNS)
    if not table.empty:
        table = table.sort_values(["d_p_win_per_dollar", "d_casualties_b_per_dollar"], ascending=False,
                                  na_position="last", kind="mergesort").reset_index(drop=True)
    return ValueResult(table, pd.DataFrame(skipped, columns=SKIPPED_COLUMNS), base, trials, sd, budget)

