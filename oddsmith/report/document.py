"""Document assembly: pages of charts, tables and notes, written as PDF, PNG, SVG, Markdown or HTML.

A report is a :class:`Document` of :class:`Page` objects; a page holds blocks
(:class:`Chart`, :class:`Table`, :class:`Notes`, and :class:`Row` to set blocks
side by side). The same document renders to

* PDF: one page per :class:`Page`, A4 or Letter, vector, fonts embedded;
* PNG / SVG: one file per page (``name-01.png``, ``name-02.png``, ... when
  there is more than one page);
* Markdown / HTML: one text file with every table, and each chart as a PNG
  written beside it (``name-chart-01.png``, ...).

Every page carries a header stating its parameters and a footer with the
oddsmith version, the date, the seed and the sampling error of the simulated
figures on that page (or that they are all exact). Writing is atomic: a
failure leaves no partial file behind.

Pages carry a ``part`` (e.g. "Doomtown deck report") and a ``section`` (e.g.
"Deck: Law Dogs"); :func:`outline` nests the page titles under them, which
is the PDF's bookmarks and the order of the contents. A document ends with
a glossary of the terms its pages use (:mod:`oddsmith.report.glossary`).
"""
from __future__ import annotations

import datetime as _dt
import html as _html
import os
from collections.abc import Sized
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence, Union

from oddsmith import __version__, lazy
from oddsmith.errors import OddsmithError
from oddsmith.output import atomic_path, atomic_paths, check_output_path as check_output

pd = lazy.module("pandas")  # loaded while a report's battles start (oddsmith/report/head_start.py)

# Matplotlib and what draws with it load when a page is first measured or drawn, not when pages are built: a
# sample report's second process makes its pages' figures without them (docs/speed.md, 'Reports').
layout = lazy.module("oddsmith.report.layout")
style = lazy.module("oddsmith.report.style")
# Matplotlib's PDF backend subsets a font it embeds with fontTools, imported with the backend; the pages in the PDF's
# standard fonts embed none, and only a page that needs another font loads it.
lazy.on_first_use("fontTools.subset")

if TYPE_CHECKING:
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure, SubFigure

#: Paper sizes in inches (width, height).
PAPER = {"a4": (8.27, 11.69), "letter": (8.5, 11.0)}
#: Report formats; the output file's suffix picks one by default.
FORMATS = ("pdf", "png", "svg", "md", "html")
SUFFIX_FORMAT = {".pdf": "pdf", ".png": "png", ".svg": "svg", ".md": "md", ".markdown": "md",
                 ".html": "html", ".htm": "html"}

# Page geometry in inches: a printer's unprintable border is at most about 0.25 in,
# so 0.55 in keeps every mark on the paper at both sizes.
MARGIN = 0.55
HEADER = 0.62
FOOTER = 0.42
#: Block heights are in inches of a printed page; a page whose blocks add up to more
#: than its content height (8.86 in on Letter, 9.55 in on A4) is scaled to fit.
CONTENT_HEIGHT = 8.8
ROW_HEIGHT = 0.19


# ---------------------------------------------------------------------------- blocks

@dataclass(frozen=True)
class Sampling:
    """How the simulated figures of a block were made: trials each and their largest standard error."""

    trials: int
    max_stderr: float

    def describe(self) -> str:
        return f"{self.trials:,} trials each, largest standard error {100 * self.max_stderr:.2f} pp"


@dataclass(frozen=True)
class Distribution:
    """Columns of a block's table that together hold a whole probability distribution (in %).

    Across every row the ``columns`` add up to 100 %; with ``down`` the one
    column adds up to 100 % over the rows instead. The tests check every
    declared distribution of every page, so a table that leaves an outcome
    out (or a row that does not add up) is caught.
    """

    columns: tuple[str, ...]
    down: bool = False


@dataclass
class Chart:
    """A chart drawn by ``draw(subfigure)``; ``data`` is its table for Markdown/HTML."""

    draw: Callable[[Figure | SubFigure], None]
    title: str
    data: pd.DataFrame | None = None
    height: float = 3.0
    sampling: Sampling | None = None
    distributions: tuple[Distribution, ...] = ()


@dataclass
class Table:
    """A table of already formatted cells (strings)."""

    frame: pd.DataFrame
    title: str
    height: float | None = None
    sampling: Sampling | None = None
    font_size: float | None = None
    distributions: tuple[Distribution, ...] = ()

    def __post_init__(self) -> None:
        if self.height is None:
            self.height = (0.3 if self.title else 0.08) + ROW_HEIGHT * (len(self.frame) + 1)


@dataclass
class Notes:
    """A few lines of text (warnings, how to read the page)."""

    lines: list[str]
    title: str = ""
    height: float | None = None

    def __post_init__(self) -> None:
        if self.height is None:
            wrapped = sum(1 + len(line) // 105 for line in self.lines)
            self.height = (0.3 if self.title else 0.08) + 0.15 * wrapped


#: Glossary layout: the width of the term column and the height of one printed line (inches).
TERM_WIDTH = 1.55
TERM_LINE = 0.135
TERM_GAP = 0.045
TERM_FONT = 7.5
TERM_TITLE = 0.32


def _term_lines(text: str, width_in: float, bold: bool = False) -> list[str]:
    """``text`` wrapped to ``width_in`` inches (DejaVu Sans: about 0.6 em a character, bold 0.7)."""
    import textwrap

    return textwrap.wrap(text, max(12, int(width_in * 72 / ((0.7 if bold else 0.6) * TERM_FONT))))


@dataclass
class Terms:
    """A glossary: each term in bold with its explanation beside it (a definition list in Markdown/HTML)."""

    entries: list[tuple[str, str]]
    title: str = ""
    height: float | None = None

    def __post_init__(self) -> None:
        if self.height is None:
            self.height = (TERM_TITLE if self.title else 0.08) + sum(
                self.entry_height(term, text) for term, text in self.entries)

    @staticmethod
    def entry_height(term: str, text: str, width_in: float = PAPER["a4"][0] - 2 * MARGIN - 0.1) -> float:
        """The printed height of one entry (on the narrower paper, A4, unless told)."""
        return _entry_height(term, text, width_in)


@lru_cache(maxsize=4096)
def _entry_height(term: str, text: str, width_in: float) -> float:
    # cached: the glossary is split into pages at every all_pages(), its entries measured again and again
    lines = max(len(_term_lines(text, width_in - TERM_WIDTH)), len(_term_lines(term, TERM_WIDTH - 0.15, bold=True)))
    return TERM_LINE * lines + TERM_GAP


@dataclass
class Row:
    """Blocks side by side."""

    blocks: list["Block"]
    widths: list[float] | None = None
    height: float | None = None

    def __post_init__(self) -> None:
        if self.height is None:
            self.height = max(b.height for b in self.blocks)

    @property
    def sampling(self) -> Sampling | None:
        return _merge_sampling([b.sampling for b in self.blocks if not isinstance(b, Notes)])


Block = Union[Chart, Table, Notes, Terms, Row]


def _merge_sampling(items: Sequence[Sampling | None]) -> Sampling | None:
    items = [s for s in items if s is not None]
    if not items:
        return None
    return Sampling(trials=min(s.trials for s in items), max_stderr=max(s.max_stderr for s in items))


def _leaf_blocks(blocks: Sequence[Block]) -> Iterator[Block]:
    for b in blocks:
        if isinstance(b, Row):
            yield from _leaf_blocks(b.blocks)
        else:
            yield b


@dataclass
class Page:
    """One printed page: a title, the parameters it was made with, and its blocks."""

    title: str
    subtitle: str = ""
    blocks: list[Block] = field(default_factory=list)
    section: str = ""
    part: str = ""

    @property
    def sampling(self) -> Sampling | None:
        return _merge_sampling([getattr(b, "sampling", None) for b in _leaf_blocks(self.blocks)])

    def charts(self) -> list[Chart]:
        return [b for b in _leaf_blocks(self.blocks) if isinstance(b, Chart)]

    def tables(self) -> Iterator[tuple[str, pd.DataFrame, tuple[Distribution, ...]]]:
        """Every table the page prints (tables, and charts' data in Markdown/HTML) with its distributions."""
        for b in _leaf_blocks(self.blocks):
            if isinstance(b, Table):
                yield b.title, b.frame, b.distributions
            elif isinstance(b, Chart) and b.data is not None:
                yield b.title, b.data, b.distributions


def build_pages(builders: Sequence[tuple[str, Callable[[], Page]]], steps=None) -> list[Page]:
    """Build each page in turn, ``steps`` (a report's progress bar, optional) naming the one being built."""
    pages = []
    for label, build in builders:
        if steps:
            steps.step(label)
        pages.append(build())
        if steps:
            steps.done_step()
    return pages


def in_part(pages: Sequence[Page], part: str) -> list[Page]:
    """Put ``pages`` in ``part`` (pages that name a part of their own keep it)."""
    for page in pages:
        page.part = page.part or part
    return list(pages)


def outline(pages: Sequence[Page]):
    """The bookmarks of ``pages``: each page by its title, nested under its part and section.

    Consecutive pages of one part (or section) share one entry, which opens the
    first of them; a section named like its part adds no level of its own, and
    a page titled like the section it opens is that section's entry.
    """
    from oddsmith.report.pdf_outline import Bookmark

    roots: list[Bookmark] = []
    open_groups: list[tuple[str, Bookmark]] = []  # the groups the previous page sat in
    for i, page in enumerate(pages):
        path: list[str] = []
        for name in (page.part, page.section):
            if name and name not in path:
                path.append(name)
        siblings = roots
        groups: list[tuple[str, Bookmark]] = []
        same = True  # still inside the groups of the previous page
        for depth, name in enumerate(path):
            same = same and depth < len(open_groups) and open_groups[depth][0] == name
            if same:
                node = open_groups[depth][1]
            else:
                node = Bookmark(name, i)
                siblings.append(node)
            groups.append((name, node))
            siblings = node.children
        if not (groups and groups[-1][0] == page.title and groups[-1][1].page == i):
            siblings.append(Bookmark(page.title, i))  # else the group opened here is this page's entry
        open_groups = groups
    return roots


@dataclass
class Document:
    """A whole report: pages plus what a reader needs to reproduce it."""

    title: str
    pages: list[Page]
    seed: int | None = None
    bit_generator: str = "PCG64"
    chunk_trials: int | None = None
    date: str = field(default_factory=lambda: _dt.date.today().isoformat())
    version: str = __version__
    cover: bool = True
    description: list[str] = field(default_factory=list)
    glossary: bool = True
    reproduce: str = ""

    def all_pages(self, paged: bool = True) -> list[Page]:
        """Cover, pages, glossary; ``paged=False`` (Markdown, HTML): the glossary as one section."""
        return ([self.cover_page(paged)] if self.cover else []) + list(self.pages) + self.glossary_pages(paged)

    def glossary_pages(self, paged: bool = True) -> list[Page]:
        """The glossary of the terms this document's parts use (none when ``glossary`` is off)."""
        if not self.glossary:
            return []
        from oddsmith.report import glossary

        return glossary.glossary_pages([p.part for p in self.pages], paged=paged)

    def cover_page(self, paged: bool = True) -> Page:
        """The cover: what is inside, on which page, and how the figures were made."""
        sections: list[tuple[str, int, int]] = []
        for number, page in enumerate(self.pages + self.glossary_pages(paged), start=2):
            name = page.section or page.title
            if sections and sections[-1][0] == name:
                sections[-1] = (name, sections[-1][1], number)
            else:
                sections.append((name, number, number))
        contents = pd.DataFrame({
            "Pages": [f"{a}" if a == b else f"{a}-{b}" for _, a, b in sections],
            "Contents": [name for name, _, _ in sections],
        })
        sampled = _merge_sampling([p.sampling for p in self.pages])
        lines = list(self.description)
        lines.append(f"oddsmith {self.version}, made on {self.date}.")
        if sampled is None:
            lines.append("Every figure in this report is exact (enumeration or dynamic programming).")
        else:
            lines.append(
                f"Figures marked as simulated come from {sampled.trials:,} or more seeded trials each "
                f"(seed {self.seed}, {self.bit_generator}"
                + (f", chunks of {self.chunk_trials:,} trials" if self.chunk_trials else "")
                + f"); their largest standard error is {100 * sampled.max_stderr:.2f} percentage points. "
                "All other figures are exact.")
        lines.append("Each page's footer repeats the seed and the sampling error of that page.")
        if self.reproduce:
            lines.append(f"The same figures again: {self.reproduce}")
        if self.glossary:
            lines.append("The glossary at the end explains the terms and the colours of the heatmaps.")
        return Page(
            title=self.title,
            subtitle=f"oddsmith {self.version} · {self.date}" + (f" · seed {self.seed}" if self.seed is not None else ""),
            blocks=[Notes(lines, title="About this report"), Table(contents, title="What is inside")],
        )

    def footer(self, page: Page, number: int, total: int) -> tuple[str, str]:
        """The two footer lines of a page."""
        left = f"oddsmith {self.version} · {self.date}" + (f" · seed {self.seed} ({self.bit_generator})"
                                                          if self.seed is not None else "")
        s = page.sampling
        if s is None:
            err = "All figures on this page are exact."
        else:
            err = f"Simulated figures on this page: {s.describe()}; all others exact."
        return f"{left} · page {number} of {total}", err


# ---------------------------------------------------------------------------- drawing

def _draw_table(sub: Figure | SubFigure, table: Table) -> None:
    ax = sub.add_subplot(axes_class=layout.ReportAxes)
    ax.axis("off")
    ax.grid(False)
    df = table.frame
    if table.title:
        import textwrap

        width_pt = 72 * sub.get_figure(root=True).get_figwidth() * _sub_width_fraction(sub) * 0.9
        ax.set_title("\n".join(textwrap.wrap(table.title, int(width_pt / (0.62 * 9 * layout.char_scale())))))
    cells = [[str(v) for v in row] for row in df.itertuples(index=False)]
    header = [str(c) for c in df.columns]
    # Fit the text to the page: about 0.55 em per character plus padding per column.
    width_in = sub.get_figure(root=True).get_figwidth() * _sub_width_fraction(sub) - 0.1
    # Header cells are bold: about 15 % wider than the same characters in the body.
    widths = [max(1.15 * len(h), *(len(r[i]) for r in cells)) if cells else 1.15 * len(h)
              for i, h in enumerate(header)]
    chars = sum(widths) + 2.2 * len(widths)
    size = table.font_size or min(8.0, 72 * width_in / (0.64 * chars))
    _grid_cells(ax, [header] + cells, [w + 2.2 for w in widths], size)


#: Table cells: the header's shade, the shade of every other row, the rules between cells.
TABLE_HEADER = "#e8e8e8"
TABLE_STRIPE = "#f5f5f5"
TABLE_RULE = 0.3


def _grid_cells(ax, rows: list[list[str]], widths: Sequence[float], size: float) -> None:
    """A table filling ``ax``: the cells as one collection of rectangles, each text centred in its cell
    (the first row bold on grey, every other row shaded). The same page as matplotlib's ``ax.table``
    with a bbox of the whole axes, drawn at a fraction of its cost: no cell objects, and the texts,
    inside the axes, are neither measured by the layout nor clipped (:func:`layout.cell_texts`)."""
    from matplotlib.collections import PolyCollection

    total = float(sum(widths))
    lefts = [sum(widths[:c]) / total for c in range(len(widths))]
    n = len(rows)
    boxes, faces, xs, ys, texts, weights = [], [], [], [], [], []
    for r, row in enumerate(rows):
        top, bottom = 1 - r / n, 1 - (r + 1) / n
        face = TABLE_HEADER if r == 0 else (TABLE_STRIPE if r % 2 == 0 else "white")
        for c, text in enumerate(row):
            left, right = lefts[c], lefts[c] + widths[c] / total
            boxes.append([(left, bottom), (right, bottom), (right, top), (left, top)])
            faces.append(face)
            xs.append((left + right) / 2)
            ys.append((top + bottom) / 2)
            texts.append(text)
            weights.append("bold" if r == 0 else "normal")
    layout.cell_texts(ax, xs, ys, texts, weights=weights, ha="center", va="center", fontsize=size,
                      transform=ax.transAxes)
    ax.add_collection(PolyCollection(boxes, facecolors=faces, edgecolors="black", linewidths=TABLE_RULE,
                                     transform=ax.transAxes, in_layout=False), autolim=False)


def _sub_width_fraction(sub: Figure | SubFigure) -> float:
    from matplotlib.figure import SubFigure

    frac = 1.0
    while isinstance(sub, SubFigure):
        ss = sub._subplotspec
        gs = ss.get_gridspec()
        ncols = gs.ncols
        ratios = gs.get_width_ratios() or [1] * ncols
        frac *= sum(ratios[ss.colspan.start:ss.colspan.stop]) / sum(ratios)
        sub = sub._parent
    return frac


def _draw_notes(sub: Figure | SubFigure, notes: Notes) -> None:
    ax = sub.add_subplot(axes_class=layout.ReportAxes)
    ax.axis("off")
    ax.grid(False)
    if notes.title:
        ax.set_title(notes.title)
    import textwrap

    width_in = sub.get_figure(root=True).get_figwidth() * _sub_width_fraction(sub)
    per_line = max(30, int((width_in - 0.1) * 72 / (0.6 * 7.5 * layout.char_scale())))
    text = "\n".join(textwrap.fill(line, per_line) for line in notes.lines)
    ax.text(0, 1, text, va="top", ha="left", fontsize=7.5, transform=ax.transAxes, linespacing=1.35,
            in_layout=False)  # the block's height is made for the text: the layout need not measure it


def _draw_terms(sub: Figure | SubFigure, terms: Terms) -> None:
    """Terms in bold on the left, explanations wrapped beside them, placed in inches from the top.

    The text hangs from an empty axes, so the page's layout puts it inside the margins like any other block.
    """
    from matplotlib.transforms import ScaledTranslation

    ax = sub.add_subplot(axes_class=layout.ReportAxes)
    ax.axis("off")
    ax.grid(False)
    if terms.title:
        ax.set_title(terms.title)
    root = sub.get_figure(root=True)
    width_in = root.get_figwidth() * _sub_width_fraction(sub) - 0.1
    y = 0.0
    for term, text in terms.entries:
        for x, lines, weight in ((0.0, _term_lines(term, TERM_WIDTH - 0.15, bold=True), "bold"),
                                 (TERM_WIDTH, _term_lines(text, width_in - TERM_WIDTH), "normal")):
            at = ax.transAxes + ScaledTranslation(x, -y, root.dpi_scale_trans)
            ax.text(0, 1, "\n".join(lines), ha="left", va="top", fontsize=TERM_FONT, fontweight=weight,
                    transform=at, linespacing=1.3, in_layout=False)  # the entry heights fit the text
        y += Terms.entry_height(term, text, width_in)


def _draw_block(sub: Figure | SubFigure, block: Block, rect: tuple[float, float, float, float] | None = None) -> None:
    """Draw ``block`` into ``sub`` and place its axes by hand inside ``rect`` (inches of the page; the
    whole of ``sub`` when not given), less :data:`layout.PAD` all round (no layout engine: docs/speed.md)."""
    if rect is None:
        box = sub.bbox
        dpi = sub.get_figure(root=True).dpi
        rect = (box.x0 / dpi, box.y0 / dpi, box.x1 / dpi, box.y1 / dpi)
    if isinstance(block, Row):
        widths = block.widths or [1.0] * len(block.blocks)
        subs = sub.subfigures(1, len(block.blocks), width_ratios=widths, squeeze=False)[0]
        x = rect[0]
        for s, b, wx in zip(subs, block.blocks, widths):
            right = x + (rect[2] - rect[0]) * wx / sum(widths)
            cell = (x, rect[1], right, rect[3])
            layout.set_rect(s, cell)
            _draw_block(s, b, cell)
            x = right
        return
    if isinstance(block, Chart):
        block.draw(sub)
    elif isinstance(block, Table):
        _draw_table(sub, block)
    elif isinstance(block, Notes):
        _draw_notes(sub, block)
    elif isinstance(block, Terms):
        _draw_terms(sub, block)
    else:  # pragma: no cover - a programming error, not user input
        raise TypeError(f"unknown block {block!r}")
    pad = layout.PAD
    layout.place(sub, (rect[0] + pad, rect[1] + pad, rect[2] - pad, rect[3] - pad))


def text_width_in(text: str, size: float, weight: str = "normal") -> float:
    """The printed width of one line of ``text`` in inches, in the report's font at ``size`` points."""
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    if mpl.rcParams["pdf.use14corefonts"]:  # the PDF's standard fonts: their metrics, as the page is placed
        return layout.line_width_pt(text, size, weight) / 72
    width, _, _ = TextToPath().get_text_width_height_descent(text, FontProperties(size=size, weight=weight),
                                                              ismath=False)
    return width / 72


#: A page title's size (the style's "x-large") and the line height of a title run onto a second line (inches).
TITLE_SIZE = "x-large"
TITLE_LINE = 0.22


def fit_title(title: str, width_in: float, size: float | str = TITLE_SIZE) -> tuple[list[str], float]:
    """A page title's lines and size so that every line fits ``width_in``: one line if it fits, else
    two lines broken between words, else the two lines at a smaller size (never past the margin)."""
    from matplotlib.font_manager import FontProperties

    size = FontProperties(size=size).get_size_in_points()
    if text_width_in(title, size, "bold") <= width_in:
        return [title], size
    words = title.split()
    best: tuple[float, list[str]] | None = None
    for k in range(1, len(words)):
        lines = [" ".join(words[:k]), " ".join(words[k:])]
        widest = max(text_width_in(line, size, "bold") for line in lines)
        if best is None or widest < best[0]:
            best = (widest, lines)
    if best is None:  # one long word
        best = (text_width_in(title, size, "bold"), [title])
    widest, lines = best
    return lines, size if widest <= width_in else size * width_in / widest


def render_page(doc: Document, page: Page, number: int, total: int, paper: str) -> Figure:
    """One page as a matplotlib Figure of the paper's size."""
    import textwrap

    from matplotlib.figure import Figure

    w, h = PAPER[paper]
    fig = Figure(figsize=(w, h))
    title_lines, title_size = fit_title(page.title, w - 2 * MARGIN)
    title_extra = TITLE_LINE * (len(title_lines) - 1)
    # about 0.6 em per character keeps a wrapped line inside the margins
    sub_lines = (textwrap.wrap(page.subtitle, int((w - 2 * MARGIN) * 72 / (0.6 * 8 * layout.char_scale())))
                 if page.subtitle else [])
    header = HEADER + 0.15 * max(0, len(sub_lines) - 1) + title_extra
    # the blocks' area: inside the margins, below the header and above the footer (inches)
    x0, x1, y0, y1 = MARGIN, w - MARGIN, MARGIN + FOOTER, h - MARGIN - header
    top = 1 - MARGIN / h
    fig.text(MARGIN / w, top, "\n".join(title_lines), ha="left", va="top", fontsize=title_size, fontweight="bold",
             linespacing=1.15)
    if sub_lines:
        fig.text(MARGIN / w, top - (0.27 + title_extra) / h, "\n".join(sub_lines), ha="left", va="top", fontsize="medium",
                 color="#333333", linespacing=1.25)
    line1, line2 = doc.footer(page, number, total)
    fig.text(MARGIN / w, MARGIN / h + 0.16 / h, line1, ha="left", va="bottom", fontsize="x-small", color="#333333")
    fig.text(MARGIN / w, MARGIN / h, line2, ha="left", va="bottom", fontsize="x-small", color="#333333")
    fig.add_artist(_rule(fig, (MARGIN + FOOTER - 0.08) / h, MARGIN / w, 1 - MARGIN / w))
    fig.add_artist(_rule(fig, 1 - (MARGIN + header - 0.06) / h, MARGIN / w, 1 - MARGIN / w))
    if page.blocks:
        heights = [b.height for b in page.blocks]
        if sum(heights) < CONTENT_HEIGHT:  # short pages keep their blocks' sizes and leave space below
            heights.append(CONTENT_HEIGHT - sum(heights))
        subs = fig.subfigures(len(heights), 1, height_ratios=heights, squeeze=False)[:, 0]
        top = y1
        for sub, block, bh in zip(subs, page.blocks, heights):
            bottom = top - (y1 - y0) * bh / sum(heights)
            layout.set_rect(sub, (x0, bottom, x1, top))
            _draw_block(sub, block, (x0, bottom, x1, top))
            top = bottom
    return fig


def _rule(fig: Figure, y: float, x0: float, x1: float):
    from matplotlib.lines import Line2D

    return Line2D([x0, x1], [y, y], transform=fig.transFigure, color="#888888", linewidth=0.5)


# ---------------------------------------------------------------------------- writing

def format_for(path: str | os.PathLike[str], fmt: str | None) -> str:
    """The format to write: ``fmt`` if given, else from the file's suffix (PDF when none)."""
    if fmt is not None:
        fmt = str(getattr(fmt, "value", fmt)).lower()
        if fmt not in FORMATS:
            raise OddsmithError(f"unknown report format {fmt!r}: choose one of {', '.join(FORMATS)}")
        return fmt
    suffix = Path(path).suffix.lower()
    if not suffix:
        return "pdf"
    if suffix not in SUFFIX_FORMAT:
        raise OddsmithError(f"cannot tell the report format from {Path(path).name!r}: "
                            f"use a .pdf/.png/.svg/.md/.html name or --format")
    return SUFFIX_FORMAT[suffix]


def check_paper(paper: str) -> str:
    name = str(getattr(paper, "value", paper)).lower()
    if name not in PAPER:
        raise OddsmithError(f"unknown paper size {paper!r}: choose a4 or letter")
    return name


def check_dpi(dpi: int) -> int:
    if not 30 <= dpi <= 1200:
        raise OddsmithError(f"--dpi must be between 30 and 1200, got {dpi}")
    return int(dpi)


def numbered(path: Path, n: int, total: int, tag: str = "") -> Path:
    """``report.png`` -> ``report-03.png`` (no number when there is a single file and no tag)."""
    if total == 1 and not tag:
        return path
    digits = max(2, len(str(total)))
    return path.with_name(f"{path.stem}-{tag}{n:0{digits}d}{path.suffix}")


def write_document(doc: Document, path: str | os.PathLike[str], *, fmt: str | None = None,
                   paper: str = "a4", dpi: int = 150,
                   on_page: Callable[[int, int], None] | None = None) -> list[Path]:
    """Write ``doc`` to ``path``; returns every file written (the main file first).
    ``on_page(n, total)`` is called as each page (or Markdown/HTML chart) is done: a progress bar."""
    fmt = format_for(path, fmt)
    paper = check_paper(paper)
    dpi = check_dpi(dpi)
    target = check_output(path, several_files=fmt != "pdf")
    with style.report_style():
        if fmt == "pdf":
            return _write_pdf(doc, target, paper, on_page)
        if fmt in ("png", "svg"):
            return _write_images(doc, target, fmt, paper, dpi, on_page)
        return _write_text(doc, target, fmt, paper, dpi, on_page)


def _pdf_metadata(doc: Document, pages: list[Page]) -> dict:
    return {
        "Title": doc.title,
        "Author": f"oddsmith {doc.version}",
        "Subject": "; ".join(p.title for p in pages),
        "Keywords": f"seed {doc.seed}; {doc.bit_generator}; {doc.date}",
        "Creator": f"oddsmith {doc.version}",
    }


def _done(on_page, number: int, total: int) -> None:
    if on_page is not None:
        on_page(number, total)


def render_processes(pages: int) -> int:
    """How many processes draw a PDF's pages: every core (``ODDSMITH_RENDER_PROCESSES`` overrides),
    one for a short document, where starting processes would cost more than it saves."""
    wanted = os.environ.get("ODDSMITH_RENDER_PROCESSES")
    n = int(wanted) if wanted and wanted.isdigit() and int(wanted) > 0 else (os.cpu_count() or 1)
    return max(1, min(n, pages // MIN_PAGES_PER_PROCESS))


#: A process draws at least this many pages (fewer pages: fewer processes).
MIN_PAGES_PER_PROCESS = 4


def _write_pdf(doc: Document, target: Path, paper: str, on_page=None) -> list[Path]:
    pages = doc.all_pages()
    with atomic_path(target) as tmp:
        processes = render_processes(len(pages))
        if processes == 1:
            _draw_pdf_pages(doc, pages, range(len(pages)), paper, tmp, on_page)
        else:
            from oddsmith.report import parallel

            parallel.draw_pdf(doc, pages, paper, tmp, processes, on_page)
        # the bookmarks go into the temporary file, so the target appears complete or not at all
        from oddsmith.report.pdf_outline import add_outline

        add_outline(tmp, outline(pages))
    return [target]


def _draw_pdf_pages(doc: Document, pages: Sequence[Page], which: Iterable[int], paper: str, path: Path,
                    on_page=None) -> None:
    """Draw ``pages[i]`` for each ``i`` of ``which`` (0-based, numbered among all ``pages``) into the PDF ``path``
    (none: no file). ``on_page(k, n)`` after the k-th, n being how many ``which`` holds, or all pages when it is
    claimed as it goes (:mod:`oddsmith.report.parallel`)."""
    from matplotlib.backends.backend_pdf import PdfPages  # imported by the drawing only: a report forks sooner

    from oddsmith import interrupts

    n = len(which) if isinstance(which, Sized) else len(pages)
    with PdfPages(path, metadata=_pdf_metadata(doc, list(pages))) as pdf:
        for k, i in enumerate(which, start=1):
            interrupts.check()
            save_pdf_page(pdf, doc, pages[i], i + 1, len(pages), paper)
            _done(on_page, k, n)


@cache
def warm_up() -> None:
    """Draw a small page of every kind of block into a PDF in memory, once, and forget it: fonts are found and their
    metrics read, and Matplotlib's lazy imports and caches filled, in this process. Worker processes forked after it
    draw their first pages as fast as their later ones (the first two cost about 0.2 s more each otherwise), so
    a report does it once, while its second process simulates (:mod:`oddsmith.report.build`)."""
    import io

    from matplotlib.backends.backend_pdf import PdfPages

    from oddsmith.report import charts

    grid = pd.DataFrame([[0.1, 0.2], [0.3, 0.4]], index=["a", "b"], columns=["x", "y"])
    page = Page(title="warm-up", subtitle="·", section="·", blocks=[
        Chart(partial(charts.heatmap_grid, panels=[("·", grid)]), title="·"),
        Table(pd.DataFrame({"a": ["1"], "b": ["2"]}), title="·"),
        Notes(["·"])])
    doc = Document("warm-up", [page], seed=1, cover=False, glossary=False)
    with style.report_style(), PdfPages(io.BytesIO()) as pdf:
        save_pdf_page(pdf, doc, page, 1, 1, "a4")


def save_pdf_page(pdf: PdfPages, doc: Document, page: Page, number: int, total: int, paper: str) -> None:
    """Draw page ``number`` of ``total`` into ``pdf`` in the standard fonts, or, when one of its texts needs a
    character they lack (a name in Greek, say), again in the style's font, embedded."""
    with style.pdf_core_fonts():
        fig = render_page(doc, page, number, total, paper)
        if core_fonts_can_draw(fig):
            pdf.savefig(fig)
            return
    pdf.savefig(render_page(doc, page, number, total, paper))


def core_fonts_can_draw(fig: Figure) -> bool:
    """Whether every text of the page ``fig`` (made under :func:`style.pdf_core_fonts`) prints in the
    standard fonts: its titles, texts, table cells, legends, and every tick label it can draw (the
    categories of a category axis, the labels of fixed ticks), before any is drawn."""
    return all(style.in_core_encoding(t) for t in _page_strings(fig))


def _page_strings(fig: Figure) -> Iterator[str]:
    from matplotlib.category import UnitData
    from matplotlib.ticker import FixedFormatter

    def legend(leg) -> Iterator[str]:
        if leg is not None:
            yield leg.get_title().get_text()
            yield from (t.get_text() for t in leg.get_texts())

    figures = [fig]
    while figures:
        f = figures.pop()
        figures += f.subfigs
        yield from (t.get_text() for t in f.texts)
        for a in f.artists:
            if isinstance(a, layout.CellTexts):
                yield from a.texts()
        for leg in f.legends:
            yield from legend(leg)
    for ax in fig.get_axes():
        yield from (t.get_text() for t in (ax.title, ax._left_title, ax._right_title, *ax.texts))
        yield from legend(ax.get_legend())
        for axis in (ax.xaxis, ax.yaxis):
            yield axis.label.get_text()
            yield from (t.label1.get_text() for t in axis.majorTicks)
            if isinstance(axis.units, UnitData):
                yield from (str(k) for k in axis.units._mapping)
            formatter = axis.get_major_formatter()
            if isinstance(formatter, FixedFormatter):
                yield from (str(x) for x in formatter.seq)


def _write_images(doc: Document, target: Path, fmt: str, paper: str, dpi: int, on_page=None) -> list[Path]:
    pages = doc.all_pages()
    targets = [numbered(target, i, len(pages)) for i in range(1, len(pages) + 1)]
    with atomic_paths(targets) as tmps:
        for i, (page, tmp) in enumerate(zip(pages, tmps), start=1):
            fig = render_page(doc, page, i, len(pages), paper)
            fig.savefig(tmp, format=fmt, dpi=dpi)
            _done(on_page, i, len(pages))
    return targets


def chart_figure(chart: Chart, paper: str = "a4", width_share: float = 1.0) -> Figure:
    """A chart alone, at the size it has on a printed page (for Markdown/HTML and the README)."""
    from matplotlib.figure import Figure

    w, _ = PAPER[paper]
    fig = Figure(figsize=((w - 2 * MARGIN) * width_share, chart.height))
    _draw_block(fig, chart)
    return fig


def _width_share(page: Page, chart: Chart) -> float:
    """The share of the page's width a chart takes (charts in a Row are narrower)."""
    def walk(blocks: Sequence[Block], share: float) -> float | None:
        for b in blocks:
            if b is chart:
                return share
            if isinstance(b, Row):
                widths = b.widths or [1.0] * len(b.blocks)
                for x, wx in zip(b.blocks, widths):
                    found = walk([x], share * wx / sum(widths))
                    if found is not None:
                        return found
        return None

    return walk(page.blocks, 1.0) or 1.0


def _md_table(df: pd.DataFrame) -> str:
    header = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(h.replace("|", "\\|") for h in header) + " |",
             "|" + "|".join("---" for _ in header) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(str(v).replace("|", "\\|") for v in row) + " |")
    return "\n".join(lines)


def _html_table(df: pd.DataFrame) -> str:
    head = "".join(f"<th>{_html.escape(str(c))}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{_html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in df.itertuples(index=False))
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


_HTML_HEAD = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font-family: "DejaVu Sans", Verdana, sans-serif; max-width: 60em; margin: 2em auto; padding: 0 1em; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 1.2em; font-size: 0.85em; }}
th, td {{ border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: center; }}
th {{ background: #e8e8e8; }}
tr:nth-child(even) td {{ background: #f5f5f5; }}
dt {{ font-weight: bold; margin-top: 0.5em; }}
dd {{ margin-left: 1.5em; }}
img {{ max-width: 100%; }}
.footer {{ color: #555; font-size: 0.8em; border-top: 1px solid #aaa; padding-top: 0.3em; margin-bottom: 2.5em; }}
.subtitle {{ color: #444; }}
</style></head><body>
"""


def _write_text(doc: Document, target: Path, fmt: str, paper: str, dpi: int, on_page=None) -> list[Path]:
    pages = doc.all_pages(paged=False)
    charts = [(page, c) for page in pages for c in page.charts()]
    chart_paths = [numbered(target.with_suffix(".png"), i, len(charts), tag="chart-")
                   for i in range(1, len(charts) + 1)]
    chart_name = {id(c): p.name for (_, c), p in zip(charts, chart_paths)}
    out: list[str] = []
    md = fmt == "md"
    esc = (lambda s: s) if md else _html.escape

    def table(df: pd.DataFrame, title: str) -> None:
        if md:
            out.append((f"**{title}**\n\n" if title else "") + _md_table(df) + "\n")
        else:
            out.append((f"<h3>{esc(title)}</h3>" if title else "") + _html_table(df))

    def block(b: Block) -> None:
        if isinstance(b, Row):
            for x in b.blocks:
                block(x)
        elif isinstance(b, Chart):
            name = chart_name[id(b)]
            if md:
                out.append(f"**{b.title}**\n\n![{b.title}]({name})\n")
            else:
                out.append(f"<h3>{esc(b.title)}</h3><img src=\"{esc(name)}\" alt=\"{esc(b.title)}\">")
            if b.data is not None:
                table(b.data, "")
        elif isinstance(b, Table):
            table(b.frame, b.title)
        elif isinstance(b, Terms):
            if md:
                out.append((f"**{b.title}**\n\n" if b.title else "")
                           + "\n".join(f"- **{t}**: {x}" for t, x in b.entries) + "\n")
            else:
                out.append((f"<h3>{esc(b.title)}</h3>" if b.title else "") + "<dl>"
                           + "".join(f"<dt>{esc(t)}</dt><dd>{esc(x)}</dd>" for t, x in b.entries) + "</dl>")
        elif isinstance(b, Notes):
            if md:
                out.append((f"**{b.title}**\n\n" if b.title else "") + "\n".join(f"- {x}" for x in b.lines) + "\n")
            else:
                out.append((f"<h3>{esc(b.title)}</h3>" if b.title else "")
                           + "<ul>" + "".join(f"<li>{esc(x)}</li>" for x in b.lines) + "</ul>")

    if not md:
        out.append(_HTML_HEAD.format(title=esc(doc.title)))
    for i, page in enumerate(pages, start=1):
        level = "#" if i == 1 else "##"
        if md:
            out.append(f"{level} {page.title}\n")
            if page.subtitle:
                out.append(f"*{page.subtitle}*\n")
        else:
            tag = "h1" if i == 1 else "h2"
            out.append(f"<{tag}>{esc(page.title)}</{tag}>")
            if page.subtitle:
                out.append(f"<p class=\"subtitle\">{esc(page.subtitle)}</p>")
        for b in page.blocks:
            block(b)
        line1, line2 = doc.footer(page, i, len(pages))
        if md:
            out.append(f"<sub>{line1}. {line2}</sub>\n")
        else:
            out.append(f"<p class=\"footer\">{esc(line1)}<br>{esc(line2)}</p>")
    if not md:
        out.append("</body></html>")
    text = "\n".join(out) + "\n"

    with atomic_paths([target, *chart_paths]) as tmps:
        tmps[0].write_text(text, encoding="utf-8")
        for k, ((page, chart), tmp) in enumerate(zip(charts, tmps[1:]), start=1):
            fig = chart_figure(chart, paper, _width_share(page, chart))
            fig.savefig(tmp, format="png", dpi=dpi)
            _done(on_page, k, len(charts))
    return [target, *chart_paths]
