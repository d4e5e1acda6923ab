"""The notebook-style walkthroughs (docs/walkthrough-*.md) run as written and print what they show.

Each page is a sequence of ``python`` code blocks, each followed by a ``text``
block with what it printed. The blocks of a page run in order in one namespace,
as the cells of a notebook do; every simulation in them is seeded, so the text
shown must come out exactly. After changing a page, rewrite its outputs with

    python tests/test_walkthroughs.py --write
"""
from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted((ROOT / "docs").glob("walkthrough-*.md"))
BLOCK = re.compile(r"^```python\n(?P<code>.*?)^```\n(?:\n*^```text\n(?P<out>.*?)^```\n)?", re.S | re.M)


def cells(text: str) -> list[re.Match]:
    """The code blocks of a page, each with the text block that follows it (if any)."""
    return list(BLOCK.finditer(text))


def run_cells(text: str) -> list[tuple[str, str | None, str]]:
    """(code, shown output, actual output) of every cell, run in order in one namespace from the repo root."""
    namespace: dict = {"__name__": "__walkthrough__"}
    out = []
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for m in cells(text):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(m["code"], "<walkthrough>", "exec"), namespace)
            out.append((m["code"], m["out"], buf.getvalue()))
    finally:
        os.chdir(here)
    return out


def _norm(text: str | None) -> str:
    return "\n".join(line.rstrip() for line in (text or "").strip("\n").splitlines())


def test_pages_exist_and_have_cells():
    assert {p.name for p in PAGES} >= {"walkthrough-doomtown.md", "walkthrough-shadows.md"}
    for page in PAGES:
        found = cells(page.read_text(encoding="utf-8"))
        assert len(found) >= 5, page.name
        assert all(m["out"] is not None for m in found), f"{page.name}: a code block without its output"


def test_a_changed_output_is_caught():
    page = "```python\nprint(6 * 7)\n```\n\n```text\n41\n```\n"
    (code, shown, actual), = run_cells(page)
    assert _norm(shown) != _norm(actual) == "42"


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_walkthrough_prints_what_it_shows(page):
    for i, (code, shown, actual) in enumerate(run_cells(page.read_text(encoding="utf-8")), 1):
        assert _norm(actual) == _norm(shown), f"{page.name}, code block {i}:\n{code}"


def _write(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    results = run_cells(text)
    pieces, last = [], 0
    for m, (code, _, actual) in zip(cells(text), results):
        pieces.append(text[last:m.start()])
        pieces.append(f"```python\n{code}```\n\n```text\n{_norm(actual)}\n```\n")
        last = m.end()
    pieces.append(text[last:])
    page.write_text("".join(pieces), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit(__doc__)
    sys.path.insert(0, str(ROOT))
    for p in PAGES:
        _write(p)
        print("wrote", p.relative_to(ROOT))
