"""Formatting and writing results: the only place the CLI turns data into text.

Analyses return pandas DataFrames or plain dicts; commands pick a format with
``--format table|csv|json|md`` and write with :func:`emit`, which never leaves
a half-written file behind.
"""
from __future__ import annotations

import contextlib
import enum
import json
import math
import os
import shutil
import sys
import tempfile
import textwrap
import time
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np
import pandas as pd

from oddsmith.errors import OddsmithError


class Format(str, enum.Enum):
    """Output formats every printing command accepts."""

    table = "table"
    csv = "csv"
    json = "json"
    md = "md"


def _jsonable(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return [_jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, (np.floating, float)):
        value = float(obj)
        return None if math.isnan(value) else value
    if isinstance(obj, Fraction):
        return f"{obj.numerator}/{obj.denominator}"
    if isinstance(obj, enum.Enum):
        return obj.name
    if isinstance(obj, pd.DataFrame):
        return [_jsonable(r) for r in obj.to_dict(orient="records")]
    return obj


def dumps_json(obj: Any) -> str:
    """JSON text of ``obj`` with numpy scalars, fractions and NaN made portable."""
    return json.dumps(_jsonable(obj), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _cell(value: Any, float_digits: int) -> str:
    if isinstance(value, (float, np.floating)):
        if math.isnan(value):
            return ""
        return f"{value:.{float_digits}f}"
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value)
    return str(value)


def _text_rows(df: pd.DataFrame, float_digits: int) -> tuple[list[str], list[list[str]]]:
    header = [str(c) for c in df.columns]
    rows = [[_cell(v, float_digits) for v in row] for row in df.itertuples(index=False)]
    return header, rows


# Width a table is folded to when neither COLUMNS nor a terminal says otherwise (pipes, files).
DEFAULT_TABLE_WIDTH = 100
# Leading label columns repeated in each block of a folded table take at most this share of the width.
KEY_SHARE = 0.6


def table_width() -> int:
    """The width text tables fit: $COLUMNS, else the terminal's, else DEFAULT_TABLE_WIDTH."""
    return shutil.get_terminal_size((DEFAULT_TABLE_WIDTH, 24)).columns


def _is_label(df: pd.DataFrame, col: Any) -> bool:
    """A column that can name its row (model, rank, deck, stud...): text, flags and whole numbers,
    not figures; the leading ones are repeated in every folded block."""
    return not pd.api.types.is_float_dtype(df[col]) and not str(col).endswith("± se")


def _fold(header: list[str], widths: list[int], labels: list[bool], width: int) -> list[list[int]]:
    """Column indices of each block: the leading label columns in all, the others packed to ``width``."""
    keys: list[int] = []
    used = 0
    for i, is_label in enumerate(labels[:-1]):
        if not is_label or (keys and used + widths[i] + 2 > KEY_SHARE * width):
            break
        keys.append(i)
        used += widths[i] + 2
    blocks: list[list[int]] = []
    current: list[int] = []
    room = used
    for i in range(len(keys), len(header)):
        if current and room + widths[i] > width:
            blocks.append(keys + current)
            current, room = [], used
        current.append(i)
        room += widths[i] + 2
    blocks.append(keys + current)
    return blocks


def format_frame(df: pd.DataFrame, fmt: Format | str, *, float_digits: int = 4, title: str | None = None,
                 width: int | None = None) -> str:
    """Render a tidy DataFrame as an aligned text table, CSV, Markdown or JSON records.

    A text table wider than ``width`` (default :func:`table_width`) is folded
    into stacked blocks of columns, each repeating the leading label columns
    (model, rank, deck, ...), so that no line is wider than the terminal
    unless a single column is. CSV, JSON and Markdown are never folded."""
    fmt = Format(fmt)
    if fmt is Format.json:
        return dumps_json(df)
    if fmt is Format.csv:
        return df.to_csv(index=False, lineterminator="\n")
    header, rows = _text_rows(df, float_digits)
    if fmt is Format.md:
        lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        text = "\n".join(lines) + "\n"
        return (f"### {title}\n\n" + text) if title else text
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(header)]
    numeric = [pd.api.types.is_numeric_dtype(df[c]) and not pd.api.types.is_bool_dtype(df[c]) for c in df.columns]

    def line(cells: list[str], cols: list[int]) -> str:
        return "  ".join(cells[i].rjust(widths[i]) if numeric[i] else cells[i].ljust(widths[i])
                         for i in cols).rstrip()

    limit = table_width() if width is None else width
    everything = list(range(len(header)))
    total = sum(widths) + 2 * (len(widths) - 1)
    blocks = [everything] if total <= limit or len(header) < 2 else \
        _fold(header, widths, [_is_label(df, c) for c in df.columns], limit)
    out: list[str] = []
    for cols in blocks:
        if out:
            out.append("")
        out += [line(header, cols), "  ".join("-" * widths[i] for i in cols)] + [line(r, cols) for r in rows]
    text = "\n".join(out) + "\n"
    if title:
        title = "\n".join(textwrap.fill(t, width=max(limit, 40), subsequent_indent="  ") if t else t
                          for t in title.splitlines())
    return (title + "\n" + text) if title else text


NO_STDERR = "n/a"


def plus_minus(value: float, se: float | None, digits: int = 6) -> str:
    """A simulated figure as "value ± standard error".

    A standard error of zero (every trial gave the same result, or a single
    trial) is not certainty: it is shown as "± n/a", and :func:`stderr_note`
    explains it.
    """
    text = f"{value:.{digits}f}"
    if se is None or not math.isfinite(float(se)) or float(se) <= 1e-12:  # zero, up to rounding in the sums
        return f"{text} ± {NO_STDERR}"
    shown = f"{float(se):.{digits}f}"
    if float(shown) == 0.0:  # a real but tiny standard error must not print as 0.000000
        shown = f"{float(se):.1g}"
    return f"{text} ± {shown}"


def note(text: str) -> str:
    """A prose note under a table, wrapped to :func:`table_width`, ending in a newline."""
    return textwrap.fill(" ".join(text.split()), width=max(table_width(), 40)) + "\n"


def stderr_note(text: str, trials: int) -> str:
    """The note that explains "± n/a" when ``text`` shows one (else "")."""
    if f"± {NO_STDERR}" not in text:
        return ""
    if trials < 2:
        return note("± n/a: one trial gives no standard error and says next to nothing; "
                    "run more trials (--trials).")
    return note(f"± n/a: the figure came out the same in every one of the {trials:,} trials, so no standard "
                f"error can be estimated; a probability shown as 0 (or 1) is below {3 / trials:.2g} (or above "
                f"{1 - 3 / trials:.6g}) at 95% confidence.")


def check_output_path(path: str | os.PathLike[str]) -> Path:
    """Fail early, before any work, when ``path`` cannot be written."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise OddsmithError(f"cannot write {target}: folder {folder} does not exist")
    if target.is_dir():
        raise OddsmithError(f"cannot write {target}: it is a folder")
    if not os.access(folder, os.W_OK):
        raise OddsmithError(f"cannot write {target}: folder {folder} is not writable")
    return target


def _plain_file_mode(path: Path) -> None:
    """Give a finished temporary file the mode ``open()`` would (mkstemp makes it 0600)."""
    mask = os.umask(0)
    os.umask(mask)
    with contextlib.suppress(OSError):
        os.chmod(path, 0o666 & ~mask)


@contextlib.contextmanager
def atomic_paths(paths: Sequence[str | os.PathLike[str]]) -> Iterator[list[Path]]:
    """Yield temporary paths beside ``paths``; move them all into place only on success.

    A missing folder or an unwritable location raises :class:`OddsmithError`
    before anything is written, and a failure while writing removes every
    temporary file, so no partial output is ever left behind.
    """
    targets = [check_output_path(p) for p in paths]
    tmps: list[Path] = []
    try:
        for target in targets:
            try:
                fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
            except OSError as exc:
                raise OddsmithError(f"cannot write {target}: {exc.strerror}") from None
            os.close(fd)
            tmps.append(Path(tmp))
        yield tmps
        for tmp, target in zip(tmps, targets):
            _plain_file_mode(tmp)
            os.replace(tmp, target)
    finally:
        for tmp in tmps:
            with contextlib.suppress(OSError):
                tmp.unlink()


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """One-file form of :func:`atomic_paths`."""
    with atomic_paths([path]) as (tmp,):
        yield tmp


def emit(text: str, output: str | os.PathLike[str] | None = None) -> None:
    """Print ``text`` to stdout, or write it atomically to ``output``."""
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    with atomic_path(output) as tmp:
        tmp.write_text(text, encoding="utf-8")


class Progress:
    """A progress bar on stderr that appears only for work longer than a second.

    It draws only when stderr is a terminal (or ``ODDSMITH_PROGRESS=1``), so
    pipes and log files stay clean.
    """

    def __init__(self, total: int, label: str = "", *, delay: float = 1.0) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.start = time.perf_counter()
        self.delay = delay
        self.enabled = sys.stderr.isatty() or os.environ.get("ODDSMITH_PROGRESS") == "1"
        self.drawn = False

    def advance(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        if not self.enabled or time.perf_counter() - self.start < self.delay:
            return
        frac = self.done / self.total
        bar = "#" * int(30 * frac)
        sys.stderr.write(f"\r{self.label} [{bar:<30}] {100 * frac:5.1f}%")
        sys.stderr.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
