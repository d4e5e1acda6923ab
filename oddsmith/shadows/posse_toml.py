"""The TOML layer of posse files: reading the text safely, checking value types, house Weapon tables.

Part of the posse analyses (:mod:`oddsmith.shadows.posse`, where every name here is importable too).
A posse file is read with the standard library's ``tomllib`` (on Python 3.10 the ``tomli`` package, if
installed), after a scan that refuses nesting deeper than :data:`MAX_NESTING` without recursing.
"""
from __future__ import annotations

import re
from typing import Any

from oddsmith.errors import OddsmithError
from oddsmith.rules import shadows as R

try:  # Python 3.11+
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    try:
        import tomli as _toml  # type: ignore[no-redef]
    except ModuleNotFoundError:
        _toml = None  # type: ignore[assignment]


_HOUSE_WEAPON_KEYS = {"short", "medium", "long", "jam_die", "shots", "short_dice_mod", "medium_dice_mod",
                      "long_dice_mod", "short_save_mod", "medium_save_mod", "long_save_mod"}
_HOUSE_WEAPON_REQUIRED = ("short", "medium", "long", "jam_die")


def _toml_module():
    if _toml is None:  # pragma: no cover - Python 3.10 without tomli
        raise OddsmithError("reading posse files needs Python 3.11+ (tomllib) or the 'tomli' package on Python 3.10")
    return _toml


MAX_NESTING = 8
"""Deepest nesting of arrays, inline tables and dotted keys a posse file may use (it needs 3: a [[model]]
entry, its list of weapons, a name). TOML readers recurse once per level, so a file nested hundreds of
levels deep would end in a RecursionError; it is refused first, in one line."""


def _bracket_depth(text: str) -> tuple[int, int]:
    """(deepest nesting of [ and { outside strings and comments, its line), in one pass without recursion."""
    depth = deepest = 0
    line = where = 1
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif c in "\"'":
            quote = text[i:i + 3] if text[i:i + 3] in ('"""', "'''") else c
            j = i + len(quote)
            while j < n and text[j:j + len(quote)] != quote:
                if c == '"' and text[j] == "\\":
                    j += 1
                elif text[j] == "\n":
                    if len(quote) == 1:
                        break  # an unclosed string: the TOML reader names it
                    line += 1
                j += 1
            i = j if j < n and text[j] == "\n" else j + len(quote)
            continue
        elif c in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, line
        elif c in "]}":
            depth = max(depth - 1, 0)
        i += 1
    return deepest, where


def _data_depth(data: Any) -> int:
    """Deepest nesting of the parsed tables and arrays (dotted keys nest without brackets), without recursion."""
    deepest = 0
    stack = [(data, 0)]
    while stack:
        value, d = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, d + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, d + 1) for v in value)
        else:
            continue
        deepest = max(deepest, d + 1)
        if deepest > MAX_NESTING:
            break
    return deepest


def parse_toml(text: str, source: str = "<posse>") -> dict[str, Any]:
    """TOML text to a dict; a syntax error names the file, line and column; nesting deeper than
    :data:`MAX_NESTING` is refused before the TOML reader can recurse into it."""
    toml = _toml_module()
    deepest, line = _bracket_depth(text)
    if deepest > MAX_NESTING:
        raise OddsmithError(f"posse file {source}: arrays or tables nested {deepest} levels deep at line {line}; "
                            f"a posse file nests at most {MAX_NESTING}")
    try:
        data = toml.loads(text)
    except RecursionError:  # pragma: no cover - the bracket scan refuses such files first
        raise OddsmithError(f"posse file {source}: nested too deeply to read") from None
    except toml.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        where = f"line {m.group(1)}, column {m.group(2)}" if m else "unknown position"
        reason = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", msg)
        if "end of document" in msg and not m:
            lines = text.splitlines() or [""]
            where = f"line {len(lines)}, column {len(lines[-1]) + 1} (end of file)"
        raise OddsmithError(f"posse file {source}: malformed TOML at {where}: {reason}") from None
    if _data_depth(data) > MAX_NESTING:
        raise OddsmithError(f"posse file {source}: keys nested more than {MAX_NESTING} levels deep (dotted keys "
                            f"such as a.b.c); a posse file nests at most {MAX_NESTING}")
    return data


def _shown(value: Any, limit: int = 60) -> str:
    """``repr(value)`` for an error message, shortened (a posse file may hold a huge value)."""
    text = repr(value) if not isinstance(value, (dict, list)) or _data_depth(value) <= MAX_NESTING else "..."
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _expect(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) and kind in (int, (int,)):
        raise OddsmithError(f"{what} must be a whole number, got {_shown(value)}")
    if not isinstance(value, kind):
        names = " or ".join(t.__name__ for t in (kind if isinstance(kind, tuple) else (kind,)))
        names = (names.replace("str", "text").replace("list", "list").replace("int", "whole number")
                 .replace("bool", "true/false").replace("dict", "a table"))
        raise OddsmithError(f"{what} must be {names}, got {_shown(value)}")
    return value


def _names(value: Any, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    _expect(value, list, what)
    for v in value:
        _expect(v, str, f"{what} entry")
    return list(value)


def _resolve(fn, name: str, where: str):
    try:
        return fn(name)
    except OddsmithError as exc:
        raise OddsmithError(f"{where}: {exc}") from None


def _house_weapons(raw: Any, where: str) -> dict[str, R.Weapon]:
    """``[house_weapons."Rifle"]`` tables: house Shooting stats for a Weapon the book gives none."""
    _expect(raw, dict, f"{where}: [house_weapons]")
    out: dict[str, R.Weapon] = {}
    for item, table in raw.items():
        hw = f'{where}: [house_weapons."{item}"]'
        base = _resolve(R.weapon, item, hw)
        _expect(table, dict, hw)
        if base.fire_corridor:   # the Sawn-Off Shotgun: a house Range, no bands ("Fire Corridors")
            if set(table) != {"range"}:
                raise OddsmithError(f"{hw}: the {base.name} fires a fire corridor: its house stats are one key, range "
                                    f"(its Range in inches), got {', '.join(sorted(table)) or 'none'}")
            try:
                w = R.house_fire_corridor(base, range_=table["range"])
            except OddsmithError as exc:
                raise OddsmithError(f"{hw}: {exc}") from None
            if w.name in out:
                raise OddsmithError(f"{hw}: the {w.name} has house stats twice")
            out[w.name] = w
            continue
        for key in table:
            if key not in _HOUSE_WEAPON_KEYS:
                raise OddsmithError(f"{hw}: unknown key {key!r}; keys are {', '.join(sorted(_HOUSE_WEAPON_KEYS))}")
        missing = [k for k in _HOUSE_WEAPON_REQUIRED if k not in table]
        if missing:
            raise OddsmithError(f"{hw}: missing {', '.join(missing)} (a house Weapon needs short, medium, long "
                                f"and jam_die)")
        jam = table["jam_die"]
        if isinstance(jam, str):
            m = re.fullmatch(r"\s*[dD](\d{1,3})\s*", jam)
            if m is None:
                raise OddsmithError(f"{hw}: jam_die must be D6, D8 or D10, got {jam!r}")
            jam = int(m.group(1))
        bands = {"short": R.RangeBand.SHORT, "medium": R.RangeBand.MEDIUM, "long": R.RangeBand.LONG}
        try:
            w = R.house_weapon(base, short=table["short"], medium=table["medium"], long=table["long"], jam_die=jam,
                               shots=table.get("shots", 1),
                               band_dice={b: table.get(f"{k}_dice_mod", 0) for k, b in bands.items()},
                               band_save={b: table.get(f"{k}_save_mod", 0) for k, b in bands.items()})
        except OddsmithError as exc:
            raise OddsmithError(f"{hw}: {exc}") from None
        if w.name in out:
            raise OddsmithError(f"{hw}: the {w.name} has house stats twice")
        out[w.name] = w
    return out
