"""The Vial of Nitro and Blessed Water on the table ("Horses and Gear Summary", "Supernatural Gear Summary",
"Dynamite", "Ka-Boom!"; docs/shadows-battles.md section 11b): the Nitro "works exactly like a stick of Dynamite, and
is one use only", and "if the user ever fails a Save with a score of 1 or 2, the Nitro immediately explodes with the
blast centred over them"; Blessed Water "follows all the rules for Dynamite except it only affects Supernatural
models". The rules as data, the reference on scripted dice, the kernel's steps against the reference, and whole
battles."""
from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest

import random_posses as RP
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from test_shadows_table import (QUICK_TWIN_GAMES, SKILLS, SLOW_REFERENCE_GAMES, Dice, FakePlan, check_agreement, model,
                                quick_case, table, table_options)
from test_shadows_table_kernel import _probe

NITRO = B._K.MODEL_COLUMNS.index("nitro")
WATER = B._K.MODEL_COLUMNS.index("blessed_water")


def zombi(name="Z", rank="Novice"):
    """A Supernatural model (the Congregation's Zombi)."""
    return replace(model(name, rank=rank), role=R.faction_role("Zombi"))


def congregation(*models: dict) -> P.Posse:
    return P.posse_from_dict({"posse": {"name": "C", "faction": "The Congregation", "method": "advanced",
                                        "dollar_limit": 1000}, "model": list(models)}, "C")


def advanced(*models: dict, name="A") -> P.Posse:
    return P.posse_from_dict({"posse": {"name": name, "method": "advanced", "dollar_limit": 1000},
                              "prices": {"Vial of Nitro": 5}, "model": list(models)}, name)


def with_gear(posse: P.Posse, item: str, rows) -> P.Posse:
    """``posse`` with one ``item`` more on the models ``rows``, house-priced $5 where the book gives no price."""
    return replace(posse, models=tuple(replace(m, gear=m.gear + (R.gear(item),)) if i in rows else m
                                       for i, m in enumerate(posse.models)),
                   prices={**posse.prices, item: posse.prices.get(item, 5)})


# ---------------------------------------------------------------------------- the rules as data


def test_rules_of_the_nitro_and_blessed_water():
    nitro, water = R.gear("Vial of Nitro"), R.gear("Blessed Water")
    assert nitro.explodes_like_dynamite and nitro.single_use and nitro.one_per_model and nitro.no_horse
    assert R.VIAL_OF_NITRO_EXPLODES_ON == (1, 2)
    assert water.explodes_like_dynamite and water.supernatural_only_blast and water.non_supernatural_only
    assert water.kind is R.GearKind.SUPERNATURAL


def test_posse_rules_of_the_nitro_and_blessed_water():
    """One Vial per model and no Horse with it; Blessed Water for non-Supernatural models of a Faction posse."""
    pistol = {"rank": "Hero", "weapons": ["Pistol"]}
    def problems(*models):
        return " ".join(str(p) for p in P.validate(P.resolve_posse(advanced(*models), check=False)))

    assert "more than one Vial of Nitro" in problems({**pistol, "name": "N", "gear": ["Vial of Nitro"] * 2})
    assert "cannot ride any kind of Horse" in problems({**pistol, "name": "N", "gear": ["Vial of Nitro"],
                                                        "horse": "Horse"})
    assert "Blessed Water is Supernatural Gear" in problems({**pistol, "name": "W", "gear": ["Blessed Water"]})
    assert "Blessed Water" not in problems({**pistol, "name": "W", "gear": ["Dynamite"]})


def test_the_kernel_columns_are_the_carried_items():
    a = advanced({"name": "N", "rank": "Veteran", "weapons": ["Pistol"], "gear": ["Vial of Nitro", "Dynamite"]},
                 {"name": "V", "rank": "Veteran", "weapons": ["Pistol"]})
    a = with_gear(a, "Blessed Water", {1})
    b = advanced({"name": "E", "rank": "Veteran", "weapons": ["Pistol"]}, name="B")
    st = B.prepare(a, b, table_options(), check=False)
    assert list(st.models[0, :2, NITRO]) == [1, 0] and list(st.models[0, :2, WATER]) == [0, 1]
    assert st.a.models[0].dynamite == 1 and st.a.models[0].nitro == 1
    # the fixed-range firefight plays neither (battle.NOT_MODELLED_NONE)
    st = B.prepare(a, b, B.battle_options(movement="none", range_="6"), check=False)
    assert not st.models[0, :, NITRO].any() and not st.models[0, :, WATER].any()


# ---------------------------------------------------------------------------- the reference on scripted dice


def test_reference_throws_the_water_at_the_supernatural_the_nitro_before_dynamite():
    thrower = FakePlan(model("T", gear=("Dynamite", "Vial of Nitro", "Blessed Water")), dynamite=1, style="gun")
    g = table([(thrower, (10, 10))], [(FakePlan(zombi()), (15, 10))])
    t = g.sides[0][0]
    assert (t.dynamite, t.nitro, t.water) == (1, 1, 1)
    assert g.throw_choice(t) == ("water", g.sides[1][0])
    g = table([(thrower, (10, 10))], [(FakePlan(model("H")), (15, 10))])
    t = g.sides[0][0]
    assert g.throw_choice(t)[0] == "nitro"
    t.nitro = 0
    assert g.throw_choice(t)[0] == "dynamite"
    t.dynamite = 0
    assert g.throw_choice(t) == (None, None)   # the Water is kept for a Supernatural Target


def test_reference_blessed_water_only_affects_supernatural_models():
    """A blast of Blessed Water on a Zombi and a man side by side: one Save, the Zombi's (a 1 on its D6: a
    Casualty); the man "simply gets a bit of a soaking"."""
    dice = Dice([1])
    g = table([(FakePlan(model("T")), (30, 30))], [(FakePlan(zombi()), (10, 10)), (FakePlan(model("H")), (11, 10))],
              rng=dice)
    g.blast(10, 10, 0, holy=True)
    assert dice.asked == [6] and not dice.faces
    z, h = g.sides[1]
    assert not z.on_table and h.on_table and not h.shaken and g.vp[0] == R.Rank.NOVICE.victory_points


def test_reference_nitro_goes_off_on_a_failed_save_of_one_or_two():
    """The bearer (a Veteran, D8) fails a 5+ Save with a 2: its Damage first, then the blast centred over it: its own
    7+ Save and its friend's 2" away (both fail with a 1), credited to the shooter's side. With a 3 the Vial stays
    put; a 3 with a -1 Save Modifier counts as a 2 ("a score of 5 actually counts as a 4") and sets it off."""
    def game(faces):
        dice = Dice(faces)
        bearer = FakePlan(model("N", gear=("Vial of Nitro",)))
        g = table([(FakePlan(model("S")), (30, 30))], [(bearer, (10, 10)), (FakePlan(model("F", rank="Novice")),
                                                                            (12, 10))], rng=dice)
        return g, dice

    g, dice = game([2, 1, 1])
    n, f = g.sides[1]
    g.save(n, 5, 0, 0)
    assert not dice.faces and n.nitro == 0
    assert not f.on_table and not n.on_table
    assert g.vp[0] == R.Rank.VETERAN.victory_points + R.Rank.NOVICE.victory_points
    g, dice = game([3])
    n, f = g.sides[1]
    g.save(n, 5, 0, 0)
    assert not dice.faces and n.nitro == 1 and n.shaken and f.on_table
    g, dice = game([3, 8, 6])
    n, f = g.sides[1]
    g.save(n, 5, -1, 0)
    assert not dice.faces and n.nitro == 0 and f.on_table and f.shaken


# ---------------------------------------------------------------------------- the kernel's steps


def _damage(out, side, model_, trials):
    """Shaken, Downed and Casualty shares of one model after a probe."""
    return [out[side, model_, k] / trials for k in (2, 1, 3)]


def _reference_damage(make, act, trials, seed):
    rng = random.Random(seed)
    counts: dict[tuple[int, int], list[int]] = {}
    for _ in range(trials):
        g = make(rng)
        act(g)
        for s, side in enumerate(g.sides):
            for i, x in enumerate(side):
                c = counts.setdefault((s, i), [0, 0, 0])
                c[0] += x.on_table and x.shaken and not x.downed
                c[1] += x.on_table and x.downed
                c[2] += not x.on_table
    return {k: [n / trials for n in v] for k, v in counts.items()}


def _agree(kernel, trials_k, ref, trials_r, what):
    for got, p in zip(kernel, ref):
        se = math.hypot(math.sqrt(max(p * (1 - p), 1e-6) / trials_r), math.sqrt(max(got * (1 - got), 1e-6) / trials_k))
        assert abs(got - p) <= 5 * se, (what, kernel, ref)


def test_kernel_throws_blessed_water_as_the_reference_does(monkeypatch):
    """A Veteran with Blessed Water 5" from a Zombi with a man 1.5" behind it: the kernel's Shoot Action
    (table_probe "shoot") against the reference's; the man is never hurt, the Zombi as in the reference. table_probe
    plays every failed throw as a dud, and so does the reference here."""
    throw = R.dynamite_throw
    monkeypatch.setattr(R, "dynamite_throw", lambda score: throw(score) if score >= R.SUCCESS_ON
                        else R.DynamiteOutcome.DUD)
    a = with_gear(advanced({"name": "T", "rank": "Veteran", "weapons": ["Pistol"]}), "Blessed Water", {0})
    b = congregation({"name": "Z", "rank": "Novice", "role": "Zombi", "weapons": ["Pistol"]},
                     {"name": "H", "rank": "Novice", "weapons": ["Pistol"]})
    st = B.prepare(a, b, table_options(), check=False)
    where = {(0, 0): (10, 10), (1, 0): (15, 10), (1, 1): (16.5, 10)}
    trials_k, trials_r = 60_000, 12_000
    out, _, _ = _probe(st, "shoot", 0, 0, where=where, trials=trials_k, seed=9)
    assert out[1, 1, 1:4].sum() == 0 and out[1, 1, 2] == 0   # the man: not a scratch

    def make(rng):
        return table([(FakePlan(a.models[0], style="gun"), (10, 10))],
                     [(FakePlan(b.models[0]), (15, 10)), (FakePlan(b.models[1]), (16.5, 10))], rng=rng)

    ref = _reference_damage(make, lambda g: g.shoot(g.sides[0][0], set(), []), trials_r, 11)
    assert ref[(1, 1)] == [0, 0, 0]
    _agree(_damage(out, 1, 0, trials_k), trials_k, ref[(1, 0)], trials_r, "the Zombi")
    assert sum(ref[(1, 0)]) > 0.2   # the Water does hurt it


def test_kernel_sets_the_nitro_off_as_the_reference_does():
    """A Hero with a Shotgun shoots at a Novice carrying a Vial of Nitro, its friend 2" behind: the friend is hurt
    only by the Nitro going off, in the kernel (table_probe "shoot") as in the reference. Without the Vial, the friend
    is never hurt."""
    a = advanced({"name": "S", "rank": "Hero", "weapons": ["Shotgun"]})
    bearer = {"name": "N", "rank": "Novice", "weapons": ["Pistol"], "gear": ["Vial of Nitro"]}
    b = advanced(bearer, {"name": "F", "rank": "Novice", "weapons": ["Pistol"]}, name="B")
    st = B.prepare(a, b, table_options(), check=False)
    where = {(0, 0): (10, 10), (1, 0): (14, 10), (1, 1): (16, 10)}
    trials_k, trials_r = 60_000, 12_000
    out, _, _ = _probe(st, "shoot", 0, 0, where=where, trials=trials_k, seed=5)

    def make(rng):
        return table([(FakePlan(a.models[0], style="gun", weapons=st.a.models[0].weapons), (10, 10))],
                     [(FakePlan(b.models[0]), (14, 10)), (FakePlan(b.models[1]), (16, 10))], rng=rng)

    ref = _reference_damage(make, lambda g: g.shoot(g.sides[0][0], set(), []), trials_r, 13)
    for i, who in ((0, "the bearer"), (1, "its friend")):
        _agree(_damage(out, 1, i, trials_k), trials_k, ref[(1, i)], trials_r, who)
    assert sum(ref[(1, 1)]) > 0.05   # the Nitro went off often enough to show
    plain = B.prepare(a, advanced({**bearer, "gear": []}, {"name": "F", "rank": "Novice", "weapons": ["Pistol"]},
                                  name="B"), table_options(), check=False)
    out, _, _ = _probe(plain, "shoot", 0, 0, where=where, trials=5_000, seed=5)
    assert out[1, 1, 1:4].sum() == 0


# ---------------------------------------------------------------------------- whole battles


def nitro_cases() -> list:
    rng = random.Random(83)
    out = []
    while len(out) < 2:
        j = len(out)
        a = RP.random_posse(rng, "A", skills=SKILLS, thrown=0.6)
        b = RP.random_posse(rng, "B", skills=SKILLS, thrown=0.3)
        if not any("Vial of Nitro" in [g.name for g in m.gear] for m in a.models):
            continue
        out.append(B.prepare(a, b, table_options(plan_a=("balanced", "gunline")[j], plan_b=("brawl", "balanced")[j])))
    return out


def water_case():
    """The Twilight Order with three flasks of Blessed Water against the Congregation (three Supernatural models)."""
    water = with_gear(P.sample_posse("twilight-order"), "Blessed Water", {2, 3, 5})
    return B.prepare(water, P.sample_posse("congregation"), table_options(plan_a="gunline", plan_b="brawl"))


@pytest.mark.parametrize("case", [quick_case("test_kernel_agrees_with_reference_with_nitro_and_water[0]")]
                         + [pytest.param(c, marks=pytest.mark.slow) for c in (0, 1, "water")])
def test_kernel_agrees_with_reference_with_nitro_and_water(case):
    if case == "quick":
        check_agreement(nitro_cases()[0], QUICK_TWIN_GAMES, 87)
    elif case == 0:
        check_agreement(nitro_cases()[0], 800, 87)
    elif case == "water":
        check_agreement(water_case(), 1_200, 89)
    else:
        check_agreement(nitro_cases()[case], SLOW_REFERENCE_GAMES, 88)


def test_blessed_water_changes_nothing_without_a_supernatural_enemy():
    """The Water is thrown at Supernatural Targets only and changes no plan: against the unaligned posse every figure
    is the same as without it, game for game (same seed)."""
    base = P.sample_posse("twilight-order")
    water = with_gear(base, "Blessed Water", {2, 3, 5})
    opts = table_options()
    one = B.battle(base, P.sample_posse(None), opts, trials=3_000, seed=3)
    two = B.battle(water, P.sample_posse(None), opts, trials=3_000, seed=3)
    assert one.summary.equals(two.summary)


def test_blessed_water_helps_against_supernatural_posses():
    """Paired, 20,000 battles: three flasks of Blessed Water win the Twilight Order more battles against the
    Congregation (measured +2.6 pp) and the Red Hand Coven (+1.4 pp), by more than 3 standard errors."""
    base = P.sample_posse("twilight-order")
    water = with_gear(base, "Blessed Water", {2, 3, 5})
    opts = table_options()
    for vs in ("congregation", "red-hand-coven"):
        enemy = P.sample_posse(vs)
        res = B.run_paired(B.prepare(base, enemy, opts), [B.prepare(water, enemy, opts)], 20_000, seed=17)
        d, se = res.difference(0, "a_wins")
        assert d > 3 * se, (vs, d, se)
