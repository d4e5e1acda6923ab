"""Shootout hands, one round head to head, the discard policies and the trade-off.

Checks, from the ground up:
* the exact enumeration (value classes with flush and Dead Man's Hand corrections)
  against the hand-by-hand enumeration on many random decks, and both against a
  plain brute force over every hand of small decks with the reference evaluator;
* the Monte Carlo against the exact figures within confidence intervals (stud 0-2,
  no draw), and one round head to head against the exact convolution of two exact
  rank distributions (casualty accounting);
* the discard heuristic against the search reference (the search is never worse,
  the gap is small), the search against a brute force over discard sets, and the
  exact expectation behind both against a plain enumeration of replacement draws;
* a larger draw bonus never lowering the mean kept rank; determinism across worker
  counts; a deck against itself is even; the Automaton's rule against a plain one;
* the CLI's JSON contract and its bad-input handling.
"""
from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

import reference_doomtown as ref
from cli_run import cli_runner
from oddsmith.doomtown import shootout as S
from oddsmith.doomtown.cards import parse_hand
from oddsmith.doomtown.deck import load_deck
from oddsmith.errors import OddsmithError
from oddsmith._ext import shootout as sx

POLICIES = ("legal", "greedy", "margin:1", "margin:2")
J = 52


def kept(key: int, legal_key: int, policy: str) -> tuple[int, bool]:
    """The plain reading of the hand-keeping policies (docs/rules-doomtown.md, 'Cheatin'')."""
    if legal_key == 0:
        return key, True
    if policy == "legal":
        return legal_key, False
    if policy == "greedy":
        return (key, True) if key > legal_key else (legal_key, False)
    margin = int(policy.split(":")[1])
    return (key, True) if (key >> 20) - (legal_key >> 20) >= margin else (legal_key, False)


def brute_counts(deck: list[int], n: int, policy: str) -> np.ndarray:
    """Every n-card hand of ``deck`` (card by card), best keys by the reference brute force."""
    hands = [list(c) for c in itertools.combinations(deck, n)]
    keys = ref.best_keys(hands)
    out = np.zeros(24, dtype=np.int64)
    for k, lk in zip(keys.best.tolist(), keys.legal.tolist()):
        key, cheat = kept(k, lk, policy)
        out[(key >> 20) * 2 + int(cheat)] += 1
    return out


def counts_of(codes) -> np.ndarray:
    return np.bincount(np.asarray(codes, dtype=np.int64), minlength=53).astype(np.int32)


BALANCED = list(range(52)) + [J, J]


# --------------------------------------------------------------------------
# Policies and arguments
# --------------------------------------------------------------------------


def test_policy_parsing():
    assert S.parse_policy("legal").kernel_margin == S.LEGAL_MARGIN
    assert S.parse_policy("GREEDY").kernel_margin == 0
    for text in ("margin:2", "margin 2", "margin=2", "Margin:2"):
        p = S.parse_policy(text)
        assert (p.name, p.margin, p.kernel_margin, str(p)) == ("margin", 2, 2, "margin:2")
    for bad in ("cheat", "margin", "margin:0", "margin:11", "margin:x", ""):
        with pytest.raises(OddsmithError):
            S.parse_policy(bad)


@pytest.mark.parametrize("value", [-1, 11])
def test_bonus_out_of_range(value):
    with pytest.raises(OddsmithError, match="0..10"):
        S.shootout_odds(BALANCED, stud=value)
    with pytest.raises(OddsmithError, match="0..10"):
        S.shootout_odds(BALANCED, stud=1, draw=value)


def test_exact_refused_where_it_does_not_exist():
    with pytest.raises(OddsmithError, match="exact"):
        S.shootout_odds(BALANCED, 3, 0, exact=True)
    with pytest.raises(OddsmithError, match="exact"):
        S.shootout_odds(BALANCED, 1, 1, exact=True)


def test_small_decks_and_jokers_rejected():
    with pytest.raises(OddsmithError, match="cannot make a shootout hand"):
        S.shootout_odds(list(range(6)), stud=2)
    with pytest.raises(OddsmithError, match="jokers"):
        S.shootout_odds(list(range(20)) + [J, J, J], stud=0)


# --------------------------------------------------------------------------
# Exact: value classes, hand by hand, brute force
# --------------------------------------------------------------------------

SMALL_DECKS = {
    # duplicates, one joker and every card of Dead Man's Hand
    "dmh": parse_hand("AS AS AC 8S 8C JD JD 5H 6H 7H 9H KH Joker"),
    # a spade straight flush run with duplicates and two jokers
    "jokers": parse_hand("KS KS KH QS JS 10S 9S 2D 2C 3D Joker Joker"),
    # four of one card, a flush of clubs
    "stacked": parse_hand("7S 7S 7S 7S 7H 7D 2C 5C 9C JC QC 3H"),
}


# (the two-joker deck at 7 cards is the slow test's job)
@pytest.mark.parametrize("name,n", [(name, n) for name in sorted(SMALL_DECKS) for n in (5, 6, 7)
                                    if (name, n) != ("jokers", 7)])
def test_exact_matches_brute_force(name, n):
    deck = SMALL_DECKS[name]
    for policy in POLICIES:
        want = brute_counts(deck, n, policy)
        assert want.sum() == math.comb(len(deck), n)
        got_values = S.exact_counts(deck, n - 5, policy, method="values")
        got_cards = S.exact_counts(deck, n - 5, policy, method="cards")
        assert got_values.tolist() == want.tolist(), (name, n, policy)
        assert got_cards.tolist() == want.tolist(), (name, n, policy)


@pytest.mark.slow
def test_exact_matches_brute_force_two_jokers_seven_cards():
    deck = SMALL_DECKS["jokers"]
    for policy in ("legal", "greedy"):
        assert S.exact_counts(deck, 2, policy).tolist() == brute_counts(deck, 7, policy).tolist()


def _value_classes_against_direct(counts, n, policy, label):
    """The value-class enumeration equals the hand-by-hand one; returns its counts."""
    margin = S.parse_policy(policy).kernel_margin
    a = np.zeros(24, np.int64)
    b = np.zeros(24, np.int64)
    sx.exact_values(counts, n, margin, a)
    sx.exact_direct(counts, n, margin, b)
    assert a.tolist() == b.tolist(), label
    return a


def test_value_classes_match_hand_by_hand_on_random_decks():
    rng = np.random.default_rng(2024)
    for trial in range(24):
        jokers = trial % 3
        full = ref.random_legal_deck(rng, 0, stacked_value=int(rng.integers(1, 14)) if trial % 4 == 0 else None)
        size = int(rng.integers(18, 27))
        deck = np.concatenate([rng.choice(full, size - jokers, replace=False), np.full(jokers, J)])
        if trial % 5 == 0:  # make sure Dead Man's Hand can be dealt
            deck = np.concatenate([deck, [0, 3, 28, 31, 42]])
        counts = counts_of(deck)
        for n in (5, 6, 7):
            for policy in POLICIES:
                a = _value_classes_against_direct(counts, n, policy, (trial, n, policy))
                assert a.sum() == math.comb(len(deck), n)


def test_value_classes_match_hand_by_hand_on_full_decks():
    for name in ("balanced", "stack-16-16-16", "straight-flush-spread", "full-house-4-values"):
        counts = counts_of(load_deck(name).codes())
        for n in (5, 6, 7) if name == "stack-16-16-16" else (5, 6):
            for policy in ("legal", "greedy"):
                _value_classes_against_direct(counts, n, policy, (name, n, policy))


def test_exact_known_values():
    # a standard 52-card deck without jokers: the five-card poker frequencies (aces low:
    # 9 straights per suit pattern, 10-J-Q-K-A is no straight)
    counts = S.exact_counts(list(range(52)), 0)
    by_rank = counts.reshape(12, 2).sum(axis=1)
    assert by_rank[2] == 1_098_240  # one pair
    assert by_rank[3] == 123_552 - 1  # two pair, but A♠ A♣ 8♠ 8♣ J♦ is Dead Man's Hand
    assert by_rank[4] == 54_912  # three of a kind
    assert by_rank[7] == 3_744  # full house
    assert by_rank[8] == 624  # four of a kind
    assert by_rank[9] == 4 * 9  # straight flushes: tops 5..K in each suit
    assert by_rank[5] == 9 * 4**5 - 36  # straights
    assert by_rank[6] == 4 * math.comb(13, 5) - 36  # flushes (aces low: 10-J-Q-K-A suited is a flush)
    assert by_rank[11] == 1  # Dead Man's Hand
    assert by_rank[1] == math.comb(52, 5) - by_rank[2:].sum()
    assert counts[1::2].sum() == 0  # no duplicates, never cheatin'


def test_exact_odds_frame_and_json():
    odds = S.shootout_odds(load_deck("balanced"), 2, 0)
    assert odds.exact and odds.trials == 0 and odds.hands == math.comb(54, 7)
    assert list(odds.ranks.columns) == ["rank", "hand", "probability", "stderr", "at_least", "at_least_stderr",
                                        "cheatin", "cheatin_stderr"]
    assert odds.ranks["probability"].sum() == pytest.approx(1.0)
    assert odds.ranks["stderr"].eq(0).all()
    p = odds.ranks["probability"].to_numpy()
    assert odds.ranks["at_least"].tolist() == pytest.approx(np.cumsum(p[::-1])[::-1].tolist())
    assert odds.mean_rank == pytest.approx(float(np.dot(p, np.arange(1, 12))))
    js = odds.to_json()
    for field in ("distribution", "p_cheatin", "mean_rank", "trials", "exact", "stderr"):
        assert field in js
    assert set(js["distribution"]) == set(range(1, 12))


# --------------------------------------------------------------------------
# Monte Carlo against exact
# --------------------------------------------------------------------------


def _within(sim: S.ShootoutOdds, exact: S.ShootoutOdds, z: float = 5.0) -> None:
    n = sim.trials
    p = exact.ranks["probability"].to_numpy()
    q = sim.ranks["probability"].to_numpy()
    se = np.sqrt(p * (1 - p) / n)
    assert np.all(np.abs(q - p) <= z * se + 1e-12), (q - p) / np.where(se > 0, se, 1)
    pc = exact.p_cheatin
    assert abs(sim.p_cheatin - pc) <= z * math.sqrt(pc * (1 - pc) / n) + 1e-12
    r = np.arange(1, 12)
    sd = math.sqrt(float(np.dot(p, (r - exact.mean_rank) ** 2)))
    assert abs(sim.mean_rank - exact.mean_rank) <= z * sd / math.sqrt(n)


@pytest.mark.parametrize("deck", ["balanced", "stack-16-16-16"])
@pytest.mark.parametrize("stud", [0, 1, 2])
def test_monte_carlo_matches_exact(deck, stud):
    d = load_deck(deck)
    policy = "greedy" if deck.startswith("stack") else "legal"
    exact = S.shootout_odds(d, stud, 0, policy=policy)
    sim = S.shootout_odds(d, stud, 0, policy=policy, exact=False, trials=200_000, seed=100 + stud)
    assert not sim.exact and sim.trials == 200_000 and sim.seed == 100 + stud
    _within(sim, exact)


@pytest.mark.slow
@pytest.mark.parametrize("deck", ["law-dogs", "straight-flush-spread", "full-house-4-values"])
def test_monte_carlo_matches_exact_long(deck):
    d = load_deck(deck, partial=True)
    for stud in (0, 1, 2):
        for policy in POLICIES:
            exact = S.shootout_odds(d, stud, 0, policy=policy)
            sim = S.shootout_odds(d, stud, 0, policy=policy, exact=False, trials=1_000_000, seed=stud, workers=2)
            _within(sim, exact, z=5.5)


def test_automaton_without_draw_is_margin_one():
    d = load_deck("stack-16-16-16")
    exact = S.shootout_odds(d, 1, 0, policy="margin:1")
    sim = S.shootout_odds(d, 1, 3, discard="automaton", exact=False, trials=1, seed=1)
    assert sim.policy == "automaton"
    auto0 = S.shootout_odds(d, 1, 0, discard="automaton")  # exact, the Automaton's keeping rule
    assert auto0.counts.tolist() == exact.counts.tolist()


# --------------------------------------------------------------------------
# One round head to head
# --------------------------------------------------------------------------


def test_round_casualties_match_exact_convolution():
    a, b = load_deck("stack-16-16-16"), load_deck("balanced")
    ea = S.shootout_odds(a, 1, 0).ranks["probability"].to_numpy()
    eb = S.shootout_odds(b, 2, 0).ranks["probability"].to_numpy()
    r = S.shootout_round(S.Side(a, 1, 0), S.Side(b, 2, 0), trials=400_000, seed=7)
    n = r.trials
    joint = np.outer(ea, eb)  # joint[i, j]: A rank i+1, B rank j+1 (independent decks)
    diff = np.subtract.outer(np.arange(11), np.arange(11))  # rank A - rank B
    want_a = np.zeros(11)
    want_b = np.zeros(11)
    for k in range(1, 11):
        want_a[k] += joint[diff == -k].sum()  # A loses by k
        want_b[k] += joint[diff == k].sum()
    equal = joint[diff == 0].sum()
    want_a[0] = joint[diff > 0].sum()
    want_b[0] = joint[diff < 0].sum()
    want_a[1] += equal
    want_b[1] += equal
    for got, want in ((r.casualties["p_A"], want_a), (r.casualties["p_B"], want_b)):
        se = np.sqrt(want * (1 - want) / n)
        assert np.all(np.abs(got.to_numpy() - want) <= 5 * se + 1e-12)
    assert abs(r.p_equal_ranks - equal) <= 5 * math.sqrt(equal * (1 - equal) / n)
    # winning outright needs the higher key: at least the higher rank, at most higher or equal
    assert r.p_win >= joint[diff > 0].sum() - 5 * r.p_win_stderr
    assert r.p_win <= joint[diff >= 0].sum() + 5 * r.p_win_stderr
    assert r.p_win + r.p_lose + r.p_tie == pytest.approx(1.0)
    for side in ("p_A", "p_B"):
        assert r.casualties[side].sum() == pytest.approx(1.0)
    # each side's hands over the rounds follow its own exact distribution
    _within(r.a, S.shootout_odds(a, 1, 0))
    _within(r.b, S.shootout_odds(b, 2, 0))


def test_mirror_match_is_even():
    d = load_deck("law-dogs")
    r = S.shootout_round(S.Side(d, 2, 2), S.Side(d, 2, 2), trials=300_000, seed=11)
    se = math.sqrt((r.p_win + r.p_lose - (r.p_win - r.p_lose) ** 2) / r.trials)
    assert abs(r.p_win - r.p_lose) <= 4.5 * se
    assert abs(r.expected_casualties[0] - r.expected_casualties[1]) <= 4.5 * math.hypot(*r.expected_casualties_stderr) * 1.5


def test_round_json_contract():
    d = load_deck("balanced")
    r = S.shootout_round(S.Side(d, 1, 1), S.Side(d, 2, 0, policy="greedy"), trials=20_000, seed=3)
    js = json.loads(json.dumps(r.to_json()))
    for field in ("distribution", "p_cheatin", "mean_rank", "trials", "exact", "stderr",
                  "p_win", "p_lose", "p_tie", "casualties"):
        assert field in js
    assert js["exact"] is False and js["trials"] == 20_000
    assert set(js["casualties"]) == {"A", "B"}
    for side in ("A", "B"):
        assert sum(js["casualties"][side].values()) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in js["casualties"][side].values())
    assert js["p_win"] + js["p_lose"] + js["p_tie"] == pytest.approx(1.0)
    assert js["opponent"]["policy"] == "greedy"


# --------------------------------------------------------------------------
# Discards: the search reference, the heuristic, the draw bonus
# --------------------------------------------------------------------------


def plain_expected_rank(hand: list[int], mask: int, rest: list[int], policy: str) -> float:
    """Average kept rank over every equally likely set of replacement cards (card by card)."""
    keep = [c for i, c in enumerate(hand) if not (mask >> i) & 1]
    r = len(hand) - len(keep)
    hands = [keep + list(extra) for extra in itertools.combinations(rest, r)]
    keys = ref.best_keys(hands)
    ranks = []
    for k, lk in zip(keys.best.tolist(), keys.legal.tolist()):
        key, cheat = kept(k, lk, policy)
        # the search scores a hand a legal player is forced to cheat with as 0
        ranks.append(0 if (cheat and policy == "legal") else key >> 20)
    return sum(ranks) / len(ranks)


def test_expected_rank_against_plain_enumeration():
    rng = np.random.default_rng(5)
    deck = parse_hand("AS AS AC 8S 8C JD 5H 6H 7H 9H KH KH 10H 2C Joker")
    for trial in range(12):
        idx = rng.choice(len(deck), 5, replace=False)
        hand = [deck[i] for i in idx]
        rest = [deck[i] for i in range(len(deck)) if i not in set(idx.tolist())]
        rem = counts_of(rest)
        policy = POLICIES[trial % 4]
        margin = S.parse_policy(policy).kernel_margin
        for mask in (0, 1, 0b10010, 0b111):
            got = sx.expected_rank(np.array(hand, np.uint8), mask, rem, margin)
            assert got == pytest.approx(plain_expected_rank(hand, mask, rest, policy), abs=1e-12)


def test_search_is_the_best_discard_set():
    rng = np.random.default_rng(8)
    full = load_deck("law-dogs").codes()
    for trial in range(20):
        idx = rng.choice(len(full), 6, replace=False)
        hand = full[idx].astype(np.uint8)
        rem = counts_of(np.delete(full, idx))
        margin = (S.LEGAL_MARGIN, 0)[trial % 2]
        mask, best = sx.best_discard(hand, 2, rem, margin)
        assert bin(mask).count("1") <= 2
        assert sx.expected_rank(hand, mask, rem, margin) == pytest.approx(best)
        brute = max(sx.expected_rank(hand, m, rem, margin) for m in range(64) if bin(m).count("1") <= 2)
        assert best == pytest.approx(brute)


@pytest.mark.parametrize("deck,stud,draw", [("balanced", 2, 1), ("balanced", 0, 2), ("stack-16-16-16", 2, 1),
                                            ("law-dogs", 1, 2)])
def test_heuristic_close_to_search(deck, stud, draw):
    gap = S.discard_gap(load_deck(deck), stud, draw, hands=300, seed=21)
    assert gap.mean_search >= gap.mean_heuristic - 1e-12
    assert gap.gap >= 0 and gap.max_gap >= 0
    assert gap.mean_heuristic > gap.mean_stand_pat  # drawing helps
    assert gap.gap < 0.3  # within 0.3 rank of the best discards on average (measured 0.01-0.23)
    assert gap.p_optimal > 0.5


def test_search_never_worse_than_heuristic_hand_by_hand():
    d = load_deck("straight-flush-spread").codes()
    n = 200
    eh, es, ek = np.zeros(n), np.zeros(n), np.zeros(n)
    hm, sm = np.zeros(n, np.uint32), np.zeros(n, np.uint32)
    for margin in (S.LEGAL_MARGIN, 0, 1):
        sx.discard_gap(d, 1, 2, margin, np.random.PCG64(4), n, eh, es, ek, hm, sm)
        assert np.all(es >= eh - 1e-12) and np.all(es >= ek - 1e-12)
        assert all(bin(int(m)).count("1") <= 2 for m in hm)


def test_heuristic_keeps_jokers_and_made_hands():
    rng = np.random.default_rng(9)
    deck = ref.random_legal_deck(rng, 2, stacked_value=8)
    for n, d in ((5, 2), (7, 2), (8, 3)):
        hands = np.array([rng.choice(deck, n, replace=False) for _ in range(3000)], dtype=np.uint8)
        for margin in (S.LEGAL_MARGIN, 0):
            masks = np.zeros(len(hands), np.uint32)
            keys = np.zeros(len(hands), np.int64)
            cheat = np.zeros(len(hands), np.uint8)
            sx.heuristic_masks(hands, n, d, margin, masks)
            sx.kept_keys(hands, n, margin, keys, cheat)
            for hand, mask, key, ch in zip(hands, masks.tolist(), keys.tolist(), cheat.tolist()):
                if ch and margin == S.LEGAL_MARGIN:
                    continue  # forced to cheat: a legal player drops second copies to get a legal hand
                dropped = [int(c) for i, c in enumerate(hand) if (mask >> i) & 1]
                assert len(dropped) <= d
                assert J not in dropped
                left = [int(c) for i, c in enumerate(hand) if not (mask >> i) & 1]
                if key >> 20 >= 4 and len(left) >= 5:
                    k2 = np.zeros(1, np.int64)
                    c2 = np.zeros(1, np.uint8)
                    sx.kept_keys(np.array([left], np.uint8), len(left), margin, k2, c2)
                    assert k2[0] >> 20 >= key >> 20  # three of a kind or better is never broken


def test_more_draw_never_lowers_mean_rank():
    for deck in ("balanced", "stack-16-16-16"):
        d = load_deck(deck)
        for stud in (0, 2):
            prev = S.shootout_odds(d, stud, 0)  # exact
            for draw in (1, 2, 3, 4):
                cur = S.shootout_odds(d, stud, draw, exact=False, trials=100_000, seed=draw)
                se = math.hypot(prev.mean_rank_stderr, cur.mean_rank_stderr)
                assert cur.mean_rank >= prev.mean_rank - 3 * se, (deck, stud, draw)
                prev = cur


def test_search_policy_in_simulation():
    d = load_deck("balanced")
    heur = S.shootout_odds(d, 0, 1, exact=False, trials=3_000, seed=5)
    srch = S.shootout_odds(d, 0, 1, discard="search", exact=False, trials=3_000, seed=5)
    assert srch.discard == "search"
    assert srch.mean_rank >= heur.mean_rank - 3 * math.hypot(heur.mean_rank_stderr, srch.mean_rank_stderr)
    with pytest.raises(OddsmithError, match="small cases"):
        S.shootout_odds(d, 4, 3, discard="search", trials=10)


def test_automaton_rule_against_plain_reading():
    rng = np.random.default_rng(13)
    deck = ref.random_legal_deck(rng, 2, stacked_value=9)
    n, draws = 6, 3
    rows = np.array([rng.choice(deck, n + draws, replace=False) for _ in range(150)], dtype=np.uint8)
    keys = np.zeros(len(rows), np.int64)
    cheat = np.zeros(len(rows), np.uint8)
    sx.automaton_keys(rows, n, draws, keys, cheat)
    for row, key, ch in zip(rows.tolist(), keys.tolist(), cheat.tolist()):
        options = [row[:n]] + [row[:n] + [row[n + i]] for i in range(draws)]
        res = ref.best_keys(options)
        top = max(k >> 20 for k in res.best.tolist())
        legal = [lk for lk in res.legal.tolist() if lk and lk >> 20 == top]
        want = (max(legal), 0) if legal else (max(k for k in res.best.tolist() if k >> 20 == top), 1)
        assert (key, ch) == want


# --------------------------------------------------------------------------
# Determinism
# --------------------------------------------------------------------------


def test_same_seed_same_numbers_whatever_the_workers():
    d = load_deck("outlaws")
    one = S.shootout_odds(d, 3, 2, exact=False, trials=150_000, seed=42, workers=1)
    two = S.shootout_odds(d, 3, 2, exact=False, trials=150_000, seed=42, workers=2)
    assert one.counts.tolist() == two.counts.tolist()
    r1 = S.shootout_round(S.Side(d, 2, 1), S.Side(load_deck("balanced"), 1, 2), trials=150_000, seed=9, workers=1)
    r2 = S.shootout_round(S.Side(d, 2, 1), S.Side(load_deck("balanced"), 1, 2), trials=150_000, seed=9, workers=2)
    assert r1.to_json() == r2.to_json()
    g1 = S.discard_gap(d, 1, 1, hands=300, seed=3, workers=1)
    g2 = S.discard_gap(d, 1, 1, hands=300, seed=3, workers=2)
    assert g1 == g2


# --------------------------------------------------------------------------
# Posses and the trade-off
# --------------------------------------------------------------------------


def test_choose_shooter():
    from oddsmith.doomtown.posse import parse_posse

    d = load_deck("balanced")
    posse = parse_posse("stud:3; draw:0")
    choice = S.choose_shooter(d, posse, seed=1, trials=20_000)
    assert (choice.name, choice.bonus.stud, choice.bonus.draw) == ("stud:3", 3, 1)
    assert choice.options["chosen"].sum() == 1
    named = S.choose_shooter(d, parse_posse("stud:3; draw:0*"), seed=1)
    assert (named.bonus.stud, named.bonus.draw, named.criterion) == (1, 0, "named")
    a, b, ca, cb = S.choose_shooters(S.Side(d), parse_posse("stud:3; draw:0"), S.Side(d, 1, 1), None,
                                     trials=20_000, seed=2)
    assert (a.stud, a.draw, b.stud, b.draw) == (3, 1, 1, 1)
    assert ca is not None and cb is None


def test_tradeoff_table():
    decks = [load_deck("balanced"), load_deck("stack-16-16-16")]
    df = S.tradeoff(decks, studs=[0, 2], draws=[0, 1], trials=20_000, seed=4)
    assert list(df.columns) == list(S.TRADEOFF_COLUMNS)
    assert len(df) == 2 * 2 * 2
    assert (df["lowball_p_win"] == 0.5).all()  # each deck against itself
    exact_rows = df[df["shootout_exact"]]
    assert set(zip(exact_rows["stud"], exact_rows["draw"])) == {(0, 0), (2, 0)}
    assert (exact_rows["shootout_trials"] == 0).all() and (exact_rows["shootout_mean_rank_stderr"] == 0).all()
    row = df[(df["deck"] == decks[1].name) & (df["stud"] == 2) & (df["draw"] == 0)].iloc[0]
    odds = S.shootout_odds(decks[1], 2, 0)
    assert row["shootout_mean_rank"] == pytest.approx(odds.mean_rank)
    assert row["shootout_p_full_house_or_better"] == pytest.approx(odds.p_at_least(7))
    # the stacked deck wins shootouts and loses lowball against the balanced deck
    vs = S.tradeoff([decks[1]], vs=decks[0], studs=[1], draws=[0], seed=1)
    assert vs["lowball_p_win"].iloc[0] < 0.5 and vs["vs"].iloc[0] == decks[0].name
    bal = df[(df["deck"] == decks[0].name) & (df["stud"] == 2) & (df["draw"] == 0)].iloc[0]
    assert row["shootout_mean_rank"] > bal["shootout_mean_rank"]
    assert row["lowball_p_cheatin"] > bal["lowball_p_cheatin"]


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


run = cli_runner()


def test_cli_exact_json(capsys):
    rc, out, err = run(capsys, "shootout", "balanced", "--stud", "2", "--format", "json")
    assert rc == 0 and err == ""
    js = json.loads(out)
    assert js["exact"] is True and js["trials"] == 0
    assert set(js["stderr"].values()) == {0.0}
    assert sum(js["distribution"].values()) == pytest.approx(1.0)
    assert js["mean_rank"] == pytest.approx(S.shootout_odds(load_deck("balanced"), 2, 0).mean_rank)


def test_cli_simulated_json_and_seed(capsys):
    args = ("shootout", "stack-16-16-16", "--stud", "2", "--draw", "2", "--trials", "30000", "--seed", "5",
            "--format", "json", "--policy", "margin:2")
    rc, out, _ = run(capsys, *args)
    js = json.loads(out)
    assert rc == 0 and js["exact"] is False and js["trials"] == 30_000 and js["seed"] == 5
    assert js["policy"] == "margin:2"
    assert all(v > 0 for r, v in js["stderr"].items() if 0 < js["distribution"][r] < 1)
    rc, out2, _ = run(capsys, *args, "--workers", "2")
    assert json.loads(out2)["distribution"] == js["distribution"]


def test_cli_matchup_json(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--stud", "1", "--draw", "1", "--vs", "outlaws",
                       "--vs-stud", "2", "--trials", "20000", "--seed", "3", "--format", "json")
    assert rc == 0, err
    js = json.loads(out)
    for field in ("distribution", "p_cheatin", "mean_rank", "trials", "exact", "stderr", "p_win", "p_lose",
                  "p_tie", "casualties"):
        assert field in js
    assert set(js["casualties"]) == {"A", "B"}
    assert js["opponent"]["stud"] == 2


def test_cli_posse_and_tables(capsys, tmp_path):
    rc, out, err = run(capsys, "shootout", "balanced", "--posse", "stud:2; draw:1", "--seed", "1", "--trials",
                       "20000")
    assert rc == 0, err
    assert "shooter" in out.lower()
    for fmt in ("table", "md", "csv"):
        rc, out, err = run(capsys, "shootout", "balanced", "--vs-posse", "stud:1; stud:0", "--trials", "10000",
                           "--seed", "2", "--format", fmt)
        assert rc == 0, err
        assert out.strip()
    target = tmp_path / "t.csv"
    rc, out, err = run(capsys, "tradeoff", "balanced", "stack-16-16-16", "--studs", "0-1", "--draws", "0,1",
                       "--trials", "5000", "--seed", "1", "--format", "csv", "--output", str(target))
    assert rc == 0 and out == "" and err == ""
    lines = target.read_text().splitlines()
    assert lines[0].split(",") == list(S.TRADEOFF_COLUMNS)
    assert len(lines) == 1 + 2 * 2 * 2
    rc, out, err = run(capsys, "tradeoff", "balanced", "--vs", "stack-16-16-16", "--studs", "1", "--draws", "0",
                       "--format", "json")
    js = json.loads(out)
    assert js["command"] == "tradeoff" and js["rows"][0]["lowball_p_win"] > 0.5


@pytest.mark.parametrize("args,message", [
    (["shootout", "balanced", "--stud", "-1"], "--stud"),
    (["shootout", "balanced", "--stud", "11"], "--stud"),
    (["shootout", "balanced", "--draw", "11"], "--draw"),
    (["shootout", "balanced", "--vs-draw", "-2"], "--vs-draw"),
    (["shootout", "balanced", "--draw", "1", "--trials", "0"], "--trials"),
    (["shootout", "balanced", "--policy", "sneaky"], "policy"),
    (["shootout", "balanced", "--policy", "margin:0"], "margin"),
    (["shootout", "balanced", "--discard", "random"], "discard"),
    (["shootout", "no-such-deck.txt"], "no such deck"),
    (["shootout", "balanced", "--stud", "3", "--exact"], "exact"),
    (["shootout", "balanced", "--stud", "5", "--draw", "4", "--discard", "search"], "small cases"),
    (["shootout", "balanced", "--stud", "1", "--posse", "stud:2"], "not both"),
    (["shootout", "balanced", "--posse", "stud:-1"], "negative"),
    (["shootout", "balanced", "--vs", "balanced", "--exact"], "simulated"),
    (["tradeoff", "balanced", "--studs", "0-11"], "--studs"),
    (["tradeoff", "balanced", "--draws", "3-1"], "backwards"),
    (["tradeoff", "balanced", "--trials", "0"], "--trials"),
])
def test_cli_bad_input(capsys, args, message):
    rc, out, err = run(capsys, *args)
    assert rc == 2
    assert out == ""
    assert err.startswith("oddsmith: error:") and err.count("\n") == 1
    assert message.lower() in err.lower()


def test_cli_bad_deck_and_output(capsys, tmp_path):
    bad = tmp_path / "five.txt"
    bad.write_text("5x 8S\n" + "\n".join(f"{v}H" for v in range(1, 14)) + "\n")
    rc, out, err = run(capsys, "shootout", str(bad))
    assert rc == 2 and out == "" and err.count("\n") == 1
    missing = tmp_path / "nowhere" / "out.json"
    rc, out, err = run(capsys, "shootout", "balanced", "--format", "json", "--output", str(missing))
    assert rc == 2 and out == "" and "does not exist" in err
    assert not missing.parent.exists()
    rc, out, err = run(capsys, "tradeoff", "balanced", "--output", str(missing))
    assert rc == 2 and not missing.parent.exists()
