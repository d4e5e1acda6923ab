"""Chart functions: tidy DataFrames in, matplotlib drawings out.

Each function draws into a figure or subfigure (``fig``) that the document
layout hands it, takes the data it shows as a DataFrame and a title that
states the parameters, and never computes a figure itself. Every chart reads
in black and white: heatmaps print their numbers in the cells, bars carry
direct labels, and series differ by hatch or marker as well as by colour
(colours, hatches and the colour map come from the style file through
:mod:`oddsmith.report.style`).

Heatmap colours follow one convention (stated in the glossary,
:data:`oddsmith.report.glossary.COLOUR_CONVENTION`): bright is better and dark
is worse for the side a chart is about (``good="high"`` when more is better,
``"low"`` when more is worse, a mapping per column when a table mixes the
two), and grey shades show outcomes that are neither (``"neutral"``).
"""
from __future__ import annotations

import textwrap
from typing import Mapping, Sequence, Union

import numpy as np

from oddsmith import lazy

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

# Loaded when a chart is drawn, not when its page is built (document.py, docs/speed.md 'Reports').
layout = lazy.module("oddsmith.report.layout")
style = lazy.module("oddsmith.report.style")

MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")

#: Every chart's whiskers (error bars) span this many standard errors either side of the
#: figure: about a 95 % interval, so a bar whose whiskers cross zero is no measurable change.
#: Tables print one standard error ("± se"); each page with whiskers says so (:data:`WHISKERS`).
WHISKER_SE = 2
WHISKERS = "whiskers: ± 2 standard errors (about a 95 % interval)"


def pct(p: float, digits: int = 1) -> str:
    """A probability as a percentage for a page (no % sign: headers say so)."""
    if p is None or (isinstance(p, float) and np.isnan(p)):
        return ""
    return f"{100 * p:.{digits}f}"


def set_title(ax, fig, title: str, *, share: float = 1.0) -> None:
    """An axes title wrapped to the width it has on the page (never cut off at the margin)."""
    if not title:
        return
    width_pt = 72 * _fig_width(fig) * share * 0.92
    ax.set_title("\n".join(textwrap.wrap(title, max(20, int(width_pt / (0.62 * 9 * layout.char_scale()))))))


def _label_size(n_cells_across: int, width_in: float) -> float:
    """A font size that fits four characters in a cell."""
    per_cell_pt = 72 * width_in / max(n_cells_across, 1)
    return float(np.clip(per_cell_pt / 2.9, 4.5, 8.0))


def _fig_width(fig) -> float:
    from oddsmith.report.document import _sub_width_fraction

    return fig.get_figure(root=True).get_figwidth() * _sub_width_fraction(fig)


# ---------------------------------------------------------------------------- heatmaps

HIGH, LOW, NEUTRAL = "high", "low", "neutral"
#: What a heatmap's numbers mean for the side it is about: ``"high"`` (more is better), ``"low"`` (more is
#: worse), ``"neutral"`` (neither), or one of those per column.
Good = Union[str, Mapping[str, str]]


def colour_map(good: str):
    """The colour map of a direction: bright always means better for the side the chart is about."""
    if good == HIGH:
        return style.cmap()
    if good == LOW:
        return style.cmap().reversed()
    if good == NEUTRAL:
        return style.neutral_cmap()
    raise ValueError(f"good must be {HIGH!r}, {LOW!r} or {NEUTRAL!r}, not {good!r}")


def column_goods(matrix: pd.DataFrame, good: Good) -> list[str]:
    """The direction of each column (a mapping names the columns it covers; the rest are ``"high"``)."""
    if isinstance(good, str):
        return [good] * matrix.shape[1]
    return [good.get(str(c), HIGH) for c in matrix.columns]


#: Pixels along each side of a heatmap cell in its image (:func:`heatmap`, :func:`cell_colours`).
CELL_PIXELS = 8


def cell_colours(ax) -> np.ndarray:
    """The RGBA colour of each cell (rows, columns, 4) of the heatmap drawn by :func:`heatmap` in ``ax``."""
    return np.asarray(ax.images[0].get_array())[::CELL_PIXELS, ::CELL_PIXELS]


def heatmap(ax, matrix: pd.DataFrame, *, title: str = "", xlabel: str = "", ylabel: str = "",
            vmin: float = 0.0, vmax: float = 1.0, digits: int = 1, percent: bool = True,
            font_size: float | None = None, cell_pt: float | None = None, good: Good = HIGH,
            column_ranges: Mapping[str, tuple[float, float]] | None = None, row_labels: bool = True) -> None:
    """One heatmap with its numbers printed in the cells (percent by default), coloured by ``good``.

    ``column_ranges``: a column's own (low, high) to shade it on, instead of ``vmin``-``vmax``.
    ``row_labels``: name the rows on the left (a panel beside another that names them need not)."""
    from matplotlib.collections import LineCollection
    from matplotlib.colors import Normalize

    values = matrix.to_numpy(dtype=float)
    goods = column_goods(matrix, good)
    maps = {g: colour_map(g) for g in dict.fromkeys(goods)}  # one per direction, not per column
    rgba = np.zeros(values.shape + (4,))
    shades: dict[tuple, list[int]] = {}  # the columns of one colour map and range, coloured in one call
    for j, g in enumerate(goods):
        lo, hi = (column_ranges or {}).get(str(matrix.columns[j]), (vmin, vmax))
        shades.setdefault((g, lo, hi), []).append(j)
    for (g, lo, hi), cols_of in shades.items():
        norm = Normalize(vmin=lo, vmax=hi if hi > lo else lo + 1e-12)
        rgba[:, cols_of] = maps[g](norm(np.nan_to_num(values[:, cols_of])))
    rgba[np.isnan(values)] = 0.0  # transparent: no figure in that cell
    # Unsampled: a vector page holds the cells' own pixels and scales them, instead of a raster of the whole
    # axes made at the page's resolution (PDF: about 10 ms less per heatmap, sharp cell edges at any zoom).
    # CELL_PIXELS per cell: a viewer that smooths a scaled image blurs only a sliver at each cell's edge.
    k = CELL_PIXELS
    ax.imshow(np.repeat(np.repeat(rgba, k, axis=0), k, axis=1), aspect="auto", interpolation="none",
              extent=(-0.5, values.shape[1] - 0.5, values.shape[0] - 0.5, -0.5))
    ax.grid(False)
    for side in ("top", "right", "bottom", "left"):
        ax.spines[side].set_visible(False)
    import textwrap

    labels = ["\n".join(textwrap.wrap(str(c), 14)) or str(c) for c in matrix.columns]
    if cell_pt is None:  # the caller knows the printed cell width better than the unplaced axes
        cell_pt = ax.get_figure(root=True).get_figwidth() * 72 * ax.get_position().width / max(values.shape[1], 1)
    rotate = max(len(part) for x in labels for part in x.split("\n")) * 0.6 * 7 > 0.95 * cell_pt
    layout.edge_labels(ax, "x", labels, rotation=90 if rotate else 0, axis_label=xlabel)
    rows_named = ["\n".join(textwrap.wrap(str(i), 30)) or str(i) for i in matrix.index] if row_labels else []
    layout.edge_labels(ax, "y", rows_named, axis_label=ylabel)
    # White lines between the cells: one line collection, not a grid of minor ticks (each tick is a
    # line, two labels and a grid line that the layout measures and the page draws: docs/speed.md), nor
    # Axes.vlines and hlines (two collections, with data limits the fixed limits below replace).
    rows, cols = values.shape
    segments = [((x, -0.5), (x, rows - 0.5)) for x in np.arange(-0.5, cols).tolist()]
    segments += [((-0.5, y), (cols - 0.5, y)) for y in np.arange(-0.5, rows).tolist()]
    ax.add_collection(LineCollection(segments, colors="white", linewidths=0.6, zorder=0.5), autolim=False)
    ax.set_xlim(-0.5, cols - 0.5)
    ax.set_ylim(rows - 0.5, -0.5)
    size = font_size or 6.5
    rows_at, cols_at = np.nonzero(~np.isnan(values))
    layout.cell_texts(ax, cols_at, rows_at,
                      [pct(v, digits) if percent else f"{v:.{digits}f}" for v in values[rows_at, cols_at]],
                      colors=style.inks_on(rgba[rows_at, cols_at]),
                      ha="center", va="center", fontsize=size)
    if title:
        ax.set_title(title)


def mixed_column_ranges(matrices: Sequence[pd.DataFrame]) -> dict[str, tuple[float, float]]:
    """Each column's (lowest, highest) value over ``matrices`` (columns of one name share a range)."""
    ranges: dict[str, tuple[float, float]] = {}
    for m in matrices:
        for c in m.columns:
            col = m[c].to_numpy(dtype=float)
            col = col[~np.isnan(col)]
            if not len(col):
                continue
            lo, hi = ranges.get(str(c), (np.inf, -np.inf))
            ranges[str(c)] = (min(lo, float(col.min())), max(hi, float(col.max())))
    return ranges


def heatmap_grid(fig, panels: Sequence[tuple], *, suptitle: str = "",
                 xlabel: str = "", ylabel: str = "", vmin: float = 0.0, vmax: float = 1.0,
                 digits: int = 1, percent: bool = True, colorbar_label: str = "probability (%)",
                 ncols: int | None = None, good: Good = HIGH, subject: str = "") -> None:
    """Several heatmaps side by side sharing one colour scale (e.g. one per Grit die or target rank).

    ``panels``: ``(title, matrix)`` or ``(title, matrix, good)`` (a panel's own direction). ``subject``:
    whom the colours are about ("the row deck"), named on the colour bar.

    Where the columns mix directions (Hit and Jams for a shooter), each column is shaded on its own
    range over every panel, brightest where it is best for ``subject`` and darkest where it is worst:
    on one 0-100 % scale a rare outcome (Jams) would be bright and a middling one (Shaken) dark in
    every row, whatever the row, and the colours would say little.
    """
    panels = [(p[0], p[1], p[2] if len(p) > 2 else good) for p in panels]
    goods = {g for _, m, pg in panels for g in column_goods(m, pg)}
    ranges = mixed_column_ranges([m for _, m, _ in panels]) if len(goods) > 1 else None
    n = len(panels)
    ncols = ncols or n
    nrows = -(-n // ncols)
    axes = fig.subplots(nrows, ncols, squeeze=False, subplot_kw={"axes_class": layout.ReportAxes})
    width = _fig_width(fig) / ncols
    cols_in_panel = max(p[1].shape[1] for p in panels)
    size = _label_size(cols_in_panel, width * 0.8)
    for k, ax in enumerate(axes.flat):
        if k >= n:
            ax.axis("off")
            continue
        title, matrix, panel_good = panels[k]
        heatmap(ax, matrix, title="", xlabel=xlabel, ylabel=ylabel if k % ncols == 0 else "",
                vmin=vmin, vmax=vmax, digits=digits, percent=percent, font_size=size,
                cell_pt=72 * width * 0.8 / cols_in_panel, good=panel_good, column_ranges=ranges,
                row_labels=k % ncols == 0)
        if title:  # wrap a long panel title within its panel, at the size every panel title has
            ax.set_title("\n".join(textwrap.wrap(title, max(8, int(72 * width * 0.65 / (0.65 * 9))))), fontsize=9)
    if suptitle:
        fig.suptitle(suptitle, x=0.0, ha="left", fontsize="medium", fontweight="bold")
    if colorbar_label:
        _colorbar(fig, axes, nrows, goods, colorbar_label, subject, vmin, vmax, percent)


#: Colour bar geometry in inches: its thickness, and the longest it gets on a tall chart.
COLORBAR_WIDTH = 0.11
COLORBAR_MAX = 2.4
#: Room a heatmap row of panels loses to its title, tick labels and axis label (inches).
PANEL_FURNITURE = 0.75


def _colorbar(fig, axes, nrows: int, goods: set[str], label: str, subject: str, vmin: float, vmax: float,
              percent: bool) -> None:
    """The shared colour bar: as tall as the panels allow (never squashed), saying which way is better.

    One direction: the numeric scale, plus "bright: better for <subject>". Mixed directions: a scale
    from worse to better with no numbers (the cells print them). Neutral: the numeric grey scale.
    Drawn as a :class:`~oddsmith.report.colour_bar.ColourBar`, which the page's layout places.
    """
    from matplotlib.colors import Normalize

    from oddsmith.report.colour_bar import ColourBar

    root = fig.get_figure(root=True)
    height_in = fig.bbox.height / root.dpi
    panel_in = max((height_in - 0.3) / nrows - PANEL_FURNITURE, 0.35)
    length = min(panel_in * nrows, COLORBAR_MAX)
    if NEUTRAL in goods and len(goods) > 1:  # a programming error: one colour bar cannot explain both scales
        raise ValueError("a heatmap grid mixes neutral (grey) cells with good/bad ones: draw them apart")
    mixed = len(goods) > 1
    ticks = {}  # the numeric scale's, worked out by the bar for its length
    if mixed:
        cmap, norm = style.cmap(), Normalize(0, 1)
        text = (f"better for {subject}" if subject else "better for the row") + ", each column on its own range"
        ticks = {"ticks": [0, 1], "tick_labels": ["worse", "better"]}
    else:
        (good,) = goods
        cmap = colour_map(good)
        scale = 100 if percent else 1
        norm = Normalize(scale * vmin, scale * vmax)
        if good == NEUTRAL:
            text = f"{label}\n(shade: how likely)"
        elif subject:
            text = f"{label}\nbright: better for {subject}"
        else:
            text = label
    if length >= 1.3:
        per_line = max(12, int(length * 72 / (0.6 * 8 * layout.char_scale())))
        wrapped = "\n".join(textwrap.fill(line, per_line) for line in text.split("\n"))
        level = False
    else:  # too short to write along: beside it, level
        wrapped = "\n".join(textwrap.fill(line, 18) for line in text.split("\n"))
        level = True
    # the page's hand layout (oddsmith.report.layout) knows the panels' real height: the bar as long as they are,
    # at most COLORBAR_MAX, and COLORBAR_WIDTH thick (inches)
    fig.add_artist(ColourBar(cmap, norm, label=wrapped, level=level, max_length=COLORBAR_MAX, width=COLORBAR_WIDTH,
                             panels=list(axes.ravel()), **ticks))


def unsampled_solids(bar) -> None:
    """The colours of the colour bar ``bar`` as an image of one pixel per colour, scaled by the page, instead of
    Matplotlib's mesh of bands.

    Matplotlib rasterizes a mesh of 50 colours or more on a vector page, and a PDF page makes that raster the
    size of the whole page (8.7 million bytes at 150 dpi, zeroed), searches it for the bar and encodes what it
    finds: about 12 ms a bar (docs/speed.md, 'Reports'). The image holds the same colours in the same places, as
    sharp at any zoom, and a PNG page draws it band by band as before. The glossary's colour scales are drawn so;
    a heatmap grid's bar is a :class:`~oddsmith.report.colour_bar.ColourBar`, which draws its colours the same way."""
    mesh = bar.solids
    if mesh is None:  # hatched bands (a contour set's): patches, never rasterized
        return
    corners = mesh.get_coordinates()  # (bands + 1, 2, 2): the bands' edges along the bar, each across it
    vertical = bar.orientation == "vertical"
    edges = corners[:, 0, 1 if vertical else 0]
    if corners.shape[1] != 2 or not np.all(np.diff(edges) > 0):  # not one row of bands from the low end: as drawn
        return
    mesh.update_scalarmappable()
    colours = np.asarray(mesh.get_facecolor(), dtype=float)  # one per band, in the order of the edges
    if len(colours) != len(edges) - 1:
        return
    x0, x1 = float(corners[..., 0].min()), float(corners[..., 0].max())
    y0, y1 = float(corners[..., 1].min()), float(corners[..., 1].max())
    pixels = colours[:, None, :] if vertical else colours[None, :, :]
    limits = bar.ax.get_xlim(), bar.ax.get_ylim()
    mesh.remove()
    bar.solids = bar.ax.imshow(pixels, aspect="auto", interpolation="none", origin="lower",
                               extent=(x0, x1, y0, y1), zorder=mesh.get_zorder())
    bar.ax.set_xlim(*limits[0])
    bar.ax.set_ylim(*limits[1])


# ---------------------------------------------------------------------------- bars

def _bar_labels(ax, bars, texts: Sequence[str], size: float = 6.5, horizontal: bool = False) -> None:
    for bar, text in zip(bars, texts):
        if horizontal:
            x = bar.get_x() + bar.get_width()
            y = bar.get_y() + bar.get_height() / 2
            ax.annotate(text, (x, y), xytext=(2, 0), textcoords="offset points", va="center",
                        ha="left", fontsize=size)
        else:
            x = bar.get_x() + bar.get_width() / 2
            y = bar.get_height()
            ax.annotate(text, (x, y), xytext=(0, 1.5), textcoords="offset points", ha="center",
                        va="bottom", fontsize=size)


def distribution_bars(fig, data: pd.DataFrame, *, x: str, p: str, stderr: str | None = None,
                      group: str | None = None, title: str = "", xlabel: str = "",
                      ylabel: str = "probability (%)", label_rotation: int = 0) -> None:
    """Bars of a distribution (one series, or grouped series told apart by hatch), values on top."""
    ax = fig.add_subplot(axes_class=layout.BarAxes)
    cats = list(dict.fromkeys(data[x]))
    groups = list(dict.fromkeys(data[group])) if group else [None]
    width = 0.8 / len(groups)
    cols, hts = style.colors(len(groups)), style.hatches(len(groups))
    size = _label_size(len(cats) * len(groups), _fig_width(fig) * 0.9) * (0.95 if len(groups) > 1 else 1)
    top = 0.0
    for g, (name, col, hatch) in enumerate(zip(groups, cols, hts)):
        sel = data if name is None else data[data[group] == name]
        sel = sel.set_index(x).reindex(cats)
        vals = 100 * sel[p].fillna(0).to_numpy(dtype=float)
        err = WHISKER_SE * 100 * sel[stderr].fillna(0).to_numpy(dtype=float) if stderr and stderr in sel else None
        if err is not None and not np.any(err > 0):
            err = None
        pos = np.arange(len(cats)) + (g - (len(groups) - 1) / 2) * width
        bars = ax.bar(pos, vals, width * 0.95, color=col, hatch=hatch, label=name, yerr=err,
                      error_kw={"elinewidth": 0.6, "ecolor": "black"})
        _bar_labels(ax, bars, [f"{v:.1f}" if v >= 0.05 else ("<0.1" if v > 0 else "0") for v in vals], size=size)
        top = max(top, float(np.max(vals)) if len(vals) else 0.0)
    layout.edge_labels(ax, "x", [str(c) for c in cats], rotation=label_rotation,
                       ha="right" if label_rotation else None, axis_label=xlabel, marks=True)
    ax.set_ylim(0, top * 1.15 + 1)
    ax.set_ylabel(ylabel)
    set_title(ax, fig, title)
    if group:
        ax.legend(ncols=min(len(groups), 4), loc="upper right")


def summed(data: pd.DataFrame, index: str, columns: str, values: str, index_order: Sequence,
           columns_order: Sequence) -> np.ndarray:
    """``data[values]`` summed by (``index``, ``columns``) into a float array, rows in ``index_order`` and columns
    in ``columns_order``; 0 where a pair is missing or NaN, pairs outside the orders left out: what
    ``pivot_table(aggfunc="sum").reindex(...).fillna(0)`` gives, without its grouping (about 3 ms a chart)."""
    rows = {k: i for i, k in enumerate(index_order)}
    cols = {k: j for j, k in enumerate(columns_order)}
    out = np.zeros((len(rows), len(cols)))
    for r, c, v in zip(data[index].tolist(), data[columns].tolist(), data[values].to_numpy(dtype=float).tolist()):
        i, j = rows.get(r), cols.get(c)
        if i is not None and j is not None and v == v:
            out[i, j] += v
    return out


def stacked_bars(fig, data: pd.DataFrame, *, bar: str, part: str, p: str, parts_order: Sequence[str] | None = None,
                 title: str = "", xlabel: str = "probability (%)", min_label: float = 0.06) -> None:
    """Horizontal 100 % stacked bars (e.g. win / tie / lose), each part with its colour, hatch and label."""
    ax = fig.add_subplot(axes_class=layout.BarAxes)
    bars_order = list(dict.fromkeys(data[bar]))
    parts = list(parts_order) if parts_order else list(dict.fromkeys(data[part]))
    table = summed(data, bar, part, p, bars_order, parts)
    left = np.zeros(len(bars_order))
    y = np.arange(len(bars_order))
    for k, (name, col, hatch) in enumerate(zip(parts, style.colors(len(parts)), style.hatches(len(parts)))):
        vals = table[:, k]
        rects = ax.barh(y, 100 * vals, left=100 * left, color=col, hatch=hatch, label=name, height=0.62)
        for r, v in zip(rects, vals):
            if v >= min_label:
                ax.text(r.get_x() + r.get_width() / 2, r.get_y() + r.get_height() / 2, f"{100 * v:.1f}",
                        ha="center", va="center", fontsize=6.5,
                        bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none", "alpha": 0.85})
        left += vals
    layout.edge_labels(ax, "y", [str(b) for b in bars_order], marks=True)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.grid(axis="x")
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(xlabel)
    set_title(ax, fig, title)
    fig.legend(*ax.get_legend_handles_labels(), ncols=len(parts), loc="outside lower center")


def value_suit_histogram(fig, counts: pd.DataFrame, *, title: str = "", jokers: int = 0) -> None:
    """Cards per value, stacked by suit (colour and hatch per suit), total on top; jokers as their own bar."""
    ax = fig.add_subplot(axes_class=layout.BarAxes)
    values = list(range(1, 14))
    labels = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    suits = list(dict.fromkeys(counts["suit"]))
    table = summed(counts, "value", "suit", "count", values, suits)
    bottom = np.zeros(len(values))
    x = np.arange(len(values))
    for k, (suit, col, hatch) in enumerate(zip(suits, style.colors(len(suits)), style.hatches(len(suits)))):
        vals = table[:, k]
        ax.bar(x, vals, bottom=bottom, color=col, hatch=hatch, label=suit, width=0.7)
        bottom += vals
    if jokers:
        ax.bar([len(values)], [jokers], color="white", hatch="", label="jokers", width=0.7, edgecolor="black")
    totals = list(bottom) + ([jokers] if jokers else [])
    for i, t in enumerate(totals):
        if t:
            ax.text(i, t + 0.1, f"{int(t)}", ha="center", va="bottom", fontsize=6.5)
    layout.edge_labels(ax, "x", labels + (["Joker"] if jokers else []), axis_label="value", marks=True)
    ax.set_ylim(0, max(totals + [1]) * 1.3 + 0.5)
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("cards")
    set_title(ax, fig, title)
    ax.legend(ncols=len(suits) + (1 if jokers else 0), loc="upper right")


# ---------------------------------------------------------------------------- trade-off

def tradeoff_scatter(fig, data: pd.DataFrame, *, x: str, y: str, deck: str, bonus: str,
                     xerr: str | None = None, yerr: str | None = None, title: str = "",
                     xlabel: str = "", ylabel: str = "") -> None:
    """One point per deck and bonus: x against y. The bonus is told by the marker (legend), the deck by
    colour and by a number printed above its column (named in the legend), so the chart reads in black and white."""
    ax = fig.add_subplot(axes_class=layout.ReportAxes)
    decks = list(dict.fromkeys(data[deck]))
    bonuses = list(dict.fromkeys(data[bonus]))
    marker_of = {b: MARKERS[i % len(MARKERS)] for i, b in enumerate(bonuses)}
    for name, col in zip(decks, style.colors(len(decks))):
        sel = data[data[deck] == name]
        for b in bonuses:
            row = sel[sel[bonus] == b]
            if row.empty:
                continue
            ex = WHISKER_SE * 100 * row[xerr].to_numpy(dtype=float) if xerr else None
            ey = WHISKER_SE * 100 * row[yerr].to_numpy(dtype=float) if yerr else None
            ax.errorbar(100 * row[x], 100 * row[y], xerr=ex, yerr=ey, fmt=marker_of[b], color=col,
                        markeredgecolor="black", markeredgewidth=0.5, ecolor="black", elinewidth=0.7,
                        linestyle="none", markersize=5)
    # each deck's number above its column; numbers of decks at nearly the same x are stacked
    xs = {n: 100 * float(data.loc[data[deck] == n, x].iloc[0]) for n in decks}
    span = max(max(xs.values()) - min(xs.values()), 1.0)
    levels: dict[str, int] = {}
    placed: list[tuple[float, int]] = []
    for n in sorted(decks, key=xs.get):
        level = 0
        while any(abs(xs[n] - px) < 0.025 * span and pl == level for px, pl in placed):
            level += 1
        levels[n] = level
        placed.append((xs[n], level))
    for n in decks:
        ax.annotate(str(decks.index(n) + 1), (xs[n], 102 + 5 * levels[n]), ha="center", va="bottom",
                    fontsize=7, fontweight="bold", color="#222222")
    from matplotlib.lines import Line2D
    from matplotlib.ticker import PercentFormatter

    handles = [Line2D([], [], marker=marker_of[b], linestyle="none", color="#777777", markeredgecolor="black",
                      markeredgewidth=0.5, label=str(b)) for b in bonuses]
    ax.xaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.yaxis.set_major_formatter(PercentFormatter(decimals=0))
    ax.grid(axis="both")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    set_title(ax, fig, title, share=0.68)
    ax.margins(x=0.08)
    # probabilities stay on 0-100 %; the band above 100 holds each deck's number
    ax.set_ylim(0, 108 + 5 * max(levels.values()))
    ax.set_yticks(range(0, 101, 20))
    from matplotlib.patches import Patch

    deck_handles = [Patch(facecolor=c, edgecolor="black", label=f"{i + 1}  {n}")
                    for i, (n, c) in enumerate(zip(decks, style.colors(len(decks))))]
    fig.legend(handles=handles + deck_handles, loc="outside right upper", title="marker: bonus\nnumber: deck")
