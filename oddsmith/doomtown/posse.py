"""Doomtown posses: the dudes in a shootout, and the stud and draw bonus they give.

A posse is read from a short text (a file or a command-line value), items
separated by ``;``, ``,`` or new lines:

* a card title, through the card table: ``Baker Andrews`` (its bullets and
  stud/draw type and whether it is Harrowed come from the table);
* a dude given directly: ``stud:2``, ``draw:1``, ``stud`` (a 0-bullet stud),
  optionally named: ``Gunslinger=stud:2``; a title with its bullets changed
  (a weapon, say): ``Baker Andrews=stud:3``;
* a count: ``2x Gunslinger``, ``3x draw``;
* a trailing ``*`` names the shooter: ``Baker Andrews*``.

The bonuses follow Rulebook "4. Draw!" through
:func:`oddsmith.rules.doomtown.posse_bonus`: the shooter adds their full
bullets to the bonus of their type, every backup dude adds exactly one to
the bonus of its own type. :meth:`Posse.shooter_options` lists the (stud,
draw) bonus for each possible shooter, so an analysis can pick the shooter
that maximises the side's odds (:func:`best_shooter`).
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

import pandas as pd

from oddsmith.doomtown.cardtable import CardTable, card_table as _card_table, split_items, title_key
from oddsmith.textinput import read_text, strip_comment
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import BulletType, Gunslinger, PosseBonus, casualty_capacity, posse_bonus

#: Most dudes read into one posse (far beyond any table's gang; stops runaway counts).
MAX_POSSE = 100

_DIRECT = re.compile(r"^(stud|draw)\s*(?:[:= ]\s*(-?\d+))?$", re.IGNORECASE)
_COUNT = re.compile(r"^(\d+)\s*[x×*]\s*(.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class PosseDude:
    """One dude in a posse: bullets and bullet type (stud or draw)."""

    name: str
    bullet_type: BulletType
    bullets: int
    title: str | None = None
    harrowed: bool = False
    token: bool = False

    def __post_init__(self) -> None:
        if int(self.bullets) < 0:
            raise OddsmithError(f"posse: {self.name} has {self.bullets} bullets (bullets cannot be negative)")

    @property
    def gunslinger(self) -> Gunslinger:
        return Gunslinger(self.bullets, self.bullet_type)

    def __str__(self) -> str:
        return f"{self.name} ({self.bullets} {self.bullet_type.value})"


@dataclass(frozen=True)
class Posse:
    """The dudes of one side of a shootout; ``shooter`` is the index of a named shooter, if any."""

    dudes: tuple[PosseDude, ...]
    shooter: int | None = None

    def __post_init__(self) -> None:
        if not self.dudes:
            raise OddsmithError("posse: no dudes (a posse has at least one)")
        if self.shooter is not None and not 0 <= self.shooter < len(self.dudes):
            raise OddsmithError(f"posse: shooter {self.shooter} is not one of its {len(self.dudes)} dudes")

    def __len__(self) -> int:
        return len(self.dudes)

    def index(self, shooter: int | str) -> int:
        """Index of ``shooter``: an index 0.., or a name or card title (lenient match)."""
        if isinstance(shooter, int):
            if not 0 <= shooter < len(self.dudes):
                raise OddsmithError(f"posse: shooter {shooter} is not one of its {len(self.dudes)} dudes")
            return shooter
        key = title_key(shooter)
        for i, dude in enumerate(self.dudes):
            if title_key(dude.name) == key or (dude.title and title_key(dude.title) == key):
                return i
        names = ", ".join(dict.fromkeys(d.name for d in self.dudes))
        raise OddsmithError(f"posse: no dude {shooter!r} to be the shooter (posse: {names})")

    def bonus(self, shooter: int | str | None = None) -> PosseBonus:
        """Stud and draw bonus with ``shooter`` (index or name; default: the named shooter)
        and everyone else as backup (Rulebook "4. Draw!")."""
        if shooter is None:
            if self.shooter is None:
                raise OddsmithError("posse: name a shooter (or use shooter_options / best_shooter)")
            shooter = self.shooter
        i = self.index(shooter)
        return posse_bonus(self.dudes[i].gunslinger, [d.gunslinger for j, d in enumerate(self.dudes) if j != i])

    def shooter_options(self) -> pd.DataFrame:
        """The bonus for each possible shooter: columns ``shooter`` (index), ``name``,
        ``bullet_type``, ``bullets``, ``stud``, ``draw``; one row per dude, posse order."""
        rows = []
        for i, dude in enumerate(self.dudes):
            b = self.bonus(i)
            rows.append({"shooter": i, "name": dude.name, "bullet_type": dude.bullet_type.value,
                         "bullets": dude.bullets, "stud": b.stud, "draw": b.draw})
        return pd.DataFrame(rows, columns=["shooter", "name", "bullet_type", "bullets", "stud", "draw"])

    def bonus_choices(self) -> list[PosseBonus]:
        """The distinct (stud, draw) bonuses the posse can field, in posse order of first appearance."""
        return list(dict.fromkeys(self.bonus(i) for i in range(len(self.dudes))))

    def casualty_capacity(self) -> int:
        """Most casualties the posse can cover (Rulebook "9. Take Your Lumps")."""
        harrowed = sum(d.harrowed for d in self.dudes)
        return casualty_capacity(len(self.dudes) - harrowed, harrowed)

    def frame(self) -> pd.DataFrame:
        """The dudes: ``name``, ``title``, ``bullet_type``, ``bullets``, ``harrowed``, ``token``, ``shooter`` (bool)."""
        return pd.DataFrame(
            [{"name": d.name, "title": d.title, "bullet_type": d.bullet_type.value, "bullets": d.bullets,
              "harrowed": d.harrowed, "token": d.token, "shooter": i == self.shooter}
             for i, d in enumerate(self.dudes)],
            columns=["name", "title", "bullet_type", "bullets", "harrowed", "token", "shooter"])


def best_shooter(posse: Posse, score: Callable[[PosseBonus], float]) -> tuple[int, PosseBonus]:
    """The shooter whose bonus scores highest (first in posse order on ties), and that bonus.

    ``score`` is evaluated once per distinct bonus (for instance a side's
    P(win) from a kernel); a named shooter (``posse.shooter``) is kept.
    """
    if posse.shooter is not None:
        return posse.shooter, posse.bonus()
    scores: dict[PosseBonus, float] = {}
    best_i, best_score = 0, None
    for i in range(len(posse)):
        b = posse.bonus(i)
        if b not in scores:
            scores[b] = float(score(b))
        if best_score is None or scores[b] > best_score:
            best_i, best_score = i, scores[b]
    return best_i, posse.bonus(best_i)


def _is_title_item(item: str, table: CardTable) -> bool:
    """Whether ``item`` is one whole title item (count, title, ``=stud:N`` override, ``*``)."""
    m = _COUNT.match(item.strip())
    name, _, override = (m.group(2) if m else item).strip().rstrip("*").partition("=")
    return table.find(name.strip()) is not None and (not override or bool(_DIRECT.match(override.strip())))


def _split_items(text: str, table: CardTable) -> list[str]:
    items: list[str] = []
    for line in text.split("\n"):
        items += split_items(strip_comment(line), lambda s: _is_title_item(s, table))
    return items


def _keywords(card: pd.Series) -> set[str]:
    return {k.strip().casefold() for k in str(card["keywords"] or "").split(";")}


def _dude(item: str, where: str, table: CardTable) -> PosseDude:
    name, _, override = item.partition("=")
    name, override = name.strip(), override.strip()
    direct = _DIRECT.match(override or name)
    if override and not direct:
        raise OddsmithError(f"{where}: {override!r} is not stud:N or draw:N")
    if direct and int(direct.group(2) or 0) < 0:
        raise OddsmithError(f"{where}: {direct.group(2)} bullets (bullets cannot be negative)")
    if direct and not override:
        kind, bullets = direct.group(1).casefold(), int(direct.group(2) or 0)
        return PosseDude(f"{kind}:{bullets}", BulletType(kind), bullets)
    card = table.find(name)
    if card is None:
        if direct:  # "Bob=stud:2": a dude of the user's own
            return PosseDude(name, BulletType(direct.group(1).casefold()), int(direct.group(2) or 0))
        hint = table.closest(name)
        raise OddsmithError(f"{where}: {name!r} is neither a dude's title nor stud:N / draw:N"
                            + (f"; did you mean {hint!r}?" if hint else ""))
    if card["type"] != "dude":
        raise OddsmithError(f"{where}: {card['title']!r} is a {card['type']}, not a dude")
    keywords = _keywords(card)
    if direct:
        kind, bullets = direct.group(1).casefold(), int(direct.group(2) or 0)
    else:
        if card["shooter"] not in ("stud", "draw") or card["bullets"] is pd.NA:
            raise OddsmithError(f"{where}: the card table gives no bullets for {card['title']!r}; "
                                f"write {card['title']}=stud:N or =draw:N")
        kind, bullets = str(card["shooter"]), int(card["bullets"])
    return PosseDude(str(card["title"]), BulletType(kind), bullets, title=str(card["title"]),
                     harrowed="harrowed" in keywords, token="token" in keywords)


def parse_posse(spec: str | Iterable[str], *, shooter: int | str | None = None,
                card_table: CardTable | str | Path | None = None, source: str = "posse") -> Posse:
    """A posse from its text (see the module docstring) or a list of item texts.

    ``shooter`` names the shooter (index or name) unless an item is marked
    with ``*``. Errors name ``source`` and the item.
    """
    table = _card_table(card_table)
    items = _split_items(spec, table) if isinstance(spec, str) else [str(s).strip() for s in spec if str(s).strip()]
    dudes: list[PosseDude] = []
    marked: int | None = None
    for pos, item in enumerate(items, start=1):
        where = f"{source}: item {pos} ({item})"
        count = 1
        m = _COUNT.match(item)
        if m:
            count, item = int(m.group(1)), m.group(2).strip()
        if count > MAX_POSSE or len(dudes) + count > MAX_POSSE:
            raise OddsmithError(f"{where}: more than {MAX_POSSE} dudes in one posse")
        star = item.endswith("*")
        dude = _dude(item.rstrip("*").strip(), where, table)
        if star:
            if marked is not None or count != 1:
                raise OddsmithError(f"{where}: only one shooter can be marked with *")
            marked = len(dudes)
        dudes.extend([dude] * count)
    if not dudes:
        raise OddsmithError(f"{source}: no dudes (a posse has at least one)")
    posse = Posse(tuple(dudes), marked)
    if shooter is not None:
        posse = Posse(posse.dudes, posse.index(shooter))
    return posse


def load_posse(spec: str | os.PathLike[str], *, shooter: int | str | None = None,
               card_table: CardTable | str | Path | None = None) -> Posse:
    """A posse from a file (path or ``-``) when one exists, else from ``spec`` as posse text."""
    text = str(spec)
    if text == "-" or (len(text) < 4096 and "\n" not in text and Path(text).is_file()):
        return parse_posse(read_text(text, what="posse file"), shooter=shooter, card_table=card_table,
                           source="stdin" if text == "-" else text)
    return parse_posse(text, shooter=shooter, card_table=card_table)



def posse_from_cards(cards: pd.DataFrame, *, shooter: int | str | None = None,
                     card_table: CardTable | str | Path | None = None) -> Posse:
    """A posse of the dudes among deck rows (columns of :data:`oddsmith.doomtown.deck.DECK_COLUMNS`),
    e.g. ``posse_from_cards(deck.starting_gang())``. Rows that are not dudes are skipped;
    Harrowed and token dudes are recognised by title through the card table."""
    table = _card_table(card_table)
    dudes = []
    for _, row in cards[cards["type"] == "dude"].iterrows():
        name = row["title"] or row["card"]
        if row["shooter"] not in ("stud", "draw") or row["bullets"] is pd.NA:
            raise OddsmithError(f"posse: the bullets of {name} are not known")
        card = table.find(row["title"]) if row["title"] else None
        keywords = _keywords(card) if card is not None else set()
        dudes.append(PosseDude(str(name), BulletType(row["shooter"]), int(row["bullets"]), title=row["title"],
                               harrowed="harrowed" in keywords, token="token" in keywords))
    if not dudes:
        raise OddsmithError("posse: no dudes among these cards")
    posse = Posse(tuple(dudes))
    return posse if shooter is None else Posse(posse.dudes, posse.index(shooter))


def resolve_posse(posse: object) -> Posse | None:
    """Any posse the Python API takes: a :class:`Posse`, a posse file or text (:func:`load_posse`),
    a list of item texts (:func:`parse_posse`) or deck rows (:func:`posse_from_cards`); None stays None."""
    if posse is None or isinstance(posse, Posse):
        return posse
    if isinstance(posse, pd.DataFrame):
        return posse_from_cards(posse)
    if isinstance(posse, (str, os.PathLike)):
        return load_posse(posse)
    if hasattr(posse, "dudes") and hasattr(posse, "bonus"):  # a posse-like object
        return posse  # type: ignore[return-value]
    try:
        items = [str(x) for x in posse]  # type: ignore[union-attr]
    except TypeError:
        raise OddsmithError("a posse is a Posse, a posse file, a posse text or a list of its items") from None
    return parse_posse(items)
