"""Formatting and writing results: the only place the CLI turns data into text.

Analyses return pandas DataFrames or plain dicts; commands pick a format with
``--format table|csv|json|md`` and write with :func:`emit`, which never leaves
a half-written file behind.
"""
from __future__ import annotations

import contextlib
import enum
import errno
import json
import math
import os
import shutil
import stat
import sys
import tempfile
import textwrap
import threading
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from oddsmith import lazy

np = lazy.module("numpy")  # light at start-up: docs/design.md, 'Start-up'
pd = lazy.module("pandas")

from oddsmith import interrupts
from oddsmith.errors import OddsmithError, shorten

#: Longest path an error message shows whole (characters); longer ones are shortened.
PATH_LIMIT = 100


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


def table_width() -> int:
    """The width text tables fit: $COLUMNS, else the terminal's, else DEFAULT_TABLE_WIDTH."""
    return shutil.get_terminal_size((DEFAULT_TABLE_WIDTH, 24)).columns


def label_columns(df: pd.DataFrame, keys: Sequence[Any] | None = None) -> list[Any]:
    """The columns that tell the rows of ``df`` apart, repeated in every block of a folded table.

    ``keys`` when the caller names them; otherwise every column before the first
    figure (a float column or a "± se" one): text, flags and whole numbers such
    as model, rank, deck, stud. A table without figures is told apart by its
    first column."""
    if keys is not None:
        missing = [k for k in keys if k not in df.columns]
        if missing:
            raise ValueError(f"label columns {missing} are not in the table")
        return list(keys)
    labels: list[Any] = []
    for col in df.columns:
        if pd.api.types.is_float_dtype(df[col]) or str(col).endswith("± se"):
            break
        labels.append(col)
    if len(labels) == len(df.columns):
        labels = list(df.columns[:1])
    return labels


def _fold(widths: list[int], keys: list[int], width: int) -> list[list[int]]:
    """Column indices of each block: every label column in all, the others packed to ``width``."""
    used = sum(widths[i] + 2 for i in keys)
    rest = [i for i in range(len(widths)) if i not in keys]
    blocks: list[list[int]] = []
    current: list[int] = []
    room = used
    for i in rest:
        if current and room + widths[i] > width:
            blocks.append(keys + current)
            current, room = [], used
        current.append(i)
        room += widths[i] + 2
    blocks.append(keys + current)
    return blocks


def format_frame(df: pd.DataFrame, fmt: Format | str, *, float_digits: int = 4, title: str | None = None,
                 width: int | None = None, keys: Sequence[Any] | None = None) -> str:
    """Render a tidy DataFrame as an aligned text table, CSV, Markdown or JSON records.

    A text table wider than ``width`` (default :func:`table_width`) is folded
    into stacked blocks of columns, each repeating the label columns that
    tell the rows apart (``keys``, else :func:`label_columns`), so that no
    line is wider than the terminal unless the labels and one column are. CSV, JSON and Markdown are never folded."""
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
        _fold(widths, [list(df.columns).index(k) for k in label_columns(df, keys)], limit)
    out: list[str] = []
    for cols in blocks:
        if out:
            out.append("")
        out += [line(header, cols), "  ".join("-" * widths[i] for i in cols)] + [line(r, cols) for r in rows]
    text = "\n".join(out) + "\n"
    if title:
        title = fold_lines(title, width=limit, break_on_hyphens=True)
    return (title + "\n" + text) if title else text


def fold_lines(text: str, indent: str = "  ", *, width: int | None = None, break_on_hyphens: bool = False) -> str:
    """Each line of a heading or list wrapped to ``width`` (default :func:`table_width`, at least 40), its
    continuation lines indented; unlike :func:`note`, the line breaks already there are kept."""
    limit = max(table_width() if width is None else width, 40)
    return "\n".join(textwrap.fill(t, width=limit, subsequent_indent=indent, break_on_hyphens=break_on_hyphens)
                     if t else t for t in text.splitlines())


NO_STDERR = "n/a"


#: The confidence of the exact interval shown for a simulated proportion seen as 0 or 1.
CONFIDENCE = 0.95
#: What marks such an interval in a cell, for :func:`stderr_note`.
BOUND_MARK = f" ({CONFIDENCE:.0%})"


def clopper_pearson(successes: int, trials: int, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of a proportion seen ``successes`` times in
    ``trials``: the quantiles of Beta(k, n - k + 1) and Beta(k + 1, n - k) (scipy, loaded when needed)."""
    from scipy.stats import beta

    k, n = int(successes), int(trials)
    if n < 1 or not 0 <= k <= n:
        raise ValueError(f"need 0 <= successes <= trials and trials >= 1, got {k} of {n}")
    tail = (1 - confidence) / 2
    lo = 0.0 if k == 0 else float(beta.ppf(tail, k, n - k + 1))
    hi = 1.0 if k == n else float(beta.ppf(1 - tail, k + 1, n - k))
    return lo, hi


def _bound(value: float, trials: int) -> str | None:
    """"< 0.0015" (seen in no trial) or "> 0.9985" (in every trial), rounded outwards, else None."""
    if abs(value) <= 1e-12:
        hi = clopper_pearson(0, trials)[1]
        step = 10.0 ** (math.floor(math.log10(hi)) - 1)  # two significant digits, rounded up
        shown = math.ceil(round(hi / step, 9)) * step
        return f"< {shown:.2g}" if shown < 1e-4 else f"< {shown:.6f}".rstrip("0")
    if abs(value - 1) <= 1e-12:
        lo = clopper_pearson(trials, trials)[0]
        places = max(2, 1 - math.floor(math.log10(1 - lo)))
        return f"> {math.floor(lo * 10 ** places) / 10 ** places:.{places}f}"
    return None


def plus_minus(value: float, se: float | None, digits: int = 6, *, trials: int | None = None,
               proportion: bool = False) -> str:
    """A simulated figure as "value ± standard error".

    A standard error of zero (every trial gave the same result, or a single
    trial) is not certainty. For a ``proportion`` seen as 0 or 1 in ``trials``
    (two or more) the cell gives the end of the exact 95% interval instead,
    "< 0.0019 (95%)"; otherwise it is shown as "± n/a". Either way
    :func:`stderr_note` explains it.
    """
    text = f"{value:.{digits}f}"
    if se is None or not math.isfinite(float(se)) or float(se) <= 1e-12:  # zero, up to rounding in the sums
        bound = _bound(float(value), trials) if proportion and trials is not None and trials >= 2 else None
        if bound is not None:
            return f"{bound}{BOUND_MARK}"
        return f"{text} ± {NO_STDERR}"
    shown = f"{float(se):.{digits}f}"
    if float(shown) == 0.0:  # a real but tiny standard error must not print as 0.000000
        shown = f"{float(se):.1g}"
    return f"{text} ± {shown}"


#: Columns of probabilities by name (besides every ``p_...`` column): those whose value seen
#: as 0 or 1 gets the exact interval of :func:`plus_minus`.
PROPORTION_COLUMNS = frozenset({"probability", "p", "at_least", "at_most", "cheatin"})


def is_proportion(name: object) -> bool:
    """True for a column (or figure) that holds a probability: ``p_...`` or :data:`PROPORTION_COLUMNS`."""
    text = str(name)
    return text.startswith("p_") or text in PROPORTION_COLUMNS


#: Human labels of field names, for table and Markdown output (JSON and CSV keep the field names):
#: the one mapping every command that shows a field name as a label uses.
FIELD_LABELS = {
    "probability": "probability", "p_win": "P(win)", "p_lose": "P(lose)", "p_tie": "P(tie)",
    "p_cheatin": "P(cheatin')", "mean_rank": "mean rank", "at_least": "P(rank >= this)",
    "at_most": "P(rank <= this)", "cheatin": "P(this rank, cheatin')",
    "lowball_p_win": "P(win Gamblin')", "lowball_p_cheatin": "P(cheatin') in Gamblin'",
    "lowball_mean_rank": "lowball mean rank", "shootout_mean_rank": "mean kept rank",
    "shootout_p_full_house_or_better": "P(full house or better)", "shootout_p_cheatin": "P(cheatin')",
    "p_full_house_or_better": "P(full house or better)", "shootout_exact": "exact",
    "expected_casualties": "casualties suffered (mean)", "casualties_suffered_mean": "casualties suffered (mean)",
    "p_a_wins": "P(A wins)", "p_b_wins": "P(B wins)", "p_draw": "P(draw)", "p_nobody": "P(nobody wins)",
    "p_a_fled": "P(A fled)", "p_b_fled": "P(B fled)", "p_cap": "P(stopped at the round cap)",
    "delta_p_a_wins": "change in P(A wins)", "dudes_lost_a": "A's dudes lost (mean)",
    "delta_dudes_lost_a": "change in A's dudes lost", "rounds_mean": "rounds (mean)",
    "p_aced": "P(aced)", "p_discarded": "P(discarded)", "p_sent_home": "P(sent home)", "p_fled": "P(fled)",
    "p_standing": "P(standing at the end)",
    "p_a_bottles": "P(A Bottles Out)", "p_b_bottles": "P(B Bottles Out)", "p_a_wiped_out": "P(A wiped out)",
    "p_b_wiped_out": "P(B wiped out)", "p_by_victory_points": "P(decided on Victory Points)",
    "turns_mean": "Game Turns (mean)", "casualties_a": "A's casualties (mean)", "casualties_b": "B's casualties (mean)",
    "victory_points_a": "A's Victory Points (mean)", "victory_points_b": "B's Victory Points (mean)",
    "p_event_per_turn": "P(an event in a Turn)", "p_a_first_turn_1": "P(A activates first, Turn 1)",
    "p_event_turn_1": "P(an event in Turn 1)", "p_casualty": "P(casualty)", "p_downed_at_end": "P(Downed at the end)",
}


def human_label(name: object) -> str:
    """The table/Markdown label of a field name (:data:`FIELD_LABELS`; " ± se" kept), else the name."""
    text = str(name)
    base, se = (text[:-len(" ± se")], " ± se") if text.endswith(" ± se") else (text, "")
    return FIELD_LABELS.get(base, base) + se


def human_columns(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with its columns under their human labels (for table and Markdown output only)."""
    return df.rename(columns={c: human_label(c) for c in df.columns})


def note(text: str, indent: str = "") -> str:
    """A prose note under a table, wrapped to :func:`table_width`, ending in a newline;
    ``indent`` starts its continuation lines (a hanging indent)."""
    return textwrap.fill(" ".join(text.split()), width=max(table_width(), 40), subsequent_indent=indent,
                         break_on_hyphens=False) + "\n"  # keep-posse, --trials stay whole


def fact_lines(facts: Sequence[tuple[str, str]]) -> str:
    """``name  value`` lines with the values aligned, each wrapped to :func:`table_width`
    under its own value column (a hanging indent), ending in a newline."""
    width = max((len(k) for k, _ in facts), default=0) + 2
    room = max(table_width(), 40)
    return "".join(textwrap.fill(" ".join(str(v).split()) or "-", width=max(room, width + 20),
                                 initial_indent=k.ljust(width), subsequent_indent=" " * width,
                                 break_on_hyphens=False) + "\n" for k, v in facts)


def stderr_note(text: str, trials: int) -> str:
    """The note that explains "± n/a" and "(< x at 95%)" when ``text`` shows one (else "")."""
    out = ""
    if BOUND_MARK in text:
        out = note(f"< x (95%): a probability seen in none of the {trials:,} trials, below x with 95% confidence "
                   f"(the exact, Clopper-Pearson interval); > x (95%): seen in every trial, above x. Such a run "
                   f"gives no standard error.")
    if f"± {NO_STDERR}" not in text:
        return out
    return out + _na_note(trials, probabilities=not out)


def _na_note(trials: int, probabilities: bool = True) -> str:
    if trials < 2:
        return note("± n/a: one trial gives no standard error and says next to nothing; "
                    "run more trials (--trials).")
    if not probabilities:  # the probabilities have their bounds: what is left are counts and means
        return note(f"± n/a: the figure came out the same in every one of the {trials:,} trials, so no standard "
                    f"error can be estimated.")
    return note(f"± n/a: the figure came out the same in every one of the {trials:,} trials, so no standard "
                f"error can be estimated; a probability shown as 0 (or 1) is below {3 / trials:.2g} (or above "
                f"{1 - 3 / trials:.6g}) at 95% confidence.")


@dataclass(frozen=True)
class OutputTarget:
    """Where and how one output file is written.

    ``real`` is the file the bytes end in (a symlink chain resolved); a regular
    file there is replaced atomically and keeps its mode and owner (``existing``);
    a character device or FIFO is ``streamed``: opened and written, never replaced.
    """

    path: Path
    real: Path
    streamed: bool = False
    existing: os.stat_result | None = None


def _cannot(path: Path, why: str) -> OddsmithError:
    return OddsmithError(f"cannot write {shorten(str(path), PATH_LIMIT)}: {why}")


def _kind(mode: int) -> str:
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


#: What the temporary file adds to a name: "." before it, "." and mkstemp's 8 characters and ".part" after.
_TMP_EXTRA = 1 + 1 + 8 + len(".part")
#: The longest file name (bytes) where the folder does not say (Linux, macOS, Windows: 255).
NAME_MAX = 255

#: errno values that mean the bytes could not be stored (a full disk, a quota, /dev/full, a read-only
#: file system, a broken device): a write failure is one line, not a traceback.
_WRITE_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EROFS, errno.ENXIO, errno.EPIPE}


def _name_max(folder: Path) -> int:
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (OSError, ValueError, AttributeError):
        return NAME_MAX


def _tmp_prefix(name: str, limit: int = NAME_MAX) -> str:
    """The temporary file's prefix for ``name``, cut so that the whole temporary name fits in
    ``limit`` bytes (a 250-character name gets a temporary file too)."""
    room = max(1, limit - _TMP_EXTRA)
    raw = os.fsencode(name)
    if len(raw) > room:
        cut = raw[:room]
        while cut and cut[-1] & 0xC0 == 0x80:  # not in the middle of a UTF-8 character
            cut = cut[:-1]
        if cut and cut[-1] >= 0xC0:
            cut = cut[:-1]
        name = os.fsdecode(cut) or "x"
    return f".{name}."


def _too_long(name: str, limit: int) -> str:
    return f"the file name is {len(os.fsencode(name))} bytes long, more than the {limit} a file name may have"


def output_target(path: str | os.PathLike[str]) -> OutputTarget:
    """Classify ``path`` for writing, or raise the one-line reason it cannot be written."""
    given = Path(path)
    if not str(path):
        raise OddsmithError("--output is empty: give a file name ('-' for stdout)")
    try:
        st: os.stat_result | None = os.stat(given)  # follows symlinks: what would be written
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise _cannot(given, "a part of its path is a file, not a folder") from None
    except OSError as exc:  # a symlink loop, a folder we may not enter, a name too long
        if exc.errno == errno.ENAMETOOLONG and len(os.fsencode(given.name)) > NAME_MAX:
            raise _cannot(given, _too_long(given.name, NAME_MAX)) from None
        raise _cannot(given, (exc.strerror or str(exc)).lower()) from None
    if st is not None:
        if stat.S_ISDIR(st.st_mode):
            raise _cannot(given, "it is a folder")
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            if not os.access(given, os.W_OK):
                raise _cannot(given, "permission denied")
            return OutputTarget(given, given, streamed=True)
        if not stat.S_ISREG(st.st_mode):
            raise _cannot(given, f"it is {_kind(st.st_mode)} (files, FIFOs and devices such as /dev/null can be written)")
        real = Path(os.path.realpath(given))
        if not real.is_file():  # an open stream such as /dev/stdout on a deleted file
            return OutputTarget(given, given, streamed=True)
        if not os.access(real, os.W_OK):
            raise _cannot(given, "the file is read-only")
        existing: os.stat_result | None = st
    else:
        # A dangling symlink: the file it names is created.
        real = Path(os.path.realpath(given)) if given.is_symlink() else given
        existing = None
    folder = real.parent if str(real.parent) else Path(".")
    link = f" (the symlink's target {real})" if real != given else ""
    if not folder.is_dir():
        raise _cannot(given, f"folder {folder} does not exist{link}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise _cannot(given, f"folder {folder} is not writable{link}")
    limit = _name_max(folder)
    if len(os.fsencode(real.name)) > limit:
        raise _cannot(given, _too_long(real.name, limit) + link)
    return OutputTarget(given, real, existing=existing)


def check_output_path(path: str | os.PathLike[str], *, several_files: bool = False) -> Path:
    """Fail early, before any work, when ``path`` cannot be written.

    ``several_files``: the output also writes files named after ``path`` (the
    charts of a Markdown report, the pages of a PNG report); they cannot sit
    beside a device or FIFO.
    """
    target = output_target(path)
    if several_files and target.streamed:
        raise _cannot(target.path, "this output is several files named after it, which cannot go beside "
                                   "a device or FIFO; give a file name")
    return target.path


def check_output_option(value: Any) -> Any:
    """The early check as a typer callback of an ``--output`` option: bad places fail while
    the command line is read, before any work ('-' and no option mean stdout)."""
    if value is not None and str(value) != "-":
        check_output_path(value)
    return value


def _keep_mode(tmp: Path, target: OutputTarget) -> None:
    """Give a finished temporary file the mode of the file it replaces, or the mode
    ``open()`` would give a new file (mkstemp makes it 0600)."""
    old = target.existing
    if old is None:
        mask = os.umask(0)
        os.umask(mask)
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o666 & ~mask)
        return
    with contextlib.suppress(OSError):  # the owner only where we may (root), before the mode
        if (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
            os.chown(tmp, old.st_uid, old.st_gid)
    with contextlib.suppress(OSError):
        os.chmod(tmp, stat.S_IMODE(old.st_mode))


def _stream(tmp: Path, target: OutputTarget) -> None:
    # Opening a FIFO waits for its reader; Ctrl-C while waiting stops the command.
    with open(tmp, "rb") as src, open(target.path, "wb") as dst:
        shutil.copyfileobj(src, dst)
        dst.flush()  # a write error (/dev/full) shows here, not in a close that hides it


def _fsync(tmp: Path) -> None:
    """The temporary file's bytes on the disk before it is renamed over the target: after a crash
    the target is the old file or the whole new one, never an empty one."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_folder(folder: Path) -> None:
    """The rename itself on the disk (best effort: some systems cannot sync a folder)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_failure(exc: OSError, target: OutputTarget) -> OddsmithError | None:
    """The one-line error for an output file whose bytes could not be stored, or None when
    ``exc`` is not such a failure."""
    if exc.errno not in _WRITE_ERRNOS:
        return None
    why = {errno.ENOSPC: "no space left on the device", errno.EDQUOT: "the disk quota is used up",
           errno.EROFS: "the file system is read-only",
           errno.EFBIG: "the file is too large for the file system"}.get(exc.errno, (exc.strerror or str(exc)).lower())
    if target.streamed:
        left = "the output may be cut short there"
    elif target.existing is not None:
        left = "the old file is left as it was"
    else:
        left = "no file was written"
    return _cannot(target.path, f"{why}; {left}")


@contextlib.contextmanager
def atomic_paths(paths: Sequence[str | os.PathLike[str]]) -> Iterator[list[Path]]:
    """Yield temporary paths to write ``paths`` through; on success they all land at once.

    A regular file (new, or the final target of a symlink chain) is replaced
    by a temporary file written beside it, only when everything succeeded, and
    keeps the replaced file's mode and owner. A character device (``/dev/null``,
    ``/dev/stdout``) or a FIFO is never replaced: the output is written in the
    temporary folder first (writers such as the PDF one need to seek) and then
    copied into it. A path that cannot be written raises :class:`OddsmithError`
    before anything is written; a failure or Ctrl-C removes every temporary
    file and leaves every target untouched.
    """
    targets = [output_target(p) for p in paths]
    tmps: list[Path] = []
    try:
        with interrupts.deferred():  # Ctrl-C between creating a temporary file and noting it would leak it
            for target in targets:
                folder = None if target.streamed else target.real.parent
                limit = NAME_MAX if folder is None else _name_max(folder)
                try:
                    fd, tmp = tempfile.mkstemp(prefix=_tmp_prefix(target.real.name, limit), suffix=".part",
                                               dir=folder)
                except OSError as exc:
                    raise _cannot(target.path, (exc.strerror or str(exc)).lower()) from None
                tmps.append(Path(tmp))
                os.close(fd)
        current = targets[0] if targets else None
        try:
            yield list(tmps)
            interrupts.check()
            for tmp, target in zip(tmps, targets):
                current = target
                if target.streamed:
                    _stream(tmp, target)
                else:
                    _fsync(tmp)
        except OSError as exc:
            failure = write_failure(exc, current) if current is not None else None
            if failure is None:
                raise
            raise failure from None
        with interrupts.deferred():  # every file lands, or (interrupted before) none
            for tmp, target in zip(tmps, targets):
                if not target.streamed:
                    _keep_mode(tmp, target)
                    os.replace(tmp, target.real)
            for folder in {t.real.parent for t in targets if not t.streamed}:
                _fsync_folder(folder)
    finally:
        with interrupts.held():
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


def duration(seconds: float) -> str:
    """A rough human duration: ``45 s``, ``3 min 05 s``, ``2 h 10 min``, ``12 days``."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    days = s // 86400
    return f"{days:,} day{'s' if days != 1 else ''}" + (f" {s % 86400 // 3600} h" if days < 10 else "")


_observers = threading.local()


@contextlib.contextmanager
def thread_setting(local: threading.local, name: str, value: object) -> Iterator[None]:
    """``local.<name>`` is ``value`` on this thread for the duration, then what it was before (None if unset)."""
    before = getattr(local, name, None)
    setattr(local, name, value)
    try:
        yield
    finally:
        setattr(local, name, before)


@contextlib.contextmanager
def observe_progress(callback: Callable[[str, int, int], None]) -> Iterator[None]:
    """Send every :class:`Progress` of this thread to ``callback(label, done, total)`` instead of
    stderr (the web app's job runner). The callback may raise to stop the work: the chunk loops
    of :mod:`oddsmith.sampling` then start no new chunk, as on Ctrl-C."""
    with thread_setting(_observers, "callback", callback):
        yield


class Progress:
    """A progress bar with the time left, on stderr, for work longer than ``delay`` seconds.

    It draws only when stderr is a terminal, a Jupyter kernel's (or ``ODDSMITH_PROGRESS=1``), so
    pipes and log files stay clean, and only the outermost bar draws (a
    report's bar is not broken by the simulations inside it). ``note`` prints
    a line above the bar (on or off a terminal).
    """

    _open: list["Progress"] = []
    REDRAW_SECONDS = 0.1
    #: In a worker process (:func:`silence`): its parent draws the bar.
    silent = False

    @classmethod
    def silence(cls) -> None:
        """Never draw in this process, a worker forked while its parent's bar was open: it would redraw its own
        stale copy of that bar, alternating with the parent's."""
        cls.silent = True
        cls._open.clear()

    def __init__(self, total: int, label: str = "", *, delay: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.total = max(int(total), 1)
        self.label = label
        self.done = 0
        self.clock = clock
        self.start = clock()
        self.delay = delay
        from oddsmith.notebook import in_notebook_kernel  # a notebook rewrites the \r line as a terminal does

        self.enabled = sys.stderr.isatty() or os.environ.get("ODDSMITH_PROGRESS") == "1" or in_notebook_kernel()
        self.drawn = False
        self._last_draw = -math.inf
        self._width = 0
        self._last_label = label
        Progress._open.append(self)

    @property
    def elapsed(self) -> float:
        return self.clock() - self.start

    def time_left(self) -> float | None:
        """Seconds left at the speed so far (None before anything is done)."""
        if self.done <= 0:
            return None
        return self.elapsed * (self.total - self.done) / self.done

    def advance(self, n: int = 1) -> None:
        self.done = min(self.total, self.done + n)
        self.draw()

    def draw(self, *, force: bool = False) -> None:
        observer = getattr(_observers, "callback", None)
        if observer is not None:  # observed (a web job): report there, never on stderr
            observer(self.label, self.done, self.total)
            return
        if Progress._open and Progress._open[0] is not self:  # an inner bar keeps the outer one moving
            Progress._open[0].draw()
            return
        if not self.enabled or Progress.silent:
            return
        now = self.clock()
        if now - self.start < self.delay:
            return
        if not force and now - self._last_draw < self.REDRAW_SECONDS and self.done < self.total \
                and self.label == self._last_label:
            return
        self._last_draw, self._last_label = now, self.label
        frac = self.done / self.total
        left = self.time_left()
        eta = "" if left is None else f"  {duration(left)} left"
        pct = f"{100 * frac:5.1f}%" if frac >= 0.01 or frac == 0 else f"{100 * frac:.3f}%"  # hours-long runs move too
        line = f"\r{self.label} [{'#' * int(30 * frac):<30}] {pct}{eta}"
        pad = max(0, self._width - len(line))
        self._width = len(line)
        sys.stderr.write(line + " " * pad)
        sys.stderr.flush()
        self.drawn = True

    def note(self, line: str) -> None:
        """Print ``line`` on stderr above the bar being drawn (this one or an outer one)."""
        bar = Progress._open[0] if Progress._open and Progress._open[0].drawn else None
        if bar is not None:
            sys.stderr.write("\r" + " " * bar._width + "\r")
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
        if bar is not None:
            bar.draw(force=True)

    def close(self) -> None:
        if self in Progress._open:
            Progress._open.remove(self)
        if self.drawn:
            sys.stderr.write("\n")
            sys.stderr.flush()
            self.drawn = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
