"""Plain, slow, obviously-right reference of the table battle (``--movement table``; docs/shadows-battles.md).

The game of ``reference_battle.Game`` (cards, Activations, Events, Shooting, Damage, Recovery, Bottle Checks,
VP) played on a 36" table, written to be read line by line against the rulebook: "Deployment" and "Scenario 5:
Showdown" (deployment), "Move", "Other Models", "Charging Enemy Models", "Disengaging From Contact" (moving),
"1: Declare Weapon and Target" (targeting and the Spotting Test), "Cover" (terrain as a cover density), "Fight",
"Outnumbered", "Downed", the Fighting Skills Table and "Derringer" (Fights), "2: Make Recovery Tests" (a Friend
in Contact), "The Congregation" (the Vessel's Arcane Blast), "The Dark Confederacy" (Revenants), the "Horses and
Gear Summary" (Whiskey, Snake Oil), "Arcane Powers" with "Summoned Models", Summon and Banish, and "Lookout", "Declaring Reactions", "Resolving a Reaction" with
Bushwhacker (Lookout and Reactions).

Rule numbers come from ``oddsmith.rules.shadows`` (R) and model facts from the posse model (``plan.model``);
from the wrapper's plans only the policy facts are taken (weapon order, style, desired distance, danger order,
the per-band dice of each Weapon). Geometry: model centres in inches, distances with ``math.hypot``; every
model is a disc of its base's diameter (``R.base_inches``: a 25mm base 1", a rider's 40mm 1.6"); distances for rules
are edge to edge (the "gap"). The readings
taken where the spec leaves room are listed in KERNEL-NOTES.md (Q1...).
"""
from __future__ import annotations

import functools
import math
import operator
import random
from fractions import Fraction

import reference_battle as RB
from oddsmith.rules import shadows as R

EPS = 1e-6
"""Rounding of a distance: two models are in Contact when their bases' edges are at most this far apart, and a model
is "within" a distance (a range band, Charge reach, D*, a throw, a Power's range) when it is at most that far, both
up to EPS (a Move that stops exactly at a limit lands inside it, as the kernel reads it)."""


def slots(side: int) -> list[tuple[float, float]]:
    """Deployment slots of the Showdown corner zone, in the order models take them ("Deployment Zones").

    Centres 1", 3", 5", 7" in from the corner on both axes (2" apart), nearest the table centre first (ties:
    smaller x, then smaller y in posse A's frame); posse B's zone is the opposite corner, the same slots
    mirrored."""
    return list(_slots(side))


@functools.cache
def _slots(side: int) -> tuple[tuple[float, float], ...]:
    # worked out once per side: every reference game deploys, and the shooting checks build tens of thousands
    half = R.TABLE_INCHES / 2
    coords = [1 + 2 * k for k in range(R.DEPLOYMENT_ZONE_INCHES // 2)]
    cells = [(x, y) for x in coords for y in coords]
    cells.sort(key=lambda p: (math.hypot(p[0] - half, p[1] - half), p[0], p[1]))
    if side == 1:
        cells = [(R.TABLE_INCHES - x, R.TABLE_INCHES - y) for x, y in cells]
    return tuple(cells)


def clamp(v: float, m: TModel) -> float:
    """A model stays on the table: its centre at least its base's radius from every edge."""
    lo = m.radius
    return min(max(v, lo), R.TABLE_INCHES - lo)


@functools.lru_cache(maxsize=None)
def skill_name(name: str) -> str:
    """The book name of a Skill (the rules model's lookup, once per spelling)."""
    return R.skill(name).name


def _kept(name: str, work_out) -> property:
    """An attribute of a model that another depends on: setting it calls ``work_out(model)`` to work that one out
    again. The table asks for the dependent attribute millions of times a run and sets these seldom; reading this one
    is a plain read of ``_<name>`` (``operator.attrgetter``)."""
    slot = "_" + name

    def set_(model, value) -> None:
        setattr(model, slot, value)
        work_out(model)

    return property(operator.attrgetter(slot), set_)


def _work_out_radius(model) -> None:
    """Half its base's diameter in inches in the Form it is in (docs/shadows-battles.md section 11d)."""
    model.radius = radius_of(model.base_mm)


def _work_out_standing(model) -> None:
    """Standing: on the table and not Downed (as ``RB.Model.standing``)."""
    model.standing = model._on_table and not model._downed


class TModel(RB.Model):
    """A model on the table: its centre, and what this battle records of it."""

    def __init__(self, side: int, plan, index: int, revenant: bool = False):
        super().__init__(side, plan, dynamite=plan.dynamite)
        self.pm = plan.model  # its plan never changes: read as often as the radius
        self.index = index
        self.revenant = revenant
        self.x = 0.0
        self.y = 0.0
        self.fought = False
        self.derringer = any(g.name == "Derringer" for g in plan.model.battle_gear())
        self.fearsome_failed = False  # -1 Die on its Fight Tests for the rest of this Activation
        self.fearsome_tested = False
        self.skill_names = {sk.name for sk in plan.model.all_skills}
        gear = [g.name for g in plan.model.battle_gear()]
        self.whiskey = gear.count("Whiskey")  # bottles left: "This item is single-use"
        self.snake_oil = gear.count("Snake Oil")
        self.once_spent: set = set()  # Weapons (ids) whose once-per-game Sawn-Off shot is spent (a LeMat's)
        # a Vial of Nitro ("works exactly like a stick of Dynamite, and is one use only") and Blessed Water ("follows
        # all the rules for Dynamite except it only affects Supernatural models"): docs/shadows-battles.md section 11b
        self.nitro = int("Vial of Nitro" in gear)
        self.water = gear.count("Blessed Water")
        # the dice of its Lasso's Shooting Test in the open and in Cover, (0, 0): none (section 11c)
        self.lasso = tuple(getattr(plan, "lasso", (0, 0)))
        self.drunk_in_turn: int | None = None  # the Game Turn it drank Whiskey in
        self.lookout = False  # holds a Lookout Token ("Lookout")
        # Limp (Injury Table): "If on foot, the model can only make one Move Action per Activation" (no Horses here)
        self.limps = R.Injury.LIMP in plan.model.injuries
        self.moved = False  # made a Move Action this Activation
        self.summoned: str | None = None  # a Summoned Entity: its name ("Lesser Entity", ..., "Seraphim")
        self.profile = None  # R.Entity | None
        self.owner: TModel | None = None  # its Summoner
        # a Skinwalker whose plan plays its Beast Form ("The Skinwalker Tribes"); it "must begin each game in Human
        # Form"
        self.form: R.BeastForm | None = getattr(plan, "beast_form", None)
        self.beast = False
        # Mounted Models: it begins the game on its horse and rides until Downed (docs/shadows-battles.md section 11)
        self.mounted = not revenant and plan.model.mounted_move_inches is not None

    def has(self, skill: str) -> bool:
        return skill_name(skill) in self.skill_names

    @property
    def move_inches(self) -> float:
        """Its Move in the Form it is in: a Beast Form's ("Wolf Form. Moves 6""; a Bear the book's 4", no
        Boilerplate: no Gear in a Beast Form), else the model's own."""
        if self.beast:
            return float(self.form.move_inches)
        if self.mounted:
            return self.pm.mounted_move_inches  # "A model on horseback moves 6"" (an Appaloosa 8"), Boilerplate -1"
        return self.pm.move_inches

    @property
    def boilerplate(self) -> bool:
        """Its Boilerplate cancels a Success: not in a Beast Form ("cannot use any Weapons or Gear")."""
        return self.pm.boilerplate and not self.beast

    @property
    def base_mm(self) -> int:
        """Its base: a Beast Form's 40mm, an Entity's own, else 25mm (the bear-hug compares them)."""
        if self.beast:
            return self.form.base_mm
        if self.mounted:
            return R.MOUNTED_BASE_MM  # "Mounted models have a 40mm diameter base"
        return self.profile.base_mm if self.profile is not None and self.profile.base_mm else 25

    # what its base depends on: setting one works out ``radius`` again
    _beast, _mounted, _profile = False, False, None  # until __init__ sets them
    beast = _kept("beast", _work_out_radius)
    mounted = _kept("mounted", _work_out_radius)
    profile = _kept("profile", _work_out_radius)
    # what standing depends on: setting one works out ``standing`` again, a plain attribute here (the table asks
    # millions of times a run; RB.Model works it out at every read)
    _on_table, _downed, standing = True, False, True
    on_table = _kept("on_table", _work_out_standing)
    downed = _kept("downed", _work_out_standing)
    pm = None  # a plain attribute here too, set by __init__ (RB.Model reads it through its plan)


@functools.cache
def radius_of(base_mm: int) -> float:
    """Half a base's diameter in inches; the table asks millions of times, for two or three bases."""
    return R.base_inches(base_mm) / 2


def dist(a: TModel, b: TModel) -> float:
    return math.hypot(a.x - b.x, a.y - b.y)


# gap and in_contact measure with math.hypot themselves: the table asks them millions of times a run
def gap(a: TModel, b: TModel) -> float:
    """Edge to edge ("Measuring"): centre distance less both radii, never below 0."""
    d = math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius
    return d if d > 0 else 0.0


def in_contact(a: TModel, b: TModel) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) <= a.radius + b.radius + EPS


class TableGame(RB.Game):
    """One game on the table (the spec of record: docs/shadows-battles.md, "The table battle")."""

    def __init__(self, setup, rng: random.Random):
        super().__init__(setup, rng)
        o = self.o
        # the chance a Line of Fire is in Cover, drawn per shot per candidate (a policy: B.TERRAINS, --terrain)
        self.cover_density = float(o.terrain)
        self.styles = [setup.a.plan, setup.b.plan]
        self.fights = 0
        self.fight_cas = [0, 0]  # Casualties each side suffered from Fights
        self.in_fight = False
        self.bear_hug = False  # the Fight being resolved is a Bear's bear-hug
        self.good_shot = None  # (thrower, Lookout model, Weapon): a shooter waiting for this Action's Dynamite throw
        self.turn = 0
        # Showdown: each side deploys in its corner zone, models in Activation order taking the slots in order
        for s in (0, 1):
            for slot, i in zip(slots(s), self.order[s]):
                self.sides[s][i].x, self.sides[s][i].y = slot
        # "Summoned models are part of the Summoner's Posse": a side with a Summoner has its Lesser, Minor and Major
        # Entity waiting off the table, after the posse (and its Revenants) in its Activation order
        for s, side in enumerate((setup.a, setup.b)):
            for plan in getattr(side, "entities", ()):
                e = self.new_model(s, len(self.sides[s]), plan)
                e.summoned = plan.summoned
                e.profile = plan.model.profile  # the Entity's profile: common, or a unique Summoning
                e.on_table = False
                self.sides[s].append(e)
                self.order[s].append(e.index)
        self.rank_in_order = [{i: k for k, i in enumerate(self.order[s])} for s in (0, 1)]
        self.in_order = [[self.sides[s][i] for i in self.order[s]] for s in (0, 1)]  # the order is set for the game

    def new_model(self, side: int, index: int, plan, revenant: bool = False) -> TModel:
        return TModel(side, plan, index, revenant)

    # -- who is where ---------------------------------------------------------
    def enemies(self, m: TModel) -> list[TModel]:
        """The enemy models on the table, in their Activation order."""
        return [e for e in self.in_order[1 - m.side] if e.on_table]

    def friends(self, m: TModel) -> list[TModel]:
        return [f for f in self.sides[m.side] if f.on_table and f is not m]

    def contacts(self, m: TModel) -> list[TModel]:
        return [e for e in self.enemies(m) if in_contact(m, e)]

    def engaged(self, m: TModel) -> bool:
        """In a Fight: in Contact with a standing enemy (KERNEL-NOTES Q3)."""
        for e in self.sides[1 - m.side]:
            if e.standing and in_contact(m, e):  # standing: on the table
                return True
        return False

    def pos_in_order(self, m: TModel) -> int:
        return self.rank_in_order[m.side][m.index]

    def closest(self, m: TModel, models: list[TModel]) -> TModel | None:
        """The closest of ``models`` by gap, ties by Activation order; gaps within EPS of the smallest are ties
        (KERNEL-NOTES Q36: two gun models that closed to exactly D* of this model are equally close)."""
        if not models:
            return None
        gaps = [gap(m, e) for e in models]
        nearest = min(gaps)
        return min((e for e, g in zip(models, gaps) if g <= nearest + EPS), key=self.pos_in_order)

    # -- Moving ("Move", "Other Models", "Charging Enemy Models", "Disengaging From Contact") -------------------
    def move_towards(self, m: TModel, tx: float, ty: float, inches: float, ignore: tuple = ()) -> None:
        """Move straight toward (tx, ty) by up to ``inches``, stopping where the gap to an enemy not Downed would fall
        below 1" ("Other Models"; ``ignore``: the Charge's Target, the models Disengaged from)."""
        dx, dy = tx - m.x, ty - m.y
        length = math.hypot(dx, dy)
        if length <= 0 or inches <= 0:
            return
        ux, uy = dx / length, dy / length
        t_max = min(inches, length)
        if m.pm.flying and R.FLYING_IGNORES_OTHER_MODELS and not m.mounted:  # a rider follows the Mounted rules
            self.fly(m, ux, uy, t_max, [e for e in self.enemies(m) if e.standing and e not in ignore])
            return
        for e in self.enemies(m):
            if not e.standing or e in ignore:
                continue
            keep = m.radius + e.radius + R.ENEMY_CLEARANCE_INCHES  # centre distance of a 1" gap
            wx, wy = m.x - e.x, m.y - e.y
            along = wx * ux + wy * uy  # d/dt of |w + t u|^2 / 2 at t = 0
            start = math.hypot(wx, wy)
            if start < keep:
                if along < 0:  # already nearer than 1": it may not come any closer (KERNEL-NOTES Q4)
                    t_max = 0.0
                continue
            # first t >= 0 with |w + t u| = keep: t^2 + 2 along t + |w|^2 - keep^2 = 0
            disc = along * along - (start * start - keep * keep)
            if disc < 0:
                continue
            t_hit = -along - math.sqrt(disc)
            if 0 <= t_hit < t_max:
                t_max = t_hit
        m.x = clamp(m.x + ux * t_max, m)
        m.y = clamp(m.y + uy * t_max, m)
        for e in self.contacts(m):
            if e.lookout:  # "if an enemy model Moves into Contact with it"
                self.lose_lookout(e)

    def fly(self, m: TModel, ux: float, uy: float, t_max: float, enemies: list) -> None:
        """A Flying model's Move ("may ignore all other models ... as they Move"): the whole way, unless it would end
        closer than 1" to one of ``enemies``; then it ends where its path enters that enemy's 1", and so on. No nearer
        to an enemy it starts within 1" of."""
        def keep(e):  # centre distance of a 1" gap
            return m.radius + e.radius + R.ENEMY_CLEARANCE_INCHES

        for e in enemies:
            if math.hypot(m.x - e.x, m.y - e.y) <= keep(e) and (m.x - e.x) * ux + (m.y - e.y) * uy < 0:
                t_max = 0.0

        def inside(e, t):  # the points of the path within e's 1" (not those it started within)
            return (math.hypot(m.x - e.x, m.y - e.y) > keep(e)
                    and math.hypot(m.x + ux * t - e.x, m.y + uy * t - e.y) < keep(e))

        moved = True
        while moved and t_max > 0:
            moved = False
            for e in enemies:
                if inside(e, t_max):
                    wx, wy = m.x - e.x, m.y - e.y
                    along = wx * ux + wy * uy
                    enters = -along - math.sqrt(max(along * along - (wx * wx + wy * wy - keep(e) ** 2), 0.0))
                    if enters < t_max:
                        t_max, moved = enters, True
        m.x = clamp(m.x + ux * t_max, m)
        m.y = clamp(m.y + uy * t_max, m)
        for e in self.contacts(m):
            if e.lookout:
                self.lose_lookout(e)

    def resize(self, m: TModel, was: float) -> None:
        """Its base changed from radius ``was`` (off its horse, into or out of a Beast Form; docs/shadows-battles.md
        section 11d): the new model stands where the old one stood; a smaller one that touched enemies on the table
        is placed still touching the first of them by index, its centre moved that way by the difference of the
        radii; then it is kept on the table."""
        if m.radius < was:
            touched = [e for e in self.enemies(m) if e.on_table and dist(m, e) <= was + e.radius + EPS]
            if touched:
                e = min(touched, key=lambda e: e.index)
                d = dist(m, e)
                if d > 1e-12:
                    m.x += (e.x - m.x) / d * (was - m.radius)
                    m.y += (e.y - m.y) / d * (was - m.radius)
        m.x, m.y = clamp(m.x, m), clamp(m.y, m)

    def charge(self, m: TModel, target: TModel) -> bool:
        """A Move into Contact with an enemy seen at the start: placed on the line between the centres, its base
        touching the Target's, then a free Fight with +1 Die for Charging. False if another enemy stopped it short."""
        drinks = self.drinks_when_charging(m, target)
        d = dist(m, target)
        ux, uy = (target.x - m.x) / d, (target.y - m.y) / d
        touch = m.radius + target.radius
        self.move_towards(m, target.x - ux * touch, target.y - uy * touch, m.move_inches, ignore=(target,))
        if not in_contact(m, target):
            return False
        if drinks:
            self.drink(m)  # on the way, as part of the Charge's Move: 1" of it
        self.fight(m, target, charging=True)
        return True

    def disengage(self, m: TModel) -> None:
        """A Move started in Contact with standing enemies: a 1 Die Disengage Test; on a Failure a 5+ Save for each
        of them first (by model index); then 4" straight away from their centroid."""
        engaged = [e for e in self.contacts(m) if e.standing]
        score = self.test(m, R.TESTS[R.TestKind.DISENGAGE].base_dice)[0]
        if not R.is_success(score):
            for e in sorted(engaged, key=lambda e: e.index):
                if m.on_table:
                    self.save(m, R.DISENGAGE_FAIL_SAVE, 0, e.side)
        if not m.standing:
            return
        cx = sum(e.x for e in engaged) / len(engaged)
        cy = sum(e.y for e in engaged) / len(engaged)
        d = math.hypot(m.x - cx, m.y - cy)
        ux, uy = (m.x - cx) / d, (m.y - cy) / d
        tx = clamp(m.x + ux * m.move_inches, m)
        ty = clamp(m.y + uy * m.move_inches, m)
        self.move_towards(m, tx, ty, m.move_inches, ignore=tuple(engaged))

    # -- Targeting ("1: Declare Weapon and Target") and Shooting on the table -------------------------------------
    @staticmethod
    def band_shot(wp, g: float):
        """The Weapon's band at gap ``g`` (<= Short edge Short, <= Medium Medium, <= Long Long), or None."""
        for bs in wp.bands:
            if g <= bs.edge_inches + EPS:
                return bs
        return None

    def each_candidate(self, m: TModel, reach):
        """Enemies that may be Shot at, one by one in Activation order: not Downed, not in a Fight, within
        ``reach(gap)`` (Dust Storm: 12")."""
        short = self.sees_short(m)
        for e in self.enemies(m):
            if not e.standing:
                continue
            g = gap(m, e)
            if short and g > R.DUST_STORM_VISIBILITY + EPS:
                continue
            if reach(g) and not self.engaged(e):
                yield e

    def candidates(self, m: TModel, reach) -> list[TModel]:
        return list(self.each_candidate(m, reach))

    def weapon_candidates(self, m: TModel, wp) -> list[TModel]:
        return self.candidates(m, lambda g: self.band_shot(wp, g) is not None)

    def preferred(self, cands: list[TModel]) -> TModel | None:
        """The Target the ``--targets`` policy would rather shoot (as the fixed-range game ranks them)."""
        t = self.o.targets
        if t == "closest" or not cands:
            return None
        if t == "boss":
            return next((e for e in cands if e.plan.boss), None)
        if t == "weakest":
            return min(cands, key=lambda e: (e.grit_die() * 4 + e.pm.save_modifier - (1 if e.shaken else 0)))
        return cands[0]  # most-dangerous: candidates are in Activation (danger) order

    def spotting_pass(self, m: TModel) -> bool:
        """A 1 Die Spotting Test; Hawkeye re-rolls a Failure."""
        return RB.successes(self.test(m, R.SPOTTING_TEST_DICE, int(m.has(R.SPOTTING_REROLL_SKILL)))) > 0

    def choose_target(self, m: TModel, wp, may_spot: bool):
        """(Target, BandShot, in Cover) of one shot, None if no candidate, or "wasted" after a failed Spotting Test.

        The legal Target is the closest candidate unless a more distant one is easier (more Shooting dice this
        shot, its Cover drawn now). The ``--targets`` policy's preferred other Target: on a 40mm base ("so large
        that they can always be Targeted") it is shot with no Test when its shot has the legal Target's dice; on a
        smaller one after a passed Spotting Test, taken (on an Action's first shot) when the chance to pass is at
        least 1/2. Without a Test the policy picks among the legal Target and the 40mm ones with as many dice."""
        cands = self.weapon_candidates(m, wp)
        if not cands:
            return None
        shot = {}
        for e in cands:
            bs = self.band_shot(wp, gap(m, e))
            covered = self.rng.random() < self.cover_density
            shot[e.index] = (bs, covered, self.shoot_dice(m, bs.dice_cover if covered else bs.dice))
        most = max(shot[e.index][2] for e in cands)
        legal = self.closest(m, [e for e in cands if shot[e.index][2] == most])  # the easiest, then the closest
        target = legal
        pref = self.preferred(cands)
        big = {e.index for e in cands if e.base_mm >= R.ALWAYS_TARGETED_BASE_MM and shot[e.index][2] == most}
        if pref is not None and pref is not legal:
            if pref.base_mm >= R.ALWAYS_TARGETED_BASE_MM:
                if pref.index in big:  # "so large that they can always be Targeted": no Test, at the legal Target's dice
                    target = pref
            elif may_spot and R.spotting_pass_chance(m.grit_die(), m.has(R.SPOTTING_REROLL_SKILL)) >= Fraction(1, 2):
                if not self.spotting_pass(m):
                    return "wasted"
                target = pref
            if target is legal:  # no Test: the policy's pick among the legal Target and the 40mm ones as easy
                pick = self.preferred([e for e in cands if e is legal or e.index in big])
                target = legal if pick is None else pick
        bs, covered, _ = shot[target.index]
        return target, bs, covered

    def fire(self, m: TModel, wp, shots: int, may_spot: bool, once_ok: bool = True) -> bool:
        """``shots`` shots of one Weapon, each choosing its Target afresh. False if the Action was wasted. A LeMat
        ("Once per game, may Shoot as a Sawn-Off Shotgun"; not as one of a Gunslinger's pair: ``once_ok``) fires its
        corridor instead when the corridor at the Target holds two enemies or more and no friend (policy, section
        4a)."""
        for k in range(shots):
            if not m.standing:
                return True
            chosen = self.choose_target(m, wp, may_spot and k == 0)
            if chosen is None:
                return True
            if chosen == "wasted":
                return False
            victim, bs, _covered = chosen
            if getattr(wp, "corridor", 0):
                self.corridor(m, wp.corridor, victim)
                continue
            once = getattr(wp, "once_corridor", 0)
            if once and once_ok and id(wp) not in m.once_spent and self.once_pays(m, once, victim):
                m.once_spent.add(id(wp))
                self.corridor(m, once, victim)
                continue
            faces = self.test(m, self.shoot_dice(m, bs.dice_cover if _covered else bs.dice))
            hits = RB.successes(faces)
            if hits == 0:
                if 1 in faces and self.jams(m, next(w for w in m.pm.battle_weapons() if w.name == wp.name).jam_die):
                    m.jammed.add(id(wp))
                    return True
                continue
            if victim.boilerplate:
                hits -= R.BOILERPLATE_CANCELS
            if hits <= 0:
                continue
            modifier = bs.save_mod + (wp.silver if victim.pm.supernatural else 0)
            self.save(victim, R.save_target(hits), modifier, m.side)
        return True

    def beside_line(self, m: TModel, reach: float, victim: TModel) -> list:
        """(squared distance from m, model, under the line) of every potential victim of m's corridor at ``victim``,
        as far as ``reach`` inches: "Any visible model besides the Shooter — friend or foe — within 1" of the
        line"."""
        d = dist(m, victim)
        ux, uy = (victim.x - m.x) / d, (victim.y - m.y) / d
        near = []
        for x in (x for side in self.sides for x in side):
            if x is m or not x.on_table:
                continue
            dx, dy = x.x - m.x, x.y - m.y
            along, off = dx * ux + dy * uy, abs(dx * uy - dy * ux)
            if 0 <= along <= reach + m.radius + x.radius + 1e-9 and off <= R.FIRE_CORRIDOR_HALF_WIDTH + x.radius + 1e-9:
                near.append((dx * dx + dy * dy, x, off <= x.radius + 1e-9))
        return near

    def once_pays(self, m: TModel, reach: float, victim: TModel) -> bool:
        """Policy (section 4a): the corridor reaches the Target and holds two enemies or more and no friend."""
        if gap(m, victim) > reach + 1e-9:
            return False
        near = [x for _, x, _ in self.beside_line(m, reach, victim)]
        return not any(x.side == m.side for x in near) and sum(x.side != m.side for x in near) >= 2

    def corridor(self, m: TModel, reach: float, victim: TModel) -> None:
        """"Fire Corridors": "imagine a straight line extending directly forwards the full Range of the Weapon from
        the centre of the Shooter's base and on through the centre of the Target's" (the Range measured edge to edge,
        as every range: centres along the line up to Range plus one base). "Any visible model besides the Shooter —
        friend or foe — within 1" of the line is a potential victim. A model whose base lies under the line is Hit
        automatically. For every potential victim within 1" of the line the Shooter rolls one Grit Die, working from
        closest model to most distant. On a Success, that model is also Hit. All models that were Hit must make a 5+
        Save."""
        near = self.beside_line(m, reach, victim)
        near.sort(key=lambda v: v[0])  # "from closest model to most distant" (stable: side, then model order)
        hit = [x for _, x, under in near if under or R.is_success(self.rng.randint(1, m.grit_die()))]
        for x in hit:
            if x.on_table:
                self.save(x, R.FIRE_CORRIDOR_SAVE, 0, m.side if x.side != m.side else None)

    def good_shot_at(self, m: TModel, e: TModel, w, kind: str = "dynamite") -> bool:
        """"Good Shot!": Lookout model ``e`` Shoots the stick in thrower ``m``'s hand, "a normal Shooting Attack, with
        no Spotting Test required", "a -1 Die Modifier for firing at such a small object" (its shots until one Hits;
        Cover per shot; Jamming). A Hit: "the Dynamite explodes centred on the thrower", every model whose centre is
        within 3" of it makes the 7+ Save (the blast credited to ``e``'s side). Then ``e``'s Lookout Token goes
        (Bushwhacker may keep it). True if the stick went off."""
        bs = self.band_shot(w, gap(e, m))
        hit = False
        for _ in range(w.shots):
            covered = self.rng.random() < self.cover_density
            faces = self.test(e, max((bs.dice_cover if covered else bs.dice) + R.GOOD_SHOT_DICE, 0))
            if RB.successes(faces) > 0:
                hit = True
                break
            if 1 in faces and self.jams(e, next(x for x in e.pm.battle_weapons() if x.name == w.name).jam_die):
                e.jammed.add(id(w))
                break
        if hit:
            self.use_throw(m, kind)
            self.blast(m.x, m.y, e.side, holy=kind == "water")
        self.reaction_done(e)
        return hit

    def blast(self, px: float, py: float, side: int | None, holy: bool = False) -> None:
        """Dynamite explodes at (px, py) ("Ka-Boom!"): every model whose centre is within 3" makes a 7+ Save, its
        Casualties credited to ``side`` (None: nobody) when they are enemies of it. ``holy``: Blessed Water, which
        "only affects Supernatural models. Other models simply get a bit of a soaking" (a horse among them)."""
        caught = [x for s in self.sides for x in s
                  if x.on_table and math.hypot(x.x - px, x.y - py) <= R.DYNAMITE_BLAST_RADIUS + 1e-9
                  and (not holy or x.pm.supernatural)]
        for x in caught:
            if x.on_table:
                self.save(x, R.DYNAMITE_BLAST_SAVE, 0, side if x.side != side else None)
            # "A mounted model that is caught in the blast makes two Saves, on behalf of both horse and rider" (the
            # rider's first); the horse, a Novice, "immediately becomes a Casualty should it Fail any Save", and "If a
            # horse becomes a Casualty, any model riding it ... must then make a 5+ Save"
            if x.on_table and x.mounted and not holy and self.rng.randint(1, R.HORSE_GRIT_DIE) < R.DYNAMITE_BLAST_SAVE:
                was = x.radius
                x.mounted = False
                self.resize(x, was)
                self.save(x, R.HORSE_RIDER_SAVE, 0, side if x.side != side else None)

    def save(self, victim, needed: int, modifier: int, credit: int | None) -> int:
        """A Save, then the Vial of Nitro: "if the user ever fails a Save with a score of 1 or 2, the Nitro
        immediately explodes with the blast centred over them" (the score as modified: "a score of 5 actually counts
        as a 4"), after the Save's Damage, credited as the Damage is."""
        score = super().save(victim, needed, modifier, credit)
        # a modifier may take the score below 1: it counts as 1 or 2 all the more (docs section 11b)
        if getattr(victim, "nitro", 0) and score < needed and score <= max(R.VIAL_OF_NITRO_EXPLODES_ON):
            victim.nitro = 0
            self.blast(victim.x, victim.y, credit)
        return score

    def use_throw(self, m: TModel, kind: str) -> None:
        if kind == "nitro":
            m.nitro = 0
        elif kind == "water":
            m.water -= 1
        else:
            m.dynamite -= 1

    def throw_dynamite_at(self, m: TModel, victim: TModel, kind: str = "dynamite") -> None:
        """A stick thrown at the Target's centre (a Vial of Nitro, Blessed Water alike): an unmodified 1 Die Shooting
        Test; a Failure scatters D6" along the thrower-Target line or lands on the thrower; every model near the blast
        point makes a 7+ Save (Blessed Water: every Supernatural one)."""
        self.use_throw(m, kind)
        outcome = R.dynamite_throw(self.test(m, 1)[0])  # "an unmodified 1 Die Shooting Test"
        px, py = victim.x, victim.y
        d = dist(m, victim)
        ux, uy = (m.x - victim.x) / d, (m.y - victim.y) / d  # from the Target toward the thrower
        if outcome is R.DynamiteOutcome.DUD:
            return
        if outcome is R.DynamiteOutcome.ON_THROWER:
            px, py = m.x, m.y
        elif outcome is R.DynamiteOutcome.TOWARDS_THROWER:
            k = self.rng.randint(1, R.DYNAMITE_SCATTER_DIE)
            px, py = victim.x + ux * k, victim.y + uy * k
        elif outcome is R.DynamiteOutcome.AWAY_FROM_THROWER:
            k = self.rng.randint(1, R.DYNAMITE_SCATTER_DIE)
            px, py = victim.x - ux * k, victim.y - uy * k
        self.blast(px, py, m.side, holy=kind == "water")

    # -- The Lasso ("Horses and Gear Summary": Lasso; "And Falling"), section 11c ---------------------------------
    def lasso_target(self, m: TModel) -> TModel | None:
        """The closest enemy rider that may be Shot at within the Lasso's 6" (ties: Activation order), if the model
        has a Lasso in hand (not in a Beast Form). A rider's 40mm base "can always be Targeted"."""
        if not m.lasso[0] or m.beast:
            return None
        riders = [e for e in self.candidates(m, lambda g: g <= R.LASSO_RANGE + EPS) if e.mounted]
        return self.closest(m, riders)

    def throw_lasso(self, m: TModel, victim: TModel) -> None:
        """"As a Shoot Action, the user can throw the Lasso up to 6" at an enemy model — this Attack is not modified
        for Range (though other modifiers will apply). If the Target fails their Save they suffer no Damage, but are
        instead dragged 1" directly towards the Lasso thrower in a straight line for each Success the attacker
        scored. ... if the Target model is on a larger base than the user, then the maximum distance it can be
        dragged is 1". A model can be dragged off a horse ... and counts as falling"."""
        covered = self.rng.random() < self.cover_density
        hits = RB.successes(self.test(m, self.shoot_dice(m, m.lasso[1] if covered else m.lasso[0])))
        if victim.boilerplate:
            hits -= R.BOILERPLATE_CANCELS   # "cancels one Success rolled by the Shooter each time it suffers a
        if hits <= 0:                       # Shooting Attack"
            return
        needed = R.save_target(hits)
        score = self.save_score(victim, needed, 0)
        if score >= needed:
            return
        if victim.nitro and score <= max(R.VIAL_OF_NITRO_EXPLODES_ON):   # "fails a Save with a score of 1 or 2"
            victim.nitro = 0
            self.blast(victim.x, victim.y, m.side)
            if not victim.on_table:
                return
        pull = hits * R.LASSO_DRAG_INCHES_PER_SUCCESS
        if victim.base_mm > m.base_mm:
            pull = min(pull, R.LASSO_LARGER_BASE_MAX_DRAG_INCHES)
        d = dist(m, victim)
        pull = min(pull, d - m.radius - victim.radius)   # it halts in Contact with the thrower
        if pull > 0:
            victim.x += (m.x - victim.x) / d * pull
            victim.y += (m.y - victim.y) / d * pull
        if victim.mounted:
            was = victim.radius
            victim.mounted = False   # dragged off its horse: it "counts as falling" (a 5+ Save)
            self.resize(victim, was)
            self.save(victim, R.LASSO_HORSE_FALL_SAVE, 0, m.side)

    def ready(self, m: TModel, wp) -> bool:
        """Not Jammed, and not in a Beast Form ("cannot use any Weapons or Gear")."""
        return wp.usable and id(wp) not in m.jammed and not m.beast

    def shoot_options(self, m: TModel, fired: set, again: list) -> list:
        """The Weapons this Shoot Action could fire now, best first (not fired this Activation, or Trigger-Happy's
        second shot), each with a candidate in reach."""
        gunslinger = m.has("Gunslinger")
        out = []
        for w in m.plan.weapons:
            if not self.ready(m, w) or not w.bands:
                continue
            if id(w) in fired and not (m.has("Trigger-Happy") and not gunslinger and not again):
                continue
            if next(self.each_candidate(m, lambda g, w=w: self.band_shot(w, g) is not None), None) is not None:
                out.append(w)  # it has a candidate in reach
        return out

    def throw_choice(self, m: TModel) -> tuple[str | None, TModel | None]:
        """What a Shoot Action throws, and at whom: the closest candidate within 8"; Blessed Water if it is
        Supernatural and the model carries some, else the Vial of Nitro, else a stick of Dynamite (policy, docs section
        11b); (None, None): nothing to throw."""
        if m.dynamite + m.nitro + m.water <= 0 or m.beast:
            return None, None
        victim = self.closest(m, self.candidates(m, lambda g: g <= R.DYNAMITE_THROW_INCHES + EPS))
        if victim is None:
            return None, None
        if m.water and victim.pm.supernatural:
            return "water", victim
        if m.nitro:
            return "nitro", victim
        if m.dynamite:
            return "dynamite", victim
        return None, None

    def dynamite_target(self, m: TModel) -> TModel | None:
        return self.throw_choice(m)[1]

    def can_shoot(self, m: TModel, fired: set, again: list) -> bool:
        return self.dynamite_target(m) is not None or bool(self.shoot_options(m, fired, again))

    def shoot(self, m: TModel, fired: set, again: list) -> None:
        """One Shoot Action: Dynamite when a Target is within 8", else Gunslinger's two Pistols, else the best
        Weapon that has a candidate (its shots, Trigger-Happy's second shot)."""
        kind, victim = self.throw_choice(m)
        if victim is not None:
            waiting, self.good_shot = self.good_shot, None
            if waiting is not None and waiting[0] is m and self.good_shot_at(m, waiting[1], waiting[2], kind):
                return  # the stick went off in the thrower's hand
            self.throw_dynamite_at(m, victim, kind)
            return
        if m.has("Gunslinger"):
            pistols = [w for w in m.plan.weapons if w.pistol and self.ready(m, w) and id(w) not in fired][:2]
            if len(pistols) == 2 and any(self.weapon_candidates(m, w) for w in pistols):
                for w in pistols:
                    fired.add(id(w))
                first = True
                for w in pistols:
                    if not self.fire(m, w, 1, first, once_ok=False):   # no LeMat corridor in a Gunslinger's pair
                        return  # a failed Spotting Test loses the second Pistol too
                    first = False
                return
        options = self.shoot_options(m, fired, again)
        if not options:
            return
        w = options[0]
        if id(w) in fired:
            again.append(True)
        fired.add(id(w))
        self.fire(m, w, w.shots, True)

    # -- Fights ("Fight", "Outnumbered", "Downed", Fighting Skills Table, "Derringer") ------------------------
    def outnumbered_by(self, m: TModel) -> int:
        """-1 Die per unengaged enemy in Contact after the first (KERNEL-NOTES Q2)."""
        unengaged = 0
        for e in self.contacts(m):
            if not e.standing:
                continue
            if any(f.standing and in_contact(f, e) for f in self.friends(m)):
                continue  # engaged by another model of this side
            unengaged += 1
        return max(0, unengaged - 1)

    def close_work_pistols(self, m: TModel) -> int:
        if not any(s.close_work for s in m.pm.all_skills) or m.beast:
            return 0
        # every Pistol-Class Weapon it carries into the game (two Pistols are two), less the Jammed ones
        used = {w.name: w for w in m.pm.battle_weapons()}
        carried = [used[w.name] for w in m.pm.weapons if w.name in used]
        pistols = sum(1 for w in carried if w.weapon_class is R.WeaponClass.PISTOL)
        jammed = sum(1 for w in m.plan.weapons if id(w) in m.jammed and used.get(w.name) is not None
                     and used[w.name].weapon_class is R.WeaponClass.PISTOL)
        return pistols - jammed

    def fight_dice(self, m: TModel, charging: bool, fearsome_failed: bool, attacking: bool = False) -> int:
        pistols = self.close_work_pistols(m)
        derringer = m.derringer and pistols < R.CLOSE_WORK_MAX_PISTOLS and not m.beast
        if derringer:
            m.derringer = False  # once per game: its first Fight Test
        return R.fight_dice(charging=charging, outnumbered_by=self.outnumbered_by(m), skills=m.pm.all_skills,
                            injuries=m.pm.injuries, derringer=derringer, close_work_pistols=pistols,
                            fearsome_failed=fearsome_failed,
                            wolf_form_attacking=attacking and m.beast and m.form.attack_dice > 0)

    def fearsome(self, m: TModel) -> bool:
        """The Skill, or a Beast Form ("It gains Fearsome")."""
        return m.beast or any(s.fearsome for s in m.pm.all_skills)

    def fight(self, att: TModel, dfn: TModel, charging: bool = False) -> None:
        """One Fight: a Downed Defender is removed as a Casualty; else both make a 3 Dice Fight Test and the loser
        Saves against the margin as against a shot's Successes."""
        self.fights += 1
        att.fought = dfn.fought = True
        if not dfn.standing:
            self.in_fight = True
            self.remove_casualty(dfn, att.side)  # "the Downed model is immediately removed as a Casualty"
            self.in_fight = False
            return
        if self.fearsome(dfn) and not self.fearsome(att) and not att.fearsome_tested:
            att.fearsome_tested = True
            if self.passes_nerve_tests(att):  # Whiskey
                att.fearsome_failed = False
            else:
                faces = self.test(att, R.FEARSOME_NERVE_DICE, int(att.has(R.NERVE_REROLL_SKILL)))
                att.fearsome_failed = RB.successes(faces) == 0
        a_dice = self.fight_dice(att, charging, att.fearsome_failed, attacking=True)
        if dfn.mounted and not att.mounted:  # "from horseback against a model on the ground": Fortified ("Fight")
            a_dice = R.dice_to_roll(a_dice, R.FightModifier.FORTIFIED.dice)   # never fewer than one die
        d_dice = self.fight_dice(dfn, False, False)
        a = self.test(att, a_dice)
        d = self.test(dfn, d_dice)
        result, margin = R.fight_result(a, d)
        if result is R.FightResult.DRAW:
            return
        winner, loser = (att, dfn) if result is R.FightResult.ATTACKER_WINS else (dfn, att)
        modifier = 0
        if winner is att and charging and winner.has("Bull-Rush"):
            modifier += R.BULL_RUSH_SAVE_MODIFIER
        if winner.beast:
            # Bear Form: "If this model wins a Fight, its opponent suffers a -1 Save Modifier. In addition, when
            # Fighting an opponent on a smaller base, if the Skinwalker wins by two or more ... it treats the Damage
            # result as one worse" (no Woodsman's Axe: no Weapons in a Beast Form)
            modifier += winner.form.win_save_modifier
            hug = winner.form.bear_hug_margin
            self.bear_hug = hug is not None and margin >= hug and loser.base_mm < winner.base_mm
        else:
            modifier += sum(w.fight_save for w in winner.pm.battle_weapons() if getattr(w, "fight_save", None))
        self.in_fight = True
        self.save(loser, R.save_target(margin), modifier, winner.side)
        self.in_fight = False
        self.bear_hug = False

    def defender(self, m: TModel) -> TModel | None:
        """The standing enemy in Contact with the lowest Grit die (ties: lower index); a Downed one only if no
        standing enemy is in Contact ("Downed")."""
        touching = self.contacts(m)
        standing = [e for e in touching if e.standing]
        if standing:
            return min(standing, key=lambda e: (e.grit_die(), e.index))
        return min(touching, key=lambda e: e.index) if touching else None

    # -- Damage: Casualty bookkeeping of the table -------------------------------------------------------------
    def damage(self, victim: TModel, failed_by: int, credit: int | None) -> None:
        if victim.lookout:  # Shaken, Downed or a Casualty: the Lookout Token is lost
            self.lose_lookout(victim)
        result = R.damage_for(failed_by)
        if self.bear_hug:
            result = result.worse()  # the Bear's bear-hug
        if result is R.Damage.CASUALTY:
            self.remove_casualty(victim, credit)
        elif result is R.Damage.DOWNED or victim.shaken:
            victim.downed = True  # Shaken again: Downed
        else:
            victim.shaken = True
        if not victim.standing:
            self.caster_out(victim)
            was = victim.radius
            victim.beast = False  # "If Downed, it reverts to Human Form immediately"
            victim.mounted = False  # "A rider that is Downed is forcibly dismounted ... their horse immediately flees"
            if victim.on_table:
                self.resize(victim, was)

    # -- Bless and Curse tokens (docs/shadows-battles.md section 12) -----------------------------------------------
    def test(self, m: TModel, n: int, extra_rerolls: int = 0, unmodified: bool = False) -> list[int]:
        """A Test of ``n`` dice by ``m`` on its Grit Die (Let There Be Light's -1 Die unless ``unmodified``: Arcane
        Blast's "unmodified 3 Dice Shooting Test"); its Bless or Curse token acts on it and goes ("the very next Test
        or Save it has to make, after which the token is removed")."""
        return RB.roll_test(self.rng, m.grit_die(), n if unmodified else self.dice(m, n), self.o.reading,
                            extra_rerolls, self.spend_token(m))

    def caster_out(self, caster: TModel) -> None:
        """"Should the Caster be Downed or become a Casualty, the effects of all Powers they have in play will end
        immediately."""
        for x in self.sides[0] + self.sides[1]:
            if x.token_by is caster:
                x.token, x.token_by = R.Blessing.NONE, None

    def recovery(self, s: int) -> bool:
        """"The effects of all Powers cease at the start of this Game Turn's Recovery Phase" (no token acts on a
        Recovery Test or a Bottle Check)."""
        for x in self.sides[0] + self.sides[1]:
            x.token, x.token_by = R.Blessing.NONE, None
        return super().recovery(s)


    # -- Plans: one Action of a model (gunline / brawl / balanced) -------------------------------------------
    def gun_action(self, m: TModel, fired: set, again: list, late: bool, second: bool = False) -> str | None:
        touching = self.contacts(m)
        if any(e.standing for e in touching):
            self.disengage(m)
            return "move"
        if touching:
            self.fight(m, self.defender(m))
            return "fight"
        downed = [e for e in self.enemies(m) if not e.standing and gap(m, e) <= m.move_inches + EPS
                  and not any(f.standing and in_contact(f, e) for f in self.friends(m))]
        if downed:
            self.charge(m, self.closest(m, downed))
            return "move"
        standing = [e for e in self.enemies(m) if e.standing]
        near = self.closest(m, standing)
        far = near is None or gap(m, near) > m.plan.desired_inches + EPS
        if (late or not far) and self.can_shoot(m, fired, again):
            self.shoot(m, fired, again)
            return "shoot"
        jammed = [w for w in m.plan.weapons if w.usable and id(w) in m.jammed]
        if jammed:
            m.jammed.discard(id(jammed[0]))  # a Move Action clears one Jammed Weapon
            return "move"
        if near is not None and far:
            if late and second and self.lookout_wanted(m, near):
                m.lookout = True  # Lookout instead of this Move: "the model is given a Lookout Token"
                return "lookout"
            self.move_towards(m, near.x, near.y, min(self.pace(m), gap(m, near) - m.plan.desired_inches))
            return "move"
        return None

    def pace(self, m: TModel) -> float:
        """Policy (docs/shadows-battles.md section 6, gun rule (6)): a posse's gun models advance together, at the
        Move of the slowest standing one (in Human Form); Revenants and Summoned Entities go at their own Move."""
        if m.revenant or m.summoned:
            return m.move_inches
        line = [f.move_inches for f in self.sides[m.side]
                if f.standing and not f.revenant and not f.summoned and f.plan.style == "gun" and not f.beast]
        return min([m.move_inches] + line)

    def brawl_action(self, m: TModel, fired: set, again: list, after_move: bool, last_after_first: bool = False,
                     late: bool = True) -> str | None:
        if self.contacts(m):
            self.fight(m, self.defender(m))
            return "fight"
        if m.plan.arcane_blast and self.arcane_blast(m):
            return "cast"
        reach = [e for e in self.enemies(m) if gap(m, e) <= m.move_inches + EPS]
        downed = [e for e in reach if not e.standing]
        if downed:
            self.charge(m, self.closest(m, downed))
            return "move"
        # section 11c: on an Action another follows, a rider within 6" is lassoed before the Charge
        victim = None if late else self.lasso_target(m)
        if victim is not None:
            self.throw_lasso(m, victim)
            return "shoot"
        if reach:
            self.charge(m, self.closest(m, reach))
            return "move"
        if after_move and self.shoot_options(m, fired, again):
            self.shoot(m, fired, again)
            return "shoot"
        near = self.closest(m, [e for e in self.enemies(m) if e.standing])
        if near is not None:
            if last_after_first and self.lookout_wanted_brawl(m, near):
                m.lookout = True  # Lookout instead of this Move
                return "lookout"
            self.move_towards(m, near.x, near.y, m.move_inches)
            return "move"
        return None

    def arcane_blast(self, m: TModel) -> bool:
        """The Vessel's Arcane Blast when an enemy candidate is within its range: a 3 Dice Casting Test against
        its Difficulty (a Miscast Shakes, or Downs a Shaken Caster), then an unmodified 3 Dice Shooting Test at the
        closest candidate in range; Save and Damage as a shot. False if no candidate (no Action taken)."""
        power = R.arcane_power("Arcane Blast")
        cands = self.candidates(m, lambda g: g <= power.range_inches + EPS)
        if not cands:
            return False
        if not self.casting_test(m, power.difficulty):
            return True
        victim = self.closest(m, cands)
        dice = R.ARCANE_BLAST_ENTITY_DICE if victim.summoned else R.CASTING_DICE  # "four Dice if ... an Entity"
        hits = RB.successes(self.test(m, dice, unmodified=True))
        if victim.boilerplate:
            hits -= R.BOILERPLATE_CANCELS
        if hits > 0:
            self.save(victim, R.save_target(hits), 0, m.side)
        return True

    # -- Arcane Powers of casting models (docs/shadows-battles.md section 12) ---------------------------------
    def casting_bonus(self, m: TModel) -> int:
        """Dice the Caster's Casting Tests gain: "If an existing Arcanist is given a Grimoire, it benefits from a +1
        Die Modifier ... Further Grimoires have no effect" (the Grimoire that made it an Arcanist is destroyed; a
        Magister or a Master Necromancer is one without); the Magister: "If [the Harbinger is] not Downed and [is]
        within 6" of their Posse's Magister, then the Magister gets a +1 Die Modifier on all their Casting Tests"."""
        pm = m.pm
        bonus = 0
        free = bool(pm.role and pm.role.arcanist) or bool(pm.hired_gun and pm.hired_gun.arcanist)
        grimoires = sum(1 for g in pm.gear if g.name == "Grimoire")
        if pm.is_arcanist and grimoires - (0 if free else 1) >= 1:
            bonus += 1
        if pm.role is not None and pm.role.name == "Magister":
            if any(f.pm.role is not None and f.pm.role.name == "Harbinger of the Abyss" and f.on_table and not f.downed
                   and gap(m, f) <= 6 + EPS for f in self.sides[m.side] if f is not m):
                bonus += 1
        return bonus

    def casting_test(self, m: TModel, difficulty: int, conc: str | None = None, mod: int = 0) -> bool:
        """"Make a 3 Dice Casting Test ... Successes equal to or over the Power's listed Difficulty": True if Cast;
        "no Successes and at least one Die is a 1": a Miscast, Shaken (Downed if already Shaken). After a
        Concentrate (``conc`` "bonus"): "they gain a +1 Die Modifier to their Casting Test"; ``mod``: a unique
        Summoning's "-1 Die Modifier"."""
        faces = self.test(m, R.CASTING_DICE + (R.CONCENTRATE_DICE if conc == "bonus" else 0) + mod
                          + self.casting_bonus(m) + (R.CastingModifier.ARCANE_STORM.dice if self.storm else 0))
        if RB.successes(faces) >= difficulty:
            return True
        if R.is_miscast(faces):
            if self.storm:  # an Arcane Storm: "on a Miscast the Caster immediately becomes a Casualty" (no VP)
                self.remove_casualty(m, None)
                self.caster_out(m)
            elif m.shaken:
                m.downed = True
                self.caster_out(m)
            else:
                m.shaken = True
        return False

    def power_target(self, m: TModel, name: str):
        """Who the Power would be cast at now (None: it is not cast). Arcane Blast: the closest candidate within 9";
        Transfix: the first enemy in its Activation order standing, not yet Activated, within 6"; Immolate (policy): a
        standing enemy's centre within 3" of the Caster's base and no friend within the 3" radius at all (returns
        the Caster); Faith Healing: a Downed friend in Contact, else a Shaken one (by index)."""
        power = R.arcane_power(name)
        if name == "Arcane Blast":
            return self.closest(m, self.candidates(m, lambda g: g <= power.range_inches + EPS))
        if name == "Transfix":
            return next((e for e in self.enemies(m) if e.standing and not e.done and not e.summoned  # "non-Entity"
                         and gap(m, e) <= power.range_inches + EPS), None)
        if name == "Immolate":
            if any(gap(m, f) <= power.range_inches + EPS for f in self.friends(m)):
                return None
            hit = any(e.standing and dist(m, e) - m.radius <= power.range_inches + EPS
                      for e in self.enemies(m))
            return m if hit else None
        if name == "Faith Healing":
            near = [f for f in self.sides[m.side] if f is not m and f.on_table and in_contact(m, f)]
            return next((f for f in near if f.downed), None) or next((f for f in near if f.shaken), None)
        if name in ("Bless", "Curse"):
            # policy: the first friend (not the Caster) / enemy in Activation order standing, not Done, within 12",
            # not already holding this token; none while the Caster's own token of this Power is in play
            kind = R.Blessing.BLESS if name == "Bless" else R.Blessing.CURSE
            if any(x.token is kind and x.token_by is m for x in self.sides[0] + self.sides[1]):
                return None
            s = m.side if name == "Bless" else 1 - m.side
            pool = [self.sides[s][i] for i in self.order[s] if self.sides[s][i].on_table]
            return next((x for x in pool if x is not m and x.standing and not x.done and x.token is not kind
                         and gap(m, x) <= power.range_inches + EPS), None)
        if name == "Dispel":
            # policy: an enemy's Bless first (Activation order), else a friend's (not the Caster's) Curse
            for s, kind in ((1 - m.side, R.Blessing.BLESS), (m.side, R.Blessing.CURSE)):
                for i in self.order[s]:
                    x = self.sides[s][i]
                    if x is not m and x.on_table and x.token is kind and gap(m, x) <= power.range_inches + EPS:
                        return x
            return None
        return None

    @staticmethod
    def concentrates(m: TModel, conc: str | None, key: tuple, band: int | None, fired: set) -> bool:
        """Policy ("Concentrate"): on the Activation's first Action with another to follow (``conc`` "may"), declare
        a Concentrate instead of the cast chosen now (``key``) where Concentrating and then Casting beats the shot
        the other Action would make at this band (the plan's ``concentrate``); with no shot now (``band`` None) the
        other Action is a Move toward one, worth a shot at Long Range."""
        if conc != "may" or key not in m.plan.concentrate[2 if band is None else band]:
            return False
        fired.add("concentrated")
        return True

    def cast(self, m: TModel, fired: set, again: list, conc: str | None = None) -> bool:
        """"Once per Activation, a model may attempt to Cast a Power instead of making a Move or Shoot Action, if it
        is not in Contact with an enemy model" ("Casting Powers"): the first Power of the policy's list with a
        Target. "Make a 3 Dice Casting Test ... Successes equal to or over the Power's listed Difficulty": Cast; "no
        Successes and at least one Die is a 1": Miscast, Shaken (Downed if already Shaken). False: no Action."""
        if "cast" in fired or self.contacts(m):
            return False
        band = None  # the band of the closest candidate for the best Weapon (None: no shot now)
        if self.can_shoot(m, fired, again):
            near = self.closest(m, self.candidates(m, lambda g: True))
            edges = m.plan.weapons[0].bands if m.plan.weapons else ()
            band = next((i for i, bs in enumerate(edges) if near is not None and gap(m, near) <= bs.edge_inches + EPS),
                        None)
        for name in m.plan.casts:
            # cast instead of a shot only where the Power's value beats the model's best shot at that band
            if band is not None and name not in m.plan.casts_over_shot[band]:
                continue
            target = self.power_target(m, name)
            if target is not None:
                break
        else:
            return False
        if self.concentrates(m, conc, (name, 0), band, fired):
            return True
        fired.add("cast")
        if not self.casting_test(m, R.arcane_power(name).difficulty, conc):
            return True
        if name == "Arcane Blast":
            # "Make an unmodified 3 Dice Shooting Test against one visible Target model within 9""; four Dice at an Entity
            dice = R.ARCANE_BLAST_ENTITY_DICE if target.summoned else R.arcane_power(name).dice
            hits = RB.successes(self.test(m, dice, unmodified=True))
            if target.boilerplate:
                hits -= R.BOILERPLATE_CANCELS
            if hits > 0:
                self.save(target, R.save_target(hits), 0, m.side)
        elif name == "Transfix":
            # "It must Succeed a 1 Die Nerve Test or immediately receive a Done Token."
            faces = self.test(target, R.TRANSFIX_NERVE_DICE, int(target.has(R.NERVE_REROLL_SKILL)))
            if RB.successes(faces) == 0:
                target.done = True
        elif name == "Immolate":
            self.immolate(m)
        elif name == "Faith Healing":
            # "It immediately recovers and stands up if Down, or if Shaken it removes this Token."
            if target.downed:
                target.downed = False
            else:
                target.shaken = False
        elif name == "Dispel":
            target.token, target.token_by = R.Blessing.NONE, None  # "Remove any one Bless, Curse ... token"
        elif target.token is not R.Blessing.NONE:
            # "Blessing a Cursed model removes that token, but otherwise has no effect. The reverse is also true."
            target.token, target.token_by = R.Blessing.NONE, None
        else:
            target.token = R.Blessing.BLESS if name == "Bless" else R.Blessing.CURSE
            target.token_by = m
        return True

    # -- Summon and Banish ("Summoned Models", "Arcane Power Summary"; docs/shadows-battles.md section 12) -------
    def entities(self, s: int) -> list[TModel]:
        """Side s's Lesser, Minor and Major Entity (on the table or waiting); [] without a Summoner."""
        return [m for m in self.sides[s] if m.summoned]

    def entity(self, s: int, difficulty: int) -> TModel | None:
        """The Entity a Summon at ``difficulty`` brings for side s ("Difficulty 1 Summons a Lesser Entity, ..."; a unique
        Summoning "count[s] as either Lesser, Minor or Major")."""
        return next((e for e in self.entities(s) if e.profile.difficulty == difficulty), None)

    def activatable(self, s: int) -> list[TModel]:
        """The posse, and its Summoned Entities: they Activate as models of the posse (they "do not add a card")."""
        return self.posse[s] + self.entities(s)

    def summoned_alone(self, s: int) -> None:
        """"If you only have Summoned models left on the table at any point, they are removed immediately"."""
        if not any(m.on_table for m in self.sides[s] if not m.summoned):
            for e in self.entities(s):
                e.on_table = e.downed = False

    def remove_casualty(self, victim: TModel, credit: int | None) -> None:
        """A Casualty, counted as a Fight's when a Fight made it; then the Summoned-models-left rule."""
        super().remove_casualty(victim, credit)
        if self.in_fight and not victim.summoned:  # Summoned models are not in the Casualty figures
            self.fight_cas[victim.side] += 1
        self.summoned_alone(victim.side)

    def bring_into_play(self, summoner: TModel, e: TModel) -> None:
        """"A Posse can only have one Summoned model in play per Summoner at any time, and may only have one of each
        type of Entity at a time. If the same Summoner brings a new model into play that would not otherwise be
        allowed, an existing Summoned model (of your choice) is immediately removed from the table" (choice: the
        Summoner's own, else the one of that type). The policy never Summons into such a case."""
        mine = [x for x in self.entities(e.side) if x.on_table and x.owner is summoner]
        for x in mine[:1] or ([e] if e.on_table else []):
            x.on_table = x.downed = False
        e.on_table = True
        e.downed = e.shaken = e.done = e.lookout = e.bad_omen = False
        e.fearsome_failed = e.fearsome_tested = False
        e.jammed = set()
        e.owner = summoner

    def place_entity(self, m: TModel, e: TModel, toward: TModel) -> None:
        """"Place the appropriate Entity within LOS and 3" of the Caster, and no closer than 1" to an enemy" (policy):
        from the Caster's centre straight toward the closest standing enemy, up to 3" edge to edge, stopping where it
        would come within 1" of any enemy on the table."""
        d = dist(m, toward)
        ux, uy = (toward.x - m.x) / d, (toward.y - m.y) / d
        t_max = R.arcane_power("Summon").range_inches + m.radius + e.radius
        for x in self.enemies(m):
            keep = e.radius + x.radius + R.ENEMY_CLEARANCE_INCHES
            wx, wy = m.x - x.x, m.y - x.y
            along = wx * ux + wy * uy
            if along >= 0:
                continue
            disc = along * along - (wx * wx + wy * wy - keep * keep)
            if disc < 0:
                continue
            t_max = min(t_max, -along - math.sqrt(disc))
        t_max = max(t_max, 0.0)
        e.x, e.y = clamp(m.x + ux * t_max, e), clamp(m.y + uy * t_max, e)

    def summon_or_banish(self, m: TModel, fired: set, again: list, conc: str | None = None) -> bool:
        """Policy (docs/shadows-battles.md section 12): Summon, with no Summoned model of its own in play, a standing
        enemy to face and no enemy within 1", at the first of its ranked Difficulties whose Entity type is not in play
        and whose value beats the shot now; else Banish the first standing enemy Entity within 6" (Major first) whose
        value is positive and beats the shot now. "The shot now": none when a Shoot Action would not shoot. False: no
        Action (nothing rolled)."""
        if "cast" in fired or self.contacts(m):
            return False
        band = None
        if self.can_shoot(m, fired, again):
            near = self.closest(m, self.candidates(m, lambda g: True))
            edges = m.plan.weapons[0].bands if m.plan.weapons else ()
            band = next((i for i, bs in enumerate(edges) if near is not None and gap(m, near) <= bs.edge_inches + EPS),
                        None)
        s = m.side
        difficulty, target, toward, kind = None, None, None, None
        if m.plan.summon and not any(e.on_table and e.owner is m for e in self.entities(s)):
            toward = self.closest(m, [e for e in self.enemies(m) if e.standing])
            if toward is not None and all(dist(m, e) >= m.radius + e.radius + R.ENEMY_CLEARANCE_INCHES - 1e-9
                                          for e in self.enemies(m)):
                for d, over in m.plan.summon:
                    if self.entity(s, d).on_table or (band is not None and not over[band]):
                        continue
                    # "Successes equal to or over the Power's listed Difficulty": a unique Major Entity's 2 Dice
                    # reach Difficulty 3 only after a Concentrate (declared now, or just before)
                    dice = (R.CASTING_DICE + self.casting_bonus(m)
                            + (R.UNIQUE_SUMMONING_DICE if self.entity(s, d).profile.summoned_by else 0))
                    if not R.can_cast(dice + (R.CONCENTRATE_DICE if conc else 0), d):
                        continue
                    difficulty = d
                    break
        if difficulty is None and m.plan.banish:
            for k in (2, 1, 0):
                e = self.entity(1 - s, k + 1)
                bits = m.plan.banish[k]
                if e is None or not bits[0] or not e.standing:
                    continue
                if gap(m, e) > R.arcane_power("Banish").range_inches + EPS:
                    continue
                if band is not None and not bits[1 + band]:
                    continue
                target, kind = e, k + 1
                break
        if difficulty is None and target is None:
            return False
        key = ("Summon", difficulty) if difficulty is not None else ("Banish", kind)
        if self.concentrates(m, conc, key, band, fired):
            return True
        fired.add("cast")
        if difficulty is not None:
            # "Choose a Difficulty before rolling to Cast"; a unique Summoning: "the Casting Test suffers a -1 Die"
            unique = self.entity(s, difficulty).profile.summoned_by is not None
            if self.casting_test(m, difficulty, conc, R.UNIQUE_SUMMONING_DICE if unique else 0):
                e = self.entity(s, difficulty)
                self.bring_into_play(m, e)
                self.place_entity(m, e, toward)
            return True
        if self.casting_test(m, R.arcane_power("Banish").difficulty, conc):
            # "Roll one Grit Die on behalf of the Caster — a visible Target enemy Entity model within 6" does the same"
            mine = self.rng.randint(1, m.grit_die())
            theirs = self.rng.randint(1, target.grit_die())
            if R.banish_removes(mine, theirs):
                target.on_table = target.downed = False  # "removed from play": not a Casualty, no VP
        return True

    def immolate(self, m: TModel) -> None:
        """"All other models (not the Caster themselves) whose centre of base lies within 3" of the Caster must make a
        5+ Save. Any model within the 3" radius, but whose centre of base is not, may make a 1 Die Reaction Test. If
        Failed, they must make the Save as well." Enemies first, each side by index."""
        reach = R.arcane_power("Immolate").range_inches
        for side in (1 - m.side, m.side):
            for v in self.sides[side]:
                if not v.on_table or v is m or gap(m, v) > reach + EPS:
                    continue
                if dist(m, v) - m.radius > reach + EPS:
                    faces = self.test(v, R.IMMOLATE_REACTION_DICE)
                    if RB.successes(faces) > 0:
                        continue
                self.save(v, R.IMMOLATE_SAVE, 0, m.side if side != m.side else None)

    def one_action(self, m: TModel, fired: set, again: list, late: bool, after_move: bool,
                   second: bool = False) -> str | None:
        # Concentrate: "as the first Action of their Activation. If their second Action is to Cast, they gain a +1
        # Die" (``late``: no Action follows this one)
        conc = "bonus" if "concentrated" in fired else ("may" if "acted" not in fired and not late else None)
        fired.discard("concentrated")
        fired.add("acted")
        if not m.standing:
            return None
        # a cast comes first (battle_arcane.cast_action runs before the plan's Action, gear included); Summon and
        # Banish before the other Powers (battle_summon.summon_action); a Beast Form cannot "Cast Arcane Powers"
        if (getattr(m.plan, "summon", ()) or getattr(m.plan, "banish", ())) and not m.beast \
                and self.summon_or_banish(m, fired, again, conc):
            return "concentrate" if "concentrated" in fired else "cast"
        if m.plan.casts and not m.beast and self.cast(m, fired, again, conc):
            return "concentrate" if "concentrated" in fired else "cast"
        if m.shaken and m.pm.role is not None and m.pm.role.feeds and self.feed(m):
            return "feed"  # a Shaken Broodkin in Contact with a Downed enemy "will Feed", whatever its Action was to be
        if m.limps and m.moved and not m.mounted:  # Limp: "If on foot, ... one Move Action per Activation"
            return self.limp_action(m, fired, again)
        if (m.whiskey or m.snake_oil) and not m.beast and self.gear_action(m):
            did = "move"
        elif m.beast and self.human_wanted(m, late):
            was = m.radius
            m.beast = False  # it may "return to Human Form by using an entire Move Action"
            self.resize(m, was)
            did = "move"
        elif m.form is not None and not m.beast and self.beast_wanted(m, late):
            was = m.radius
            m.beast = True  # it "may assume its Beast Form ... by using an entire Move Action"
            m.mounted = False  # its horse "flees the table automatically if the Skinwalker transforms while riding"
            self.resize(m, was)
            did = "move"
        elif m.plan.style == "gun" and not m.beast:  # a Beast Form plays brawl
            did = self.gun_action(m, fired, again, late, second)
        else:
            did = self.brawl_action(m, fired, again, after_move, late and second, late)
        if did == "move":  # a Move, a Charge, a Disengage, clearing a Jam, Gear used in a Move Action
            m.moved = True
        return did

    def beast_wanted(self, m: TModel, late: bool) -> bool:
        """Policy (docs/shadows-battles.md section 9): with no enemy model in Contact, at once (a brawl-style model),
        or (gun style, balanced) on an Action another follows when the closest standing enemy is within its Beast
        Form's Charge reach."""
        if self.contacts(m):
            return False
        if m.plan.beast_at_once:
            return True
        near = self.closest(m, [e for e in self.enemies(m) if e.standing])
        return not late and near is not None and gap(m, near) <= m.form.move_inches + EPS

    def human_wanted(self, m: TModel, late: bool) -> bool:
        """Policy (docs/shadows-battles.md section 9): a gun-style Skinwalker (balanced) in its Beast Form returns to
        Human Form on an Action another follows, out of Contact, when no enemy (Downed ones too) is within its Beast
        Form's Charge reach and a Weapon of its Human Form has a candidate in range: the return, then the shot."""
        if late or m.plan.beast_at_once or self.contacts(m):
            return False
        if any(gap(m, e) <= m.move_inches + EPS for e in self.enemies(m)):
            return False
        m.beast = False  # its Weapons as in Human Form
        try:
            return any(self.ready(m, w) and w.bands and next(
                self.each_candidate(m, lambda g, w=w: self.band_shot(w, g) is not None), None) is not None
                for w in m.plan.weapons)
        finally:
            m.beast = True

    def feed(self, m: TModel) -> bool:
        """The Broodkin's Feed ("The Red Hand Coven"): a Shaken Broodkin "spends an Action while in Contact with a
        Downed ... non-Supernatural model" and "will Feed. Their victim is removed from play, and the Broodkin removes
        their Shaken marker." Reading (docs/shadows-battles.md section 9): the first such enemy by index, a Casualty
        worth no VP (not an Attack); never a friend."""
        prey = sorted((e for e in self.contacts(m) if not e.standing and not e.pm.supernatural),
                      key=lambda e: e.index)
        if not prey:
            return False
        self.remove_casualty(prey[0], None)
        m.shaken = False
        return True

    def limp_action(self, m: TModel, fired: set, again: list) -> str | None:
        """A limping model's Action after its one Move Action of the Activation (policy, docs/shadows-battles.md
        section 6): Fight an enemy in Contact, else Shoot when it can, else nothing."""
        if self.contacts(m):
            self.fight(m, self.defender(m))
            return "fight"
        if self.can_shoot(m, fired, again):
            self.shoot(m, fired, again)
            return "shoot"
        return None

    def start_activation(self, m: TModel) -> None:
        m.moved = False
        m.fearsome_failed = m.fearsome_tested = False
        m.lookout = False  # "A model loses its Lookout Token at the start of its next Activation at no penalty"

    # -- Lookout and Reactions ("Lookout", "Declaring Reactions", "Resolving a Reaction", Bushwhacker) -----------
    def lookout_wanted(self, m: TModel, near: TModel) -> bool:
        """Policy (docs/shadows-battles.md 'Lookout and Reactions'): a Lookout model (a gun model with Quickdraw or
        Bushwhacker) that would Move toward ``near`` on its Activation's last Action, after a first one, goes on
        Lookout instead when ``near`` is within its best ready Weapon's Long Range plus one Move (the book's 4", whatever
        ``near``'s own: docs section 13)."""
        if not getattr(m.plan, "lookout", False):
            return False
        ready = [w for w in m.plan.weapons if self.ready(m, w) and w.bands]
        return bool(ready) and gap(m, near) <= ready[0].bands[-1].edge_inches + R.MOVE_INCHES + EPS

    def lookout_wanted_brawl(self, m: TModel, near: TModel) -> bool:
        """Policy (docs/shadows-battles.md section 13): a brawl-style Lookout model (Quickdraw or Bushwhacker) that
        would Move toward ``near`` on its Activation's last Action, after a first one, goes on Lookout instead when
        ``near`` plays brawl and is within its Charge (its Move) plus one Move (the book's 4"): ``near`` can come into
        its reach with one Move, and meets its Charge Reaction first."""
        if not getattr(m.plan, "lookout", False) or (near.plan.style == "gun" and not near.beast):
            return False
        return gap(m, near) <= m.move_inches + R.MOVE_INCHES + EPS

    def lose_lookout(self, m: TModel) -> None:
        """"the Lookout Token is immediately replaced by a Done Token" ("Lookout")."""
        m.lookout = False
        m.done = True

    def reacting_model(self, m: TModel):
        """(model, Weapon) of the one Passive model that Reacts to ``m``'s declared Action, or None: the first on
        Lookout in its posse's Activation order, standing and not in a Fight, that can React to ``m`` (standing and
        not in a Fight; within 12" in a Dust Storm). A gun-style model (in Human Form) Shoots, with its best ready
        Weapon whose Long Range reaches ``m``; a brawl-style one, or one in its Beast Form, Charges ``m`` (a Move
        Reaction into Contact with the triggering model: Weapon None) when ``m`` is within its Move."""
        if not m.standing or self.engaged(m):
            return None
        for e in self.enemies(m):
            if not (e.lookout and e.standing) or self.engaged(e):
                continue
            g = gap(e, m)
            if self.sees_short(e) and g > R.DUST_STORM_VISIBILITY + EPS:
                continue
            if e.plan.style != "gun" or e.beast:
                if g <= e.move_inches + EPS:
                    return e, None
                continue
            for w in e.plan.weapons:
                if self.ready(e, w) and w.bands and self.band_shot(w, g) is not None:
                    return e, w
        return None

    def react(self, m: TModel) -> None:
        """``m`` (Active) declares an Action: one Passive model on Lookout may make a Shoot Reaction at it ("targeted
        at the triggering model, with no Spotting Test required"; no Trigger-Happy or Gunslinger, "cannot be used as
        part of a Reaction"), before the Action. One model Reacts, so no Reaction Test is rolled. Then "the Lookout
        Token is replaced by a Done Token", unless Bushwhacker's one Grit Die is a Success."""
        chosen = self.reacting_model(m)
        if chosen is None:
            return
        e, w = chosen
        if w is not None and self.dynamite_target(m) is not None:
            # policy (docs section 13): a shooter waits to see the Action declared: a Dynamite throw gets its "Good
            # Shot!" (good_shot_at, from shoot), anything else no Reaction (it keeps its Lookout Token)
            self.good_shot = (m, e, w)
            return
        if w is None:
            # "A Reacting model may make a Move Reaction to bring itself into Contact with the triggering model": a
            # Charge (it sees m at the start of its Move), its free Fight with +1 Die; Fearsome's Nerve Test anew,
            # as in any Activation but its own
            e.fearsome_tested = e.fearsome_failed = False
            self.charge(e, m)
            self.reaction_done(e)
            return
        for _ in range(w.shots):
            if not m.standing or self.engaged(m):
                break
            bs = self.band_shot(w, gap(e, m))
            covered = self.rng.random() < self.cover_density
            faces = self.test(e, bs.dice_cover if covered else bs.dice)
            hits = RB.successes(faces)
            if hits == 0:
                if 1 in faces and self.jams(e, next(x for x in e.pm.battle_weapons() if x.name == w.name).jam_die):
                    e.jammed.add(id(w))
                    break
                continue
            if m.boilerplate:
                hits -= R.BOILERPLATE_CANCELS
            if hits > 0:
                self.save(m, R.save_target(hits), bs.save_mod + (w.silver if m.pm.supernatural else 0), e.side)
        self.reaction_done(e)

    def reaction_done(self, e: TModel) -> None:
        """"Once it Reacts, the Lookout Token is replaced by a Done Token", unless Bushwhacker's one Grit Die is a
        Success."""
        if not e.lookout:
            return
        if e.has("Bushwhacker") and R.is_success(self.rng.randint(1, e.grit_die())):
            return  # "this model retains its Lookout marker and is not classed as Done"
        self.lose_lookout(e)

    def declared(self, m: TModel, fired: set, again: list, late: bool, after_move: bool, second: bool = False):
        """One Action of an Activation: Reactions to its declaration first, then the Action ("Declaring Reactions":
        "before they start to resolve the Action")."""
        self.good_shot = None
        if m.standing and any(e.lookout for e in self.enemies(m)):
            self.react(m)
        return self.one_action(m, fired, again, late, after_move, second)

    def action(self, m: TModel, fired: set, again: list) -> None:
        """One Action on its own (a Dual Activation's, a Revenant's, Hero of the Hour's)."""
        self.one_action(m, fired, again, late=True, after_move=False)

    def revenants_act(self, s: int) -> None:
        """With the Boss's Activation every Revenant not Done makes one Action; all become Done."""
        for i in self.order[s]:
            r = self.sides[s][i]
            if r.revenant and r.on_table and not r.done:
                self.start_activation(r)
                self.declared(r, set(), [], late=True, after_move=False)
                r.done = True

    def activate(self, s: int, cards_left: int) -> None:
        posse = self.posse[s]
        by_order = [self.sides[s][i] for i in self.order[s] if not self.sides[s][i].revenant]
        ready = [m for m in by_order if m.standing and not m.done]
        if not ready:
            for m in posse + self.entities(s):
                if m.on_table and not m.done:  # a Downed model's Activation is spent doing nothing
                    m.done = True
                    return
            return  # Pass
        if self.o.activation == "solo":
            dual = False
        elif self.o.activation == "dual":
            dual = len(ready) >= 2
        else:
            dual = len(ready) >= 2 and len(ready) > cards_left
        chosen = ready[:2] if dual else ready[:1]
        for m in chosen:
            m.done = True
            self.start_activation(m)
        if dual:
            for m in chosen:
                self.declared(m, set(), [], late=True, after_move=False)
        else:
            m = chosen[0]
            fired: set = set()
            again: list = []
            first = self.declared(m, fired, again, late=False, after_move=False)
            self.declared(m, fired, again, late=True, after_move=first == "move", second=True)
        if any(m.plan.boss for m in chosen):
            self.revenants_act(s)

    def hero_of_the_hour(self, m: TModel) -> None:
        """"It may immediately Activate for any one Action its owner wishes": one Action on its own by its plan, in an
        Activation of its own (KERNEL-NOTES Q10): its Lookout Token goes, and a Passive model on Lookout may React."""
        self.start_activation(m)
        self.declared(m, set(), [], late=True, after_move=False)

    def action_phase(self, turn: int) -> None:
        self.turn = turn  # Whiskey lasts "for the rest of this Turn" (its Recovery Phase included)
        super().action_phase(turn)

    def event_model(self, event: str) -> TModel | None:
        """'Ornery Critter!: "a model on the table that is not Downed or engaged"; Bad Omen, Hero of the Hour: "one
        model on the table that is not Downed"."""
        if event != "'Ornery Critter!":
            return super().event_model(event)
        everyone = [m for side in self.sides for m in side if m.standing and not self.engaged(m)]
        return self.rng.choice(everyone) if everyone else None

    # -- Gear ("Horses and Gear Summary": Whiskey, Snake Oil; docs/shadows-battles.md section 11) ---------------
    def whiskey_on(self, m: TModel) -> bool:
        """"It then automatically passes all Nerve Tests it would have to make for the rest of this Turn (including
        Bottle Checks, if applicable), but suffers a -1 Die Modifier on all Shoot Tests. The effects of Whiskey end at
        the start of the following Game Turn"."""
        return m.drunk_in_turn == self.turn

    def passes_nerve_tests(self, m: TModel, test: R.TestKind = R.TestKind.NERVE) -> bool:
        return self.whiskey_on(m) and R.whiskey_passes(test)

    def shoot_dice(self, m: TModel, dice: int) -> int:
        """Dice of a Shoot Test after Whiskey's -1 Die Modifier (never below 1 Die: "Tests")."""
        return R.dice_to_roll(dice, R.WHISKEY_SHOOT_DICE) if self.whiskey_on(m) else dice

    def drink(self, m: TModel) -> None:
        """"The user may drink this item as part of any Move Action at the cost of 1\" of movement"."""
        m.whiskey -= 1
        m.drunk_in_turn = self.turn

    def drinks_when_charging(self, m: TModel, target: TModel) -> bool:
        """Policy: a model that has not drunk this Turn drinks as part of a Charge that reaches a standing Fearsome
        enemy (not being Fearsome itself, no Nerve Test against a Fearsome model taken this Activation) when the
        Target was within the Charge's 4" less the 1" the drink costs (asked before the Charge moves)."""
        return (m.whiskey > 0 and not m.beast and not self.whiskey_on(m) and target.standing and self.fearsome(target)
                and not self.fearsome(m) and not m.fearsome_tested
                and gap(m, target) <= m.move_inches - R.WHISKEY_MOVE_COST_INCHES + EPS)

    def bottle_check_maker(self, s: int) -> TModel | None:
        """The model that would make side s's Bottle Check now, if one is due now ("3: Bottle Checks")."""
        up = [m for m in self.posse[s] if m.standing]
        if not up or not R.bottle_check_required(self.start[s], len(up)):
            return None
        return self.bottle_roller(up)[0]

    def snake_oil(self, m: TModel, patient: TModel) -> None:
        """"Roll a D6. The model immediately removes its Shaken marker (or stands up as if it was Down) on a roll of
        4+. Regardless of Success, the item is used up and discarded" (reading: a Down model stands up and keeps
        its Shaken marker if it had one)."""
        m.snake_oil -= 1
        if R.snake_oil_works(self.rng.randint(1, R.SNAKE_OIL_DIE)):
            if patient.downed:
                patient.downed = False
            else:
                patient.shaken = False

    def gear_action(self, m: TModel) -> bool:
        """Policy at the start of an Action (docs/shadows-battles.md section 11), the first that applies; True when
        the gear took the Action (a Move Action)."""
        s = m.side
        # (1) Whiskey: it would make its posse's Bottle Check now and one is due: it drinks and stays put
        if m.whiskey and not self.whiskey_on(m) and self.bottle_check_maker(s) is m:
            self.drink(m)
            return True
        if not m.snake_oil:
            return False
        # Snake Oil "to a friendly model in Contact (including itself) ... Shaken or Down, using a full Move Action"
        friends = [self.sides[s][i] for i in self.order[s] if self.sides[s][i] is not m and self.sides[s][i].on_table]
        touching = [f for f in friends if in_contact(m, f)]
        patient = next((f for f in touching if f.downed), None)  # (2) a Downed friend in Contact
        if patient is None and m.shaken:
            patient = m  # (3) itself
        if patient is None:
            patient = next((f for f in touching if f.standing and f.shaken), None)  # (4) a Shaken friend
        if patient is not None:
            self.snake_oil(m, patient)
            return True
        # (5) no standing enemy within D*: Move into Contact with the closest Downed friend within a Move (4")
        if any(e.standing and gap(m, e) <= m.plan.desired_inches + EPS for e in self.enemies(m)):
            return False
        downed = [f for f in friends if f.downed and gap(m, f) <= m.move_inches + EPS]
        if not downed:
            return False
        f = min(downed, key=lambda f: (dist(m, f) - f.radius, self.pos_in_order(f)))
        self.move_towards(m, f.x, f.y, dist(m, f) - m.radius - f.radius)
        return True

    # -- Recovery ("2: Make Recovery Tests": Friend in Contact) ----------------------------------------------
    def recovery_dice(self, m: TModel) -> int:
        """+1 Die when any friendly model not Downed is in Contact ("2: Make Recovery Tests")."""
        dice = super().recovery_dice(m)
        if any(f.standing and in_contact(f, m) for f in self.friends(m)):
            dice += R.RECOVERY_FRIEND_IN_CONTACT
        return dice

    def play(self) -> dict:
        out = super().play()
        out["fights"] = self.fights
        out["fight_casualties"] = list(self.fight_cas)
        out["fought"] = [[m.fought for m in side] for side in self.sides]
        # Summoned models "do not count towards your total Posse size": not in the Casualty figures (KERNEL-NOTES)
        out["casualties"] = [sum(m.casualty for m in side if not m.summoned) for side in self.sides]
        return out
