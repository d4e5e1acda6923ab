"""The formats a deck file comes in (oddsmith/doomtown/deck_lists.py reads them).

Kept apart from the readers, which need the rules and the card table: `oddsmith deck show
--format` takes this Enum as its option type, and the command line builds its options
without loading either (docs/design.md, 'Start-up')."""
from __future__ import annotations

import enum


class DeckFormat(str, enum.Enum):
    """Deck file formats (see oddsmith/doomtown/deck_lists.py)."""

    cards = "cards"
    valuesuit = "valuesuit"
    csv = "csv"
    titles = "titles"
