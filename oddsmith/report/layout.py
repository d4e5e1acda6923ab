"""Page geometry by hand: every axes of a page placed from known sizes, with no layout engine.

Matplotlib's constrained layout measured every axes' decorations by laying their text out (two
passes over every tick label, title and legend: about a third of a report's drawing, docs/speed.md,
'Reports'). Here each block of a page gets its rectangle from the page's geometry (the document
knows every block's height and width share), and inside it the axes are inset by the room their
decorations need, worked out from the font sizes of the style file and the width of each string
from the font's advance widths (read once per character and weight, no text laid out, nothing
drawn). What is placed:

* a grid of axes (``subplots``): per column the room of its tick labels and axis labels on the
  left and right, per row the room of titles above and tick labels and axis labels below;
* a subfigure's ``suptitle`` above the grid; a figure legend ``loc="outside ..."`` on the side
  it names (below the grid for ``lower``, right of it for ``right``);
* a colour bar (:class:`oddsmith.report.colour_bar.ColourBar`): right of the grid, centred on it, as long as the
  grid is tall (at most the length its chart allows), with room for its ticks and label;
* texts and annotations inside an axes that stick out of it (a label at the end of a bar) are
  given room too.

A left-aligned title that would run past its block is wrapped again to the width it has.
"""
from __future__ import annotations

import functools
import math
import sys
import textwrap
import weakref
from typing import Sequence

import matplotlib as mpl
import matplotlib.axis as maxis
import matplotlib.colors as mcolors
import matplotlib.lines as mlines
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.transforms import Bbox

#: Room kept round every block, and between the panels of a grid (inches): the constrained layout's pads.
PAD = 0.06
GAP = 0.14
#: A colour bar's distance from the panels it explains (inches).
COLORBAR_PAD = 0.1
#: Rounds of placing and measuring at most (the room of numeric tick labels depends on the axes' size):
#: the first places with no room for decorations, the second with the room they need, which is
#: usually the end (the room measured again within TOLERANCE inches).
ROUNDS = 4
TOLERANCE = 0.01
#: Per-character widths ignore kerning: a little slack on every string (a fraction, plus points).
WIDTH_SLACK = 1.03
WIDTH_EXTRA_PT = 0.5


# ---------------------------------------------------------------------------- text sizes

def _font(family: str, weight: str):
    from matplotlib.font_manager import FontProperties, findfont, get_font

    return get_font(findfont(FontProperties(family=family, weight=weight)))


_ADVANCE: dict[tuple[str, str, str], float] = {}


def _char_width(ch: str, family: str, weight: str) -> float:
    key = (ch, family, weight)
    width = _ADVANCE.get(key)
    if width is None and _is_core(family):
        from oddsmith.report.style import core_font_metrics

        width = _ADVANCE[key] = core_font_metrics(family, weight).get_str_bbox_and_descent(ch)[2] / 1000
    if width is None:
        from matplotlib import ft2font

        flags = getattr(getattr(ft2font, "LoadFlags", None), "NO_HINTING", None)
        if flags is None:  # matplotlib before 3.10
            flags = ft2font.LOAD_NO_HINTING
        font = _font(family, weight)
        font.set_size(100, 72)
        try:
            width = font.load_char(ord(ch), flags=flags).linearHoriAdvance / 65536 / 100
        except (RuntimeError, ValueError):
            width = 0.6
        _ADVANCE[key] = width
    return width


def _is_core(family: str) -> bool:
    """Whether ``family`` is one of the PDF's standard fonts, drawn as such (oddsmith.report.style)."""
    from oddsmith.report.style import PDF_CORE_FONTS

    return bool(mpl.rcParams["pdf.use14corefonts"]) and family in PDF_CORE_FONTS["font.family"]


#: Text to compare the widths of two fonts by: the letters of running English, the digits, the usual marks.
WIDTH_SAMPLE = "the quick brown fox jumps over the lazy dog THE QUICK BROWN FOX 0123456789 (%), ±."


def char_scale() -> float:
    """How wide the font in use sets text against the style's TrueType font (1.0 when it is that font): wraps
    made by counting characters (about 0.6 em each in DejaVu Sans) take this many times as many inches."""
    family = mpl.rcParams["font.family"][0]
    if not _is_core(family):
        return 1.0
    from oddsmith.report.style import MEASURED_FAMILY

    return _line_width_pt(WIDTH_SAMPLE, 10.0, "normal", family) / _line_width_pt(WIDTH_SAMPLE, 10.0, "normal",
                                                                                   MEASURED_FAMILY)


def _weight(weight) -> str:
    if isinstance(weight, (int, float)):
        return "bold" if weight >= 600 else "normal"
    return "bold" if str(weight) in ("bold", "heavy", "extra bold", "black", "semibold", "demibold",
                                     "demi") else "normal"


def line_width_pt(line: str, size: float, weight: str = "normal") -> float:
    """The printed width of one line (points) in the style's font: the sum of its characters' advances,
    and a little slack."""
    return _line_width_pt(line, float(size), weight, mpl.rcParams["font.family"][0])


@functools.lru_cache(maxsize=65536)
def _line_width_pt(line: str, size: float, weight: str, family: str) -> float:
    if not line:
        return 0.0
    return size * sum(_char_width(ch, family, weight) for ch in line) * WIDTH_SLACK + WIDTH_EXTRA_PT


def text_size_pt(text: str, size: float, weight: str = "normal", linespacing: float = 1.2) -> tuple[float, float]:
    """Width and height (points) of a possibly multi-line string, unrotated."""
    lines = text.split("\n")
    width = max(line_width_pt(line, size, weight) for line in lines)
    return width, size * (1.24 + linespacing * (len(lines) - 1))


def _linespacing(t) -> float:
    """Text ``t``'s line spacing (in font sizes); "normal" (matplotlib 3.11), the font's own, counts as about 1.2."""
    ls = getattr(t, "_linespacing", 1.2)
    return ls if isinstance(ls, (int, float)) else 1.2


def _text_size(t) -> tuple[float, float]:
    return text_size_pt(t.get_text(), t.get_fontsize(), _weight(t.get_fontweight()), _linespacing(t))


@functools.lru_cache(maxsize=4096)
def _line_box_em(line: str, family: str, weight: str) -> tuple[float, float]:
    """Width and height of one line's box as Matplotlib draws it, in ems: its glyphs' extent, never less high than
    "lp" (Text._get_layout), by the PDF's font metrics or the TrueType font's."""
    if _is_core(family):
        from oddsmith.report.style import core_font_metrics

        afm = core_font_metrics(family, weight)
        _, _, width, height, _ = afm.get_str_bbox_and_descent(line)
        return width / 1000, max(height, afm.get_str_bbox_and_descent("lp")[3]) / 1000
    font = _font(family, weight)
    font.set_size(100, 72)
    font.set_text("lp", 0.0)
    lp = font.get_width_height()[1]
    font.set_text(line, 0.0)
    width, height = font.get_width_height()
    return width / 64 / 100, max(height, lp) / 64 / 100


def _drawn_size(t) -> tuple[float, float]:
    """Width and height (points) of text ``t``'s box as drawn, unrotated: its lines as wide and its first line as
    high as Matplotlib draws them (:func:`_line_box_em`; the layout's measures allow a little more), the others
    spaced as :func:`text_size_pt` spaces them."""
    size, lines = t.get_fontsize(), t.get_text().split("\n")
    family, weight = mpl.rcParams["font.family"][0], _weight(t.get_fontweight())
    boxes = [_line_box_em(line, family, weight) for line in lines]
    return size * max(w for w, _ in boxes), size * (boxes[0][1] + _linespacing(t) * (len(lines) - 1))


def _rotated(w: float, h: float, rotation: float) -> tuple[float, float]:
    r = math.radians(rotation % 180)
    c, s = abs(math.cos(r)), abs(math.sin(r))
    return w * c + h * s, w * s + h * c


def _box(x: float, y: float, w: float, h: float, ha: str, va: str) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of a w x h box aligned at (x, y) by ``ha`` and ``va``."""
    x0 = x - {"left": 0.0, "right": w}.get(ha, w / 2)
    if va == "top":
        y0 = y - h
    elif va in ("bottom", "baseline"):
        y0 = y - (0.22 * h if va == "baseline" else 0.0)
    else:
        y0 = y - h / 2
    return x0, y0, x0 + w, y0 + h


def cell_text(ax, x: float, y: float, text: str, *, transform=None, **kwargs):
    """A text inside ``ax`` that the layout need not measure, at (x, y) in ``transform`` (``ax``'s data
    coordinates unless given), held by the axes' (sub)figure.

    An Axes text is given the axes' clip path, and setting it costs more than the text itself (two
    composite transforms per text); such a text is never clipped, so it does without. Many texts of
    one style in one axes (a heatmap's numbers, a table's cells) are :func:`cell_texts` instead."""
    return ax.get_figure(root=False).text(x, y, text, transform=ax.transData if transform is None else transform,
                                          in_layout=False, **kwargs)


class CellTexts(Artist):
    """Texts of one style at many places of one axes (a heatmap's numbers, a table's cells), each with its
    own colour and weight, drawn in one go by one :class:`~matplotlib.text.Text` moved from cell to cell.

    Each number as a Text of its own cost more to make (its font properties, its visual defaults) than to
    draw: a page of heatmaps makes about a thousand (docs/speed.md, 'Reports'). Each string lands exactly
    where its own Text would: drawn through ``Text.draw``, or on a PDF or PNG page with each distinct string laid
    out once (:meth:`_draw_laid_out`). Never measured by the layout, never clipped (:func:`cell_text`)."""

    zorder = 3  # a Text's: drawn among the (sub)figure's texts as before

    def __init__(self, template: Text, cells: Sequence[tuple[float, float, str, object, str]]) -> None:
        super().__init__()
        self._template = template
        self._cells = list(cells)
        self.set_in_layout(False)

    def set_cells(self, cells: Sequence[tuple[float, float, str, object, str]]) -> None:
        """Draw ``cells`` (x, y, text, colour, weight) from now on."""
        self._cells = list(cells)
        self.stale = True

    def texts(self) -> list[str]:
        """Every string, in the order given."""
        return [c[2] for c in self._cells]

    def each_text(self):
        """The template set up as each cell in turn (for measuring: its window extent is that cell's)."""
        t = self._template
        for x, y, text, color, weight in self._cells:
            t.set_position((x, y))
            t.set_text(text)
            t.set_color(color)
            if t.get_fontweight() != weight:
                t.set_fontweight(weight)
            yield t

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        t = self._template
        plain = not (t.get_path_effects() or t.get_usetex() or t.get_bbox_patch() is not None)
        if plain and _lays_out_alone(renderer):  # path effects, TeX and boxes: Text.draw's own business
            self._draw_laid_out(renderer)
        else:
            for cell in self.each_text():
                cell.draw(renderer)
        self.stale = False

    def _draw_laid_out(self, renderer) -> None:
        """What ``Text.draw`` of each cell draws, the same strings at the same places, with each distinct
        string (and weight) laid out once instead of once per cell, and one graphics context for all (laying
        a string out is about a third of what ``Text.draw`` costs, and a heatmap's numbers repeat)."""
        t = self._template
        cells = [c for c in self._cells if c[2]]
        if not cells:
            return
        at = t.get_transform().transform(np.array([(c[0], c[1]) for c in cells], dtype=float))
        canvas_h = renderer.get_canvas_width_height()[1]
        flip = renderer.flipy()
        angle = t.get_rotation()
        gc = renderer.new_gc()
        gc.set_alpha(t.get_alpha())
        gc.set_url(t.get_url())
        gc.set_antialiased(t.get_antialiased())
        gc.set_snap(t.get_snap())
        t._set_gc_clip(gc)
        laid: dict[tuple[str, str], list] = {}
        colour = None
        for (_, _, text, color, weight), (px, py) in zip(cells, at):
            if not (np.isfinite(px) and np.isfinite(py)):
                continue
            lines = laid.get((text, weight))
            if lines is None:
                if t.get_fontweight() != weight:
                    t.set_fontweight(weight)
                t.set_text(text)
                _, info, _ = t._get_layout(renderer)
                prop = t.get_fontproperties().copy()  # the template's own changes with the next weight
                lines = laid[(text, weight)] = [(*t._preprocess_math(line), *_line_offset(offset), prop)
                                                for line, _, *offset in info]
            if color is not colour:
                gc.set_foreground(mcolors.to_rgba(color), isRGBA=True)
                colour = color
            mtext = t if len(lines) == 1 else None  # as Text.draw passes it
            for clean, ismath, dx, dy, prop in lines:
                ly = py + dy
                renderer.draw_text(gc, px + dx, canvas_h - ly if flip else ly, clean, prop, angle, ismath=ismath,
                                   mtext=mtext)
        gc.restore()


def _line_offset(offset: list) -> tuple[float, float]:
    """A line's (x, y) offset from the text's position, from an entry of ``Text._get_layout``'s lines after
    its string and size: ``[(x, y)]`` from Matplotlib 3.11 on, ``[x, y]`` before."""
    return tuple(offset[0]) if len(offset) == 1 else (offset[0], offset[1])


def _lays_out_alone(renderer) -> bool:
    """Whether ``renderer`` draws a string from its position, font and angle, reading of the Text it comes from
    (``mtext``) nothing that depends on where it is: the PDF backend (with or without its mixed-mode wrapper) and
    Agg (PNG pages and charts), which read only the font features and language, the same for every cell of a
    :class:`CellTexts` (Agg before Matplotlib 3.11 reads nothing). SVG writes each text's own alignment: not it."""
    pdf = sys.modules.get("matplotlib.backends.backend_pdf")  # not imported: no PDF is being drawn
    if pdf is not None and isinstance(getattr(renderer, "_renderer", renderer), pdf.RendererPdf):  # mixed-mode: its
        return True                                                                                  # inner one
    agg = sys.modules.get("matplotlib.backends.backend_agg")
    return agg is not None and type(renderer) is agg.RendererAgg  # a subclass may draw text its own way


def cell_texts(ax, xs: Sequence[float], ys: Sequence[float], texts: Sequence[str], *,
               colors: Sequence[object] | None = None, weights: Sequence[str] | None = None,
               transform=None, **kwargs) -> CellTexts:
    """What ``cell_text(ax, x, y, text, color=c, fontweight=w, **kwargs)`` for each cell draws, as one
    :class:`CellTexts` held by ``ax``'s (sub)figure (``kwargs``: the style every cell shares)."""
    fig = ax.get_figure(root=False)
    color = kwargs.pop("color", None) or mpl.rcParams["text.color"]
    weight = kwargs.pop("fontweight", None) or mpl.rcParams["font.weight"]
    template = Text(0, 0, "", transform=ax.transData if transform is None else transform, color=color,
                    fontweight=weight, **kwargs)
    template.set_figure(fig)
    n = len(texts)
    cells = zip(xs, ys, texts, colors if colors is not None else [color] * n,
                weights if weights is not None else [weight] * n)
    artist = CellTexts(template, [(float(x), float(y), str(t), c, w) for x, y, t, c, w in cells])
    fig.add_artist(artist)
    return artist


#: The category labels :func:`edge_labels` put along an axes' edges, per axes: ``{"x": [...], "y": [...]}``.
_EDGE_LABELS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


#: A tick mark's marker on the bottom (x) or left (y) edge, by the style's tick direction (Matplotlib's XTick and
#: YTick), and how much of its length lies outside, pushing the labels away (Tick.get_tick_padding).
_MARKS = {"x": {"out": mlines.TICKDOWN, "in": mlines.TICKUP, "inout": "|"},
          "y": {"out": mlines.TICKLEFT, "in": mlines.TICKRIGHT, "inout": "_"}}
_MARK_OUTSIDE = {"in": 0.0, "inout": 0.5, "out": 1.0}


def edge_labels(ax, which: str, labels: Sequence[str], *, rotation: float = 0.0, axis_label: str = "",
                size: float | str | None = None, marks: bool = False, ha: str | None = None) -> list:
    """One label per column (``which="x"``, along the bottom edge) or per row (``"y"``, along the left edge) of
    ``ax``'s cells 0, 1, 2, ..., with ``axis_label`` beyond them: what ``ax.set_xticks(range(n), labels)`` and
    ``ax.set_xlabel`` draw, where they draw it (the axes' own tick-label transforms, the style's pad, size and
    colour; ``size`` in place of the style's; ``ha`` in place of the edge's alignment), without the ticks; with
    ``marks``, their tick marks too (the style's size, width, colour and direction, the labels beyond them), as
    one line of markers.

    Each matplotlib tick is two tick marks, a grid line and two labels, made and then laid out again at
    every draw: a heatmap's ticks cost about a fifth of drawing it, a bar chart's about 1 ms each
    (docs/speed.md, 'Reports'). The labels are held by the (sub)figure (:func:`cell_text`); :func:`overhang`
    measures them as it measures tick labels, and the axis label is set beyond them by the same measure."""
    from matplotlib.transforms import ScaledTranslation

    pad = mpl.rcParams[f"{which}tick.major.pad"]
    if marks:
        length, direction = mpl.rcParams[f"{which}tick.major.size"], mpl.rcParams[f"{which}tick.direction"]
        pad += length * _MARK_OUTSIDE[direction]
        ticks = np.arange(len(labels), dtype=float)
        line = mlines.Line2D(ticks if which == "x" else np.zeros(len(labels)),
                             np.zeros(len(labels)) if which == "x" else ticks,
                             transform=ax.get_xaxis_transform("tick1") if which == "x"
                             else ax.get_yaxis_transform("tick1"),
                             linestyle="none", marker=_MARKS[which][direction], markersize=length,
                             markeredgewidth=mpl.rcParams[f"{which}tick.major.width"],
                             color=mpl.rcParams[f"{which}tick.color"],
                             markeredgecolor=mpl.rcParams[f"{which}tick.color"],
                             zorder=mlines.Line2D.zorder + 0.01, clip_on=False)
        ax.add_artist(line)
    transform, va, edge_ha = (ax.get_xaxis_text1_transform(pad) if which == "x"
                              else ax.get_yaxis_text1_transform(pad))
    color = mpl.rcParams[f"{which}tick.labelcolor"]
    if color == "inherit":
        color = mpl.rcParams[f"{which}tick.color"]
    size = mpl.rcParams[f"{which}tick.labelsize"] if size is None else size
    texts = [cell_text(ax, k if which == "x" else 0, 0 if which == "x" else k, label, transform=transform, va=va,
                       ha=ha or edge_ha, rotation=rotation, fontsize=size, color=color)
             for k, label in enumerate(labels)]
    _EDGE_LABELS.setdefault(ax, {})[which] = texts
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_ticks([])
    if which == "x":
        ax.set_xlabel(axis_label)
    else:
        ax.set_ylabel(axis_label)
    if axis_label:
        # matplotlib sets an axis label beyond the tick labels' drawn boxes; these are no tick labels, so it is set
        # here, beyond their height as drawn (_drawn_size), not the layout's safe one
        reach = max((_rotated(*_drawn_size(t), rotation)[1 if which == "x" else 0] for t in texts if t.get_text()),
                    default=0.0)
        away = (pad + reach + axis.labelpad) / 72
        fig = ax.get_figure(root=True)
        if which == "x":
            axis.set_label_coords(0.5, 0.0, transform=ax.transAxes + ScaledTranslation(0, -away, fig.dpi_scale_trans))
        else:
            axis.set_label_coords(0.0, 0.5, transform=ax.transAxes + ScaledTranslation(-away, 0, fig.dpi_scale_trans))
    return texts


def edge_label_texts(ax) -> list:
    """The labels :func:`edge_labels` put along ``ax``'s edges (for the layout test)."""
    return [t for texts in _EDGE_LABELS.get(ax, {}).values() for t in texts]


def _edge_label_boxes(ax, which: str, dpi: float) -> list[tuple[float, float, float, float]]:
    return [_text_box(t, *t.get_transform().transform(t.get_position()), dpi / 72)
            for t in _EDGE_LABELS.get(ax, {}).get(which, ()) if t.get_visible() and t.get_text()]


def _text_box(t, x: float, y: float, pix: float) -> tuple[float, float, float, float]:
    """The box (display pixels) of text ``t`` anchored at display point (x, y), rotated and aligned as drawn."""
    w, h = _rotated(*_text_size(t), t.get_rotation())
    return _box(x, y, w * pix, h * pix, t.get_horizontalalignment(), _va(t.get_verticalalignment()))


# ---------------------------------------------------------------------------- axes

class _TicksOnDemand:
    """An axis' list of major or minor ticks, made when a tick is first asked for (``get_major_ticks`` or
    ``get_minor_ticks`` with a count above 0), not when other code looks at the list: until then it is empty.

    Matplotlib's own lazy list makes its first tick, the template of the others, as soon as anything reads it, and
    an Axes reads both of both axes as it is made (clipping them to its patch, setting the style's tick
    parameters), the spines read the minor ones to measure themselves, and so on. A report's axes show no minor
    tick, and most show no major tick on one axis or both (heatmaps, tables, notes): 412 of the 1,155 ticks the
    sample report made were such templates, at about 0.6 ms each (docs/speed.md, 'Reports')."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __get__(self, axis, owner=None):
        if axis is None:
            return self
        return axis.__dict__.get(self.name, ())


class _OnDemandAxis:
    """An axis (XAxis or YAxis) whose ticks are made on demand (:class:`_TicksOnDemand`), the same ticks as
    Matplotlib's when they are made: made with the tick parameters set so far (``set_tick_params`` stores them
    for ticks to come, as for Matplotlib's later ticks) and clipped to the path the axis was clipped to."""

    majorTicks = _TicksOnDemand("majorTicks")
    minorTicks = _TicksOnDemand("minorTicks")
    _tick_clip = None

    def _made(self, major: bool) -> list:
        """The tick list, made with its first tick (as Matplotlib's lazy list makes it) if it was not yet."""
        name = "majorTicks" if major else "minorTicks"
        if name not in self.__dict__:
            self.__dict__[name] = []  # as Matplotlib's: empty while the first tick is made, which may look at it
            self.__dict__[name] = [self._get_tick(major=major)]
        return self.__dict__[name]

    def _get_tick(self, major):
        tick = super()._get_tick(major)
        # only a list's first tick: the later ones take its clip with its other properties (Axis._copy_tick_props)
        if self._tick_clip is not None and not self.__dict__.get("majorTicks" if major else "minorTicks"):
            tick.set_clip_path(*self._tick_clip)
        return tick

    def set_clip_path(self, path, transform=None):
        # Axis.set_clip_path clips every tick, making the templates; here ticks made later are clipped as made
        Artist.set_clip_path(self, path, transform)
        self._tick_clip = (path, transform)
        for tick in (*self.majorTicks, *self.minorTicks):
            tick.set_clip_path(path, transform)
        self.stale = True

    def get_major_ticks(self, numticks=None):
        if numticks is None:
            numticks = len(self.get_majorticklocs())
        return super().get_major_ticks(self._asked(True, numticks))

    def get_minor_ticks(self, numticks=None):
        if numticks is None:
            numticks = len(self.get_minorticklocs())
        return super().get_minor_ticks(self._asked(False, numticks))

    def _asked(self, major: bool, numticks: int) -> int:
        """``numticks`` ticks are asked for: the list is made (with its first tick) unless none is."""
        if numticks:
            self._made(major)
        return numticks

    def _get_ticks_position(self):
        # reads the first tick of each list
        self._made(True)
        self._made(False)
        return super()._get_ticks_position()


class _XAxis(_OnDemandAxis, maxis.XAxis):
    pass


class _YAxis(_OnDemandAxis, maxis.YAxis):
    pass


_ON_DEMAND = {maxis.XAxis: _XAxis, maxis.YAxis: _YAxis}


class _AxesPatch(Rectangle):
    """An Axes' background rectangle whose transform (its own geometry's, then the Axes') is made once while neither
    changes, not at every call: every artist an Axes clips to its patch asks for it (``Artist.set_clip_path``), about
    3,200 times a report, and each made two transforms (docs/speed.md, 'Reports'). The same transform, shared."""

    def get_transform(self):
        own = Artist.get_transform(self)  # the Axes' (transAxes), a live node: kept by identity
        key = (self.get_x(), self.get_y(), self.get_width(), self.get_height(), self.get_angle(),
               str(self.rotation_point))
        made = self.__dict__.get("_made_transform")
        if made is None or made[0] is not own or made[1] != key:
            made = self._made_transform = (own, key, super().get_transform())
        return made[2]


class ReportAxes(Axes):
    """The Axes of every chart, table and text block of a report (``fig.add_subplot(axes_class=ReportAxes)``):
    Matplotlib's, but for ticks made only when one is shown or asked for (:class:`_TicksOnDemand`), and a
    background patch whose transform is made once (:class:`_AxesPatch`). The pages are the same to the byte (a test
    draws every kind of axes both ways)."""

    def _gen_axes_patch(self):
        return _AxesPatch((0.0, 0.0), 1.0, 1.0)

    def _init_axis(self):
        super()._init_axis()
        # Matplotlib's own axes, registered with the spines, made with clear=False (no tick yet), turned into the
        # same axes with ticks on demand
        for axis in (self.xaxis, self.yaxis):
            if type(axis) not in _ON_DEMAND:
                raise TypeError(f"ReportAxes takes Matplotlib's XAxis and YAxis, not {type(axis).__name__}")
            axis.__class__ = _ON_DEMAND[type(axis)]

    def clear(self):
        super().clear()
        # Matplotlib places the spines (their default position, their transform) when an axis makes its first tick,
        # which a plain Axes does as it is cleared: placed here, as they would be
        for spine in self.spines.values():
            spine.get_spine_transform()


# ---------------------------------------------------------------------------- bars

@functools.cache
def _unit_rectangle_points() -> np.ndarray:
    """The points ``Axes._update_patch_limits`` takes from the unit rectangle, every bar's path: the two ends of
    each of its segments (straight lines have no extrema between them), worked out by Matplotlib itself, once."""
    return np.vstack([curve([0, *curve.axis_aligned_extrema()[1], 1])
                      for curve, _ in Path.unit_rectangle().iter_bezier(simplify=False)])


class BarAxes(ReportAxes):
    """The Axes of the report's bar charts (``fig.add_subplot(axes_class=BarAxes)``).

    ``Axes.bar`` adds each bar as a Rectangle, and ``add_patch`` takes the data limits of each from the Bezier
    segments of its path, built and solved afresh for every bar: about 0.5 ms a bar, as much as making and drawing
    it, for the same unit rectangle every time (a report draws about a thousand bars: docs/speed.md, 'Reports').
    These Axes take a plain bar's limits from the unit rectangle's points, worked out once, through the same patch
    transform: the same data limits to the last bit (a test compares them with Matplotlib's on random bars).
    Any other patch, or a bar on other transforms, is left to Matplotlib."""

    def _update_patch_limits(self, patch):
        if (type(patch) is Rectangle and self.name == "rectilinear" and patch.get_path() is Path.unit_rectangle()
                and patch.get_data_transform() is self.transData and (patch.get_width() or patch.get_height())):
            # Matplotlib transforms the points by the patch's transform less transData: its patch transform
            self.update_datalim(patch.get_patch_transform().transform(_unit_rectangle_points()))
            return
        super()._update_patch_limits(patch)


# ---------------------------------------------------------------------------- what an axes needs round it

def _tick_label_boxes(ax, axis, dpi: float) -> list[tuple[float, float, float, float]]:
    """Boxes (display pixels) of the visible tick labels of one axis, from their texts' sizes."""
    boxes = []
    try:
        ticks = axis._update_ticks()
    except Exception:  # pragma: no cover - an axis matplotlib cannot tick yet
        return boxes
    lo, hi = sorted(axis.get_view_interval())
    pix = dpi / 72
    for tick in ticks:
        loc = tick.get_loc()
        if loc is None or not (lo - 1e-9 * max(1.0, abs(hi - lo)) <= loc <= hi + 1e-9 * max(1.0, abs(hi - lo))):
            continue
        for label in (tick.label1, tick.label2):
            if not label.get_visible() or not label.get_text():
                continue
            boxes.append(_text_box(label, *label.get_transform().transform(label.get_position()), pix))
    return boxes


def _va(va: str) -> str:
    return "center" if va.startswith("center") else va


def _union(boxes: Sequence[tuple[float, float, float, float]]):
    if not boxes:
        return None
    a = np.asarray(boxes)
    return a[:, 0].min(), a[:, 1].min(), a[:, 2].max(), a[:, 3].max()


def _axis_label_box(ax, axis, ticks_box, dpi: float):
    """The axis label's box (display pixels), placed as matplotlib places it: beyond the tick labels."""
    label = axis.label
    if not label.get_visible() or not label.get_text():
        return None
    pix = dpi / 72
    w, h = _text_size(label)
    w, h = _rotated(w, h, label.get_rotation())
    w, h = w * pix, h * pix
    pad = axis.labelpad * pix
    box = ax.bbox
    side = axis.get_label_position()
    if axis is ax.xaxis:
        xc = (box.x0 + box.x1) / 2
        if side == "bottom":
            edge = min(box.y0, ticks_box[1]) if ticks_box else box.y0
            return xc - w / 2, edge - pad - h, xc + w / 2, edge - pad
        edge = max(box.y1, ticks_box[3]) if ticks_box else box.y1
        return xc - w / 2, edge + pad, xc + w / 2, edge + pad + h
    yc = (box.y0 + box.y1) / 2
    if side == "left":
        edge = min(box.x0, ticks_box[0]) if ticks_box else box.x0
        return edge - pad - w, yc - h / 2, edge - pad, yc + h / 2
    edge = max(box.x1, ticks_box[2]) if ticks_box else box.x1
    return edge + pad, yc - h / 2, edge + pad + w, yc + h / 2


def _title_boxes(ax, dpi: float) -> list:
    pix = dpi / 72
    pad = mpl.rcParams["axes.titlepad"] * pix
    boxes = []
    for title in (ax.title, ax._left_title, ax._right_title):
        if not title.get_visible() or not title.get_text():
            continue
        w, h = _text_size(title)
        x0, x1 = ax.bbox.x0, ax.bbox.x1
        xa = {"left": x0, "right": x1}.get(title.get_horizontalalignment(), (x0 + x1) / 2)
        bx = _box(xa, 0, w * pix, 0, title.get_horizontalalignment(), "bottom")
        boxes.append((bx[0], ax.bbox.y1 + pad, bx[2], ax.bbox.y1 + pad + h * pix))
    return boxes


def _text_boxes(ax, dpi: float) -> list:
    """Boxes of the texts and annotations drawn in ``ax`` that count for the layout (they may stick out)."""
    from matplotlib.text import Annotation

    pix = dpi / 72
    boxes = []
    for t in ax.texts:
        if not t.get_visible() or not t.get_in_layout() or not t.get_text():
            continue
        if isinstance(t, Annotation):
            if t.xycoords != "data" or t.anncoords not in ("offset points", "data"):
                continue
            x, y = ax.transData.transform(t.xy)
            if t.anncoords == "offset points":
                dx, dy = t.xyann
                x, y = x + dx * pix, y + dy * pix
            else:
                x, y = ax.transData.transform(t.xyann)
        else:
            x, y = t.get_transform().transform(t.get_position())
        boxes.append(_text_box(t, x, y, pix))
    return boxes


def overhang(ax, dpi: float) -> tuple[float, float, float, float]:
    """How far (inches) the decorations of ``ax`` reach past its left, bottom, right and top edges."""
    boxes = []
    if ax.axison:
        for axis, which in ((ax.xaxis, "x"), (ax.yaxis, "y")):
            ticks = _tick_label_boxes(ax, axis, dpi) + _edge_label_boxes(ax, which, dpi)
            tb = _union(ticks)
            boxes += ticks
            label = _axis_label_box(ax, axis, tb, dpi)
            if label is not None:
                boxes.append(label)
        # the spines and tick marks themselves: a point or two
    boxes += _title_boxes(ax, dpi)
    boxes += _text_boxes(ax, dpi)
    b = ax.bbox
    u = _union(boxes)
    if u is None:
        return 0.0, 0.0, 0.0, 0.0
    return tuple(max(0.0, v) / dpi for v in (b.x0 - u[0], b.y0 - u[1], u[2] - b.x1, u[3] - b.y1))


# ---------------------------------------------------------------------------- legends and titles

def legend_size_pt(legend) -> tuple[float, float]:
    """Width and height (points) of a legend, from its entries' texts and its spacing parameters."""
    texts = [t for t in legend.get_texts()]
    fs = legend._fontsize
    n = len(texts)
    ncols = max(1, min(legend._ncols, n or 1))
    per_col = -(-n // ncols) if n else 0
    widths = [text_size_pt(t.get_text(), t.get_fontsize(), _weight(t.get_fontweight()))[0] for t in texts]
    cols = [widths[c * per_col:(c + 1) * per_col] for c in range(ncols)]
    width = sum((legend.handlelength + legend.handletextpad) * fs + max(c or [0.0]) for c in cols)
    width += (ncols - 1) * legend.columnspacing * fs
    row = max(fs * 1.24, legend.handleheight * fs)
    height = per_col * row + max(per_col - 1, 0) * legend.labelspacing * fs
    title = legend.get_title()
    if title.get_text():
        tw, th = _text_size(title)
        width = max(width, tw)
        height += th + legend.labelspacing * fs
    pad = 2 * legend.borderpad * fs
    return width + pad, height + pad


def rewrap_title(ax, width_in: float) -> None:
    """Wrap a left-aligned title of ``ax`` again so that no line is wider than ``width_in``."""
    for title in (ax._left_title, ax.title):
        text = title.get_text()
        if not text:
            continue
        size, weight = title.get_fontsize(), _weight(title.get_fontweight())
        if max(line_width_pt(x, size, weight) for x in text.split("\n")) <= 72 * width_in:
            continue
        chars = max(12, len(text))
        while chars > 12:
            lines = textwrap.wrap(" ".join(text.split()), chars)
            if max(line_width_pt(x, size, weight) for x in lines) <= 72 * width_in:
                break
            chars -= 2
        title.set_text("\n".join(textwrap.wrap(" ".join(text.split()), chars)))


# ---------------------------------------------------------------------------- placing

def place(sub, rect: tuple[float, float, float, float]) -> None:
    """Place the axes, colour bar, suptitle and outside legends of ``sub`` (a Figure or SubFigure) inside
    ``rect`` (x0, y0, x1, y1 in inches from the root figure's lower left corner)."""
    root = sub.get_figure(root=True)
    dpi = root.dpi
    x0, y0, x1, y1 = rect
    top_reserve = bottom_reserve = right_reserve = left_reserve = 0.0
    sup = getattr(sub, "_suptitle", None)
    if sup is not None and sup.get_text():
        _, h = _text_size(sup)
        sup_y = y1
        top_reserve += h / 72 + PAD
    legends = [leg for leg in sub.legends if getattr(leg, "_outside_loc", None)]
    for leg in legends:
        w, h = legend_size_pt(leg)
        room = 2 * leg.borderaxespad * leg._fontsize
        if leg._outside_loc in ("lower", "upper"):
            if leg._outside_loc == "lower":
                bottom_reserve += (h + room) / 72
            else:
                top_reserve += (h + room) / 72
        elif leg._outside_loc == "left":
            left_reserve += (w + room) / 72
        else:
            right_reserve += (w + room) / 72
    axes = [a for a in sub.axes if a.get_subplotspec() is not None]
    from oddsmith.report.colour_bar import ColourBar

    bars = [a for a in sub.artists if isinstance(a, ColourBar)]
    if not axes:
        return
    gs = axes[0].get_subplotspec().get_gridspec()
    nrows, ncols = gs.get_geometry()
    wr = np.asarray(gs.get_width_ratios() or [1.0] * ncols, dtype=float)
    hr = np.asarray(gs.get_height_ratios() or [1.0] * nrows, dtype=float)
    left, right = np.zeros(ncols), np.zeros(ncols)
    top, bottom = np.zeros(nrows), np.zeros(nrows)
    bar_room = [COLORBAR_PAD + 0.1 for _ in bars]
    sub_box = sub.bbox  # display pixels of the subfigure
    sx0, sy0 = sub_box.x0 / dpi, sub_box.y0 / dpi
    sw, sh = max(sub_box.width / dpi, 1e-6), max(sub_box.height / dpi, 1e-6)

    def rel(bx0, by0, bx1, by1):
        return [(bx0 - sx0) / sw, (by0 - sy0) / sh, (bx1 - bx0) / sw, (by1 - by0) / sh]

    for round_ in range(ROUNDS):
        ax0 = x0 + left_reserve
        ax1 = x1 - right_reserve - sum(bar_room)
        ay0 = y0 + bottom_reserve
        ay1 = y1 - top_reserve
        width = max(ax1 - ax0 - left.sum() - right.sum() - GAP * (ncols - 1), 0.2)
        height = max(ay1 - ay0 - top.sum() - bottom.sum() - GAP * (nrows - 1), 0.2)
        col_w = width * wr / wr.sum()
        row_h = height * hr / hr.sum()
        col_x0 = ax0 + np.concatenate([[0.0], np.cumsum(left + col_w + right + GAP)[:-1]]) + left
        row_y1 = ay1 - np.concatenate([[0.0], np.cumsum(top + row_h + bottom + GAP)[:-1]]) - top
        for ax in axes:
            spec = ax.get_subplotspec()
            c0, c1 = spec.colspan.start, spec.colspan.stop - 1
            r0, r1 = spec.rowspan.start, spec.rowspan.stop - 1
            bx0, bx1 = col_x0[c0], col_x0[c1] + col_w[c1]
            by1, by0 = row_y1[r0], row_y1[r1] - row_h[r1]
            ax.set_position(rel(bx0, by0, bx1, by1))
            if ax._left_title.get_text():  # a left title runs from the axes' left edge to the block's
                rewrap_title(ax, x1 - right_reserve - bx0)
        grid_right = max(col_x0[-1] + col_w[-1] + right[-1], ax0)
        gy0 = row_y1[-1] - row_h[-1]
        gy1 = row_y1[0]
        lengths = [min(bar.max_length, gy1 - gy0) for bar in bars]
        for k, (bar, length) in enumerate(zip(bars, lengths)):
            bx0 = grid_right + sum(bar_room[:k]) + COLORBAR_PAD
            mid = (gy0 + gy1) / 2
            bar.set_rect((bx0, mid - length / 2, bx0 + bar.width, mid + length / 2))
        if round_ == ROUNDS - 1:
            break
        before = np.concatenate([left, right, top, bottom, bar_room])
        left[:], right[:], top[:], bottom[:] = 0.0, 0.0, 0.0, 0.0
        for ax in axes:
            spec = ax.get_subplotspec()
            ol, ob, or_, ot = overhang(ax, dpi)
            left[spec.colspan.start] = max(left[spec.colspan.start], ol)
            right[spec.colspan.stop - 1] = max(right[spec.colspan.stop - 1], or_)
            top[spec.rowspan.start] = max(top[spec.rowspan.start], ot)
            bottom[spec.rowspan.stop - 1] = max(bottom[spec.rowspan.stop - 1], ob)
        for k, (bar, length) in enumerate(zip(bars, lengths)):
            bar_room[k] = COLORBAR_PAD + bar.width + bar.room_right(length)
        if np.allclose(before, np.concatenate([left, right, top, bottom, bar_room]), rtol=0, atol=TOLERANCE):
            break  # placed with the room it needs
    if sup is not None and sup.get_text():
        sup.set_y((sup_y - sy0) / sh)
        sup.set_va("top")


def set_rect(sub, rect: tuple[float, float, float, float]) -> None:
    """Put the subfigure ``sub`` at ``rect`` (inches of the root figure)."""
    root = sub.get_figure(root=True)
    parent = sub._parent
    pb = parent.bbox
    dpi = root.dpi
    px0, py0 = pb.x0 / dpi, pb.y0 / dpi
    pw, ph = pb.width / dpi, pb.height / dpi
    x0, y0, x1, y1 = rect
    sub._redo_transform_rel_fig(bbox=Bbox.from_extents((x0 - px0) / pw, (y0 - py0) / ph,
                                                       (x1 - px0) / pw, (y1 - py0) / ph))
