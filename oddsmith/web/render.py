"""HTML for the web pages: escaped tables, figures with their standard errors, the report's
pages (:mod:`oddsmith.report.document`) as HTML with their charts in SVG, and as a PDF.

The charts are the report's own chart functions, drawn through
:func:`oddsmith.report.document.chart_figure` in the report's style (so they
are colour-blind safe and read in black and white as in the PDF), written as
SVG with their text as paths (no font to fetch) and embedded in the page.
"""
from __future__ import annotations

import html
import io
import secrets
import threading
from collections import OrderedDict
from importlib import resources
from string import Template
from typing import Iterable, Sequence

#: matplotlib's rcParams are global: one chart drawn at a time.
_DRAW_LOCK = threading.Lock()

NAV = (("/doomtown/deck", "Doomtown deck"), ("/doomtown/shootout", "Doomtown shootout"),
       ("/shadows/dice", "Shadows dice"), ("/shadows/posse", "Shadows posse and battle"))


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def template(name: str) -> Template:
    return Template(resources.files("oddsmith.web").joinpath("templates", name).read_text(encoding="utf-8"))


def layout(title: str, body: str, *, path: str = "/") -> str:
    """A whole page: the site's header and navigation around ``body``."""
    nav = "".join(f'<a href="{href}"{" aria-current=page" if href == path else ""}>{esc(label)}</a>'
                  for href, label in NAV)
    return template("base.html").substitute(title=esc(title), nav=nav, body=body)


def pm(value: float, se: float | None, digits: int = 4) -> str:
    """A simulated figure with its standard error; an exact one alone (``se`` None)."""
    if se is None:
        return f"{value:.{digits}f}"
    return f"{value:.{digits}f} ± {se:.{digits}f}"


def figure(name: str, label: str, value: float, se: float | None, digits: int = 4) -> str:
    """One headline figure: ``data-figure`` names it (the browser tests read it), ``data-value`` holds
    the full-precision value the page rounds."""
    kind = "exact" if se is None else "simulated"
    se_attr = "" if se is None else f' data-stderr="{se!r}"'
    return (f'<div class="figure" data-figure="{esc(name)}" data-value="{value!r}"{se_attr}>'
            f'<span class="label">{esc(label)}</span> <span class="value">{esc(pm(value, se, digits))}</span>'
            f' <span class="kind">{kind}</span></div>')


def figures(items: Iterable[tuple[str, str, float, float | None]], digits: int = 4) -> str:
    return '<div class="figures">' + "".join(figure(n, l, v, s, digits) for n, l, v, s in items) + "</div>"


def table(df, caption: str = "", *, cls: str = "") -> str:
    """A DataFrame (or a list of dicts, one per row: no pandas for a small exact answer) as an HTML
    table in a box that scrolls sideways on a narrow screen."""
    if isinstance(df, list):
        columns = list(df[0]) if df else []
        records = [tuple(r.values()) for r in df]
    else:  # plain lists: itertuples costs more than the rest of the page
        columns, records = list(df.columns), df.to_numpy(dtype=object).tolist()
    head = "".join(f"<th>{esc(c)}</th>" for c in columns)
    rows = []
    for row in records:
        cells = []
        for v in row:
            if isinstance(v, float):
                v = f"{v:.4f}" if v == v else ""
            cells.append(f"<td>{esc(v)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{esc(caption)}</caption>" if caption else ""
    return (f'<div class="scroll"><table class="{cls}">{cap}<thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def frame(rows: list[dict]):
    """A DataFrame of row dicts, built column by column (pandas infers a list of dicts slowly)."""
    import pandas as pd

    return pd.DataFrame({k: [r[k] for r in rows] for k in rows[0]} if rows else {})


def notes(lines: Sequence[str], title: str = "") -> str:
    head = f"<h4>{esc(title)}</h4>" if title else ""
    return f'<div class="notes">{head}<ul>' + "".join(f"<li>{esc(x)}</li>" for x in lines) + "</ul></div>"


def error_box(message: str) -> str:
    return f'<div class="error" role="alert">{esc(message)}</div>'


def chart_svg(chart, width_share: float = 1.0) -> bytes:
    """A report :class:`~oddsmith.report.document.Chart` drawn as SVG, at its printed size."""
    from oddsmith.report import style
    from oddsmith.report.document import chart_figure

    with _DRAW_LOCK, style.report_style():
        fig = chart_figure(chart, "a4", width_share)
        buf = io.BytesIO()
        fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


class ChartStore:
    """Charts waiting to be drawn: a page lists its charts as ``/charts/<token>.svg`` images, drawn
    when the browser asks for them (the page's figures do not wait for matplotlib), each drawn once."""

    def __init__(self, keep: int = 256) -> None:
        self.keep = keep
        self._charts: "OrderedDict[str, tuple[object, float, bytes | None]]" = OrderedDict()
        self._lock = threading.Lock()

    def add(self, chart, width_share: float = 1.0) -> str:
        token = secrets.token_hex(12)
        with self._lock:
            self._charts[token] = (chart, width_share, None)
            while len(self._charts) > self.keep:
                self._charts.popitem(last=False)
        return token

    def svg(self, token: str) -> bytes | None:
        """The chart's SVG (drawn on the first request), or None for an unknown token."""
        with self._lock:
            entry = self._charts.get(token)
        if entry is None:
            return None
        chart, share, data = entry
        if data is None:
            data = chart_svg(chart, share)
            with self._lock:
                if token in self._charts:
                    self._charts[token] = (chart, share, data)
        return data


#: The charts of the pages served by this process.
CHARTS = ChartStore()


def chart_html(chart, width_share: float = 1.0) -> str:
    token = CHARTS.add(chart, width_share)
    data = ""
    if chart.data is not None:
        data = f"<details><summary>The chart's figures</summary>{table(chart.data)}</details>"
    return (f'<figure class="chart"><div class="scroll"><img alt="{esc(chart.title)}" '
            f'src="/charts/{token}.svg"></div><figcaption>{esc(chart.title)}</figcaption>'
            f"{data}</figure>")


def _block_html(block, share: float = 1.0) -> str:
    from oddsmith.report.document import Chart, Notes, Row, Table

    if isinstance(block, Chart):
        return chart_html(block, share)
    if isinstance(block, Table):
        return table(block.frame, block.title)
    if isinstance(block, Notes):
        return notes(block.lines, block.title)
    if isinstance(block, Row):
        widths = block.widths or [1.0] * len(block.blocks)
        return '<div class="row">' + "".join(
            f'<div class="cell">{_block_html(b, share * w / sum(widths))}</div>'
            for b, w in zip(block.blocks, widths)) + "</div>"
    return ""


def page_html(page) -> str:
    """A report :class:`~oddsmith.report.document.Page` as an HTML section."""
    sub = f'<p class="subtitle">{esc(page.subtitle)}</p>' if page.subtitle else ""
    sampling = page.sampling
    foot = ("All figures in this section are exact." if sampling is None
            else f"Simulated figures in this section: {sampling.describe()}; all others exact.")
    body = "".join(_block_html(b) for b in page.blocks)
    return f'<section class="page"><h3>{esc(page.title)}</h3>{sub}{body}<p class="foot">{esc(foot)}</p></section>'


def pdf_bytes(title: str, pages: list, seed: int | None) -> bytes:
    """The report pages of an answer as a PDF, made in memory (nothing is written on disk)."""
    from matplotlib.backends.backend_pdf import PdfPages

    from oddsmith.report import style
    from oddsmith.report.document import Document, save_pdf_page

    doc = Document(title=title, pages=list(pages), seed=seed, cover=False, glossary=False)
    buf = io.BytesIO()
    with _DRAW_LOCK, style.report_style():
        with PdfPages(buf, metadata={"Title": title, "Creator": "oddsmith"}) as pdf:
            for i, page in enumerate(pages, start=1):
                save_pdf_page(pdf, doc, page, i, len(pages), "a4")  # the standard fonts, as the report's pages
    return buf.getvalue()
