"""A heatmap grid's colour bar, drawn straight through the renderer.

Matplotlib's colour bar is an Axes with a Colorbar object, a spine, a mesh of bands and a tick per label: about
15 ms of a page per bar, 22 bars in the sample report, for a strip of colour, an outline, a few marks and numbers
(docs/speed.md, 'Reports'). :class:`ColourBar` draws the same things with the renderer's own calls (an image of
one pixel per colour, one path for the outline, one for the marks, the tick labels as :class:`CellTexts`, the label
as one Text), where Matplotlib's colour bar draws them:

* the colours: band i of the map's N at the i-th N-th of the bar, from the low end (``Colorbar._process_values``);
* the ticks: where Matplotlib's AutoLocator puts them on an axis as long as the bar (``YAxis.get_tick_space``: one
  tick per two label heights, at most 9 bins), labelled by its ScalarFormatter (``axis._update_ticks``), or the
  ticks given;
* marks, labels and the label on the right, as the style sets the y ticks and axis labels; the label beyond the
  tick labels (``YAxis._update_label_position``), written along the bar or level beside it.

:func:`oddsmith.report.layout.place` gives the bar its place (:meth:`ColourBar.set_rect`) and the room it needs on
the right (:meth:`ColourBar.room_right`); a figure drawn without the report's layout gets the bar beside the panels
it explains.
"""
from __future__ import annotations

from typing import Sequence

import matplotlib as mpl
import matplotlib.colors as mcolors
import numpy as np
from matplotlib import ticker
from matplotlib.artist import Artist
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, IdentityTransform

from oddsmith.report import layout

#: How much of a tick mark's length lies outside the bar, by the style's direction (Tick.get_tick_padding).
_OUTSIDE = {"in": 0.0, "inout": 0.5, "out": 1.0}
#: The room kept beside a bar when no layout placed it (inches): Matplotlib's ``fig.colorbar`` pad, 0.05 of a
#: 6.4" figure.
FALLBACK_PAD = 0.32


def tick_values(vmin: float, vmax: float, length_pt: float, label_size_pt: float) -> np.ndarray:
    """Where Matplotlib's AutoLocator ticks an axis from ``vmin`` to ``vmax`` that is ``length_pt`` long with tick
    labels ``label_size_pt`` high (every value it gives, the ones just outside the range included)."""
    space = int(np.floor(length_pt / (label_size_pt * 2))) if label_size_pt > 0 else 2 ** 31 - 1
    return ticker.MaxNLocator(nbins=max(min(space, 9), 1), steps=[1, 2, 2.5, 5, 10]).tick_values(vmin, vmax)


def scale_ticks(vmin: float, vmax: float, length_pt: float, label_size_pt: float) -> list[tuple[float, str]]:
    """The ticks a Matplotlib colour bar from ``vmin`` to ``vmax``, ``length_pt`` long, shows: (value, label), the
    labels by a ScalarFormatter over every tick value (as ``Axis._update_ticks`` formats them), and only the ticks
    within the range (``_interval_contains_close``)."""
    locs = tick_values(vmin, vmax, length_pt, label_size_pt)
    formatter = ticker.ScalarFormatter()
    formatter.create_dummy_axis()
    formatter.axis.set_view_interval(vmin, vmax)
    formatter.axis.set_data_interval(vmin, vmax)
    labels = formatter.format_ticks(locs)
    lo, hi = min(vmin, vmax), max(vmin, vmax)
    slack = 1e-10 * (hi - lo)
    return [(float(v), s) for v, s in zip(locs, labels) if lo - slack <= v <= hi + slack]


class ColourBar(Artist):
    """A vertical colour bar on the right of a grid of heatmaps: ``cmap`` over ``norm``'s range, ticked as Matplotlib
    ticks it (:func:`scale_ticks`) or at ``ticks`` with ``tick_labels``; ``label`` along the bar, or level beside
    it (``level``: at ``level_size`` points, ``level_pad`` points away). ``max_length`` and ``width``: its longest
    and its thickness (inches); ``panels``: the axes it explains (where it goes when no layout places it)."""

    zorder = 1.0

    def __init__(self, cmap, norm: mcolors.Normalize, *, label: str = "", level: bool = False,
                 level_size: float = 7.0, level_pad: float = 3.0, ticks: Sequence[float] | None = None,
                 tick_labels: Sequence[str] | None = None, max_length: float = 2.4, width: float = 0.11,
                 panels: Sequence = ()) -> None:
        super().__init__()
        self.cmap, self.norm = cmap, norm
        self.max_length, self.width = float(max_length), float(width)
        self.panels = list(panels)
        self._fixed = None if ticks is None else list(zip((float(t) for t in ticks), tick_labels or map(str, ticks)))
        self._rect: tuple[float, float, float, float] | None = None
        rc = mpl.rcParams
        # the style as Matplotlib's Axes would read it as the bar is made
        self._mark = (rc["ytick.major.size"], rc["ytick.major.width"], rc["ytick.color"],
                      _OUTSIDE[rc["ytick.direction"]])
        self._pad = rc["ytick.major.pad"]
        self._outline = (rc["axes.edgecolor"], 0.4)
        label_colour = rc["ytick.labelcolor"]
        self._tick_colour = rc["ytick.color"] if label_colour == "inherit" else label_colour
        self._tick_size = mpl.font_manager.FontProperties(size=rc["ytick.labelsize"]).get_size_in_points()
        self._family = rc["font.family"][0]
        template = Text(0, 0, "", ha="left", va=rc["ytick.alignment"], fontsize=self._tick_size,
                        color=self._tick_colour, transform=IdentityTransform())
        self._template = template
        self._tick_texts = layout.CellTexts(template, [])
        self.level = level
        if level:
            self._label = Text(0, 0, label, rotation=0, ha="left", va="center", fontsize=level_size,
                               color=rc["axes.labelcolor"], fontweight=rc["axes.labelweight"],
                               transform=IdentityTransform())
            self._label_pad = level_pad
        else:
            self._label = Text(0, 0, label, rotation=90, rotation_mode="anchor", ha="center", va="top",
                               fontsize=rc["axes.labelsize"], color=rc["axes.labelcolor"],
                               fontweight=rc["axes.labelweight"], transform=IdentityTransform())
            self._label_pad = rc["axes.labelpad"]
        self.set_transform(IdentityTransform())
        self.set_in_layout(False)

    def set_figure(self, fig) -> None:
        super().set_figure(fig)
        for child in (self._template, self._tick_texts, self._label):
            child.set_figure(fig)

    # ------------------------------------------------------------------ what it shows

    @property
    def label(self) -> str:
        return self._label.get_text()

    @property
    def label_artist(self) -> Text:
        """The label as drawn (placed when the bar is drawn)."""
        return self._label

    def ticks(self, length_in: float | None = None) -> list[tuple[float, str]]:
        """(value, label) of each tick on a bar ``length_in`` long (default: as placed)."""
        if self._fixed is not None:
            return list(self._fixed)
        if length_in is None:
            _, y0, _, y1 = self.rect()
            length_in = y1 - y0
        return scale_ticks(float(self.norm.vmin), float(self.norm.vmax), 72 * length_in, self._tick_size)

    def colours(self) -> np.ndarray:
        """The bar's colours from its low end up (RGBA bytes, one per colour of the map)."""
        return self.cmap(np.arange(self.cmap.N), bytes=True)

    # ------------------------------------------------------------------ where it goes

    def set_rect(self, rect: tuple[float, float, float, float]) -> None:
        """Place the bar itself at ``rect`` (x0, y0, x1, y1, inches from the root figure's lower left corner)."""
        self._rect = tuple(float(v) for v in rect)
        self.stale = True

    def rect(self) -> tuple[float, float, float, float]:
        """The bar's place (inches): as :meth:`set_rect` set it, else right of its panels, centred on them."""
        if self._rect is not None:
            return self._rect
        if not self.panels:
            return 0.0, 0.0, 0.0, 0.0
        dpi = self.get_figure(root=True).dpi
        x1 = max(ax.bbox.x1 for ax in self.panels) / dpi  # display pixels, in a subfigure too
        y0, y1 = min(ax.bbox.y0 for ax in self.panels) / dpi, max(ax.bbox.y1 for ax in self.panels) / dpi
        length = min(self.max_length, y1 - y0)
        mid = (y0 + y1) / 2
        x0 = x1 + FALLBACK_PAD
        return x0, mid - length / 2, x0 + self.width, mid + length / 2

    def _mark_out_pt(self) -> float:
        return self._mark[0] * self._mark[3]

    def room_right(self, length_in: float) -> float:
        """How far (inches) the marks, tick labels and label of a bar ``length_in`` long reach past its right edge
        (the layout's text measures, a little generous)."""
        reach = self._mark_out_pt() + self._pad
        widths = [layout.line_width_pt(s, self._tick_size) for _, s in self.ticks(length_in)]
        reach += max(widths, default=0.0)
        text = self._label.get_text()
        if text:
            w, h = layout.text_size_pt(text, self._label.get_fontsize(), layout._weight(self._label.get_fontweight()))
            reach += self._label_pad + (w if self.level else h)
        return reach / 72

    # ------------------------------------------------------------------ drawing

    def draw(self, renderer) -> None:
        if not self.get_visible():
            return
        root = self.get_figure(root=True)
        dpi = root.dpi
        x0, y0, x1, y1 = (v * dpi for v in self.rect())
        if x1 <= x0 or y1 <= y0:
            return
        pix = dpi / 72
        renderer.open_group("colourbar", gid=self.get_gid())
        self._draw_colours(renderer, x0, y0, x1, y1)
        gc = renderer.new_gc()
        gc.set_foreground(self._outline[0])
        gc.set_linewidth(self._outline[1])
        gc.set_joinstyle("miter")
        gc.set_capstyle("butt")
        outline = Path([(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)], closed=True)
        renderer.draw_path(gc, outline, IdentityTransform())
        gc.restore()
        ticks = self.ticks((y1 - y0) / dpi)
        lo, hi = float(self.norm.vmin), float(self.norm.vmax)
        span = hi - lo if hi != lo else 1.0
        ys = [y0 + (v - lo) / span * (y1 - y0) for v, _ in ticks]
        length, width, colour, outside = self._mark
        if ticks and length > 0:
            gc = renderer.new_gc()
            gc.set_foreground(colour)
            gc.set_linewidth(width)
            gc.set_capstyle("butt")
            a, b = x1 - length * (1 - outside) * pix, x1 + length * outside * pix
            verts = [p for y in ys for p in ((a, y), (b, y))]
            codes = [c for _ in ys for c in (Path.MOVETO, Path.LINETO)]
            renderer.draw_path(gc, Path(verts, codes), IdentityTransform())
            gc.restore()
        at = x1 + (self._mark_out_pt() + self._pad) * pix
        self._tick_texts.set_cells([(at, y, s, self._tick_colour, "normal") for y, (_, s) in zip(ys, ticks)])
        self._tick_texts.draw(renderer)
        if self._label.get_text():
            # beyond the tick labels as drawn (their glyphs' extent), as Matplotlib sets an axis label
            right = max([x1] + [at + layout._line_box_em(s, self._family, "normal")[0] * self._tick_size * pix
                                for _, s in ticks if s])
            self._label.set_position((right + self._label_pad * dpi / 72, (y0 + y1) / 2))
            self._label.draw(renderer)
        renderer.close_group("colourbar")
        self.stale = False

    def _draw_colours(self, renderer, x0: float, y0: float, x1: float, y1: float) -> None:
        """The colours as one image (row 0 at the bottom, as the renderers take it), a pixel per colour scaled to the
        bar where the page scales images (PDF, SVG: sharp at any zoom, as ``charts.unsampled_solids`` draws
        Matplotlib's), else resampled to the page's pixels, each pixel the colour of the band its centre is in."""
        colours = self.colours()
        gc = renderer.new_gc()
        if renderer.option_scale_image():
            im = np.ascontiguousarray(colours[:, None, :])
            renderer.draw_image(gc, 0, 0, im, Affine2D().scale(x1 - x0, y1 - y0).translate(x0, y0))
        else:
            left, bottom = int(round(x0)), int(round(y0))
            w, h = max(int(round(x1)) - left, 1), max(int(round(y1)) - bottom, 1)
            centres = (bottom + np.arange(h) + 0.5 - y0) / (y1 - y0)  # of each pixel row, along the bar
            band = np.clip(np.floor(centres * len(colours)).astype(int), 0, len(colours) - 1)
            im = np.ascontiguousarray(np.repeat(colours[band][:, None, :], w, axis=1))
            renderer.draw_image(gc, left, bottom, im)
        gc.restore()

    def get_window_extent(self, renderer=None):
        from matplotlib.transforms import Bbox

        dpi = self.get_figure(root=True).dpi
        x0, y0, x1, y1 = self.rect()
        return Bbox.from_extents(x0 * dpi, y0 * dpi, (x1 + self.room_right(y1 - y0)) * dpi, y1 * dpi)
