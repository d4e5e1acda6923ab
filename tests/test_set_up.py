"""The deck analyses draw from: after set-up (the starting gang in play), or the full deck on request;
and the one resolver that lets every deck- or posse-taking API take a sample name, a file or a text."""
from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import numpy as np
import pytest

from cli_run import cli_runner
from oddsmith.doomtown import deck as D
from oddsmith.doomtown import lowball as L
from oddsmith.doomtown import pulls as P
from oddsmith.doomtown.cards import parse_card
from oddsmith.doomtown import shootout as S
from oddsmith.doomtown.posse import Posse as DoomtownPosse
from oddsmith.doomtown.posse import resolve_posse as doomtown_posse
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import JOKER_CODE
from oddsmith.shadows import posse as SP

STARTERS = ("anarchists", "entrepreneurs", "fearmongers", "first-peoples", "law-dogs", "outlaws")
# Rulebook "Decklists": each starter deck's Starting Gang line.
BOOK_GANGS = {
    "law-dogs": ["Philip Swinford", "Rob Wilby", "Tommy Harden", '"Thunder Boy" Nabbe', "Hattie DeLorre"],
    "outlaws": ["Allie Hensman", "Ike Clanton", "Lawrence Blackwood", "Miranda Clarke", "Jacqueline Isham"],
}
run = cli_runner()


def sample_text(name: str) -> str:
    return resources.files("oddsmith.data").joinpath("decks", f"{name}.txt").read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- set-up


@pytest.mark.parametrize("name", STARTERS)
def test_starter_decks_are_analysed_as_set_up_leaves_them(name):
    full = D.load_deck(name, with_gang=True)
    after = D.load_deck(name)
    gang = full.cards[full.cards["starting"]]
    assert len(full) == 54 and len(gang) == 5
    # Rulebook "Setting Up the Game", 4.: the five starting dudes go into play; 49 cards stay in the deck.
    assert len(after) == 49 and after.valued_cards == 47 and after.jokers == 2
    assert Counter(full.codes().tolist()) - Counter(gang["code"].tolist()) == Counter(after.codes().tolist())
    assert not after.cards["starting"].any() and not after.partial
    assert after.starting_gang()["title"].tolist() == gang["title"].tolist()
    assert after.state is D.DeckState.after_set_up and full.state is D.DeckState.full
    titles = "; ".join(gang["title"])
    assert after.deck_state == f"after set-up (starting gang in play: {titles})"
    assert full.deck_state == f"full deck (starting gang kept in the draw deck: {titles})"
    assert D.deck_summary(after)["deck_state"] == after.deck_state and D.deck_summary(after)["cards"] == 49


def test_the_gangs_are_the_books():
    for name, gang in BOOK_GANGS.items():
        assert D.load_deck(name).starting_gang()["title"].tolist() == gang


def test_decks_without_a_starting_gang_are_unchanged():
    for name in ("balanced", "stack-16-16-16"):
        plain, full = D.load_deck(name), D.load_deck(name, with_gang=True)
        assert plain.codes().tolist() == full.codes().tolist() and len(plain) == 54
        assert plain.deck_state == "full deck (no starting gang listed)"


def test_set_up_happens_once_and_can_be_undone():
    listed = D.parse_deck(sample_text("law-dogs"))
    assert listed.state is D.DeckState.listed and len(listed) == 54
    after = D.set_up(listed)
    assert D.set_up(after) is after and after.after_set_up() is after
    assert D.set_up(listed, with_gang=True).state is D.DeckState.full
    back = after.with_gang()
    assert back.codes().tolist() == listed.codes().tolist()  # back in deck-list order
    assert back.cards["title"].tolist() == listed.cards["title"].tolist()
    kept = D.load_deck("law-dogs", with_gang=True)
    assert D.set_up(kept) is kept  # an explicit full deck is not set up behind the user's back


def test_without_on_top_of_set_up():
    deck = D.load_deck("law-dogs", without="3S; Shotgun")
    assert len(deck) == 47 and deck.removed == ("3♠", "Shotgun") and deck.partial
    assert deck.state is D.DeckState.after_set_up
    # Tommy Harden (3♠) is in play: the 3♠ removed is one of the draw deck's.
    assert (D.load_deck("law-dogs").counts() - deck.counts())[parse_card("3S")] == 1
    with pytest.raises(OddsmithError, match="'Tommy Harden' is not in the deck \\(in play in the starting gang"):
        D.load_deck("law-dogs", without="Tommy Harden")
    full = D.load_deck("law-dogs", with_gang=True, without="Tommy Harden")
    assert len(full) == 53 and full.state is D.DeckState.full


# ---------------------------------------------------------------------------- one resolver


def test_resolve_deck_takes_names_files_texts_decks_and_cards(tmp_path):
    want = D.load_deck("law-dogs").codes().tolist()
    path = tmp_path / "my deck.txt"
    path.write_text(sample_text("law-dogs"), encoding="utf-8")
    for spec in ("law-dogs", "Law Dogs", str(path), path, sample_text("law-dogs"),
                 D.parse_deck(sample_text("law-dogs")), D.load_deck("law-dogs")):
        deck = D.resolve_deck(spec)
        assert isinstance(deck, D.Deck) and deck.codes().tolist() == want, spec
    assert len(D.resolve_deck("law-dogs", with_gang=True)) == 54
    assert len(D.resolve_deck(sample_text("law-dogs"), with_gang=True)) == 54
    assert D.resolve_deck("AS KS QS JS 10S") == "AS KS QS JS 10S"  # plain card tokens stay cards
    codes = np.arange(10, dtype=np.uint8)
    assert D.resolve_deck(codes) is codes
    with pytest.raises(OddsmithError, match="'law-dog' is neither a sample deck .*, a deck file, a deck list"):
        D.resolve_deck("law-dog")
    with pytest.raises(OddsmithError, match=r"<text>: \d+ valued cards; a deck holds exactly 52"):
        D.resolve_deck("\n".join(sample_text("law-dogs").splitlines()[:-25]))


def test_every_deck_api_takes_a_sample_name():
    deck = D.load_deck("law-dogs")
    by_name = S.shootout_odds("law-dogs", 2, 1, trials=20_000, seed=5)  # issue 10: `unknown card 'law-dogs'`
    by_deck = S.shootout_odds(deck, 2, 1, trials=20_000, seed=5)
    assert by_name.counts.tolist() == by_deck.counts.tolist() and by_name.cards == 49
    assert by_name.deck == "Law Dogs starter deck" and by_name.deck_state == deck.deck_state
    assert by_name.to_json()["deck_state"] == deck.deck_state
    assert S.exact_counts("law-dogs", 1).tolist() == S.exact_counts(deck.codes(), 1).tolist()
    low = L.lowball_odds("law-dogs")
    assert low.cards == 49 and low.to_json()["deck_state"] == deck.deck_state
    g = L.gamblin_odds("law-dogs", "outlaws")
    assert [p.deck for p in g.players] == ["Law Dogs starter deck", "Outlaws starter deck"]
    assert g.players[1].deck_state.startswith("after set-up (starting gang in play: Allie Hensman")
    assert L.lowball_tradeoff("law-dogs", "outlaws").p_win == g.p_win
    t = L.table_odds(["law-dogs", "outlaws", "balanced"], trials=2_000, seed=1)
    assert [h.cards for h in t.hands] == [49, 49, 54]
    assert t.to_json()["players"][2]["deck_state"] == "full deck (no starting gang listed)"
    r = S.shootout_round(S.Side("law-dogs", 2, 1), S.Side("outlaws", 1, 1), trials=5_000, seed=2)
    assert (r.a.cards, r.b.cards) == (49, 49) and r.to_json()["opponent"]["deck_state"] == g.players[1].deck_state
    choice = S.choose_shooter("outlaws", "Baker Andrews; stud:2; draw:1", trials=2_000, seed=3)
    want = S.choose_shooter(D.load_deck("outlaws"), doomtown_posse("Baker Andrews; stud:2; draw:1"), trials=2_000,
                            seed=3)
    assert (choice.name, choice.bonus) == (want.name, want.bonus) and len(choice.options) == 3
    gap = S.discard_gap("law-dogs", 0, 1, hands=50, seed=4)
    assert gap.frame().shape[0] >= 1
    df = S.tradeoff(["law-dogs"], vs="outlaws", studs=[0], draws=[0])
    assert df["deck_state"].tolist() == [deck.deck_state] and df["lowball_p_win"].iloc[0] == g.p_win
    table = P.value_pull_table("law-dogs")
    assert (table["cards"] == 49).all() and table.attrs["deck_state"] == deck.deck_state


def test_set_up_changes_the_figures_exactly():
    # Recomputed against the draw deck built by hand from the deck list: the 52 listed valued cards
    # minus the five starting dudes, plus 2 jokers.
    full = D.load_deck("law-dogs", with_gang=True)
    drawn = full.cards[~full.cards["starting"]]
    by_hand = D.deck_from_codes(drawn["code"].tolist(), partial=True)
    assert L.lowball_odds("law-dogs").distribution == L.lowball_odds(by_hand).distribution
    assert L.lowball_odds("law-dogs").distribution != L.lowball_odds(full).distribution
    assert S.exact_counts("law-dogs", 2).tolist() == S.exact_counts(by_hand, 2).tolist()
    # Skill test: pull + 2 >= 7 needs a 5 or more, or a joker (a king).
    values = drawn["value"].dropna().astype(int)
    passing = int((values >= 5).sum()) + int((drawn["code"] == JOKER_CODE).sum())
    row = P.skill_test_odds("law-dogs", 2, 7).iloc[0]
    assert (row["successes"], row["cards"]) == (passing, 49)
    assert row["p_success"] == pytest.approx(passing / 49)


def test_doomtown_posses_resolve_from_text_and_rows():
    posse = doomtown_posse("Baker Andrews; 2x stud:1; draw:2")
    assert isinstance(posse, DoomtownPosse) and len(posse) == 4
    assert doomtown_posse(posse) is posse and doomtown_posse(None) is None
    gang = doomtown_posse(D.load_deck("anarchists").starting_gang())
    assert len(gang) == 5


def test_shadows_posses_resolve_from_names_files_and_text(tmp_path):
    sample = SP.sample_posse("twilight-order")
    text = resources.files("oddsmith.data").joinpath("posses", "twilight-order.toml").read_text(encoding="utf-8")
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    want = SP.roster_table(sample)
    for spec in ("twilight-order", "Twilight Order", str(path), path, text):
        assert SP.roster_table(spec).equals(want), spec
        assert SP.total_cost(spec) == SP.total_cost(sample)
    assert SP.resolve_posse(sample) is sample
    assert SP.shooting_table("twilight-order").equals(SP.shooting_table(sample))
    assert SP.validate("unaligned") == []
    with pytest.raises(OddsmithError, match="nope: no such posse file or sample posse"):
        SP.roster_table("nope")


# ---------------------------------------------------------------------------- the CLI says which deck


def test_cli_outputs_say_which_deck(capsys):
    state = D.load_deck("law-dogs").deck_state
    rc, out, err = run(capsys, "shootout", "law-dogs", "--stud", "1", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and data["cards"] == 49 and data["deck_state"] == state
    rc, out, err = run(capsys, "shootout", "law-dogs", "--stud", "1", "--with-gang", "--format", "json")
    assert rc == 0 and json.loads(out)["cards"] == 54
    rc, out, err = run(capsys, "shootout", "law-dogs", "--stud", "1")
    assert rc == 0 and f"Deck used: Law Dogs starter deck, 49 cards, {state}" in " ".join(out.split())  # folded
    rc, out, err = run(capsys, "shootout", "law-dogs", "--stud", "1", "--format", "csv")
    assert rc == 0 and out.splitlines()[0].endswith(",deck_state") and state.replace('"', '""') in out
    rc, out, err = run(capsys, "shootout", "law-dogs", "--vs", "outlaws", "--trials", "2000", "--seed", "1",
                       "--format", "md")
    assert rc == 0 and "- Deck used: Outlaws starter deck, 49 cards, after set-up" in out
    rc, out, err = run(capsys, "tradeoff", "law-dogs", "--studs", "0", "--draws", "0", "--format", "csv")
    assert rc == 0 and out.splitlines()[0].endswith(",deck_state")
    rc, out, err = run(capsys, "lowball", "law-dogs", "--vs", "balanced")
    assert rc == 0 and "Deck used: balanced deck, 54 cards, full deck (no starting gang listed)" in out
    rc, out, err = run(capsys, "pull", "law-dogs", "--with-gang", "--format", "json")
    data = json.loads(out)
    assert rc == 0 and data["cards"] == 54 and data["deck_state"].startswith("full deck (starting gang kept")
    rc, out, err = run(capsys, "deck", "show", "law-dogs", "--format", "json")
    assert rc == 0 and json.loads(out)["deck_state"] == state and json.loads(out)["cards"] == 49


def test_report_pages_say_which_deck():
    from oddsmith.report import deck_report

    inputs = deck_report.load_decks(["law-dogs", "balanced"], None)
    assert [len(d) for d in inputs.decks] == [49, 54]
    facts = deck_report._deck_facts(inputs, inputs.decks[0]).lines
    assert f"Deck used: {inputs.decks[0].deck_state}, 49 cards" in facts
    assert any("as set-up leaves it" in line for line in deck_report.describe(inputs))
    full = deck_report.load_decks(["law-dogs"], "outlaws", with_gang=True)
    assert len(full.decks[0]) == 54 and len(full.vs) == 54
    assert any("--with-gang" in line for line in deck_report.describe(full))
