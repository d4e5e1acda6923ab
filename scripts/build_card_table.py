"""Regenerate oddsmith/data/wwe-cards.csv from ../shared/data/wwe-cards.csv.

The package ships the Weird West Edition card facts (titles, types,
factions, suits, values, shooter type, bullets, influence, control, costs,
upkeep, production, starting ghost rock, keywords, copies in the box) and
nothing else: no rules text. This script keeps only those columns, checks
every row (so a bad source row fails here, not at a user's table), and
writes the rows in card-code order.

    python scripts/build_card_table.py [SOURCE] [TARGET]
"""
from __future__ import annotations

import csv
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "data" / "wwe-cards.csv"
TARGET = ROOT / "oddsmith" / "data" / "wwe-cards.csv"

# Facts only, in this order. Any other source column (for instance a card's
# text) is dropped, so rules text can never reach the package.
COLUMNS = (
    "code", "title", "type", "faction", "suit", "value", "shooter", "bullets",
    "influence", "control", "cost", "upkeep", "production", "starting_ghost_rock",
    "keywords", "copies_in_box",
)
TYPES = {"outfit", "dude", "deed", "goods", "spell", "action", "joker"}
SUITS = {"Spades", "Hearts", "Diams", "Clubs"}
SHOOTERS = {"", "Stud", "Draw", "Bonus"}
INTEGER_COLUMNS = ("code", "value", "bullets", "influence", "control", "cost", "upkeep",
                   "production", "starting_ghost_rock", "copies_in_box")
MAX_KEYWORDS_CHARS = 120  # keywords are short tags; a long cell would be card text


def check_row(row: dict[str, str], where: str) -> None:
    if row["type"] not in TYPES:
        raise SystemExit(f"{where}: unknown type {row['type']!r}")
    for col in INTEGER_COLUMNS:
        if row[col] and not row[col].lstrip("-").isdigit():
            raise SystemExit(f"{where}: {col} {row[col]!r} is not a whole number")
    valued = row["type"] not in ("outfit", "joker")
    if valued != (row["suit"] in SUITS) or valued != bool(row["value"]):
        raise SystemExit(f"{where}: suit/value {row['suit']!r}/{row['value']!r} do not fit type {row['type']}")
    if row["value"] and not 1 <= int(row["value"]) <= 13:
        raise SystemExit(f"{where}: value {row['value']} outside 1..13")
    if row["shooter"] not in SHOOTERS or (row["type"] == "dude") != (row["shooter"] in ("Stud", "Draw")):
        raise SystemExit(f"{where}: shooter {row['shooter']!r} does not fit type {row['type']}")
    if len(row["keywords"]) > MAX_KEYWORDS_CHARS:
        raise SystemExit(f"{where}: keywords cell is {len(row['keywords'])} characters: card text?")


def build(source: Path = SOURCE, target: Path = TARGET) -> int:
    with open(source, newline="", encoding="utf-8") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
        if missing:
            raise SystemExit(f"{source}: missing columns {missing}")
        rows = [{c: (r[c] or "").strip() for c in COLUMNS} for r in reader]
    titles = set()
    for i, row in enumerate(rows, start=2):
        check_row(row, f"{source}:{i}")
        if row["title"] in titles:
            raise SystemExit(f"{source}:{i}: duplicate title {row['title']!r}")
        titles.add(row["title"])
    rows.sort(key=lambda r: int(r["code"]))
    tmp = target.with_suffix(".csv.part")
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    tmp.replace(target)
    return len(rows)


if __name__ == "__main__":
    args = [Path(a) for a in sys.argv[1:3]]
    n = build(*args)
    print(f"wrote {n} cards to {args[1] if len(args) > 1 else TARGET}")
