"""Events tables ("Unexpected Events", "Supernatural Events", "Unwelcome Guests"), Scenarios and Agendas.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from oddsmith.errors import OddsmithError
from oddsmith.rules.shadows.arcane import Entity

# ---------------------------------------------------------------------------
# Events tables ("Unexpected Events", "Supernatural Events", "Unwelcome Guests")
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableEntry:
    """One row of a rolled table: the roll(s) it covers, its name and the book's effect text.

    ``name``/``effect`` are ``None`` where this rulebook text lists the roll
    but not its entry (a truncated row) or lists nothing for it.
    """

    low: int
    high: int
    name: str | None
    effect: str | None = None

    def covers(self, roll: int) -> bool:
        return self.low <= roll <= self.high


@dataclass(frozen=True)
class RollTable:
    """A table rolled on a die: ``die`` faces, entries in book order."""

    name: str
    die: int
    entries: tuple[TableEntry, ...]
    section: str

    def entry(self, roll: int) -> TableEntry:
        for e in self.entries:
            if e.covers(roll):
                return e
        raise OddsmithError(f"{self.name}: no entry for a roll of {roll} (the table is rolled on a D{self.die})")

    def listed(self, roll: int) -> bool:
        return any(e.covers(roll) and e.name is not None for e in self.entries)


def _table(name: str, die: int, section: str, rows: Iterable[tuple]) -> RollTable:
    entries = []
    for row in rows:
        roll, title, *rest = row
        low, high = (roll, roll) if isinstance(roll, int) else roll
        entries.append(TableEntry(low, high, title, rest[0] if rest else None))
    return RollTable(name, die, tuple(entries), section)


UNEXPECTED_EVENTS = _table("Unexpected Events", 6, "Unexpected Events", [
    (1, "'Ornery Critter!", "A random model not Downed or engaged makes an immediate 5+ Save."),
    (2, "Armed Civilians", "An unmodified 2 Dice Shooting Test with Grit D6 against all visible models within 6\" of a random "
        "empty terrain piece; no Reactions."),
    (3, "Dust Storm", "Visibility drops to a maximum of 12\" until the end of the Turn."),
    (4, "Bad Omen", "A random model not Downed suffers an additional -1 Save Modifier until the end of this Turn."),
    (5, "Hero of the Hour", "A random model not Downed may immediately Activate for any one Action, even if Done."),
    (6, "Lucky Find", None),
])
"""Rolled on a D6 when identical cards are revealed; at most one Event per Game Turn. The book text stops at
"Lucky Find" without its effect."""

SUPERNATURAL_EVENTS = _table("Supernatural Events", 6, "Supernatural Events", [
    (1, "Armed Civilians", "An unmodified 2 Dice Shooting Test with Grit D6 against all visible models within 6\" of a random "
        "empty terrain piece; no Reactions."),
    (2, "Unnatural Gloom", "Visibility 12\" for all non-Supernatural models until the end of this Game Turn."),
    (3, "Haunted!", "Non-Supernatural models not Downed in a random occupied terrain piece pass a 1 Die Nerve Test or leave it."),
    (4, "Let There Be Light", "All Supernatural models suffer -1 Die on all Tests until the end of this Game Turn."),
    (5, "Arcane Storm", "+1 Die to Cast until the end of this Game Turn; a Miscast makes the Caster a Casualty."),
    (6, None, None),
])
"""Used instead of Unexpected Events; the D6 result 6 is not in this rulebook text (the Bestiary is rolled on an
"Unwelcome Guest" result)."""

UNWELCOME_GUESTS = _table("Unwelcome Guests", 10, "Unwelcome Guests: A Bestiary", [
    (1, "Jackalope"), (2, "Chupacabra"), (3, "Vampire Fledgling"), (4, "Hellhound"), (5, "Sasquatch"),
    (6, "Zombie"), (7, "Lost Soul"), (8, "Manitou"), (9, "Pale Rider"), (10, "Vampire Ancient"),
])

BESTIARY: dict[str, Entity] = {e.name: e for e in (
    Entity("Jackalope", 20, 6, 6, "Bull-Rush.", ("Bull-Rush",)),
    Entity("Chupacabra", 20, 6, 6, "Always moves towards the closest visible Downed enemy; a Downed model it Contacts becomes "
           "a Casualty."),
    Entity("Vampire Fledgling", 25, 6, 6, "Mean.", ("Mean",)),
    Entity("Hellhound", 25, 6, 6, "Entity. Fearsome.", ("Fearsome",)),
)}
"""Creature profiles this rulebook text gives (its Bestiary stops at the Sasquatch)."""

ZOMBIE_OUTBREAK = "D5+3"
INNOCENT_BYSTANDERS = "D3+2"

SCENARIOS = _table("Scenarios", 8, "Choose a Scenario and Set Up the Table", [
    (1, "Stake a Claim", "The Posses vie for important territory."),
    (2, "A Fistful of Loot", "The Posses compete for valuable Loot."),
    (3, "Shootout!", "A meeting between rival Bosses in neutral territory becomes a fight to the death!"),
    (4, "The Getaway", "Can your Posse escape with their Loot?"),
    (5, "Showdown", "A standard face-off between rival Posses."),
    (6, "Bonanza!", "The Posses race to find a vital item hidden somewhere in the local area."),
    (7, "Escalation", "A chance meeting between rival Posses soon erupts into a pitched gunfight!"),
    (8, None, None),
])

AGENDAS = _table("Agendas", 6, "Agendas", [
    (1, "Vendetta", "If your Boss causes their chosen Rival Boss to become a Casualty, +2 VP."),
    (2, "Divided Loyalties", "If the chosen enemy Boss is still in play at the end, +2 VP."),
    (3, "The VIP", "If your VIP is on the table and held by your model at the end, +2 VP."),
    (4, "Blaze of Glory", "If your secretly chosen model is Downed or a Casualty by the end, +1 VP."),
    (5, "The Message", "The Posse carrying the message at the end earns +1 VP."),
    (6, None, None),
])
