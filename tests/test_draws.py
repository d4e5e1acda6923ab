"""`deck draws`: exact play-hand odds against brute force (every subset, every ordering of a small
deck through the book's card flow) and against a plain simulation of that flow on the sample decks."""
from __future__ import annotations

import itertools
import json
import math
import random
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

from cli_run import cli_runner
from oddsmith.doomtown import draws as W
from oddsmith.doomtown.deck import deck_from_codes, load_deck
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import card_code

run = cli_runner("deck", "draws")


# --------------------------------------------------------------------------
# Plain references
# --------------------------------------------------------------------------


def flow_play_hand(order, day: int, plays: int, discard: bool) -> list:
    """The cards drawn into the play hand by the end of ``day``, following the book literally:
    set-up draws a five-card play hand; each day Gamblin' draws five cards and discards them,
    ``plays`` cards leave the hand at High Noon, one more is discarded at Nightfall (if
    ``discard``), then the hand is refilled to five."""
    deck = list(order)
    hand, seen = [], []
    for _ in range(5):
        hand.append(deck.pop(0))
        seen.append(hand[-1])
    for _ in range(day):
        lowball = [deck.pop(0) for _ in range(5)]
        assert len(lowball) == 5
        for _ in range(plays):
            if hand:
                hand.pop(0)
        if discard and hand:
            hand.pop(0)
        while len(hand) < 5:
            hand.append(deck.pop(0))
            seen.append(hand[-1])
    return seen


def can_meet(drawn_rows, need) -> bool:
    """Whether distinct drawn cards can be given to the parts, each part its count (brute force)."""
    slots = [j for j, n in enumerate(need) for _ in range(n)]

    def assign(i, used):
        if i == len(slots):
            return True
        return any(c not in used and drawn_rows[c][slots[i]] and assign(i + 1, used | {c})
                   for c in range(len(drawn_rows)))

    return assign(0, frozenset())


def multiset_orderings(items):
    """Every distinct ordering of a multiset."""
    counts = {}
    for x in items:
        counts[x] = counts.get(x, 0) + 1
    keys = sorted(counts)
    n = len(items)

    def rec(prefix):
        if len(prefix) == n:
            yield tuple(prefix)
            return
        for k in keys:
            if counts[k]:
                counts[k] -= 1
                prefix.append(k)
                yield from rec(prefix)
                prefix.pop()
                counts[k] += 1

    yield from rec([])


# --------------------------------------------------------------------------
# The counting core against every subset
# --------------------------------------------------------------------------


def test_hypergeometric_against_every_subset():
    rng = random.Random(1)
    for _ in range(40):
        n = rng.randint(1, 11)
        m = rng.randint(0, n)
        h = rng.randint(0, n)
        k = rng.randint(1, 4)
        deck = [1] * m + [0] * (n - m)
        hits = sum(sum(deck[i] for i in s) >= k for s in itertools.combinations(range(n), h))
        assert W.p_at_least(m, n, h, k) == Fraction(hits, math.comb(n, h))


def test_conjunctions_against_every_subset():
    rng = random.Random(2)
    for case in range(60):
        n = rng.randint(3, 11)
        parts = rng.randint(1, 3)
        rows = [tuple(rng.random() < 0.35 for _ in range(parts)) for _ in range(n)]
        need = [rng.randint(1, 2) for _ in range(parts)]
        h = rng.randint(0, n)
        hits = sum(can_meet([rows[i] for i in s], need) for s in itertools.combinations(range(n), h))
        assert W.p_all(rows, h, need) == Fraction(hits, math.comb(n, h)), (case, rows, need, h)


def test_overlapping_parts_need_distinct_cards():
    # One card is both a dude and a stud dude: "a dude and a stud dude" needs two cards.
    rows = [(True, True), (False, False), (False, False)]
    assert W.p_all(rows, 3, [1, 1]) == 0
    assert W.p_all(rows + [(True, False)], 4, [1, 1]) == 1


# --------------------------------------------------------------------------
# The card flow: every ordering of a small deck, and the sample decks simulated
# --------------------------------------------------------------------------


def small_deck():
    """Twelve cards: four aces, four 2s, four 3s (a partial deck)."""
    codes = [card_code(v, s) for v in (1, 2, 3) for s in range(4)]
    return deck_from_codes(codes, name="small", partial=True)


@pytest.mark.parametrize("plays,discard,day", [(0, True, 1), (0, False, 1), (1, False, 1), (2, False, 0)])
def test_every_ordering_of_a_small_deck(plays, discard, day):
    deck = small_deck()
    policy = W.DayPolicy(plays=plays, nightfall_discard=discard)
    if policy.deck_cards_needed(day) > len(deck):
        pytest.skip("does not fit")
    queries = ["value:A", "value:2", "value:A; value:2", "2x value:A; value:3", "value:A; value:2; value:3"]
    got = W.deck_draws(deck, queries, days=[day], policy=policy, at_least=2)
    labels = [1] * 4 + [2] * 4 + [3] * 4
    counts = {q: [0, 0] for q in queries}
    total = 0
    for order in multiset_orderings(labels):
        seen = flow_play_hand(order, day, plays, discard)
        total += 1
        c = {v: seen.count(v) for v in (1, 2, 3)}
        for q, ok1, okk in (("value:A", c[1] >= 1, c[1] >= 2), ("value:2", c[2] >= 1, c[2] >= 2),
                            ("value:A; value:2", c[1] >= 1 and c[2] >= 1, c[1] >= 2 and c[2] >= 2),
                            ("2x value:A; value:3", c[1] >= 1 and c[3] >= 1, c[1] >= 2 and c[3] >= 2),
                            ("value:A; value:2; value:3", min(c.values()) >= 1, min(c.values()) >= 2)):
            counts[q][0] += ok1
            counts[q][1] += okk
    assert total == math.factorial(12) // math.factorial(4) ** 3
    for row in got.exact_rows:
        assert row["p_at_least_1"] == Fraction(counts[row["query"]][0], total), row
        assert row["p_at_least"] == Fraction(counts[row["query"]][1], total), row


def _simulate(deck, masks, need_lists, day, plays, discard, trials, seed):
    rng = np.random.default_rng(seed)
    idx = np.arange(len(deck))
    hits = np.zeros(len(masks))
    for _ in range(trials):
        seen = flow_play_hand(rng.permutation(idx).tolist(), day, plays, discard)
        for q, (rows, need) in enumerate(zip(masks, need_lists)):
            hits[q] += can_meet([rows[i] for i in seen], need)
    return hits / trials


@pytest.mark.parametrize("sample,plays,discard,day,trials", [
    ("law-dogs", 1, True, 2, 3000),
    pytest.param("outlaws", 2, True, 4, 20000, marks=pytest.mark.slow),
    pytest.param("entrepreneurs", 0, False, 6, 20000, marks=pytest.mark.slow),
])
def test_simulated_card_flow_on_sample_decks(sample, plays, discard, day, trials):
    deck = load_deck(sample)
    policy = W.DayPolicy(plays=plays, nightfall_discard=discard)
    queries = [W.parse_query(q) for q in ("type:deed", "type:deed; stud:2", "2x type:action; type:goods",
                                          "value:8 & type:dude")]
    odds = W.deck_draws(deck, queries, days=[day], policy=policy)
    keywords = W._row_keywords(deck, deck.table)
    masks, needs = [], []
    for q in queries:
        member = [W._part_mask(deck, p, keywords) for p in q.parts]
        masks.append(list(zip(*member)))
        needs.append([p.count or 1 for p in q.parts])
    # the count-aware figure is p_at_least (the 2x part); the others p_at_least_1
    exact = [r["p_at_least"] if r["p_at_least"] is not None else r["p_at_least_1"] for r in odds.exact_rows]
    sim = _simulate(deck, masks, needs, day, plays, discard, trials, seed=7)
    for e, s, q in zip(exact, sim, queries):
        se = math.sqrt(float(e) * (1 - float(e)) / trials)
        assert abs(s - float(e)) <= 5 * se + 1e-12, (str(q), float(e), s, se)


def test_conjunction_of_disjoint_parts_by_inclusion_exclusion():
    deck = load_deck("law-dogs")
    odds = W.deck_draws(deck, ["type:deed", "stud:2", "type:deed; stud:2"], days=[0, 3])
    n = len(deck)
    for day in (0, 3):
        h = W.DayPolicy().play_hand_cards(day)
        rows = odds.rows[odds.rows["day"] == day].set_index("query")
        deeds, studs = int(rows.loc["type:deed", "matching"]), int(rows.loc["stud:2", "matching"])
        none = lambda m: math.comb(n - m, h) / math.comb(n, h)  # noqa: E731
        expect = 1 - none(deeds) - none(studs) + none(deeds + studs)
        assert rows.loc["type:deed; stud:2", "p_at_least_1"] == pytest.approx(expect, rel=1e-12)
        assert rows.loc["type:deed", "expected"] == pytest.approx(h * deeds / n)


def test_filters_on_the_law_dogs():
    deck = load_deck("law-dogs")
    odds = W.deck_draws(deck, ["card:Shotgun", "card:Judge Harry Somerset", "keyword:huckster", "stud:2",
                               "value:K", "type:joker", "stud:2 & keyword:deputy"], days=[0])
    matching = dict(zip(odds.rows["query"], odds.rows["matching"]))
    assert matching["card:Shotgun"] == 2
    assert matching["card:Judge Harry Somerset"] == 2  # both Experienced copies count
    assert matching["stud:2"] == 4  # Ramiro Mendoza (3), El Anonimo x2 (2), Bass Reeves (4)
    assert matching["value:K"] == int((deck.cards["value"].fillna(0) == 13).sum()) == 6
    assert matching["type:joker"] == 2
    assert matching["stud:2 & keyword:Deputy"] == 1
    # the starting gang is in play, not in the deck: Philip Swinford cannot be drawn
    swinford = W.deck_draws(deck, ["card:Philip Swinford"], days=[0]).rows
    assert swinford["matching"].iloc[0] == 0 and swinford["p_at_least_1"].iloc[0] == 0
    full = W.deck_draws(load_deck("law-dogs", with_gang=True), ["card:Philip Swinford"], days=[0]).rows
    assert full["matching"].iloc[0] == 1 and full["p_at_least_1"].iloc[0] == pytest.approx(5 / 54)


def test_ampersand_inside_a_title():
    q = W.parse_query("card:Shane & Graves Security & type:deed; type:dude")
    assert [str(f) for f in q.parts[0].filters] == ["card:Shane & Graves Security", "type:deed"]
    rows = W.deck_draws("law-dogs", [q, "card:Shane & Graves Security"], days=[0]).rows
    assert list(rows["matching"]) == [12, 1]


def test_a_conjunction_too_large_to_count_is_refused():
    query = "value:3; value:6; value:8; type:dude; type:deed; type:goods"
    with pytest.raises(OddsmithError, match="too many overlapping parts"):
        W.deck_draws("law-dogs", [query], days=[6], at_least=3)


def test_policy_and_days():
    p = W.DayPolicy()
    assert (p.refill, p.play_hand_cards(0), p.play_hand_cards(2), p.deck_cards_needed(2)) == (2, 5, 9, 19)
    assert W.DayPolicy(plays=5).refill == 5 and W.DayPolicy(plays=0, nightfall_discard=False).refill == 0
    assert p.max_day(49) == 6 and p.max_day(4) == -1
    with pytest.raises(OddsmithError, match="up to day 6"):
        W.deck_draws("law-dogs", ["type:deed"], days=[7])
    with pytest.raises(OddsmithError, match="0..5"):
        W.DayPolicy(plays=6)


def test_bad_queries():
    for text, match in (("type:dud", "unknown card type"), ("card:Shotgn", "Shotgun"), ("keyword:salon", "Saloon"),
                        ("value:14", "not a card value"), ("nonsense", "not a filter"), ("type:deed;", "empty part"),
                        ("0x type:deed", "not 1..54"), ("stud:x", "number of bullets"),
                        ("card:Law Dogs", "outfit")):
        with pytest.raises(OddsmithError, match=match):
            W.parse_query(text)
    plain = deck_from_codes(list(range(52)), name="plain")
    with pytest.raises(OddsmithError, match="no titles"):
        W.deck_draws(plain, ["type:deed"])
    assert W.deck_draws(plain, ["value:A"], days=[0]).rows["matching"].iloc[0] == 4


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------


def test_cli_json_contract(capsys):
    rc, out, err = run(capsys, "law-dogs", "--card", "Shotgun", "--type", "deed", "--keyword", "Saloon",
                       "--all", "type:deed; stud:2", "--day", "0", "--day", "2", "--at-least", "2", "-f", "JSON")
    assert rc == 0, err
    data = json.loads(out)
    assert data["exact"] is True and data["deck_cards"] == 49 and data["policy"] == "play-1-discard-one"
    assert len(data["rows"]) == 8
    for row in data["rows"]:
        assert {"query", "day", "p_at_least_1", "p_at_least", "expected"} <= set(row)
        assert 0 <= row["p_at_least"] <= row["p_at_least_1"] <= 1
    rc, out, _ = run(capsys, "law-dogs", "--type", "deed", "-f", "json")
    rows = json.loads(out)["rows"]
    assert [r["day"] for r in rows] == [0, 1, 2, 3] and "p_at_least" not in rows[0]
    assert rows[0]["p_at_least_1"] == pytest.approx(1 - math.comb(35, 5) / math.comb(49, 5))


def test_cli_table(capsys):
    rc, out, err = run(capsys, "law-dogs", "--all", "type:deed; stud:2", "--day", "2")
    assert rc == 0, err
    assert "type:deed; stud:2" in out and "Deck used: Law Dogs" in out and "exact" in out


@pytest.mark.parametrize("args,words", [
    (["--card", "Shotgn"], "did you mean 'Shotgun'"),
    (["--type", "deed", "--day", "9"], "up to day 6"),
    (["--type", "deed", "--day", "-1"], "--day -1"),
    (["--type", "deed", "--at-least", "0"], "--at-least 0"),
    (["--type", "deed", "--plays", "9"], "--plays 9"),
    ([], "no query"),
    (["--type", "deed", "-f", "xml"], "--format"),
    (["--all", "type:deed;;stud:1"], "empty part"),
])
def test_cli_bad_input(capsys, tmp_path, args, words):
    target = tmp_path / "out.json"
    rc, out, err = run(capsys, "law-dogs", *args, "-o", target)
    assert rc == 2 and words in err and "Traceback" not in err and err.count("\n") == 1
    assert not target.exists()


def test_command_module_imports_light():
    code = ("import sys, oddsmith.commands.deck_draws; "
            "bad = [m for m in ('pandas', 'numpy') if m in sys.modules]; print(bad); sys.exit(bool(bad))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
