"""Pages of several matplotlib PDFs joined into one PDF, in any order.

The report draws its pages in several processes at once, each into a PDF of
its own; this module joins them. A PDF is a list of numbered objects, a
cross-reference table giving each object's byte offset, and a trailer naming
the Catalog, whose page tree lists the pages (PDF 1.4 reference, 3.4 "File
Structure", 3.6.2 "Page Tree"). Joining renumbers every object of each part
past those of the parts before it (each reference ``N 0 R`` outside strings
and streams follows), drops each part's Catalog and page tree, and writes one
new Catalog and page tree whose kids are the parts' pages in the order asked.
Streams (page contents, fonts, images) are copied byte for byte. Each part
keeps its own resources (fonts, images, patterns), so a page looks exactly as
it did in its part. Only the layout matplotlib writes is read (uncompressed
cross-reference tables, one revision); anything else is a
:class:`PdfStructureError`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from oddsmith.report.pdf_outline import PdfStructureError, _last_trailer, _xref_offsets

_REF = re.compile(rb"(\d+) (\d+) R\b")
_OBJ = re.compile(rb"(\d+) (\d+) obj\s*")
_LENGTH = re.compile(rb"/Length\s+(\d+)(?:\s+(\d+)\s+R)?")


@dataclass
class _Object:
    number: int
    head: bytes  # the object's value up to its stream, if any
    stream: bytes | None  # the raw stream bytes (still encoded)


def _ref(entries: dict[str, bytes], key: str) -> int:
    m = re.match(rb"(\d+)\s+\d+\s+R", entries.get(key, b""))
    if not m:
        raise PdfStructureError(f"the trailer has no /{key} reference")
    return int(m.group(1))


def _read_objects(data: bytes) -> tuple[dict[int, _Object], dict[str, bytes]]:
    """Every object of a single-revision PDF, by number, and its trailer entries."""
    trailer, start = _last_trailer(data)
    if b"/Prev" in data[start:]:
        raise PdfStructureError("the PDF has more than one revision")
    offsets = _xref_offsets(data, start)
    raw: dict[int, tuple[bytes, int]] = {}
    for number, offset in offsets.items():
        m = _OBJ.match(data, offset)
        if not m or int(m.group(1)) != number:
            raise PdfStructureError(f"object {number} is not where the cross-reference table says")
        raw[number] = (m.group(0), m.end())
    objects: dict[int, _Object] = {}
    for number, (_, body) in raw.items():
        stream_at = _stream_start(data, body)
        if stream_at is None:
            end = data.index(b"endobj", body)
            objects[number] = _Object(number, data[body:end].rstrip(), None)
            continue
        head = data[body:stream_at[0]]
        m = _LENGTH.search(head)
        if not m:
            raise PdfStructureError(f"stream object {number} has no /Length")
        if m.group(2) is not None:  # an indirect length: the number is another object
            length_obj = int(m.group(1))
            _, lbody = raw[length_obj]
            length = int(data[lbody:data.index(b"endobj", lbody)].strip())
        else:
            length = int(m.group(1))
        begin = stream_at[1]
        stream = data[begin:begin + length]
        if not data[begin + length:begin + length + 40].lstrip().startswith(b"endstream"):
            raise PdfStructureError(f"stream object {number}: /Length does not end at endstream")
        objects[number] = _Object(number, head.rstrip(), stream)
    return objects, trailer


def _stream_start(data: bytes, body: int) -> tuple[int, int] | None:
    """(where ``stream`` starts, where its bytes start) if the object at ``body`` is a stream."""
    end = data.index(b"endobj", body)
    # the dictionary comes first; a stream keyword follows it directly
    depth, i = 0, body
    while i < end:
        if data.startswith(b"<<", i):
            depth += 1
            i += 2
        elif data.startswith(b">>", i):
            depth -= 1
            i += 2
            if depth == 0:
                break
        elif data[i:i + 1] == b"(":
            i = _skip_string(data, i)
        else:
            i += 1
    else:
        return None
    m = re.compile(rb"\s*stream\r?\n").match(data, i)
    if not m:
        return None
    return i, m.end()


def _skip_string(data: bytes, i: int) -> int:
    """The index after the literal string starting at ``data[i]`` (``(`` ... ``)``, nested, escaped)."""
    depth = 0
    while i < len(data):
        c = data[i:i + 1]
        if c == b"\\":
            i += 2
            continue
        if c == b"(":
            depth += 1
        elif c == b")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    raise PdfStructureError("a string runs to the end of the file")


def _renumber(head: bytes, mapping: dict[int, int]) -> bytes:
    """``head`` with every reference ``N 0 R`` outside literal strings renumbered by ``mapping``."""
    out, i, plain = [], 0, 0
    while i < len(head):
        if head[i:i + 1] == b"(":
            out.append(_REF.sub(lambda m: _sub(m, mapping), head[plain:i]))
            j = _skip_string(head, i)
            out.append(head[i:j])
            i = plain = j
        else:
            i += 1
    out.append(_REF.sub(lambda m: _sub(m, mapping), head[plain:]))
    return b"".join(out)


def _sub(m: re.Match, mapping: dict[int, int]) -> bytes:
    number = int(m.group(1))
    if number not in mapping:
        raise PdfStructureError(f"a reference to object {number}, which the part does not hold")
    return b"%d 0 R" % mapping[number]


def _pages_of(objects: dict[int, _Object], pages_root: int) -> list[int]:
    head = objects[pages_root].head
    kids = re.search(rb"/Kids\s*\[(.*?)\]", head, re.S)
    if not kids or b"/Type /Pages" not in head:
        raise PdfStructureError("the page tree is not one flat /Pages object")
    return [int(n) for n, _ in _REF.findall(kids.group(1))]


def merge(parts: Sequence[Path | bytes], order: Sequence[tuple[int, int]], target: Path) -> None:
    """Write ``target``: the pages ``order`` lists, each ``(part index, page index in that part)``, in
    that order; the document information (title, author, ...) of the first part."""
    out = bytearray(b"%PDF-1.4\n%\xac\xdc \xab\xba\n")
    offsets: dict[int, int] = {}
    next_number = 3  # 1: the new Catalog, 2: the new page tree
    page_numbers: list[list[int]] = []
    info_number = None
    written: list[tuple[int, bytes, bytes | None]] = []
    for k, part in enumerate(parts):
        data = part if isinstance(part, bytes) else Path(part).read_bytes()
        objects, trailer = _read_objects(data)
        root = _ref(trailer, "Root")
        m = re.search(rb"/Pages\s+(\d+)\s+\d+\s+R", objects[root].head)
        if not m:
            raise PdfStructureError("the Catalog names no page tree")
        pages_root = int(m.group(1))
        keep = [n for n in sorted(objects) if n not in (root, pages_root)]
        mapping = {n: next_number + i for i, n in enumerate(keep)}
        next_number += len(keep)
        page_numbers.append([mapping[n] for n in _pages_of(objects, pages_root)])
        mapping[pages_root] = 2  # each page's /Parent is the new page tree
        if k == 0 and "Info" in trailer:
            info_number = mapping[_ref(trailer, "Info")]
        for n in keep:
            obj = objects[n]
            written.append((mapping[n], _renumber(obj.head, mapping), obj.stream))
    kids = []
    for part, index in order:
        try:
            kids.append(page_numbers[part][index])
        except IndexError:
            raise PdfStructureError(f"part {part} has no page {index}") from None
    head = [(1, b"<< /Type /Catalog /Pages 2 0 R >>", None),
            (2, b"<< /Type /Pages /Kids [ " + b" ".join(b"%d 0 R" % n for n in kids)
             + b" ] /Count %d >>" % len(kids), None)]
    for number, body, stream in head + written:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body
        if stream is not None:
            out += b"\nstream\n" + stream + b"\nendstream"
        out += b"\nendobj\n"
    xref = len(out)
    size = next_number
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for n in range(1, size):
        if n in offsets:
            out += b"%010d 00000 n \n" % offsets[n]
        else:
            out += b"0000000000 65535 f \n"
    info = b" /Info %d 0 R" % info_number if info_number is not None else b""
    out += b"trailer\n<< /Size %d /Root 1 0 R%s >>\nstartxref\n%d\n%%%%EOF\n" % (size, info, xref)
    Path(target).write_bytes(bytes(out))
