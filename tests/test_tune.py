"""`oddsmith deck tune`: legal swaps, every delta against a direct evaluation of the swapped
deck, the paired simulation against the plain-Python hand reference and the exact figures,
the search against exhaustive search, the frontier, the JSON contract and bad input."""
from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest

from cli_run import run
from oddsmith.doomtown import tune as T
from oddsmith.doomtown.deck import load_deck, swap_cards
from oddsmith.doomtown.lowball import gamblin_odds, lowball_odds
from oddsmith.doomtown.shootout import LEGAL_MARGIN, exact_counts, shootout_odds
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import DECK_RULES, JOKER_CODE
from reference_doomtown import random_legal_deck
from reference_shootout_hand import draw_step

SMALL_POOL = "Pearl-Handled Revolver; Flame-Thrower; Tusk"


@pytest.fixture(scope="module")
def law_dogs():
    return load_deck("law-dogs")


@pytest.fixture(scope="module")
def outlaws():
    return load_deck("outlaws")


@pytest.fixture(scope="module")
def default_tune(law_dogs, outlaws):
    return T.tune(law_dogs, outlaws, search=T.TuneSearch(swaps=2), seed=3)


# ---------------------------------------------------------------- legality


def test_every_single_swap_is_legal_and_keeps_the_type(default_tune, law_dogs):
    st = T.start(law_dogs)
    sw = default_tune.swaps
    assert len(sw) > 100
    assert (sw["out_type"] == sw["in_type"]).all()
    assert (sw["out_card"] != sw["in_card"]).all()
    gang = set(law_dogs.starting_gang()["title"])
    assert not set(sw["out"]) & gang
    for old, new in T.moves(st, T._State(st.base_cards), T.TuneSearch())[::25]:
        deck = T.swapped_deck(st, [(old, new)])  # validate_deck runs inside; raises if illegal
        assert len(deck) == len(law_dogs)
        full = deck.with_gang().cards
        assert (full["code"] != JOKER_CODE).sum() == DECK_RULES.valued_cards
        assert full.groupby("code").size().max() <= DECK_RULES.max_per_suit_and_value


def test_box_pool_offers_only_copies_left_in_the_box(law_dogs, outlaws):
    st = T.start(law_dogs)
    pool = {c.title: n for c, n in st.pool}
    assert "Shotgun" not in pool  # the deck holds both of the box's copies
    assert pool["Tusk"] == 2
    st_all = T.start(law_dogs, T.TuneSearch(pool="all"))
    assert dict((c.title, n) for c, n in st_all.pool)["Shotgun"] == 2  # up to 4 per title
    # dudes of other factions only with any_faction
    factions = {c.faction for c, _ in st.pool if c.type == "dude"}
    moves = T.moves(st, T._State(st.base_cards), T.TuneSearch())
    assert {n.faction for _, n in moves if n.type == "dude"} <= {"lawdogs", "neutral"}
    assert len(factions) > 2
    wide = T.moves(st, T._State(st.base_cards), T.TuneSearch(any_faction=True, any_type=True))
    assert len(wide) > len(moves)
    assert any(o.type != n.type for o, n in wide)


def test_random_walks_of_swaps_stay_legal(law_dogs):
    """Six swaps at random from pool all, any type: each deck passes validate_deck (swap_cards)."""
    search = T.TuneSearch(pool="all", any_type=True, any_faction=True, swaps=6)
    st = T.start(law_dogs, search)
    rng = np.random.default_rng(9)
    for walk in range(4):
        state = T._State(st.base_cards)
        for _ in range(6):
            options = T.moves(st, state, search)
            state = T.apply(state, *options[rng.integers(len(options))])
        deck = T.swapped_deck(st, state.swaps)
        full = deck.with_gang().cards
        assert full.groupby("code").size().max() <= DECK_RULES.max_per_suit_and_value
        assert (T._counts(st, state.cards) == deck.counts()).all()
    with pytest.raises(OddsmithError, match="sharing suit and value"):
        swap_cards(law_dogs, [("Fancy New Hat", "Shotgun")])  # a fifth 3 of hearts
    with pytest.raises(OddsmithError, match="not in the draw deck"):
        swap_cards(law_dogs, [("Tommy Harden", "Tusk")])  # the starting gang is in play


# ---------------------------------------------------------------- deltas = direct evaluation


def test_exact_deltas_equal_a_direct_evaluation(default_tune, law_dogs, outlaws):
    st = T.start(law_dogs)
    base_g = gamblin_odds(law_dogs, outlaws)
    base_s = shootout_odds(law_dogs, 0, 0)
    rows = default_tune.swaps.iloc[list(range(0, len(default_tune.swaps), 97)) + list(default_tune.frontier[:3])]
    by_label = {(o.label, n.title): (o, n) for o, n in T.moves(st, T._State(st.base_cards), T.TuneSearch())}
    for r in rows.itertuples():
        deck = T.swapped_deck(st, [by_label[(r.out, r._2)]])
        g = gamblin_odds(deck, outlaws)
        s = shootout_odds(deck, 0, 0)
        assert r.d_p_lowball_win == pytest.approx(g.p_win - base_g.p_win, abs=1e-15)
        assert r.d_p_cheatin == pytest.approx(g.players[0].p_cheatin - base_g.players[0].p_cheatin, abs=1e-15)
        assert r.d_p_shootout == pytest.approx(s.p_at_least(7) - base_s.p_at_least(7), abs=1e-15)
        assert r.d_p_shootout_cheatin == pytest.approx(s.p_cheatin - base_s.p_cheatin, abs=1e-15)
        assert r.d_p_shootout_stderr == 0.0
    for r in default_tune.sequences.itertuples():
        deck = swap_cards(law_dogs, list(r.swaps))
        assert r.d_p_lowball_win == pytest.approx(gamblin_odds(deck, outlaws).p_win - base_g.p_win, abs=1e-15)


@pytest.mark.slow
def test_simulated_deltas_agree_with_a_direct_evaluation_within_5_standard_errors(law_dogs, outlaws):
    q = T.TuneQuestion(stud=1, draw=1, trials=40_000)
    res = T.tune(law_dogs, outlaws, question=q, search=T.TuneSearch(pool=SMALL_POOL, swaps=1), seed=11)
    assert not res.exact["d_p_shootout"]
    n = 200_000
    base = shootout_odds(law_dogs, 1, 1, trials=n, seed=101)
    cur = res.current
    assert abs(cur["p_shootout"] - base.p_at_least(7)) < 5 * math.hypot(cur["p_shootout_stderr"],
                                                                        base.p_at_least_stderr(7))
    for r in res.swaps.head(6).itertuples():
        deck = swap_cards(law_dogs, [(r.out, r._2)])
        direct = shootout_odds(deck, 1, 1, trials=n, seed=202)
        d = direct.p_at_least(7) - base.p_at_least(7)
        se = math.sqrt(r.d_p_shootout_stderr ** 2 + direct.p_at_least_stderr(7) ** 2 + base.p_at_least_stderr(7) ** 2)
        assert abs(r.d_p_shootout - d) < 5 * se
        assert r.d_p_shootout_stderr > 0
        # the paired error is far below the error of two independent figures
        assert r.d_p_shootout_stderr < 0.5 * math.hypot(cur["p_shootout_stderr"], cur["p_shootout_stderr"])


@pytest.mark.slow
def test_full_shootout_deltas_agree_with_a_direct_evaluation(law_dogs, outlaws):
    from oddsmith.doomtown.full_shootout import FullSide, full_shootout
    from oddsmith.doomtown.posse import resolve_posse

    pa, pb = resolve_posse("Philip Swinford; Tommy Harden"), resolve_posse("Allie Hensman; Ike Clanton")
    q = T.TuneQuestion(full_trials=4_000)
    res = T.tune(law_dogs, outlaws, question=q, search=T.TuneSearch(pool=SMALL_POOL, swaps=1), posse=pa,
                 vs_posse=pb, seed=5)
    n = 40_000
    opp = FullSide(outlaws, pb)
    base = full_shootout(FullSide(law_dogs, pa), opp, trials=n, seed=77)
    for r in res.swaps.head(4).itertuples():
        deck = swap_cards(law_dogs, [(r.out, r._2)])
        direct = full_shootout(FullSide(deck, pa), opp, trials=n, seed=78)
        d = direct.figure("p_a_wins") - base.figure("p_a_wins")
        se = math.sqrt(r.d_p_full_shootout_win_stderr ** 2 + direct.stderr("p_a_wins") ** 2
                       + base.stderr("p_a_wins") ** 2)
        assert abs(r.d_p_full_shootout_win - d) < 5 * se


# ---------------------------------------------------------------- the paired simulation


def test_hand_outcomes_match_the_plain_python_reference():
    rng = np.random.default_rng(7)
    for case in range(6):
        codes = random_legal_deck(rng, jokers=case % 3, stacked_value=[None, 8][case % 2])
        stud, draw = case % 3, 1 + case % 2
        pos = T.deal_positions(T.stream(case, 1), 40, codes.size, 5 + stud + draw)
        for deck in (codes, np.roll(codes, 3)):
            ranks, cheat = T.hand_outcomes(deck, pos, stud, draw, LEGAL_MARGIN, 0)
            for t in range(len(pos)):
                cards = [int(deck[p]) for p in pos[t]]
                hand, extra = cards[:5 + stud], iter(cards[5 + stud:])
                key = draw_step(hand, draw, LEGAL_MARGIN, lambda: next(extra), lambda c: None)
                assert ranks[t] == key >> 20, (case, t)


def test_hand_outcomes_agree_with_the_exact_enumeration():
    deck = load_deck("balanced").codes()
    pos = T.deal_positions(T.stream(1, 2), 100_000, deck.size, 6)
    ranks, cheat = T.hand_outcomes(deck, pos, 1, 0, LEGAL_MARGIN, 0)
    exact = exact_counts(deck, 1)
    for r in (2, 3, 7):
        p = exact[2 * r:].sum() / exact.sum()
        p_hat = float((ranks >= r).mean())
        assert abs(p_hat - p) < 5 * math.sqrt(p * (1 - p) / len(pos))


def test_aligned_codes_keep_shared_cards_in_place():
    base = np.array([3, 8, 8, 20, 52, 8], dtype=np.uint8)
    counts = np.bincount(base, minlength=53)
    counts[8] -= 1
    counts[40] += 1
    out = T.aligned_codes(base, counts)
    assert list(out) == [3, 8, 8, 20, 52, 40]
    assert (np.bincount(out, minlength=53) == counts).all()


def test_paired_standard_error_is_that_of_the_per_trial_differences():
    rng = np.random.default_rng(3)
    a = rng.random(5000) < 0.3
    b = a ^ (rng.random(5000) < 0.05)
    d = b.astype(float) - a
    up, down = int((~a & b).sum()), int((a & ~b).sum())
    assert T._paired_se(up, down, d.size) == pytest.approx(d.std() / math.sqrt(d.size))


# ---------------------------------------------------------------- search and frontier


def test_beam_search_equals_exhaustive_search_on_a_small_pool(law_dogs, outlaws):
    kw = dict(question=T.TuneQuestion(), seed=1)
    beam = T.tune(law_dogs, outlaws, search=T.TuneSearch(pool=SMALL_POOL, swaps=3, beam=4), **kw)
    full = T.tune(law_dogs, outlaws, search=T.TuneSearch(pool=SMALL_POOL, swaps=3, exhaustive=True), **kw)
    for length in (1, 2, 3):
        b = beam.sequences[beam.sequences["length"] == length]["score"].max()
        e = full.sequences[full.sequences["length"] == length]["score"].max()
        assert b == pytest.approx(e, abs=1e-15)
    assert full.evaluated >= beam.evaluated


def test_exhaustive_search_is_exhaustive(law_dogs, outlaws):
    """The exhaustive level 2 holds every deck two legal swaps reach (checked by brute force)."""
    search = T.TuneSearch(pool="Tusk; Flame-Thrower", swaps=2, exhaustive=True)
    st = T.start(law_dogs, search)
    base = T._State(st.base_cards)
    reached = set()
    for o1, n1 in T.moves(st, base, search):
        s1 = T.apply(base, o1, n1)
        for o2, n2 in T.moves(st, s1, search):
            reached.add(T._counts(st, T.apply(s1, o2, n2).cards).tobytes())
    res = T.tune(law_dogs, outlaws, search=search, seed=1)
    ev = T.Evaluator(st, outlaws, T.TuneQuestion().checked(), 1, T.InlineExecutor())
    ev.evaluate([np.frombuffer(b, dtype=np.int64) for b in reached])
    best = max(ev.deltas(np.frombuffer(b, dtype=np.int64))["score"] for b in reached)
    assert res.sequences[res.sequences["length"] == 2]["score"].max() == pytest.approx(best, abs=1e-15)


def test_pareto_frontier_against_brute_force():
    rng = np.random.default_rng(5)
    for _ in range(30):
        x, y = rng.integers(-3, 4, 25).astype(float), rng.integers(-3, 4, 25).astype(float)
        want = set()
        for i in range(25):
            beaten = any(x[j] >= x[i] and y[j] >= y[i] and (x[j] > x[i] or y[j] > y[i]) for j in range(25))
            if not beaten and (x[i] > 0 or y[i] > 0):
                want.add(i)
        assert set(T.pareto_frontier(x, y)) == want


# ---------------------------------------------------------------- CLI


def test_json_contract(capsys, tmp_path):
    chart = tmp_path / "frontier.png"
    rc, out, err = run(capsys, "deck", "tune", "law-dogs", "--vs", "outlaws", "-f", "json", "--seed", "2",
                       "--pool", SMALL_POOL, "--swaps", "2", "--chart", chart)
    assert rc == 0, err
    data = json.loads(out)
    for key in ("deck", "opponent", "swaps", "shootout_measure", "frontier", "sequences", "stderr", "exact",
                "trials", "seed"):
        assert key in data
    s = data["swaps"][0]
    for key in ("out", "in", "d_p_lowball_win", "d_p_shootout", "d_p_cheatin"):
        assert key in s
    assert "d_p_full_shootout_win" not in s
    assert all(0 <= i < len(data["swaps"]) for i in data["frontier"])
    assert data["exact"]["d_p_lowball_win"] is True and data["stderr"]["swaps"][0]["d_p_lowball_win"] == 0.0
    assert data["sequences"][0]["swaps"][0].keys() == {"out", "in"}
    assert data["seed"] == 2
    assert chart.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_output_and_simulated_figures_carry_standard_errors(capsys):
    rc, out, err = run(capsys, "deck", "tune", "law-dogs", "--vs", "outlaws", "--draw", "1", "-t", "3000",
                       "--pool", "Tusk", "--swaps", "1", "--seed", "4")
    assert rc == 0, err
    assert "±" in out and "paired standard error" in out


@pytest.mark.parametrize("args, message", [
    (["--pool", "Tusk; Definitely Not A Card"], "unknown card title"),
    (["--pool", "Law Dogs"], "is a outfit"),
    (["--pool", "all", "--swaps", "9"], "--swaps"),
    (["--format", "xml"], "--format"),
    (["--chart", "x.gif"], "--chart"),
    (["--posse", "Tommy Harden"], "--vs-posse"),
    (["--at-least", "12"], "--at-least"),
])
def test_bad_input_is_one_line_exit_2(capsys, tmp_path, args, message):
    target = tmp_path / "out.json"
    rc, out, err = run(capsys, "deck", "tune", "law-dogs", "--vs", "outlaws", "-o", target, *args)
    assert rc == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err
    assert not target.exists()


def test_a_pool_card_that_cannot_keep_the_deck_legal(capsys, tmp_path):
    """A deck already holding four Shotguns cannot take a fifth; a pool of a spell for a deck with
    no spell to trade (same type by default) leaves no legal swap."""
    from importlib import resources

    text = resources.files("oddsmith.data").joinpath("decks/law-dogs.txt").read_text(encoding="utf-8")
    deck = tmp_path / "four-shotguns.txt"
    deck.write_text(text.replace("2x Bowie Knife", "2x Shotgun"), encoding="utf-8")
    rc, out, err = run(capsys, "deck", "tune", deck, "--vs", "outlaws", "--pool", "Shotgun")
    assert rc == 2 and "cannot come in" in err and err.count("\n") == 1
    rc, out, err = run(capsys, "deck", "tune", "law-dogs", "--vs", "outlaws", "--pool", "Soul Blast")
    assert rc == 2 and "no legal swap" in err and err.count("\n") == 1


def test_default_tune_of_a_starter_deck_takes_seconds(default_tune):
    """Not a timing assertion: the default question is exact and evaluates a few thousand decks at most."""
    assert all(default_tune.exact[k] for k in ("d_p_lowball_win", "d_p_shootout", "d_p_cheatin"))
    assert default_tune.evaluated < 5_000
