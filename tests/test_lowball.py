"""Lowball (Gamblin'): exact enumeration against brute force, Monte Carlo against exact,
head-to-head against a direct brute force, determinism, and the CLI contracts."""
from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from oddsmith.doomtown import lowball as lb
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import JOKER_CODE, card_code

import reference_doomtown as ref
from cli_run import cli_runner

STANDARD = list(range(52)) + [JOKER_CODE, JOKER_CODE]
DMH = [card_code(1, 0), card_code(1, 3), card_code(8, 0), card_code(8, 3), card_code(11, 2)]


def C(v: int, s: int) -> int:
    return card_code(v, s)


# --------------------------------------------------------------------------
# Brute force: every 5-card hand of a small deck through the reference evaluator
# --------------------------------------------------------------------------


def low_keys(hands) -> np.ndarray:
    """Reference lowball keys: every joker assignment of each five, the lowest kept."""
    return ref.best_keys([list(h) for h in hands]).low_best


def brute_force(deck: list[int]) -> tuple[Counter, Counter]:
    """(hands per lowball key, cheatin' hands per key) over every 5 of the deck's cards
    (cards are distinct objects even when they share a code)."""
    multisets = Counter(tuple(sorted(deck[i] for i in five)) for five in itertools.combinations(range(len(deck)), 5))
    hands = list(multisets)
    keys = low_keys(hands)
    per_key, cheat = Counter(), Counter()
    for hand, key in zip(hands, keys.tolist()):
        per_key[key] += multisets[hand]
        if not ref.is_legal(hand):
            cheat[key] += multisets[hand]
    return per_key, cheat


def kernel_counts(deck: list[int], method: str) -> tuple[Counter, Counter]:
    keys, hands, cheat = lb.exact_key_counts(lb.deck_counts(deck), method=method)
    nz = hands > 0
    return (Counter(dict(zip(keys[nz].tolist(), hands[nz].tolist()))),
            Counter({k: c for k, c in zip(keys[nz].tolist(), cheat[nz].tolist()) if c}))


SMALL_DECKS = {
    # Dead Man's Hand cards with a duplicate and a joker: DMH, and the joker avoiding it
    "dead man's hand": DMH + [C(1, 0), C(8, 1), JOKER_CODE],
    # many spades with duplicates: legal and cheatin' flushes, straight flushes
    "spades": [C(v, 0) for v in (2, 3, 4, 5, 6, 9, 9, 12)] + [C(4, 1), C(13, 2)],
    # one value four times in one suit and in others: natural five of a kind (cheatin'),
    # four of a kind beside a flush, two jokers
    "stacked": [C(7, 0)] * 4 + [C(7, 1), C(7, 2), C(8, 0), C(2, 3), JOKER_CODE, JOKER_CODE],
    # low cards and two jokers: jokers must dodge straights and pairs (A-2-3-4 + joker = 6-4-3-2-A)
    "wheel": [C(1, 0), C(2, 1), C(3, 2), C(4, 3), C(5, 0), C(6, 1), C(1, 2), JOKER_CODE, JOKER_CODE],
    "no jokers": [C(v, s) for v, s in [(1, 0), (1, 0), (2, 0), (3, 1), (9, 2), (10, 2), (11, 2), (12, 2), (13, 2), (13, 3)]],
}


@pytest.mark.parametrize("name", sorted(SMALL_DECKS))
@pytest.mark.parametrize("method", ["values", "cards"])
def test_exact_matches_brute_force_small_decks(name, method):
    deck = SMALL_DECKS[name]
    want_keys, want_cheat = brute_force(deck)
    got_keys, got_cheat = kernel_counts(deck, method)
    assert got_keys == want_keys
    assert got_cheat == want_cheat
    assert sum(got_keys.values()) == math.comb(len(deck), 5)


def test_exact_matches_brute_force_random_small_decks():
    rng = np.random.default_rng(2026)
    for _ in range(6):
        n = int(rng.integers(6, 11))
        # few identities so duplicates, pairs and flushes are common
        idents = rng.choice(52, size=6, replace=False)
        deck = [int(x) for x in rng.choice(idents, size=n)] + [JOKER_CODE] * int(rng.integers(0, 3))
        assert kernel_counts(deck, "values") == brute_force(deck)


def test_value_classes_agree_with_hand_by_hand_on_full_decks():
    rng = np.random.default_rng(7)
    decks = [STANDARD] + [ref.random_legal_deck(rng, jokers=int(j), stacked_value=sv).tolist()
                          for j, sv in [(0, None), (1, 8), (2, 13), (2, None)]]
    for deck in decks:
        counts = lb.deck_counts(deck)
        k1, h1, c1 = lb.exact_key_counts(counts, method="values")
        k2, h2, c2 = lb.exact_key_counts(counts, method="cards")
        assert np.array_equal(h1, h2) and np.array_equal(c1, c2)
        assert h1.sum() == math.comb(len(deck), 5)


def test_kernel_single_hands_match_reference():
    """The kernel's hand evaluation (used by the Monte Carlo paths) against the reference."""
    rng = np.random.default_rng(11)
    deck = np.array(ref.random_legal_deck(rng, jokers=2, stacked_value=9))
    hands = np.array([rng.choice(deck, 5, replace=False) for _ in range(3000)], dtype=np.uint8)
    hands[:5] = [DMH, [C(1, 0), C(2, 1), C(3, 2), C(4, 3), 52], [52, 52, C(7, 0), C(7, 0), C(7, 1)],
                 [C(2, 0), C(3, 0), C(4, 0), C(5, 0), 52], [C(9, 0)] * 4 + [C(9, 1)]]
    keys = np.zeros(len(hands), dtype=np.uint32)
    cheat = np.zeros(len(hands), dtype=np.uint8)
    lb._kernels().evaluate(hands, keys, cheat)
    want = low_keys(hands.tolist())
    assert np.array_equal(keys.astype(np.int64), want)
    assert cheat.tolist() == [0 if ref.is_legal(h) else 1 for h in hands.tolist()]


# --------------------------------------------------------------------------
# Rules read by hand
# --------------------------------------------------------------------------


def test_joker_takes_the_lowest_identity():
    # A-2-3-4 + joker: the joker dodges the straight and the pair: 6-4-3-2-A, high card
    odds = lb.lowball_odds([C(1, 0), C(2, 1), C(3, 2), C(4, 3), JOKER_CODE])
    row = odds.key_table().iloc[0]
    assert (row["rank"], row["values"], row["hands"]) == (1, "6-4-3-2-A", 1)
    # four spades and a joker never make a flush in lowball
    odds = lb.lowball_odds([C(2, 0), C(5, 0), C(9, 0), C(13, 0), JOKER_CODE])
    assert odds.key_table()["values"].tolist() == ["K-9-5-2-A"]


def test_dead_mans_hand_is_the_worst_lowball_hand():
    odds = lb.lowball_odds(DMH)
    assert odds.distribution[11] == 1.0 and odds.p_cheatin == 0.0
    g = lb.gamblin_odds(DMH, [C(8, 0), C(8, 1), C(8, 2), C(8, 3), C(13, 0)])  # four of a kind
    assert g.p_win == 0.0 and g.p_lose == 1.0


def test_lowball_reverses_tie_breaks():
    # full house 2-2-2-K-K is lower than 3-3-3-Q-Q (Comparison Example 2, reversed)
    a = [C(2, 0), C(2, 1), C(2, 2), C(13, 0), C(13, 1)]
    b = [C(3, 0), C(3, 1), C(3, 2), C(12, 0), C(12, 1)]
    assert lb.gamblin_odds(a, b).p_win == 1.0
    # identical hands (same values, other suits) tie on every deal: an error, never an answer
    c = [C(2, 3), C(2, 1), C(2, 2), C(13, 2), C(13, 3)]
    with pytest.raises(OddsmithError, match="identical"):
        lb.gamblin_odds(a, c)


def test_standard_deck_figures():
    odds = lb.lowball_odds(STANDARD)
    total = math.comb(54, 5)
    assert odds.hands == total
    d = odds.distribution
    assert d[11] == pytest.approx(1 / total)  # the one Dead Man's Hand
    assert d[9] == pytest.approx(36 / total)  # 9 straight flush tops x 4 suits, no joker helps
    assert d[10] == 0.0 and odds.p_cheatin == 0.0
    assert sum(d.values()) == pytest.approx(1.0)
    assert odds.to_json()["stderr"] == {r: 0.0 for r in range(1, 12)}


# --------------------------------------------------------------------------
# Head-to-head against a direct brute force
# --------------------------------------------------------------------------


def brute_force_matchup(a: list[int], b: list[int]) -> tuple[int, int, int]:
    ka = low_keys([[a[i] for i in f] for f in itertools.combinations(range(len(a)), 5)])
    kb = low_keys([[b[i] for i in f] for f in itertools.combinations(range(len(b)), 5)])
    win = lose = tie = 0
    for x in ka.tolist():
        for y in kb.tolist():
            win += x < y
            lose += x > y
            tie += x == y
    return win, lose, tie


@pytest.mark.parametrize("a,b", [("wheel", "stacked"), ("spades", "no jokers"), ("dead man's hand", "wheel")])
def test_matchup_matches_brute_force(a, b):
    da, db = SMALL_DECKS[a], SMALL_DECKS[b]
    win, lose, tie = brute_force_matchup(da, db)
    g = lb.gamblin_odds(da, db)
    pairs = math.comb(len(da), 5) * math.comb(len(db), 5)
    assert g.win_fraction == Fraction(win, win + lose)
    assert g.p_tie == pytest.approx(tie / pairs, abs=1e-15)
    assert g.p_win_first_deal == pytest.approx(win / pairs, abs=1e-15)
    assert g.p_lose_first_deal == pytest.approx(lose / pairs, abs=1e-15)
    assert g.p_win + g.p_lose == pytest.approx(1.0)


def test_mirror_match_is_even():
    t = lb.lowball_tradeoff(STANDARD)
    assert t.p_win == pytest.approx(0.5) and t.p_lose == pytest.approx(0.5)
    assert 0 < t.p_tie < 0.01 and t.p_cheatin == 0.0


def test_stacked_deck_gives_away_lowball():
    rng = np.random.default_rng(3)
    stacked = ref.random_legal_deck(rng, jokers=2, stacked_value=8).tolist()
    t = lb.lowball_tradeoff(stacked, STANDARD)
    assert t.p_win < 0.5 and t.p_cheatin > 0 and t.mean_rank > lb.lowball_odds(STANDARD).mean_rank


# --------------------------------------------------------------------------
# Monte Carlo against exact, within confidence intervals
# --------------------------------------------------------------------------

Z = 4.5  # |error| / stderr allowed: a false alarm about once in 150,000 figures


def within(estimate: float, exact: float, stderr: float, trials: int) -> bool:
    # the floor covers figures whose estimated stderr is 0 (never or always seen)
    return abs(estimate - exact) <= Z * stderr + 3.0 / trials


def test_simulated_deck_agrees_with_exact():
    rng = np.random.default_rng(5)
    deck = ref.random_legal_deck(rng, jokers=2, stacked_value=7).tolist()
    exact = lb.lowball_odds(deck)
    mc = lb.lowball_odds(deck, exact=False, trials=200_000, seed=99)
    assert mc.trials == 200_000 and not mc.exact
    for r in range(1, 12):
        assert within(mc.distribution[r], exact.distribution[r], mc.to_json()["stderr"][r], mc.trials), r
    assert within(mc.p_cheatin, exact.p_cheatin, mc.p_cheatin_stderr, mc.trials)
    assert within(mc.mean_rank, exact.mean_rank, mc.mean_rank_stderr, mc.trials)


def test_simulated_matchup_agrees_with_exact():
    rng = np.random.default_rng(8)
    a = ref.random_legal_deck(rng, jokers=1, stacked_value=10).tolist()
    exact = lb.gamblin_odds(a, STANDARD)
    mc = lb.gamblin_odds(a, STANDARD, exact=False, trials=200_000, seed=4)
    n = mc.trials
    assert within(mc.p_win, exact.p_win, mc.p_win_stderr, n)
    assert within(mc.p_tie, exact.p_tie, mc.p_tie_stderr, n)
    se = math.sqrt(exact.p_win_first_deal * (1 - exact.p_win_first_deal) / n)
    assert within(mc.p_win_first_deal, exact.p_win_first_deal, se, n)
    for p, q in zip(mc.players, exact.players):
        assert within(p.p_cheatin, q.p_cheatin, p.p_cheatin_stderr, n)
        assert within(p.mean_rank, q.mean_rank, p.mean_rank_stderr, n)


def test_exact_p_win_is_the_matchup_without_the_rank_table():
    """The swap search's lean path (lowball.exact_p_win) gives the very floats of the full one: P(win) of
    _exact_matchup over both _exact_odds, and the deck's P(cheatin')."""
    rng = np.random.default_rng(31)
    opponents = [lb._exact_odds(np.bincount(STANDARD, minlength=lb.N_CODES), "standard"),
                 lb._exact_odds(np.bincount(ref.random_legal_deck(rng, jokers=1, stacked_value=9), minlength=lb.N_CODES),
                                "stacked")]
    for k in range(40):
        deck = ref.random_legal_deck(rng, jokers=int(rng.integers(0, 3)), stacked_value=int(rng.integers(1, 14)))
        counts = np.bincount(deck, minlength=lb.N_CODES).astype(np.int64)
        mine = lb._exact_odds(counts, "deck")
        for opp in opponents:
            assert lb.exact_p_win(counts, opp) == (lb._exact_matchup(mine, opp).p_win, mine.p_cheatin)
    # two decks that can only deal the same hand: Gamblin' never ends, said as the full path says it
    five = np.bincount([C(v, 0) for v in (2, 4, 6, 8, 10)], minlength=lb.N_CODES)
    same = lb._exact_odds(five, "opponent")
    with pytest.raises(OddsmithError, match="deck and opponent always deal identical lowball hands"):
        lb.exact_p_win(five, same)
    with pytest.raises(OddsmithError, match="deck and opponent always deal identical lowball hands"):
        lb._exact_matchup(lb._exact_odds(five, "deck"), same)


def test_two_seat_table_agrees_with_exact_matchup():
    rng = np.random.default_rng(12)
    a = ref.random_legal_deck(rng, jokers=2, stacked_value=5).tolist()
    exact = lb.gamblin_odds(a, STANDARD)
    t = lb.table_odds([a, STANDARD], trials=150_000, seed=21)
    row = t.players.iloc[0]
    assert within(row["p_lowest"], exact.p_win, row["p_lowest_stderr"], t.trials)
    assert row["p_second_lowest"] == pytest.approx(1 - row["p_lowest"])
    assert within(t.p_identical, exact.p_tie, t.p_identical_stderr, t.trials)


def test_three_seats_without_possible_ties_agree_with_exact():
    """Decks over disjoint values can never deal identical hands, so P(lowest) and
    P(second lowest) follow exactly from the three exact key distributions."""
    decks = [
        [C(v, s) for v in (1, 3, 5) for s in (0, 1)] + [JOKER_CODE],
        [C(v, s) for v in (2, 4, 6, 12) for s in (0, 2)],
        [C(v, s) for v in (7, 9, 13) for s in (1, 3)] + [C(11, 0)],
    ]
    dists = [lb.lowball_odds(d) for d in decks]
    assert set(dists[0].key_codes) & (set(dists[1].key_codes) | set(dists[2].key_codes)) == set()
    assert set(dists[1].key_codes) & set(dists[2].key_codes) == set()

    def p_of(d):
        return dict(zip(d.key_codes.tolist(), (d.key_hands / d.hands).tolist()))

    ps = [p_of(d) for d in dists]
    lowest, second = [0.0] * 3, [0.0] * 3
    for i in range(3):
        j, k = [x for x in range(3) if x != i]
        for key, p in ps[i].items():
            bj = sum(q for kk, q in ps[j].items() if kk < key)
            bk = sum(q for kk, q in ps[k].items() if kk < key)
            lowest[i] += p * (1 - bj) * (1 - bk)
            second[i] += p * (bj * (1 - bk) + bk * (1 - bj))
    t = lb.table_odds(decks, trials=120_000, seed=5)
    for i, row in t.players.iterrows():
        assert within(row["p_lowest"], lowest[i], row["p_lowest_stderr"], t.trials)
        assert within(row["p_second_lowest"], second[i], row["p_second_lowest_stderr"], t.trials)
    assert t.p_identical == 0.0
    assert t.players["p_lowest"].sum() == pytest.approx(1.0)


@pytest.mark.slow
def test_four_identical_seats_are_symmetric():
    t = lb.table_odds([STANDARD] * 4, trials=400_000, seed=77)
    for _, row in t.players.iterrows():
        assert within(row["p_lowest"], 0.25, row["p_lowest_stderr"], t.trials)
        assert within(row["p_second_lowest"], 0.25, row["p_second_lowest_stderr"], t.trials)
        assert within(row["expected_ghost_rock"], 0.75, row["expected_ghost_rock_stderr"], t.trials)


@pytest.mark.slow
def test_simulated_standard_deck_agrees_with_exact_at_scale():
    exact = lb.lowball_odds(STANDARD)
    mc = lb.lowball_odds(STANDARD, exact=False, trials=3_000_000, seed=2024, workers=2)
    for r in range(1, 12):
        assert within(mc.distribution[r], exact.distribution[r], mc.to_json()["stderr"][r], mc.trials), r


# --------------------------------------------------------------------------
# Determinism and inputs
# --------------------------------------------------------------------------


def test_same_seed_same_numbers_whatever_workers():
    kw = dict(exact=False, trials=140_000, seed=31337)
    other = ref.random_legal_deck(np.random.default_rng(1), jokers=2, stacked_value=3).tolist()
    one = lb.gamblin_odds(STANDARD, other, workers=1, **kw).to_json()
    two = lb.gamblin_odds(STANDARD, other, workers=2, **kw).to_json()
    assert one == two
    t1 = lb.table_odds([STANDARD] * 3, trials=140_000, seed=8, workers=1).players
    t3 = lb.table_odds([STANDARD] * 3, trials=140_000, seed=8, workers=3).players
    assert t1.equals(t3)
    d1 = lb.lowball_odds(STANDARD, exact=False, trials=140_000, seed=1, workers=1).to_json()
    d2 = lb.lowball_odds(STANDARD, exact=False, trials=140_000, seed=1, workers=2).to_json()
    assert d1 == d2
    d3 = lb.lowball_odds(STANDARD, exact=False, trials=140_000, seed=2).to_json()
    assert d3 != d1


def test_without_removes_cards_and_rejects_missing_ones():
    odds = lb.lowball_odds(STANDARD, without="Joker JK AS")
    assert odds.cards == 51 and odds.hands == math.comb(51, 5)
    with pytest.raises(OddsmithError, match="not .*in the deck"):
        lb.lowball_odds(STANDARD, without="Joker Joker Joker")
    with pytest.raises(OddsmithError, match="unknown card"):
        lb.lowball_odds(STANDARD, without="ZZ")


def test_bad_decks_are_rejected():
    with pytest.raises(OddsmithError, match="jokers"):
        lb.lowball_odds(list(range(52)) + [52, 52, 52])
    with pytest.raises(OddsmithError, match="cannot make"):
        lb.lowball_odds([1, 2, 3, 4])
    with pytest.raises(OddsmithError, match="trials"):
        lb.lowball_odds(STANDARD, exact=False, trials=0)
    with pytest.raises(OddsmithError, match="players"):
        lb.table_odds([STANDARD])


def test_json_contract_fields():
    single = lb.lowball_odds(STANDARD).to_json()
    for field in ("distribution", "p_cheatin", "mean_rank", "trials", "exact", "stderr"):
        assert field in single
    assert single["trials"] == 0 and single["exact"] is True
    assert set(single["distribution"]) == set(range(1, 12))
    match = lb.gamblin_odds(STANDARD, SMALL_DECKS["spades"] * 4).to_json()
    for field in ("p_win", "p_lose", "p_tie"):
        assert 0.0 <= match[field] <= 1.0
    mc = lb.gamblin_odds(STANDARD, STANDARD, exact=False, trials=1000, seed=3).to_json()
    assert mc["trials"] == 1000 and mc["exact"] is False and mc["seed"] == 3
    assert all(v > 0 for r, v in mc["stderr"].items() if 0 < mc["distribution"][r] < 1)
    json.dumps(mc)  # plain JSON types only


# --------------------------------------------------------------------------
# The command: JSON contract, formats, determinism, bad input
# --------------------------------------------------------------------------


TOKENS = [f"{v}{s}" for v in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHDC"]


run = cli_runner()


def deck_file(tmp_path, lines, name="deck.txt"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_cli_single_deck_json_contract(capsys):
    rc, out, err = run(capsys, "lowball", "balanced", "-f", "json")
    assert rc == 0 and err == ""
    data = json.loads(out)
    assert data["exact"] is True and data["trials"] == 0
    assert set(data["distribution"]) == {str(r) for r in range(1, 12)}
    assert set(data["stderr"].values()) == {0.0}
    assert sum(data["distribution"].values()) == pytest.approx(1.0)
    exact = lb.lowball_odds(STANDARD)
    assert data["p_cheatin"] == exact.p_cheatin and data["mean_rank"] == pytest.approx(exact.mean_rank)
    assert data["distribution"]["2"] == pytest.approx(exact.distribution[2])


def test_cli_matchup_json_contract(capsys):
    rc, out, _ = run(capsys, "lowball", "stack-16-16-16", "--vs", "balanced", "-f", "json")
    assert rc == 0
    data = json.loads(out)
    for field in ("distribution", "p_cheatin", "mean_rank", "trials", "exact", "stderr", "p_win", "p_lose", "p_tie"):
        assert field in data
    assert data["p_win"] + data["p_lose"] == pytest.approx(1.0)
    assert 0 < data["p_win"] < 0.5 and data["p_cheatin"] > 0.3
    assert data["opponent"]["p_cheatin"] == 0.0


def test_cli_simulation_same_seed_whatever_workers(capsys):
    args = ["lowball", "full-house-4-values", "--vs", "balanced", "--trials", "140000", "--seed", "12", "-f", "json"]
    rc1, out1, _ = run(capsys, *args, "--workers", "1")
    rc2, out2, _ = run(capsys, *args, "--workers", "2")
    assert rc1 == rc2 == 0 and out1 == out2
    data = json.loads(out1)
    assert data["exact"] is False and data["trials"] == 140000 and data["seed"] == 12
    assert data["stderr"]["2"] > 0


def test_cli_table_of_players(capsys):
    rc, out, _ = run(capsys, "lowball", "balanced", "--players", "3", "--vs", "stack-16-16-16",
                     "--trials", "30000", "--seed", "4", "-f", "json")
    assert rc == 0
    data = json.loads(out)
    assert data["players_count"] == 3 and len(data["players"]) == 3
    assert [p["deck"] for p in data["players"]][1:] == [data["players"][1]["deck"]] * 2
    assert sum(p["p_lowest"] for p in data["players"]) == pytest.approx(1.0)
    assert sum(p["p_second_lowest"] for p in data["players"]) == pytest.approx(1.0)
    assert data["p_win"] == data["players"][0]["p_lowest"] and data["p_win"] > 0.8
    rc, out, _ = run(capsys, "lowball", "balanced", "--players", "4", "--trials", "20000", "--seed", "4", "-f", "csv")
    lines = out.strip().splitlines()
    assert rc == 0 and len(lines) == 5 and "p_lowest" in lines[0] and "p_rank_11" in lines[0]


def test_cli_formats_and_output_file(capsys, tmp_path):
    rc, out, _ = run(capsys, "lowball", "balanced")
    assert rc == 0 and "Dead Man's Hand" in out and "P(cheatin')" in out
    rc, out, _ = run(capsys, "lowball", "balanced", "-f", "csv")
    assert out.splitlines()[0] == "rank,hand,probability,stderr,at_most,at_most_stderr,cheatin,deck_state"
    assert out.splitlines()[1].endswith(",full deck (no starting gang listed)")
    rc, out, _ = run(capsys, "lowball", "balanced", "--vs", "law-dogs", "-f", "md")
    assert rc == 0 and out.startswith("## Gamblin'") and "| A |" in out
    target = tmp_path / "low.json"
    rc, out, _ = run(capsys, "lowball", "balanced", "-f", "json", "-o", target)
    assert rc == 0 and out == "" and json.loads(target.read_text())["exact"] is True


def test_cli_without_gang_and_partial(capsys, tmp_path):
    rc, out, _ = run(capsys, "lowball", "law-dogs", "-f", "json")
    data = json.loads(out)
    assert rc == 0 and data["cards"] == 49 and data["deck_state"].startswith("after set-up (starting gang in play: ")
    rc, out, _ = run(capsys, "lowball", "law-dogs", "--with-gang", "--without", "gang", "-f", "json")
    assert rc == 0 and json.loads(out) == data
    rc, out, _ = run(capsys, "lowball", "law-dogs", "--with-gang", "-f", "json")
    full = json.loads(out)
    assert rc == 0 and full["cards"] == 54 and full["deck_state"].startswith("full deck (starting gang kept")
    path = deck_file(tmp_path, TOKENS[:51] + ["Joker"])
    rc, out, _ = run(capsys, "lowball", path, "--partial", "-f", "json")
    assert rc == 0 and json.loads(out)["cards"] == 52


@pytest.mark.parametrize("case", ["fifth copy", "51 cards", "53 cards", "three jokers", "unknown title",
                                  "trials 0", "missing file", "missing folder", "exact table", "too many vs",
                                  "unknown sample"])
def test_cli_bad_input(capsys, tmp_path, case):
    good = TOKENS + ["Joker", "Joker"]
    args = {
        "fifth copy": [deck_file(tmp_path, ["5x 8S"] + [t for t in TOKENS if t != "8S"][:47] + ["Joker"])],
        "51 cards": [deck_file(tmp_path, TOKENS[:51])],
        "53 cards": [deck_file(tmp_path, TOKENS + ["8S"])],
        "three jokers": [deck_file(tmp_path, good + ["Joker"])],
        "unknown title": [deck_file(tmp_path, ["Dudes:", "2x Nobody Ever Printed This Card"])],
        "trials 0": ["balanced", "--simulate", "--trials", "0"],
        "missing file": [tmp_path / "nope.txt"],
        "missing folder": ["balanced", "-o", tmp_path / "nope" / "out.json"],
        "exact table": ["balanced", "--players", "3", "--exact"],
        "too many vs": ["balanced", "--players", "2", "--vs", "law-dogs", "--vs", "outlaws"],
        "unknown sample": ["balanced", "--vs", "no-such-sample-deck"],
    }[case]
    rc, out, err = run(capsys, "lowball", *args)
    assert rc == 2, err
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:")
    assert "Traceback" not in err
    assert not (tmp_path / "nope").exists()


def test_cli_hands_lists_every_key(capsys):
    rc, out, _ = run(capsys, "lowball", "stack-16-16-16", "--hands", "-f", "json")
    assert rc == 0
    data = json.loads(out)
    rows = data["hands"]
    assert data["total_hands"] == math.comb(54, 5) and sum(r["hands"] for r in rows) == data["total_hands"]
    # two jokers with 9-8-7 take the lowest values that make no straight and no pair: 2 and A
    assert rows[0]["values"] == "9-8-7-2-A" and rows[0]["rank"] == 1
    assert rows[-1]["at_most"] == pytest.approx(1.0)
    rc, out, err = run(capsys, "lowball", "balanced", "--hands", "--simulate")
    assert rc == 2 and out == "" and "--hands" in err
