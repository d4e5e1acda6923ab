"""Deck input: the card table, the four deck formats, validation, --without, samples, hostile input, CLI."""
from __future__ import annotations

import csv
import importlib.util
import io
import json
import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from cli_run import cli_runner
from oddsmith import textinput
from oddsmith.doomtown import deck as D
from oddsmith.doomtown import deck_lists as DL
from oddsmith.doomtown.cards import format_card, parse_card
from oddsmith.doomtown.cardtable import (
    default_card_table,
    read_card_table,
    split_items,
    title_key,
)
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import DECK_RULES, JOKER_CODE, card_code, deck_building_title

ROOT = Path(__file__).resolve().parent.parent
SHIPPED_TABLE = resources.files("oddsmith.data").joinpath("wwe-cards.csv")


def full_deck_lines() -> list[str]:
    """52 distinct cards and 2 jokers as card tokens."""
    return [f"{v}{s}" for v in "A 2 3 4 5 6 7 8 9 10 J Q K".split() for s in "SHDC"] + ["Joker", "Joker"]


def codes_of(deck) -> list[int]:
    return sorted(deck.codes().tolist())


# --------------------------------------------------------------------------
# The card table
# --------------------------------------------------------------------------


def test_shipped_table_is_facts_only():
    table = default_card_table()
    assert len(table) == 261
    with SHIPPED_TABLE.open(encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    assert header == ["code", "title", "type", "faction", "suit", "value", "shooter", "bullets", "influence",
                      "control", "cost", "upkeep", "production", "starting_ghost_rock", "keywords",
                      "copies_in_box"]
    # No cell is long enough to be a card's text.
    assert max(len(str(v)) for v in table.frame["keywords"].dropna()) < 80
    assert max(len(t) for t in table.frame["title"]) < 40
    counts = table.frame["type"].value_counts().to_dict()
    assert counts == {"dude": 93, "action": 47, "deed": 39, "goods": 38, "spell": 30, "outfit": 12, "joker": 2}
    valued = table.frame[~table.frame["type"].isin(["outfit", "joker"])]
    assert valued["value"].between(1, 13).all() and valued["suit"].notna().all()
    dudes = table.frame[table.frame["type"] == "dude"]
    assert set(dudes["shooter"]) == {"stud", "draw"} and dudes["bullets"].notna().all()


def test_build_script_regenerates_the_shipped_table(tmp_path):
    spec = importlib.util.spec_from_file_location("build_card_table", ROOT / "scripts" / "build_card_table.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    source = tmp_path / "source.csv"
    # A source with an extra text column and shuffled rows: the text must not reach the output.
    with SHIPPED_TABLE.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    random.Random(3).shuffle(rows)
    with open(source, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]) + ["text"])
        writer.writeheader()
        for r in rows:
            writer.writerow({**r, "text": "Noon: boot this dude to do something long and wordy."})
    target = tmp_path / "out.csv"
    assert script.build(source, target) == 261
    assert target.read_bytes() == SHIPPED_TABLE.read_bytes()
    bad = tmp_path / "bad.csv"
    rows[0]["keywords"] = "x" * 500
    with open(bad, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    with pytest.raises(SystemExit, match="card text"):
        script.build(bad, tmp_path / "never.csv")
    assert not (tmp_path / "never.csv").exists()


@pytest.mark.parametrize("spelling, title", [
    ("El Anonimo", "El Anónimo"),
    ("el anónimo", "El Anónimo"),
    ("Emre, the Turkish Bear (exp. 1)", "Emre, The Turkish Bear (Exp.1)"),
    ("This'll Hurt in the Mornin'", "This'll Hurt in the Morning'"),
    ("This’ll Hurt in the Morning’", "This'll Hurt in the Morning'"),
    ('Chuan "Jen" Qi', 'Chuan "Jen" Qí'),
    ("Chuan “Jen” Qí", 'Chuan "Jen" Qí'),
    ("Hao-T'e Zui, the Mad Monk", "Hao-T'e Zui, The Mad Monk"),
    ("“Open Wound”", '"Open Wound"'),
    ("Many Speak as One", "Many Speak As One"),
    ("B and B Attorneys", "B & B Attorneys"),
    ("Farnums Consortium", "Farnum's Consortium"),
    ("hellstromme plant 9", "Hellstromme Plant #9"),
    ("  BASS   REEVES ", "Bass Reeves"),
])
def test_titles_match_leniently(spelling, title):
    assert default_card_table().find(spelling)["title"] == title


def test_title_keys_are_unique_and_distinct_cards_stay_distinct():
    table = default_card_table()
    assert table.frame["key"].is_unique
    assert table.find("Joker (black)")["title"] != table.find("Joker (red)")["title"]
    assert table.find("Joker")["title"] == "Joker"
    assert title_key("Bottom Dealin'") == title_key("Bottom Dealing")


def test_unknown_title_suggests_the_closest():
    table = default_card_table()
    with pytest.raises(OddsmithError, match="unknown card title 'Bass Reevs'.*did you mean 'Bass Reeves'"):
        table.lookup("Bass Reevs", "line 3")
    assert table.closest("Emre") == "Emre, The Turkish Bear (Exp.1)"
    assert table.find("Qwertyuiop zxcv") is None


def test_split_items_keeps_commas_inside_titles():
    table = default_card_table()
    items = split_items("Emre, The Turkish Bear (Exp.1), AS; Get Behind Me, Satan!, Bobo",
                        lambda s: table.find(s) is not None)
    assert items == ["Emre, The Turkish Bear (Exp.1)", "AS", "Get Behind Me, Satan!", "Bobo"]


def test_user_card_table(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("Title,Type,Suit,Value,Shooter,Bullets\n"
                    "Gunhand,dude,♠,K,Stud,3\nOld Mill,deed,Diamonds,2,,\nTrick,action,c,10,,\n", encoding="utf-8")
    table = read_card_table(path)
    assert len(table) == 3 and table.find("gunhand")["value"] == 13
    deck = D.parse_deck("Dudes:\n4x Gunhand\nDeeds:\n2x Old Mill\n", partial=True, card_table=path)
    assert deck.valued_cards == 6 and set(deck.cards["title"]) == {"Gunhand", "Old Mill"}
    assert deck.cards.loc[0, "shooter"] == "stud" and deck.cards.loc[0, "bullets"] == 3
    with pytest.raises(OddsmithError, match="unknown card title 'Shotgun'"):
        D.parse_deck("1x Shotgun\n", partial=True, card_table=table)


@pytest.mark.parametrize("text, message", [
    ("title,type,value\nX,deed,3\n", "no column suit"),
    ("title,type,suit,value\nX,deed,Stars,3\n", "line 2: suit 'Stars'"),
    ("title,type,suit,value\nX,deed,S,14\n", "line 2: value '14'"),
    ("title,type,suit,value\nX,gadget,S,4\n", "line 2: type 'gadget'"),
    ("title,type,suit,value\nX,dude,S,4\n", "needs shooter"),
    ("title,type,suit,value\nX,deed,S,4\nx,deed,S,5\n", "same card title"),
    ("title,type,suit,value,bullets\nX,deed,S,4,-1\n", "negative"),
    ("", "empty"),
])
def test_bad_user_card_tables(tmp_path, text, message):
    path = tmp_path / "t.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(OddsmithError, match=message):
        read_card_table(path)


# --------------------------------------------------------------------------
# The four formats
# --------------------------------------------------------------------------


def test_plain_card_list_counts_and_comments():
    text = ("# my stack\n4x 8S\n8H x4   # trailing comment\n3 x 8D\n2×8C\nK♠ 10h TH\nJoker\n"
            "# name: Eights\n")
    deck = D.parse_deck(text, partial=True)
    assert deck.format is D.DeckFormat.cards and deck.name == "Eights"
    got = Counter(format_card(c, ascii=True) for c in deck.codes())
    assert got == Counter({"8S": 4, "8H": 4, "8D": 3, "8C": 2, "KS": 1, "10H": 2, "Joker": 1})
    assert deck.cards.loc[deck.cards["card"] == "8♥", "line"].unique().tolist() == [3]
    assert deck.cards["title"].isna().all()


def test_full_plain_list_is_a_legal_deck():
    deck = D.parse_deck("\n".join(full_deck_lines()))
    assert deck.valued_cards == 52 and deck.jokers == 2 and not deck.partial and deck.warnings == ()
    assert codes_of(deck) == list(range(52)) + [52, 52]


def test_value_suit_lines():
    lines = ["Value,Suit"] + [f"{v},{s}" for v in range(1, 14) for s in "SHDC"] + ["Joker", "Joker"]
    deck = D.parse_deck("\n".join(lines))
    assert deck.format is D.DeckFormat.valuesuit
    assert codes_of(deck) == list(range(52)) + [52, 52]
    small = D.parse_deck("13,S\n1,h\nK, Spades\nJoker\n", partial=True)
    assert codes_of(small) == [card_code(1, 1), card_code(13, 0), card_code(13, 0), JOKER_CODE]


def test_csv_deck_with_dude_columns_and_table_facts():
    text = ("title,type,suit,value,shooter,bullets,influence,upkeep,count,starting\n"
            "Bass Reeves,,,,,,,,1,yes\n"
            "My Gunhand,dude,S,9,stud,3,1,2,2,no\n"
            ",action,C,5,,,,,3,\n"
            "Joker (red),joker,,,,,,,1,\n"
            "Law Dogs,outfit,,,,,,,1,\n")
    deck = D.parse_deck(text, partial=True)
    assert deck.format is D.DeckFormat.csv and deck.outfit == "Law Dogs"
    bass = deck.cards.iloc[0]
    assert (bass["title"], bass["suit"], bass["value"], bass["shooter"], bass["bullets"], bass["starting"]) == \
        ("Bass Reeves", "spades", 13, "stud", 4, True)
    gun = deck.cards[deck.cards["title"] == "My Gunhand"]
    assert len(gun) == 2 and gun["bullets"].tolist() == [3, 3] and gun["upkeep"].tolist() == [2, 2]
    assert deck.cards["title"].isna().sum() == 3 and deck.jokers == 1 and deck.valued_cards == 6
    assert deck.cards.loc[deck.cards["card"] == "5♣", "line"].tolist() == [4, 4, 4]


def test_titles_deck_list_with_sections_and_inline_headers():
    text = ("Law Dogs\n"  # an outfit title on its own line
            "Starting Gang (2):\n1x Philip Swinford\nRob Wilby\n\n"
            "Dudes:\n2 Erik Samson\nEl Anonimo x2\n"
            "- Goods: 2x Shotgun; Bowie Knife\n"
            "Deeds\n1 Hellstromme Plant #9   # a # inside a title is kept\n"
            "Jokers:\nJoker\n")
    deck = D.parse_deck(text, partial=True)
    assert deck.format is D.DeckFormat.titles and deck.outfit == "Law Dogs"
    gang = deck.starting_gang()
    assert gang["title"].tolist() == ["Philip Swinford", "Rob Wilby"]
    counts = Counter(deck.cards["title"])
    assert counts == Counter({"Erik Samson": 2, "El Anónimo": 2, "Shotgun": 2, "Bowie Knife": 1,
                              "Philip Swinford": 1, "Rob Wilby": 1, "Hellstromme Plant #9": 1, "Joker": 1})
    erik = deck.cards[deck.cards["title"] == "Erik Samson"].iloc[0]
    assert (erik["shooter"], erik["bullets"], erik["influence"], erik["upkeep"]) == ("draw", 2, 1, 1)
    assert deck.cards.loc[deck.cards["title"] == "Shotgun", "type"].unique().tolist() == ["goods"]
    assert deck.warnings == ()


def test_titles_list_warnings():
    deck = D.parse_deck("Dudes:\n3x Shotgun\n", partial=True)
    text = " | ".join(deck.warnings)
    assert "the box holds 2" in text and "'Shotgun' is a goods, listed under Dudes" in text
    assert "no outfit listed" in text
    gang = D.parse_deck("Starting Gang: Shotgun\nOutfit: Law Dogs\n", partial=True)
    assert any("starting gang but is not a dude" in w for w in gang.warnings)


def test_titles_may_mix_card_tokens():
    deck = D.parse_deck("Dudes:\n1x Bass Reeves\n2x 8S\n", partial=True)
    assert deck.format is D.DeckFormat.titles
    assert Counter(deck.cards["card"]) == Counter({"K♠": 1, "8♠": 2})
    gang = D.parse_deck("Dudes:\n1x Bobo\nStarting Gang:\n0x 8S\n2x 9S\n", partial=True)
    assert gang.cards[["card", "starting"]].values.tolist() == [["6♠", False], ["9♠", True], ["9♠", True]]


def test_the_same_deck_in_every_format_gives_the_same_cards():
    law = D.load_sample("law-dogs", with_gang=True)
    rows = law.cards
    cards_text = "\n".join(format_card(c, ascii=True) for c in law.codes())
    vs_text = "\n".join("Joker" if c == JOKER_CODE else f"{c // 4 + 1},{'SHDC'[c % 4]}" for c in law.codes())
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["title", "type", "suit", "value", "starting"])
    for r in rows.itertuples():
        w.writerow([r.title, r.type, r.suit or "", "" if r.value is pd.NA else r.value, "yes" if r.starting else ""])
    decks = {
        "cards": D.parse_deck(cards_text),
        "valuesuit": D.parse_deck(vs_text),
        "csv": D.parse_deck(out.getvalue()),
    }
    for fmt, deck in decks.items():
        assert deck.format.value == fmt
        assert codes_of(deck) == codes_of(law)
    assert decks["csv"].starting_gang()["title"].tolist() == law.starting_gang()["title"].tolist()


def test_forcing_a_format():
    with pytest.raises(OddsmithError, match="line 1: 'Bass' is not a card"):
        D.parse_deck("Bass Reeves\n", format="cards", partial=True)
    assert D.parse_deck("Joker\n", format="titles", partial=True).cards["title"].tolist() == ["Joker"]
    with pytest.raises(OddsmithError, match="unknown deck format"):
        D.parse_deck("AS\n", format="yaml", partial=True)


@pytest.mark.parametrize("text, fmt", [
    ("AS\nKH x2\n", "cards"), ("1,S\n13,H\n", "valuesuit"), ("title,type,suit,value\n,deed,D,4\n", "csv"),
    ("2x Shotgun\nBobo\n", "titles"), ("Dudes:\nBobo\n", "titles"), ("Joker\nJoker\n", "cards"),
])
def test_format_detection(text, fmt):
    assert D.detect_format(text).value == fmt


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def test_fifth_copy_names_the_card_and_lines():
    with pytest.raises(OddsmithError, match=r"5 copies of 8♠.*at most 4 .*lines 1, 2"):
        D.parse_deck("4x 8S\n8S\n", partial=True)


def test_valued_card_count():
    lines = full_deck_lines()
    with pytest.raises(OddsmithError, match="51 valued cards; a deck holds exactly 52.*--partial"):
        D.parse_deck("\n".join(lines[1:]))
    assert D.parse_deck("\n".join(lines[1:]), partial=True).valued_cards == 51
    for partial in (False, True):
        with pytest.raises(OddsmithError, match="53 valued cards"):
            D.parse_deck("\n".join(lines + ["AS"]), partial=partial)


def test_experienced_versions_share_the_four_copy_limit():
    # Quick reference "Experienced": different versions of the same dude are the same card for deck building.
    head = "title,type,suit,value,shooter,bullets\n"
    base = "Judge Harry Somerset,dude,S,7,draw,1\n"
    exp1 = "Judge Harry Somerset (Exp.1),dude,S,8,draw,1\n"
    exp2 = "Judge Harry Somerset (exp. 2),dude,H,9,draw,1\n"
    ok = D.parse_deck(head + base * 2 + exp1 * 2, partial=True)
    assert len(ok) == 4
    for text in (head + base * 3 + exp1 * 2, head + base + exp1 * 2 + exp2 * 2):
        with pytest.raises(OddsmithError, match=r"5 copies of 'Judge Harry Somerset' \(.*versions of one card\)"
                                                r".*at most 4 cards sharing a title"):
            D.parse_deck(text, partial=True)
    assert deck_building_title("Emre, The Turkish Bear (Exp.1)") == "Emre, The Turkish Bear"
    assert deck_building_title("Judge Harry Somerset (Experienced 2)") == "Judge Harry Somerset"
    assert deck_building_title("Hao-T'e Zui, the Mad Monk") == "Hao-T'e Zui, the Mad Monk"
    assert deck_building_title("Exp. (1) Dude") == "Exp. (1) Dude"  # only a trailing marker is a version


def test_three_jokers():
    with pytest.raises(OddsmithError, match="3 jokers; a deck holds at most 2"):
        D.parse_deck("AS\nJoker\nJK\njoker\n", partial=True)


def test_fifth_copy_of_a_title():
    text = "title,type,suit,value\n" + "Same Name,goods,H,3\n" * 3 + "Same Name,goods,H,4\n" * 2
    with pytest.raises(OddsmithError, match="5 copies of 'Same Name'.*sharing a title"):
        D.parse_deck(text, partial=True)


def test_the_first_card_breaking_a_limit_is_named():
    """Several cards over a limit: the message names the first of them in card-code and title order (the checks
    count first and look only at the cards over a limit)."""
    codes = {c: int(D.parse_deck(f"{c}\n", partial=True).cards["code"][0]) for c in ("KS", "2C", "7H")}
    first = min(codes, key=codes.get)
    text = "".join(f"5x {c}\n" for c in ("KS", "2C", "7H"))
    with pytest.raises(OddsmithError, match=f"5 copies of {re.escape(format_card(codes[first]))};"):
        D.parse_deck(text, partial=True)
    rows = "title,type,suit,value\n" + "".join(f"Zed,goods,H,{v}\n" for v in range(2, 7)) \
        + "".join(f"Abe,goods,S,{v}\n" for v in range(2, 8))
    with pytest.raises(OddsmithError, match="6 copies of 'Abe'.*sharing a title"):
        D.parse_deck(rows, partial=True)


def test_two_outfits():
    with pytest.raises(OddsmithError, match="2 outfits"):
        D.parse_deck("Outfit: Law Dogs\nOutfit: The Sloane Gang\n1x Bobo\n", partial=True)


def test_partial_directive_in_the_file():
    deck = D.parse_deck("# partial: the list stops at the dudes\nAS\n")
    assert deck.partial and deck.warnings[0] == "partial deck: the list stops at the dudes"


@pytest.mark.parametrize("text, message", [
    ("AS\n8X\n", "line 2: '8X' is not a card"),
    ("AS\nfoo\n", "line 2: 'foo' is not a card"),
    ("1,S\n14,S\n", "line 2: '14,S' is not a Value,Suit line"),
    ("Dudes:\n1x Bobo\n1x Bass Reevs\n", "line 3: unknown card title 'Bass Reevs'.*'Bass Reeves'"),
    ("Dudes:\n1x Bobo\nWeapons and stuff:\n", "line 3: unknown section"),
    ("title,type,suit,value\nX,deed,S,4\nY,deed,Q,4\n", "line 3: suit 'Q'"),
    ("title,type,suit,value,count\nX,deed,S,4,many\n", "line 2: count 'many'"),
    ("title,type,suit,value,starting\nX,deed,S,4,perhaps\n", "line 2: starting 'perhaps'"),
    ("AS x4 x2\n", "two counts"),
    ("x4\n", "line 1: count 'x4' follows no card"),
    ("# nothing\n\n   \n", "no cards"),
])
def test_lines_that_parse_as_nothing_name_the_line(text, message):
    with pytest.raises(OddsmithError, match=message):
        D.parse_deck(text, partial=True)


# --------------------------------------------------------------------------
# Removing cards already seen
# --------------------------------------------------------------------------


def test_without_gang_and_cards():
    law = D.load_sample("law-dogs", with_gang=True)
    assert law.starting_gang()["title"].tolist() == ["Philip Swinford", "Rob Wilby", "Tommy Harden",
                                                     '"Thunder Boy" Nabbe', "Hattie DeLorre"]
    # --without gang on the full deck puts the gang into play: the deck as set-up leaves it (not partial).
    rest = law.without("gang")
    assert not rest.partial and len(rest) == 49 and rest.valued_cards == 47 and not rest.cards["starting"].any()
    assert rest.state is D.DeckState.after_set_up and rest.removed == ()
    assert codes_of(rest) == codes_of(D.load_sample("law-dogs"))
    assert rest.starting_gang()["title"].tolist() == law.starting_gang()["title"].tolist()
    assert len(law) == 54 and not law.partial and law.state is D.DeckState.full  # the original is unchanged
    assert codes_of(rest.without("gang")) == codes_of(rest)  # the gang is already in play
    fewer = rest.without(["3S", "Shotgun; 2x 8H", "Joker", "El Anonimo"])
    assert fewer.partial and fewer.removed == ("3♠", "Shotgun", "2x 8♥", "Joker", "El Anónimo")
    assert len(fewer) == 49 - 6
    before, after = Counter(rest.codes().tolist()), Counter(fewer.codes().tolist())
    assert before - after == Counter({parse_card("3S"): 1, parse_card("3H"): 1, parse_card("8H"): 2,
                                      JOKER_CODE: 1, parse_card("8S"): 1})


def test_without_prefers_the_draw_deck_copy():
    law = D.load_sample("law-dogs", with_gang=True)
    # 3♠: Tommy Harden is in the starting gang, three other 3♠ dudes are in the draw deck.
    one = law.without("3S")
    assert one.starting_gang()["title"].tolist() == law.starting_gang()["title"].tolist()


def test_without_titles_with_commas_and_load_deck():
    deck = D.load_deck("anarchists", without="gang; Hao-T'e Zui, the Mad Monk, 2x Pony Express")
    assert deck.removed == ("Hao-T'e Zui, The Mad Monk", "2x Pony Express")
    assert deck.valued_cards == 52 - 5 - 3
    full = D.load_deck("anarchists", with_gang=True, without="gang; Hao-T'e Zui, the Mad Monk, 2x Pony Express")
    assert codes_of(full) == codes_of(deck) and full.state is D.DeckState.after_set_up


def test_without_gang_needs_a_starting_gang():
    with pytest.raises(OddsmithError, match="--without gang: the deck has no starting gang"):
        D.load_sample("balanced").without("gang")


@pytest.mark.parametrize("spec, message", [
    ("9S", "9♠ is not in the deck"),
    ("3x Joker", "Joker is not in the deck"),
    ("Bass Reevs", "did you mean 'Bass Reeves'"),
    ("Tommy Harden", "in play in the starting gang since set-up"),
])
def test_without_errors(spec, message):
    with pytest.raises(OddsmithError, match=message):
        D.load_sample("law-dogs").without(spec)


def test_without_validates_the_full_deck_first():
    with pytest.raises(OddsmithError, match="valued cards"):
        D.parse_deck("\n".join(full_deck_lines()[1:])).without("AH")


# --------------------------------------------------------------------------
# Codes and the Deck API
# --------------------------------------------------------------------------


def test_codes_and_counts():
    deck = D.parse_deck("\n".join(full_deck_lines()))
    codes = deck.codes()
    assert codes.dtype == np.uint8 and codes.shape == (54,)
    assert (deck.counts() == np.array([1] * 52 + [2])).all()
    assert list(deck.cards.columns) == list(D.DECK_COLUMNS)
    for row in deck.cards.itertuples():
        if row.code == JOKER_CODE:
            assert row.suit is None and row.value is pd.NA and row.type == "joker"
        else:
            assert row.code == card_code(row.value, ["spades", "hearts", "diamonds", "clubs"].index(row.suit))


def test_deck_from_codes():
    deck = D.deck_from_codes(list(range(52)) + [52], name="x")
    assert deck.valued_cards == 52 and deck.jokers == 1
    with pytest.raises(OddsmithError, match="code 60"):
        D.deck_from_codes([60], partial=True)


def test_summary_fields():
    summary = D.load_sample("stack-16-16-16").summary()
    assert summary["per_value"]["7"] == summary["per_value"]["8"] == summary["per_value"]["9"] == 16
    assert summary["per_value"]["10"] == 4 and summary["per_value"]["A"] == 0
    assert summary["per_suit"] == {"spades": 13, "hearts": 13, "diamonds": 13, "clubs": 13}
    assert summary["max_copies"] == 4 and summary["jokers"] == 2
    dups = summary["duplicates"]
    assert len(dups) == 12 and set(dups["copies"]) == {4}


# --------------------------------------------------------------------------
# Sample decks
# --------------------------------------------------------------------------

STARTERS = ("anarchists", "entrepreneurs", "fearmongers", "first-peoples", "law-dogs", "outlaws")
ARCHETYPES = ("stack-16-16-16", "full-house-4-values", "straight-flush-spread", "balanced")


def test_sample_list():
    samples = D.sample_decks()
    assert set(samples["name"]) == set(STARTERS) | set(ARCHETYPES)
    assert D.sample_names() == sorted(samples["name"])


@pytest.mark.parametrize("name", STARTERS + ARCHETYPES)
def test_every_sample_is_a_legal_deck(name):
    deck = D.load_sample(name, with_gang=True)
    assert deck.valued_cards == DECK_RULES.valued_cards and deck.jokers == DECK_RULES.max_jokers
    assert not deck.partial and deck.warnings == ()
    assert deck.counts()[:52].max() <= DECK_RULES.max_per_suit_and_value


@pytest.mark.parametrize("name", STARTERS)
def test_starter_decks(name):
    deck = D.load_sample(name)
    assert deck.format is D.DeckFormat.titles and deck.outfit is not None
    gang = deck.starting_gang()
    assert len(gang) == 5 and (gang["type"] == "dude").all() and gang["bullets"].notna().all()
    assert deck.cards["title"].notna().all()
    # The header states the count the book's list comes to.
    text = resources.files("oddsmith.data").joinpath("decks", name + ".txt").read_text(encoding="utf-8")
    assert "# 52 valued cards (the starting gang included) and 2 jokers, as printed." in text
    faction = default_card_table().find(deck.outfit)["faction"]
    factions = {default_card_table().find(t)["faction"] for t in gang["title"]}
    assert factions <= {faction, "neutral"}


def test_archetype_shapes():
    per_value = lambda d: Counter(int(v) for v in d.cards["value"].dropna())  # noqa: E731
    stack = D.load_sample("stack-16-16-16")
    assert per_value(stack) == Counter({7: 16, 8: 16, 9: 16, 10: 4})
    fh = D.load_sample("full-house-4-values")
    assert per_value(fh) == Counter({5: 13, 6: 13, 7: 13, 8: 13})
    spread = D.load_sample("straight-flush-spread")
    assert per_value(spread) == Counter({v: 4 for v in range(1, 14)})
    assert Counter(spread.cards["suit"].dropna()) == Counter({"spades": 26, "hearts": 13, "diamonds": 13})
    balanced = D.load_sample("balanced")
    assert codes_of(balanced) == list(range(52)) + [52, 52]


def test_load_deck_by_sample_name_path_and_stdin(tmp_path, monkeypatch):
    assert D.load_deck("Law Dogs").name == "Law Dogs starter deck"
    path = tmp_path / "law-dogs"  # a file with a sample's name wins over the sample
    path.write_text("AS\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert D.load_deck("law-dogs", partial=True).valued_cards == 1
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO("KS\nKH\n".encode())))
    assert D.load_deck("-", partial=True).source == "stdin"


# --------------------------------------------------------------------------
# Files and hostile input
# --------------------------------------------------------------------------


def test_file_errors(tmp_path, monkeypatch):
    with pytest.raises(OddsmithError, match="no such deck file or sample deck"):
        D.load_deck(tmp_path / "missing.txt")
    with pytest.raises(OddsmithError, match="is a folder"):
        D.load_deck(tmp_path)
    afile = tmp_path / "file.txt"
    afile.write_text("AS\n")
    with pytest.raises(OddsmithError, match="cannot read"):
        textinput.read_text(afile / "deck.txt", what="deck file")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(OddsmithError, match="empty"):
        D.load_deck(empty)

    def denied(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(textinput, "open", denied, raising=False)
    with pytest.raises(OddsmithError, match="permission denied"):
        D.load_deck(afile, partial=True)


@pytest.mark.parametrize("data, message", [
    (bytes(range(256)) * 4, "binary"),
    (b"\x89PNG\r\n\x1a\n" + bytes(64), "binary"),
    (b"AS\n\x00\x00\n", "binary"),
    (b"\xef\xbb\xbf", "empty"),
    (b"\r\n\r\n", "empty"),
    (b"999999x AS\n", "count 999999 is more than a deck can hold"),
    (b"AS x999999\n", "count 999999 is more than a deck can hold"),
    (b"999999x Shotgun\n", "count 999999 is more than a deck can hold"),
    (b"54x Joker\n", "54 jokers"),
    (b"AS\n" * 300, "300 copies of A♠"),
    (("AS " * 20000).encode(), "more than 1000 cards"),
    (b"40x AS\n" * 100, "more than 1000 cards"),
])
def test_hostile_bytes(data, message):
    with pytest.raises(OddsmithError, match=message):
        D.deck_from_bytes(data, partial=True)


def test_bom_and_line_endings():
    lines = full_deck_lines()
    for data in (b"\xef\xbb\xbf" + "\r\n".join(lines).encode(), "\r".join(lines).encode(),
                 "\r\n".join(lines).encode("cp1252")):
        assert codes_of(D.deck_from_bytes(data)) == list(range(52)) + [52, 52]
    latin = "Dudes:\n1x El Anónimo\r\n".encode("cp1252")  # a list saved on Windows
    assert D.deck_from_bytes(latin, partial=True).cards["title"].tolist() == ["El Anónimo"]


def test_oversized_file(tmp_path):
    big = tmp_path / "big.txt"
    big.write_bytes(b"AS\n" * 400_000)
    with pytest.raises(OddsmithError, match="too large"):
        D.load_deck(big, partial=True)


def test_random_junk_never_escapes_as_another_exception():
    rng = random.Random(11)
    alphabet = "AS8HxX10JKQ,;:#-\n\r\t ♠♥Joker\"'()0123456789Dudes"
    for _ in range(400):
        if rng.random() < 0.5:
            data = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 120)))
        else:
            data = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 80))).encode()
        try:
            deck = D.deck_from_bytes(data, partial=True)
        except OddsmithError:
            continue
        assert deck.valued_cards <= 52 and deck.jokers <= 2


# --------------------------------------------------------------------------
# The CLI
# --------------------------------------------------------------------------


def run(args, capsys):
    return cli_runner()(capsys, *args)


def test_cli_deck_show_table(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # one line per fact: long facts wrap to the terminal's width
    rc, out, err = run(["deck", "show", "law-dogs", "--with-gang", "--without", "gang"], capsys)
    assert rc == 0 and err == ""
    assert "valued cards             47 in the draw deck, 52 listed" in out and "removed" not in out
    assert 'deck used                after set-up (starting gang in play: Philip Swinford; Rob Wilby; ' \
           'Tommy Harden; "Thunder Boy" Nabbe; Hattie DeLorre), 49 cards' in out
    rc, default, err = run(["deck", "show", "law-dogs"], capsys)
    assert rc == 0 and default == out
    assert "3♥         4  Bowie Knife; Shotgun" in out
    total = [l for l in out.splitlines() if l.startswith("total")][0].split()
    assert total == ["total", "11", "10", "14", "12", "49"]


def test_cli_deck_show_json_csv_md(capsys):
    rc, out, _ = run(["deck", "show", "balanced", "--format", "json"], capsys)
    data = json.loads(out)
    assert rc == 0 and data["valued_cards"] == 52 and data["jokers"] == 2 and data["max_copies"] == 1
    assert data["counts"][0] == {"card": "A", "value": 1, "spades": 1, "hearts": 1, "diamonds": 1, "clubs": 1,
                                 "total": 4}
    assert data["duplicates"] == [] and data["warnings"] == []
    rc, out, _ = run(["deck", "show", "balanced", "--format", "csv"], capsys)
    assert out.splitlines()[0] == "card,value,spades,hearts,diamonds,clubs,total,deck_state"
    assert out.splitlines()[-1] == "Joker,,0,0,0,0,2,full deck (no starting gang listed)"
    rc, out, _ = run(["deck", "show", "stack-16-16-16", "--format", "md"], capsys)
    assert "| 7 | 4 | 4 | 4 | 4 | 16 |" in out and "### Warnings" in out


def test_cli_deck_show_stdin_partial_and_output(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"4x 8S\nJoker\n")))
    target = tmp_path / "summary.json"
    rc, out, err = run(["deck", "show", "-", "--partial", "--format", "json", "--output", str(target)], capsys)
    assert rc == 0 and out == "" and json.loads(target.read_text())["valued_cards"] == 4


def test_cli_deck_list(capsys):
    rc, out, _ = run(["deck", "list", "--format", "csv"], capsys)
    frame = pd.read_csv(io.StringIO(out))
    assert rc == 0 and len(frame) == 10 and (frame["valued_cards"] == 52).all()
    after = dict(zip(frame["name"], frame["cards_after_set_up"]))
    assert after == {name: 49 if name in STARTERS else 54 for name in frame["name"]}


@pytest.mark.parametrize("content, extra, message", [
    ("4x 8S\n8S\n", [], "5 copies of 8♠"),
    ("\n".join(full_deck_lines()[1:]), [], "51 valued cards"),
    ("\n".join(full_deck_lines() + ["AS"]), ["--partial"], "53 valued cards"),
    ("AS\nJoker\nJoker\nJoker\n", ["--partial"], "3 jokers"),
    ("Dudes:\n1x Bass Reevs\n", ["--partial"], "unknown card title 'Bass Reevs'"),
    ("AS\nwhat is this\n", ["--partial"], "line 2"),
    ("AS\n", ["--partial", "--without", "KS"], "K♠ is not in the deck"),
    (b"\x00\x01binary", ["--partial"], "binary"),
    ("999999x AS\n", ["--partial"], "count 999999"),
])
def test_cli_bad_decks_one_line_exit_2(tmp_path, capsys, content, extra, message):
    path = tmp_path / "deck.txt"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    target = tmp_path / "out.txt"
    rc, out, err = run(["deck", "show", str(path), *extra, "--output", str(target)], capsys)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:") and message in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.txt"]  # no output, no temporary file


def test_cli_missing_file_and_bad_output_folder(tmp_path, capsys):
    rc, _, err = run(["deck", "show", str(tmp_path / "nope.txt")], capsys)
    assert rc == 2 and "no such deck file or sample deck" in err and err.count("\n") == 1
    rc, _, err = run(["deck", "show", "balanced", "--output", str(tmp_path / "no" / "x.txt")], capsys)
    assert rc == 2 and "does not exist" in err
    assert list(tmp_path.iterdir()) == []


def test_starter_gangs_follow_the_starting_gang_rules():
    for name in ("anarchists", "entrepreneurs", "fearmongers", "first-peoples", "law-dogs", "outlaws"):
        assert not any("starting gang" in w for w in D.load_sample(name).warnings), name


def test_starting_gang_rules_are_warned_about():
    text = resources.files("oddsmith.data").joinpath("decks", "law-dogs.txt").read_text(encoding="utf-8")
    # Move Asakichi Cooke (Anarchists, cost 3) and POST-A-TRON (a Gadget) into the gang: six dudes,
    # a dude of another faction, a Gadget, and more than the Law Dogs' starting ghost rock.
    text = text.replace("Dudes:\n1x Asakichi Cooke\n", "Dudes:\n").replace("1x Bobo\n", "")
    text = text.replace("Starting Gang:\n", "Starting Gang:\n1x Asakichi Cooke\n")
    text = text.replace("Outfit: Law Dogs\n", "Outfit: Law Dogs\n\nStarting Gang:\n1x POST-A-TRON\n")
    deck = D.parse_deck(text, name="gang")
    found = "\n".join(deck.warnings)
    assert "the starting gang has 7 dudes; it holds up to 5" in found
    assert "Asakichi Cooke (anarchists) is in the starting gang of a lawdogs outfit" in found
    assert "POST-A-TRON is a Gadget dude" in found
    assert "the starting gang costs" in found and "Law Dogs starts with" in found


# --------------------------------------------------------------------------
# Issue 16: deck lists as deckbuilding sites export them; the size cap comes first
# --------------------------------------------------------------------------

EXPORT = Path(__file__).resolve().parent / "fixtures" / "law-dogs-export.txt"


def test_site_export_loads_to_the_plain_title_list():
    export = D.load_deck(EXPORT, with_gang=True)
    plain = D.load_sample("law-dogs", with_gang=True)
    assert export.format is D.DeckFormat.titles
    assert export.name == "Law Dogs Starter - Weird West Edition"
    assert sorted(export.codes().tolist()) == sorted(plain.codes().tolist())
    assert list(export.cards["title"]) == list(plain.cards["title"])
    assert list(export.starting_gang()["title"]) == list(plain.starting_gang()["title"])
    assert export.outfit == plain.outfit == "Law Dogs"
    assert export.warnings == ("line 1: 'Law Dogs Starter - Weird West Edition' read as the deck's name",)
    # as set-up leaves it, the same 49-card draw deck
    assert sorted(D.load_deck(EXPORT).codes().tolist()) == sorted(D.load_sample("law-dogs").codes().tolist())


@pytest.mark.parametrize("change, message", [
    (("Total: 54 cards", "Built with love at example.org"),
     "line 55: unknown card title 'Built with love at example.org'.*a count and a title .'2x Shotgun'.*"
     "start the line with '# ' to skip it"),
    (("1x Bobo (Weird", "1x Bobbo (Weird"), "line 16: unknown card title 'Bobbo .Weird West Edition.'.*did you mean 'Bobo'"),
    (("Law Dogs Starter - Weird West Edition", "Shotgn"), "line 1: unknown card title 'Shotgn'.*did you mean 'Shotgun'"),
])
def test_site_export_lines_that_cannot_be_read(change, message):
    text = EXPORT.read_text(encoding="utf-8").replace(*change)
    with pytest.raises(OddsmithError, match=message):
        D.parse_deck(text, source="x.txt")


def test_export_pieces():
    table = default_card_table()
    assert DL._without_set_name("Shotgun (Weird West Edition)", table) == "Shotgun"
    assert DL._without_set_name("Joker (black) (WWE)", table) == "Joker (black)"
    assert DL._without_set_name("Judge Harry Somerset (Exp.1) (Weird West Edition)", table) == \
        "Judge Harry Somerset (Exp.1)"
    assert DL._without_set_name("Nothing (at all)", table) == "Nothing (at all)"
    for line in ("Total: 54 cards", "Total cards: 54", "TOTAL (54)", "54 cards"):
        assert DL._TOTAL.match(line), line
    body = EXPORT.read_text(encoding="utf-8").split("\n", 1)[1]
    for line in ("Name: My Dogs", "Deck: My Dogs", "Deck name: My Dogs"):
        assert D.parse_deck(line + "\n" + body).name == "My Dogs"
    # "Deck:" listing a card is still a card
    deck = D.parse_deck("Deck: 2x Shotgun\n", partial=True)
    assert list(deck.cards["title"]) == ["Shotgun", "Shotgun"]


def test_a_huge_deck_is_refused_before_its_format_is_detected(monkeypatch):
    text = "\n".join(["8S"] * 100_000)
    monkeypatch.setattr(D, "detect_format", lambda *_: pytest.fail("format detected before the size cap"))
    with pytest.raises(OddsmithError, match="more than 1000 lines of cards"):
        D.parse_deck(text, source="big.txt")
    # comments and blank lines do not count
    ok = "# a long preamble\n" * 5000 + "\n" * 5000 + "\n".join(full_deck_lines())
    monkeypatch.undo()
    assert D.parse_deck(ok).valued_cards == 52


def test_cli_export_and_huge_deck(capsys, tmp_path):
    rc, out, err = cli_runner("deck", "show")(capsys, EXPORT, "-f", "json")
    assert rc == 0, err
    assert json.loads(out)["name"] == "Law Dogs Starter - Weird West Edition"
    big = tmp_path / "big.txt"
    big.write_text("\n".join(["Shotgun"] * 100_000), encoding="utf-8")
    rc, out, err = cli_runner("deck", "show")(capsys, big)
    assert rc == 2 and "more than 1000 lines of cards" in err and err.count("\n") == 1


# ---------------------------------------------------------------------------- the fast reading against the plain one

def _same_cells(a: pd.DataFrame, b: pd.DataFrame) -> None:
    """Equal frames, dtype by dtype and cell by cell, down to the Python type of every cell."""
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert [str(t) for t in a.dtypes] == [str(t) for t in b.dtypes]
    assert type(a.index) is type(b.index) and a.index.equals(b.index)
    for col in a.columns:
        for x, y in zip(a[col].tolist(), b[col].tolist()):
            assert type(x) is type(y) and (x is y or x == y), (col, x, y)


def test_card_table_record_and_knows_agree_with_find():
    table = default_card_table()
    titles = list(table.frame["title"]) + [t.upper() for t in table.frame["title"][:20]]
    for title in titles + ["Joker", "jokers", "JK", "Nothing at all", "", "Shotgun (Weird West Edition)"]:
        row, record = table.find(title), table.record(title)
        assert table.knows(title) == (row is not None), title
        if row is None:
            assert record is None
            continue
        assert list(record) == list(row.index)
        for col, value in record.items():
            if row[col] is pd.NA or row[col] is None:
                assert value is row[col], (title, col)
            else:
                assert value == row[col] and type(value) in (type(row[col]), int), (title, col)
    assert table.record("Shotgun") is table.record("shotgun")  # made once


def _random_rows(rng: random.Random, n: int) -> list[dict]:
    rows = []
    for _ in range(n):
        row = {}
        for col in D.DECK_COLUMNS:
            if col in ("value", "bullets", "influence", "upkeep", "line"):
                row[col] = rng.choice([pd.NA, None, 0, 3, 13, 120])
            elif col == "code":
                row[col] = rng.randrange(JOKER_CODE + 1)
            elif col == "starting":
                row[col] = rng.choice([True, False])
            else:
                row[col] = rng.choice([None, pd.NA, float("nan"), "dude", "3♠", "Élan"])
        rows.append(row)
    return rows


def test_cards_frame_matches_the_plain_reading():
    import reference_deck

    rng = random.Random(11)
    for n in [0, 1, 2, 5, 54] * 60:
        rows = _random_rows(rng, n)
        _same_cells(D._frame(rows), reference_deck.cards_frame(rows))
    for name in D.sample_names():
        cards = D.load_sample(name, with_gang=True).cards
        rows = cards.to_dict("records")
        _same_cells(D._frame(rows), reference_deck.cards_frame(rows))


def test_card_table_matches_the_plain_reading():
    import reference_deck
    from oddsmith.doomtown import cardtable as CT

    text = SHIPPED_TABLE.read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    rng = random.Random(5)
    texts = [text]
    for _ in range(20):  # columns left out, rows thinned
        keep = [i for i, h in enumerate(rows[0])
                if h in ("title", "type", "suit", "value", "shooter") or rng.random() < 0.5]
        out = io.StringIO()
        csv.writer(out).writerows([[r[i] for i in keep] for r in [rows[0]] + [r for r in rows[1:] if rng.random() < 0.6]])
        texts.append(out.getvalue())
    for t in texts:
        records = CT._read_rows(t, "t.csv")
        table = CT._build(records, "t.csv")
        expected = reference_deck.card_table_frame(records)
        _same_cells(table.frame, expected[list(table.frame.columns)])
        assert table._by_key == {k: i for i, k in enumerate(expected["key"])}


def _mutated(rng: random.Random, cards: pd.DataFrame, titles: list[str]) -> pd.DataFrame:
    """The deck with a few rows copied, dropped or changed: each rule broken now and then."""
    for _ in range(rng.randrange(5)):
        i = rng.randrange(len(cards))
        op = rng.choice(["copy", "drop", "joker", "start", "start", "title", "title", "copies", "copies", "type",
                         "type"])
        if op == "copy":
            cards = pd.concat([cards, cards.iloc[[i]]], ignore_index=True)
        elif op == "copies":
            cards = pd.concat([cards] + [cards.iloc[[i]]] * rng.randrange(1, 5), ignore_index=True)
        elif op == "drop":
            cards = cards.drop(index=cards.index[i]).reset_index(drop=True)
        elif op == "joker":
            cards.loc[cards.index[i], "code"] = JOKER_CODE
        elif op == "start":
            cards.loc[cards.index[i], "starting"] = True
        elif op == "title":
            cards.loc[cards.index[i], "title"] = rng.choice(
                titles + [None, "Judge Harry Somerset (Exp.1)", "Judge Harry Somerset"])
        else:
            cards.loc[cards.index[i], "type"] = rng.choice(["dude", "deed", None, "goods"])
    return cards


def test_validate_deck_matches_the_plain_reading():
    import reference_deck

    def outcome(validate, cards, **kw):
        try:
            return "ok", validate(cards, **kw)
        except OddsmithError as exc:
            return "error", str(exc)

    rng = random.Random(7)
    table = default_card_table()
    titles = list(table.frame["title"])
    seen = Counter()
    for name in D.sample_names():
        deck = D.load_sample(name, with_gang=True)
        for _ in range(60):
            cards = _mutated(rng, deck.cards.copy(), titles)
            kw = dict(partial=rng.random() < 0.7, name="t", table=rng.choice([None, table]),
                      outfits=rng.choice([(), (deck.outfit,) if deck.outfit else (), ("a", "b")]),
                      legends=rng.choice([(), ("x",), ("x", "y")]))
            got = outcome(D.validate_deck, cards, **kw)
            assert got == outcome(reference_deck.validate_deck, cards, **kw)
            seen[got[0] if got[0] == "error" else ("warned" if got[1] else "clean")] += 1
    assert min(seen.values()) >= 30, seen  # every path taken often
    # one copy more than the box holds of every title the deck holds all of: warnings in title order
    for name in D.sample_names():
        base = D.load_sample(name, with_gang=True).cards.iloc[:40]  # room for more cards (partial)
        held, per_card = base["title"].value_counts(), base["code"].value_counts()
        full = [t for t, n in held.items() if t and n < DECK_RULES.max_per_title
                and table.find(t) is not None and table.find(t)["copies_in_box"] == n]
        extra = [base[base["title"] == t].iloc[[0]] for t in full]
        extra = [row for row in extra if per_card[row["code"].iloc[0]] < DECK_RULES.max_per_suit_and_value][:3]
        if len(extra) < 2 or len({int(row["code"].iloc[0]) for row in extra}) < len(extra):
            continue
        full = [row["title"].iloc[0] for row in extra]
        cards = pd.concat([base] + extra, ignore_index=True)
        got = outcome(D.validate_deck, cards, partial=True, table=table)
        assert got == outcome(reference_deck.validate_deck, cards, partial=True, table=table)
        assert sum("the box holds" in w for w in got[1]) == len(full) >= 2
        seen["box"] += 1
    assert seen["box"] >= 2
