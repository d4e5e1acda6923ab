"""Bookmarks (the PDF outline) added to a finished PDF by an incremental update.

matplotlib's PDF backend writes no outline. A PDF may be extended by appending
objects, a new cross-reference section and a trailer pointing back at the old
one (PDF 1.4 reference, 3.4.5 "Incremental Updates"); readers then use the
newest version of each object. So this module appends a new Catalog (the old
one plus ``/Outlines`` and ``/PageMode /UseOutlines``) and the outline items
(8.2.2 "Document Outline"), leaving every byte matplotlib wrote untouched.
It reads only what it needs: the trailer, the cross-reference table, the
Catalog and the page tree.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Bookmark:
    """One outline entry: a title, the page it opens (0-based) and the entries nested under it."""

    title: str
    page: int
    children: list["Bookmark"] = field(default_factory=list)


class PdfStructureError(RuntimeError):
    """The file is not laid out as a matplotlib PDF (a programming error, not user input)."""


def _text_string(title: str) -> bytes:
    """A PDF text string: UTF-16BE with a byte order mark, as hex (no escaping needed)."""
    return b"<FEFF" + title.encode("utf-16-be").hex().upper().encode("ascii") + b">"


def _last_trailer(data: bytes) -> tuple[dict[str, bytes], int]:
    m = re.search(rb"trailer\s*<<(.*?)>>\s*startxref\s+(\d+)\s+%%EOF\s*$", data, re.S)
    if not m:
        raise PdfStructureError("no trailer at the end of the PDF")
    entries = dict((k.decode(), v.strip()) for k, v in re.findall(rb"/(\w+)\s+([^/]+)", m.group(1)))
    return entries, int(m.group(2))


def _xref_offsets(data: bytes, start: int) -> dict[int, int]:
    """Object number -> byte offset, from the cross-reference table at ``start``."""
    if not data.startswith(b"xref", start):
        raise PdfStructureError("startxref does not point at a cross-reference table")
    pos = start + 4
    offsets: dict[int, int] = {}
    header = re.compile(rb"\s*(\d+) (\d+)\s*\n")
    while True:
        m = header.match(data, pos)
        if not m:
            break
        first, count = int(m.group(1)), int(m.group(2))
        pos = m.end()
        for k in range(count):
            entry = data[pos:pos + 20]
            if entry[17:18] == b"n":
                offsets[first + k] = int(entry[:10])
            pos += 20
    return offsets


def _object(data: bytes, offsets: dict[int, int], num: int) -> bytes:
    """The body of object ``num`` (between ``num 0 obj`` and ``endobj``)."""
    start = offsets[num]
    m = re.compile(rb"%d\s+0\s+obj" % num).match(data, start)
    if not m:
        raise PdfStructureError(f"object {num} is not at its cross-reference offset")
    end = data.index(b"endobj", m.end())
    return data[m.end():end].strip()


def _ref(body: bytes, key: bytes) -> int:
    m = re.search(rb"/" + key + rb"\s+(\d+)\s+0\s+R", body)
    if not m:
        raise PdfStructureError(f"no /{key.decode()} reference")
    return int(m.group(1))


def _page_refs(data: bytes, offsets: dict[int, int], num: int) -> list[int]:
    """The page objects under page tree node ``num``, in reading order."""
    body = _object(data, offsets, num)
    if re.search(rb"/Type\s*/Page\b(?!s)", body):
        return [num]
    kids = re.search(rb"/Kids\s*\[(.*?)\]", body, re.S)
    if not kids:
        raise PdfStructureError(f"page tree node {num} has no /Kids")
    out: list[int] = []
    for kid in re.findall(rb"(\d+)\s+0\s+R", kids.group(1)):
        out += _page_refs(data, offsets, int(kid))
    return out


def _count(items: list[Bookmark]) -> int:
    """Visible descendants with every entry open."""
    return sum(1 + _count(b.children) for b in items)


def add_outline(path: str | Path, bookmarks: list[Bookmark]) -> None:
    """Append ``bookmarks`` as the outline of the PDF at ``path`` (every entry open)."""
    path = Path(path)
    data = path.read_bytes()
    trailer, xref_at = _last_trailer(data)
    offsets = _xref_offsets(data, xref_at)
    root = int(trailer["Root"].split()[0])
    catalog = _object(data, offsets, root)
    if b"/Outlines" in catalog:
        raise PdfStructureError("the PDF already has an outline")
    pages = _page_refs(data, offsets, _ref(catalog, b"Pages"))
    size = int(trailer["Size"])

    # number every outline item depth first: the outline dictionary first, then the items
    numbers: dict[int, int] = {}
    order: list[tuple[Bookmark, int, list[Bookmark]]] = []  # (item, parent number, siblings)
    outline_num = size

    def number(items: list[Bookmark], parent: int) -> None:
        for b in items:
            numbers[id(b)] = size + 1 + len(order)
            order.append((b, parent, items))
            number(b.children, numbers[id(b)])

    number(bookmarks, outline_num)
    objects: dict[int, bytes] = {}
    first_last = (b"/First %d 0 R /Last %d 0 R " % (numbers[id(bookmarks[0])], numbers[id(bookmarks[-1])])
                  if bookmarks else b"")
    objects[outline_num] = b"<< /Type /Outlines " + first_last + b"/Count %d >>" % _count(bookmarks)
    for b, parent, siblings in order:
        if not 0 <= b.page < len(pages):
            raise PdfStructureError(f"bookmark {b.title!r} points at page {b.page + 1} of {len(pages)}")
        i = next(k for k, s in enumerate(siblings) if s is b)
        parts = [b"/Title " + _text_string(b.title), b"/Parent %d 0 R" % parent,
                 b"/Dest [ %d 0 R /Fit ]" % pages[b.page]]
        if i > 0:
            parts.append(b"/Prev %d 0 R" % numbers[id(siblings[i - 1])])
        if i + 1 < len(siblings):
            parts.append(b"/Next %d 0 R" % numbers[id(siblings[i + 1])])
        if b.children:
            parts.append(b"/First %d 0 R /Last %d 0 R /Count %d" % (
                numbers[id(b.children[0])], numbers[id(b.children[-1])], _count(b.children)))
        objects[numbers[id(b)]] = b"<< " + b" ".join(parts) + b" >>"
    objects[root] = (catalog[:catalog.rindex(b">>")].rstrip()
                     + b" /Outlines %d 0 R /PageMode /UseOutlines >>" % outline_num)

    out = bytearray(data if data.endswith(b"\n") else data + b"\n")
    written: dict[int, int] = {}
    for num in sorted(objects):
        written[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n"
    nums = sorted(written)
    # object 0 heads the free list; repeating it lets readers that expect a section to start at 0 check it
    runs: list[list[int]] = [[0]]
    for num in nums:  # consecutive numbers share one subsection
        if runs[-1][-1] + 1 == num:
            runs[-1].append(num)
        else:
            runs.append([num])
    for run in runs:
        out += b"%d %d\n" % (run[0], len(run))
        for num in run:
            out += b"0000000000 65535 f \n" if num == 0 else b"%010d 00000 n \n" % written[num]
    new_size = max(size, max(nums) + 1)
    extra = b"".join(b" /%s %s" % (k.encode(), trailer[k]) for k in ("Info", "ID") if k in trailer)
    out += (b"trailer\n<< /Size %d /Root %d 0 R" % (new_size, root) + extra
            + b" /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (xref_at, xref))
    path.write_bytes(bytes(out))


def read_outline(data: bytes) -> list[Bookmark]:
    """The outline of a PDF written by :func:`add_outline` (titles and pages), for tests and checks."""
    trailer, xref_at = _last_trailer(data)
    offsets: dict[int, int] = {}
    at: int | None = xref_at
    while at is not None:  # newest section first: older ones do not override it
        for num, off in _xref_offsets(data, at).items():
            offsets.setdefault(num, off)
        prev = re.search(rb"trailer\s*<<(.*?)>>", data[at:], re.S)
        m = re.search(rb"/Prev\s+(\d+)", prev.group(1)) if prev else None
        at = int(m.group(1)) if m else None
    catalog = _object(data, offsets, int(trailer["Root"].split()[0]))
    pages = _page_refs(data, offsets, _ref(catalog, b"Pages"))

    def items(first: int | None) -> list[Bookmark]:
        out = []
        while first is not None:
            body = _object(data, offsets, first)
            title = bytes.fromhex(re.search(rb"/Title\s*<FEFF([0-9A-F]*)>", body).group(1).decode())
            dest = int(re.search(rb"/Dest\s*\[\s*(\d+)\s+0\s+R", body).group(1))
            kids = re.search(rb"/First\s+(\d+)\s+0\s+R", body)
            out.append(Bookmark(title.decode("utf-16-be"), pages.index(dest),
                                items(int(kids.group(1)) if kids else None)))
            nxt = re.search(rb"/Next\s+(\d+)\s+0\s+R", body)
            first = int(nxt.group(1)) if nxt else None
        return out

    if b"/Outlines" not in catalog:
        return []
    outline = _object(data, offsets, _ref(catalog, b"Outlines"))
    m = re.search(rb"/First\s+(\d+)\s+0\s+R", outline)
    return items(int(m.group(1)) if m else None)
