"""Name lookups: what a user types, matched leniently, with a suggestion for an unknown name.

Part of :mod:`oddsmith.rules.shadows` (docs/rules-shadows.md); every name is importable from there.
"""
from __future__ import annotations

import difflib
import functools
import re
from typing import Mapping, TypeVar

from oddsmith.errors import OddsmithError

T = TypeVar("T")

# ---------------------------------------------------------------------------
# Name lookups
# ---------------------------------------------------------------------------


def normalize_name(text: str) -> str:
    """Fold a typed name: lower case, no spaces, hyphens, underscores, apostrophes or dots."""
    return _fold(str(text))


@functools.lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    # Cached: preparing one battle looks rules up by name thousands of times (docs/speed.md, 'Reports').
    return _PUNCTUATION.sub("", text.strip().lower().replace("\u2019", "'"))


_PUNCTUATION = re.compile(r"[\s\-_'.\"]+")


@functools.lru_cache(maxsize=512)
def _folded_keys(keys: tuple, aliases: tuple) -> tuple[dict, dict]:
    """Folded name -> book name, and folded name -> how to show it, for one table's keys and aliases."""
    folded = {normalize_name(k): k for k in keys}
    shown = {f: repr(k) for f, k in folded.items()}
    for alias, target in aliases:
        folded.setdefault(normalize_name(alias), target)
        shown.setdefault(normalize_name(alias), f"{alias!r} ({target})")
    return folded, shown


def lookup(kind: str, name: str, table: Mapping[str, T], aliases: Mapping[str, str] | None = None) -> T:
    """Find ``name`` among ``table``'s keys (book names), case- and punctuation-blind.

    Raises :class:`OddsmithError` naming the unknown ``kind`` and the closest
    book name (difflib) when nothing matches.
    """
    folded, shown = _folded_keys(tuple(table), tuple((aliases or {}).items()))
    key = normalize_name(name)
    if key in folded:
        return table[folded[key]]
    close = difflib.get_close_matches(key, list(folded), n=1, cutoff=0.5)
    hint = f" (did you mean {shown[close[0]]}?)" if close else ""
    known = ", ".join(table)
    raise OddsmithError(f"unknown {kind} {str(name)!r}{hint}; known: {known}")
