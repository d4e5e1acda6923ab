"""The documentation: every relative link of README.md and docs/*.md resolves, and nothing cites the old design notes.

A link resolves when its file exists and, for ``#anchor``, when the target page has a
heading whose GitHub anchor is ``anchor``. Code blocks and inline code are not links.
"""
from __future__ import annotations

import re
import subprocess
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~)")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
INLINE_CODE = re.compile(r"`[^`]*`")


def prose_lines(text: str) -> list[tuple[int, str]]:
    """(line number, line) outside fenced code blocks, inline code blanked."""
    out, fenced = [], False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            out.append((n, INLINE_CODE.sub("``", line)))
    return out


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`([^`]*)`", r"\1", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    kept = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LNM")
    return kept.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        m = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if fenced or not m:
            continue
        base = slug(m.group(1))
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def relative_links(page: Path) -> list[tuple[int, str]]:
    links = []
    for n, line in prose_lines(page.read_text(encoding="utf-8")):
        for m in LINK.finditer(line):
            target = m.group(1)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, mailto:, ...
                continue
            links.append((n, target))
    return links


def test_slug_follows_github():
    assert slug("Shootout odds: `oddsmith shootout` and `oddsmith tradeoff`") == \
        "shootout-odds-oddsmith-shootout-and-oddsmith-tradeoff"
    assert slug("Lowball (Gamblin') and pulls") == "lowball-gamblin-and-pulls"
    assert slug("Cheatin'") == "cheatin"
    assert slug("Hands: `oddsmith hand`") == "hands-oddsmith-hand"


def test_link_checker_catches_broken_links(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[ok](#title) [bad](#nope) `[code](missing.md)`\n```\n[fenced](gone.md)\n```\n"
                    "[file](missing.md) ![img](pic.png) [web](https://example.com)\n", encoding="utf-8")
    assert relative_links(page) == [(3, "#title"), (3, "#nope"), (7, "missing.md"), (7, "pic.png")]
    assert anchors(page) == {"title"}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(page):
    broken = []
    for line, target in relative_links(page):
        path_part, _, anchor = target.partition("#")
        dest = (page.parent / path_part).resolve() if path_part else page
        rel = dest.relative_to(ROOT).as_posix() if dest.is_relative_to(ROOT) else str(dest)
        if not dest.exists():
            broken.append(f"line {line}: {target} (no file {rel})")
            continue
        if anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"line {line}: {target} (no heading with anchor #{anchor} in {rel})")
    assert not broken, f"{page.relative_to(ROOT)}: broken links:\n" + "\n".join(broken)


def test_every_docs_page_is_in_the_index():
    index = ROOT / "docs" / "README.md"
    linked = {(index.parent / t.partition("#")[0]).resolve() for _, t in relative_links(index)}
    missing = [p.name for p in PAGES if p.parent.name == "docs" and p != index and p.resolve() not in linked]
    assert not missing, f"docs/README.md does not link {missing}"


def _repo_files() -> list[Path]:
    try:
        out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
        return [ROOT / f for f in out.splitlines() if f]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", ".venv", "build", "dist", "__pycache__"}
        return [p for p in ROOT.rglob("*") if p.is_file() and not skip & set(p.relative_to(ROOT).parts)]


def test_nothing_cites_the_old_design_notes():
    # Built from parts so that this file does not match itself.
    old = re.compile("DESIGN" + r"(\.md|\s+section)")
    hits = []
    for path in _repo_files():
        if not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files (charts, the sample PDF)
        for n, line in enumerate(text.splitlines(), 1):
            if old.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not hits, "cite docs/ pages instead:\n" + "\n".join(hits)
