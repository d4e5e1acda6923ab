"""Shadows of the West battles: the card rules, exact activation odds, the kernel against the reference, the CLI."""
from __future__ import annotations

import itertools
import json
import math
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

import random_posses as RP
import reference_battle as RB
from cli_run import cli_runner
from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R
from oddsmith.shadows import battle as B
from oddsmith.shadows import posse as P
from oddsmith.shadows import value as V

run = cli_runner("shadows")

CONTRACT = ("p_a_wins", "p_b_wins", "p_draw", "p_a_bottles", "p_b_bottles", "turns_mean", "casualties_a",
            "casualties_b", "p_event_per_turn")


# ---------------------------------------------------------------------------
# The rules of the cards ("Anatomy of a Game", "Activations")
# ---------------------------------------------------------------------------


def test_book_activation_example():
    """Andy 10 of Spades, Tony Jack of Hearts, Tom 10 of Spades, John 6 of Clubs: an Event, Andy wins the Roll-Off,
    then Andy, Tom, John (black) and Tony (red) ("Example of the Activation Process")."""
    andy, tony, tom, john = (R.playing_card(c) for c in ("10S", "JH", "10S", "6C"))
    order, event = R.activation_order([andy, tony, tom, john], roll_offs=[9, 4])  # Andy's and Tom's D10s
    assert event
    assert order == [0, 2, 3, 1]
    # and had Tom won the Roll-Off instead
    assert R.activation_order([andy, tony, tom, john], roll_offs=[2, 8])[0] == [2, 0, 3, 1]
    # "six models at the start of the Turn ... all their Bosses are also in play ... a total of four cards each"
    assert R.hand_size(6, True) == 4


def test_card_order_rules():
    two_clubs, ace_hearts = R.playing_card("2C"), R.playing_card("AH")
    assert R.activation_order([ace_hearts, two_clubs])[0] == [1, 0]  # black before red
    assert R.activation_order([R.playing_card("black joker"), R.playing_card("2S")])[0] == [1, 0]  # Jokers lowest
    order, event = R.activation_order([R.playing_card("AS"), R.playing_card("AC")], roll_offs=[3, 7])
    assert order == [1, 0] and not event  # same value: Roll-Off, no Event
    deck = R.deck_cards()
    assert len(deck) == R.DECK_CARDS == 54 and len(set(deck)) == 54
    assert sum(c.value == R.JOKER_VALUE for c in deck) == R.DECK_JOKERS
    assert [R.hand_size(n, b) for n, b in ((1, True), (1, False), (5, True), (5, False), (0, True))] == [2, 1, 4, 3, 0]
    with pytest.raises(OddsmithError):
        R.playing_card("11X")


# ---------------------------------------------------------------------------
# Exact activation-order odds by card counting, against brute enumeration
# ---------------------------------------------------------------------------


def _brute(deck: list[R.PlayingCard], ha: int, hb: int) -> tuple[Fraction, Fraction]:
    """Every pair of Hands: A first in round 1 (a Roll-Off between equal values is won half the time; the book's
    own order function decides the rest) and an identical card revealed in some round, both playing best first."""
    first = event = Fraction(0)
    hands_a = list(itertools.combinations(range(len(deck)), ha))
    hands_b = list(itertools.combinations(range(len(deck)), hb))
    best = lambda h: sorted(h, key=lambda i: (deck[i].activation_key, deck[i].suit or "", deck[i].colour))  # noqa: E731
    for x in hands_a:
        sx = best(x)
        for y in hands_b:
            sy = best(y)
            if not sx:
                pass
            elif not sy:
                first += 1
            else:
                a, b = deck[sx[0]], deck[sy[0]]
                if a.activation_key == b.activation_key:
                    wins = [R.activation_order([a, b], roll_offs=r)[0][0] == 0 for r in ((6, 2), (2, 6))]
                    first += Fraction(sum(wins), 2)
                else:
                    first += R.activation_order([a, b])[0][0] == 0
            if any(sx[k] == sy[k] for k in range(min(len(sx), len(sy)))):
                event += 1
    total = len(hands_a) * len(hands_b)
    return first / total, event / total


SMALL_DECKS = {
    "spades and hearts A-4 and two Jokers": [R.playing_card(c) for c in
                                              ("AS", "KS", "QS", "AH", "KH", "QH", "black joker", "red joker")],
    "two black suits": [R.playing_card(c) for c in ("AS", "AC", "KS", "KC", "2S", "2C", "5D")],
    "one colour, repeated values": [R.playing_card(c) for c in ("9S", "9C", "3S", "3C", "AC", "JS")],
}


@pytest.mark.parametrize("name", sorted(SMALL_DECKS))
def test_activation_odds_match_brute_enumeration(name):
    deck = SMALL_DECKS[name]
    for ha in range(0, 4):
        for hb in range(0, 4):
            first, event = _brute(deck, ha, hb)
            assert B.p_first_activation(ha, hb, deck) == first, (ha, hb)
            assert B.p_event(ha, hb, deck) == event, (ha, hb)


def test_activation_odds_full_deck_single_cards():
    deck = R.deck_cards()
    first, event = _brute(deck, 1, 1)
    assert B.p_first_activation(1, 1) == first == Fraction(1, 2)
    assert B.p_event(1, 1) == event == Fraction(1, 54)
    assert B.p_first_activation(4, 4) == Fraction(1, 2)
    assert B.p_first_activation(5, 3) > Fraction(1, 2)


@pytest.mark.parametrize("ha,hb", [(4, 4), (5, 3), (2, 6), (1, 4)])
def test_kernel_card_code_matches_counting(ha, hb):
    figs, se = B.simulate_first_round(ha, hb, trials=300_000, seed=11 + ha * 7 + hb)
    assert abs(figs["p_a_first"] - float(B.p_first_activation(ha, hb))) < 5 * se["p_a_first"]
    assert abs(figs["p_event"] - float(B.p_event(ha, hb))) < 5 * max(se["p_event"], 1e-4)


# ---------------------------------------------------------------------------
# Random posses for the kernel against the reference
# ---------------------------------------------------------------------------

def random_posse(rng: random.Random, name: str) -> P.Posse:
    """A random legal Advanced posse (tests/random_posses.py)."""
    return RP.random_posse(rng, name)


def _cases(k: int, seed: int):
    rng = random.Random(seed)
    out = []
    while len(out) < k:
        a, b = random_posse(rng, "A"), random_posse(rng, "B")
        opts = B.battle_options(rng.choice(["4", "6", "7.5", "10", "13", "short", "medium", "long"]),
                                cover=rng.random() < 0.3, vs_cover=rng.random() < 0.3,
                                turns=rng.choice([8, 8, 3]), targets=B.TARGET_POLICIES[len(out) % 3],
                                activation=B.ACTIVATION_POLICIES[(len(out) // 3) % 3],
                                lone_gun=rng.choice(B.LONE_GUN_POLICIES), movement="none")
        try:
            setup = B.prepare(a, b, opts)
        except OddsmithError:
            continue  # nobody can shoot at that range
        out.append(setup)
    return out


def _ref_stderr(values: list[float]) -> float:
    n = len(values)
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


@pytest.mark.slow
@pytest.mark.parametrize("case", range(10))
def test_kernel_agrees_with_reference(case):
    setup = _cases(10, 2026)[case]
    trials_ref, trials_k = 700, 100_000
    rng = random.Random(500 + case)
    games = [RB.play(setup, rng) for _ in range(trials_ref)]
    counts = B.run_counts(setup, trials_k, seed=900 + case)
    summary, models = B.summarise(setup, counts, trials_k)
    k = summary.set_index("figure")
    per_game = {
        "p_a_wins": [g["result"] == "a" for g in games], "p_b_wins": [g["result"] == "b" for g in games],
        "p_draw": [g["result"] == "draw" for g in games], "p_a_bottles": [g["a_bottles"] for g in games],
        "p_b_bottles": [g["b_bottles"] for g in games], "turns_mean": [g["turns"] for g in games],
        "casualties_a": [g["casualties"][0] for g in games], "casualties_b": [g["casualties"][1] for g in games],
        "victory_points_a": [g["vp"][0] for g in games], "victory_points_b": [g["vp"][1] for g in games],
        "p_a_first_turn_1": [g["a_first"] for g in games], "p_event_turn_1": [g["event_turn_1"] for g in games],
    }
    for fig, vals in per_game.items():
        vals = [float(v) for v in vals]
        ref = sum(vals) / len(vals)
        se = math.hypot(_ref_stderr(vals), float(k.loc[fig, "stderr"]))
        assert abs(ref - float(k.loc[fig, "value"])) <= 5 * max(se, 1.0 / trials_ref), (fig, ref, k.loc[fig, "value"])
    for s in (0, 1):
        for i in range(len(games[0]["casualty"][s])):
            vals = [float(g["casualty"][s][i]) for g in games]
            row = models[(models["side"] == "ab"[s])].iloc[i]
            se = math.hypot(_ref_stderr(vals), row["p_casualty_stderr"])
            assert abs(sum(vals) / len(vals) - row["p_casualty"]) <= 5 * max(se, 1.0 / trials_ref)


def test_reference_games_run_on_every_policy():
    """Quick: a few reference games on each kind of case finish and keep their bookkeeping straight."""
    for setup in _cases(6, 7):
        g = RB.play(setup, random.Random(1))
        assert g["result"] in ("a", "b", "draw")
        assert 1 <= g["turns"] <= setup.options.turns
        assert g["casualties"][0] <= len(setup.a.models) and g["casualties"][1] <= len(setup.b.models)


# ---------------------------------------------------------------------------
# The battle: seeds, workers, figures that must hold
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def samples():
    return P.sample_posse(None), P.sample_posse("twilight-order")


def test_same_seed_same_figures_whatever_workers(samples):
    a, b = samples  # three models a side: two chunks of battles cost less, and chunks and workers are the same
    setup = B.prepare(replace(a, models=a.models[:3]), replace(b, models=b.models[:3]))
    one = B.run_counts(setup, 70_000, seed=5, workers=1)
    two = B.run_counts(setup, 70_000, seed=5, workers=2)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, B.run_counts(setup, 70_000, seed=6))


def test_outcomes_partition_and_bounds(samples):
    a, b = samples
    r = B.battle(a, b, trials=20_000, seed=3)
    assert r["p_a_wins"] + r["p_b_wins"] + r["p_draw"] == pytest.approx(1.0)
    assert 1 <= r["turns_mean"] <= 8
    assert r["casualties_a"] == pytest.approx(r.models[r.models.side == "a"]["p_casualty"].sum())
    assert r["casualties_b"] == pytest.approx(r.models[r.models.side == "b"]["p_casualty"].sum())
    # Turn 1 of the kernel against the exact counting (hands of 5 and 5: 1/2 by symmetry)
    assert abs(r["p_a_first_turn_1"] - 0.5) < 5 * r.stderr("p_a_first_turn_1")
    one_turn = B.battle(a, b, B.battle_options(turns=1), trials=5_000, seed=3)
    assert one_turn["turns_mean"] == 1.0


def test_a_battles_figures_are_its_summary_rows(samples):
    """r[figure] and r.stderr(figure) read the summary frame (read off once): every row, and no other name."""
    a, b = samples
    r = B.battle(a, b, trials=2_000, seed=4)
    rows = r.summary.set_index("figure")
    for f in rows.index:
        assert r[f] == float(rows.loc[f, "value"]) and r.stderr(f) == float(rows.loc[f, "stderr"])
    with pytest.raises(KeyError):
        r["p_nobody"]
    with pytest.raises(KeyError):
        r.stderr("p_nobody")


def test_cover_and_mirror(samples):
    a, _ = samples
    mirror = B.battle(a, a, B.battle_options(movement="none"), trials=40_000, seed=8)
    assert abs(mirror["p_a_wins"] - mirror["p_b_wins"]) < 5 * math.hypot(mirror.stderr("p_a_wins"),
                                                                         mirror.stderr("p_b_wins"))
    covered = B.battle(a, a, B.battle_options(vs_cover=True, movement="none"), trials=40_000, seed=8)
    assert covered["p_b_wins"] - covered["p_a_wins"] > 10 * covered.stderr("p_a_wins")
    assert covered["casualties_b"] < mirror["casualties_b"]


def test_events_can_be_switched_off(samples):
    a, b = samples
    r = B.battle(a, b, B.battle_options(events=False), trials=5_000, seed=2)
    assert r["p_event_per_turn"] == 0.0


def test_posse_that_cannot_shoot_is_reported(samples):
    a, _ = samples
    pistols = P.posse_from_dict({"posse": {"name": "Pistoleros", "method": "advanced"},
                                 "model": [{"name": "Boss", "rank": "Hero", "weapons": ["Pistol"]},
                                           {"name": "Kid", "rank": "Novice", "weapons": ["Pistol"]},
                                           {"name": "Joe", "rank": "Novice", "weapons": ["Pistol"]}]}, "p")
    r = B.battle(pistols, a, B.battle_options("14", movement="none"), trials=3_000, seed=1)
    assert any("no model able to shoot" in n for n in r.notes)
    assert r["p_a_wins"] == 0.0 and r["victory_points_a"] == 0.0  # only an Event can hurt posse B
    with pytest.raises(OddsmithError, match="no model of either posse can shoot"):
        B.battle(pistols, pistols, B.battle_options("14", movement="none"), trials=100, seed=1)


def test_bad_options():
    for bad in ("far", "-2", "nan", "1000"):
        with pytest.raises(OddsmithError, match="--range"):
            B.battle_options(bad)
    with pytest.raises(OddsmithError, match="--turns"):
        B.battle_options(turns=0)
    with pytest.raises(OddsmithError, match="--targets"):
        B.battle_options(targets="nearest")


# ---------------------------------------------------------------------------
# Value per dollar
# ---------------------------------------------------------------------------


def test_value_ranks_purchases_and_lists_the_rest(samples):
    a, b = samples
    small = replace(a, models=a.models[:3])
    res = V.value(small, b, trials=2_000, seed=4)
    t = res.table
    assert not t.empty
    assert list(t["d_p_win_per_dollar"]) == sorted(t["d_p_win_per_dollar"], reverse=True)
    assert (t["cost"] > 0).all()
    assert set(t["kind"]) <= {"skill", "weapon", "gear"}
    # a Skill costs its Rank's base price plus the nth-Skill surcharge ("Add Skills")
    hero_tough = t[(t["model"] == small.models[0].name) & (t["item"] == "Tough")]
    assert int(hero_tough["cost"].iloc[0]) == R.skill_cost(R.Rank.HERO, len(small.models[0].skills) + 1)
    reasons = set(res.skipped["reason"])
    assert any("no price" in r for r in reasons)
    assert any("no effect" in r for r in reasons)
    # on the table Fights happen, so the Fighting Skills are valued ...
    assert {"Mean", "Close Work", "Bull-Rush"} <= set(t["item"])
    # ... while the fixed-range firefight has no Fights: there they are listed, not simulated
    fixed = V.value(small, b, B.battle_options(movement="none"), trials=500, seed=4)
    assert "Mean" not in set(fixed.table["item"])
    assert any(r.item == "Mean" for r in fixed.skipped.itertuples())
    # purchases run in parallel give the same figures
    par = V.value(small, b, trials=2_000, seed=4, workers=2).table
    assert par.equals(t)


def _with_skill(posse: P.Posse, i: int, skill: str) -> P.Posse:
    models = list(posse.models)
    models[i] = replace(models[i], skills=models[i].skills + (R.SKILLS[skill],))
    return replace(posse, models=tuple(models))


def test_paired_runs_line_up_game_by_game(samples):
    """The changed runs replay the base's games: over two chunks, for 1 or 2 workers, the base is the plain battle
    on the seed, the sums of x are the base's counts and the sums of y each changed run's own counts."""
    a, b = samples
    a, b = replace(a, models=a.models[:3]), replace(b, models=b.models[:3])
    base = B.prepare(a, b)
    changed = [B.prepare(_with_skill(a, 0, "Tough"), b, base.options, check=False),
               B.prepare(_with_skill(a, 1, "Deadeye"), b, base.options, check=False)]
    trials = B.CHUNK_TRIALS + 4_000
    one = B.run_paired(base, changed, trials, seed=8, workers=1)
    two = B.run_paired(base, changed, trials, seed=8, workers=2)
    assert np.array_equal(one.base, B.run_counts(base, trials, seed=8))
    assert np.array_equal(one.base, two.base)
    win, cas = (B._K.HEAD_COLUMNS.index(k) for k in ("a_wins", "casualties_b"))
    cas_sq = B._K.HEAD_COLUMNS.index("casualties_b_sq")
    for j, st in enumerate(changed):
        assert np.array_equal(one.pairs[j], two.pairs[j]) and np.array_equal(one.counts[j], two.counts[j])
        assert np.array_equal(one.counts[j], B.run_counts(st, trials, seed=8))
        x, y, xy, xx, yy, cx, cy, cxy, cxx, cyy = one.pairs[j].tolist()
        assert (x, xx, y, yy) == (one.base[win], one.base[win], one.counts[j][win], one.counts[j][win])
        assert (cx, cxx, cy, cyy) == (one.base[cas], one.base[cas_sq], one.counts[j][cas], one.counts[j][cas_sq])
        # the same games: far more games agree than two independent runs would
        p0, p1 = x / trials, y / trials
        agree = (trials - x - y + 2 * xy) / trials
        assert agree > p0 * p1 + (1 - p0) * (1 - p1) + 0.1


@pytest.mark.parametrize("names, plan, vs_plan, terrain", [
    ((None, "twilight-order"), "brawl", "brawl", "light"),
    (("twilight-order", None), "balanced", "brawl", "open"),
    ((None, "twilight-order"), "gunline", "balanced", "dense"),
])
def test_copied_games_give_the_sums_of_every_game_played(names, plan, vs_plan, terrain):
    """``changed_counts=False`` copies the base's outcome of each game that never read what a purchase changes
    (battle_game.pxd, ``tracked``) instead of playing it: for every purchase ``shadows value`` weighs, the paired
    sums are those of every game played, to the last bit. Brawling posses Fight, so the Fighting Skills' games are
    partly copied and partly played; a change the rule cannot cover (a Weapon, Deadeye) plays every game."""
    a, b = (P.sample_posse(n) for n in names)
    base = B.prepare(a, b, B.battle_options(plan=plan, vs_plan=vs_plan, terrain=terrain), check=False)
    cands, _ = V.candidates(a, base.options)
    setups = [B.prepare(c.posse, b, base.options, check=False) for c in cands]
    trials = 200
    played = B.run_paired(base, setups, trials, seed=21)
    copied = B.run_paired(base, setups, trials, seed=21, changed_counts=False)
    assert played.copied == [0] * len(setups) and copied.counts == [None] * len(setups)
    assert np.array_equal(played.base, copied.base)
    for j, c in enumerate(cands):
        assert np.array_equal(played.pairs[j], copied.pairs[j]), (c.item, c.model_index)
        if B.copy_rule(base, setups[j]) is None:
            assert copied.copied[j] == 0, c.item
    kinds = {c.item for j, c in enumerate(cands) if 0 < copied.copied[j] < trials}
    if plan == "brawl":  # the Fights that read the Skills are played, the other games copied
        assert {"Mean", "Close Work", "Hard to Kill"} <= kinds, kinds
    assert sum(copied.copied) > 0
    # the games not copied are taken up where the base game first read the change, never for a change the rule
    # cannot cover
    for j, st in enumerate(setups):
        if B.copy_rule(base, st) is None:
            assert copied.resumed[j] == (0, 0), cands[j].item
        assert copied.resumed[j][0] <= trials - copied.copied[j]
    assert sum(n for n, _ in copied.resumed) > 0 and played.resumed == [(0, 0)] * len(setups)


@pytest.mark.parametrize("turns", [R.GAME_TURNS, 20])
def test_games_taken_up_at_a_game_turn_give_the_sums_of_every_game_played(samples, monkeypatch, turns):
    """A purchase's game that reads the change is taken up from the base game as saved at the start of the latest
    Game Turn before the first read (the kernel's ``saves``), in blocks of games whose bit generator is advanced to
    the block's first game: with blocks of 37 games (so that they start anywhere), the paired sums are those of
    every game played from its start, and games are taken up at several Game Turns. Twenty Game Turns draw more
    cards than a Deck holds, so the Decks are shuffled again after a game was saved (its card stream goes on)."""
    a, b = samples
    base = B.prepare(a, b, B.battle_options(plan="balanced", vs_plan="brawl", turns=turns), check=False)
    cands, _ = V.candidates(a, base.options)
    setups = [B.prepare(c.posse, b, base.options, check=False) for c in cands]
    setups = [st for st in setups if B.copy_rule(base, st) not in (None, (0, 0))]
    assert setups
    trials = 300
    played = B.run_paired(base, setups, trials, seed=34)
    monkeypatch.setattr(B, "PAIRED_BLOCK", 37)
    taken = B.run_paired(base, setups, trials, seed=34, changed_counts=False)
    assert np.array_equal(played.base, taken.base)
    for j in range(len(setups)):
        assert np.array_equal(played.pairs[j], taken.pairs[j]), j
    games, turns = (sum(r[k] for r in taken.resumed) for k in (0, 1))
    assert games > 0 and turns > games  # some games skip more than their first Game Turn


def test_taking_games_up_checks_its_arrays(samples):
    """The kernel's saved games: shapes of the options' Game Turns and SNAP_BYTES, taken up only with the paired
    run's reads (``paired_touched``), and no count of saved Game Turns beyond them."""
    a, b = samples
    st = B.prepare(a, b, B.battle_options(), check=False)
    ev, dy = B._event_codes(st.options), B._dynamite_codes()
    n, turns = 5, st.options.turns
    out = np.zeros(B._K.N_OUT, dtype=np.int64)

    def run(**kw):
        return B._K.mc_battle(B._chunk_bit_generator(1, 0), st.models, st.weapons, st.n_models, st.order, st.opts,
                              B.E.SAVE_TABLE_ARRAY, B.E.DAMAGE_ARRAY, ev, dy, n, out, **kw)

    saves = np.zeros((n, turns - 1, B._K.SNAP_BYTES), dtype=np.uint8)
    saved = np.zeros(n, dtype=np.int32)
    record, touched = np.zeros((n, 2), dtype=np.int8), np.zeros((n, B._K.MAX_MODELS), dtype=np.int32)
    run(saves=saves, saved=saved, record=record, touched=touched)
    assert ((1 <= saved) & (saved <= turns - 1)).all() and saves.any()
    bad = [{"saves": saves},
           {"saves": np.zeros((n, turns, B._K.SNAP_BYTES), dtype=np.uint8), "saved": saved},
           {"saves": np.zeros((n, turns - 1, B._K.SNAP_BYTES - 8), dtype=np.uint8), "saved": saved},
           {"paired": record, "pair_out": np.zeros(10, dtype=np.int64), "paired_saves": saves, "paired_saved": saved},
           {"paired": record, "pair_out": np.zeros(10, dtype=np.int64), "paired_touched": touched, "skip_model": 0,
            "skip_mask": 1, "paired_saves": saves, "paired_saved": saved + turns},
           {"resumed": np.zeros(3, dtype=np.int64)}]
    for kw in bad:
        with pytest.raises(ValueError, match="mc_battle: bad"):
            run(**kw)


def test_copied_games_read_gunslinger_where_a_pair_of_pistols_could_fire(samples):
    """The kernel marks every read of a tracked column, however the arrays were made: here only the Gunslinger
    column of one model differs (its danger left as it was), and models with two Pistols fire both as one Shot."""
    a, b = samples
    pistol = R.BASIC_WEAPONS["Pistol"]
    a = replace(a, models=tuple(replace(m, weapons=(pistol, pistol)) for m in a.models))
    base = B.prepare(a, b, B.battle_options(plan="gunline"), check=False)
    col = B._K.MODEL_COLUMNS.index("gunslinger")
    bit = dict(zip(B._K.TOUCH_COLUMNS, B._K.TOUCH_BITS))["gunslinger"]
    changed = []
    for m in range(len(a.models)):
        models = base.models.copy()
        models[0, m, col] = 1
        changed.append(replace(base, models=models))
        assert B.copy_rule(base, changed[-1]) == (m, bit)
    trials = 400
    played = B.run_paired(base, changed, trials, seed=5)
    copied = B.run_paired(base, changed, trials, seed=5, changed_counts=False)
    assert all(np.array_equal(x, y) for x, y in zip(played.pairs, copied.pairs))
    assert any(played.difference(j, "a_wins") != (0.0, 0.0) for j in range(len(changed)))
    assert sum(copied.copied) < trials * len(changed)


def _plus_one(models, col, m):
    models[0, m, col] += 1


def _set_one(models, col, m):
    models[0, m, col] = 1


def _unlowered(models, col, m):
    models[0, m, col] = models[0, m, B._K.MODEL_COLUMNS.index("die")]  # Shaken, it rolls its full Grit Die


def _everyone(column):
    """The base posse with ``column`` set on each of its models (Bushwhacker needs Lookout Tokens to keep)."""
    def on(models):
        models[0, :, B._K.MODEL_COLUMNS.index(column)] = 1
    return on


@pytest.mark.parametrize("column, change, options, base_change, copies", [
    ("save_mod", _plus_one, {}, None, "some"),                               # every Save
    ("save_mod", _plus_one, {"targets": "weakest"}, None, "none"),           # choosing the weakest Target: every game
    ("save_mod", _plus_one, {"movement": "none", "targets": "weakest"}, None, "none"),  # the fixed firefight too
    ("hawkeye", _set_one, {}, None, "some"),                                 # Spotting Tests
    ("jam_rerolls", _set_one, {"plan": "gunline"}, None, "some"),            # Jamming Checks
    ("nerve_rerolls", _set_one, {"plan": "brawl", "vs_plan": "brawl"}, None, "some"),  # Nerve Tests, Bottle Checks
    ("die_shaken", _unlowered, {}, None, "some"),                            # any roll while Shaken
    ("trigger_happy", _set_one, {"plan": "gunline"}, None, "some"),          # a second shot with the same Weapon
    ("trigger_happy", _set_one, {"movement": "none"}, None, "some"),
    ("lookout", _set_one, {}, None, "some"),                                 # going on Lookout instead of a Move
    ("lookout", _set_one, {"plan": "brawl", "vs_plan": "brawl"}, None, "some"),
    ("bushwhacker", _set_one, {}, _everyone("lookout"), "some"),             # keeping a Lookout Token
    ("quickdraw", _set_one, {}, None, "all"),                                # no rule of the kernel reads it
])
def test_copied_games_read_each_tracked_column(samples, column, change, options, base_change, copies):
    """Each tracked column after the first eight (battle_game.pxd, ``tracked``; the Fighting Skills, Hard to Kill and
    Gunslinger have the tests above), changed on one model of side A at a time in the kernel's arrays: the paired sums with the games that never read it copied are those of
    every game played, to the last bit, and the change matters in some game. ``copies``: some games copied and some
    played; none (the weakest-first targeting reads every standing enemy's Save Modifier in every game); all
    (Quickdraw: no rule of the kernel reads it)."""
    a, b = samples
    base = B.prepare(a, b, B.battle_options(**options), check=False)
    if base_change is not None:
        models = base.models.copy()
        base_change(models)
        base = replace(base, models=models)
    col = B._K.MODEL_COLUMNS.index(column)
    bit = dict(zip(B._K.TOUCH_COLUMNS, B._K.TOUCH_BITS))[column]
    changed = []
    for m in range(len(a.models)):
        models = base.models.copy()
        change(models, col, m)
        if np.array_equal(models, base.models):
            continue
        changed.append(replace(base, models=models))
        assert B.copy_rule(base, changed[-1]) == (m, bit)
    assert changed
    trials = 300
    played = B.run_paired(base, changed, trials, seed=13)
    copied = B.run_paired(base, changed, trials, seed=13, changed_counts=False)
    for j in range(len(changed)):
        assert np.array_equal(played.pairs[j], copied.pairs[j]), j
    if copies == "all":
        assert copied.copied == [trials] * len(changed)
        return
    assert any(played.difference(j, "a_wins") != (0.0, 0.0) or played.difference(j, "casualties_b") != (0.0, 0.0)
               for j in range(len(changed)))
    if copies == "none":
        assert copied.copied == [0] * len(changed)
    else:
        assert 0 < sum(copied.copied) < trials * len(changed)


def test_copy_rule_covers_only_the_tracked_columns(samples):
    a, b = samples
    base = B.prepare(a, b)
    rule = lambda posse: B.copy_rule(base, B.prepare(posse, b, base.options, check=False))  # noqa: E731
    assert B.copy_rule(base, base) == (0, 0)
    bits = dict(zip(B._K.TOUCH_COLUMNS, B._K.TOUCH_BITS))
    assert sorted(bits.values()) == [1 << k for k in range(len(bits))]
    m = next(i for i, x in enumerate(a.models) if "Mean" not in {s.name for s in x.skills})
    assert rule(_with_skill(a, m, "Mean")) == (m, bits["fight_dice"])
    assert rule(_with_skill(a, m, "Hard to Kill")) in ((m, bits["hard_to_kill"]), (0, 0))
    assert rule(_with_skill(a, m, "Deadeye")) is None  # a Weapon's dice and the model's danger change
    assert B.copy_rule(base, B.prepare(a, _with_skill(b, 0, "Mean"), base.options, check=False)) is None  # side B


def test_paired_no_change_is_exactly_zero(samples):
    a, b = samples
    base = B.prepare(replace(a, models=a.models[:4]), b)
    runs = B.run_paired(base, [base], 3_000, seed=2)
    assert np.array_equal(runs.counts[0], runs.base)
    for fig in B._K.PAIRED_FIGURES:
        assert runs.difference(0, fig) == (0.0, 0.0)


def test_paired_kernel_checks_its_buffers(samples):
    a, b = samples
    st = B.prepare(a, b)
    args = (st.models, st.weapons, st.n_models, st.order, st.opts, B.E.SAVE_TABLE_ARRAY, B.E.DAMAGE_ARRAY,
            B._event_codes(), B._dynamite_codes(), 10, np.zeros(B._K.N_OUT, dtype=np.int64))
    gen = np.random.PCG64(1)
    with pytest.raises(ValueError, match="record"):
        B._K.mc_battle(gen, *args, record=np.zeros((9, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="paired"):
        B._K.mc_battle(gen, *args, paired=np.zeros((10, 2), dtype=np.int8))
    with pytest.raises(ValueError, match="paired"):
        B._K.mc_battle(gen, *args, paired=np.zeros((10, 2), dtype=np.int8), pair_out=np.zeros(9, dtype=np.int64))


def test_paired_stderr_matches_the_spread_across_seeds(samples):
    """30 seeds: the sd of the 30 estimated changes agrees with the mean paired standard error (the sd of 30
    normal draws is within about +-13% of the truth per sd; the band is over 3 of those), and a small change has a
    paired error well under the independent runs' bound."""
    a, b = samples
    a, b = replace(a, models=a.models[:4]), replace(b, models=b.models[:4])
    base = B.prepare(a, b, B.battle_options(movement="none"))
    changes = {"Trigger-Happy": _with_skill(a, 0, "Trigger-Happy"), "Tough": _with_skill(a, 1, "Tough")}
    setups = [B.prepare(c, b, base.options, check=False) for c in changes.values()]
    trials, seeds = 1_000, range(100, 130)
    est = {(j, f): [] for j in range(len(setups)) for f in B._K.PAIRED_FIGURES}
    ses = {k: [] for k in est}
    indep = {k: [] for k in est}
    for sd in seeds:
        runs = B.run_paired(base, setups, trials, sd)
        s0 = B.summarise(base, runs.base, trials)[0].set_index("figure")
        for j, st in enumerate(setups):
            s1 = B.summarise(st, runs.counts[j], trials)[0].set_index("figure")
            for f, fig in zip(B._K.PAIRED_FIGURES, ("p_a_wins", "casualties_b")):
                d, se = runs.difference(j, f)
                assert d == pytest.approx(s1.loc[fig, "value"] - s0.loc[fig, "value"], abs=1e-12)
                est[j, f].append(d)
                ses[j, f].append(se)
                indep[j, f].append(math.hypot(s0.loc[fig, "stderr"], s1.loc[fig, "stderr"]))
    for k in est:
        spread = float(np.std(est[k], ddof=1))
        se = float(np.mean(ses[k]))
        assert 0.6 < spread / se < 1.5, (k, spread, se)
    for f in B._K.PAIRED_FIGURES:   # Trigger-Happy on one model: a small change
        assert np.mean(ses[0, f]) < 0.5 * np.mean(indep[0, f])


def test_value_errors_are_paired(samples):
    a, b = samples
    small = replace(a, models=a.models[:3])
    res = V.value(small, b, trials=1_500, seed=9)
    plain = B.battle(small, b, trials=1_500, seed=9)
    assert np.array_equal(res.base.counts, plain.counts)
    indep = math.hypot(plain.stderr("p_a_wins"), plain.stderr("p_a_wins"))
    t = res.table
    assert (t["d_p_win_stderr"] >= 0).all() and (t["d_casualties_b_stderr"] >= 0).all()
    assert t["d_p_win_stderr"].median() < 0.8 * indep
    assert "paired" in res.to_json()["stderr_note"]


# ---------------------------------------------------------------------------
# The CLI
# ---------------------------------------------------------------------------


def test_cli_battle_json_contract(capsys, tmp_path):
    out = tmp_path / "b.json"
    # --range belongs to --movement none
    rc, _, err = run(capsys, "battle", "unaligned", "--vs", "twilight-order", "--movement", "none", "--range", "8",
                     "--targets", "weakest", "--trials", "3000", "--seed", "9", "--format", "json", "--output", out)
    assert rc == 0, err
    d = json.loads(out.read_text())
    for key in CONTRACT:
        assert 0 <= d[key] and key in d["stderr"]
    assert d["trials"] == 3000 and d["seed"] == 9 and not d["cover_a"] and not d["cover_b"]
    assert d["models"] and {"p_casualty", "p_downed_at_end"} <= set(d["models"][0]["stderr"])
    rc2, text, _ = run(capsys, "battle", "unaligned", "--vs", "twilight-order", "--movement", "none", "--range", "8",
                       "--targets", "weakest", "--trials", "3000", "--seed", "9", "--workers", "2", "-f", "json")
    assert rc2 == 0 and json.loads(text)["p_a_wins"] == d["p_a_wins"]


def test_cli_battle_table_and_csv(capsys):
    rc, text, _ = run(capsys, "battle", "unaligned", "--vs", "congregation", "--trials", "2000", "--seed", "1")
    assert rc == 0 and "p_a_wins" in text and "±" in text and "card counting" in text
    rc, text, _ = run(capsys, "battle", "unaligned", "--vs", "congregation", "--trials", "2000", "--seed", "1",
                      "-f", "csv")
    assert rc == 0 and text.splitlines()[0] == "side,model,figure,value,stderr"


@pytest.mark.parametrize("args,needle", [
    (["nosuch", "--vs", "unaligned"], "no posse file"),
    (["unaligned", "--vs", "unaligned", "--range", "far"], "--range"),
    (["unaligned", "--vs", "unaligned", "--turns", "0"], "--turns"),
    (["unaligned", "--vs", "unaligned", "--trials", "0"], "--trials"),
    (["unaligned", "--vs", "unaligned", "--workers", "0"], "--workers"),
    (["unaligned", "--vs", "unaligned", "--output", "/nonexistent-folder/x.json"], "does not exist"),
])
def test_cli_bad_input(capsys, args, needle):
    rc, out, err = run(capsys, "battle", *args)
    assert rc == 2 and needle in err and "Traceback" not in err and out == ""


def test_cli_broken_posse_gets_the_posse_error(capsys, tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text('[posse]\nname = "Bad"\nmethod = "advanced"\n[[model]]\nname = "A"\nrank = "Hero"\n'
                 'weapons = ["Pistol", "Pistol", "Pistol", "Pistol"]\n')
    rc, _, err = run(capsys, "battle", f, "--vs", "unaligned", "--trials", "100")
    rc2, _, err2 = run(capsys, "posse", f)
    assert rc == rc2 == 2 and err == err2 and "posse-size" in err


def test_cli_value(capsys, tmp_path):
    out = tmp_path / "v.json"
    rc, _, err = run(capsys, "value", "unaligned", "--vs", "twilight-order", "--trials", "500", "--seed", "2",
                     "--top", "5", "-f", "json", "-o", out)
    assert rc == 0, err
    d = json.loads(out.read_text())
    assert len(d["purchases"]) == 5 and d["skipped"] and d["common_random_numbers"]
    rc, _, err = run(capsys, "value", "unaligned", "--vs", "twilight-order", "--top", "-1")
    assert rc == 2 and "--top" in err


def test_report_battle_pages_render(tmp_path):
    from oddsmith.report import battle_page, document
    from oddsmith.sampling import SamplingPlan

    plan = SamplingPlan(seed=3, trials=200)  # fewer than either page's own: the plan's trials cap them
    pages = battle_page.battle_pages(plan)
    assert len(pages) == battle_page.n_steps()
    assert all(p.sampling is not None and p.sampling.trials <= plan.trials for p in pages)
    doc = document.Document("battles", pages, seed=plan.seed, cover=False, glossary=False)
    written = document.write_document(doc, tmp_path / "b.png", dpi=40)
    assert len(written) == len(pages) and all(w.stat().st_size > 5_000 for w in written)


def test_not_valued_reasons_are_words_and_group_by_item(samples, capsys):
    """The reasons name no Python object, and are the same words for every model they cover: a
    purchase a posse-building rule forbids groups into one row per item (the model-specific
    message is the row's ``detail``)."""
    a, _ = samples
    cands, skipped = V.candidates(a)
    sk = pd.DataFrame(skipped, columns=V.SKIPPED_COLUMNS)
    assert not sk["reason"].str.contains(r"NOT_MODELLED|battle\.|\w+\.\w+\(|_", regex=True).any()
    banned = sk[sk["reason"].str.startswith("not allowed")]
    assert {"Carbine", "Shotgun"} <= set(banned["item"])
    per_item = banned.groupby(["kind", "item", "reason"]).size()
    assert len(per_item) == banned["item"].nunique()  # one row per item
    assert (per_item.xs("Carbine", level="item") == 5).all()
    assert banned["detail"].str.contains("at most two").all()
    rifle = sk[sk["item"] == "Rifle"]["reason"].iloc[0]
    assert "Shooting Test" in rifle and "ranges" in rifle
    rc, md, err = run(capsys, "value", "unaligned", "--vs", "twilight-order", "--trials", "200", "--seed", "2",
                      "--top", "3", "-f", "md")
    assert rc == 0, err
    not_valued = md.split("### Not valued", 1)[1]
    assert not_valued.count("| Carbine |") == 1 and not_valued.count("| Shotgun |") == 1
    assert "NOT_MODELLED" not in md
