"""The print style of every oddsmith chart, read from the one style file.

All visual settings (fonts, sizes, the colour-blind-safe Okabe-Ito palette
paired with hatches, the cividis heatmap colour map and the grey map of
neutral heatmaps, embedded fonts) live in
``oddsmith/report/oddsmith.mplstyle``. Code asks this module for colours and
hatches by position so that no chart carries settings of its own.
"""
from __future__ import annotations

import contextlib
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


def ink_on(rgba) -> str:
    """Black or white, whichever reads better on a cell of colour ``rgba``."""
    r, g, b = (np.asarray(mpl.colors.to_rgb(rgba)) ** 2.2)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if luminance > 0.22 else "white"
