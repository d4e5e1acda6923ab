"""Plain-Python reference of a whole Doomtown shootout (slow, to be read against the book).

It plays the game of ``ext/full_shootout.pyx`` step by step, with Python's ``random``:
Rulebook "Shootout Sequence" steps 3-11, "Ending a Shootout", "9. Take Your Lumps",
"10. Flight or Fight", "Where Cards Go", and the policies as oddsmith.rules.doomtown
defines them. The five-card steps (keep five under the hand-keeping policy, the discard
heuristic's choice, the Automaton's hand) come, with ``hands="python"``, from the
plain-Python port tests/reference_shootout_hand.py, so nothing is taken from the
kernels; with ``hands="kernel"`` (faster, for the many-case statistical tests) they are
single calls into the one-round kernel (``oddsmith._ext.shootout``), which
tests/test_reference_shootout_hand.py checks equal to the port card for card.
Everything a whole shootout adds is written out here either way.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np

import reference_shootout_hand as hand_step
from oddsmith._ext import shootout as one_round
from oddsmith.doomtown.full_shootout import NB, FullSide, _setup
from oddsmith.rules.doomtown import SHOOTOUT_ROUND_CAP, CasualtyPolicy, FleeKind, ShooterPolicy

STANDING, ACED, DISCARDED, HOME, FLED = "standing", "aced", "discarded", "home", "fled"
HANDS = ("python", "kernel")
"""Where the five-card steps come from: the plain-Python port or the one-round kernel."""


@dataclass
class Dude:
    name: str
    bullets: int
    stud: bool
    harrowed: bool
    token: bool
    bounty: int
    code: int | None                 # the card, None when it has none
    sidekicks: list[int | None]      # their cards (None: no card), in listed order
    fate: str = STANDING


@dataclass
class Side:
    dudes: list[Dude]
    shooter_policy: ShooterPolicy
    casualty_policy: CasualtyPolicy
    flee_kind: FleeKind
    flee_k: int
    margin: int
    automaton_hand: bool
    shoot_order: list[int]
    casualty_order: list[int]
    deck: list[int] = field(default_factory=list)      # deck[0] is the top card
    discard_pile: list[int] = field(default_factory=list)
    reshuffled: bool = False
    gone: int = 0                     # dudes out of the posse through casualties
    lost: int = 0                     # dudes aced or discarded
    bounty_paid: int = 0

    def standing(self) -> list[int]:
        return [i for i, d in enumerate(self.dudes) if d.fate == STANDING]


def make_side(full: FullSide, who: str) -> tuple[Side, list[int]]:
    """The side as the reference plays it, and its deck cards (the same inputs as the kernel's)."""
    full = full.checked()
    s = _setup(full, who)
    dudes = []
    for i, d in enumerate(full.posse.dudes):
        dudes.append(Dude(d.name, d.bullets, d.bullet_type.value == "stud", d.harrowed, d.token, d.bounty,
                          None if d.token or d.code is None else d.code,
                          [k.code for k in d.sidekicks]))
    side = Side(dudes, ShooterPolicy(int(s.policy[0])), CasualtyPolicy(int(s.policy[1])), FleeKind(int(s.policy[2])),
                int(s.policy[3]), s.margin, full.discard == "automaton", [int(x) for x in s.order_shoot],
                [int(x) for x in s.order_cas])
    return side, [int(c) for c in s.codes]


# --- Where Cards Go ---------------------------------------------------------

def draw_card(side: Side, rng: random.Random) -> int | None:
    """"Deck": draw the top card; an empty deck is refilled by shuffling the discard pile."""
    if not side.deck:
        if not side.discard_pile:
            return None
        side.deck = side.discard_pile
        side.discard_pile = []
        rng.shuffle(side.deck)
        side.reshuffled = True
    return side.deck.pop(0)


def discard(side: Side, card: int | None) -> None:
    if card is not None:
        side.discard_pile.append(card)


# --- 3. Choose Your Shooters, 4. Draw! ---------------------------------------------

def bonus(side: Side, shooter: int) -> tuple[int, int]:
    """The shooter's full bullets to its type; every backup dude one to its own type."""
    stud = draw = 0
    for i in side.standing():
        d = side.dudes[i]
        add = d.bullets if i == shooter else 1
        if d.stud:
            stud += add
        else:
            draw += add
    return stud, draw


def options(side: Side) -> list[tuple[int, int]]:
    """The bonuses the side may field: all distinct ones in posse order, or its fixed shooter's."""
    if side.shooter_policy is not ShooterPolicy.BEST:
        first = next(i for i in side.shoot_order if side.dudes[i].fate == STANDING)
        return [bonus(side, first)]
    out: list[tuple[int, int]] = []
    for i in side.standing():
        b = bonus(side, i)
        if b not in out:
            out.append(b)
    return out


def table_index(a: tuple[int, int], b: tuple[int, int]) -> int:
    return ((a[0] * NB + a[1]) * NB + b[0]) * NB + b[1]


def maximin(mine: list[tuple[int, int]], theirs: list[tuple[int, int]], pwin: np.ndarray, me_is_a: bool):
    """The bonus whose worst P(win the round) over the other side's options is highest."""
    best, top = mine[0], -1.0
    for m in mine:
        worst = min(pwin[table_index(m, t) if me_is_a else table_index(t, m)] for t in theirs)
        if len(mine) > 1 and worst > top:
            best, top = m, worst
    return best


def play_hand(side: Side, stud: int, draw: int, rng: random.Random, hands: str = "kernel") -> int:
    """Draw 5 + stud, use the draw bonus, keep five; every card then goes to the discard pile."""
    hand = [c for c in (draw_card(side, rng) for _ in range(5 + stud)) if c is not None]
    if hands == "python":
        return play_hand_python(side, hand, draw, rng)
    n = len(hand)
    key_out = np.zeros(1, dtype=np.int64)
    cheat = np.zeros(1, dtype=np.uint8)
    if draw > 0 and side.automaton_hand:
        revealed = [c for c in (draw_card(side, rng) for _ in range(draw)) if c is not None]
        row = np.array([hand + revealed], dtype=np.uint8)
        one_round.automaton_keys(row, n, len(revealed), key_out, cheat)
        for c in hand + revealed:
            discard(side, c)
        return int(key_out[0])
    if draw > 0:
        masks = np.zeros(1, dtype=np.uint32)
        one_round.heuristic_masks(np.array([hand], dtype=np.uint8), n, draw, side.margin, masks)
        chosen = [i for i in range(n) if (int(masks[0]) >> i) & 1]
        for i in chosen:               # discarded first, so a reshuffle may bring them back
            discard(side, hand[i])
        for i in chosen:
            hand[i] = draw_card(side, rng)
    one_round.kept_keys(np.array([hand], dtype=np.uint8), n, side.margin, key_out, cheat)
    for c in hand:
        discard(side, c)
    return int(key_out[0])


def play_hand_python(side: Side, hand: list[int], draw: int, rng: random.Random) -> int:
    """play_hand's five-card steps by the plain-Python port (tests/reference_shootout_hand.py)."""
    if draw > 0 and side.automaton_hand:
        revealed = [c for c in (draw_card(side, rng) for _ in range(draw)) if c is not None]
        key, _ = hand_step.automaton_key(hand, revealed)
        for c in hand + revealed:
            discard(side, c)
        return key
    key = hand_step.draw_step(hand, draw, side.margin, lambda: draw_card(side, rng), lambda c: discard(side, c))
    for c in hand:
        discard(side, c)
    return key


# --- 9. Take Your Lumps ---------------------------------------------------------

def remove(side: Side, i: int, fate: str) -> None:
    d = side.dudes[i]
    d.fate = fate
    if fate == FLED:
        return
    side.gone += 1
    if fate == HOME:
        return                         # a Harrowed dude goes home with what he carries
    side.lost += 1
    side.bounty_paid += d.bounty
    if fate == DISCARDED:
        discard(side, d.code)          # aced: to boot hill, never back into the deck
    for card in d.sidekicks:           # attached cards go to the discard pile
        discard(side, card)
    d.sidekicks = []


def cover_most(side: Side, i: int, remaining: int) -> int:
    """Dude i covers as many casualties as it can without exceeding what remains."""
    d = side.dudes[i]
    if d.harrowed:
        fate, covered = {3: (ACED, 3), 2: (DISCARDED, 2), 1: (HOME, 1)}[min(remaining, 3)]
    else:
        fate, covered = (ACED, 2) if remaining >= 2 else (DISCARDED, 1)
    remove(side, i, fate)
    return covered


def discard_sidekick(side: Side, i: int) -> int:
    discard(side, side.dudes[i].sidekicks.pop(0))
    return 1


def take_lumps(side: Side, casualties: int) -> int:
    """Cover ``casualties`` one at a time under the side's policy; returns how many were covered."""
    remaining = casualties
    order = [i for i in side.casualty_order]
    if side.casualty_policy is CasualtyPolicy.AUTOMATON:
        # Programmed Reflexes: Harrowed (as 1), then Token dudes, then Sidekicks, then dudes
        for i in order:
            if remaining and side.dudes[i].fate == STANDING and side.dudes[i].harrowed:
                remove(side, i, HOME)
                remaining -= 1
        for i in order:
            d = side.dudes[i]
            if remaining and d.fate == STANDING and d.token and not d.harrowed:
                remaining -= cover_most(side, i, remaining)
        for i in order:
            while remaining and side.dudes[i].fate == STANDING and side.dudes[i].sidekicks:
                remaining -= discard_sidekick(side, i)
        for i in order:
            if remaining and side.dudes[i].fate == STANDING:
                remaining -= cover_most(side, i, remaining)
        return casualties - remaining
    if side.casualty_policy is CasualtyPolicy.KEEP_POSSE:
        for i in order:                # Sidekicks first
            while remaining and side.dudes[i].fate == STANDING and side.dudes[i].sidekicks:
                remaining -= discard_sidekick(side, i)
        for i in order:                # then the weakest dude covers all it can
            if remaining and side.dudes[i].fate == STANDING:
                remaining -= cover_most(side, i, remaining)
        return casualties - remaining
    # SAVE_DUDES: each item covers 1 (Sidekicks, Harrowed dudes home, dudes discarded) ...
    standing = [i for i in order if side.dudes[i].fate == STANDING]
    items = sum(1 + len(side.dudes[i].sidekicks) for i in standing)
    if remaining <= items:
        for i in standing:             # Sidekicks first: a Harrowed dude sent home takes his along
            while remaining and side.dudes[i].sidekicks:
                remaining -= discard_sidekick(side, i)
        for i in standing:
            if remaining and side.dudes[i].harrowed:
                remove(side, i, HOME)
                remaining -= 1
        for i in standing:
            if remaining and side.dudes[i].fate == STANDING:
                remove(side, i, DISCARDED)
                remaining -= 1
        return casualties - remaining
    # ... and only when that is not enough: Harrowed discarded, dudes aced, Harrowed aced
    extra = remaining - items
    cover = {i: 1 for i in standing}
    for harrowed_stage in (True, False, True):
        for i in standing:
            if extra and side.dudes[i].harrowed == harrowed_stage:
                cover[i] += 1
                extra -= 1
    covered = 0
    for i in standing:
        while side.dudes[i].sidekicks:
            covered += discard_sidekick(side, i)
        covered += cover[i]
        if side.dudes[i].harrowed:
            remove(side, i, {1: HOME, 2: DISCARDED, 3: ACED}[cover[i]])
        else:
            remove(side, i, {1: DISCARDED, 2: ACED}[cover[i]])
    return covered


# --- 10. Flight or Fight ---------------------------------------------------------

def wants_to_flee(side: Side, other: Side, lost_round: bool) -> bool:
    if side.flee_kind is FleeKind.OUTNUMBERED:
        return lost_round and len(side.standing()) < len(other.standing())
    if side.flee_kind is FleeKind.LOSSES:
        return side.gone >= side.flee_k
    return False


def flee(side: Side) -> None:
    for i in side.standing():
        remove(side, i, FLED)


# --- The whole shootout -------------------------------------------------------

@dataclass
class Outcome:
    winner: int                        # 0 nobody, 1 A, 2 B
    rounds: int
    capped: bool
    a_fled: bool
    b_fled: bool
    fates: tuple[list[str], list[str]]
    bounty_a: int                      # collected by A
    bounty_b: int
    lost_a: int
    lost_b: int
    reshuffled: tuple[bool, bool]


def new_shootout(template: Side, cards: list[int], rng: random.Random) -> Side:
    side = Side([Dude(**{**d.__dict__, "sidekicks": list(d.sidekicks), "fate": STANDING}) for d in template.dudes],
                template.shooter_policy, template.casualty_policy, template.flee_kind, template.flee_k,
                template.margin, template.automaton_hand, template.shoot_order, template.casualty_order)
    side.deck = list(cards)
    rng.shuffle(side.deck)
    del side.deck[:5]                  # the play hand, set aside unseen
    return side


def play_shootout(a0: Side, cards_a: list[int], b0: Side, cards_b: list[int], pw_a: np.ndarray, pw_b: np.ndarray,
                  rng_a: random.Random, rng_b: random.Random, hands: str = "kernel") -> Outcome:
    a, b = new_shootout(a0, cards_a, rng_a), new_shootout(b0, cards_b, rng_b)
    rounds, capped, fled = 0, False, [False, False]
    while True:
        if rounds == SHOOTOUT_ROUND_CAP:
            capped = True
            break
        rounds += 1
        opts_a, opts_b = options(a), options(b)
        bonus_a = maximin(opts_a, opts_b, pw_a, True) if a.shooter_policy is ShooterPolicy.BEST else opts_a[0]
        bonus_b = maximin(opts_b, opts_a, pw_b, False) if b.shooter_policy is ShooterPolicy.BEST else opts_b[0]
        key_a = play_hand(a, *bonus_a, rng_a, hands)
        key_b = play_hand(b, *bonus_b, rng_b, hands)
        rank_a, rank_b = key_a >> 20, key_b >> 20
        # 8. Determine Casualties
        if rank_a == rank_b:
            cas_a = cas_b = 1
        else:
            cas_a, cas_b = max(rank_b - rank_a, 0), max(rank_a - rank_b, 0)
        loser = 0 if key_a == key_b else (2 if key_a > key_b else 1)
        if cas_a:
            take_lumps(a, cas_a)
        if cas_b:
            take_lumps(b, cas_b)
        if not a.standing() or not b.standing():
            break
        # 10. Flight or Fight: the round's loser first (A first on identical hands)
        first, second = ((b, a), (a, b)) if loser == 2 else ((a, b), (b, a))
        first_lost = loser != 0
        if wants_to_flee(first[0], first[1], first_lost):
            flee(first[0])
            fled[0 if first[0] is a else 1] = True
            break
        if wants_to_flee(second[0], second[1], False):
            flee(second[0])
            fled[0 if second[0] is a else 1] = True
            break
    empty_a, empty_b = not a.standing(), not b.standing()
    winner = 0 if capped or (empty_a and empty_b) else (2 if empty_a else 1)
    return Outcome(winner, rounds, capped, fled[0], fled[1], ([d.fate for d in a.dudes], [d.fate for d in b.dudes]),
                   b.bounty_paid, a.bounty_paid, a.lost, b.lost, (a.reshuffled, b.reshuffled))


def reference_shootouts(a: FullSide, b: FullSide, n: int, seed: int, pw_a: np.ndarray, pw_b: np.ndarray,
                        hands: str = "kernel") -> list[Outcome]:
    """``n`` whole shootouts by the reference; ``hands`` (HANDS): where the five-card steps come from."""
    if hands not in HANDS:
        raise ValueError(f"hands must be one of {HANDS}, not {hands!r}")
    sa, cards_a = make_side(a, "A")
    sb, cards_b = make_side(b, "B")
    rng_a, rng_b = random.Random(seed), random.Random(seed + 7919)
    return [play_shootout(sa, cards_a, sb, cards_b, pw_a, pw_b, rng_a, rng_b, hands) for _ in range(n)]
