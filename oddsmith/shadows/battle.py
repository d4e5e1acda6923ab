"""Posse against posse: a turn-by-turn Shadows of the West game on a table, or at one fixed range.

``movement="table"`` (the default, docs/shadows-battles.md 'The table battle'): the posses deploy in
opposite corners of a 36" table (Scenario 5: Showdown), move, shoot with Cover drawn per shot at the
``terrain`` density, Charge and Fight, by each side's plan (gunline, brawl, balanced) and the book's
targeting (the closest or an easier Target; a Spotting Test for the ``targets`` policy's choice).
``movement="none"``: the older firefight on open ground at one distance (inches, or a range band every
Weapon shoots at), each side with or without Cover, every Action a Shoot Action. Both follow "Anatomy
of a Game":

* Draw Phase: each side draws half its models on the table rounded up, +1 if
  its Boss is among them, from its own 54-card Deck (two Jokers, read as one
  black and one red), refreshing from the Discard Pile ("Running Out of Cards").
* Action Phase: both sides reveal a card per round, best card first (the
  policy); black before red, higher value first, Jokers last, equal values
  Roll-Off, the exact same card raises the Turn's one Event; Lone Gun by
  policy. An Activation is Solo or Dual by ``activation``; models act most
  dangerous first; Dynamite, Jamming, Boilerplate, Tough, Lead-Belly, Shaken
  and Downed as the book says; the Vessel's Arcane Blast and the Dark
  Confederacy's Revenants in both modes; on the table every other casting
  model casts Arcane Blast, Transfix, Immolate, Faith Healing, Bless, Curse,
  Dispel, Summon (a Lesser, Minor or Major Entity in model slots of its own)
  and Banish by a stated policy (its value beats the model's best shot); Old
  Wound (both modes) and Limp (on the table) are played.
* Recovery Phase: Recovery Tests (Hard to Kill stands up Shaken; a Friend in
  Contact +1 Die on the table), then Bottle Checks at half the starting models
  or fewer (Boss on 3 dice, else the next highest Rank on 1 die; Nerves of Steel
  and a standing Preacher re-roll).

Eight Game Turns or until a posse Bottles Out or is wiped out; after the last
Turn the side with more Victory Points wins. The battle is Monte Carlo in the
``shadows_battle`` kernel (seeded, chunked: the same figures for any
``workers``); the activation-order odds of Turn 1 are exact by card counting.
The options and the kernel's arrays are in :mod:`oddsmith.shadows.battle_plan` (every name importable here).
"""
from __future__ import annotations

import concurrent.futures as cf
import functools
import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Sequence

import numpy as np

from oddsmith import _ext, lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import Progress
from oddsmith.rules import shadows as R
from oddsmith.sampling import (BIT_GENERATOR, CHUNK_TRIALS, SamplingPlan, check_trials, check_workers, resolve_seed,
                               run_chunks)
from oddsmith.shadows import engine as E
from oddsmith.shadows import posse as P
from oddsmith.notebook import notebook_view
from oddsmith.shadows import battle_plan as _plan

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

# every name of the options and plans is importable from here too
ACTIVATION_POLICIES = _plan.ACTIVATION_POLICIES
BRAWL_FIGHT_BONUS = _plan.BRAWL_FIGHT_BONUS
BandShot = _plan.BandShot
CAST_POWERS = _plan.CAST_POWERS
NOT_CAST = _plan.NOT_CAST
VALUE_TARGET = _plan.VALUE_TARGET
activation_value = _plan.activation_value
blast_steps = _plan.blast_steps
cast_chance = _plan.cast_chance
known_powers = _plan.known_powers
power_values = _plan.power_values
token_effects = _plan.token_effects
summon_values = _plan.summon_values
cast_chance_at = _plan.cast_chance_at
banish_values = _plan.banish_values
entity_model = _plan.entity_model
entity_worth = _plan.entity_worth
entity_plans = _plan.entity_plans
SummonedEntity = _plan.SummonedEntity
p_higher = _plan.p_higher
BattleOptions = _plan.BattleOptions
BattleSetup = _plan.BattleSetup
DEFAULT_RANGE = _plan.DEFAULT_RANGE
Distance = _plan.Distance
FIXED_POINT = _plan.FIXED_POINT
LONE_GUN_POLICIES = _plan.LONE_GUN_POLICIES
LASSO_PLAN = _plan.LASSO_PLAN
MOVEMENT_MODES = _plan.MOVEMENT_MODES
EVENT_TABLES = _plan.EVENT_TABLES
EVENT_TABLE_WORDS = _plan.EVENT_TABLE_WORDS
ModelPlan = _plan.ModelPlan
PLANS = _plan.PLANS
REVENANT_SLOTS = _plan.REVENANT_SLOTS
SPOTTING_MIN_CHANCE = _plan.SPOTTING_MIN_CHANCE
STYLES = _plan.STYLES
SidePlan = _plan.SidePlan
TARGET_POLICIES = _plan.TARGET_POLICIES
TERRAINS = _plan.TERRAINS
TERRAIN_SCALE = _plan.TERRAIN_SCALE
WeaponPlan = _plan.WeaponPlan
battle_options = _plan.battle_options
danger_order = _plan.danger_order
fight_bonus = _plan.fight_bonus
has_revenants = _plan.has_revenants
parse_terrain = _plan.parse_terrain
plan_model = _plan.plan_model
plan_side = _plan.plan_side
prepare = _plan.prepare
revenant_model = _plan.revenant_model
terrain_label = _plan.terrain_label

_K = _ext.load("shadows_battle")

DEFAULT_TRIALS = 20_000

EVENT_EFFECTS: dict[str, str] = {
    "'Ornery Critter!": "applied: a random model not Downed or engaged (in a Fight) makes a 5+ Save",
    "Armed Civilians": "not modelled: it needs an empty piece of terrain, and open ground has none",
    "Dust Storm": "applied: nothing farther than 12\" can be shot until the end of the Turn",
    "Bad Omen": "applied: a random model not Downed suffers -1 Save until the end of the Turn",
    "Hero of the Hour": "applied: a random model not Downed immediately makes one Action, even if Done: on the table "
                        "any Action its plan makes, with --movement none a Shoot Action",
    "Lucky Find": "not modelled: the rulebook text gives no effect",
}
"""What the battle does with each Unexpected Event (the events table is R.UNEXPECTED_EVENTS)."""

SUPERNATURAL_EVENT_EFFECTS: dict[str, str] = {
    "Armed Civilians": "not modelled: it needs an empty piece of terrain, and open ground has none",
    "Unnatural Gloom": "applied: no non-Supernatural model sees (shoots, Reacts) farther than 12\" until the end of the "
                       "Turn",
    "Haunted!": "not modelled: it needs a piece of terrain with models in it, and open ground has none",
    "Let There Be Light": "applied: every Supernatural model rolls one Die fewer on all its Tests until the end of the "
                          "Turn (never fewer than one; Arcane Blast's unmodified Shooting Test excepted)",
    "Arcane Storm": "applied: +1 Die to every Casting Test until the end of the Turn, and a Miscast makes the Caster a "
                    "Casualty",
    "(roll of 6)": "not modelled: this rulebook text gives no entry (the Unwelcome Guests' Bestiary is cut off)",
}
"""What the battle does with each Supernatural Event (``--events supernatural``; the table is R.SUPERNATURAL_EVENTS)."""
_EVENT_CODE = {"'Ornery Critter!": 1, "Dust Storm": 2, "Bad Omen": 3, "Hero of the Hour": 4,
               "Unnatural Gloom": 5, "Let There Be Light": 6, "Arcane Storm": 7}


def event_effects(options: BattleOptions) -> dict[str, str]:
    """What the battle does with each Event of the table ``options.events`` names ({} with no Events)."""
    return {"unexpected": EVENT_EFFECTS, "supernatural": SUPERNATURAL_EVENT_EFFECTS}.get(options.events, {})


_DYNAMITE_CODE = {R.DynamiteOutcome.ON_THROWER: 1, R.DynamiteOutcome.TOWARDS_THROWER: 2,
                  R.DynamiteOutcome.AWAY_FROM_THROWER: 3, R.DynamiteOutcome.DUD: 4}

NOT_MODELLED = (
    "terrain pieces and Line of Sight blocking: every enemy is visible, and Cover is a density drawn per shot "
    "(--terrain)",
    "elevation, falling (but a rider's fall when a Lasso drags it off its horse), Shoves and rough ground: the table "
    "is flat and clear",
    "of the Lasso, every throw but at a rider (policy: a brawl model drags riders off their horses before its Charge; "
    "gun models shoot); Marked Cards (an Income roll, not a battle); of Horses (ridden from the start, never dismounted by choice), Shoves off a horse and shooting the horse instead of its rider (the "
    "horse is worth no VP; shooters aim at riders)",
    "the Move Reactions but the Charge (Disengaging or diving for Cover on Lookout): a gun model on Lookout Shoots (at "
    "a Dynamite thrower, the stick: Good Shot!), a brawl model Charges; the Reaction Test is never rolled with two "
    "posses, so Quickdraw's re-roll changes nothing (it makes a model play Lookout)",
    "Arcane Powers but Arcane Blast, Transfix, Immolate, Faith Healing, Bless, Curse, Dispel, Summon and Banish: "
    "Scry (it looks at a Hand: the battle's card play is not a choice, so it changes nothing), Warding Circle (every "
    "policy tried lost battles; so Dispel only ever removes a Bless or a Curse); of the unique Summonings (played "
    "when the posse file names them) the Swamp Baka's rough ground (the table has none)",
    "Bystanders; dragging Downed comrades; the other scenarios (this is Scenario 5: Showdown)",
    "of the Events: Armed Civilians, Lucky Find and, with --events supernatural, Haunted! and a roll of 6 (no terrain "
    "pieces; no effect or no entry in this rulebook text)",
    "base overlap between friends (a model may end a Move on a friend) and Downed models crawling (they lie still)",
    "fire corridors without a Range (a Sawn-Off Shotgun, and a LeMat's once-per-game Sawn-Off shot, without the posse "
    "file's house Range for the Sawn-Off), and Weapons the rulebook text gives no ranges for (Rifle, Buffalo Gun) "
    "unless the posse file gives house stats",
    "Silver Bullets bought as Gear load the model's best Weapon for the whole game (\"until it Jams\" is not tracked)",
    "Boilerplate cancels Successes of shots only, not of a Fight",
)
"""What the table battle (``--movement table``) leaves out, with why (docs/shadows-battles.md)."""

NOT_MODELLED_NONE = (
    "movement, terrain, Line of Sight and Spotting Tests: every enemy not Downed is an equally near, visible Target",
    "Fights, Charges and Lookout/Reactions (so Mean, Fearsome, 'Ornery, Bull-Rush, Close Work, Bushwhacker, "
    "Quickdraw and the Derringer change nothing; Skinwalkers stay in Human Form and the Broodkin never Feed)",
    "Horses, Lasso, Snake Oil, Whiskey, Marked Cards, Vial of Nitro, Blessed Water and every Arcane Power but the "
    "Vessel's Arcane Blast (other casting models cast only on the table)",
    "Slick (an extra Action), Hawkeye (Spotting Tests) and Limp (no model Moves)",
    "fire-corridor Weapons (Sawn-Off Shotgun, the LeMat's once-per-game shot: nobody stands along a line at a fixed "
    "range) and Weapons the rulebook text gives no ranges for (Rifle, Buffalo Gun) unless the posse file gives house "
    "stats",
    "Silver Bullets bought as Gear load the model's best Weapon for the whole game (\"until it Jams\" is not tracked)",
    "the +1 Die of a friend in Contact on Recovery Tests (no model is in Contact on open ground)",
    "of the Events: Armed Civilians, Lucky Find and, with --events supernatural, Haunted! and a roll of 6 (no terrain "
    "pieces; no effect or no entry in this rulebook text)",
)
"""What the fixed-range firefight (``--movement none``) leaves out."""


def not_modelled(options: BattleOptions) -> tuple[str, ...]:
    """The not-modelled list of the battle's movement mode."""
    return NOT_MODELLED if options.table else NOT_MODELLED_NONE


SUMMARY_FIGURES = ("p_a_wins", "p_b_wins", "p_draw", "p_a_bottles", "p_b_bottles", "p_a_wiped_out", "p_b_wiped_out",
                   "p_by_victory_points", "turns_mean", "casualties_a", "casualties_b", "victory_points_a",
                   "victory_points_b", "p_event_per_turn", "p_a_first_turn_1", "p_event_turn_1", "fights_mean",
                   "p_a_fight_casualties", "p_b_fight_casualties")


def _event_codes(options: BattleOptions | None = None) -> np.ndarray:
    """The kernel's effect code of each face of the Events die, for the table ``options.events`` names (made once
    per table: every kernel call reads them; nothing writes them)."""
    return _event_table_codes(options is not None and options.events == "supernatural")


@functools.cache
def _event_table_codes(supernatural: bool) -> np.ndarray:
    codes = np.zeros(16, dtype=np.int32)
    table = R.SUPERNATURAL_EVENTS if supernatural else R.UNEXPECTED_EVENTS
    for e in table.entries:
        for face in range(e.low, e.high + 1):
            codes[face] = _EVENT_CODE.get(e.name or "", 0)
    codes.flags.writeable = False  # shared by every call
    return codes


@functools.cache
def _dynamite_codes() -> np.ndarray:
    codes = np.zeros(8, dtype=np.int32)
    for score in range(1, R.SUCCESS_ON):
        codes[score] = _DYNAMITE_CODE[R.dynamite_throw(score)]
    codes.flags.writeable = False  # shared by every call
    return codes


def _check_card_keys() -> None:
    """The kernel numbers cards 0-51 by suit (Spades, Clubs, Hearts, Diamonds) then 52 black, 53 red Joker."""
    cards = [R.PlayingCard(v, s) for s in "SCHD" for v in range(2, R.ACE_VALUE + 1)]
    cards += [R.PlayingCard(R.JOKER_VALUE, None, "black"), R.PlayingCard(R.JOKER_VALUE, None, "red")]
    keys = _K.card_keys()
    for c1, k1 in zip(cards, keys):
        for c2, k2 in zip(cards, keys):
            if (c1.activation_key < c2.activation_key) != (k1 < k2):
                raise AssertionError("the battle kernel's card order differs from the rules model's")


_check_card_keys()


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------


@notebook_view
@dataclass(frozen=True)
class BattleResult:
    """Figures of one battle: ``summary`` (figure, value, stderr), ``models`` (per model), ``activation`` (exact)."""

    setup: BattleSetup
    summary: pd.DataFrame
    models: pd.DataFrame
    activation: pd.DataFrame
    trials: int
    seed: int
    counts: np.ndarray

    @functools.cached_property
    def _figures(self) -> dict[str, tuple[float, float]]:
        """{figure: (value, stderr)} of ``summary``, read off once: a page asks for a battle's figures one by one."""
        s = self.summary
        return {f: (float(v), float(e)) for f, v, e in zip(s["figure"], s["value"], s["stderr"])}

    def __getitem__(self, figure: str) -> float:
        return self._figures[figure][0]

    def stderr(self, figure: str) -> float:
        return self._figures[figure][1]

    @property
    def notes(self) -> tuple[str, ...]:
        return self.setup.notes

    def to_json(self) -> dict[str, Any]:
        """The contract of ``oddsmith shadows battle --format json``."""
        o = self.setup.options
        s = self.summary.set_index("figure")
        out: dict[str, Any] = {
            "command": "battle", "posse_a": self.setup.a.posse.name, "posse_b": self.setup.b.posse.name,
            "range": o.distance.label, "range_inches": o.distance.inches,
            "range_band": o.distance.band.value if o.distance.band else None,
            "cover_a": o.cover_a, "cover_b": o.cover_b, "turns": o.turns, "targets": o.targets,
            "activation": o.activation, "lone_gun": o.lone_gun, "reroll_reading": o.reading.name,
            "movement": o.movement, "terrain": o.terrain, "plan_a": o.plan_a, "plan_b": o.plan_b,
            "event_table": o.events,
        }
        for f in SUMMARY_FIGURES:
            out[f] = float(s.loc[f, "value"])
        out["stderr"] = {f: float(s.loc[f, "stderr"]) for f in SUMMARY_FIGURES}
        out["models"] = [
            {"side": r.side, "posse": r.posse, "model": r.model, "rank": r.rank, "boss": bool(r.boss),
             "p_casualty": float(r.p_casualty), "p_downed_at_end": float(r.p_downed_at_end),
             "p_fought": float(r.p_fought), "revenant": bool(r.revenant), "summoned": bool(r.summoned),
             "stderr": {"p_casualty": float(r.p_casualty_stderr), "p_downed_at_end": float(r.p_downed_at_end_stderr),
                        "p_fought": float(r.p_fought_stderr)}}
            for r in self.models.itertuples()]
        out["activation_exact"] = [
            {k: (v if not isinstance(v, (np.floating, np.integer)) else v.item()) for k, v in row.items()}
            for row in self.activation.to_dict("records")]
        out["events"] = dict(event_effects(o))
        out["not_modelled"] = list(not_modelled(o))
        out["notes"] = list(self.notes)
        out["trials"] = self.trials
        out["seed"] = self.seed
        out["bit_generator"] = BIT_GENERATOR
        out["chunk_trials"] = CHUNK_TRIALS
        return out


def _mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0)
    return mean, math.sqrt(var / n) if n > 1 else 0.0


def _prop(count: float, n: int) -> tuple[float, float]:
    p = count / n
    return p, math.sqrt(max(p * (1 - p), 0.0) / n)


def run_counts(setup: BattleSetup, trials: int, seed: int, workers: int = 1, label: str = "battles") -> np.ndarray:
    """Raw kernel counts (HEAD_COLUMNS then per-model counts) of ``trials`` games."""
    plan = SamplingPlan(seed=seed, trials=trials)

    def work(gen, n):
        out = np.zeros(_K.N_OUT, dtype=np.int64)
        _play(setup, gen, n, out)
        return out

    return np.sum(np.stack(run_chunks(work, plan, workers=workers, label=label)), axis=0)


def _play(setup: BattleSetup, gen: np.random.PCG64, n: int, out: np.ndarray, **kw) -> int:
    """``n`` games of ``setup`` from ``gen`` (the kernel's per-game streams), their counts added to ``out``."""
    return _K.mc_battle(gen, setup.models, setup.weapons, setup.n_models, setup.order, setup.opts,
                        E.SAVE_TABLE_ARRAY, E.DAMAGE_ARRAY, _event_codes(setup.options), _dynamite_codes(), n, out,
                        **kw)


def _chunk_bit_generator(seed: int, chunk: int) -> np.random.PCG64:
    """A fresh copy of chunk ``chunk``'s bit generator of ``SamplingPlan(seed, ...)`` (its SeedSequence child)."""
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,)))


def play_games(setup: BattleSetup, seed: int, chunk: int, first: int, n: int, out: np.ndarray, **kw) -> int:
    """Games ``first`` .. ``first + n - 1`` of chunk ``chunk`` of ``SamplingPlan(seed, ...)``, as :func:`run_counts`
    plays them, their counts added to ``out``; ``kw`` goes to the kernel (:func:`run_paired`'s pairing). Game t of a
    chunk is keyed by the chunk's draws 2t and 2t + 1 (the kernel's per-game streams), so the games of a chunk may be
    played in blocks, anywhere, and their counts summed. Returns the kernel's count of games copied."""
    gen = _chunk_bit_generator(seed, chunk)
    gen.advance(2 * first)
    return _play(setup, gen, n, out, **kw)


@dataclass(frozen=True)
class PairedRuns:
    """A base battle and changed ones played on the same games (common random numbers).

    ``base``: the base run's kernel counts (the same as ``run_counts`` on the seed); ``counts[j]``: changed run j's
    (None when run_paired was asked for the paired sums alone); ``pairs[j]``: for each of PAIRED_FIGURES the sums
    PAIR_SUMS over the games of x (the base's value in a game) and y (changed run j's in the same game);
    ``copied[j]``: the games of changed run j copied from the base instead of played (:func:`copy_rule`);
    ``resumed[j]``: how many of its other games were taken up from the base game's saved Game Turns, and how many
    Game Turns they did not play again."""

    base: np.ndarray
    counts: list[np.ndarray | None]
    pairs: list[np.ndarray]
    trials: int
    copied: list[int]
    resumed: list[tuple[int, int]] | None = None

    def difference(self, j: int, figure: str) -> tuple[float, float]:
        """Mean of y - x over the games and its standard error from the spread of the per-game differences."""
        k = _K.PAIRED_FIGURES.index(figure)
        x, y, xy, xx, yy = (int(v) for v in self.pairs[j][5 * k: 5 * k + 5])
        return _mean_se(y - x, yy - 2 * xy + xx, self.trials)


_TOUCH_BITS = dict(zip(_K.TOUCH_COLUMNS, _K.TOUCH_BITS))
_KERNEL_INPUTS = ("weapons", "n_models", "order", "opts")  # with ``models``: every array mc_battle plays from


def copy_rule(base: BattleSetup, changed: BattleSetup) -> tuple[int, int] | None:
    """``(model, bits)`` when ``changed`` differs from ``base`` only in the kernel's tracked columns
    (TOUCH_COLUMNS, ``bits``) of one of side A's posse models: a game that reads none of those there plays the
    same for both, move for move, so a paired run can copy the base's outcome for it. ``(0, 0)`` when the two
    are the same battle (every game copied); None when the difference reaches anything else (every game played)."""
    if any(not np.array_equal(getattr(base, n), getattr(changed, n)) for n in _KERNEL_INPUTS):
        return None
    where = np.argwhere(base.models != changed.models)
    if where.size == 0:
        return 0, 0
    sides, models, columns = where.T
    m = int(models[0])
    if (sides != 0).any() or (models != m).any() or m >= int(base.n_models[0]):
        return None
    bits = 0
    for c in set(columns.tolist()):
        bit = _TOUCH_BITS.get(_K.MODEL_COLUMNS[c])
        if bit is None:
            return None
        bits |= bit
    return m, bits


#: Games of a chunk played at a time by a paired run that takes its changed games up where the change first
#: matters (:func:`run_paired`): the base games' saved Game Turns of one block are held at once, 256 x 7 x
#: SNAP_BYTES (about 18 MB) for 8 Game Turns.
PAIRED_BLOCK = 256


def run_paired(base: BattleSetup, changed: Sequence[BattleSetup], trials: int, seed: int, workers: int = 1,
               label: str = "battles", *, changed_counts: bool = True) -> PairedRuns:
    """Play ``base`` and every ``changed`` setup on the same games, chunk by chunk.

    Game t of chunk i draws from streams keyed by chunk i's bit generator (the kernel's per-game streams), so a
    changed posse plays game t on the base's dice and cards up to the first roll the change alters. The base run
    records each game's outcome for one chunk at a time (memory: one chunk), and each changed run adds the sums of
    the paired products; the sums are integers, so the figures are the same for any ``workers``.

    ``changed_counts=False``: the changed runs' own counts are not kept (``counts[j]`` None), and a changed run
    that :func:`copy_rule` allows plays only what the change can alter: it copies the base's outcome of every game
    that never read what the change touches (a Fighting Skill in a game without Fights, Hard to Kill in one where
    the model is never Downed) instead of playing it, and takes any other game up from the base game as saved at
    the start of the latest Game Turn before which it had not read it (the turns before play the same for both,
    move for move). The games are then played :data:`PAIRED_BLOCK` at a time. The paired sums are the same, to the
    last bit, as when every game is played from its start."""
    plan = SamplingPlan(seed=seed, trials=trials)
    base_counts = np.zeros(_K.N_OUT, dtype=np.int64)
    counts = [np.zeros(_K.N_OUT, dtype=np.int64) for _ in changed]
    pairs = [np.zeros(len(_K.PAIRED_FIGURES) * len(_K.PAIR_SUMS), dtype=np.int64) for _ in changed]
    rules = [None if changed_counts else copy_rule(base, c) for c in changed]
    copied = [0] * len(changed)
    resumed = [np.zeros(2, dtype=np.int64) for _ in changed]
    n_saves = int(base.opts[_K.OPTION_COLUMNS.index("turns")]) - 1
    take_up = n_saves > 0 and any(r is not None and r[1] for r in rules)
    saves = np.empty((PAIRED_BLOCK, n_saves, _K.SNAP_BYTES), dtype=np.uint8) if take_up else None

    def play(setup: BattleSetup, chunk: int, first: int, n: int, out: np.ndarray, **kw) -> int:
        return play_games(setup, seed, chunk, first, n, out, **kw)

    with Progress(trials * (1 + len(changed)), label) as progress, \
            cf.ThreadPoolExecutor(max_workers=max(workers, 1)) as pool:  # the kernel releases the GIL
        for i, size in enumerate(plan.chunk_sizes()):
            for first in range(0, size, PAIRED_BLOCK if take_up else size):
                n = min(size - first, PAIRED_BLOCK) if take_up else size
                record = np.zeros((n, len(_K.RECORD_COLUMNS)), dtype=np.int8)
                touched = None if all(r is None for r in rules) else np.zeros((n, _K.MAX_MODELS), dtype=np.int32)
                kept = {} if saves is None else {"saves": saves[:n], "saved": np.zeros(n, dtype=np.int32)}
                play(base, i, first, n, base_counts, record=record, touched=touched, **kept)
                progress.advance(n)

                def work(j: int, i: int = i, first: int = first, n: int = n, record: np.ndarray = record,
                         touched=touched, kept=kept) -> None:
                    kw = {}
                    if rules[j] is not None:
                        kw = {"paired_touched": touched, "skip_model": rules[j][0], "skip_mask": rules[j][1]}
                        if kept and rules[j][1]:
                            kw.update(paired_saves=kept["saves"], paired_saved=kept["saved"], resumed=resumed[j])
                    copied[j] += play(changed[j], i, first, n, counts[j], paired=record, pair_out=pairs[j], **kw)

                if workers <= 1:
                    for j in range(len(changed)):
                        work(j)
                        progress.advance(n)
                else:
                    for _ in pool.map(work, range(len(changed))):
                        progress.advance(n)
    return PairedRuns(base_counts, counts if changed_counts else [None] * len(changed), pairs, trials, copied,
                      [(int(r[0]), int(r[1])) for r in resumed])


def summarise(setup: BattleSetup, counts: np.ndarray, trials: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    h = dict(zip(_K.HEAD_COLUMNS, counts[: len(_K.HEAD_COLUMNS)].tolist()))
    n = trials
    rows = []
    for fig, key in (("p_a_wins", "a_wins"), ("p_b_wins", "b_wins"), ("p_draw", "draw"), ("p_a_bottles", "a_bottles"),
                     ("p_b_bottles", "b_bottles"), ("p_a_wiped_out", "a_wiped"), ("p_b_wiped_out", "b_wiped"),
                     ("p_by_victory_points", "by_vp")):
        rows.append((fig, *_prop(h[key], n)))
    rows.append(("turns_mean", *_mean_se(h["turns"], h["turns_sq"], n)))
    rows.append(("casualties_a", *_mean_se(h["casualties_a"], h["casualties_a_sq"], n)))
    rows.append(("casualties_b", *_mean_se(h["casualties_b"], h["casualties_b_sq"], n)))
    rows.append(("victory_points_a", *_mean_se(h["vp_a"], h["vp_a_sq"], n)))
    rows.append(("victory_points_b", *_mean_se(h["vp_b"], h["vp_b_sq"], n)))
    # Events per Game Turn played: a ratio of two per-game sums (delta method)
    ratio = h["events"] / h["turns"]
    var = h["events_sq"] - 2 * ratio * h["events_turns"] + ratio * ratio * h["turns_sq"]
    rows.append(("p_event_per_turn", ratio, math.sqrt(max(var, 0.0)) / h["turns"]))
    rows.append(("p_a_first_turn_1", *_prop(h["a_first"], n)))
    rows.append(("p_event_turn_1", *_prop(h["event_turn_1"], n)))
    rows.append(("fights_mean", *_mean_se(h["fights"], h["fights_sq"], n)))
    rows.append(("p_a_fight_casualties", *_mean_se(h["fight_cas_a"], h["fight_cas_a_sq"], n)))
    rows.append(("p_b_fight_casualties", *_mean_se(h["fight_cas_b"], h["fight_cas_b_sq"], n)))
    summary = pd.DataFrame(rows, columns=["figure", "value", "stderr"])
    summary = summary.set_index("figure").loc[list(SUMMARY_FIGURES)].reset_index()
    mrows = []
    base = len(_K.HEAD_COLUMNS)
    mx = _K.MAX_MODELS
    for s, (tag, side) in enumerate((("a", setup.a), ("b", setup.b))):
        rows_ = [(mp, mp.model.name) for mp in side.models]
        if side.revenant is not None:
            rows_ += [(side.revenant, f"Revenant {k + 1}") for k in range(REVENANT_SLOTS)]
        slots = list(range(len(rows_)))
        # the Summoned Entity slots (a game counts when its Entity of that type was a Casualty, Downed, Fought)
        rows_ += [(ent, f"Summoned {ent.summoned}") for ent in side.entities]
        slots += [_K.ENTITY_SLOT + k for k in range(len(side.entities))]
        for i, (mp, name) in zip(slots, rows_):
            cas = counts[base + s * mx + i]
            down = counts[base + 2 * mx + s * mx + i]
            fought = counts[base + 4 * mx + s * mx + i]
            pc, sc = _prop(cas, n)
            pd_, sd = _prop(down, n)
            pf, sf = _prop(fought, n)
            mrows.append({"side": tag, "posse": side.posse.name, "model": name, "rank": mp.model.rank.label,
                          "boss": mp.boss, "revenant": mp.revenant, "summoned": mp.summoned is not None,
                          "style": mp.style, "p_casualty": pc,
                          "p_casualty_stderr": sc, "p_downed_at_end": pd_, "p_downed_at_end_stderr": sd,
                          "p_fought": pf, "p_fought_stderr": sf})
    return summary, pd.DataFrame(mrows)


def battle(posse_a: P.Posse, posse_b: P.Posse, options: BattleOptions | None = None, *, trials: int = DEFAULT_TRIALS,
           seed: int | None = None, workers: int = 1) -> BattleResult:
    """Monte Carlo battle of posse A against posse B (module docstring); figures with standard errors."""
    trials = check_trials(int(trials))
    workers = check_workers(int(workers))
    sd = resolve_seed(seed)
    setup = prepare(posse_a, posse_b, options)
    return result_of_counts(setup, run_counts(setup, trials, sd, workers), trials, sd)


def result_of_counts(setup: BattleSetup, counts: np.ndarray, trials: int, seed: int) -> BattleResult:
    """The figures of ``trials`` games of ``setup`` on ``seed`` from their kernel counts (:func:`run_counts`', or the
    sum of :func:`play_games` over every game)."""
    summary, models = summarise(setup, counts, trials)
    return BattleResult(setup, summary, models, activation_table(setup), trials, seed, counts)


# ---------------------------------------------------------------------------
# Exact activation-order odds by card counting ("Activations")
# ---------------------------------------------------------------------------


def turn_one_hands(posse: P.Posse) -> int:
    """Cards drawn in Turn 1: every model is on the table, the Boss among them."""
    return R.hand_size(len(posse.models), posse.boss is not None)


def _key_groups(deck: Sequence[R.PlayingCard]) -> list[int]:
    """Sizes of the groups of equal activation key, best key first."""
    keys = sorted(c.activation_key for c in deck)
    sizes: list[int] = []
    last = None
    for k in keys:
        if k != last:
            sizes.append(0)
            last = k
        sizes[-1] += 1
    return sizes


def p_first_activation(hand_a: int, hand_b: int, deck: Sequence[R.PlayingCard] | None = None) -> Fraction:
    """P(side A Activates first in the first round), both drawing from their own full Deck and playing their best
    card: the best key of each Hand by counting, equal keys (the same card included) won half the time by Roll-Off."""
    cards = list(deck) if deck is not None else R.deck_cards()
    n = len(cards)
    if not (0 <= hand_a <= n and 0 <= hand_b <= n):
        raise OddsmithError(f"a Hand holds 0..{n} cards, got {hand_a} and {hand_b}")
    if hand_a == 0:
        return Fraction(0)
    if hand_b == 0:
        return Fraction(1)
    total_a, total_b = math.comb(n, hand_a), math.comb(n, hand_b)
    out = Fraction(0)
    worse = n
    for size in _key_groups(cards):
        worse -= size  # cards with a worse key than this group
        pa = Fraction(math.comb(worse + size, hand_a) - math.comb(worse, hand_a), total_a)
        pb_same = Fraction(math.comb(worse + size, hand_b) - math.comb(worse, hand_b), total_b)
        pb_worse = Fraction(math.comb(worse, hand_b), total_b)
        out += pa * (pb_worse + pb_same / 2)
    return out


def p_event(hand_a: int, hand_b: int, deck: Sequence[R.PlayingCard] | None = None) -> Fraction:
    """P(the exact same card is revealed in some round of a Turn) when both sides play every card, best first
    (equal keys in a fixed suit order), from their own full Decks. Counting over the cards in playing order:
    a card in both Hands at the same position k is revealed by both in round k."""
    cards = sorted(list(deck) if deck is not None else R.deck_cards(),
                   key=lambda c: (c.activation_key, c.suit or "", c.colour))
    n = len(cards)
    if not (0 <= hand_a <= n and 0 <= hand_b <= n):
        raise OddsmithError(f"a Hand holds 0..{n} cards, got {hand_a} and {hand_b}")
    # ways[i][j]: pairs of card sets so far with i cards in A's Hand, j in B's, and no card shared at one position
    ways = [[0] * (hand_b + 1) for _ in range(hand_a + 1)]
    ways[0][0] = 1
    for _ in cards:
        new = [[0] * (hand_b + 1) for _ in range(hand_a + 1)]
        for i in range(hand_a + 1):
            for j in range(hand_b + 1):
                w = ways[i][j]
                if not w:
                    continue
                new[i][j] += w
                if i < hand_a:
                    new[i + 1][j] += w
                if j < hand_b:
                    new[i][j + 1] += w
                if i < hand_a and j < hand_b and i != j:
                    new[i + 1][j + 1] += w
        ways = new
    return 1 - Fraction(ways[hand_a][hand_b], math.comb(n, hand_a) * math.comb(n, hand_b))


def activation_table(setup: BattleSetup) -> pd.DataFrame:
    """Turn 1's exact odds for these posses' Hands: who Activates first, and the chance of an Event."""
    ha, hb = turn_one_hands(setup.a.posse), turn_one_hands(setup.b.posse)
    first, event = p_first_activation(ha, hb), p_event(ha, hb)
    return pd.DataFrame([
        {"figure": "p_a_first", "hand_a": ha, "hand_b": hb, "value": float(first),
         "exact": f"{first.numerator}/{first.denominator}"},
        {"figure": "p_event_if_all_cards_played", "hand_a": ha, "hand_b": hb, "value": float(event),
         "exact": f"{event.numerator}/{event.denominator}"},
    ])


def simulate_first_round(hand_a: int, hand_b: int, *, trials: int = 1_000_000, seed: int | None = None,
                         workers: int = 1) -> tuple[dict[str, float], dict[str, float]]:
    """The kernel's own card code on Turn 1 only: (figures, stderr) for ``p_a_first`` and ``p_event``."""
    trials = check_trials(int(trials))
    sd = resolve_seed(seed)

    def work(gen, n):
        out = np.zeros(2, dtype=np.int64)
        _K.mc_first_round(gen, int(hand_a), int(hand_b), R.ROLL_OFF_DIE, n, out)
        return out

    c = np.sum(np.stack(run_chunks(work, SamplingPlan(seed=sd, trials=trials), workers=check_workers(workers),
                                   label="hands")), axis=0)
    figs = {"p_a_first": c[0] / trials, "p_event": c[1] / trials}
    return figs, {k: math.sqrt(v * (1 - v) / trials) for k, v in figs.items()}
