"""Reading a user's text file (deck list, posse, card table, hands) safely.

Every user file goes through :func:`read_text`: ``-`` reads stdin; a
missing, unreadable or oversized file, a folder, binary data or an empty
file raises :class:`OddsmithError` naming the file. A UTF-8 byte-order mark
is dropped and Windows (CRLF) or old Mac (CR) line endings read as plain
newlines; files that are not UTF-8 are read as Windows-1252, the usual
encoding of a list saved on Windows.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from oddsmith.errors import OddsmithError

# "#" at the start of a line, or after a space and before a space, starts a
# comment; "Hellstromme Plant #9" and "Cliff's #4 Saloon" keep their "#".
_COMMENT = re.compile(r"(^|\s)#(\s|$)")

#: Largest deck or posse file read (a deck list is a few kilobytes).
MAX_TEXT_BYTES = 1024 * 1024


def decode_text(data: bytes, name: str, what: str = "file") -> str:
    """Bytes of a user file as text, refusing binary data and empty files."""
    if b"\x00" in data:
        raise OddsmithError(f"{name}: not a text {what} (binary data)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    control = sum(1 for ch in text if ord(ch) < 32 and ch not in "\n\t") + text.count("\ufffd")
    if control > max(2, len(text) // 100):
        raise OddsmithError(f"{name}: not a text {what} (binary data)")
    if not text.strip():
        raise OddsmithError(f"{name}: the {what} is empty")
    return text


def read_text(path: str | os.PathLike[str], *, limit: int | None = MAX_TEXT_BYTES, what: str = "file") -> str:
    """The text of ``path`` (``-`` for stdin), with clean errors for every way reading can fail.

    ``limit`` is the most bytes read (None: no limit); ``what`` names the file in errors."""
    name = str(path)
    size = -1 if limit is None else limit + 1
    if name == "-":
        stream = getattr(sys.stdin, "buffer", None)
        data = stream.read(size) if stream is not None else sys.stdin.read(size).encode("utf-8")
        name = "stdin"
    else:
        p = Path(path)
        article = "an" if what[:1].lower() in "aeiou" else "a"
        try:
            with open(p, "rb") as fh:
                data = fh.read(size)
        except FileNotFoundError:
            raise OddsmithError(f"{what} {name} does not exist") from None
        except IsADirectoryError:
            raise OddsmithError(f"{name}: is a folder, not {article} {what}") from None
        except PermissionError:
            raise OddsmithError(f"{name}: cannot read the {what} (permission denied)") from None
        except OSError as exc:
            raise OddsmithError(f"{name}: cannot read the {what} ({exc.strerror or exc})") from None
    if limit is not None and len(data) > limit:
        raise OddsmithError(f"{name}: too large for a {what} (over {limit // 1024} KiB)")
    return decode_text(data, name, what)


def strip_comment(line: str) -> str:
    """``line`` without its comment, stripped (``#`` starts a comment at the start of a
    line or between spaces, so titles such as ``Cliff's #4 Saloon`` keep theirs)."""
    line = line.strip()
    m = _COMMENT.search(line)
    return (line[: m.start()] if m else line).strip()
