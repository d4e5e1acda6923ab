"""The table battle (``--movement table``): the book's Fight and Move examples against the rules model and the plain
reference (tests/reference_table.py), the kernel against the reference, and the sanity the book implies."""
from __future__ import annotations

import functools
import math
import random
from dataclasses import dataclass, replace
from fractions import Fraction
from types import SimpleNamespace

import pytest

import reference_battle as RB
import random_posses as RP
import reference_table as RT
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P

# ---------------------------------------------------------------------------
# Hand-made states: real posse models, plans reduced to the policy facts the reference reads
# ---------------------------------------------------------------------------


class Dice:
    """A scripted ``random.Random``: ``randint`` returns the given faces in order (checking each is a face of the
    die asked for), ``random`` the given uniforms; running out is a test failure (an unexpected roll)."""

    def __init__(self, faces=(), uniforms=()):
        self.faces = list(faces)
        self.uniforms = list(uniforms)
        self.asked: list[int] = []

    def randint(self, lo, hi):
        assert self.faces, f"unexpected roll of a D{hi}"
        v = self.faces.pop(0)
        assert lo <= v <= hi, (v, hi)
        self.asked.append(hi)
        return v

    def random(self):
        assert self.uniforms, "unexpected uniform draw"
        return self.uniforms.pop(0)

    def shuffle(self, x):
        pass


@dataclass
class FakeBand:
    band: R.RangeBand
    edge_inches: float
    dice: int
    dice_cover: int
    save_mod: int


@dataclass
class FakeWeapon:
    name: str
    bands: tuple
    shots: int = 1
    pistol: bool = True
    silver: int = 0
    jam_die: int = 10
    why_not: str | None = None

    @property
    def usable(self):
        return self.why_not is None


@dataclass
class FakePlan:
    model: P.PosseModel
    boss: bool = False
    weapons: tuple = ()
    dynamite: int = 0
    danger: float = 0.0
    style: str = "brawl"
    desired_inches: float = 8.0
    arcane_blast: bool = False
    revenant: bool = False
    casts: tuple = ()
    casts_over_shot: tuple = ((), (), ())
    concentrate: tuple = (frozenset(), frozenset(), frozenset())
    beast_form: object = None
    beast_at_once: bool = True
    lasso: tuple = (0, 0)


@dataclass
class FakeSide:
    models: tuple
    plan: str = "balanced"
    revenant: object = None
    cover: bool = False
    posse: object = None


def pistol_plan():
    w = R.weapon("Pistol")
    bands = tuple(FakeBand(b, float(w.range_of(b)[1]), R.shooting_dice(w, b), R.shooting_dice(w, b, cover=True),
                           w.save_modifier(b)) for b in (R.RangeBand.SHORT, R.RangeBand.MEDIUM, R.RangeBand.LONG))
    return FakeWeapon("Pistol", bands)


def model(name, rank="Veteran", skills=(), gear=(), weapons=("Pistol",)):
    data = {"posse": {"name": "t", "method": "advanced", "dollar_limit": 1000},
            "model": [{"name": name, "rank": rank, "weapons": list(weapons), "skills": list(skills), "gear": list(gear)}]}
    return P.posse_from_dict(data, "t").models[0]


@functools.cache
def _options(**opts):
    """B.battle_options, made once per set of options (frozen; the shooting checks build tens of thousands of games)."""
    return B.battle_options(**opts)


def table(a, b, rng=None, **opts):
    """A TableGame of the hand-made sides ``a`` and ``b`` (lists of (FakePlan, (x, y)))."""
    setup = SimpleNamespace(a=FakeSide(tuple(p for p, _ in a)), b=FakeSide(tuple(p for p, _ in b)),
                            options=_options(**opts))
    g = RT.TableGame(setup, rng or Dice())
    for s, side in enumerate((a, b)):
        for m, (_, xy) in zip(g.sides[s], side):
            m.x, m.y = xy
    return g


def saves_of(g):
    """Record every Save the game asks for instead of rolling it: (model name, score needed, modifier, credit)."""
    asked = []
    g.save = lambda victim, needed, modifier, credit: asked.append((victim.pm.name, needed, modifier, credit))
    return asked


# ---------------------------------------------------------------------------
# (b) The book's examples and rules, against R and the reference's pieces
# ---------------------------------------------------------------------------


def test_deployment_slots_are_the_specs():
    assert RT.slots(0) == [(7, 7), (5, 7), (7, 5), (5, 5), (3, 7), (7, 3), (3, 5), (5, 3), (1, 7), (7, 1), (3, 3),
                           (1, 5), (5, 1), (1, 3), (3, 1), (1, 1)]
    assert RT.slots(1)[0] == (29, 29) and RT.slots(1)[-1] == (35, 35)
    # every slot inside the 8" corner zone, bases never overlapping
    for s in (0, 1):
        for x, y in RT.slots(s):
            near = (x, y) if s == 0 else (R.TABLE_INCHES - x, R.TABLE_INCHES - y)
            assert near[0] + R.BASE_INCHES / 2 <= R.DEPLOYMENT_ZONE_INCHES
            assert near[1] + R.BASE_INCHES / 2 <= R.DEPLOYMENT_ZONE_INCHES


def test_outnumbered_the_books_apache_example():
    """"An Outlaw is in Contact with three Lawmen, one of whom is also in Contact with an Apache. The Outlaw only
    suffers a -1 Die Modifier for the second Lawman not engaged by the Apache" ("Outnumbered")."""
    outlaw = FakePlan(model("Outlaw"))
    lawmen = [FakePlan(model(f"Lawman {i}")) for i in range(3)]
    apache = FakePlan(model("Apache"))
    # the Outlaw at (10, 10), the Lawmen at one base around it, the Apache touching the first Lawman only
    g = table([(outlaw, (10, 10))], [(lawmen[0], (11, 10)), (lawmen[1], (10, 11)), (lawmen[2], (9, 10))])
    o = g.sides[0][0]
    assert g.outnumbered_by(o) == 2  # three unengaged Lawmen: -1 for each after the first
    g = table([(outlaw, (10, 10)), (apache, (12, 10))], [(lawmen[0], (11, 10)), (lawmen[1], (10, 11)),
                                                          (lawmen[2], (9, 10))])
    o = g.sides[0][0]
    assert [e.pm.name for e in g.contacts(o)] == ["Lawman 0", "Lawman 1", "Lawman 2"]
    assert g.outnumbered_by(o) == 1
    assert R.fight_dice(outnumbered_by=1) == 2
    assert R.fight_dice(outnumbered_by=1, skills=["'Ornery"]) == 3  # 'Ornery ignores the penalty
    # a Lawman engaged by the Apache is outnumbered by nobody
    assert g.outnumbered_by(g.sides[1][0]) == 0


def test_lost_by_two_successes_saves_on_six():
    """"if you lost the Fight by two Successes, you would Save on a 6+" ("3: Loser Makes a Save")."""
    assert R.save_target(2) == 6
    hero, novice = FakePlan(model("Hero", "Hero")), FakePlan(model("Kid", "Novice"))
    # attacker (D10) 7, 8, 2: two Successes; defender (D6) 1, 2, 3: none (no maximum, no re-roll)
    g = table([(hero, (10, 10))], [(novice, (11, 10))], Dice([7, 8, 2, 1, 2, 3]))
    asked = saves_of(g)
    g.fight(g.sides[0][0], g.sides[1][0])
    assert asked == [("Kid", 6, 0, 0)]
    assert g.fights == 1 and g.sides[0][0].fought and g.sides[1][0].fought


def test_equal_successes_highest_die_wins_by_one_else_draw():
    assert R.fight_result([5, 2, 1], [6, 3, 2]) == (R.FightResult.DEFENDER_WINS, 1)
    assert R.fight_result([5, 9, 1], [6, 3, 2]) == (R.FightResult.ATTACKER_WINS, 1)
    assert R.fight_result([6, 3, 1], [6, 2, 2]) == (R.FightResult.DRAW, 0)
    a, b = FakePlan(model("A", "Hero")), FakePlan(model("B", "Hero"))
    g = table([(a, (10, 10))], [(b, (11, 10))], Dice([6, 3, 1, 6, 2, 2]))
    asked = saves_of(g)
    g.fight(g.sides[0][0], g.sides[1][0])
    assert asked == [] and g.fights == 1  # a Draw: no effect


def test_charge_mean_close_work_derringer_dice():
    """Charging +1, Mean +1, Close Work +1 per Pistol (at most 2, then no Derringer), the Derringer once per game."""
    brute = FakePlan(model("Brute", "Hero", skills=["Mean", "Close Work"], gear=["Derringer"]))
    twin = FakePlan(model("Twin", "Hero", skills=["Close Work"], gear=["Derringer"], weapons=("Pistol", "Heavy Pistol")))
    kid = FakePlan(model("Kid", "Novice"))
    g = table([(brute, (10, 10)), (twin, (20, 20))], [(kid, (11, 10))])
    b, t = g.sides[0]
    assert g.fight_dice(b, charging=True, fearsome_failed=False) == 3 + 1 + 1 + 1 + 1  # Charge, Mean, Close Work, Derringer
    assert not b.derringer
    assert g.fight_dice(b, charging=False, fearsome_failed=False) == 3 + 1 + 1  # the Derringer is spent
    assert g.fight_dice(t, charging=False, fearsome_failed=False) == 3 + 2  # two Pistols: +2, no Derringer
    assert t.derringer  # kept for later
    assert g.fight_dice(t, charging=False, fearsome_failed=True) == 3 + 2 - 1


def test_downed_model_fought_is_removed_without_a_test():
    """"It may not be Shot at but can be Fought — in this case no Fight Test is made and the Downed model is
    immediately removed as a Casualty" ("Downed"); its VP go to the Attacker's side."""
    a, b = FakePlan(model("A")), FakePlan(model("B", "Veteran"))
    g = table([(a, (10, 10))], [(b, (11, 10))], Dice([]))  # no die may be rolled
    victim = g.sides[1][0]
    victim.downed = True
    assert g.defender(g.sides[0][0]) is victim
    g.fight(g.sides[0][0], victim)
    assert victim.casualty and not victim.on_table
    assert g.vp == [R.Rank.VETERAN.victory_points, 0]
    assert g.fight_cas == [0, 1] and g.fights == 1


def test_downed_defender_only_if_no_standing_enemy_in_contact():
    a, b, c = FakePlan(model("A")), FakePlan(model("B", "Novice")), FakePlan(model("C", "Hero"))
    g = table([(a, (10, 10))], [(b, (11, 10)), (c, (9, 10))])
    g.sides[1][0].downed = True
    assert g.defender(g.sides[0][0]) is g.sides[1][1]
    # the lowest Grit die among the standing ones
    g = table([(a, (10, 10))], [(c, (11, 10)), (b, (9, 10))])
    assert g.defender(g.sides[0][0]).pm.name == "B"


def test_failed_disengage_saves_on_five_for_each_enemy_then_moves_away():
    """"If failed, the model will still Disengage, but must first make a 5+ Save for each enemy it was in Contact
    with" ("Disengaging From Contact")."""
    a = FakePlan(model("A", "Novice"))
    e1, e2, e3 = (FakePlan(model(f"E{i}")) for i in range(3))
    g = table([(a, (10, 10))], [(e1, (11, 10)), (e2, (10, 11)), (e3, (15, 15))], Dice([2]))  # Disengage Test: 2 on a D6
    asked = saves_of(g)
    m = g.sides[0][0]
    g.disengage(m)
    assert asked == [("A", R.DISENGAGE_FAIL_SAVE, 0, 1), ("A", R.DISENGAGE_FAIL_SAVE, 0, 1)]
    # away from the centroid (10.5, 10.5) along (-1, -1), the full 4"
    assert (m.x, m.y) == pytest.approx((10 - 4 / math.sqrt(2), 10 - 4 / math.sqrt(2)))
    assert not g.contacts(m)
    # a passed Test: no Saves
    g = table([(a, (10, 10))], [(e1, (11, 10))], Dice([5]))
    asked = saves_of(g)
    g.disengage(g.sides[0][0])
    assert asked == [] and g.sides[0][0].x == pytest.approx(6.0)


def test_move_stops_one_inch_from_an_enemy_and_charge_contacts():
    """"You cannot voluntarily Move closer than 1" to an enemy model unless you intend to Contact" ("Other
    Models"); a Charge ends in base contact and Fights at once with +1 Die."""
    a, b = FakePlan(model("A")), FakePlan(model("B"))
    g = table([(a, (10, 10))], [(b, (14.5, 10))])
    m, e = g.sides[0][0], g.sides[1][0]
    g.move_towards(m, e.x, e.y, R.MOVE_INCHES)
    assert RT.gap(m, e) == pytest.approx(R.ENEMY_CLEARANCE_INCHES)
    assert m.x == pytest.approx(12.5)
    # a Downed enemy does not block movement
    g = table([(a, (10, 10))], [(b, (12, 10))])
    g.sides[1][0].downed = True
    g.move_towards(g.sides[0][0], 20, 10, R.MOVE_INCHES)
    assert g.sides[0][0].x == pytest.approx(14.0)
    # the Charge: gap 3" -> Contact at one base, a free Fight (D8 Veteran vs D8 Veteran, 4 dice vs 3)
    g = table([(a, (10, 10))], [(b, (14, 10))], Dice([1, 2, 3, 4, 1, 2, 3]))
    asked = saves_of(g)
    assert g.charge(g.sides[0][0], g.sides[1][0])
    assert RT.in_contact(g.sides[0][0], g.sides[1][0]) and g.sides[0][0].x == pytest.approx(13.0)
    assert g.rng.asked == [8] * 7 and asked == [("B", R.save_target(1), 0, 0)]  # highest die 4 beats 3


def test_a_charge_is_stopped_by_its_targets_twin():
    """A Charge ignores the 1" of its Target only (KERNEL-NOTES Q5): another enemy of the very same plan (two
    henchmen alike in every fact) on the way still stops it short. The reference once compared models by their
    facts, so the twin was "the Target" too and the charger ran through it."""
    a, b = FakePlan(model("A")), FakePlan(model("B"))
    g = table([(a, (10, 10))], [(b, (15.5, 10)), (b, (12.5, 10))])
    m, target, twin = g.sides[0][0], g.sides[1][0], g.sides[1][1]
    assert target is not twin and target != twin and twin not in (target,)
    assert not g.charge(m, target)  # no Contact, no Fight: no die rolled
    assert RT.gap(m, twin) == pytest.approx(R.ENEMY_CLEARANCE_INCHES) and m.x == pytest.approx(10.5)


def test_recovery_friend_in_contact_adds_a_die():
    """"If there are any friendly non-Downed models in Contact with the model making this Test, they receive a
    +1 Die Modifier" ("2: Make Recovery Tests")."""
    a, f, e = FakePlan(model("A", "Novice")), FakePlan(model("Friend")), FakePlan(model("E"))
    # (then the Bottle Check: one model of two left standing, the Veteran rolls 1 Die, a 5)
    g = table([(a, (10, 10)), (f, (11, 10))], [(e, (30, 30))], Dice([1, 1, 1, 1, 5]))
    g.sides[0][0].downed = True
    assert not g.recovery(0)
    assert g.rng.asked == [6] * 4 + [8] and g.sides[0][0].casualty
    g = table([(a, (10, 10)), (f, (13, 10))], [(e, (30, 30))], Dice([1, 1, 5, 5]))
    g.sides[0][0].downed = True
    assert not g.recovery(0)
    assert g.rng.asked == [6] * 3 + [8] and g.sides[0][0].on_table and g.sides[0][0].downed


def test_targeting_closest_easier_and_spotting():
    """The closest visible enemy, unless a more distant one is an easier Target; another only after a passed
    Spotting Test, whose Failure wastes the Action ("1: Declare Weapon and Target")."""
    shooter = FakePlan(model("S", "Veteran"), weapons=(pistol_plan(),), style="gun")
    near, far = FakePlan(model("Near"), danger=1.0), FakePlan(model("Far"), danger=5.0)
    wp = shooter.weapons[0]
    # Near at 6" gap (Medium, 3 dice), Far at 3.5" gap (Short, 4 dice)? no: the closer one is the easier one
    g = table([(shooter, (10, 10))], [(near, (17, 10)), (far, (10, 19))], Dice(uniforms=[0.9, 0.9]), targets="closest")
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Near"
    # Near in Cover (2 dice) and Far in the open at Medium (3 dice): Far is easier
    g = table([(shooter, (10, 10))], [(near, (17, 10)), (far, (10, 19))], Dice(uniforms=[0.1, 0.9]), targets="closest",
              terrain=0.5)
    order = [m.pm.name for m in g.enemies(g.sides[0][0])]
    u = {"Near": 0.1, "Far": 0.9}
    g.rng.uniforms = [u[n] for n in order]
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Far"
    # most-dangerous prefers Far (not the legal Target): a Veteran (D8, 1/2) tests; a 3 fails: the Action is wasted
    g = table([(shooter, (10, 10))], [(near, (17, 10)), (far, (10, 20))], Dice([3], uniforms=[0.9, 0.9]))
    assert g.choose_target(g.sides[0][0], wp, True) == "wasted"
    g = table([(shooter, (10, 10))], [(near, (17, 10)), (far, (10, 20))], Dice([6], uniforms=[0.9, 0.9]))
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Far"
    # a Novice (D6, 1/3) does not try: it shoots the legal Target
    novice = FakePlan(model("N", "Novice"), weapons=(pistol_plan(),), style="gun")
    g = table([(novice, (10, 10))], [(near, (17, 10)), (far, (10, 20))], Dice(uniforms=[0.9, 0.9]))
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Near"
    # with Hawkeye (5/9) it does, and re-rolls a Failure
    hawk = FakePlan(model("H", "Novice", skills=["Hawkeye"]), weapons=(pistol_plan(),), style="gun")
    g = table([(hawk, (10, 10))], [(near, (17, 10)), (far, (10, 20))], Dice([2, 5], uniforms=[0.9, 0.9]))
    assert g.choose_target(g.sides[0][0], wp, True)[0].pm.name == "Far"
    assert [R.spotting_pass_chance(d, h) for h in (False, True) for d in (6, 8, 10)] == [
        Fraction(1, 3), Fraction(1, 2), Fraction(3, 5), Fraction(5, 9), Fraction(3, 4), Fraction(21, 25)]
    # Downed and engaged enemies may not be / are not shot at
    g = table([(shooter, (10, 10))], [(near, (17, 10)), (far, (10, 20))])
    g.sides[1][0].downed = True
    assert [m.pm.name for m in g.weapon_candidates(g.sides[0][0], wp)] == ["Far"]


def test_close_work_counts_two_pistols_and_not_a_jammed_one():
    """"Using two Pistols grants a +2 Modifier" (Close Work): two plain Pistols are two; a Jammed one does not
    count ("an unjammed Pistol-Class Weapon")."""
    two = model("Two Guns", "Hero", skills=["Close Work"], weapons=("Pistol", "Pistol"))
    p = FakePlan(two, weapons=(pistol_plan(), pistol_plan()))
    g = table([(p, (10, 10))], [(FakePlan(model("E")), (11, 10))])
    m = g.sides[0][0]
    assert g.close_work_pistols(m) == 2
    m.jammed.add(id(p.weapons[0]))
    assert g.close_work_pistols(m) == 1
    assert g.fight_dice(m, charging=False, fearsome_failed=False) == 3 + 1


def test_fearsome_defender_tests_the_attacker_once_per_activation():
    """"Enemy models wishing to Fight this model ... must pass a 1 Die Nerve Test or suffer a -1 Die Modifier on its
    Fight Tests this Activation. Note that other Fearsome models ignore this Skill" (Fearsome)."""
    att, scary = FakePlan(model("A", "Hero")), FakePlan(model("Scary", "Hero", skills=["Fearsome"]))
    # Nerve Test 2 (failed), then 2 dice for the Attacker (3 - 1) and 3 for the Defender: a Draw
    g = table([(att, (10, 10))], [(scary, (11, 10))], Dice([2, 6, 3, 6, 2, 2, 6, 3, 6, 2, 2]))
    g.fight(g.sides[0][0], g.sides[1][0])
    assert len(g.rng.asked) == 6 and g.sides[0][0].fearsome_failed
    g.fight(g.sides[0][0], g.sides[1][0])  # the same Activation: no second Test, still 2 dice
    assert len(g.rng.asked) == 11 and not g.rng.faces
    g.start_activation(g.sides[0][0])
    assert not g.sides[0][0].fearsome_failed
    # a Fearsome Attacker ignores it
    g = table([(scary, (10, 10))], [(FakePlan(model("S2", "Hero", skills=["Fearsome"])), (11, 10))],
              Dice([6, 3, 2, 6, 2, 1]))
    g.fight(g.sides[0][0], g.sides[1][0])
    assert g.rng.asked == [10] * 6


def test_gun_and_brawl_plans_pick_their_actions():
    """The plans of docs/shadows-battles.md ('Plans'): a gun model beyond D* moves by min(4, gap - D*); a brawl model
    Charges a Downed enemy in reach first; a gun model in Contact Disengages."""
    gun = FakePlan(model("G", "Veteran"), weapons=(pistol_plan(),), style="gun", desired_inches=8.0)
    e = FakePlan(model("E"))
    g = table([(gun, (10, 10))], [(e, (21, 10))])  # gap 10" > D* 8": moves 2"
    assert g.one_action(g.sides[0][0], set(), [], late=False, after_move=False) == "move"
    assert g.sides[0][0].x == pytest.approx(12.0)
    g = table([(gun, (10, 10))], [(e, (11, 10))], Dice([6]))
    assert g.one_action(g.sides[0][0], set(), [], late=False, after_move=False) == "move"  # Disengage, passed
    assert g.sides[0][0].x == pytest.approx(6.0)
    brawler = FakePlan(model("B", "Veteran"), style="brawl")
    d1, d2 = FakePlan(model("Down")), FakePlan(model("Up"))
    g = table([(brawler, (10, 10))], [(d1, (13, 13)), (d2, (7, 10))], Dice([]))
    g.sides[1][0].downed = True
    assert g.one_action(g.sides[0][0], set(), [], late=False, after_move=False) == "move"
    assert g.sides[1][0].casualty and g.fights == 1  # Charged and finished off, no dice
    # nobody in reach: 4" straight at the closest standing enemy
    g = table([(brawler, (10, 10))], [(d2, (30, 10))])
    g.one_action(g.sides[0][0], set(), [], late=False, after_move=False)
    assert (g.sides[0][0].x, g.sides[0][0].y) == pytest.approx((14.0, 10.0))


# ---------------------------------------------------------------------------
# (a) The kernel against the reference on random legal posses, every plan, terrains, both movements
# ---------------------------------------------------------------------------

SKILLS = RP.SKILLS + ["Close Work", "Fearsome", "Bull-Rush", "'Ornery", "Hawkeye"]
HOUSE_PRICES = {**RP.HOUSE_PRICES, "Derringer": 3}
PLANS = ("gunline", "brawl", "balanced")
TERRAINS = ("open", "light", "dense", 0.8)


def random_posse(rng: random.Random, name: str) -> P.Posse:
    """A random legal posse (tests/random_posses.py) with the Fight's Skills and sometimes a Derringer."""
    return RP.random_posse(rng, name, skills=SKILLS, prices=HOUSE_PRICES, derringer=0.25)


def table_options(movement="table", terrain="open", plan_a="balanced", plan_b="balanced", **kw):
    return B.battle_options(movement=movement, terrain=terrain, plan=plan_a, vs_plan=plan_b, **kw)


def agreement_cases(k: int, seed: int) -> list:
    """k setups: random posses (and the faction samples), every plan for each side, the terrains, both movements."""
    rng = random.Random(seed)
    faction = [P.sample_posse("congregation"), P.sample_posse("dark-confederacy")]
    out = []
    while len(out) < k:
        j = len(out)
        a = faction[j % 2] if j % 4 == 3 else random_posse(rng, "A")
        b = random_posse(rng, "B")
        movement = "none" if j % 6 == 5 else "table"
        kw = dict(targets=B.TARGET_POLICIES[j % len(B.TARGET_POLICIES)], activation=B.ACTIVATION_POLICIES[(j // 2) % 3],
                  lone_gun=rng.choice(B.LONE_GUN_POLICIES), turns=rng.choice([8, 8, 4]))
        if movement == "none":
            kw["range_"] = rng.choice(["4", "7.5", "10", "medium"])
        opts = table_options(movement, TERRAINS[j % 4], PLANS[j % 3], PLANS[(j // 3) % 3], **kw)
        try:
            setup = B.prepare(a, b, opts)
        except OddsmithError:
            continue  # nobody can shoot at that range (fixed-range mode)
        out.append(setup)
    return out


def _se(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def per_game_figures(games: list[dict]) -> dict[str, list[float]]:
    fig = {
        "p_a_wins": [g["result"] == "a" for g in games], "p_b_wins": [g["result"] == "b" for g in games],
        "p_draw": [g["result"] == "draw" for g in games], "turns_mean": [g["turns"] for g in games],
        "casualties_a": [g["casualties"][0] for g in games], "casualties_b": [g["casualties"][1] for g in games],
        "victory_points_a": [g["vp"][0] for g in games], "victory_points_b": [g["vp"][1] for g in games],
        "fights_mean": [g.get("fights", 0) for g in games],
        "p_a_fight_casualties": [g.get("fight_casualties", [0, 0])[0] for g in games],
        "p_b_fight_casualties": [g.get("fight_casualties", [0, 0])[1] for g in games],
    }
    return {k: [float(x) for x in v] for k, v in fig.items()}


SLOW_REFERENCE_GAMES = 1_200
"""Reference games of one slow agreement case. The reference, about 5-12 ms a game, is the cost: at 1,500 CI's test run
took 9 min 59 s on 2026-12-03; at 1,200 it took 10 min 20 s on 2026-12-06, the machine about 1.6x slower than on
12-05, and 8 min 20-35 s that afternoon with the quick twins left out (docs/development.md). 5 standard errors of a
figure near 1/2 are 7.2 pp (1,500 games: 6.5 pp; 2,000: 5.6 pp). Every slow agreement case plays it, but the Fights
of test_shadows_fought.py (3,000) and the seven setups that were quick cases until 2026-12-06 (700-800, as they were:
Summon's case 2, the LeMats, and case 0 of the Supernatural Events, fire corridors, horses, Lassos and Nitro). Quick
twins play the first :data:`QUICK_TWIN_GAMES`."""

QUICK_TWIN_GAMES = 400
"""Reference games of a quick twin (:func:`quick_case`): the first games of its slow case, on its seed, a smoke check
for the quick loop (5 standard errors near 1/2: 12.5 pp); a run with the slow tests plays the slow case instead."""

KERNEL_BATTLES_PER_REFERENCE_GAME = 25
"""Kernel battles per reference game in an agreement check. The two errors add in quadrature, so the kernel's share of
the combined variance is 1/25 = 4 % (the standard error 2 % above the reference's alone); more battles would buy
nothing the check can see, and a table battle costs the kernel 40-50 us (60,000 of them: 2.5-3 s, as much as 300
reference games)."""


def _ref_se(values: list[float], kernel_se: float, trials_k: int) -> float:
    """The standard error of the reference's mean: its own sample's, or, when larger, the kernel's spread per game at
    the reference's number of games (if the two agree they play the same distribution, and a rare figure's few
    reference events understate its spread: one Downed model in 1,500 games gives 0.0007)."""
    own = _se(values) if len(set(values)) > 1 else 0.0
    return max(own, kernel_se * math.sqrt(trials_k / len(values)))


def check_agreement(setup, trials_ref: int, seed: int) -> None:
    """Every figure of the kernel (:data:`KERNEL_BATTLES_PER_REFERENCE_GAME` battles a reference game) within 5
    standard errors of the reference's (both errors combined)."""
    trials_k = KERNEL_BATTLES_PER_REFERENCE_GAME * trials_ref
    rng = random.Random(seed)
    games = [RB.play(setup, rng) for _ in range(trials_ref)]
    result = B.battle(setup.a.posse, setup.b.posse, setup.options, trials=trials_k, seed=seed)
    k = result.summary.set_index("figure")
    bad = []
    for fig, vals in per_game_figures(games).items():
        ref = sum(vals) / len(vals)
        kse = float(k.loc[fig, "stderr"])
        se = math.hypot(_ref_se(vals, kse, trials_k), kse)
        if abs(ref - float(k.loc[fig, "value"])) > 5 * max(se, 1.0 / trials_ref):
            bad.append((fig, round(ref, 4), round(float(k.loc[fig, "value"]), 4), round(se, 4)))
    models = result.models
    for s, side in enumerate((setup.a, setup.b)):
        rows = models[models["side"] == "ab"[s]].reset_index(drop=True)
        for i in range(len(side.models)):  # the posse's own models (Revenants vary in number from game to game)
            for col, key in (("p_casualty", "casualty"), ("p_fought", "fought"), ("p_downed_at_end", "downed_at_end")):
                if key not in games[0]:
                    continue
                vals = [float(g[key][s][i]) for g in games]
                kse = float(rows.loc[i, col + "_stderr"])
                se = math.hypot(_ref_se(vals, kse, trials_k), kse)
                ref = sum(vals) / len(vals)
                if abs(ref - float(rows.loc[i, col])) > 5 * max(se, 1.0 / trials_ref):
                    bad.append((f"{'ab'[s]}{i} {col}", round(ref, 4), round(float(rows.loc[i, col]), 4), round(se, 4)))
    assert not bad, (describe(setup), bad)


def describe(setup) -> str:
    o = setup.options
    return (f"{setup.a.posse.name} ({len(setup.a.models)}) vs {setup.b.posse.name} ({len(setup.b.models)}): "
            f"movement {o.movement}, terrain {o.terrain}, plans {o.plan_a}/{o.plan_b}, targets {o.targets}, "
            f"activation {o.activation}, lone gun {o.lone_gun}, turns {o.turns}")


def test_reference_table_games_keep_their_bookkeeping():
    """Quick, reference only: models stay on the table and never stand inside a standing enemy's base; Fight
    figures add up; a model that Fought was in a game with Fights."""
    for setup in agreement_cases(6, 13):
        if setup.options.movement != "table":
            continue
        rng = random.Random(3)
        for _ in range(30):
            g = RT.TableGame(setup, rng)
            out = g.play()
            on = [m for side in g.sides for m in side if m.on_table]
            for m in on:
                assert 0.5 <= m.x <= R.TABLE_INCHES - 0.5 and 0.5 <= m.y <= R.TABLE_INCHES - 0.5
                for e in on:
                    if e.side != m.side and e.standing and m.standing:
                        assert RT.dist(m, e) >= R.BASE_INCHES - 1e-6
            assert sum(out["fight_casualties"]) <= sum(out["casualties"])
            assert (out["fights"] > 0) == any(any(f) for f in out["fought"])
            assert all(len(out[k][s]) == len(g.sides[s]) for k in ("casualty", "fought") for s in (0, 1))


def quick_case(twin: str):
    """The "quick" case of an agreement test: the setup of its slow case ``twin`` on fewer reference games, for the quick
    loop; a run that has ``twin`` leaves it out (``pytest.mark.quick_twin``, tests/conftest.py)."""
    return pytest.param("quick", marks=pytest.mark.quick_twin(twin))


# One case in the quick loop (`pytest -n 2`), on fewer reference games; every case at full size is slow (CI
# runs them all: README).
@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) for c in range(6)]
                         + [quick_case("test_kernel_agrees_with_reference_quick[4]")])
def test_kernel_agrees_with_reference_quick(case):
    if case == "quick":
        check_agreement(agreement_cases(6, 13)[4], QUICK_TWIN_GAMES, 704)
    else:
        check_agreement(agreement_cases(6, 13)[case], SLOW_REFERENCE_GAMES, 700 + case)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(12))
def test_kernel_agrees_with_reference(case):
    """12 more setups (each plan against each, every terrain, both movements, every --targets policy), on
    :data:`SLOW_REFERENCE_GAMES` each (1,500 until 2026-12-06)."""
    setup = agreement_cases(12, 2027)[case]
    check_agreement(setup, SLOW_REFERENCE_GAMES, 900 + case)


# ---------------------------------------------------------------------------
# (c) Sanity the book implies
# ---------------------------------------------------------------------------


def brawlers(skills: list[str]) -> P.Posse:
    """Five Pistol-armed models (a Hero, two Veterans, two Novices), each with ``skills``."""
    ranks = ["Hero", "Veteran", "Veteran", "Novice", "Novice"]
    data = {"posse": {"name": "Brawlers" + (" (skilled)" if skills else ""), "method": "advanced",
                      "dollar_limit": 1000},
            "model": [{"name": f"Brawler {i}", "rank": r, "weapons": ["Pistol"], "skills": list(skills)}
                      for i, r in enumerate(ranks)]}
    posse = P.posse_from_dict(data, "brawlers")
    P.check_posse(posse)
    return posse


def p_win_diff(x, y) -> tuple[float, float]:
    d = x["p_a_wins"] - y["p_a_wins"]
    return d, math.hypot(x.stderr("p_a_wins"), y.stderr("p_a_wins"))


def test_fighting_skills_make_a_brawler_posse_win_more():
    """Mean, Close Work and 'Ornery are Die Modifiers on Fight Tests ("Fighting Skills Table"): a brawling posse
    with them beats the same posse without them."""
    enemy = P.sample_posse(None)
    opts = table_options(plan_a="brawl", plan_b="brawl")  # both close, so Fights decide the battle
    skilled = B.battle(brawlers(["Mean", "Close Work", "'Ornery"]), enemy, opts, trials=20_000, seed=41)
    plain = B.battle(brawlers([]), enemy, opts, trials=20_000, seed=42)
    d, se = p_win_diff(skilled, plain)
    assert d > 5 * se, (d, se)
    assert skilled["fights_mean"] > 0 and skilled["p_b_fight_casualties"] > plain["p_b_fight_casualties"]


def test_hard_to_kill_is_worth_less_on_the_table():
    """On the table a Downed model can be finished off in a Fight ("Downed"), so standing up again at Recovery
    (Hard to Kill) saves fewer models than in the fixed-range firefight where nobody ever closes."""
    base = brawlers([])
    tough = brawlers(["Hard to Kill"])
    enemy = P.sample_posse(None)
    gains = {}
    for movement in ("table", "none"):
        opts = table_options(movement, plan_a="brawl", plan_b="brawl", range_="6")
        with_ = B.battle(tough, enemy, opts, trials=40_000, seed=51)
        without = B.battle(base, enemy, opts, trials=40_000, seed=52)
        gains[movement] = p_win_diff(with_, without)
    (dt, st), (dn, sn) = gains["table"], gains["none"]
    assert dn - dt > 5 * math.hypot(st, sn), gains


def test_vessel_fields_no_gun_but_fights():
    """The Vessel "will temporarily lose all their Weapons, Gear, and Horse" ("The Congregation"): its plan has no
    usable Weapon, it brawls (and casts Arcane Blast), and it takes part in Fights."""
    cong = P.sample_posse("congregation")
    r = B.battle(cong, P.sample_posse(None), table_options(), trials=20_000, seed=61)
    side = r.setup.a
    vessel = [i for i, mp in enumerate(side.models) if mp.model.is_vessel]
    assert len(vessel) == 1
    mp = side.models[vessel[0]]
    assert not any(w.usable for w in mp.weapons) and mp.dynamite == 0
    assert mp.style == "brawl" and mp.arcane_blast
    row = r.models[r.models["side"] == "a"].reset_index(drop=True).loc[vessel[0]]
    assert row["p_fought"] > 5 * row["p_fought_stderr"] > 0


def test_revenants_join_and_leave_with_their_boss():
    """D3+1 Revenants join a Dark Confederacy posse; "If your Boss ever becomes a Casualty in a game, then all
    Revenants will immediately revert to harmless corpses" ("The Dark Confederacy")."""
    dc = P.sample_posse("dark-confederacy")
    # its General casts only Faith Healing here (with Scry, Warding Circle): a General that Blesses or Summons every
    # Activation instead of Charging is seldom a Casualty, and the rule under test is what happens when the Boss is one
    general = replace(dc.models[0], powers=tuple(R.arcane_power(n) for n in ("Faith Healing", "Scry",
                                                                             "Warding Circle")))
    dc = replace(dc, models=(general,) + dc.models[1:])
    setup = B.prepare(dc, P.sample_posse(None), table_options(plan_a="brawl", plan_b="brawl"))
    assert setup.a.revenant is not None and setup.b.revenant is None
    counts = set()
    removed_with_boss = 0
    rng = random.Random(5)
    for _ in range(300):
        g = RT.TableGame(setup, rng)
        revenants = [m for m in g.sides[0] if m.revenant]
        counts.add(len(revenants))
        assert all(m.pm.rank is R.Rank.NOVICE and m.has("Fearsome") and m.has("Hard to Kill") for m in revenants)
        out = g.play()
        boss = next(m for m in g.sides[0] if m.plan.boss and not m.revenant)
        if boss.casualty:
            assert not any(m.on_table for m in revenants)
            removed_with_boss += 1
        assert out["vp"][1] <= sum(m.pm.rank.victory_points for m in g.posse[0])
    assert counts == {2, 3, 4}
    assert removed_with_boss > 0


def test_spotting_policy_with_hawkeye_changes_who_is_shot():
    """With Hawkeye's re-roll a posse passes most Spotting Tests: shooting the most dangerous enemy instead of the
    closest one ("1: Declare Weapon and Target") raises that enemy's chance of becoming a Casualty."""
    data = {"posse": {"name": "Hawkeyes", "method": "advanced", "dollar_limit": 1000},
            "model": [{"name": f"Eye {i}", "rank": r, "weapons": ["Carbine" if i < 2 else "Pistol"],
                       "skills": ["Hawkeye"]}  # "no more than two models may have the same Weapon, except Pistols"
                      for i, r in enumerate(["Hero", "Veteran", "Veteran", "Novice", "Novice"])]}
    eyes = P.posse_from_dict(data, "eyes")
    P.check_posse(eyes)
    enemy = P.sample_posse(None)
    figs = {}
    for t in ("closest", "most-dangerous"):
        r = B.battle(eyes, enemy, table_options(targets=t, plan_a="gunline", plan_b="gunline"), trials=20_000, seed=71)
        top = B.danger_order(r.setup.b)[0]
        row = r.models[r.models["side"] == "b"].reset_index(drop=True).loc[top]
        figs[t] = (row["p_casualty"], row["p_casualty_stderr"])
    (c, sc), (m, sm) = figs["closest"], figs["most-dangerous"]
    assert m - c > 5 * math.hypot(sc, sm), figs


@pytest.mark.parametrize("plan", PLANS)
def test_mirror_battle_is_fair(plan):
    """A posse against itself, both on the same plan, deployed in opposite corners: neither side is favoured."""
    a = P.sample_posse(None)
    r = B.battle(a, a, table_options(plan_a=plan, plan_b=plan, terrain="light"), trials=40_000, seed=81)
    assert abs(r["p_a_wins"] - r["p_b_wins"]) < 5 * math.hypot(r.stderr("p_a_wins"), r.stderr("p_b_wins"))
    assert abs(r["casualties_a"] - r["casualties_b"]) < 5 * math.hypot(r.stderr("casualties_a"),
                                                                        r.stderr("casualties_b"))
