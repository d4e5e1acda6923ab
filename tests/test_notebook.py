"""oddsmith in a notebook: short reprs, HTML views (parsed), charts, the backend left alone, progress in Jupyter.

Jupyter is not a dependency: the HTML views are tested by calling ``_repr_html_``
and parsing what it returns with the standard library's html.parser.
"""
from __future__ import annotations

import subprocess
import sys
import types
from html.parser import HTMLParser
from pathlib import Path

import pytest

from oddsmith import notebook as N
from oddsmith.output import Progress

ROOT = Path(__file__).resolve().parent.parent


class _Page(HTMLParser):
    """Text of every table cell and heading, and whether the tags balance."""

    VOID = {"br", "hr", "img", "meta", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.cells: list[str] = []
        self.headings: list[str] = []
        self.balanced = True
        self._text: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)
        if tag in ("td", "th", "h4"):
            self._text = []

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False
        if tag in ("td", "th") and self._text is not None:
            self.cells.append("".join(self._text).strip())
            self._text = None
        if tag == "h4" and self._text is not None:
            self.headings.append("".join(self._text).strip())
            self._text = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def parse(html: str) -> _Page:
    p = _Page()
    p.feed(html)
    p.close()
    assert p.balanced and not p.stack, "unbalanced HTML"
    return p


@pytest.fixture(scope="module")
def results():
    import oddsmith.shadows as S
    from oddsmith.doomtown import full_shootout as F
    from oddsmith.doomtown.deck import load_deck
    from oddsmith.doomtown.lowball import gamblin_odds, lowball_odds, lowball_tradeoff, table_odds
    from oddsmith.doomtown.posse import parse_posse
    from oddsmith.doomtown.shootout import Side, choose_shooter, discard_gap, shootout_odds, shootout_round
    from oddsmith.shadows import battle as B
    from oddsmith.shadows import posse as P
    from oddsmith.shadows import value as V

    twilight, unaligned = P.sample_posse("twilight"), P.sample_posse("unaligned")
    return {
        "lowball": lowball_odds("law-dogs"),
        "lowball_mc": lowball_odds("law-dogs", exact=False, trials=5_000, seed=1),
        "gamblin": gamblin_odds("law-dogs", "outlaws"),
        "lowball_tradeoff": lowball_tradeoff("law-dogs"),
        "table": table_odds(["balanced", "law-dogs", "outlaws"], trials=5_000, seed=1),
        "shootout": shootout_odds("stack-16-16-16", stud=2, draw=1, trials=5_000, seed=1),
        "round": shootout_round(Side("law-dogs", 1, 1), Side("outlaws", 2, 0), trials=5_000, seed=1),
        "choice": choose_shooter("law-dogs", parse_posse("Philip Swinford; Tommy Harden")),
        "gap": discard_gap("balanced", 1, 1, hands=50, seed=1),
        "full": F.full_shootout(F.FullSide("law-dogs", parse_posse("Philip Swinford; Tommy Harden")),
                                F.FullSide("outlaws", parse_posse("Allie Hensman; Ike Clanton")), trials=2_000, seed=1),
        "deck": load_deck("law-dogs"),
        "doomtown_posse": parse_posse("Miranda Clarke; Allie Hensman"),
        "battle": B.battle(twilight, unaligned, trials=500, seed=1),
        "value": V.value(unaligned, twilight, trials=100, seed=1),
        "odds": S.shoot("veteran", "novice", "carbine", range_band="long"),
        "odds_mc": S.simulate_shoot("veteran", "novice", "carbine", range_band="long", trials=5_000, seed=1),
        "shadows_posse": twilight,
    }


def test_every_result_class_has_a_view():
    """Each class named in the views table carries the decorator (its repr is the short one)."""
    import importlib

    for key in N._VIEWS:
        module, name = key.rsplit(".", 1)
        cls = getattr(importlib.import_module(module), name)
        assert cls.__repr__ is not object.__repr__ and "_repr_html_" in vars(cls), key
        assert ("plot" in vars(cls)) == (key in N._PLOTS), key


def test_reprs_are_short_and_name_the_figures(results):
    for name, r in results.items():
        text = repr(r)
        assert text.startswith(f"<{type(r).__name__} ") and text.endswith(">"), name
        assert len(text) < 400 and "\n" not in text, (name, len(text))
    assert "p_cheatin 0.3710 (exact)" in repr(results["lowball"])
    mc = results["lowball_mc"]
    assert f"p_cheatin {mc.p_cheatin:.4f} ± {mc.p_cheatin_stderr:.4f}" in repr(mc)


def test_html_views_show_every_figure_with_its_error_and_the_tables(results):
    for name, r in results.items():
        view = N.view_of(r)
        page = parse(r._repr_html_())
        assert page.headings == [view.title], name
        for f in view.figures:
            i = page.cells.index(f.label)
            shown = page.cells[i + 1]
            assert shown.endswith("(exact)") if f.exact else " ± " in shown, (name, f.label, shown)
        for table, df in view.tables:
            assert len(df.columns) == 0 or str(df.columns[0]) in page.cells, (name, table)


def test_html_view_figures_match_the_result(results):
    r = results["round"]
    cells = parse(r._repr_html_()).cells
    assert cells[cells.index("p_win") + 1] == f"{r.p_win:.4f} ± {r.p_win_stderr:.4f}"
    b = results["battle"]
    cells = parse(b._repr_html_()).cells
    assert cells[cells.index("p_a_wins") + 1] == f"{b['p_a_wins']:.4f} ± {b.stderr('p_a_wins'):.4f}"


def test_a_figure_with_no_spread_says_n_a_and_explains_it(results):
    html = results["odds_mc"]._repr_html_()
    assert "0.0000 ± n/a" in html and "no standard error can be estimated" in html


def test_html_escapes_names():
    view = N.View("<b>Bad & Co</b>", (N.Figure_("p", 0.5, 0.01),), (("deck", "<script>"),))
    html = N.html_view(view)
    assert "<script>" not in html and "&lt;script&gt;" in html and "&lt;b&gt;Bad &amp; Co&lt;/b&gt;" in html
    parse(html)


def test_long_tables_are_cut_and_say_so(results):
    html = results["value"]._repr_html_()
    assert "more rows" in html


def test_tiny_exact_figures_do_not_print_as_zero():
    assert N.Figure_("p_tie", 2.2e-8, exact=True).text() == "2.2e-08 (exact)"
    assert N.Figure_("p", 0.0, exact=True).text() == "0.0000 (exact)"


def test_plots_are_figures_drawn_with_the_report_charts(results):
    from matplotlib.figure import Figure

    for name, r in results.items():
        if hasattr(r, "plot"):
            fig = r.plot()
            assert isinstance(fig, Figure) and fig.axes, name
            assert any(ax.patches or ax.lines or ax.collections for ax in fig.axes), name


def test_tradeoff_chart_from_the_table():
    from matplotlib.figure import Figure

    from oddsmith.doomtown import tradeoff, tradeoff_chart

    t = tradeoff(["balanced"], studs=[0, 1], draws=[0], trials=1_000, seed=1)
    fig = tradeoff_chart(t)
    assert isinstance(fig, Figure) and len(fig.axes[0].lines) >= 2


def test_importing_oddsmith_never_changes_the_backend(tmp_path):
    code = ("import matplotlib; matplotlib.use('svg'); "
            "import oddsmith, oddsmith.doomtown, oddsmith.shadows, oddsmith.notebook, oddsmith.report.style, "
            "oddsmith.report.charts, oddsmith.report.document, oddsmith.cli; "
            "from oddsmith.doomtown.lowball import lowball_odds; lowball_odds('balanced').plot(); "
            "print(matplotlib.get_backend())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                         env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path),
                              "MPLCONFIGDIR": str(tmp_path)})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "svg"


def _fake_ipython(monkeypatch, shell):
    mod = types.ModuleType("IPython")
    mod.get_ipython = lambda: shell
    monkeypatch.setitem(sys.modules, "IPython", mod)


def test_kernel_detection(monkeypatch):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    assert not N.in_notebook_kernel()
    _fake_ipython(monkeypatch, None)  # IPython imported, no shell running
    assert not N.in_notebook_kernel()
    _fake_ipython(monkeypatch, types.SimpleNamespace())  # terminal IPython: no kernel
    assert not N.in_notebook_kernel()
    _fake_ipython(monkeypatch, types.SimpleNamespace(kernel=object()))  # a Jupyter kernel
    assert N.in_notebook_kernel()

    def broken():
        raise RuntimeError("half set up")

    mod = types.ModuleType("IPython")
    mod.get_ipython = broken
    monkeypatch.setitem(sys.modules, "IPython", mod)
    assert not N.in_notebook_kernel()


def test_progress_draws_in_a_kernel(monkeypatch, capsys):
    monkeypatch.delenv("ODDSMITH_PROGRESS", raising=False)
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    with Progress(10, "x", delay=0) as bar:
        assert not bar.enabled  # stderr captured: no terminal, no kernel
    _fake_ipython(monkeypatch, types.SimpleNamespace(kernel=object()))
    with Progress(10, "battles", delay=0) as bar:
        assert bar.enabled
        bar.advance(5)
    err = capsys.readouterr().err
    assert err.startswith("\rbattles [") and "50.0%" in err
