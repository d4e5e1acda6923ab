"""Doomtown posses: the dudes in a shootout, and the stud and draw bonus they give.

A posse is read from a short text (a file or a command-line value), items
separated by ``;``, ``,`` or new lines:

* a card title, through the card table: ``Baker Andrews`` (its bullets and
  stud/draw type and whether it is Harrowed come from the table);
* a dude given directly: ``stud:2``, ``draw:1``, ``stud`` (a 0-bullet stud),
  optionally named: ``Gunslinger=stud:2``; a title with its bullets changed
  (a weapon, say): ``Baker Andrews=stud:3``;
* ``gang``: the deck's own starting gang, the whole posse (:func:`gang_posse`;
  wherever a deck is known: ``--posse gang``, ``resolve_posse("gang", deck=...)``);
* a count: ``2x Gunslinger``, ``3x draw``;
* a trailing ``*`` names the shooter: ``Baker Andrews*``;
* per-dude flags in square brackets after the dude (what a whole shootout needs,
  :mod:`oddsmith.doomtown.full_shootout`): ``harrowed``, ``token``, ``booted``,
  ``bounty:N``, ``influence:N`` (also ``value:N``, ``cost:N`` for the Automaton's
  priorities), e.g. ``Baker Andrews [bounty:2 booted]``, ``stud:1 [harrowed]``;
  a title's Harrowed and Token keywords, influence, value and cost come from the
  card table;
* attached Sidekicks after ``+``: ``Allie Hensman + Faithful Hound`` (a title
  with the Sidekick keyword) or ``+ sidekick`` (one without a card); ``+ 2x
  sidekick`` attaches two.

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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

import pandas as pd

from oddsmith.doomtown.cardtable import CardTable, card_table as _card_table, split_items, title_key
from oddsmith.textinput import read_text, strip_comment
from oddsmith.errors import OddsmithError
from oddsmith.rules.doomtown import (
    DUDE_NUMBER_MAX,
    NUMBER_MIN,
    BulletType,
    Gunslinger,
    PosseBonus,
    Suit,
    automaton_shooter_key,
    card_code,
    casualty_capacity,
    posse_bonus,
)
from oddsmith.notebook import notebook_view

#: Most dudes read into one posse (far beyond any table's gang; stops runaway counts).
MAX_POSSE = 100

_DIRECT = re.compile(r"^(stud|draw)\s*(?:[:= ]\s*(-?\d+))?$", re.IGNORECASE)
_COUNT = re.compile(r"^(\d+)\s*[x×*]\s*(.+)$", re.IGNORECASE)
_FLAGS = re.compile(r"^(.*?)\s*\[([^\]]*)\]\s*(\*?)\s*$", re.DOTALL)
_FLAG = re.compile(r"(harrowed|token|booted|bounty|influence|value|cost)\b\s*(?:[:=]?\s*(-?\d+))?", re.IGNORECASE)
_NUMBER_FLAGS = ("bounty", "influence", "value", "cost")
#: Most Sidekicks on one dude.
MAX_SIDEKICKS = 8


def check_dude_number(value: object, what: str, where: str) -> int:
    """``value`` as a per-dude number (bullets, bounty, influence, value, cost), refused outside
    NUMBER_MIN..DUDE_NUMBER_MAX (:data:`oddsmith.rules.doomtown.DUDE_NUMBER_MAX`) with one line."""
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(value)  # type: ignore[call-overload]
        except (TypeError, ValueError, OverflowError):
            raise OddsmithError(f"{where}: {what} {str(value)[:20]!r} is not a whole number") from None
    if value < NUMBER_MIN:
        raise OddsmithError(f"{where}: {what} {value} ({what} cannot be negative)")
    if value > DUDE_NUMBER_MAX:
        shown = str(value) if len(str(value)) <= 20 else str(value)[:12] + "..."
        raise OddsmithError(f"{where}: {what} {shown} is out of range (a dude's numbers are "
                            f"{NUMBER_MIN}..{DUDE_NUMBER_MAX})")
    return value


def _number(text: str, what: str, where: str) -> int:
    """A per-dude number typed by the user (``bounty:N``, ``stud:N``): checked by length before
    it is read, then against the one range (:func:`check_dude_number`)."""
    if len(text.lstrip("-")) > len(str(DUDE_NUMBER_MAX)) + 1:
        shown = text if len(text) <= 20 else text[:12] + "..."
        raise OddsmithError(f"{where}: {what} {shown} is out of range (a dude's numbers are "
                            f"{NUMBER_MIN}..{DUDE_NUMBER_MAX})")
    return check_dude_number(int(text), what, where)


def _whole(text: str, where: str, high: int, unit: str) -> int:
    """A count typed by the user (``2x``), checked against ``high`` before anything is built:
    a 20-digit count never becomes a list, and never an OverflowError."""
    if len(text) > len(str(high)) or int(text) > high:
        shown = text if len(text) <= 20 else text[:12] + "..."
        raise OddsmithError(f"{where}: count {shown}: more than {high} {unit}")
    return int(text)


@dataclass(frozen=True)
class Sidekick:
    """A card with the Sidekick keyword attached to a posse dude (Rulebook "9. Take Your
    Lumps": discarding it covers 1 casualty). ``code``: its kernel card code (None: no card)."""

    name: str
    title: str | None = None
    code: int | None = None
    cost: int = 0


@dataclass(frozen=True)
class PosseDude:
    """One dude in a posse: bullets and bullet type (stud or draw)."""

    name: str
    bullet_type: BulletType
    bullets: int
    title: str | None = None
    harrowed: bool = False
    token: bool = False
    sidekicks: tuple[Sidekick, ...] = ()
    bounty: int = 0
    influence: int = 0
    booted: bool = False
    value: int = 0
    """The card's value (0 for a dude given directly): the Automaton's tie-break."""
    cost: int = 0
    code: int | None = None
    """Kernel code of the dude's card (None for a dude given directly or a token)."""

    def __post_init__(self) -> None:
        for what in ("bullets",) + _NUMBER_FLAGS:
            check_dude_number(getattr(self, what), what, f"posse: {self.name}")
        for kick in self.sidekicks:
            check_dude_number(kick.cost, "cost", f"posse: {self.name}'s Sidekick {kick.name}")

    @property
    def gunslinger(self) -> Gunslinger:
        return Gunslinger(self.bullets, self.bullet_type)

    def __str__(self) -> str:
        return f"{self.name} ({self.bullets} {self.bullet_type.value})"


@notebook_view
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
        sidekicks = sum(len(d.sidekicks) for d in self.dudes)
        return casualty_capacity(len(self.dudes) - harrowed, harrowed, sidekicks)

    def frame(self) -> pd.DataFrame:
        """The dudes: ``name``, ``title``, ``bullet_type``, ``bullets``, ``harrowed``, ``token``,
        ``shooter`` (bool), ``sidekicks`` (their names, ``;`` separated), ``bounty``,
        ``influence``, ``booted``, ``value``, ``cost``."""
        cols = ["name", "title", "bullet_type", "bullets", "harrowed", "token", "shooter", "sidekicks", "bounty",
                "influence", "booted", "value", "cost"]
        return pd.DataFrame(
            [{"name": d.name, "title": d.title, "bullet_type": d.bullet_type.value, "bullets": d.bullets,
              "harrowed": d.harrowed, "token": d.token, "shooter": i == self.shooter,
              "sidekicks": "; ".join(k.name for k in d.sidekicks), "bounty": d.bounty, "influence": d.influence,
              "booted": d.booted, "value": d.value, "cost": d.cost}
             for i, d in enumerate(self.dudes)], columns=cols)

    def titles_in_play(self) -> list[str]:
        """Titles of the posse's cards in play (dudes that are not tokens, and Sidekicks), one
        per card: the cards that are not in their owner's deck."""
        out = []
        for d in self.dudes:
            if d.title and not d.token and d.code is not None:
                out.append(d.title)
            out.extend(k.title for k in d.sidekicks if k.title)
        return out


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


def automaton_shooter(posse: Posse) -> int:
    """Index of the dude the Automaton picks as its shooter (Rulebook "Automaton Variant",
    "Shootout Hands": {more than one stud}, {highest bullets}, {unbooted}, {lowest influence};
    then "Automaton Decisions": the highest value, first alphabetically)."""
    return min(range(len(posse.dudes)), key=lambda i: automaton_shooter_key(
        posse.dudes[i].bullets, posse.dudes[i].bullet_type, posse.dudes[i].booted, posse.dudes[i].influence,
        posse.dudes[i].value, posse.dudes[i].name))


def _is_title_item(item: str, table: CardTable) -> bool:
    """Whether ``item`` is one whole title item (count, title, ``=stud:N`` override, ``*``,
    flags, Sidekicks)."""
    m = _COUNT.match(item.strip())
    head, *kicks = (m.group(2) if m else item).split("+")
    for kick in kicks:
        k = _COUNT.match(kick.strip())
        kick = (k.group(2) if k else kick).strip().rstrip("*").strip()
        if kick.casefold() not in ("sidekick", "sidekicks") and table.find(kick) is None:
            return False
    name, _, override = head.split("[")[0].strip().rstrip("*").partition("=")
    return table.find(name.strip()) is not None and (not override or bool(_DIRECT.match(override.strip())))


def _split_items(text: str, table: CardTable) -> list[str]:
    items: list[str] = []
    for line in text.split("\n"):
        # separators inside [flags] are not item separators
        line = re.sub(r"\[[^\]]*\]", lambda m: m.group(0).replace(",", " ").replace(";", " "), strip_comment(line))
        items += split_items(line, lambda s: _is_title_item(s, table))
    return items


def _keywords(card: pd.Series) -> set[str]:
    return {k.strip().casefold() for k in str(card["keywords"] or "").split(";")}


def _card_code(card: pd.Series) -> int | None:
    if card["suit"] is pd.NA or card["value"] is pd.NA or card["suit"] is None:
        return None
    return card_code(int(card["value"]), Suit[str(card["suit"]).upper()])


def _int(card: pd.Series, col: str) -> int:
    v = card[col]
    return 0 if v is pd.NA or v is None else int(v)


def _flags(text: str, where: str) -> dict[str, object]:
    """``harrowed``, ``token``, ``booted``, ``bounty:N``, ``influence:N``, ``value:N``, ``cost:N``."""
    out: dict[str, object] = {}
    rest = _FLAG.sub(" ", text)
    if rest.strip():
        raise OddsmithError(f"{where}: {rest.strip()!r} is not a dude flag (use harrowed, token, booted, bounty:N, "
                            f"influence:N, value:N, cost:N)")
    for m in _FLAG.finditer(text):
        flag, number = m.group(1).casefold(), m.group(2)
        if flag in _NUMBER_FLAGS:
            if number is None:
                raise OddsmithError(f"{where}: {flag} needs a number, e.g. {flag}:1")
            out[flag] = _number(number, flag, where)
        elif number is not None:
            raise OddsmithError(f"{where}: {flag} takes no number")
        else:
            out[flag] = True
    return out


def _is_sidekick(card: pd.Series) -> bool:
    return "sidekick" in _keywords(card)


def _sidekicks(parts: list[str], where: str, table: CardTable) -> tuple[Sidekick, ...]:
    out: list[Sidekick] = []
    for part in parts:
        text = part.strip()
        if not text:
            raise OddsmithError(f"{where}: nothing after '+' (write '+ sidekick' or a Sidekick's title)")
        count = 1
        m = _COUNT.match(text)
        if m:
            count = _whole(m.group(1), where, MAX_SIDEKICKS, "Sidekicks on one dude")
            text = m.group(2).strip()
        if len(out) + count > MAX_SIDEKICKS:
            raise OddsmithError(f"{where}: more than {MAX_SIDEKICKS} Sidekicks on one dude")
        if text.casefold() in ("sidekick", "sidekicks"):
            kick = Sidekick("Sidekick")
        else:
            card = table.find(text)
            if card is None:
                hint = table.closest(text)
                raise OddsmithError(f"{where}: {text!r} is neither a Sidekick's title nor 'sidekick'"
                                    + (f"; did you mean {hint!r}?" if hint else ""))
            if not _is_sidekick(card):
                raise OddsmithError(f"{where}: {card['title']!r} has no Sidekick keyword (only Sidekicks attach "
                                    f"with '+')")
            kick = Sidekick(str(card["title"]), str(card["title"]), _card_code(card), _int(card, "cost"))
        out.extend([kick] * count)
    if len(out) > MAX_SIDEKICKS:
        raise OddsmithError(f"{where}: more than {MAX_SIDEKICKS} Sidekicks on one dude")
    return tuple(out)


def _dude(item: str, where: str, table: CardTable) -> PosseDude:
    """One dude with its flags and Sidekicks (``Title [flags] + Sidekick``)."""
    head, *kicks = item.split("+")
    if not head.strip():
        raise OddsmithError(f"{where}: a Sidekick on nothing (attach it to a dude: 'Dude + {kicks[0].strip()}')"
                            if kicks else f"{where}: empty item")
    flags: dict[str, object] = {}
    m = _FLAGS.match(head.strip())
    if m:
        head = m.group(1)
        flags = _flags(m.group(2), where)
    elif "[" in head or "]" in head:
        raise OddsmithError(f"{where}: flags go in one pair of square brackets after the dude, e.g. [harrowed bounty:1]")
    dude = _plain_dude(head.strip().rstrip("*").strip(), where, table)
    sidekicks = _sidekicks(kicks, where, table)
    return replace(dude, sidekicks=sidekicks,
                   harrowed=bool(flags.get("harrowed", dude.harrowed)), token=bool(flags.get("token", dude.token)),
                   booted=bool(flags.get("booted", False)), bounty=int(flags.get("bounty", 0)),  # type: ignore[arg-type]
                   influence=int(flags.get("influence", dude.influence)),  # type: ignore[arg-type]
                   value=int(flags.get("value", dude.value)), cost=int(flags.get("cost", dude.cost)),  # type: ignore[arg-type]
                   code=None if flags.get("token", dude.token) else dude.code)


def _plain_dude(item: str, where: str, table: CardTable) -> PosseDude:
    name, _, override = item.partition("=")
    name, override = name.strip(), override.strip()
    direct = _DIRECT.match(override or name)
    if override and not direct:
        raise OddsmithError(f"{where}: {override!r} is not stud:N or draw:N")
    if direct and (direct.group(2) or "").startswith("-"):
        raise OddsmithError(f"{where}: {direct.group(2)[:12]} bullets (bullets cannot be negative)")
    if direct:
        _number(direct.group(2) or "0", "bullets", where)
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
        if _is_sidekick(card):
            raise OddsmithError(f"{where}: a Sidekick on nothing: {card['title']!r} is a Sidekick; attach it to a "
                                f"dude ('Dude + {card['title']}')")
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
                     harrowed="harrowed" in keywords, token="token" in keywords,
                     influence=_int(card, "influence"), value=_int(card, "value"), cost=_int(card, "cost"),
                     code=None if "token" in keywords else _card_code(card))


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
        where = f"{source}: item {pos} ({item if len(item) <= 60 else item[:50] + '...'})"
        count = 1
        m = _COUNT.match(item)
        if m:
            count = _whole(m.group(1), where, MAX_POSSE, "dudes in one posse")
            item = m.group(2).strip()
        if count > MAX_POSSE or len(dudes) + count > MAX_POSSE:
            raise OddsmithError(f"{where}: more than {MAX_POSSE} dudes in one posse")
        star = item.endswith("*") or item.split("+")[0].split("[")[0].strip().endswith("*")
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


#: The posse spec that means the deck's own starting gang (``--posse gang``).
GANG_SPECS = ("gang", "starting gang")


def is_gang(spec: object) -> bool:
    """Whether ``spec`` is ``gang``: the deck's own starting gang (case and spacing aside)."""
    return isinstance(spec, str) and " ".join(spec.split()).casefold() in GANG_SPECS


def gang_posse(deck: object, *, shooter: int | str | None = None, source: str = "posse") -> Posse:
    """The deck's own starting gang as a posse (``--posse gang``): the dudes the deck list puts in
    its starting gang, whether set-up has put them into play or ``--with-gang`` kept them in the
    deck (Rulebook "Setting Up the Game", 4. Choose Starting Dudes)."""
    if deck is None:
        raise OddsmithError(f"{source} gang: the deck's own starting gang, but no deck was given")
    from oddsmith.doomtown.deck import deck_label, resolve_deck

    resolved = resolve_deck(deck)
    starting = getattr(resolved, "starting_gang", None)
    rows = starting() if callable(starting) else None
    if rows is None or rows.empty:
        raise OddsmithError(f"{source} gang: {deck_label(resolved)} lists no starting gang (a deck list by titles "
                            f"with a 'Starting Gang' section, or a CSV with a starting column)")
    try:
        return posse_from_cards(rows, shooter=shooter, card_table=getattr(resolved, "table", None))
    except OddsmithError as exc:
        raise OddsmithError(f"{source} gang ({deck_label(resolved)}): {exc}") from None


def load_posse(spec: str | os.PathLike[str], *, shooter: int | str | None = None,
               card_table: CardTable | str | Path | None = None, source: str = "posse",
               deck: object = None) -> Posse:
    """A posse from a file (path or ``-``) when one exists, else from ``spec`` as posse text
    (errors name ``source``); ``gang`` is ``deck``'s own starting gang (:func:`gang_posse`)."""
    text = str(spec)
    if is_gang(text) and not Path(text).is_file():
        return gang_posse(deck, shooter=shooter, source=source)
    if text == "-" or (len(text) < 4096 and "\n" not in text and Path(text).is_file()):
        return parse_posse(read_text(text, what="posse file"), shooter=shooter, card_table=card_table,
                           source="stdin" if text == "-" else text)
    return parse_posse(text, shooter=shooter, card_table=card_table, source=source)



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
                               harrowed="harrowed" in keywords, token="token" in keywords,
                               influence=_int(card, "influence") if card is not None else 0,
                               value=int(row["value"]) if row["value"] is not pd.NA else 0,
                               cost=_int(card, "cost") if card is not None else 0,
                               code=None if "token" in keywords else int(row["code"])))
    if not dudes:
        raise OddsmithError("posse: no dudes among these cards")
    posse = Posse(tuple(dudes))
    return posse if shooter is None else Posse(posse.dudes, posse.index(shooter))


def resolve_posse(posse: object, *, deck: object = None) -> Posse | None:
    """Any posse the Python API takes: a :class:`Posse`, a posse file or text (:func:`load_posse`),
    ``"gang"`` (``deck``'s own starting gang, :func:`gang_posse`), a list of item texts
    (:func:`parse_posse`) or deck rows (:func:`posse_from_cards`); None stays None."""
    if posse is None or isinstance(posse, Posse):
        return posse
    if isinstance(posse, pd.DataFrame):
        return posse_from_cards(posse)
    if isinstance(posse, (str, os.PathLike)):
        return load_posse(posse, deck=deck)
    if hasattr(posse, "dudes") and hasattr(posse, "bonus"):  # a posse-like object
        return posse  # type: ignore[return-value]
    try:
        items = [str(x) for x in posse]  # type: ignore[union-attr]
    except TypeError:
        raise OddsmithError("a posse is a Posse, a posse file, a posse text or a list of its items") from None
    return parse_posse(items)
