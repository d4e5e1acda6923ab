"""Plain, slow, obviously-right reference battle: one game of Shadows of the West on open ground.

Written to be read line by line against the rulebook ("Anatomy of a Game",
"Activations", "Running Out of Cards", "Lone Gun", "Shoot", "Jamming Checks",
"Damage", "Shaken", "Downed", "Dynamite", "Unexpected Events", "The Recovery
Phase", "Bottle Checks", "Victory Points") with Python's ``random``. Every
rule number comes from ``oddsmith.rules.shadows`` and every model from its
posse file; only the policies (which Weapon is best, who is most dangerous)
are taken from ``oddsmith.shadows.battle``, because they are choices, not
rules. The battle kernel must agree with it within its standard errors.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B


@dataclass(eq=False)  # a model is itself: two models with the same facts (two henchmen of one plan) are two models
class Model:
    side: int
    plan: B.ModelPlan
    on_table: bool = True
    downed: bool = False
    shaken: bool = False
    done: bool = False
    casualty: bool = False
    jammed: set = field(default_factory=set)
    dynamite: int = 0
    bad_omen: bool = False
    revenant: bool = False
    token: R.Blessing = R.Blessing.NONE  # a Bless or Curse token (on the table only: reference_table)
    token_by: object = None  # the Caster who put it there

    @property
    def pm(self):
        return self.plan.model

    @property
    def standing(self) -> bool:
        return self.on_table and not self.downed

    def grit_die(self) -> int:
        # "While Shaken, a model treats its Grit Die as one Rank lower" (Lead-Belly ignores it)
        return R.grit_die(self.pm.rank, self.shaken, self.pm.lead_belly)

    def has(self, skill: str) -> bool:
        return self.pm.has_skill(skill)


def roll_test(rng: random.Random, die: int, n: int, reading: R.RerollReading, extra_rerolls: int = 0,
              token: R.Blessing = R.Blessing.NONE) -> list[int]:
    """A Test ("Tests"): roll n dice; each maximum lets one other failing die be re-rolled (lowest first), a die
    is re-rolled at most once; reading B: a maximum on a re-roll grants another. Then a Bless ``token`` "may re-roll
    all Failures it scores once", a Curse "must re-roll all Successes": the dice not re-rolled yet (R.Blessing).
    Returns the final scores."""
    faces = [rng.randint(1, die) for _ in range(n)]
    rerolled = [False] * n
    tokens = extra_rerolls + sum(1 for x in faces if x == die)
    while tokens > 0:
        failing = [i for i in range(n) if not rerolled[i] and not R.is_success(faces[i])]
        if not failing:
            break
        i = min(failing, key=lambda j: faces[j])
        faces[i] = rng.randint(1, die)
        rerolled[i] = True
        tokens -= 1
        if reading.chained and faces[i] == die:
            tokens += 1
    if token is not R.Blessing.NONE:
        for i in range(n):
            if not rerolled[i] and R.is_success(faces[i]) == (token is R.Blessing.CURSE):
                faces[i] = rng.randint(1, die)
    return faces


def successes(faces: list[int]) -> int:
    return sum(1 for x in faces if R.is_success(x))


DECK = tuple(R.deck_cards())
"""One player's 54 cards (frozen: each game shuffles its own copies)."""


class Game:
    def __init__(self, setup: B.BattleSetup, rng: random.Random):
        self.setup = setup
        self.o = setup.options
        self.rng = rng
        self.sides = [[self.new_model(s, i, mp) for i, mp in enumerate(side.models)]
                      for s, side in enumerate((setup.a, setup.b))]
        self.posse = [list(x) for x in self.sides]  # the models that count for cards, Bottle Checks, wiped out
        self.cover = [setup.a.cover, setup.b.cover]
        self.start = [len(x) for x in self.posse]
        self.vp = [0, 0]
        self.decks = [list(DECK), list(DECK)]
        for d in self.decks:
            rng.shuffle(d)
        self.discards: list[list[R.PlayingCard]] = [[], []]
        self.hands: list[list[R.PlayingCard]] = [[], []]
        self.dust_storm = False
        # Supernatural Events (--events supernatural), each "Until the end of this Game Turn"
        self.gloom = False  # Unnatural Gloom: "visibility is reduced to 12" for all non-Supernatural models"
        self.light = False  # Let There Be Light: "all Supernatural models suffer a -1 Die Modifier on all Tests"
        self.storm = False  # Arcane Storm: +1 Die to Cast; "on a Miscast the Caster immediately becomes a Casualty"
        self.events = 0
        self.first_side_turn_1 = None
        self.event_turn_1 = False
        self.order = [B.danger_order(side) for side in (setup.a, setup.b)]
        # Dark Confederacy: "Before you Deploy your Posse each game, roll a D3+1" ("Faction Benefit: Revenants");
        # they join after the posse in its Activation order
        for s, side in enumerate((setup.a, setup.b)):
            if side.revenant is not None:
                k = (self.rng.randint(1, 6) + 1) // 2 + 1
                n = len(side.models)
                self.sides[s] += [self.new_model(s, n + j, side.revenant, revenant=True) for j in range(k)]
                self.order[s] = self.order[s] + list(range(n, n + k))
        # Old Wound (Injury Table): "The model must roll one Grit Die before Deployment at the start of each game ...
        # If the roll is Failed, the model begins that game already Shaken"
        for s in (0, 1):
            for m in self.posse[s]:
                if R.Injury.OLD_WOUND in m.pm.injuries and not R.is_success(self.rng.randint(1, m.grit_die())):
                    m.shaken = True

    def new_model(self, side: int, index: int, plan: B.ModelPlan, revenant: bool = False) -> Model:
        return Model(side, plan, dynamite=plan.dynamite, revenant=revenant)

    # -- Draw Phase ---------------------------------------------------------
    def counted(self, s: int) -> list[Model]:
        """The models of side ``s`` that count for cards drawn, the Action Phase and being wiped out: Revenants
        "do not contribute to ... the number of cards you draw" and never keep the Action Phase going."""
        return self.posse[s]

    def activatable(self, s: int) -> list[Model]:
        """The models of side ``s`` that keep the Action Phase going (the table's Summoned Entities too)."""
        return self.counted(s)

    def draw(self, s: int) -> None:
        on_table = [m for m in self.counted(s) if m.on_table]
        boss_on = any(m.plan.boss for m in on_table)
        k = R.hand_size(len(on_table), boss_on)
        hand = []
        for _ in range(k):
            if not self.decks[s]:
                # Running Out of Cards: shuffle the Discard Pile into a new Deck, go on drawing
                if not self.discards[s]:
                    break
                self.decks[s] = self.discards[s]
                self.discards[s] = []
                self.rng.shuffle(self.decks[s])
            hand.append(self.decks[s].pop())
        # the policy plays its best card first; equal keys Spades before Clubs, Hearts before Diamonds
        hand.sort(key=lambda c: (c.activation_key, "SCHD".index(c.suit) if c.suit else 0))
        self.hands[s] = hand

    # -- Shooting -----------------------------------------------------------
    def target(self, shooter_side: int) -> Model | None:
        enemies = [self.sides[1 - shooter_side][i] for i in self.order[1 - shooter_side]]
        visible = [m for m in enemies if m.standing]  # Downed models may not be Shot at
        if not visible:
            return None
        if self.o.targets == "boss":
            for m in visible:
                if m.plan.boss:
                    return m
        if self.o.targets == "weakest":
            return min(visible, key=lambda m: (m.grit_die() * 4 + m.pm.save_modifier - (1 if m.shaken else 0)))
        return visible[0]

    def damage(self, victim: Model, failed_by: int, credit: int | None) -> None:
        result = R.damage_for(failed_by)
        if result is R.Damage.CASUALTY:
            self.remove_casualty(victim, credit)
        elif result is R.Damage.DOWNED or victim.shaken:
            victim.downed = True  # Shaken again: Downed
        else:
            victim.shaken = True

    def remove_casualty(self, victim: Model, credit: int | None) -> None:
        """A Casualty: off the table, its VP to ``credit`` (Revenants "are worth no VP to the enemy"); the Boss's
        Casualty removes the Revenants at once ("they are all removed from play", not Casualties)."""
        victim.on_table = victim.downed = False
        victim.casualty = True
        if credit is not None and not victim.revenant:
            self.vp[credit] += victim.pm.rank.victory_points
        if victim.plan.boss and not victim.revenant:
            for r in self.sides[victim.side]:
                if r.revenant and r.on_table:
                    r.on_table = r.downed = False

    def spend_token(self, m: Model) -> R.Blessing:
        """The model's Bless or Curse token, removed: "the very next Test or Save it has to make" is this one."""
        token, m.token, m.token_by = m.token, R.Blessing.NONE, None
        return token

    def save_score(self, victim: Model, needed: int, modifier: int) -> int:
        """One Save's score (the die with its modifiers), no Damage yet."""
        mod = modifier + victim.pm.save_modifier - (1 if victim.bad_omen else 0)
        score = self.rng.randint(1, victim.grit_die()) + mod
        token = self.spend_token(victim)
        # a Bless re-rolls a failed Save, a Curse a passed one (the Save's Failure is the Damage)
        if (token is R.Blessing.BLESS and score < needed) or (token is R.Blessing.CURSE and score >= needed):
            score = self.rng.randint(1, victim.grit_die()) + mod
        return score

    def save(self, victim: Model, needed: int, modifier: int, credit: int | None) -> int:
        """One Save; returns its score (the die with its modifiers)."""
        score = self.save_score(victim, needed, modifier)
        if score < needed:
            self.damage(victim, needed - score, credit)
        return score

    def jams(self, shooter: Model, jam_die: int) -> bool:
        """A missed shot that shows a 1: the Jamming Check on the Weapon's Jam Die, Gunsmith re-rolling a Failure
        ("Jamming Checks"). True if the Weapon Jams."""
        profile = getattr(shooter.pm, "profile", None)
        if profile is not None and profile.never_jams:
            return False  # a Seraphim's "Blessed Pistols (Pistols with Silver Bullets that never Jam)"
        jam = not R.is_success(self.rng.randint(1, jam_die))
        if jam and shooter.has("Gunsmith"):
            jam = not R.is_success(self.rng.randint(1, jam_die))
        return jam

    def shoot_weapon(self, shooter: Model, wp: B.WeaponPlan, shots: int) -> None:
        for _ in range(shots):
            victim = self.target(shooter.side)
            if victim is None:
                return
            weapon = R.weapon(wp.name)
            dice = R.shooting_dice(weapon, wp.band, cover=self.cover[victim.side], skills=shooter.pm.all_skills,
                                   injuries=shooter.pm.injuries)
            faces = roll_test(self.rng, shooter.grit_die(), self.dice(shooter, dice), self.o.reading)
            hits = successes(faces)
            if hits == 0:
                if 1 in faces and self.jams(shooter, weapon.jam_die):
                    shooter.jammed.add(id(wp))
                    return
                continue
            if victim.pm.boilerplate:
                hits -= R.BOILERPLATE_CANCELS
            if hits <= 0:
                continue
            modifier = weapon.save_modifier(wp.band)
            if victim.pm.supernatural:
                modifier += wp.silver
            self.save(victim, R.save_target(hits), modifier, shooter.side)

    def throw_dynamite(self, thrower: Model, victim: Model) -> None:
        thrower.dynamite -= 1
        score = self.rng.randint(1, thrower.grit_die())  # an unmodified 1 Die Shooting Test
        outcome = R.dynamite_throw(score)
        distance = self.o.distance.inches
        caught = []
        if outcome is R.DynamiteOutcome.ON_TARGET:
            caught = [victim]
        elif outcome is R.DynamiteOutcome.ON_THROWER:
            caught = [thrower]
        elif outcome is R.DynamiteOutcome.TOWARDS_THROWER:
            d = self.rng.randint(1, R.DYNAMITE_SCATTER_DIE)
            if d <= R.DYNAMITE_BLAST_RADIUS:
                caught.append(victim)
            if abs(distance - d) <= R.DYNAMITE_BLAST_RADIUS:
                caught.append(thrower)
        elif outcome is R.DynamiteOutcome.AWAY_FROM_THROWER:
            d = self.rng.randint(1, R.DYNAMITE_SCATTER_DIE)
            if d <= R.DYNAMITE_BLAST_RADIUS:
                caught.append(victim)
            if distance + d <= R.DYNAMITE_BLAST_RADIUS:
                caught.append(thrower)
        for m in caught:
            if m.on_table:
                self.save(m, R.DYNAMITE_BLAST_SAVE, 0, thrower.side if m.side != thrower.side else None)

    def sees_short(self, m: Model) -> bool:
        """``m`` sees no farther than 12": a Dust Storm, or Unnatural Gloom and ``m`` not Supernatural."""
        return self.dust_storm or (self.gloom and not m.pm.supernatural)

    def dice(self, m: Model, n: int) -> int:
        """A Test's Dice for ``m``: Let There Be Light's -1 for a Supernatural model, never below one Die ("You can
        never be reduced to 0 Dice for any Test")."""
        if self.light and m.pm.supernatural and n > 0:
            return max(1, n + R.LET_THERE_BE_LIGHT)
        return n

    def ready(self, m: Model, wp: B.WeaponPlan) -> bool:
        if not wp.usable or id(wp) in m.jammed:
            return False
        return not (self.sees_short(m) and wp.far)

    def action(self, m: Model, fired: set, again: list) -> None:
        """One Shoot Action (or a Move to clear a Jam)."""
        if not m.standing:
            return
        d = self.o.distance.inches
        if m.dynamite > 0 and d is not None and d <= R.DYNAMITE_THROW_INCHES:
            victim = self.target(m.side)
            if victim is not None:
                self.throw_dynamite(m, victim)
                return
        gunslinger = m.has("Gunslinger")
        if gunslinger:
            pistols = [w for w in m.plan.weapons if w.pistol and self.ready(m, w) and id(w) not in fired][:2]
            if len(pistols) == 2:
                for w in pistols:
                    fired.add(id(w))
                for w in pistols:
                    self.shoot_weapon(m, w, 1)
                return
        for w in m.plan.weapons:  # best first
            if not self.ready(m, w):
                continue
            if id(w) in fired:
                if m.has("Trigger-Happy") and not gunslinger and not again:
                    again.append(True)
                else:
                    continue
            fired.add(id(w))
            self.shoot_weapon(m, w, w.shots)
            return
        for w in m.plan.weapons:
            if w.usable and id(w) in m.jammed:
                m.jammed.discard(id(w))  # a Move Action clears one Jammed Weapon
                return

    def revenants_act(self, s: int) -> None:
        """With the Boss's Activation every Revenant not Done makes one Action; all become Done ("Revenants")."""
        for i in self.order[s]:
            r = self.sides[s][i]
            if r.revenant and r.on_table and not r.done:
                self.action(r, set(), [])
                r.done = True

    def activate(self, s: int, cards_left: int) -> None:
        ready = [self.sides[s][i] for i in self.order[s]
                 if self.sides[s][i].standing and not self.sides[s][i].done and not self.sides[s][i].revenant]
        if not ready:
            for m in self.posse[s]:
                if m.on_table and not m.done:  # a Downed model crawls: nothing changes on open ground
                    m.done = True
                    return
            return  # Pass
        if self.o.activation == "solo":
            dual = False
        elif self.o.activation == "dual":
            dual = len(ready) >= 2
        else:
            dual = len(ready) >= 2 and len(ready) > cards_left
        if dual:
            a, b = ready[0], ready[1]
            a.done = b.done = True
            self.action(a, set(), [])
            self.action(b, set(), [])
        else:
            a = ready[0]
            a.done = True
            fired: set = set()
            again: list = []
            self.action(a, fired, again)
            self.action(a, fired, again)
        if any(m.plan.boss for m in ready[: 2 if dual else 1]):
            self.revenants_act(s)

    def event_model(self, event: str) -> Model | None:
        """The model an Event picks: "Randomly select a model on the table that is not Downed" (on open ground nobody
        is engaged, so 'Ornery Critter!'s "or engaged" changes nothing)."""
        everyone = [m for side in self.sides for m in side if m.standing]
        return self.rng.choice(everyone) if everyone else None

    def hero_of_the_hour(self, m: Model) -> None:
        """"It may immediately Activate for any one Action": on open ground, a Shoot Action."""
        self.action(m, set(), [])

    def event(self) -> None:
        table = R.SUPERNATURAL_EVENTS if self.o.events == "supernatural" else R.UNEXPECTED_EVENTS
        name = table.entry(self.rng.randint(1, table.die)).name
        if name == "Dust Storm":
            self.dust_storm = True
        elif name == "Unnatural Gloom":
            self.gloom = True
        elif name == "Let There Be Light":
            self.light = True
        elif name == "Arcane Storm":
            self.storm = True
        elif name in ("'Ornery Critter!", "Bad Omen", "Hero of the Hour"):
            m = self.event_model(name)
            if m is None:
                return
            if name == "'Ornery Critter!":
                self.save(m, R.ORNERY_CRITTER_SAVE, 0, None)
            elif name == "Bad Omen":
                m.bad_omen = True
            else:
                self.hero_of_the_hour(m)

    def roll_off(self) -> int:
        while True:
            a, b = self.rng.randint(1, R.ROLL_OFF_DIE), self.rng.randint(1, R.ROLL_OFF_DIE)
            if a != b:
                return 0 if a > b else 1

    # -- Action Phase -------------------------------------------------------
    def action_phase(self, turn: int) -> None:
        event_this_turn = False
        lone = [self.o.lone_gun == "hold" and len(self.hands[s]) == 1 for s in (0, 1)]
        if all(lone):
            lone = [False, False]
        first = None
        while any(m.on_table and not m.done for s in (0, 1) for m in self.activatable(s)):
            plays = [bool(self.hands[s]) and not (lone[s] and self.hands[1 - s]) for s in (0, 1)]
            if not any(plays):
                break
            cards = [self.hands[s].pop(0) if plays[s] else None for s in (0, 1)]
            for s in (0, 1):
                if cards[s] is not None:
                    self.discards[s].append(cards[s])
            if all(plays):
                if cards[0] == cards[1] and self.o.events != "none" and not event_this_turn:
                    event_this_turn = True
                    self.event()
                if cards[0].activation_key == cards[1].activation_key:
                    leader = self.roll_off()
                else:
                    leader = 0 if cards[0].activation_key < cards[1].activation_key else 1
                order = [leader, 1 - leader]
            else:
                order = [0 if plays[0] else 1]
            if first is None:
                first = order[0]
            for s in order:
                self.activate(s, len(self.hands[s]) + 1)
        for s in (0, 1):
            self.discards[s].extend(self.hands[s])
            self.hands[s] = []
        self.events += event_this_turn
        if turn == 1:
            self.first_side_turn_1 = first
            self.event_turn_1 = event_this_turn

    # -- Recovery Phase -----------------------------------------------------
    def recovery_dice(self, m: Model) -> int:
        """Dice of a Downed model's Recovery Test ("2: Make Recovery Tests")."""
        return R.TESTS[R.TestKind.RECOVERY].base_dice

    @staticmethod
    def bottle_roller(up: list[Model]) -> tuple[Model, int]:
        """Who makes the Bottle Check, and on how many dice: "Your Boss ... if able to do so" (3 Dice); "If the Boss is
        Downed or not on the table, then the model with the next highest Rank" (1 Die; policy among equals: the
        larger die now rolled, then Nerves of Steel, then the first in the posse)."""
        boss = [m for m in up if m.plan.boss]
        if boss:
            return boss[0], R.BOTTLE_CHECK_BOSS_DICE
        return max(up, key=lambda m: (m.pm.rank, m.grit_die(), m.has("Nerves of Steel"))), R.BOTTLE_CHECK_STAND_IN_DICE

    def passes_nerve_tests(self, m: Model, test: R.TestKind = R.TestKind.NERVE) -> bool:
        """The model passes its Nerve Tests without rolling (Whiskey, played on the table only: reference_table)."""
        return False

    def recovery(self, s: int) -> bool:
        """Recovery Tests, then the Bottle Check; True if the Posse Bottles Out."""
        side = self.sides[s]
        for m in side:
            m.done = False
            m.bad_omen = False
            if not (m.on_table and m.downed):
                continue
            if m.has("Hard to Kill"):
                m.downed, m.shaken = False, True
                continue
            n = successes(roll_test(self.rng, m.grit_die(), self.dice(m, self.recovery_dice(m)), self.o.reading))
            result = R.recovery_result(n)
            if result is R.RecoveryResult.CASUALTY:
                self.remove_casualty(m, None)  # worth no VP
            elif result is R.RecoveryResult.STANDS_SHAKEN:
                m.downed, m.shaken = False, True
        up = [m for m in self.posse[s] if m.standing]
        if not R.bottle_check_required(self.start[s], len(up)):
            return False
        if not up:
            return True
        roller, dice = self.bottle_roller(up)
        if self.passes_nerve_tests(roller, R.TestKind.BOTTLE_CHECK):
            return False  # Whiskey: "automatically passes all Nerve Tests ... (including Bottle Checks)"
        rerolls = int(roller.has("Nerves of Steel"))
        if any(m.pm.hired_gun is not None and m.pm.hired_gun.name == "Preacher" for m in up):
            rerolls += 1
        faces = roll_test(self.rng, roller.grit_die(), self.dice(roller, dice), self.o.reading, rerolls)
        return successes(faces) == 0

    def play(self) -> dict:
        bottled = [False, False]
        wiped = [False, False]
        out = [False, False]
        turns = 0
        for turn in range(1, self.o.turns + 1):
            turns = turn
            self.dust_storm = self.gloom = self.light = self.storm = False
            for s in (0, 1):
                self.draw(s)
            self.action_phase(turn)
            for s in (0, 1):
                bottled[s] = self.recovery(s)
                wiped[s] = not any(m.on_table for m in self.counted(s))
                if bottled[s] and not wiped[s]:
                    for m in self.sides[s]:
                        m.on_table = False  # the whole Posse leaves: not Casualties
                out[s] = bottled[s] or wiped[s]
            if any(out):
                break
        if all(out):
            result = "draw"
        elif out[1]:
            result = "a"
        elif out[0]:
            result = "b"
        else:
            result = "a" if self.vp[0] > self.vp[1] else "b" if self.vp[1] > self.vp[0] else "draw"
        return {
            "result": result, "by_vp": not any(out), "a_bottles": bottled[0] and not wiped[0],
            "b_bottles": bottled[1] and not wiped[1], "turns": turns,
            "casualties": [sum(m.casualty for m in side) for side in self.sides],
            "casualty": [[m.casualty for m in side] for side in self.sides],
            "downed_at_end": [[m.on_table and m.downed for m in side] for side in self.sides],
            "events": self.events, "a_first": self.first_side_turn_1 == 0, "event_turn_1": self.event_turn_1,
            "vp": list(self.vp),
        }


def play(setup: B.BattleSetup, rng: random.Random) -> dict:
    """One reference game: the fixed-range firefight (``movement == "none"``) or the table battle."""
    if getattr(setup.options, "movement", "none") == "table":
        import reference_table
        return reference_table.TableGame(setup, rng).play()
    return Game(setup, rng).play()


def run(setup: B.BattleSetup, trials: int, seed: int) -> dict:
    """Figures over ``trials`` reference games (proportions and means, as the kernel's summary names them)."""
    rng = random.Random(seed)
    games = [play(setup, rng) for _ in range(trials)]
    n = trials
    out = {
        "p_a_wins": sum(g["result"] == "a" for g in games) / n,
        "p_b_wins": sum(g["result"] == "b" for g in games) / n,
        "p_draw": sum(g["result"] == "draw" for g in games) / n,
        "p_a_bottles": sum(g["a_bottles"] for g in games) / n,
        "p_b_bottles": sum(g["b_bottles"] for g in games) / n,
        "p_by_victory_points": sum(g["by_vp"] for g in games) / n,
        "turns_mean": sum(g["turns"] for g in games) / n,
        "casualties_a": sum(g["casualties"][0] for g in games) / n,
        "casualties_b": sum(g["casualties"][1] for g in games) / n,
        "victory_points_a": sum(g["vp"][0] for g in games) / n,
        "victory_points_b": sum(g["vp"][1] for g in games) / n,
        "p_event_per_turn": sum(g["events"] for g in games) / sum(g["turns"] for g in games),
        "p_a_first_turn_1": sum(g["a_first"] for g in games) / n,
        "p_event_turn_1": sum(g["event_turn_1"] for g in games) / n,
    }
    out["models"] = [[sum(g["casualty"][s][i] for g in games) / n for i in range(len(games[0]["casualty"][s]))]
                     for s in (0, 1)]
    out["models_downed"] = [[sum(g["downed_at_end"][s][i] for g in games) / n
                             for i in range(len(games[0]["downed_at_end"][s]))] for s in (0, 1)]
    return out
