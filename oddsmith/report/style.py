"""The print style of every oddsmith chart, read from the one style file.

All visual settings (fonts, sizes, the colour-blind-safe Okabe-Ito palette
paired with hatches, the cividis heatmap colour map and the grey map of
neutral heatmaps, embedded fonts) live in
``oddsmith/report/oddsmith.mplstyle``. Code asks this module for colours and
hatches by position so that no chart carries settings of its own.
"""
from __future__ import annotations

import contextlib
import functools
from importlib import resources
from typing import Iterator

import matplotlib as mpl
import matplotlib.style
import numpy as np

# No backend is chosen here: every chart is a matplotlib.figure.Figure (never pyplot), written by
# savefig, so the report needs no backend, and importing oddsmith leaves a notebook's inline one alone.

STYLE_FILE = "oddsmith.mplstyle"


def style_path() -> str:
    """Path of the style file shipped in the package."""
    return str(resources.files("oddsmith.report").joinpath(STYLE_FILE))


@contextlib.contextmanager
def report_style() -> Iterator[None]:
    """Apply the oddsmith style for the duration of a report (restores the caller's rcParams)."""
    with mpl.rc_context():
        mpl.style.use(style_path())
        yield


#: A PDF report's text in Helvetica, one of the 14 standard fonts every PDF reader has: nothing laid out by
#: FreeType, nothing embedded, about half the cost of drawing a page (docs/speed.md, 'Reports'). Their
#: encoding is Windows-1252, so a tick's minus is the hyphen. Pages are placed with these fonts' own widths
#: (oddsmith.report.layout reads their metrics files).
PDF_CORE_FONTS = {"pdf.use14corefonts": True, "font.family": ["Helvetica"], "axes.unicode_minus": False}
CORE_ENCODING = "cp1252"
#: The style file's TrueType font, set by ``font.family`` in oddsmith.mplstyle.
MEASURED_FAMILY = "DejaVu Sans"


@contextlib.contextmanager
def pdf_core_fonts() -> Iterator[None]:
    """Draw PDF pages in the standard fonts (:data:`PDF_CORE_FONTS`) for the duration."""
    import logging

    log = logging.getLogger("matplotlib.font_manager")
    log.addFilter(_medium_is_normal)
    try:
        with mpl.rc_context(PDF_CORE_FONTS):
            _mend_core_font_heights()
            yield
    finally:
        log.removeFilter(_medium_is_normal)


def core_font_metrics(family: str, weight: str):
    """The metrics (AFM) of a standard font, the very object the PDF backend measures and draws with."""
    from matplotlib.backends._backend_pdf_ps import _cached_get_afm_from_fname
    from matplotlib.backends.backend_pdf import RendererPdf
    from matplotlib.font_manager import FontProperties, findfont

    prop = FontProperties(family=family, weight=weight)
    return _cached_get_afm_from_fname(findfont(prop, fontext="afm", directory=RendererPdf._afm_font_dir))


@functools.cache
def _mend_core_font_heights() -> None:
    """Matplotlib (3.11) reads a standard font's glyph box, given as (llx, lly, urx, ury), as (x, y, width,
    height): a quote or an apostrophe, whose box starts high, counts about twice as tall as it is, and in a
    text of several lines pushes its line down onto the next. Rewrite each glyph box of the faces the PDF
    backend draws with in the form it reads, once per process, and only while it misreads them (checked on
    the double quote, 255 units tall)."""
    for weight in ("normal", "bold"):
        afm = core_font_metrics(PDF_CORE_FONTS["font.family"][0], weight)
        boxes = getattr(afm, "_metrics_by_name", None)
        if not boxes or afm.get_str_bbox_and_descent('"')[3] < 500:
            continue
        for name, metrics in list(boxes.items()):
            llx, lly, urx, ury = metrics.bbox
            boxes[name] = metrics._replace(bbox=[llx, lly, urx - llx, ury - lly])


def _medium_is_normal(record) -> bool:
    """Drop matplotlib's warning that Helvetica's regular face is "Medium" where "normal" was asked: the
    standard fonts' metrics name it so; it is the face asked for."""
    return not (str(record.msg).startswith("findfont: Failed to find font weight")
                and record.args and record.args[1:] in (("Helvetica", "medium"), (["Helvetica"], "medium")))


def in_core_encoding(text: str) -> bool:
    """Whether every character of ``text`` is in the standard fonts' encoding (else it prints as "?")."""
    try:
        text.encode(CORE_ENCODING)
    except UnicodeEncodeError:
        return False
    return True


def _cycle(key: str) -> list:
    return list(mpl.rcParams["axes.prop_cycle"].by_key()[key])


def colors(n: int | None = None) -> list[str]:
    """The palette in order (``n`` entries, cycling if more are asked)."""
    cols = _cycle("color")
    if n is None:
        return cols
    return [cols[i % len(cols)] for i in range(n)]


HATCH_DIRECTIVE = "#oddsmith.hatches:"


def _style_hatches() -> list[str]:
    with open(style_path(), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(HATCH_DIRECTIVE):
                return line[len(HATCH_DIRECTIVE):].split()
    raise RuntimeError(f"{style_path()} has no {HATCH_DIRECTIVE} line")


def hatches(n: int | None = None) -> list[str]:
    """The hatch paired with each palette colour (for black-and-white prints), from the style file."""
    hs = _style_hatches()
    if n is None:
        return hs
    return [hs[i % len(hs)] for i in range(n)]


def cmap():
    """The heatmap colour map named in the style file."""
    return mpl.colormaps[mpl.rcParams["image.cmap"]]


NEUTRAL_DIRECTIVE = "#oddsmith.neutral_cmap:"


def neutral_cmap():
    """The grey colour map of heatmaps whose figures are neither good nor bad (named in the style file)."""
    from matplotlib.colors import ListedColormap

    with open(style_path(), encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(NEUTRAL_DIRECTIVE):
                name, lo, hi = line[len(NEUTRAL_DIRECTIVE):].split()
                base = mpl.colormaps[name]
                return ListedColormap(base(np.linspace(float(lo), float(hi), 256)), name=f"{name}_report")
    raise RuntimeError(f"{style_path()} has no {NEUTRAL_DIRECTIVE} line")


def _ink(rgb: np.ndarray):
    """Black (True) or white ink on each colour of ``rgb`` (its last axis: red, green, blue, 0..1): by the colour's
    luminance, above 0.22 dark ink reads better."""
    r, g, b = np.moveaxis(rgb ** 2.2, -1, 0)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.22


def ink_on(rgba) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba``."""
    return "black" if _ink(np.asarray(mpl.colors.to_rgb(rgba))) else "white"


def inks_on(rgba: np.ndarray) -> list[str]:
    """:func:`ink_on` of each colour of ``rgba`` (n x 4, values 0..1), worked out at once."""
    return ["black" if dark else "white" for dark in _ink(np.asarray(rgba, dtype=float)[:, :3]).tolist()]
