"""Print a pip constraints file pinning every dependency to its lowest declared version.

Reads ``[project] dependencies`` of pyproject.toml and turns each floor
(``name>=X``) into ``name==X``, keeping any environment marker, so that

    pip install -c floor.txt oddsmith-*.whl

installs oddsmith with the oldest versions it claims to support; the CI
floor job then runs scripts/smoke_commands.py against it (docs/development.md,
'Packaging'). A dependency without a ``>=`` floor is an error: every floor
must be stated so that it can be tested.

    python scripts/floor_constraints.py [pyproject.toml] > floor.txt
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

_REQUIREMENT = re.compile(r"^\s*(?P<name>[A-Za-z0-9][A-Za-z0-9._-]*)\s*(?P<extras>\[[^\]]*\])?\s*"
                          r"(?P<spec>[^;]*?)\s*(?:;\s*(?P<marker>.+?))?\s*$")


def floor_pins(dependencies: list[str]) -> list[str]:
    """One ``name==floor[; marker]`` line per requirement; ValueError if one has no ``>=`` floor."""
    pins = []
    for requirement in dependencies:
        m = _REQUIREMENT.match(requirement)
        if not m:
            raise ValueError(f"cannot read the requirement {requirement!r}")
        floors = [s.strip()[2:].strip() for s in m["spec"].split(",") if s.strip().startswith(">=")]
        if len(floors) != 1:
            raise ValueError(f"requirement {requirement!r} needs exactly one '>=' floor to be tested")
        line = f"{m['name']}=={floors[0]}"
        if m["marker"]:
            line += f"; {m['marker']}"
        pins.append(line)
    return pins


def main(argv: list[str]) -> int:
    path = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent.parent / "pyproject.toml"
    project = tomllib.loads(path.read_text(encoding="utf-8"))["project"]
    try:
        pins = floor_pins(project["dependencies"])
    except ValueError as e:
        print(f"floor_constraints: {e}", file=sys.stderr)
        return 2
    print("\n".join(pins))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
