"""Reading a page's question from its query string, with every bound checked.

Every page keeps its whole state in the URL (GET), so an answer can be shared
and reproduced, seed included. Each value is read once here, checked against
its range, and a bad one raises :class:`BadInput` (an
:class:`~oddsmith.errors.OddsmithError`) naming the field: the page shows the
message and answers HTTP 400. The limits bound the work one request can ask
for (trials, paste size), so no request can hang the server.
"""
from __future__ import annotations

import unicodedata
from typing import Iterable, Mapping

from oddsmith.errors import OddsmithError

#: Largest pasted deck list or posse file, in characters (a deck list by titles is about 2,000).
MAX_PASTE = 20_000
#: Largest value of any one query field other than a paste (names, grids, card lists).
MAX_FIELD = 400
#: Largest seed (the seeds the CLI records fit in 63 bits).
MAX_SEED = (1 << 63) - 1


class BadInput(OddsmithError):
    """A field of the query string is missing, malformed or out of range (HTTP 400)."""

    def __init__(self, message: str, field: str = "", status: int = 400) -> None:
        super().__init__(message)
        self.field, self.status = field, status


class Query:
    """Typed, bounded access to a page's query parameters (missing or empty: the default)."""

    def __init__(self, params: Mapping[str, str]) -> None:
        self.params = params

    def _raw(self, name: str, limit: int = MAX_FIELD) -> str | None:
        value = self.params.get(name)
        if value is None:
            return None
        if len(value) > limit:
            raise BadInput(f"{name}: too long ({len(value):,} characters; at most {limit:,})", name, status=413)
        if any(unicodedata.category(ch) == "Cc" and ch not in "\n\t\r" for ch in value) or "\ufffd" in value:
            raise BadInput(f"{name}: not text (control characters or undecodable bytes)", name)
        value = value.strip()
        return value or None

    def text(self, name: str, default: str | None = None, *, limit: int = MAX_FIELD) -> str | None:
        value = self._raw(name, limit)
        return default if value is None else value

    def paste(self, name: str) -> str | None:
        """A pasted file (deck list, posse TOML): at most :data:`MAX_PASTE` characters."""
        value = self._raw(name, MAX_PASTE)
        return None if value is None else value.replace("\r\n", "\n").replace("\r", "\n")

    def choice(self, name: str, choices: Iterable[str], default: str) -> str:
        choices = list(choices)
        value = self._raw(name)
        if value is None:
            return default
        folded = value.casefold()
        for c in choices:
            if c.casefold() == folded:
                return c
        raise BadInput(f"{name}: {value!r} is not one of {', '.join(choices)}", name)

    def integer(self, name: str, default: int | None, lo: int, hi: int) -> int | None:
        value = self._raw(name)
        if value is None:
            return default
        try:
            number = int(value.replace(",", "").replace("_", ""))
        except ValueError:
            raise BadInput(f"{name}: {value!r} is not a whole number", name) from None
        if not lo <= number <= hi:
            raise BadInput(f"{name}: {number:,} is out of range ({lo:,} to {hi:,})", name)
        return number

    def flag(self, name: str) -> bool:
        value = self._raw(name)
        if value is None:
            return False
        if value.casefold() in ("1", "on", "true", "yes"):
            return True
        if value.casefold() in ("0", "off", "false", "no"):
            return False
        raise BadInput(f"{name}: {value!r} is not on or off", name)

    def seed(self) -> int | None:
        """The seed; None when the URL has none (the page then picks one and puts it in the URL)."""
        return self.integer("seed", None, 0, MAX_SEED)


def grid(text: str, what: str, hi: int) -> tuple[int, ...]:
    """A bonus grid: ``0-3``, ``0,2,4`` or ``2``; each value 0..hi, at most hi + 1 values."""
    values: list[int] = []
    try:
        for part in text.replace(" ", "").split(","):
            if "-" in part:
                a, b = (int(x) for x in part.split("-", 1))
                values += list(range(a, b + 1))
            elif part:
                values.append(int(part))
    except ValueError:
        raise BadInput(f"{what}: {text!r} is not a range (0-3), a list (0,2,4) or one value", what) from None
    if not values:
        raise BadInput(f"{what}: give at least one value", what)
    bad = [v for v in values if not 0 <= v <= hi]
    if bad:
        raise BadInput(f"{what}: {bad[0]} is out of range (0 to {hi})", what)
    return tuple(dict.fromkeys(values))


def grid_text(values: Iterable[int]) -> str:
    """A grid as the form writes it: ``0-3`` for a run, else ``0,2,4``."""
    values = list(values)
    if len(values) > 1 and values == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return ",".join(map(str, values))
