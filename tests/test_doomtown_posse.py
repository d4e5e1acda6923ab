"""Doomtown posses: stud and draw bonus per shooter (Rulebook "4. Draw!")."""
from __future__ import annotations

import io
import random

import pytest

from oddsmith.doomtown.deck import load_sample
from oddsmith.doomtown.posse import (
    Posse,
    PosseDude,
    best_shooter,
    load_posse,
    parse_posse,
    posse_from_cards,
)
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import BulletType, PosseBonus


def plain_bonus(dudes: list[tuple[str, int]], shooter: int) -> tuple[int, int]:
    """The rulebook's sentence, spelled out: the shooter's bullets go to their type, each backup adds one."""
    stud = draw = 0
    for i, (kind, bullets) in enumerate(dudes):
        add = bullets if i == shooter else 1
        if kind == "stud":
            stud += add
        else:
            draw += add
    return stud, draw


def test_rulebook_example_1():
    # Baker Andrews (2 stud) shoots, Allie Hensman (2 draw) and Ike Clanton (0 draw) back up: stud 2, draw 2.
    posse = parse_posse("Baker Andrews, Allie Hensman, Ike Clanton")
    assert posse.bonus("Baker Andrews") == PosseBonus(stud=2, draw=2)


def test_rulebook_example_2():
    # Miranda Clarke (0 stud), Andreas Andregg (0 stud), Allie Hensman (2 draw).
    posse = parse_posse("Miranda Clarke; Andreas Andregg; Allie Hensman")
    options = posse.shooter_options()
    assert options[["name", "stud", "draw"]].values.tolist() == [
        ["Miranda Clarke", 1, 1], ["Andreas Andregg", 1, 1], ["Allie Hensman", 2, 2]]
    assert posse.bonus_choices() == [PosseBonus(1, 1), PosseBonus(2, 2)]


def test_random_posses_against_the_plain_rule():
    rng = random.Random(5)
    for _ in range(300):
        dudes = [(rng.choice(["stud", "draw"]), rng.randrange(0, 6)) for _ in range(rng.randrange(1, 7))]
        posse = parse_posse(", ".join(f"{k}:{b}" for k, b in dudes))
        for shooter in range(len(dudes)):
            b = posse.bonus(shooter)
            assert (b.stud, b.draw) == plain_bonus(dudes, shooter)
        table = posse.shooter_options()
        assert list(table["shooter"]) == list(range(len(dudes)))


def test_direct_dudes_names_counts_and_shooter_mark():
    posse = parse_posse("Emre, the Turkish Bear (exp. 1), 2x Gunslinger, Bob=stud:3*, draw")
    frame = posse.frame()
    assert frame["name"].tolist() == ["Emre, The Turkish Bear (Exp.1)", "Gunslinger", "Gunslinger", "Bob", "draw:0"]
    assert frame["shooter"].tolist() == [False, False, False, True, False]
    assert frame["token"].tolist() == [False, True, True, False, False]
    assert posse.bonus() == PosseBonus(stud=3 + 3, draw=1)
    assert parse_posse("Baker Andrews=stud:4, draw:1").bonus(0) == PosseBonus(4, 1)


def test_shooter_by_name_or_index():
    posse = parse_posse("Baker Andrews, Allie Hensman", shooter="allie hensman")
    assert posse.shooter == 1 and posse.bonus() == PosseBonus(1, 2)
    assert parse_posse("stud:1, draw:1", shooter=0).bonus() == PosseBonus(1, 1)
    with pytest.raises(OddsmithError, match="no dude 'Bass Reeves' to be the shooter"):
        posse.bonus("Bass Reeves")
    with pytest.raises(OddsmithError, match="name a shooter"):
        parse_posse("stud:1, draw:1").bonus()


def test_best_shooter():
    posse = parse_posse("stud:2, draw:3, stud")
    calls = []

    def score(b: PosseBonus) -> float:
        calls.append(b)
        return b.stud + 0.5 * b.draw

    assert best_shooter(posse, score) == (0, PosseBonus(3, 1))
    assert len(calls) == len(set(calls))  # each distinct bonus scored once
    # Ties keep the first in posse order; a named shooter is kept whatever the score.
    assert best_shooter(parse_posse("stud:1, stud:1"), lambda b: 0.0)[0] == 0
    assert best_shooter(parse_posse("stud:2, draw:3*, stud"), score) == (1, PosseBonus(2, 3))


def test_starting_gang_as_posse_and_harrowed():
    gang = load_sample("anarchists").starting_gang()
    posse = posse_from_cards(gang)
    assert len(posse) == 5 and posse.dudes[2].title == "Emre, The Turkish Bear (Exp.1)"
    assert posse.casualty_capacity() == 5 * 2
    monk = parse_posse("Hao-T'e Zui, the Mad Monk; stud:0")
    assert monk.dudes[0].harrowed and monk.casualty_capacity() == 3 + 2


def test_load_posse_from_file_and_stdin(tmp_path, monkeypatch):
    path = tmp_path / "posse.txt"
    path.write_text("# my posse\nBaker Andrews*\nAllie Hensman  # backup\n2x draw\n", encoding="utf-8")
    posse = load_posse(path)
    assert posse.bonus() == PosseBonus(2, 3)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"stud:2\n")))
    assert load_posse("-").bonus(0) == PosseBonus(2, 0)
    assert load_posse("stud:1; draw:2").bonus(1) == PosseBonus(1, 2)


@pytest.mark.parametrize("spec, message", [
    ("", "no dudes"),
    ("stud:-1", "bullets cannot be negative"),
    ("Baker Andrews=draw:-2", "bullets cannot be negative"),
    ("Shotgun", "'Shotgun' is a goods, not a dude"),
    ("Bass Reevs", "did you mean 'Bass Reeves'"),
    ("200x stud", "more than 100 dudes"),
    ("stud:1*, draw*", "only one shooter"),
    ("Baker Andrews=studd:2", "'studd:2' is not stud:N or draw:N"),
])
def test_bad_posses(spec, message):
    with pytest.raises(OddsmithError, match=message):
        parse_posse(spec)


def test_dude_checks():
    with pytest.raises(OddsmithError, match="negative"):
        PosseDude("x", BulletType.STUD, -1)
    with pytest.raises(OddsmithError, match="no dudes"):
        Posse(())


# --------------------------------------------------------------------------
# Issue 16: every per-dude number in one range, counts checked before anything is built
# --------------------------------------------------------------------------


@pytest.mark.parametrize("spec, message", [
    ("Baker Andrews [bounty:2147483648]", "bounty 2147483648 is out of range .a dude's numbers are 0..999"),
    ("stud:1 [bounty:1000]", "bounty 1000 is out of range"),
    ("stud:1 [influence:9223372036854775808]", "influence 9223372036854775808 is out of range"),
    ("stud:1 [value:9223372036854775808]", "value 9223372036854775808 is out of range"),
    ("stud:1 [cost:9223372036854775808]", "cost 9223372036854775808 is out of range"),
    ("stud:99999999999999999999", "bullets 99999999999999999999 is out of range"),
    ("stud:" + "9" * 5000, r"bullets 999999999999\.\.\. is out of range"),
    ("stud:1 + 99999999999999999999x sidekick", "count 99999999999999999999: more than 8 Sidekicks on one dude"),
    ("stud:1 + 1000000000x sidekick", "count 1000000000: more than 8 Sidekicks"),
    ("stud:1 + 5x sidekick + 5x sidekick", "more than 8 Sidekicks"),
    ("99999999999999999999x stud:1", "more than 100 dudes"),
])
def test_numbers_and_counts_out_of_range(spec, message):
    with pytest.raises(OddsmithError, match=message):
        parse_posse(spec)


def test_numbers_at_the_edge_of_the_range():
    dude = parse_posse("stud:1 [bounty:999 influence:999 value:999 cost:999]").dudes[0]
    assert (dude.bounty, dude.influence, dude.value, dude.cost) == (999, 999, 999, 999)
    assert len(parse_posse("stud:1 + 8x sidekick").dudes[0].sidekicks) == 8
    # the same range from the Python API
    with pytest.raises(OddsmithError, match="out of range"):
        PosseDude("x", BulletType.STUD, 1, bounty=2 ** 31)
    with pytest.raises(OddsmithError, match="out of range"):
        PosseDude("x", BulletType.STUD, 1, influence=2 ** 63)


def test_a_huge_sidekick_count_builds_nothing(monkeypatch):
    # The count is refused before any list of Sidekicks is made.
    from oddsmith.doomtown import posse as P

    made = []
    real = P.Sidekick
    monkeypatch.setattr(P, "Sidekick", lambda *a, **k: made.append(1) or real(*a, **k))
    with pytest.raises(OddsmithError, match="more than 8"):
        parse_posse("stud:1 + 1000000000x sidekick")
    assert made == []


# --------------------------------------------------------------------------
# --posse gang: the deck's own starting gang (issue 14)
# --------------------------------------------------------------------------


def test_gang_is_the_decks_own_starting_gang():
    from oddsmith.doomtown.posse import gang_posse, is_gang, resolve_posse

    deck = load_sample("law-dogs")
    expected = posse_from_cards(deck.starting_gang())
    names = ["Philip Swinford", "Rob Wilby", "Tommy Harden", '"Thunder Boy" Nabbe', "Hattie DeLorre"]
    for posse in (gang_posse(deck), load_posse("gang", deck=deck), load_posse(" Starting  Gang ", deck="law-dogs"),
                  resolve_posse("GANG", deck=deck), load_posse("gang", deck=load_sample("law-dogs", with_gang=True))):
        assert posse == expected and [d.name for d in posse.dudes] == names
    assert load_posse("gang", deck=deck, shooter="Tommy Harden").shooter == 2
    assert is_gang("gang") and not is_gang("gangs") and not is_gang(None)


def test_gang_needs_a_deck_with_a_starting_gang(tmp_path):
    with pytest.raises(OddsmithError, match="--posse gang: the deck's own starting gang, but no deck"):
        load_posse("gang", source="--posse")
    with pytest.raises(OddsmithError, match="lists no starting gang"):
        load_posse("gang", deck="balanced")
    # a posse file named "gang" is still that file
    path = tmp_path / "gang"
    path.write_text("stud:2\n", encoding="utf-8")
    assert load_posse(str(path)).dudes[0].bullets == 2
