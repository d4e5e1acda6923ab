"""Whole Doomtown shootouts: posse against posse, round after round, to the end.

Rulebook "Shootout Sequence" steps 3-11, "Ending a Shootout", "9. Take Your Lumps",
"10. Flight or Fight", "Where Cards Go" and "Automaton Variant"; every rule and policy is
defined in :mod:`oddsmith.rules.doomtown` (section "Whole shootouts") and played in C by
``oddsmith._ext.full_shootout``. What oddsmith reads where the book leaves room is listed
in docs/doomtown-full-shootouts.md.

* :func:`full_shootout` plays ``trials`` shootouts of side A (the leader) against side B
  and returns a :class:`FullShootout` (DataFrames and ``to_json``);
* :func:`what_if` answers "what is +1 worth?": the change in A's P(win the shootout) and
  in A's expected dudes lost from one change at a time, on common random numbers.

The ``best`` shooter policy needs P(win the round) for every pair of (stud, draw)
bonuses the two posses can field. It is estimated once per setup from
:data:`TABLE_HANDS` kept hands per side and bonus, each drawn from a freshly shuffled
deck with the play hand set aside (not from the deck as it is after earlier rounds):
P(A wins) = P(key_A > key_B) over the two samples, every pair compared. The same table
feeds the plain-Python reference in the tests, so both play the same game.
"""
from __future__ import annotations

import math
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Any, Sequence

import numpy as np
import pandas as pd

from oddsmith import _ext
from oddsmith.doomtown.deck import Deck, deck_label, deck_state_of, kernel_codes
from oddsmith.doomtown.posse import Posse, PosseDude, Sidekick
from oddsmith.doomtown.shootout import AUTOMATON_POLICY, MAX_BONUS, Policy, parse_policy
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import (
    CASUALTY_POLICY_NAMES,
    DECK_RULES,
    FLEE_NEVER,
    HAND_SIZE,
    JOKER_CODE,
    SHOOTER_POLICY_NAMES,
    SHOOTOUT_ROUND_CAP,
    BulletType,
    CasualtyPolicy,
    FleeKind,
    FleePolicy,
    ShooterPolicy,
    automaton_casualty_key,
    automaton_shooter_key,
    weakest_first_key,
)
from oddsmith.sampling import SamplingPlan, binomial_stderr, check_trials, check_workers, resolve_seed, run_chunks
from oddsmith.notebook import notebook_view

DEFAULT_TRIALS = 200_000
DEFAULT_WHAT_IF_TRIALS = 50_000
TABLE_HANDS = 4096
"""Kept hands per side and (stud, draw) bonus behind the ``best`` policy's round-win table."""
NB = MAX_BONUS + 1
"""Bonuses 0..MAX_BONUS per side: the kernel's table stride (its BONUSES)."""
DISCARDS = ("heuristic", "automaton")
_MODE = {"heuristic": 0, "automaton": 2}
_TABLE_KEY = 0x5EED7AB1E
"""Spawn-key tag of the round-win table's streams (apart from the chunks' streams)."""


def _kernels():
    return _ext.load("full_shootout")


# --------------------------------------------------------------------------
# Policies
# --------------------------------------------------------------------------


def _named_policy(text, kind: type, names: dict, what: str):
    """The policy named ``text`` (or ``text`` itself when already one) from ``names``."""
    if isinstance(text, kind):
        return text
    p = names.get(str(text).strip().casefold())
    if p is None:
        raise OddsmithError(f"unknown {what} policy {text!r}: use {', '.join(names)}")
    return p


def parse_shooter_policy(text: str | ShooterPolicy) -> ShooterPolicy:
    return _named_policy(text, ShooterPolicy, SHOOTER_POLICY_NAMES, "shooter")


def parse_casualty_policy(text: str | CasualtyPolicy) -> CasualtyPolicy:
    return _named_policy(text, CasualtyPolicy, CASUALTY_POLICY_NAMES, "casualty")


def parse_flee_policy(text: str | FleePolicy) -> FleePolicy:
    """``never``, ``outnumbered`` or ``losses:K`` (K >= 1)."""
    if isinstance(text, FleePolicy):
        return text
    t = str(text).strip().casefold().replace(" ", "")
    if t == "never":
        return FLEE_NEVER
    if t == "outnumbered":
        return FleePolicy(FleeKind.OUTNUMBERED)
    for sep in (":", "="):
        if t.startswith("losses" + sep) and t[7:].lstrip("-").isdigit():
            k = int(t[7:])
            if k < 1:
                raise OddsmithError(f"flee policy {text!r}: K must be at least 1 (losses:1 flees after one dude is gone)")
            return FleePolicy(FleeKind.LOSSES, k)
    raise OddsmithError(f"unknown flee policy {text!r}: use never, outnumbered or losses:K")


def _name(p: Any) -> str:
    return p.name.lower().replace("_", "-") if isinstance(p, (ShooterPolicy, CasualtyPolicy)) else str(p)


@dataclass(frozen=True)
class FullSide:
    """One side of a whole shootout: its deck, its posse and how it plays.

    ``automaton=True`` plays it by the Automaton Variant throughout: the Automaton's shooter
    priority, its shootout hand rule, the Gunfighter's casualty reflexes, never fleeing
    (the other policy fields are then ignored)."""

    deck: object
    posse: Posse
    shooter: str | ShooterPolicy = "best"
    casualties: str | CasualtyPolicy = "keep-posse"
    flee: str | FleePolicy = "never"
    policy: Policy | str = "legal"
    discard: str = "heuristic"
    automaton: bool = False
    name: str | None = None

    def checked(self) -> "FullSide":
        if not isinstance(self.posse, Posse):
            from oddsmith.doomtown.posse import resolve_posse

            # a posse file or text, or "gang": the deck's own starting gang
            posse = resolve_posse(self.posse, deck=self.deck) if self.posse is not None else None
            if not isinstance(posse, Posse):
                raise OddsmithError("a full shootout side needs a posse")
            return replace(self, posse=posse).checked()
        if self.automaton:
            return replace(self, shooter=ShooterPolicy.AUTOMATON, casualties=CasualtyPolicy.AUTOMATON,
                           flee=FLEE_NEVER, policy=AUTOMATON_POLICY, discard="automaton",
                           name=self.name or deck_label(self.deck))
        discard = str(self.discard).strip().casefold()
        if discard not in DISCARDS:
            raise OddsmithError(f"discard policy {self.discard!r} cannot play whole shootouts: use "
                                f"{' or '.join(DISCARDS)} (search is a one-hand reference)")
        return replace(self, shooter=parse_shooter_policy(self.shooter),
                       casualties=parse_casualty_policy(self.casualties), flee=parse_flee_policy(self.flee),
                       policy=AUTOMATON_POLICY if discard == "automaton" else parse_policy(self.policy),
                       discard=discard, name=self.name or deck_label(self.deck))

    @property
    def policy_text(self) -> str:
        return (f"shooter {_name(self.shooter)}, casualties {_name(self.casualties)}, flee {_name(self.flee)}, "
                f"discard {self.discard}" + ("" if self.discard == "automaton" else f", policy {self.policy}")
                + (" (Automaton)" if self.automaton else ""))


# --------------------------------------------------------------------------
# Kernel input
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Setup:
    """One side as the kernel takes it."""

    codes: np.ndarray
    removed: tuple[str, ...]
    dudes: np.ndarray          # int32 [n, 7]
    sidekicks: np.ndarray      # int32 [n, MAX_SIDEKICKS]
    policy: np.ndarray         # int32 [6]
    order_shoot: np.ndarray
    order_cas: np.ndarray
    margin: int
    mode: int
    bonuses: tuple[tuple[int, int], ...]


#: Each deck's title keys (of its cards, of its cards in play) and card codes, worked out once per deck: a what-if page
#: sets up some thirty variants of one deck pair. Decks are compared by identity, as :attr:`Deck.deck_state` is.
_DECK_KEYS: "weakref.WeakKeyDictionary[Deck, tuple[tuple[str, ...], tuple[str, ...], np.ndarray]]" = \
    weakref.WeakKeyDictionary()


def _deck_keys(deck: object, cards: pd.DataFrame) -> tuple[tuple[str, ...], tuple[str, ...], np.ndarray]:
    """(title keys of ``cards``, title keys of the deck's ``in_play`` cards, the codes of ``cards``, read-only)."""
    kept = isinstance(deck, Deck) and deck.cards is cards
    known = _DECK_KEYS.get(deck) if kept else None
    if known is not None:
        return known
    from oddsmith.doomtown.cardtable import title_key

    def keys_of(frame: object) -> tuple[str, ...]:
        if not isinstance(frame, pd.DataFrame) or "title" not in frame.columns:
            return ()
        return tuple(title_key(t) if isinstance(t, str) and t else "" for t in frame["title"])

    codes = cards["code"].to_numpy(dtype=np.int64)
    codes.flags.writeable = False
    known = (keys_of(cards), keys_of(getattr(deck, "in_play", None)), codes)
    if kept:
        _DECK_KEYS[deck] = known
    return known


def cycle_codes(deck: object, posse: Posse) -> tuple[np.ndarray, tuple[str, ...]]:
    """The deck's cards without the posse's cards in play (dudes and Sidekicks found in it by
    title), and the titles removed.

    A card in play is one copy, whatever the deck holds: a posse card matching a card that
    set-up already put into play (the deck's ``in_play`` starting gang) is that card and
    leaves nothing more; only a posse card not yet in play takes one copy out of the deck.
    A dude given directly has no card to remove."""
    cards = getattr(deck, "cards", None)
    removed: list[str] = []
    if isinstance(cards, pd.DataFrame) and "title" in cards.columns:
        from oddsmith.doomtown.cardtable import title_key

        keys, played, all_codes = _deck_keys(deck, cards)
        in_play = list(played)
        keep = np.ones(len(cards), dtype=bool)
        for title in posse.titles_in_play():
            key = title_key(title)
            if key in in_play:  # already in play since set-up: this copy is the posse's card
                in_play.remove(key)
                continue
            hits = [i for i, k in enumerate(keys) if k == key and keep[i]]
            if hits:
                keep[hits[0]] = False
                removed.append(title)
        codes = all_codes[keep].astype(np.uint8)
        return codes, tuple(removed)
    return kernel_codes(deck), ()


def reachable_bonuses(posse: Posse) -> tuple[tuple[int, int], ...]:
    """Every (stud, draw) bonus the posse or what is left of it can field (Rulebook "4. Draw!")."""
    out: set[tuple[int, int]] = set()
    n_stud = sum(d.bullet_type is BulletType.STUD for d in posse.dudes)
    n_draw = len(posse.dudes) - n_stud
    for d in posse.dudes:
        stud = d.bullet_type is BulletType.STUD
        for x in range(n_stud - stud + 1):
            for y in range(n_draw - (not stud) + 1):
                out.add((d.bullets * stud + x, d.bullets * (not stud) + y))
    return tuple(sorted(out))


def _setup(side: FullSide, who: str) -> _Setup:
    k = _kernels()
    posse = side.posse
    if len(posse.dudes) > k.MAX_DUDES:
        raise OddsmithError(f"{who} posse: {len(posse.dudes)} dudes (a whole shootout takes at most {k.MAX_DUDES})")
    for i in range(len(posse.dudes)):
        b = posse.bonus(i)
        if b.stud > MAX_BONUS or b.draw > MAX_BONUS:
            raise OddsmithError(f"{who} posse: with {posse.dudes[i].name} as shooter the bonus is stud {b.stud}, "
                                f"draw {b.draw} (oddsmith plays bonuses up to {MAX_BONUS})")
    codes, removed = cycle_codes(side.deck, posse)
    jokers = int((codes == JOKER_CODE).sum())
    if jokers > DECK_RULES.max_jokers:
        raise OddsmithError(f"{who} deck {side.name}: {jokers} jokers (a deck holds at most {DECK_RULES.max_jokers})")
    max_stud = max(b for b, _ in reachable_bonuses(posse))
    need = HAND_SIZE + HAND_SIZE + max_stud
    if codes.size < need:
        raise OddsmithError(f"{who} deck {side.name}: {codes.size} cards without the posse's cards in play; a whole "
                            f"shootout needs {need} (a play hand set aside and 5 + stud {max_stud})")
    if codes.size > k.MAX_DECK:
        raise OddsmithError(f"{who} deck {side.name}: {codes.size} cards (at most {k.MAX_DECK})")
    n = len(posse.dudes)
    dudes = np.zeros((n, 7), dtype=np.int32)
    sk = np.full((n, k.MAX_SIDEKICKS), -1, dtype=np.int32)
    for i, d in enumerate(posse.dudes):
        if len(d.sidekicks) > k.MAX_SIDEKICKS:
            raise OddsmithError(f"{who} posse: {d.name} has more than {k.MAX_SIDEKICKS} Sidekicks")
        dudes[i] = (d.bullets, d.bullet_type is BulletType.STUD, d.harrowed, d.token, d.bounty,
                    -1 if d.code is None or d.token else d.code, len(d.sidekicks))
        for j, kick in enumerate(d.sidekicks):
            sk[i, j] = -1 if kick.code is None else kick.code
    shooter = ShooterPolicy(side.shooter)  # type: ignore[arg-type]
    cas = CasualtyPolicy(side.casualties)  # type: ignore[arg-type]
    flee: FleePolicy = side.flee  # type: ignore[assignment]
    idx = range(n)
    if shooter is ShooterPolicy.AUTOMATON:
        order_shoot = sorted(idx, key=lambda i: automaton_shooter_key(
            posse.dudes[i].bullets, posse.dudes[i].bullet_type, posse.dudes[i].booted, posse.dudes[i].influence,
            posse.dudes[i].value, posse.dudes[i].name))
    else:
        order_shoot = list(idx)
    if cas is CasualtyPolicy.AUTOMATON:
        order_cas = sorted(idx, key=lambda i: automaton_casualty_key(
            posse.dudes[i].influence, posse.dudes[i].bullet_type,
            posse.dudes[i].cost + sum(s.cost for s in posse.dudes[i].sidekicks), posse.dudes[i].value,
            posse.dudes[i].name))
    else:
        order_cas = sorted(idx, key=lambda i: weakest_first_key(posse.dudes[i].bullets, posse.dudes[i].bullet_type, i))
    pol: Policy = side.policy  # type: ignore[assignment]
    margin, mode = pol.kernel_margin, _MODE[side.discard]
    policy = np.array([int(shooter), int(cas), int(flee.kind), flee.losses, margin, mode], dtype=np.int32)
    return _Setup(codes, removed, dudes, sk, policy, np.array(order_shoot, dtype=np.int32),
                  np.array(order_cas, dtype=np.int32), margin, mode, reachable_bonuses(posse))


def _table_generator(seed: int, side: int, stud: int, draw: int) -> np.random.PCG64:
    return np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(_TABLE_KEY, side, stud, draw)))


class _BoundedCache:
    """At most ``size`` entries, the oldest used dropped first (one per process: the report's
    what-if variants share a deck pair, and so most of their round-win table entries)."""

    def __init__(self, size: int) -> None:
        self.size, self.data, self.lock = size, OrderedDict(), threading.Lock()

    def get(self, key, make):
        with self.lock:  # library callers may play shootouts from several threads
            if key in self.data:
                self.data.move_to_end(key)
                return self.data[key]
            value = self.data[key] = make()
            if len(self.data) > self.size:
                self.data.popitem(last=False)
            return value

    def clear(self) -> None:
        with self.lock:
            self.data.clear()


_KEYS = _BoundedCache(512)
"""Sorted kept-hand keys per (deck cards, hand policy, discard, seed, side, bonus, hands), with
their distinct values and counts: at most 512 samples, about 35 KB each at :data:`TABLE_HANDS`."""
_PAIR_TABLES = _BoundedCache(32)
"""Per pair of sides' kept-hand samples (deck cards, hand policy and discard of each side, seed,
hands): the round-win table over every bonus pair played so far, NaN where not yet computed. At
most 32 pairs, 234 KB each (two tables of NB ** 4 floats); a report's what-if page plays one
(its starting gangs are in play since set-up, so no variant changes a deck's cards)."""


def _hand_keys(s: _Setup, side: int, stud: int, draw: int, seed: int,
               hands: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The sorted keys of ``hands`` kept hands for one side and bonus, their distinct values
    and how often each comes up. Each sample has its own stream, seeded from (seed, side,
    bonus) alone, so an entry is the same whichever setup or variant asks for it first."""
    key = (s.codes.tobytes(), s.margin, s.mode, seed, side, stud, draw, hands)

    def make() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        arr = np.zeros(hands, dtype=np.int64)
        _kernels().sample_keys(s.codes, stud, draw, s.margin, s.mode, _table_generator(seed, side, stud, draw), arr)
        arr.sort()
        distinct, counts = np.unique(arr, return_counts=True)
        for x in (arr, distinct, counts):
            x.flags.writeable = False
        return arr, distinct, counts

    return _KEYS.get(key, make)


def _bonus_index(bonuses: tuple[tuple[int, int], ...]) -> np.ndarray:
    return np.array([s * NB + d for s, d in bonuses], dtype=np.intp)


def round_win_tables(sa: _Setup, sb: _Setup, seed: int, hands: int = TABLE_HANDS) -> tuple[np.ndarray, np.ndarray]:
    """P(A wins the round) and P(B wins) for every pair of reachable bonuses, flattened as
    ((stud_a * NB + draw_a) * NB + stud_b) * NB + draw_b (NaN where unreachable).

    Entries are memoised per process (:data:`_KEYS`, :data:`_PAIR_TABLES`): :func:`what_if`'s
    variants mostly share decks, policies and bonuses, and each entry depends only on those,
    the seed and the bonus pair, so sharing changes no figure."""
    pair = (sa.codes.tobytes(), sa.margin, sa.mode, sb.codes.tobytes(), sb.margin, sb.mode, seed, hands)
    known_a, known_b, lock = _PAIR_TABLES.get(pair, lambda: (np.full(NB ** 4, np.nan), np.full(NB ** 4, np.nan),
                                                              threading.Lock()))
    ia, ib = _bonus_index(sa.bonuses), _bonus_index(sb.bonuses)
    wanted = (ia[:, None] * (NB * NB) + ib[None, :]).ravel()
    with lock:  # one thread fills a pair's missing entries; the values are the same whoever does
        missing = wanted[np.isnan(known_a[wanted])]
        if missing.size:
            keys_a = {i: _hand_keys(sa, 0, i // NB, i % NB, seed, hands) for i in np.unique(missing // (NB * NB))}
            keys_b = {i: _hand_keys(sb, 1, i // NB, i % NB, seed, hands) for i in np.unique(missing % (NB * NB))}
            for i in missing:
                (a, a_keys, a_counts), (b, _, _) = keys_a[i // (NB * NB)], keys_b[i % (NB * NB)]
                # pairs (A's hand, B's hand) with A's key above B's, and below: each distinct key of A
                # counted once, times how often it comes up (a sample holds about 200 distinct keys)
                below = (a_counts * np.searchsorted(b, a_keys, side="left")).sum()
                above = (a_counts * (b.size - np.searchsorted(b, a_keys, side="right"))).sum()
                known_a[i], known_b[i] = below / (a.size * b.size), above / (a.size * b.size)
        pw_a = np.full(NB ** 4, np.nan)
        pw_b = np.full(NB ** 4, np.nan)
        pw_a[wanted], pw_b[wanted] = known_a[wanted], known_b[wanted]
    return pw_a, pw_b


# --------------------------------------------------------------------------
# Results
# --------------------------------------------------------------------------

FATES = ("standing", "aced", "discarded", "home", "fled")


@notebook_view
@dataclass(frozen=True, eq=False)
class FullShootout:
    """Whole shootouts, side A (the leader) against side B.

    ``summary``: one row per figure (``figure``, ``value``, ``stderr``): p_a_wins, p_b_wins,
    p_nobody, p_a_fled, p_b_fled, p_cap (stopped at the round cap), rounds_mean, bounty_a,
    bounty_b (expected bounty each side collects), dudes_lost_a, dudes_lost_b (aced or
    discarded), p_reshuffle (either deck reshuffled), p_reshuffle_a, p_reshuffle_b.
    ``rounds``: rounds, p, stderr. ``dudes``: side, name, p_aced, p_discarded, p_sent_home
    (a Harrowed dude sent home as a casualty, or fled), p_fled, p_standing, each with
    ``_stderr``.
    """

    a: FullSide
    b: FullSide
    trials: int
    seed: int
    summary: pd.DataFrame
    rounds: pd.DataFrame
    dudes: pd.DataFrame
    cap_hits: int
    removed: tuple[tuple[str, ...], tuple[str, ...]]
    per_trial: pd.DataFrame | None = field(default=None, repr=False)
    """With ``per_trial=True``: winner (0 nobody, 1 A, 2 B), lost_a, lost_b per trial."""

    def figure(self, name: str) -> float:
        return float(self.summary.loc[self.summary["figure"] == name, "value"].iloc[0])

    def stderr(self, name: str) -> float:
        return float(self.summary.loc[self.summary["figure"] == name, "stderr"].iloc[0])

    def to_json(self) -> dict[str, Any]:
        """The issue 8 contract: p_a_wins, p_b_wins, p_nobody, p_a_fled, p_b_fled, rounds_mean,
        rounds (n -> p), dudes, bounty_a, bounty_b, p_reshuffle, trials, seed, stderr (every
        probability and mean), plus cap_hits, p_cap, dudes_lost_a/b, and per side (``a``, ``b``)
        its deck, ``deck_state`` (which deck: after set-up or full), policies and the cards
        taken out of its deck as in play."""
        fig = {r.figure: float(r.value) for r in self.summary.itertuples()}
        se = {r.figure: float(r.stderr) for r in self.summary.itertuples()}
        dudes, dudes_se = [], []
        for r in self.dudes.itertuples():
            dudes.append({"side": r.side, "name": r.name, "p_aced": r.p_aced, "p_discarded": r.p_discarded,
                          "p_sent_home": r.p_sent_home, "p_fled": r.p_fled, "p_standing": r.p_standing})
            dudes_se.append({"side": r.side, "name": r.name, "p_aced": r.p_aced_stderr,
                             "p_discarded": r.p_discarded_stderr, "p_sent_home": r.p_sent_home_stderr,
                             "p_fled": r.p_fled_stderr, "p_standing": r.p_standing_stderr})
        out: dict[str, Any] = {k: fig[k] for k in ("p_a_wins", "p_b_wins", "p_nobody", "p_a_fled", "p_b_fled",
                                                   "rounds_mean")}
        out["rounds"] = {int(r.rounds): float(r.p) for r in self.rounds.itertuples() if r.p > 0}
        out["dudes"] = dudes
        out.update({k: fig[k] for k in ("bounty_a", "bounty_b", "p_reshuffle", "p_reshuffle_a", "p_reshuffle_b",
                                         "dudes_lost_a", "dudes_lost_b", "p_cap")})
        out["cap_hits"] = int(self.cap_hits)
        out["round_cap"] = SHOOTOUT_ROUND_CAP
        out["trials"] = int(self.trials)
        out["seed"] = int(self.seed)
        out["stderr"] = {**se, "rounds": {int(r.rounds): float(r.stderr) for r in self.rounds.itertuples() if r.p > 0},
                         "dudes": dudes_se}
        for key, side, removed in (("a", self.a, self.removed[0]), ("b", self.b, self.removed[1])):
            out[key] = {"deck": side.name, "deck_state": deck_state_of(side.deck), "policies": side.policy_text,
                        "in_play_removed": list(removed)}
        return out


def _mean_se(total: float, total_sq: float, n: int) -> tuple[float, float]:
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0)
    return mean, math.sqrt(var / n) if n > 1 else 0.0


def _play(a: FullSide, b: FullSide, trials: int, seed: int, workers: int, per_trial: bool,
          tables: tuple[np.ndarray, np.ndarray] | None = None):
    """The kernel's sums over ``trials`` shootouts of checked sides: (setup A, setup B, summary
    counts, rounds histogram, fates [2, MAX_DUDES, N_FATES], and with ``per_trial`` the chunks'
    per-trial winner, lost_a and lost_b arrays)."""
    sa, sb = _setup(a, "A"), _setup(b, "B")
    if tables is None:
        if ShooterPolicy.BEST in (a.shooter, b.shooter):
            tables = round_win_tables(sa, sb, seed)
        else:
            tables = (np.full(NB ** 4, np.nan), np.full(NB ** 4, np.nan))
    pw_a, pw_b = tables
    k = _kernels()
    nf = 2 * k.MAX_DUDES * k.N_FATES

    def work(gen: np.random.PCG64, n: int):
        summary = np.zeros(k.S_SIZE, dtype=np.int64)
        hist = np.zeros(k.ROUND_CAP + 1, dtype=np.int64)
        fates = np.zeros(nf, dtype=np.int64)
        m = n if per_trial else 0
        w, la, lb = np.zeros(m, np.int8), np.zeros(m, np.int8), np.zeros(m, np.int8)
        k.simulate(sa.codes, sa.dudes, sa.sidekicks, sa.policy, sa.order_shoot, sa.order_cas,
                   sb.codes, sb.dudes, sb.sidekicks, sb.policy, sb.order_shoot, sb.order_cas,
                   pw_a, pw_b, gen, gen.jumped(), n, summary, hist, fates, w, la, lb)
        return summary, hist, fates, w, la, lb

    parts = run_chunks(work, SamplingPlan(seed, trials), workers=workers, label="whole shootouts")
    s = np.sum([p[0] for p in parts], axis=0)
    hist = np.sum([p[1] for p in parts], axis=0)
    fates = np.sum([p[2] for p in parts], axis=0).reshape(2, k.MAX_DUDES, k.N_FATES)
    per = [np.concatenate([p[i] for p in parts]) for i in (3, 4, 5)] if per_trial else None
    return sa, sb, s, hist, fates, per


def full_shootout(a: FullSide, b: FullSide, *, trials: int = DEFAULT_TRIALS, seed: int | None = None,
                  workers: int = 1, per_trial: bool = False, tables: tuple[np.ndarray, np.ndarray] | None = None
                  ) -> FullShootout:
    """Play ``trials`` whole shootouts of side ``a`` (the leader) against side ``b``."""
    a, b = a.checked(), b.checked()
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)
    sa, sb, s, hist, fates, per_arrays = _play(a, b, trials, seed, workers, per_trial, tables)
    k = _kernels()
    n = trials
    rows = []

    def prob(name: str, count: int) -> None:
        p = count / n
        rows.append((name, p, float(binomial_stderr(p, n))))

    prob("p_a_wins", s[k.S_A_WINS])
    prob("p_b_wins", s[k.S_B_WINS])
    prob("p_nobody", s[k.S_NOBODY])
    prob("p_a_fled", s[k.S_A_FLED])
    prob("p_b_fled", s[k.S_B_FLED])
    prob("p_cap", s[k.S_CAP])
    for name, i in (("rounds_mean", k.S_ROUNDS), ("bounty_a", k.S_BOUNTY_A), ("bounty_b", k.S_BOUNTY_B),
                    ("dudes_lost_a", k.S_LOST_A), ("dudes_lost_b", k.S_LOST_B)):
        rows.append((name, *_mean_se(float(s[i]), float(s[i + 1]), n)))
    prob("p_reshuffle", s[k.S_RESHUFFLE_ANY])
    prob("p_reshuffle_a", s[k.S_RESHUFFLE_A])
    prob("p_reshuffle_b", s[k.S_RESHUFFLE_B])
    summary = pd.DataFrame(rows, columns=["figure", "value", "stderr"])
    p_rounds = hist / n
    rounds = pd.DataFrame({"rounds": np.arange(hist.size), "p": p_rounds, "stderr": binomial_stderr(p_rounds, n)})
    rounds = rounds[rounds["rounds"] >= 1].reset_index(drop=True)
    drows = []
    for si, (side, label) in enumerate(((a, "A"), (b, "B"))):
        for i, d in enumerate(side.posse.dudes):
            f = fates[si, i] / n
            row: dict[str, Any] = {"side": label, "name": d.name}
            vals = {"p_aced": f[1], "p_discarded": f[2], "p_sent_home": f[3] + f[4], "p_fled": f[4],
                    "p_standing": f[0]}
            for key, v in vals.items():
                row[key] = float(v)
                row[key + "_stderr"] = float(binomial_stderr(v, n))
            drows.append(row)
    dudes = pd.DataFrame(drows)
    per = None
    if per_arrays is not None:
        per = pd.DataFrame(dict(zip(("winner", "lost_a", "lost_b"), per_arrays)))
    return FullShootout(a=a, b=b, trials=n, seed=seed, summary=summary, rounds=rounds, dudes=dudes,
                        cap_hits=int(s[k.S_CAP]), removed=(sa.removed, sb.removed), per_trial=per)


# --------------------------------------------------------------------------
# What is +1 worth?
# --------------------------------------------------------------------------

WHAT_IF_COLUMNS = ("change", "whose", "p_a_wins", "delta_p_a_wins", "delta_p_a_wins_stderr",
                   "dudes_lost_a", "delta_dudes_lost_a", "delta_dudes_lost_a_stderr",
                   "p_a_wins_stderr", "dudes_lost_a_stderr")  # each row's own errors, added last (a contract)


def _swap(d: PosseDude) -> PosseDude:
    return replace(d, bullet_type=BulletType.DRAW if d.bullet_type is BulletType.STUD else BulletType.STUD)


def _with(posse: Posse, i: int, dude: PosseDude) -> Posse:
    dudes = list(posse.dudes)
    dudes[i] = dude
    return Posse(tuple(dudes), posse.shooter)


def what_if_changes(a: Posse, b: Posse) -> list[tuple[str, str, Posse, Posse]]:
    """(change, whose, posse A, posse B) for every one-step change: to A's posse, +1 bullet on
    each dude, stud<->draw on each dude, one more 1-bullet stud dude, one more 1-bullet draw
    dude, one Sidekick (on the first dude), each dude made Harrowed; taken from B's posse, -1
    bullet on each dude with bullets, stud<->draw on each dude, each dude gone, one Sidekick
    gone, each Harrowed dude no longer Harrowed."""
    out: list[tuple[str, str, Posse, Posse]] = []
    for i, d in enumerate(a.dudes):
        out.append((f"+1 bullet: {d.name}", "A", _with(a, i, replace(d, bullets=d.bullets + 1)), b))
    for i, d in enumerate(a.dudes):
        out.append((f"{d.bullet_type.value}->{_swap(d).bullet_type.value}: {d.name}", "A", _with(a, i, _swap(d)), b))
    for kind in (BulletType.STUD, BulletType.DRAW):
        extra = PosseDude(f"{kind.value}:1", kind, 1)
        out.append((f"+1 dude: {kind.value}:1", "A", Posse(a.dudes + (extra,), a.shooter), b))
    first = a.dudes[0]
    out.append((f"+1 Sidekick (on {first.name})", "A",
                _with(a, 0, replace(first, sidekicks=first.sidekicks + (Sidekick("Sidekick"),))), b))
    for i, d in enumerate(a.dudes):
        if not d.harrowed:
            out.append((f"Harrowed: {d.name}", "A", _with(a, i, replace(d, harrowed=True)), b))
    for i, d in enumerate(b.dudes):
        if d.bullets > 0:
            out.append((f"-1 bullet: {d.name}", "B", a, _with(b, i, replace(d, bullets=d.bullets - 1))))
    for i, d in enumerate(b.dudes):
        out.append((f"{d.bullet_type.value}->{_swap(d).bullet_type.value}: {d.name}", "B", a, _with(b, i, _swap(d))))
    if len(b.dudes) > 1:
        for i, d in enumerate(b.dudes):
            shooter = None if b.shooter is None or b.shooter == i else b.shooter - (b.shooter > i)
            out.append((f"without {d.name}", "B", a, Posse(b.dudes[:i] + b.dudes[i + 1:], shooter)))
    for i, d in enumerate(b.dudes):
        if d.sidekicks:
            out.append((f"-1 Sidekick (of {d.name})", "B", a, _with(b, i, replace(d, sidekicks=d.sidekicks[1:]))))
            break
    for i, d in enumerate(b.dudes):
        if d.harrowed:
            out.append((f"not Harrowed: {d.name}", "B", a, _with(b, i, replace(d, harrowed=False))))
    return out


def what_if(a: FullSide, b: FullSide, *, trials: int = DEFAULT_WHAT_IF_TRIALS, seed: int | None = None,
            workers: int = 1, changes: Sequence[tuple[str, str, Posse, Posse]] | None = None) -> pd.DataFrame:
    """What each one-step change (:func:`what_if_changes`) is worth to side A: A's P(win the
    shootout) and expected dudes lost (aced or discarded) with the change, and the change
    from the base case with its standard error. Every variant runs on the base case's seed
    (common random numbers: each side draws from its own stream, so the same cards come up
    until the change makes a difference), and the standard errors are those of the paired
    per-trial differences. First row: the base case (change ``none``). Columns:
    :data:`WHAT_IF_COLUMNS`."""
    a, b = a.checked(), b.checked()
    trials, workers, seed = check_trials(trials), check_workers(workers), resolve_seed(seed)

    def outcomes(a: FullSide, b: FullSide) -> tuple[np.ndarray, np.ndarray]:
        """Per trial: did A win (1.0 or 0.0), and A's dudes lost (the figures alone, no tables)."""
        *_, (winner, lost_a, _) = _play(a, b, trials, seed, workers, per_trial=True)
        return (winner == 1).astype(np.float64), lost_a.astype(np.float64)

    bw, bl = outcomes(a, b)
    n = trials
    se = lambda x: float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else 0.0  # noqa: E731
    rows = [("none", "", float(bw.mean()), 0.0, 0.0, float(bl.mean()), 0.0, 0.0, se(bw), se(bl))]
    if changes is None:
        changes = what_if_changes(a.posse, b.posse)
    for change, whose, pa, pb in changes:
        w, lost = outcomes(replace(a, posse=pa).checked(), replace(b, posse=pb).checked())
        dw, dl = w - bw, lost - bl
        rows.append((change, whose, float(w.mean()), float(dw.mean()), float(dw.std(ddof=1) / math.sqrt(n)),
                     float(lost.mean()), float(dl.mean()), float(dl.std(ddof=1) / math.sqrt(n)), se(w), se(lost)))
    return pd.DataFrame(rows, columns=list(WHAT_IF_COLUMNS))
