"""Whole shootouts (oddsmith.doomtown.full_shootout, ext/full_shootout.pyx) against the
plain-Python reference (tests/reference_full_shootout.py) and the book's examples
(Rulebook "9. Take Your Lumps", "10. Flight or Fight", "Ending a Shootout")."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import reference_full_shootout as ref
from cli_run import run
from oddsmith._ext import full_shootout as fx
from oddsmith.doomtown.deck import load_sample
from oddsmith.doomtown.full_shootout import (
    FullSide,
    _setup,
    cycle_codes,
    full_shootout,
    reachable_bonuses,
    round_win_tables,
    what_if,
)
from oddsmith.doomtown.posse import Posse, PosseDude, Sidekick, parse_posse, posse_from_cards
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import BulletType

FATE = {0: "standing", 1: "aced", 2: "discarded", 3: "home", 4: "fled"}
PLAIN_DECK = np.arange(52, dtype=np.uint8)
"""52 distinct cards: what the casualty tests need of a deck."""


@pytest.fixture(scope="module")
def decks():
    return load_sample("law-dogs"), load_sample("outlaws")


def kernel_lumps(posse: Posse, policy: str, casualties: int):
    """The kernel's "Take Your Lumps" on ``posse``: fates, Sidekicks kept, cards discarded."""
    s = _setup(FullSide(PLAIN_DECK, posse, casualties=policy).checked(), "A")
    n = len(posse.dudes)
    fates, left = np.zeros(n, np.int32), np.zeros(n, np.int32)
    cards = np.zeros(256, np.int32)
    k = fx.take_lumps(s.dudes, s.sidekicks, s.policy, s.order_cas, casualties, fates, left, cards)
    return [FATE[int(f)] for f in fates], [int(x) for x in left], [int(c) for c in cards[:k]]


def reference_lumps(posse: Posse, policy: str, casualties: int):
    """The reference's "Take Your Lumps" on ``posse`` (as kernel_lumps)."""
    side, _ = ref.make_side(FullSide(PLAIN_DECK, posse, casualties=policy), "A")
    ref.take_lumps(side, casualties)
    return [d.fate for d in side.dudes], [len(d.sidekicks) for d in side.dudes], side.discard_pile


# --------------------------------------------------------------------------
# The book's casualty examples (Rulebook "9. Take Your Lumps")
# --------------------------------------------------------------------------


@pytest.mark.parametrize("policy", ["automaton", "keep-posse", "save-dudes"])
def test_four_casualties_two_dudes_both_aced(policy):
    # "If you suffer 4 casualties and have 2 dudes in your posse ... acing both dudes."
    posse = parse_posse("stud:1, draw:2")
    assert kernel_lumps(posse, policy, 4)[0] == ["aced", "aced"]
    assert reference_lumps(posse, policy, 4)[0] == ["aced", "aced"]


@pytest.mark.parametrize("casualties, fate", [(1, "home"), (2, "discarded"), (3, "aced")])
def test_harrowed_covers_one_two_three(casualties, fate):
    # "Sending a Harrowed dude ... home booted covers 1 casualty, discarding them covers 2
    # casualties, and acing them covers 3 casualties." A lone Harrowed dude covers exactly
    # what he must (never excess casualties).
    posse = parse_posse("stud:1 [harrowed]")
    for policy in ("keep-posse", "save-dudes"):
        assert kernel_lumps(posse, policy, casualties)[0] == [fate]
    # the Automaton assigns a Harrowed dude "as 1 casualty", whatever the count
    assert kernel_lumps(posse, "automaton", casualties)[0] == ["home"]


def test_no_excess_casualties_and_sidekicks():
    # One casualty never aces (acing covers 2: excess); a Sidekick covers 1.
    assert kernel_lumps(parse_posse("stud:1"), "keep-posse", 1)[0] == ["discarded"]
    fates, left, cards = kernel_lumps(parse_posse("stud:1 + Faithful Hound, draw:1"), "keep-posse", 1)
    assert fates == ["standing", "standing"] and left == [0, 0] and len(cards) == 1
    # save-dudes: 3 casualties on a Harrowed dude, a Sidekick and a dude: home, Sidekick, discard
    fates, left, _ = kernel_lumps(parse_posse("stud:1 [harrowed], draw:2 + sidekick"), "save-dudes", 3)
    assert fates == ["home", "discarded"] and left == [0, 0]


def test_automaton_reflexes_order():
    # Harrowed (as 1), then Token dudes (as many as possible), then Sidekicks, then dudes.
    posse = parse_posse("stud:2 + sidekick, Gunslinger, draw:1 [harrowed]")
    assert kernel_lumps(posse, "automaton", 1)[0] == ["standing", "standing", "home"]
    assert kernel_lumps(posse, "automaton", 3)[0] == ["standing", "aced", "home"]
    fates, left, _ = kernel_lumps(posse, "automaton", 4)
    assert fates == ["standing", "aced", "home"] and left == [0, 0, 0]
    assert kernel_lumps(posse, "automaton", 6)[0] == ["aced", "aced", "home"]


def random_posse(rng: random.Random, max_dudes: int = 5) -> Posse:
    dudes = []
    for i in range(rng.randint(1, max_dudes)):
        kind = rng.choice([BulletType.STUD, BulletType.DRAW])
        kicks = tuple(Sidekick("Sidekick", code=rng.choice([None, rng.randrange(52)]))
                      for _ in range(rng.choice([0, 0, 0, 1, 2])))
        dudes.append(PosseDude(f"d{i}", kind, rng.randint(0, 3), harrowed=rng.random() < 0.25,
                               token=rng.random() < 0.15, sidekicks=kicks, bounty=rng.choice([0, 0, 1, 3]),
                               influence=rng.randint(0, 2), value=rng.randint(1, 13), cost=rng.randint(0, 5),
                               code=rng.randrange(53) if rng.random() < 0.7 else None))
    return Posse(tuple(dudes))


def test_lumps_kernel_equals_reference_on_random_posses():
    rng = random.Random(8)
    for _ in range(600):
        posse = random_posse(rng, 6)
        policy = rng.choice(["automaton", "keep-posse", "save-dudes"])
        cas = rng.randint(1, 12)
        k = kernel_lumps(posse, policy, cas)
        r = reference_lumps(posse, policy, cas)
        assert k[0] == r[0] and k[1] == r[1] and sorted(k[2]) == sorted(r[2]), (posse, policy, cas)
        # Take Your Lumps: cover all that can be covered, never more. The Automaton's reflexes,
        # as written, are the documented exceptions: a Harrowed dude goes "as 1 casualty", and a
        # Token dude goes before Sidekicks, so a Token dude's own Sidekicks are lost uncovered.
        side, _ = ref.make_side(FullSide(PLAIN_DECK, posse, casualties=policy), "A")
        cover = ref.take_lumps(side, cas)
        assert cover <= cas
        if policy != "automaton" or not any(d.harrowed or (d.token and d.sidekicks) for d in posse.dudes):
            assert cover == min(cas, posse.casualty_capacity()), (posse, policy, cas)


# --------------------------------------------------------------------------
# Kernel against the reference, statistically
# --------------------------------------------------------------------------


def compare(a: FullSide, b: FullSide, seed: int, n_ref: int, n_kernel: int = 100_000, hands: str = "kernel") -> None:
    sa, sb = _setup(a.checked(), "A"), _setup(b.checked(), "B")
    tables = round_win_tables(sa, sb, seed)
    k = full_shootout(a, b, trials=n_kernel, seed=seed, tables=tables)
    outs = ref.reference_shootouts(a, b, n_ref, seed, *tables, hands=hands)

    def close(kernel: float, values: list[float], what: str) -> None:
        x = np.asarray(values, dtype=float)
        se = np.sqrt(x.var() / len(x) + (x.var() / n_kernel)) if x.var() > 0 else 0.0
        # a figure the reference never saw vary: its rate is below ~3/n_ref
        tol = max(5 * se, 3.0 / n_ref)
        assert abs(kernel - x.mean()) <= tol, f"{what}: kernel {kernel:.4f}, reference {x.mean():.4f} ± {se:.4f}"

    close(k.figure("p_a_wins"), [o.winner == 1 for o in outs], "P(A wins)")
    close(k.figure("p_b_wins"), [o.winner == 2 for o in outs], "P(B wins)")
    close(k.figure("rounds_mean"), [o.rounds for o in outs], "rounds")
    close(k.figure("p_a_fled"), [o.a_fled for o in outs], "P(A fled)")
    close(k.figure("p_reshuffle"), [any(o.reshuffled) for o in outs], "P(reshuffle)")
    close(k.figure("bounty_a"), [o.bounty_a for o in outs], "bounty A")
    for si, label in enumerate("AB"):
        rows = k.dudes[k.dudes["side"] == label].reset_index(drop=True)
        for i, row in rows.iterrows():
            fates = [o.fates[si][i] for o in outs]
            close(row["p_aced"], [f == "aced" for f in fates], f"{label}{i} aced")
            close(row["p_standing"], [f == "standing" for f in fates], f"{label}{i} standing")
            close(row["p_sent_home"], [f in ("home", "fled") for f in fates], f"{label}{i} sent home")


def random_full_side(rng: random.Random, deck, posse: Posse) -> FullSide:
    if rng.random() < 0.2:
        return FullSide(deck, posse, automaton=True)
    return FullSide(deck, posse, shooter=rng.choice(["best", "automaton", "listed"]),
                    casualties=rng.choice(["automaton", "keep-posse", "save-dudes"]),
                    flee=rng.choice(["never", "outnumbered", "losses:1", "losses:2"]),
                    policy=rng.choice(["legal", "greedy", "margin:2"]),
                    discard=rng.choice(["heuristic", "heuristic", "automaton"]))


def test_kernel_agrees_with_reference_fixed_cases(decks):
    d, e = decks
    compare(FullSide(d, parse_posse("stud:2, draw:1 [harrowed], stud:1 + sidekick")),
            FullSide(e, parse_posse("stud:1 [bounty:2], draw:2, draw:1"), casualties="save-dudes", flee="losses:1"),
            seed=3, n_ref=1500)
    compare(FullSide(d, parse_posse("stud:1, draw:0"), shooter="listed", casualties="automaton", flee="outnumbered"),
            FullSide(e, parse_posse("draw:2 [harrowed], Gunslinger, draw:1 + 2x sidekick"), automaton=True),
            seed=4, n_ref=1500)


@pytest.mark.slow
def test_kernel_agrees_with_reference_random_cases():
    rng = random.Random(2026)
    samples = ["law-dogs", "outlaws", "anarchists", "fearmongers", "entrepreneurs", "first-peoples"]
    for case in range(14):
        deck_a, deck_b = load_sample(rng.choice(samples)), load_sample(rng.choice(samples))
        if case % 3 == 0:  # a small deck: reshuffles happen
            deck_a = deck_a.without("gang")
            deck_a = type(deck_a)(**{**deck_a.__dict__, "cards": deck_a.cards.iloc[:20]})
        pa, pb = random_posse(rng, 4), random_posse(rng, 4)
        compare(random_full_side(rng, deck_a, pa), random_full_side(rng, deck_b, pb), seed=case, n_ref=1200,
                n_kernel=60_000)


def test_kernel_agrees_with_fully_python_reference(decks):
    """The reference with its hand steps in plain Python too (hands="python": no kernel
    anywhere in the game it plays) against the kernel: the heuristic under legal, margin:2
    and greedy, the Automaton, then random posses, decks and policies."""
    d, e = decks
    compare(FullSide(d, parse_posse("stud:1, draw:2 [harrowed], draw:1"), policy="legal"),
            FullSide(e, parse_posse("draw:2, stud:1 + sidekick"), automaton=True), seed=100, n_ref=600,
            n_kernel=60_000, hands="python")
    compare(FullSide(d, parse_posse("draw:3, stud:1 [bounty:2]"), policy="margin:2", casualties="save-dudes"),
            FullSide(e, parse_posse("stud:2, draw:1, draw:1"), policy="greedy", shooter="listed",
                     flee="outnumbered"), seed=101, n_ref=600, n_kernel=60_000, hands="python")
    rng = random.Random(88)
    samples = ["law-dogs", "outlaws", "anarchists", "fearmongers", "entrepreneurs", "first-peoples"]
    deck_a, deck_b = load_sample(rng.choice(samples)), load_sample(rng.choice(samples))
    # small posses: the plain-Python hand of 5 + stud cards costs C(5 + stud, 5) fives
    pa, pb = random_posse(rng, 3), random_posse(rng, 3)
    compare(random_full_side(rng, deck_a, pa), random_full_side(rng, deck_b, pb), seed=102,
            n_ref=600, n_kernel=60_000, hands="python")


# --------------------------------------------------------------------------
# Whole-shootout facts
# --------------------------------------------------------------------------


def test_probabilities_add_up_and_fates(decks):
    d, e = decks
    r = full_shootout(FullSide(d, parse_posse("stud:2, draw:1")), FullSide(e, parse_posse("stud:1, draw:2"),
                      flee="outnumbered"), trials=20_000, seed=1)
    total = r.figure("p_a_wins") + r.figure("p_b_wins") + r.figure("p_nobody")
    assert total == pytest.approx(1.0)
    assert r.rounds["p"].sum() == pytest.approx(1.0)
    fates = r.dudes[["p_aced", "p_discarded", "p_sent_home", "p_standing"]].sum(axis=1)
    assert np.allclose(fates, 1.0)
    assert (r.rounds["rounds"] >= 1).all() and r.cap_hits == 0
    # a posse that fled did not win: B fled (outnumbered), so A won those
    assert r.figure("p_b_fled") > 0 and r.figure("p_a_wins") >= r.figure("p_b_fled")


def test_same_seed_same_result_any_workers(decks):
    d, e = decks
    a, b = FullSide(d, parse_posse("stud:2, draw:1, stud:0")), FullSide(e, parse_posse("draw:2, stud:1"))
    r1 = full_shootout(a, b, trials=150_000, seed=9, workers=1)
    r2 = full_shootout(a, b, trials=150_000, seed=9, workers=2)
    assert r1.to_json() == r2.to_json()


def test_in_play_cards_leave_the_deck(decks):
    d, _ = decks  # as set-up leaves it: the starting gang already in play
    full = d.with_gang()
    gang = posse_from_cards(d.starting_gang())
    codes, removed = cycle_codes(full, gang)
    assert len(codes) == len(full) - 5 and len(removed) == 5
    # a deck whose starting gang is already out: nothing more to remove
    codes2, removed2 = cycle_codes(d, gang)
    assert len(codes2) == len(d) == len(full) - 5 and removed2 == ()
    # a dude given directly has no card; a Sidekick's card is in play too
    codes3, removed3 = cycle_codes(full, parse_posse("stud:2, Philip Swinford"))
    assert removed3 == ("Philip Swinford",)


def test_cycle_codes_worked_out_once_per_deck_agree_with_a_fresh_deck(decks):
    """cycle_codes keeps each deck's title keys (a what-if page asks some thirty times): asked again, with other
    posses, it gives what a fresh copy of the deck gives, and what it returns is the caller's own."""
    from dataclasses import replace

    d, _ = decks
    full = d.with_gang()
    posses = [posse_from_cards(d.starting_gang()), parse_posse("stud:2, Philip Swinford"), parse_posse("draw:1"),
              posse_from_cards(d.starting_gang().iloc[:2])]
    for deck in (d, full):
        for posse in posses * 2:
            codes, removed = cycle_codes(deck, posse)
            fresh = replace(deck, cards=deck.cards.copy(), in_play=None if deck.in_play is None else deck.in_play.copy())
            want, want_removed = cycle_codes(fresh, posse)
            assert removed == want_removed and codes.dtype == want.dtype and np.array_equal(codes, want)
            codes[:] = 0  # the caller's copy: the next call is unaffected


def test_reachable_bonuses():
    # Rulebook "4. Draw!" Example 1: Baker (2 stud), Allie (2 draw), Ike (0 draw)
    posse = parse_posse("Baker Andrews, Allie Hensman, Ike Clanton")
    got = set(reachable_bonuses(posse))
    assert (2, 2) in got and (1, 2) in got and (0, 0) in got and (2, 0) in got
    for i in range(3):
        b = posse.bonus(i)
        assert (b.stud, b.draw) in got


def test_round_cap_is_reported(decks):
    # 16 dudes with 8 Sidekicks each cover 160 casualties a side: such shootouts outlast the
    # 50-round cap, which stops them with no winner and counts them.
    d, e = decks
    big = "8x stud:0 + 8x sidekick; 8x draw:0 + 8x sidekick"
    r = full_shootout(FullSide(d, parse_posse(big), shooter="listed"), FullSide(e, parse_posse(big), shooter="listed"),
                      trials=300, seed=2)
    j = r.to_json()
    assert j["cap_hits"] > 0 and j["round_cap"] == 50
    assert j["p_cap"] == pytest.approx(j["cap_hits"] / 300)
    assert j["p_nobody"] >= j["p_cap"] and j["rounds"][50] >= j["p_cap"]
    assert max(j["rounds"]) == 50


def test_json_contract(decks):
    d, e = decks
    r = full_shootout(FullSide(d, parse_posse("stud:2 [bounty:2], draw:1")),
                      FullSide(e, parse_posse("stud:1 [bounty:1], draw:2"), automaton=True), trials=5_000, seed=3)
    j = r.to_json()
    for key in ("p_a_wins", "p_b_wins", "p_nobody", "p_a_fled", "p_b_fled", "rounds_mean", "rounds", "dudes",
                "bounty_a", "bounty_b", "p_reshuffle", "trials", "seed", "stderr"):
        assert key in j
    for key in ("p_a_wins", "p_b_wins", "p_nobody", "p_a_fled", "p_b_fled", "rounds_mean", "bounty_a", "bounty_b",
                "p_reshuffle", "rounds", "dudes"):
        assert key in j["stderr"]
    assert {"side", "name", "p_aced", "p_discarded", "p_sent_home", "p_standing"} <= set(j["dudes"][0])
    assert j["bounty_a"] > 0 and j["bounty_b"] > 0
    json.dumps(j)


def test_what_if_common_random_numbers(decks):
    d, e = decks
    a = FullSide(d, parse_posse("stud:1, draw:1"))
    b = FullSide(e, parse_posse("stud:1, draw:1"))
    df = what_if(a, b, trials=20_000, seed=5)
    assert df.iloc[0]["change"] == "none"
    plus = df[df["change"] == "+1 bullet: stud:1"].iloc[0]
    # one more bullet helps; paired differences are sharper than two independent runs
    assert plus["delta_p_a_wins"] > 0
    independent = np.sqrt(2 * plus["p_a_wins"] * (1 - plus["p_a_wins"]) / 20_000)
    assert plus["delta_p_a_wins_stderr"] < 0.8 * independent
    assert set(df["whose"]) == {"", "A", "B"}


def test_round_win_tables_do_not_depend_on_who_asked_first(decks):
    """The memoised round-win tables: an entry is the same whether it is computed afresh or
    shared with an earlier setup, whatever the order the setups come in."""
    from oddsmith.doomtown import full_shootout as F

    d, e = decks
    base = (FullSide(d, parse_posse("stud:2, draw:1")), FullSide(e, parse_posse("draw:2, stud:1")))
    variant = (FullSide(d, parse_posse("stud:3, draw:1")), FullSide(e, parse_posse("draw:2")))
    setups = [tuple(_setup(s.checked(), w) for s, w in zip(pair, "AB")) for pair in (base, variant)]

    def tables(order):
        F._KEYS.clear()
        F._PAIR_TABLES.clear()
        return [round_win_tables(*setups[i], 7, hands=512) for i in order]

    fresh = [tables([i])[0] for i in (0, 1)]
    forward, backward = tables([0, 1]), tables([1, 0])[::-1]
    for i in (0, 1):
        for got in (forward[i], backward[i]):
            np.testing.assert_array_equal(got[0], fresh[i][0])
            np.testing.assert_array_equal(got[1], fresh[i][1])
    # both setups can field A (stud 1, draw 1) against B (stud 0, draw 2): one shared entry
    shared = ((1 * F.NB + 1) * F.NB + 0) * F.NB + 2
    assert np.isfinite(fresh[0][0][shared]) and fresh[0][0][shared] == fresh[1][0][shared]
    # a different seed, deck or hand count is a different entry
    assert not np.array_equal(round_win_tables(*setups[0], 8, hands=512)[0], fresh[0][0], equal_nan=True)
    assert len(F._KEYS.data) <= F._KEYS.size


def test_round_win_table_entries_count_the_pairs_of_hands(decks):
    """Each entry is the share of the pairs (A's kept hand, B's kept hand) of the two sides' samples in which
    A's hand is the higher (A wins the round) and the lower (B wins), counted here pair by pair."""
    from oddsmith.doomtown import full_shootout as F

    d, e = decks
    sa, sb = _setup(FullSide(d, parse_posse("stud:2, draw:1")).checked(), "A"), \
        _setup(FullSide(e, parse_posse("draw:2, stud:1")).checked(), "B")
    hands = 300
    pw_a, pw_b = round_win_tables(sa, sb, 5, hands=hands)
    checked = 0
    for stud_a, draw_a in sa.bonuses[:3]:
        for stud_b, draw_b in sb.bonuses[:3]:
            a = [int(x) for x in F._hand_keys(sa, 0, stud_a, draw_a, 5, hands)[0]]
            b = [int(x) for x in F._hand_keys(sb, 1, stud_b, draw_b, 5, hands)[0]]
            i = ((stud_a * F.NB + draw_a) * F.NB + stud_b) * F.NB + draw_b
            a_higher = sum(x > y for x in a for y in b)
            a_lower = sum(x < y for x in a for y in b)
            assert pw_a[i] == a_higher / (hands * hands) and pw_b[i] == a_lower / (hands * hands)
            assert a_higher > 0 and a_lower > 0
            checked += 1
    assert checked == 9


def test_bad_sides(decks):
    d, e = decks
    with pytest.raises(OddsmithError, match="shooter policy"):
        full_shootout(FullSide(d, parse_posse("stud:1"), shooter="fastest"), FullSide(e, parse_posse("draw:1")))
    with pytest.raises(OddsmithError, match="losses:K|at least 1"):
        full_shootout(FullSide(d, parse_posse("stud:1"), flee="losses:0"), FullSide(e, parse_posse("draw:1")))
    with pytest.raises(OddsmithError, match="search"):
        full_shootout(FullSide(d, parse_posse("stud:1"), discard="search"), FullSide(e, parse_posse("draw:1")))
    with pytest.raises(OddsmithError, match="bonus"):
        full_shootout(FullSide(d, parse_posse("stud:9, 3x stud:1")), FullSide(e, parse_posse("draw:1")))
    with pytest.raises(OddsmithError, match="cards"):
        small = type(d)(**{**d.__dict__, "cards": d.cards.iloc[:12]})
        full_shootout(FullSide(small, parse_posse("stud:3")), FullSide(e, parse_posse("draw:1")), trials=10)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

GANG_A = "Philip Swinford; Rob Wilby; Tommy Harden"
GANG_B = "Allie Hensman; Ike Clanton; Miranda Clarke"


def test_cli_full_json(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", GANG_A, "--vs", "outlaws", "--vs-posse", GANG_B,
                       "--full", "--automaton", "--trials", "5000", "--seed", "1", "--format", "json", "--with-gang")
    assert rc == 0, err
    j = json.loads(out)
    assert j["trials"] == 5000 and j["seed"] == 1 and 0 <= j["p_a_wins"] <= 1
    # the full deck (--with-gang): the posse's cards leave it here
    assert "Automaton" in j["b"]["policies"] and j["a"]["in_play_removed"] == GANG_A.split("; ")
    # by default set-up has already put the starting gang in play: nothing more leaves the deck
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", GANG_A, "--vs", "outlaws", "--vs-posse", GANG_B,
                       "--full", "--automaton", "--trials", "2000", "--seed", "1", "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["a"]["in_play_removed"] == []


def test_cli_full_table_and_what_if(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1; draw:1", "--vs", "outlaws",
                       "--vs-posse", "stud:1", "--full", "--trials", "3000", "--seed", "2",
                       "--casualties", "save-dudes", "--vs-flee", "losses:1")
    assert rc == 0, err
    assert "P(A wins the shootout)" in out and " ± " in out
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1; draw:1", "--vs", "outlaws",
                       "--vs-posse", "stud:1", "--full", "--what-if", "--trials", "2000", "--seed", "2",
                       "--format", "csv")
    assert rc == 0, err
    assert out.splitlines()[0].startswith("change,whose,p_a_wins")


@pytest.mark.parametrize("mode", [(), ("--what-if",)])
def test_cli_full_says_which_deck(capsys, monkeypatch, mode):
    """--full and --what-if say which deck each side used, as every deck command does (by
    default the deck after set-up, its starting gang in play; --with-gang the full deck)."""
    monkeypatch.setenv("COLUMNS", "400")  # one line per deck: notes fold to the terminal's width
    base = ["shootout", "law-dogs", "--posse", "stud:1; draw:1", "--vs", "outlaws", "--vs-posse", "stud:1", "--full",
            *mode, "--trials", "300", "--seed", "2"]
    outs = {}
    for fmt in ("table", "md", "csv", "json"):
        rc, out, err = run(capsys, *base, "--format", fmt)
        assert rc == 0, err
        outs[fmt] = out
    for fmt in ("table", "md"):
        lines = [x.lstrip("- ") for x in outs[fmt].splitlines() if "Deck used:" in x]
        assert len(lines) == 2, outs[fmt]
        assert lines[0].startswith("Deck used: Law Dogs") and "after set-up (starting gang in play: Philip Swinford" \
            in lines[0]
        assert lines[1].startswith("Deck used: Outlaws") and "after set-up (starting gang in play: Allie Hensman" \
            in lines[1]
    header = outs["csv"].splitlines()[0].split(",")
    assert header[-2:] == ["deck_state_a", "deck_state_b"]
    assert "after set-up (starting gang in play: Allie Hensman" in outs["csv"].splitlines()[1]
    j = json.loads(outs["json"])
    states = (j["deck_state_a"], j["deck_state_b"]) if mode else (j["a"]["deck_state"], j["b"]["deck_state"])
    assert "Philip Swinford" in states[0] and "Allie Hensman" in states[1]
    assert all(x.startswith("after set-up") for x in states)
    if not mode:
        rc, out, err = run(capsys, *base, "--format", "json", "--with-gang")
        assert rc == 0, err
        assert json.loads(out)["a"]["deck_state"].startswith("full deck (starting gang kept in the draw deck")


def test_full_json_deck_state_of_plain_cards():
    r = full_shootout(FullSide(PLAIN_DECK, parse_posse("stud:1")), FullSide(PLAIN_DECK, parse_posse("draw:1")),
                      trials=500, seed=1)
    assert r.to_json()["a"]["deck_state"] == "cards as given (no starting gang)"


@pytest.mark.parametrize("posse, message", [
    ("Bakr Andrews", "did you mean 'Baker Andrews'"),
    ("+ Faithful Hound", "Sidekick on nothing"),
    ("Faithful Hound", "Sidekick on nothing"),
    ("stud:1 [bounty:-2]", "bounty -2"),
    ("", "no dudes"),
])
def test_cli_bad_posses(capsys, posse, message):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", posse, "--vs", "outlaws", "--vs-posse", "stud:1",
                       "--full", "--trials", "100")
    assert rc == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args, message", [
    (["--shooter-policy", "fastest"], "unknown shooter policy"),
    (["--vs-casualties", "run"], "unknown casualty policy"),
    (["--flee", "losses:x"], "unknown flee policy"),
    (["--automaton", "--vs-flee", "outnumbered"], "--automaton"),
    (["--shooter", "stud:1"], "--shooter-policy"),
])
def test_cli_bad_policies(capsys, args, message):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1", "--vs", "outlaws", "--vs-posse",
                       "stud:1", "--full", "--trials", "100", *args)
    assert rc == 2 and message in err


def test_cli_full_needs_posses(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1", "--full", "--trials", "100")
    assert rc == 2 and "--vs-posse" in err
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1", "--vs-posse", "stud:1", "--trials",
                       "100", "--shooter-policy", "listed")
    assert rc == 2 and "--full" in err


# --------------------------------------------------------------------------
# One round: the Automaton picks its shooter by the book (issue 10)
# --------------------------------------------------------------------------


def test_single_round_automaton_shooter_priority(decks):
    from oddsmith.doomtown import shootout as S
    from oddsmith.doomtown.posse import automaton_shooter

    d, e = decks
    # {more than one stud} first: the 2-bullet stud, though the 3-bullet draw has more bullets
    posse_b = parse_posse("draw:3, stud:2, stud:1")
    assert automaton_shooter(posse_b) == 1
    # then highest bullets, unbooted, lowest influence, highest value, alphabetical
    assert automaton_shooter(parse_posse("Bob=draw:1, Al=draw:2 [booted], Cy=draw:2")) == 2
    assert automaton_shooter(parse_posse("Bob=draw:1 [influence:2], Al=draw:1 [influence:1]")) == 1
    assert automaton_shooter(parse_posse("Bob=draw:1 [value:3], Al=draw:1 [value:9]")) == 1
    assert automaton_shooter(parse_posse("Bob=draw:1, Al=draw:1")) == 1
    a, b, ch_a, ch_b = S.choose_shooters(S.Side(d), parse_posse("stud:1, draw:2"), S.Side(e, discard="automaton"),
                                         posse_b, trials=2_000, seed=1)
    assert ch_b.index == 1 and "Automaton" in ch_b.criterion and (b.stud, b.draw) == (2 + 1, 1)
    # a side that does not play the Automaton still maximises its odds
    _, _, _, ch_h = S.choose_shooters(S.Side(d), parse_posse("stud:1, draw:2"), S.Side(e), posse_b, trials=2_000,
                                      seed=1)
    assert "P(win the round)" in ch_h.criterion


def test_cli_single_round_automaton_shooter(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "stud:1", "--vs", "outlaws", "--vs-posse",
                       "draw:3; stud:2; stud:1", "--vs-discard", "automaton", "-t", "2000", "--seed", "1",
                       "--format", "json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["opponent"]["shooter"] == "stud:2"


# --------------------------------------------------------------------------
# The posse syntax for whole shootouts
# --------------------------------------------------------------------------


def test_posse_flags_and_sidekicks():
    p = parse_posse("Emre, the Turkish Bear (exp. 1) [bounty:2, booted] + Faithful Hound; 2x Gunslinger; "
                    "Bob=stud:3* [harrowed influence:1] + 2x sidekick; draw")
    f = p.frame()
    assert f["name"].tolist() == ["Emre, The Turkish Bear (Exp.1)", "Gunslinger", "Gunslinger", "Bob", "draw:0"]
    emre, gun, _, bob, _ = p.dudes
    assert (emre.bounty, emre.booted, [k.title for k in emre.sidekicks]) == (2, True, ["Faithful Hound"])
    assert emre.influence == 1 and emre.code is not None and emre.sidekicks[0].code is not None
    assert gun.token and gun.code is None                      # a token has no card in any deck
    assert bob.harrowed and bob.influence == 1 and len(bob.sidekicks) == 2 and p.shooter == 3
    assert p.titles_in_play() == ["Emre, The Turkish Bear (Exp.1)", "Faithful Hound"]
    # capacity: 3 dudes (2 each) + 1 Harrowed dude (3) + 3 Sidekicks... and the token dudes count as dudes
    assert p.casualty_capacity() == 4 * 2 + 3 + 3
    # the existing syntax still reads the same
    assert parse_posse("Baker Andrews=stud:4, draw:1").bonus(0).stud == 4


@pytest.mark.parametrize("text, message", [
    ("stud:1 [fast]", "not a dude flag"),
    ("stud:1 [bounty]", "needs a number"),
    ("stud:1 [harrowed:2]", "takes no number"),
    ("stud:1 [influence:-1]", "influence -1"),
    ("stud:1 +", "nothing after '\\+'"),
    ("Baker Andrews + Allie Hensman", "no Sidekick keyword"),
    ("stud:1 + Faithfull Hund", "did you mean 'Faithful Hound'"),
    ("stud:1 [harrowed", "square brackets"),
])
def test_posse_flag_errors(text, message):
    with pytest.raises(OddsmithError, match=message):
        parse_posse(text)


@pytest.mark.parametrize("width", [80, 100])
def test_cli_full_explains_n_a_and_wraps_its_side_lines(capsys, monkeypatch, width):
    """A figure that came out the same in every trial shows "± n/a" and the note that says why;
    the long "A (leader): ..." lines fold to the terminal, whole words kept; Markdown keeps
    one bullet per side and one "###" per heading."""
    monkeypatch.setenv("COLUMNS", str(width))
    base = ["shootout", "law-dogs", "--posse", "Philip Swinford; Tommy Harden", "--vs", "outlaws",
            "--vs-posse", "Allie Hensman; Ike Clanton", "--full", "--trials", "500", "--seed", "1"]
    rc, out, err = run(capsys, *base)
    assert rc == 0, err
    assert "± n/a" in out and "± n/a: the figure came out the same in every one of the 500 trials" in out
    assert max(len(x) for x in out.splitlines()) <= width
    head = out.split("\n\n")[1].splitlines()
    assert head[0].startswith("A (leader): Law Dogs") and len(head) > 2
    assert any(x.startswith("B (mark): Outlaws") for x in head)
    assert all(x.startswith(("A (leader)", "B (mark)", "    ")) for x in head)
    assert "keep-posse," in " ".join(head).split()  # not broken at its hyphen
    rc, md, err = run(capsys, *base, "--format", "md")
    assert rc == 0, err
    bullets = [x for x in md.splitlines() if x.startswith("- ")]
    assert bullets[0].startswith("- A (leader):") and bullets[1].startswith("- B (mark):")
    assert "### ###" not in md and "### Rounds played" in md and "± n/a: " in md


def test_cli_what_if_fits_the_terminal_and_explains_n_a(capsys, monkeypatch):
    """The first row's deltas are zero in every trial ("± n/a"): the note says why; title, key
    and the wide table fit the terminal."""
    monkeypatch.setenv("COLUMNS", "100")
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "Tommy Harden", "--vs", "outlaws",
                       "--vs-posse", "Allie Hensman", "--full", "--what-if", "--trials", "500", "--seed", "3")
    assert rc == 0, err
    assert max(len(x) for x in out.splitlines()) <= 100
    assert "0.0000 ± n/a" in out and "± n/a: the figure came out the same in every one of the 500 trials" in out
    assert out.startswith("What is +1 worth?") and "\nwhose A: a change" in out


def _law_dogs_with_samson_starting() -> str:
    """The Law Dogs list with one of its two Erik Samsons in the starting gang (Rob Wilby out)."""
    from importlib import resources

    text = resources.files("oddsmith.data").joinpath("decks/law-dogs.txt").read_text(encoding="utf-8")
    text = text.replace("1x Rob Wilby\n", "1x Erik Samson\n").replace("2x Erik Samson\n", "1x Erik Samson\n1x Rob Wilby\n")
    return text


def test_a_card_in_play_is_one_copy_whatever_the_deck_holds():
    # Issue 16: a posse dude that set-up already put into play must not take the deck's
    # second copy out as well (the deck stays at its after-set-up size).
    from oddsmith.doomtown.deck import parse_deck

    d = parse_deck(_law_dogs_with_samson_starting(), name="samson").after_set_up()
    assert len(d) == 49 and (d.cards["title"] == "Erik Samson").sum() == 1
    codes, removed = cycle_codes(d, parse_posse("Erik Samson; Philip Swinford"))
    assert len(codes) == 49 and removed == ()
    # a second Erik Samson in the posse is the copy still in the deck: that one leaves
    codes, removed = cycle_codes(d, parse_posse("2x Erik Samson"))
    assert len(codes) == 48 and removed == ("Erik Samson",)
    # the full deck (--with-gang): one copy leaves for each posse card
    full = d.with_gang()
    codes, removed = cycle_codes(full, parse_posse("Erik Samson; Philip Swinford"))
    assert len(codes) == 52 and removed == ("Erik Samson", "Philip Swinford")


def test_cli_posse_in_play_is_not_removed_twice(capsys, tmp_path):
    deck = tmp_path / "samson.txt"
    deck.write_text(_law_dogs_with_samson_starting(), encoding="utf-8")
    rc, out, err = run(capsys, "shootout", deck, "--posse", "Erik Samson; Philip Swinford", "--vs", "outlaws",
                       "--vs-posse", GANG_B, "--full", "--trials", "2000", "--seed", "1", "--format", "json")
    assert rc == 0, err
    assert json.loads(out)["a"]["in_play_removed"] == []


def test_posse_gang_in_the_python_api(decks):
    d, e = decks
    side_a, side_b = FullSide(d, "gang"), FullSide(e, "gang")
    checked = side_a.checked()
    assert [x.name for x in checked.posse.dudes] == [x.name for x in posse_from_cards(d.starting_gang()).dudes]
    r = full_shootout(side_a, side_b, trials=2000, seed=3)
    assert r.removed == ((), ())  # set-up already put the gang into play
    full = full_shootout(FullSide(d.with_gang(), "gang"), side_b, trials=2000, seed=3)
    assert len(full.removed[0]) == 5


def test_cli_posse_gang(capsys):
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "gang", "--vs", "outlaws", "--vs-posse", "gang",
                       "--full", "--trials", "2000", "--seed", "1", "--format", "json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["a"]["in_play_removed"] == [] and j["b"]["in_play_removed"] == []
    assert {d["name"] for d in j["dudes"] if d["side"] == "A"} >= {"Philip Swinford", "Hattie DeLorre"}
    rc, out, err = run(capsys, "shootout", "law-dogs", "--posse", "gang", "--format", "json", "--trials", "2000")
    assert rc == 0, err
    assert json.loads(out)["stud"] >= 1
    rc, out, err = run(capsys, "shootout", "balanced", "--posse", "gang", "--full", "--vs-posse", "stud:1")
    assert rc == 2 and "lists no starting gang" in err and err.count("\n") == 1
