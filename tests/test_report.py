"""Printable reports: documents build from small inputs, hold the expected pages and the engines' numbers,
every chart function draws, and bad input fails cleanly with no file left behind."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

from oddsmith.cli import main
from oddsmith.doomtown import deck as decks_mod
from oddsmith.doomtown import lowball, shootout
from oddsmith.report import battle_page, build, charts, deck_report, document, glossary, layout, shadows_sheets, style
from oddsmith.report.charts import pct
from oddsmith.report.pdf_outline import read_outline
from oddsmith.sampling import SamplingPlan
from oddsmith.shadows import tables

TRIALS = "2000"


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


def pdf_bookmark_titles(data: bytes) -> list[str]:
    """The outline items' titles in file order, read straight from the bytes (UTF-16 hex strings)."""
    catalogs = re.findall(rb"<<\s*/Type\s*/Catalog(.*?)>>", data, re.S)
    assert b"/Outlines" in catalogs[-1] and b"/PageMode /UseOutlines" in catalogs[-1]
    return [bytes.fromhex(h.decode()).decode("utf-16-be") for h in re.findall(rb"/Title\s*<FEFF([0-9A-F]*)>", data)]


def glossary_pages(*parts: str) -> int:
    return len(glossary.glossary_pages(parts))


def md_table_row(text: str, heading: str, first_cells: list[str]) -> dict[str, str]:
    """The row of the Markdown table under ``heading`` whose first cells are ``first_cells``."""
    part = text[text.index(heading):]
    lines = [ln for ln in part.splitlines() if ln.startswith("|")]
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    for ln in lines[2:]:
        cells = [c.strip() for c in ln.strip("|").split("|")]
        if cells[: len(first_cells)] == first_cells:
            return dict(zip(header, cells))
        if not ln.startswith("|"):
            break
    raise AssertionError(f"no row {first_cells} under {heading!r}")


def one_line_error(capsys) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("oddsmith: error:"), err
    return err


# ---------------------------------------------------------------------------- style and charts

def test_style_file_pairs_every_colour_with_a_hatch():
    with style.report_style():
        cols, hatches = style.colors(), style.hatches()
        assert len(cols) == len(hatches) == 8 and len(set(hatches)) == 8
        assert cols[0] == "#0072B2"  # Okabe-Ito blue
        assert style.cmap().name == "cividis"
        import matplotlib as mpl

        assert mpl.rcParams["pdf.fonttype"] == 42  # fonts embedded as TrueType
    assert style.ink_on("#000000") == "white" and style.ink_on("#ffffff") == "black"


def _texts(fig) -> list[str]:
    out = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
    out += [t for cells in fig.findobj(layout.CellTexts) for t in cells.texts()]  # a heatmap's numbers, a table's cells
    return [t for t in out if t]


def test_every_chart_function_draws_engine_data():
    deck = decks_mod.load_sample("law-dogs")
    other = decks_mod.load_sample("outlaws")
    odds = lowball.lowball_odds(deck)
    rnd = shootout.shootout_round(shootout.Side(deck, 1, 1), shootout.Side(other, 1, 1), trials=2000, seed=5)
    succ = tables.success_table(range(1, 4))
    with style.report_style():
        # heatmap and heatmap_grid: numbers printed in the cells
        m = succ.pivot(index="dice", columns="die", values="at_least_1")
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.heatmap(fig.add_subplot(), m, title="P(1+ success)")
        assert pct(succ["at_least_1"].iloc[0]) in _texts(fig)
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.heatmap_grid(fig, [("a", m), ("b", m)], suptitle="grid")
        assert len(fig.axes) == 2 and len(_colour_bars(fig)) == 1  # two panels and the shared colour bar
        # distribution_bars, grouped with error bars (casualties of one round)
        cas = rnd.casualties.head(5)
        long = pd.concat([pd.DataFrame({"n": cas["casualties"], "side": s, "p": cas[f"p_{s}"],
                                        "se": cas[f"p_{s}_stderr"]}) for s in "AB"])
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.distribution_bars(fig, long, x="n", p="p", stderr="se", group="side", title="casualties")
        assert f"{100 * cas['p_A'].iloc[0]:.1f}" in _texts(fig)
        # stacked_bars
        parts = pd.DataFrame({"bar": ["round"] * 3, "part": ["A", "tie", "B"],
                              "p": [rnd.p_win, rnd.p_tie, rnd.p_lose]})
        fig = Figure(figsize=(6, 2), layout="constrained")
        charts.stacked_bars(fig, parts, bar="bar", part="part", p="p", title="who wins")
        assert f"{100 * rnd.p_win:.1f}" in _texts(fig)
        # value_suit_histogram
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.value_suit_histogram(fig, deck_report._counts_long(deck), jokers=deck.jokers, title="cards")
        assert "Joker" in _texts(fig)
        # tradeoff_scatter
        rows = [{"deck": "Law Dogs", "bonus": f"stud {s}", "x": odds.ranks["at_most"].iloc[1],
                 "y": o.p_full_house_or_better, "se": o.p_at_least_stderr(7)}
                for s in (0, 3) for o in [shootout.shootout_odds(deck, s, 0, trials=2000, seed=1)]]
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.tradeoff_scatter(fig, pd.DataFrame(rows), x="x", y="y", deck="deck", bonus="bonus", yerr="se",
                                title="trade-off", xlabel="x", ylabel="y")
        assert "1  Law Dogs" in _texts(fig)
        # set_title wraps a long title to the width it has
        fig = Figure(figsize=(3, 2))
        ax = fig.add_subplot()
        charts.set_title(ax, fig, "word " * 40)
        assert "\n" in ax.get_title(loc="left")


# ---------------------------------------------------------------------------- reports

def test_deck_report_pdf_pages_and_metadata(tmp_path, capsys):
    out = tmp_path / "decks.pdf"
    rc = main(["report", "deck", "law-dogs", "outlaws", "--trials", TRIALS, "--seed", "3", "-o", str(out)])
    assert rc == 0
    assert f"wrote {out}" in capsys.readouterr().out
    # cover, three pages per deck (cards and lowball, shootouts, what is +1 worth), the
    # every-deck matrices, the trade-off, the glossary
    n_glossary = glossary_pages(glossary.DOOMTOWN)
    assert pdf_pages(out) == 1 + 3 * 2 + 1 + 1 + n_glossary
    data = out.read_bytes()
    for title in (b"oddsmith deck report", b"Deck: Law Dogs: cards and lowball", b"Deck: Outlaws: shootouts",
                  b"Every deck against every other", b"The trade-off: lowball against shootout strength",
                  b"Whole shootouts: what is +1 worth? Law Dogs against Outlaws"):
        assert title in data
    assert b"/MediaBox [0 0 595.44 841.68]" in data or b"595" in data  # A4 by default
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decks.pdf"]
    # bookmarks: every page by its title, nested under the part and the section, then the glossary
    titles = pdf_bookmark_titles(data)
    pages = ["Deck: Law Dogs: cards and lowball", "Deck: Law Dogs: shootouts",
             "Whole shootouts: what is +1 worth? Law Dogs against Outlaws", "Deck: Outlaws: cards and lowball",
             "Deck: Outlaws: shootouts", "Whole shootouts: what is +1 worth? Outlaws against Law Dogs",
             "Every deck against every other", "The trade-off: lowball against shootout strength"]
    assert titles == (["oddsmith deck report", "Doomtown deck report", "Deck: Law Dogs", *pages[:3],
                       "Deck: Outlaws", *pages[3:6], "Decks against each other", *pages[6:], "Glossary"]
                      + ["Glossary (continued)"] * (n_glossary - 1))
    tree = read_outline(data)
    assert [b.title for b in tree] == ["oddsmith deck report", "Doomtown deck report", "Glossary"]
    doomtown = tree[1]
    assert [b.title for b in doomtown.children] == ["Deck: Law Dogs", "Deck: Outlaws", "Decks against each other"]
    assert [(b.title, b.page) for b in doomtown.children[1].children] == [(pages[3], 4), (pages[4], 5), (pages[5], 6)]
    assert tree[2].page == 9 and re.search(rb"/Type /Outlines .*?/Count %d >>" % len(titles), data)


def test_deck_report_markdown_numbers_match_the_engines_and_cli(tmp_path, capsys):
    out = tmp_path / "r.md"
    rc = main(["report", "deck", "law-dogs", "--vs", "outlaws", "--trials", TRIALS, "--seed", "11",
               "-o", str(out)])
    assert rc == 0
    text = out.read_text()
    charts_written = sorted(p.name for p in tmp_path.glob("r-chart-*.png"))
    assert len(charts_written) == text.count("](r-chart-") and charts_written
    assert "## Deck: Law Dogs: cards and lowball" in text and "## Deck: Law Dogs: shootouts" in text
    # exact lowball head-to-head: the page and `oddsmith lowball --vs --format json` agree
    capsys.readouterr()
    assert main(["lowball", "law-dogs", "--vs", "outlaws", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    row = md_table_row(text, "Gamblin' head-to-head of Law Dogs", ["Outlaws"])
    assert row["P(win) (%)"] == pct(cli["p_win"], 2)
    # a simulated shootout cell: the page and the engine with the same seed and trials agree
    o = shootout.shootout_odds(decks_mod.load_deck("law-dogs"), 3, 1, trials=int(TRIALS), seed=11)
    row = md_table_row(text, "Law Dogs: shootout hand by stud and draw bonus", ["3", "1"])
    assert row["P(Full H.+) (%)"] == pct(o.p_full_house_or_better, 2)
    assert row["exact"] == f"{int(TRIALS):,} trials"
    capsys.readouterr()
    assert main(["shootout", "law-dogs", "--stud", "3", "--draw", "1", "--trials", TRIALS, "--seed", "11",
                 "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert row["P(Full H.+) (%)"] == pct(cli["p_at_least"]["7"], 2)
    assert abs(cli["mean_rank"] - o.mean_rank) < 1e-12
    # the footer names the seed and the sampling error
    assert "seed 11" in text and "largest standard error" in text
    # the first page says how to make the same figures again (issue 16: a printed sheet is reproducible)
    cover = text[:text.index("\n## ")]
    assert ("The same figures again: oddsmith report deck law-dogs --vs outlaws --seed 11 --trials 2000"
            in cover)


def test_shadows_sheets_html_and_posse_pages(tmp_path, capsys):
    out = tmp_path / "sheets.html"
    # few battles: the exact sheets and the posse pages are what is checked here
    rc = main(["report", "shadows", "unaligned", "-o", str(out), "--dpi", "40", "--trials", "200"])
    assert rc == 0
    html = out.read_text()
    posse = shadows_sheets.load_posse("unaligned")
    for title in ("Tests: P(at least k Successes)", "Shooting: hit and damage", "Saves and damage by Successes",
                  "Fights", "Recovery Tests and Bottle Checks", "Advance rolls and Injuries"):
        assert f"<h2>{title}" in html
    assert html.count("<h2>Posse ") == len(posse.models)
    for img in re.findall(r'<img src="([^"]+)"', html):
        assert (tmp_path / img).is_file()
    # an exact number on the shooting sheet is the one `oddsmith shadows shoot --format json` prints
    capsys.readouterr()
    assert main(["shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--dice-mod", "1",
                 "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)["outcomes"]
    tab = tables.shooting_table(["Veteran"], ["Novice"], dice_mods=[1])
    assert abs(tab["casualty"].iloc[0] - cli["casualty"]) < 1e-12
    assert f"<td>Veteran</td><td>Novice</td><td>1</td><td>4</td><td>{pct(1 - cli['miss'])}</td>" in html


def test_png_pages_numbered_on_letter(tmp_path):
    doc = document.Document("advance", [shadows_sheets.advance_page()], seed=None, glossary=False)
    out = tmp_path / "sheets.png"
    written = document.write_document(doc, out, paper="letter", dpi=30)
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["sheets-01.png", "sheets-02.png"] == [w.name for w in written]
    from PIL import Image

    with Image.open(files[0]) as im:
        assert im.size == (round(8.5 * 30), round(11 * 30))


def test_svg_single_page_document(tmp_path):
    deck = decks_mod.load_sample("balanced")
    page = deck_report.lowball_page(deck_report.DeckInputs([deck]), deck, lowball.lowball_odds(deck), [])
    doc = document.Document("one page", [page], seed=None, cover=False, glossary=False)
    written = document.write_document(doc, tmp_path / "page.svg")
    assert written == [tmp_path / "page.svg"]
    assert (tmp_path / "page.svg").read_text().lstrip().startswith("<?xml")


def test_no_command_is_report_with_no_arguments(monkeypatch, tmp_path):
    from oddsmith.report import build

    calls = []
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(build, "make_report",
                        lambda kind, settings, **what: calls.append((kind, settings, what)) or ([settings.output], 1))
    assert main([]) == 0
    assert main(["report"]) == 0
    (k1, s1, w1), (k2, s2, w2) = calls
    assert k1 == k2 == "full" and w1 == w2 == {}
    assert s1.output == s2.output == Path("oddsmith-report.pdf")
    assert (s1.fmt, s1.paper, s1.dpi, s1.trials, s1.workers) == (s2.fmt, s2.paper, s2.dpi, s2.trials, s2.workers)
    assert s1.trials == build.REPORT_TRIALS and 0.5 * build.REPORT_TRIALS ** -0.5 < 0.005


def test_options_before_the_subcommand_apply(monkeypatch, tmp_path):
    from oddsmith.report import build

    calls = []
    monkeypatch.setattr(build, "make_report",
                        lambda kind, settings, **what: calls.append((kind, settings, what)) or ([settings.output], 1))
    out = tmp_path / "x.html"
    assert main(["report", "--paper", "letter", "deck", "law-dogs", "-o", str(out), "--seed", "4"]) == 0
    kind, settings, what = calls[0]
    assert (kind, settings.paper, settings.fmt, settings.seed) == ("deck", "letter", "html", 4)
    assert what == {"decks": ["law-dogs"], "vs": None, "with_gang": False}


def test_outline_nests_pages_under_part_and_section():
    P = document.Page
    pages = [P("Cover"), P("a1", section="A", part="Game"), P("a2", section="A", part="Game"),
             P("b", section="B", part="Game"), P("Sheets 1", section="Sheets", part="Sheets"),
             P("Sheets 2", section="Sheets", part="Sheets"), P("c", part="Game"), P("G", section="G"),
             P("G (continued)", section="G")]

    def flat(items, depth=0):
        return [row for b in items for row in [(depth, b.title, b.page), *flat(b.children, depth + 1)]]

    assert flat(document.outline(pages)) == [
        (0, "Cover", 0),
        (0, "Game", 1), (1, "A", 1), (2, "a1", 1), (2, "a2", 2), (1, "B", 3), (2, "b", 3),
        (0, "Sheets", 4), (1, "Sheets 1", 4), (1, "Sheets 2", 5),  # a section named like its part: no extra level
        (0, "Game", 6), (1, "c", 6),  # not next to the first Game pages: an entry of its own
        (0, "G", 7), (1, "G (continued)", 8),  # a page titled like its section is the section's entry
    ]


def test_outline_survives_a_strict_reading_of_the_file(tmp_path):
    """The appended outline leaves matplotlib's objects alone: metadata, pages and an outline read back."""
    pages = [document.Page(t, blocks=[document.Notes([t])], section="S" if t != "one" else "",
                           part="Part ≥ é") for t in ("one", "two", "three")]
    out = tmp_path / "o.pdf"
    document.write_document(document.Document("Title ‘quoted’", pages, seed=None, glossary=False), out)
    data = out.read_bytes()
    assert data.count(b"%%EOF") == 2 and data.startswith(b"%PDF-1.4")
    info = re.findall(rb"trailer\s*<<.*?/Info (\d+) 0 R", data, re.S)
    assert pdf_pages(out) == 4 and len(info) == 2 and info[0] == info[1]  # matplotlib's metadata still counts
    assert pdf_bookmark_titles(data) == ["Title ‘quoted’", "Part ≥ é", "one", "S", "two", "three"]
    assert [b.page for b in read_outline(data)[1].children[1].children] == [2, 3]
    # the new trailer points at the old cross-reference table
    prev = int(re.findall(rb"/Prev (\d+)", data)[-1])
    assert data[prev:prev + 4] == b"xref"


def _cell_value(cell: str) -> tuple[float, float] | None:
    """(value, rounding half-width) of a printed percentage such as "43.3" or "43.3 ± 1.1"; None if blank."""
    m = re.match(r"\s*(\d+)(?:\.(\d+))?", str(cell))
    if not m:
        return None
    decimals = len(m.group(2) or "")
    return float(m.group(0)), 0.5 * 10 ** -decimals


def _check_distribution(title: str, frame: pd.DataFrame, dist: document.Distribution) -> int:
    missing = [c for c in dist.columns if c not in frame.columns]
    assert not missing, f"{title!r}: no column {missing}"
    sums = [frame[list(dist.columns)].to_numpy().ravel()] if dist.down else frame[list(dist.columns)].to_numpy()
    for cells in sums:
        parsed = [v for v in (_cell_value(c) for c in cells) if v is not None]
        total, slack = sum(v for v, _ in parsed), sum(h for _, h in parsed)
        assert abs(total - 100) <= slack + 1e-9, f"{title!r}: {list(cells)} adds up to {total}"
    return len(sums)


def test_every_distribution_the_report_prints_adds_up_to_100():
    """Every table (or chart data) that lists all outcomes of one roll or deal adds up to 100 % in every row."""
    plan = SamplingPlan(seed=7, trials=2000)
    pages = deck_report.deck_pages(deck_report.load_decks(["law-dogs", "outlaws"], None), plan)
    pages += shadows_sheets.shadows_pages(shadows_sheets.load_posse("unaligned"))
    checked: dict[str, int] = {}
    for page in pages:
        for title, frame, dists in page.tables():
            for dist in dists:
                checked[title] = checked.get(title, 0) + _check_distribution(title, frame, dist)
    # the tables that list every outcome are all declared (a table dropped from this list would go unchecked)
    expected = {"Lowball hand of Law Dogs (exact)", "Gamblin' head-to-head of Law Dogs (exact)",
                "Law Dogs: one shootout round against each opponent", "Law Dogs: casualty distributions of one round",
                "Exact distribution of Successes (a Shaken model rolls one Grit die lower, minimum D6)",
                "Save and damage by Successes", "Fight matrix", "Recovery Test",
                "Injury roll after the game (D10: 1 Dead, 2-5 Lasting Injury, 6 Laid-Up, 7-10 no Injury)"}
    posse = shadows_sheets.load_posse("unaligned")
    expected |= {f"{m.name} attacking in a Fight, against each Rank" for m in posse.models}
    assert expected <= set(checked), expected - set(checked)
    assert checked["Injury roll after the game (D10: 1 Dead, 2-5 Lasting Injury, 6 Laid-Up, 7-10 no Injury)"] == 6
    # and the check catches a row that leaves an outcome out (the Injury table without its 7-10 column)
    injury = next(t for p in pages for t in p.tables() if t[0].startswith("Injury roll"))
    short = document.Distribution(tuple(c for c in injury[2][0].columns if not c.startswith("No Injury")))
    with pytest.raises(AssertionError, match="adds up to"):
        _check_distribution("injury", injury[1], short)


def test_glossary_each_term_once_in_every_format(tmp_path):
    sections = glossary.glossary_sections([glossary.DOOMTOWN, glossary.SHADOWS])
    terms = [t.term for _, ts in sections for t in ts]
    assert len(terms) == len(set(terms)) and len(terms) > 30
    for needed in ("stud bonus", "draw bonus", "mean rank", "Grit die", "Dice Modifier", "Shaken", "Downed",
                   "Casualty", "casualties", "standard error, ±", "heuristic discard, search",
                   "policy (hand-keeping): legal, greedy, margin:K", "cheatin', P(cheatin')"):
        assert needed in terms
    # a report without a Shadows part prints no Shadows terms
    doomtown_only = [t.term for _, ts in glossary.glossary_sections([glossary.DOOMTOWN]) for t in ts]
    assert "Grit die" not in doomtown_only and "stud bonus" in doomtown_only
    # every term is printed once in Markdown and HTML, in a glossary section after the report's pages
    page = document.in_part([shadows_sheets.advance_page()], glossary.SHADOWS)
    doc = document.Document("advance", page, seed=None)
    document.write_document(doc, tmp_path / "g.md", dpi=30)
    document.write_document(doc, tmp_path / "g.html", dpi=30)
    md, html = (tmp_path / "g.md").read_text(), (tmp_path / "g.html").read_text()
    assert md.index("## Advance rolls and Injuries") < md.index("## Glossary")
    assert md.count("## Glossary") == 1 and html.count("<h2>Glossary") == 1  # one section, not split by pages
    shadows_terms = [t.term for _, ts in glossary.glossary_sections([glossary.SHADOWS]) for t in ts]
    for term in shadows_terms:
        assert md.count(f"- **{term}**: ") == 1, term
        assert html.count(f"<dt>{__import__('html').escape(term)}</dt>") == 1, term
    assert "stud bonus" not in md
    assert glossary.COLOUR_CONVENTION[0] in md


def _luminance(rgba) -> float:
    import numpy as np

    r, g, b = np.asarray(rgba[:3]) ** 2.2
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_heatmap_colours_mean_better_for_the_subject():
    """Bright = better everywhere: high values bright where more is better, dark where more is worse."""
    m = pd.DataFrame([[0.1, 0.1], [0.9, 0.9]], columns=["Hit", "Jams"])
    with style.report_style():
        for good, hit_bright, jams_bright in ((charts.HIGH, True, True), (charts.LOW, False, False),
                                              ({"Jams": charts.LOW}, True, False)):
            fig = Figure(figsize=(4, 2), layout="constrained")
            ax = fig.add_subplot()
            charts.heatmap(ax, m, good=good)
            img = charts.cell_colours(ax)
            assert (_luminance(img[1, 0]) > _luminance(img[0, 0])) == hit_bright, good
            assert (_luminance(img[1, 1]) > _luminance(img[0, 1])) == jams_bright, good
        # the neutral scale is grey, not the good-bad colours
        fig = Figure(figsize=(4, 2), layout="constrained")
        charts.heatmap(fig.add_subplot(), m, good=charts.NEUTRAL)
        r, g, b, _ = charts.cell_colours(fig.axes[0])[1, 0]
        assert abs(r - g) < 1e-6 and abs(g - b) < 1e-6
        # a mixed table's colour bar runs from worse to better and names whom it is about
        fig = Figure(figsize=(6, 2.5), layout="constrained")
        charts.heatmap_grid(fig, [("p", m)], good={"Jams": charts.LOW}, subject="the shooter")
        (bar,) = _colour_bars(fig)
        assert bar.ticks() == [(0.0, "worse"), (1.0, "better")]
        assert "better for the shooter" in bar.label.replace("\n", " ")


def _colour_bars(fig) -> list:
    from oddsmith.report.colour_bar import ColourBar

    return [a for a in fig.artists if isinstance(a, ColourBar)]


@pytest.mark.parametrize("height", [1.15, 1.5, 2.4, 6.0])
def test_colour_bar_is_as_tall_as_its_panels(height):
    """The colour bar of a short heatmap is not squashed: about the panel's height, a readable thickness
    (placed as the pages place it, by oddsmith.report.layout)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    m = pd.DataFrame([[0.1, 0.5, 0.9]] * max(1, int(height * 3)), columns=["0", "1", "2+"])
    with style.report_style():
        fig = Figure(figsize=(7, height))
        FigureCanvasAgg(fig)
        document._draw_block(fig, document.Chart(
            lambda f: charts.heatmap_grid(f, [("a", m), ("b", m)], good=charts.NEUTRAL,
                                          colorbar_label="probability (%)"), title="", height=height))
        fig.canvas.draw()
        panel = fig.axes[0].get_window_extent()
        (colour_bar,) = _colour_bars(fig)
        dpi = fig.dpi
        x0, y0, x1, y1 = (v * dpi for v in colour_bar.rect())
        assert (x1 - x0) / dpi >= 0.8 * charts.COLORBAR_WIDTH
        assert y1 - y0 >= 0.75 * min(panel.height, charts.COLORBAR_MAX * dpi), ((y0, y1), panel)
        assert x0 > panel.x1  # beside the panels, not over them
        label = colour_bar.label_artist.get_window_extent()
        assert label.y0 >= 0 and label.y1 <= fig.bbox.height  # the label stays on the chart
        assert label.x0 > x1 and label.x1 <= fig.bbox.width


def test_summed_tables_are_pandas_pivot_tables():
    """charts.summed, the stacked bars' table: on random long data (pairs repeated, missing, NaN, outside the
    orders), the pivot table of sums, reindexed to the orders with 0 for the missing, to the last bit where each
    pair holds one value, and within rounding where a pair repeats."""
    import numpy as np

    rng = np.random.default_rng(3)
    for case in range(60):
        n = int(rng.integers(0, 40))
        data = pd.DataFrame({"bar": rng.choice(["a", "b", "c", "d", "e"], n), "part": rng.choice(["x", "y", "z"], n),
                             "p": np.where(rng.random(n) < 0.1, np.nan, rng.random(n))})
        if case % 2:
            data = data.drop_duplicates(["bar", "part"])
        rows = list(rng.permutation(["a", "b", "c", "f"]))
        cols = list(rng.permutation(["x", "y", "w"]))
        got = charts.summed(data, "bar", "part", "p", rows, cols)
        want = (data.pivot_table(index="bar", columns="part", values="p", aggfunc="sum")
                .reindex(index=rows, columns=cols).fillna(0).to_numpy(dtype=float)) if n else np.zeros((4, 3))
        if case % 2:
            assert np.array_equal(got, want), case
        else:
            assert np.allclose(got, want, rtol=1e-12, atol=0), case


@pytest.mark.parametrize("orientation", ["vertical", "horizontal"])
def test_a_colour_bar_is_drawn_as_an_image_of_its_bands(orientation):
    """charts.unsampled_solids: the colour bar's bands become an image of one pixel each, which a page draws as
    the bands were drawn (the same pixels on a PNG page, inside the bar), with the same colour scale."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    def bar_pixels(unsampled: bool):
        fig = Figure(figsize=(4, 3), dpi=100)
        FigureCanvasAgg(fig)
        bar = fig.colorbar(ScalarMappable(Normalize(-20, 80), charts.colour_map(charts.LOW)), ax=fig.add_subplot(),
                           orientation=orientation)
        mesh = bar.solids
        if unsampled:
            charts.unsampled_solids(bar)
            assert bar.solids is bar.ax.images[0] and mesh not in bar.ax.collections
            assert (bar.ax.get_xlim(), bar.ax.get_ylim()) == (((0, 1), (-20, 80)) if orientation == "vertical"
                                                              else ((-20, 80), (0, 1)))
        fig.canvas.draw()
        x0, y0, x1, y1 = (int(round(v)) for v in bar.ax.get_window_extent().extents)
        rgba = np.asarray(fig.canvas.buffer_rgba())[::-1]  # rows from the bottom, as the extents count
        return rgba[y0 + 2:y1 - 2, x0 + 2:x1 - 2, :3].astype(int)

    with style.report_style():
        meshed, imaged = bar_pixels(False), bar_pixels(True)
    assert meshed.shape == imaged.shape and meshed.size > 1000
    # the same colour at every pixel of the bar, or its neighbouring band's where the two resample a band's edge
    # (two of the 256 bands differ by at most 2 of 255 in each channel)
    assert np.abs(meshed - imaged).max() <= 3
    along = imaged[:, imaged.shape[1] // 2] if orientation == "vertical" else imaged[imaged.shape[0] // 2]
    assert len(np.unique(along, axis=0)) > 50  # a scale, not one colour


@pytest.mark.parametrize("case", range(4))
def test_colour_bar_draws_what_matplotlibs_colour_bar_draws(case):
    """colour_bar.ColourBar against Matplotlib's colour bar of the same place, scale and style: the same ticks at
    the same values with the same labels (random ranges and lengths), the same colours along the bar, within a
    point of the same place for its label, and the same pixels in the strip of colour on a PNG page."""
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    from oddsmith.report.colour_bar import ColourBar

    rng = np.random.default_rng(40 + case)
    with style.report_style():
        for _ in range(25):
            kind = rng.integers(4)
            if kind == 0:
                lo, hi = 0.0, 100.0
            elif kind == 1:
                lo, hi = 0.0, float(rng.uniform(0.05, 3.0))
            elif kind == 2:
                lo, hi = sorted(rng.uniform(-50, 80, 2).tolist())
            else:
                lo = float(rng.uniform(0, 1e4))
                hi = lo + float(rng.uniform(1e-3, 1e3))
            length = float(rng.uniform(0.4, 6.0))
            cmap = charts.colour_map(rng.choice([charts.HIGH, charts.LOW, charts.NEUTRAL]))
            level = bool(rng.integers(2))
            label = "probability (%)\nbright: better for A" if not level else "casualties"
            rect = (5.0, 0.3, 5.0 + charts.COLORBAR_WIDTH, 0.3 + length)
            dpi = 100
            fig = Figure(figsize=(7, length + 0.6), dpi=dpi)
            FigureCanvasAgg(fig)
            w, h = fig.get_size_inches()
            cax = fig.add_axes((rect[0] / w, rect[1] / h, (rect[2] - rect[0]) / w, (rect[3] - rect[1]) / h))
            theirs = fig.colorbar(ScalarMappable(Normalize(lo, hi), cmap), cax=cax)
            theirs.outline.set_linewidth(0.4)
            charts.unsampled_solids(theirs)  # as the report drew Matplotlib's colour bars
            if level:
                theirs.set_label(label, rotation=0, ha="left", va="center", fontsize=7, labelpad=3)
            else:
                theirs.set_label(label)
            fig.canvas.draw()
            shown = [(float(t.get_loc()), t.label2.get_text()) for t in cax.yaxis._update_ticks()]
            mine_fig = Figure(figsize=(7, length + 0.6), dpi=dpi)
            FigureCanvasAgg(mine_fig)
            mine = ColourBar(cmap, Normalize(lo, hi), label=label, level=level)
            mine_fig.add_artist(mine)
            mine.set_rect(rect)
            mine_fig.canvas.draw()
            assert [s for _, s in mine.ticks()] == [s for _, s in shown], (lo, hi, length)
            assert np.allclose([v for v, _ in mine.ticks()], [v for v, _ in shown], rtol=1e-12, atol=1e-12 * hi)
            # the label within about a point of Matplotlib's (the tick labels' width measured, not laid out)
            assert abs(mine.label_artist.get_position()[0] - cax.yaxis.label.get_position()[0]) <= 1.5
            drawn = cax.yaxis.label.get_window_extent()
            assert abs(mine.label_artist.get_position()[1] - (drawn.y0 + drawn.y1) / 2) <= 1.0
            assert np.array_equal(mine.colours(), cmap(np.arange(cmap.N), bytes=True))
            x0, y0, x1, y1 = (int(round(v * dpi)) for v in rect)
            height = int(round(fig.bbox.height))
            rows, cols = slice(height - y1 + 3, height - y0 - 3), slice(x0 + 2, x1 - 2)
            theirs_px = np.asarray(fig.canvas.buffer_rgba())[..., :3].astype(int)
            mine_px = np.asarray(mine_fig.canvas.buffer_rgba())[rows, cols, :3].astype(int)
            assert mine_px.size > 0
            # each pixel the colour Matplotlib's bar has there, or in the next row up or down: the same bands, an
            # edge between two of them allowed to fall a pixel away (neighbouring bands differ by 2-3 of 255)
            near = [theirs_px[slice(rows.start + d, rows.stop + d), cols] for d in (-1, 0, 1)]
            worst = np.min([np.abs(n - mine_px).max(axis=-1) for n in near], axis=0)
            assert (worst <= 3).all(), (np.argwhere(worst > 3)[:8].tolist(), worst.max(), mine_px.shape, lo, hi)
            assert (np.abs(near[1] - mine_px).max(axis=-1) <= 1).mean() > 0.8


def test_colour_bar_on_a_vector_page_is_matplotlibs_image():
    """On a vector page (SVG here; PDF takes the same call) a ColourBar's colours are the image Matplotlib's colour
    bar draws with charts.unsampled_solids: the same pixels, the same way up, scaled to the same place."""
    import io
    import re

    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import Normalize

    from oddsmith.report.colour_bar import ColourBar

    def image(fig) -> str:
        out = io.StringIO()
        fig.savefig(out, format="svg")
        (element,) = re.findall(r"<image[^>]*>", out.getvalue(), re.S)
        return re.sub(r'\sid="[^"]*"', "", element)

    with style.report_style():
        for good, rect in ((charts.HIGH, (5.0, 0.3, 5.11, 2.5)), (charts.LOW, (4.2, 0.55, 4.31, 1.4))):
            cmap = charts.colour_map(good)
            fig = Figure(figsize=(7, 3))
            w, h = fig.get_size_inches()
            cax = fig.add_axes((rect[0] / w, rect[1] / h, (rect[2] - rect[0]) / w, (rect[3] - rect[1]) / h))
            charts.unsampled_solids(fig.colorbar(ScalarMappable(Normalize(0, 100), cmap), cax=cax))
            mine = Figure(figsize=(7, 3))
            bar = ColourBar(cmap, Normalize(0, 100))
            mine.add_artist(bar)
            bar.set_rect(rect)
            assert image(mine) == image(fig)


def test_pdf_pages_with_colour_bars_rasterize_nothing(monkeypatch):
    """A heatmap grid's colour bar and the glossary's two colour scales draw on a PDF page without a raster:
    Matplotlib rasterizes a mesh of 50 colours or more, making a raster the size of the whole page."""
    import io

    from matplotlib.backends import backend_mixed
    from matplotlib.backends.backend_pdf import PdfPages

    def refuse(self):
        raise AssertionError("a raster was made")

    monkeypatch.setattr(backend_mixed.MixedModeRenderer, "start_rasterizing", refuse)
    m = pd.DataFrame([[0.1, 0.5, 0.9], [0.2, 0.4, 0.6]], columns=["0", "1", "2+"])
    page = document.Page(title="bars", blocks=[
        document.Chart(lambda f: charts.heatmap_grid(f, [("a", m), ("b", m)], colorbar_label="probability (%)"),
                       title="", height=2.0),
        document.Chart(glossary.draw_colour_key, title="", height=0.75)])
    doc = document.Document("bars", [page], seed=1, cover=False, glossary=False)
    with style.report_style(), PdfPages(io.BytesIO()) as pdf:
        document.save_pdf_page(pdf, doc, page, 1, 1, "a4")


# ---------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("args, message", [
    (["report", "deck", "no-such-deck"], "no-such-deck"),
    (["report", "deck", "law-dogs", "--vs", "nope.txt"], "nope.txt"),
    (["report", "--paper", "a3"], "unknown paper size"),
    (["report", "--format", "docx"], "unknown report format"),
    (["report", "shadows", "--dpi", "5"], "--dpi"),
    (["report", "deck", "law-dogs", "--trials", "0"], "--trials"),
    (["report", "shadows", "no-such-posse"], "no-such-posse"),
])
def test_bad_input_one_line_exit_2_no_file(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    assert message in one_line_error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_unwritable_output_paths(tmp_path, capsys):
    assert main(["report", "shadows", "-o", str(tmp_path / "missing" / "x.pdf")]) == 2
    assert "does not exist" in one_line_error(capsys)
    assert main(["report", "shadows", "-o", str(tmp_path)]) == 2
    assert "is a folder" in one_line_error(capsys)
    assert main(["report", "shadows", "-o", str(tmp_path / "x.odt")]) == 2
    assert "report format" in one_line_error(capsys)
    assert list(tmp_path.iterdir()) == []


def test_failure_while_writing_leaves_no_partial_files(tmp_path, monkeypatch):
    m = tables.success_table(range(1, 3)).pivot(index="dice", columns="die", values="at_least_1")
    page = document.Page("fine", blocks=[document.Chart(lambda f: charts.heatmap_grid(f, [("m", m)]), "fine",
                                                        data=m)])

    def boom(fig):
        raise RuntimeError("disk full")

    broken = document.Page("broken", blocks=[document.Chart(boom, "broken")])
    doc = document.Document("t", [page, broken], seed=1)
    for name in ("x.pdf", "x.png", "x.md", "x.html"):
        with pytest.raises(RuntimeError):
            document.write_document(doc, tmp_path / name, dpi=30)
        assert list(tmp_path.iterdir()) == [], name


# ---------------------------------------------------------------------------- the sample report

@pytest.mark.slow
def test_sample_report_as_oddsmith_with_no_command(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(build.TRIALS_ENV, "200")  # every page, few trials: the page count does not depend on them
    assert main([]) == 0
    out = tmp_path / "oddsmith-report.pdf"
    assert "wrote oddsmith-report.pdf" in capsys.readouterr().out
    starters = len(deck_report.STARTER_DECKS)
    assert pdf_pages(out) == (1 + 3 * starters + 2 + 7 + battle_page.n_steps()  # battle pages: one per step
                              + 1  # the deck-tune frontier page (sample report only)
                              + glossary_pages(glossary.DOOMTOWN, glossary.SHADOWS))
    assert out.stat().st_size < 3_000_000
    # every text of the sample report prints in the PDF's standard fonts: no page needs a font embedded
    data = out.read_bytes()
    assert b"/BaseFont /Helvetica" in data and b"/FontFile" not in data


def test_lines_with_quotes_keep_their_spacing_in_the_standard_fonts():
    """A quote or an apostrophe does not push its line of a notes block down onto the next (matplotlib reads the
    standard fonts' glyph boxes as widths and heights: oddsmith.report.style mends them)."""
    from matplotlib.backends.backend_pdf import FigureCanvasPdf
    from matplotlib.figure import Figure

    with style.report_style(), style.pdf_core_fonts():
        fig = Figure(figsize=(6, 2))
        fig.set_dpi(72)
        FigureCanvasPdf(fig)
        text = fig.text(0, 1, "Jp one\nJp \"two\" isn't\nJp three\nJp four", va="top", fontsize=7.5,
                        linespacing=1.35)
        _, lines, _ = text._get_layout(fig._get_renderer())
    ys = [y for _, _, (_, y) in lines]
    gaps = [a - b for a, b in zip(ys, ys[1:])]
    assert max(gaps) - min(gaps) < 0.2, gaps


def test_a_page_the_standard_fonts_cannot_print_embeds_the_style_font(tmp_path):
    """A name with a character outside the standard fonts' encoding (here Greek) prints on its page in the
    style's TrueType font, embedded; the other pages keep the standard fonts."""
    from matplotlib.backends.backend_pdf import PdfPages

    pages = [document.Page(title="Posse of \u03a9mega", blocks=[document.Notes(["\u03a9mega rides again"])]),
             document.Page(title="Plain page", blocks=[document.Notes(["nothing special"])])]
    doc = document.Document("fonts", pages, seed=1)
    every = doc.all_pages()
    assert [p.title for p in every[1:3]] == [p.title for p in pages]  # after the cover, which lists both
    with style.report_style():
        for number, page in enumerate(every[1:3], start=2):
            with style.pdf_core_fonts():
                fig = document.render_page(doc, page, number, len(every), "a4")
                assert document.core_fonts_can_draw(fig) == ("\u03a9" not in page.title)
    out = tmp_path / "fonts.pdf"
    document.write_document(doc, out)
    data = out.read_bytes()
    assert b"/BaseFont /Helvetica" in data and b"DejaVuSans" in data and b"/FontFile2" in data
    one = tmp_path / "one.pdf"
    document.write_document(document.Document("fonts", pages[1:], seed=1), one)
    assert b"/FontFile" not in one.read_bytes()


def test_posse_model_pages_use_the_posse_tables(capsys):
    """A posse page shows the numbers `oddsmith shadows posse --format json` prints for that model."""
    posse = shadows_sheets.load_posse("twilight-order")
    assert main(["shadows", "posse", "--faction", "twilight", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    for model in posse.models:
        page_rows = shadows_sheets.model_shooting(posse, model)
        cli_rows = [r for r in cli["shooting"] if r["model"] == model.name]
        assert len(page_rows) == len(cli_rows)
        for got, want in zip(page_rows.to_dict(orient="records"), cli_rows):
            assert (got["weapon"], got["range_band"], got["target"]) == (want["weapon"], want["range_band"], want["target"])
            assert abs(got["casualty"] - want["casualty"]) < 1e-12 and abs(got["hit"] - want["hit"]) < 1e-12
        fights = shadows_sheets.model_fights(posse, model)
        cli_fights = [r for r in cli["fight"] if r["model"] == model.name and not r["form"]]
        assert [abs(a - b["attacker_wins"]) < 1e-12 for a, b in zip(fights["attacker_wins"], cli_fights)] == \
            [True] * len(cli_fights)


# ---------------------------------------------------------------------------- issue 16: the report's polish

def test_time_left_counts_down_during_a_long_step():
    """A cheap first step then a dear one: the time left falls as the dear step runs, never climbs."""
    from oddsmith.report import build

    now = [0.0]
    steps = build.Steps(["deck A: lowball", "deck A: shootouts", "Shadows: battles"] + ["page"] * 5,
                        clock=lambda: now[0], delay=0.0)
    try:
        steps.step("deck A: lowball")
        now[0] = 0.3
        steps.done_step()
        steps.step("deck A: shootouts")
        seen = []
        for t in (0.5, 1.0, 2.0, 5.0, 10.0, 30.0):
            now[0] = t
            seen.append(steps.time_left())
            steps.draw()
        assert all(b <= a for a, b in zip(seen, seen[1:])), seen
        assert seen[0] < 60  # weighed steps: not "12 s" climbing to minutes
        assert 0 < steps.done < steps.UNITS  # the bar moves within the step
        assert build.step_seconds("deck A: shootouts") > build.step_seconds("deck A: lowball")
    finally:
        steps.close()


def test_time_left_after_steps_too_quick_to_time():
    """Seven Shadows sheets of a hundredth of a second each, timed with a few hundredths more (the second process
    starting): the time left of the value page after them is about its weight, not stretched by that overhead."""
    from oddsmith.report import build

    now = [0.0]
    steps = build.Steps(["Shadows: tests"] * 7 + ["Shadows: value a"], clock=lambda: now[0], delay=0.0)
    try:
        for k in range(7):
            steps.step("Shadows: tests")
            now[0] += 0.015
            steps.done_step()
        steps.step("Shadows: value a")
        weight = build.step_seconds("Shadows: value a")
        assert weight * 0.9 < steps.time_left() < weight * 1.1
    finally:
        steps.close()


class _RecordedSteps:
    """Steps that only note what they are told, in order."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def step(self, label: str) -> None:
        self.seen.append(label)

    def done_step(self) -> None:
        self.seen.append("done")


def test_deck_pages_take_the_steps_they_announce():
    """deck_pages steps through step_labels in order, each step ended before the next; the what-if steps are not
    taken where the what-if pages are made elsewhere (the sample report's second process)."""
    plan = SamplingPlan(seed=3, trials=200)
    inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
    inputs.starters = True  # as the sample report: a frontier page of swaps for the first deck
    for elsewhere in (False, True):
        recorded = _RecordedSteps()
        made = deck_report.what_if_pages(inputs, plan) if elsewhere else None
        deck_report.deck_pages(inputs, plan, steps=recorded, what_ifs=(lambda: made) if elsewhere else None)
        taken = recorded.seen[0::2]
        assert recorded.seen[1::2] == ["done"] * len(taken)
        skipped = deck_report.what_if_labels(inputs) if elsewhere else []
        assert taken == [x for x in deck_report.step_labels(inputs) if x not in skipped]
        assert "deck Law Dogs: swaps" in taken and "deck Outlaws: swaps" not in taken


def test_steps_made_by_the_second_process_weigh_nothing_here():
    """What the second process makes or shares (the matchups, the last value page, the what-if pages) takes this
    process no time of its own: the bar's total leaves those steps out, so no time left is promised for them."""
    from oddsmith.report import build

    plan = SamplingPlan(seed=1, trials=100)
    inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
    builders = battle_page.battle_builders(plan)
    elsewhere = build._made_by_second(inputs)
    assert elsewhere == [builders[0][0], builders[-1][0]] + deck_report.what_if_labels(inputs)
    labels = deck_report.step_labels(inputs) + battle_page.step_labels() + ["page"] * 3
    steps = build.Steps(labels, clock=lambda: 0.0, delay=0.0)
    try:
        steps.made_elsewhere(elsewhere)
        here = [x for x in labels if x not in elsewhere]
        assert len(here) == len(labels) - len(elsewhere)
        assert steps.weight_total == pytest.approx(sum(build.step_seconds(x) for x in here))
    finally:
        steps.close()
    # a step is weighed by its kind, never by a name in it
    assert build.step_seconds("deck battles: lowball") == build.step_seconds("deck A: lowball")
    assert build.step_seconds("deck value shootouts: what if") == build.step_seconds("deck A: what if")
    assert build.step_seconds("Shadows: value a") > build.step_seconds("deck A: what if") > \
        build.step_seconds("deck A: shootouts") > build.step_seconds("page") > build.step_seconds("Shadows: tests")


def test_reproduce_command_names_what_changes_the_figures():
    from oddsmith.report import build

    s = build.ReportSettings.from_options(output="x.pdf", seed=5, trials=3000, paper="letter")
    assert build.reproduce_command("full", s) == "oddsmith report --seed 5 --trials 3000 --paper letter"
    s = build.ReportSettings.from_options(output="x.pdf", seed=7)
    assert build.reproduce_command("deck", s, decks=["my deck.txt"], vs="outlaws", with_gang=True) == \
        "oddsmith report deck 'my deck.txt' --vs outlaws --with-gang --seed 7"
    assert build.reproduce_command("shadows", s, posse="unaligned") == "oddsmith report shadows unaligned --seed 7"
    doc = document.Document("t", [], seed=7, reproduce="oddsmith report --seed 7")
    assert "The same figures again: oddsmith report --seed 7" in doc.cover_page().blocks[0].lines


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_page_titles_stay_inside_the_margins(paper):
    """The longest titles the sample report prints (the value pages) run onto a second line, not off the page."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    title = "What each $ buys: The Silver Creek Regulators against The Order of the Silver Nail"
    page = document.Page(title=title, subtitle="as it is: P(win) 12.8 ± 1.49 % · " * 3,
                         blocks=[document.Notes(["a line"])])
    doc = document.Document("t", [page], seed=1)
    with style.report_style():
        fig = document.render_page(doc, page, 1, 1, paper)
        FigureCanvasAgg(fig).draw()
        width = fig.get_figwidth() * fig.dpi
        texts = [t for t in fig.texts if t.get_text()]
        assert any("Silver Creek" in t.get_text() for t in texts)
        for t in texts:
            box = t.get_window_extent()
            assert box.x0 >= document.MARGIN * fig.dpi - 1 and box.x1 <= width - document.MARGIN * fig.dpi + 1, \
                (t.get_text()[:40], box.x1 / fig.dpi)
        heading = next(t for t in texts if "Silver Creek" in t.get_text())
        subtitle = next(t for t in texts if t.get_text().startswith("as it is"))
        assert subtitle.get_window_extent().y1 <= heading.get_window_extent().y0 + 1  # no overlap
    lines, _ = document.fit_title(title, PAPER_TEXT_WIDTH[paper])
    assert len(lines) == 2 and " ".join(lines) == title


PAPER_TEXT_WIDTH = {p: w - 2 * document.MARGIN for p, (w, _) in document.PAPER.items()}


def test_heatmap_cells_are_one_colour_each_and_drawn_unsampled():
    """Each cell is one colour over exactly its own square (the image spans half a unit round each cell's
    centre), an empty cell is transparent, and a PDF holds the cells' own pixels, not a raster of the axes."""
    import io

    import numpy as np

    m = pd.DataFrame([[0.1, 0.5, np.nan], [0.9, 0.3, 0.7]], columns=["a", "b", "c"])
    k = charts.CELL_PIXELS
    with style.report_style():
        fig = Figure(figsize=(4, 2))
        ax = fig.add_subplot()
        charts.heatmap(ax, m)
        image = ax.images[0]
        assert tuple(image.get_extent()) == (-0.5, 2.5, 1.5, -0.5)
        pixels = np.asarray(image.get_array())
        assert pixels.shape == (2 * k, 3 * k, 4)
        blocks = pixels.reshape(2, k, 3, k, 4)
        assert (blocks == blocks[:, :1, :, :1]).all()
        cells = charts.cell_colours(ax)
        assert cells.shape == (2, 3, 4) and cells[0, 2, 3] == 0 and (cells[[0, 1, 1, 1], [0, 0, 1, 2], 3] == 1).all()
        out = io.BytesIO()
        fig.savefig(out, format="pdf")
    sizes = re.findall(rb"/Subtype /Image[^>]*?/Width (\d+)[^>]*?/Height (\d+)", out.getvalue(), re.S)
    assert sizes and set(sizes) == {(b"%d" % (3 * k), b"%d" % (2 * k))}  # the image and its soft mask (alpha)
    # the white lines between the cells: one collection, every column edge, then every row edge
    (lines,) = ax.collections
    segments = [tuple(map(tuple, seg.tolist())) for seg in lines.get_segments()]
    assert segments == [((x, -0.5), (x, 1.5)) for x in (-0.5, 0.5, 1.5, 2.5)] \
        + [((-0.5, y), (2.5, y)) for y in (-0.5, 0.5, 1.5)]
    assert lines.get_zorder() == 0.5 and (lines.get_colors() == [1, 1, 1, 1]).all()
    assert list(lines.get_linewidths()) == [0.6]
    assert (ax.get_xlim(), ax.get_ylim()) == ((-0.5, 2.5), (1.5, -0.5))


@pytest.mark.parametrize("which", ["x", "y"])
def test_category_labels_with_marks_are_where_matplotlibs_ticks_draw(which):
    """layout.edge_labels with ``marks`` (the bar charts' categories): the same tick marks (marker, size, width,
    colour, places) and the labels anchored where Matplotlib's tick labels are, with the axis label where
    Matplotlib sets it beyond them (within 0.2 pt: the PDF's font metrics), on a PDF page in the standard fonts."""
    import io

    import matplotlib as mpl
    import numpy as np
    from matplotlib.backends.backend_pdf import PdfPages

    labels = ["A", "2 Pair", "Str. Fl.", "10", "Joker"]

    def chart(ours: bool):
        fig = Figure(figsize=(4, 3))
        ax = fig.add_subplot(axes_class=layout.BarAxes)
        (ax.bar if which == "x" else ax.barh)(range(5), [3, 1, 4, 1, 5])
        if ours:
            layout.edge_labels(ax, which, labels, axis_label="hand rank", marks=True)
        else:
            (ax.set_xticks if which == "x" else ax.set_yticks)(range(5), labels)
            (ax.set_xlabel if which == "x" else ax.set_ylabel)("hand rank")
        out = io.BytesIO()
        with mpl.rc_context({"pdf.compression": 0}), PdfPages(out) as pdf:
            pdf.savefig(fig)
        # where the page sets the axis label: the text matrix or offset before it (points)
        placed = re.search(rb"([-\d. ]+) (?:Tm\n0 0 )?Td\n\(hand rank\) Tj", out.getvalue())
        return ax, [float(v) for v in placed.group(1).split()]

    with style.report_style(), style.pdf_core_fonts():
        (theirs, their_label), (ours, our_label) = chart(False), chart(True)
    assert np.abs(np.subtract(our_label, their_label)).max() <= 0.2
    axis = theirs.xaxis if which == "x" else theirs.yaxis
    ticks = axis.get_major_ticks()
    (marks,) = [a for a in ours.lines if a.get_marker() == ticks[0].tick1line.get_marker()]
    assert np.allclose(marks.get_transform().transform(marks.get_xydata()),
                       [t.tick1line.get_transform().transform(t.tick1line.get_xydata()[0]) for t in ticks])
    for prop in ("markersize", "markeredgewidth", "markeredgecolor", "zorder"):
        assert getattr(marks, f"get_{prop}")() == getattr(ticks[0].tick1line, f"get_{prop}")(), prop
    for line in (marks, ticks[0].tick1line):  # drawn unclipped, beyond the axes
        assert not line.get_clip_on() or (line.get_clip_box() is None and line.get_clip_path() is None)
    texts = layout.edge_label_texts(ours)
    assert [t.get_text() for t in texts] == labels
    for t, tick in zip(texts, ticks):
        assert np.allclose(t.get_transform().transform(t.get_position()),
                           tick.label1.get_transform().transform(tick.label1.get_position()))
        assert (t.get_ha(), t.get_va()) == (tick.label1.get_ha(), tick.label1.get_va())


def test_the_ink_of_many_cells_is_the_ink_of_each():
    """style.inks_on, a heatmap's cell texts at once: style.ink_on of each colour, on random colours and on both
    sides of the threshold."""
    import numpy as np

    rng = np.random.default_rng(8)
    colours = np.vstack([rng.random((500, 4)), np.full((1, 4), 0.5), [[0, 0, 0, 0], [1, 1, 1, 1]]])
    assert style.inks_on(colours) == [style.ink_on(c) for c in colours]
    assert set(style.inks_on(colours)) == {"black", "white"}


def test_shooting_heatmap_shades_each_column_on_its_own_range():
    """On the shooting sheet the colours tell rows apart in every column: in each column the best row for
    the shooter is the brightest colour and the worst the darkest (Jams is not bright everywhere, nor
    Shaken dark everywhere)."""
    panels, _ = shadows_sheets._shooting_panels(False)
    with style.report_style():
        fig = Figure(figsize=(7, 6), layout="constrained")
        charts.heatmap_grid(fig, panels, good=shadows_sheets.SHOOTER_GOOD, subject="the shooter")
        bright, dark = style.cmap()(1.0), style.cmap()(0.0)
        for column in ("Hit", "Shaken", "Downed", "Jams", "Saved"):
            cells = []
            for ax, (_, m) in zip(fig.axes, panels):
                j = list(m.columns).index(column)
                img = charts.cell_colours(ax)
                cells += [(v, tuple(img[i, j])) for i, v in enumerate(m[column].to_numpy(dtype=float))]
            low = min(cells)[1]
            high = max(cells)[1]
            more_is_better = shadows_sheets.SHOOTER_GOOD.get(column, charts.HIGH) == charts.HIGH
            assert high == pytest.approx(bright if more_is_better else dark), column
            assert low == pytest.approx(dark if more_is_better else bright), column
        assert "each column on its own range" in _colour_bars(fig)[0].label.replace("\n", " ")


def _whisker_half_lengths(ax) -> list[float]:
    """Half the length of every error bar drawn on ``ax`` (data units)."""
    from matplotlib.collections import LineCollection

    out = []
    for coll in ax.collections:
        if isinstance(coll, LineCollection):
            for seg in coll.get_segments():
                (x0, y0), (x1, y1) = seg[0], seg[-1]
                out.append(max(abs(x1 - x0), abs(y1 - y0)) / 2)
    return out


def test_every_chart_draws_whiskers_of_two_standard_errors():
    """One convention for whiskers (issue 16): ± charts.WHISKER_SE standard errors on every chart."""
    from oddsmith.report import full_shootout_page

    assert charts.WHISKER_SE == 2 and "± 2 standard errors" in charts.WHISKERS
    with style.report_style():
        value = pd.DataFrame({"model": ["a", "b"], "item": ["x", "y"], "kind": ["skill", "gear"],
                              "d_p_win_per_dollar": [0.01, 0.002], "d_p_win_stderr": [0.004, 0.002],
                              "cost": [2, 4]})
        fig = Figure(figsize=(6, 3), layout="constrained")
        battle_page.value_bars(fig, value)
        assert sorted(_whisker_half_lengths(fig.axes[0])) == pytest.approx([2 * 100 * 0.0005, 2 * 100 * 0.002])
        what_if = pd.DataFrame({"change": ["none", "+1 bullet: X"], "whose": ["", "A"],
                                "delta_p_a_wins": [0.0, 0.03], "delta_p_a_wins_stderr": [0.0, 0.005],
                                "delta_dudes_lost_a": [0.0, -0.1], "delta_dudes_lost_a_stderr": [0.0, 0.02]})
        fig = Figure(figsize=(6, 3), layout="constrained")
        full_shootout_page.what_if_bars(fig, what_if)
        assert _whisker_half_lengths(fig.axes[0]) == pytest.approx([2 * 100 * 0.005])
        assert _whisker_half_lengths(fig.axes[1]) == pytest.approx([2 * 0.02])
        scatter = pd.DataFrame({"deck": ["D"], "bonus": ["s1"], "x": [0.4], "y": [0.3], "se": [0.01]})
        fig = Figure(figsize=(6, 3), layout="constrained")
        charts.tradeoff_scatter(fig, scatter, x="x", y="y", deck="deck", bonus="bonus", yerr="se")
        assert _whisker_half_lengths(fig.axes[0]) == pytest.approx([2 * 100 * 0.01])


def test_every_page_with_whiskers_says_what_they_are():
    plan = SamplingPlan(seed=2, trials=300)
    pages = battle_page.battle_pages(plan)[1:2]  # a value page
    inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
    pages += [p for p in deck_report.deck_pages(inputs, plan) if "what is +1 worth" in p.title or "trade-off" in p.title]
    assert len(pages) == 4
    for page in pages:
        words = page.subtitle + " ".join(line for b in page.blocks if isinstance(b, document.Notes) for line in b.lines)
        assert "± 2 standard errors" in words.replace("Whiskers", "whiskers"), page.title


def test_a_negative_bullet_bar_is_explained_on_its_page():
    from oddsmith.report import full_shootout_page

    df = pd.DataFrame({"change": ["none", "+1 bullet: Philip Swinford", "+1 bullet: Tommy Harden",
                                  "+1 bullet: Rob Wilby", "stud->draw: Tommy Harden"],
                       "delta_p_a_wins": [0.0, -0.007, 0.15, -0.05, -0.15],
                       "delta_p_a_wins_stderr": [0.0, 0.007, 0.01, 0.005, 0.01]})
    note = full_shootout_page.negative_bullet_note(df)
    assert "Philip Swinford (-0.7 pp)" in note and "within its whiskers of zero" in note
    assert "Rob Wilby (-5.0 pp)" in note and "beyond its whiskers" in note
    assert "Tommy Harden" not in note  # a rise, and a stud->draw change, need no word
    assert full_shootout_page.negative_bullet_note(df[df["delta_p_a_wins"] >= 0]) is None


# ---------------------------------------------------------------------------- drawing on every core, the cache

def test_pages_drawn_in_processes_equal_pages_drawn_in_one(tmp_path, monkeypatch):
    """The same document drawn by one process and by three: the same pages, in order, each with the
    same content stream (up to the names of its resources and its glyph codes, numbered within each
    part), the bookmarks
    on the same pages, every object where the cross-reference table says."""
    import zlib

    from oddsmith.report import pdf_merge

    pages = [shadows_sheets.advance_page(), document.Page(title="Second", blocks=[document.Notes(["two"])]),
             document.Page(title="Third", section="S", blocks=[document.Notes(["three"])])]
    doc = document.Document("merge", document.in_part(pages, glossary.SHADOWS), seed=3, date="2026-01-01")
    files = {}
    for processes in ("1", "3"):
        monkeypatch.setenv("ODDSMITH_RENDER_PROCESSES", processes)
        monkeypatch.setattr(document, "MIN_PAGES_PER_PROCESS", 1)
        files[processes] = tmp_path / f"p{processes}.pdf"
        done = []
        document.write_document(doc, files[processes], on_page=lambda k, n: done.append(k))
        assert sorted(done) == list(range(1, len(doc.all_pages()) + 1))
    contents = {}
    for name, path in files.items():
        data = path.read_bytes()
        base = data[:data.index(b"%%EOF") + 5]  # the file as drawn, before the bookmarks' update
        objects, trailer = pdf_merge._read_objects(base)
        root = int(trailer["Root"].split()[0])
        pages_root = int(re.search(rb"/Pages (\d+)", objects[root].head).group(1))
        kids = pdf_merge._pages_of(objects, pages_root)
        streams = []
        for kid in kids:
            head = objects[kid].head
            assert b"/Parent %d 0 R" % pages_root in head
            content = int(re.search(rb"/Contents (\d+) 0 R", head).group(1))
            # resource names (/F1 font, /I2 image, /H1 hatch, /A3 state) and the glyph codes of the
            # font subsets are numbered within each part: every operator, position and path must match
            stream = re.sub(rb"/([FIHAS]|Hatch)\d+\b", rb"/\1#", zlib.decompress(objects[content].stream))
            streams.append(re.sub(rb"\((?:[^()\\]|\\.)*\)", b"(text)", stream, flags=re.S))
        contents[name] = streams
        assert [b.title for b in read_outline(data)][:1] == ["merge"]
    assert len(contents["1"]) == len(doc.all_pages()) and contents["1"] == contents["3"]
    assert read_outline(files["1"].read_bytes()) == read_outline(files["3"].read_bytes())


def test_merge_refuses_what_it_cannot_read(tmp_path):
    from oddsmith.report import pdf_merge
    from oddsmith.report.pdf_outline import PdfStructureError

    with pytest.raises(PdfStructureError):
        pdf_merge.merge([b"%PDF-1.4\nnot a pdf"], [(0, 0)], tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_cache_entries_are_checked_before_they_are_trusted(tmp_path, monkeypatch):
    from oddsmith import cache

    monkeypatch.setenv("ODDSMITH_CACHE_DIR", str(tmp_path / "c"))
    key = cache.key_digest("t", 1, "seed 5")
    assert key != cache.key_digest("t", 1, "seed 6")
    # other code (a rebuilt kernel, an edited module in a development install) never meets this entry
    fingerprint = cache.code_fingerprint()
    assert len(fingerprint) == 64 and cache.code_fingerprint() == fingerprint
    with monkeypatch.context() as patch:
        patch.setattr(cache, "code_fingerprint", lambda: "0" * 64)
        assert cache.key_digest("t", 1, "seed 5") != key
    assert cache.key_digest("t", 1, "seed 5") == key
    assert cache.load(key) is None
    assert cache.store(key, b"payload")
    assert cache.load(key) == b"payload"
    path = tmp_path / "c" / (key.hex() + cache.SUFFIX)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    # corrupted: one byte changed, or cut short: ignored and removed
    for spoil in (lambda b: b[:-1] + bytes([b[-1] ^ 1]), lambda b: b[:40]):
        cache.store(key, b"payload")
        path.write_bytes(spoil(path.read_bytes()))
        assert cache.load(key) is None and not path.exists()
    # foreign: another key's entry under this name, or one made with another folder's secret
    other = cache.key_digest("t", 2)
    cache.store(other, b"other")
    (tmp_path / "c" / (other.hex() + cache.SUFFIX)).rename(path)
    assert cache.load(key) is None
    cache.store(key, b"payload")
    (tmp_path / "c" / cache.SECRET_NAME).write_bytes(b"x" * 32)
    assert cache.load(key) is None
    # computed once, then served; use=False neither reads nor writes
    calls = []
    assert cache.cached(other, lambda: calls.append(1) or b"v") == (b"v", False)
    assert cache.cached(other, lambda: calls.append(1) or b"v") == (b"v", True)
    assert cache.cached(other, lambda: calls.append(1) or b"w", use=False) == (b"w", False)
    assert len(calls) == 2 and cache.load(other) == b"v"


def test_cache_keeps_the_most_recently_used_within_its_size(tmp_path, monkeypatch):
    import os
    import time

    from oddsmith import cache

    monkeypatch.setenv("ODDSMITH_CACHE_DIR", str(tmp_path))
    keys = [cache.key_digest("size", i) for i in range(4)]
    for i, k in enumerate(keys):
        cache.store(k, bytes(1000))
        os.utime(tmp_path / (k.hex() + cache.SUFFIX), (time.time() - 100 + i, time.time() - 100 + i))
    cache.load(keys[0])  # used now: kept
    cache.trim(max_bytes=2 * 1200)
    assert [cache.load(k) is not None for k in keys] == [True, False, False, True]


def test_second_identical_report_comes_from_the_cache(tmp_path, monkeypatch, capsys):
    """Same inputs, seed, trials, paper and format: the same bytes without building a page; --no-cache
    (which hashes no key and stores nothing) and a damaged entry build afresh; another seed is another entry."""
    from oddsmith.report import build

    monkeypatch.setenv("ODDSMITH_CACHE_DIR", str(tmp_path / "cache"))
    built = []

    def pages(posse=None, *, steps=None):
        built.append(1)
        return [shadows_sheets.advance_page()]

    monkeypatch.setattr(shadows_sheets, "shadows_pages", pages)
    monkeypatch.setattr(battle_page, "battle_builders", lambda plan, workers=1: [])
    out = tmp_path / "s.pdf"
    args = ["report", "shadows", "--seed", "9", "-o", str(out)]
    assert main(args) == 0
    first = out.read_bytes()
    out.write_text("old")
    assert main(args) == 0 and out.read_bytes() == first and len(built) == 1
    keyed = []
    monkeypatch.setattr(build, "_cache_key", lambda *a, _key=build._cache_key: keyed.append(1) or _key(*a))
    entries = sorted((tmp_path / "cache").iterdir())
    assert main(args + ["--no-cache"]) == 0 and len(built) == 2
    assert not keyed and sorted((tmp_path / "cache").iterdir()) == entries  # no key hashed, nothing stored
    for entry in (tmp_path / "cache").glob("*" + build.cache.SUFFIX):
        entry.write_bytes(entry.read_bytes()[:-10])
    assert main(args) == 0 and len(built) == 3 and pdf_pages(out) == pdf_pages(tmp_path / "s.pdf")
    assert main(["report", "shadows", "--seed", "10", "-o", str(out)]) == 0 and len(built) == 4
    assert main(args) == 0 and len(built) == 4  # seed 9 again: served


def test_report_trials_from_the_environment(monkeypatch):
    monkeypatch.setenv(build.TRIALS_ENV, "1500")
    assert build.default_trials() == 1500
    assert build.ReportSettings.from_options(output="r.pdf", seed=1).trials == 1500
    assert build.ReportSettings.from_options(output="r.pdf", seed=1, trials=700).trials == 700
    for bad in ("0", "-3", "many", ""):
        monkeypatch.setenv(build.TRIALS_ENV, bad)
        assert build.default_trials() == build.REPORT_TRIALS


def test_pages_made_in_the_second_process_equal_pages_made_here():
    """The what-if pages and the last battle page the forked worker makes hold the same tables, titles and
    sections (the decks' labels are keyed by object ids: a pickled copy would lose them), and the deck
    report with them made there has the same pages in the same order as made here."""
    plan = SamplingPlan(seed=5, trials=200)
    inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
    started = build._start_second(plan, 1, inputs)
    if started is None:
        pytest.skip("one core or no fork: everything is made in one process")
    try:
        made, value = build._wait(started.result)  # this process claimed none: the worker made every task
    finally:
        started.stop()
    assert sorted(made) == list(range(len(started.tasks)))
    of = {kind: [made[i] for i, task in enumerate(started.tasks) if task[0] == kind] for kind in ("what-if", "matchup")}
    what_ifs = of["what-if"]
    fought = battle_page.battle_pages(plan)
    here = deck_report.what_if_pages(inputs, plan) + [fought[0], fought[-1]]
    there = what_ifs + [battle_page.matchup_page(plan, figures=of["matchup"]), value]
    assert len(here) == len(there) == 4

    def view(page):
        return page.title, page.subtitle, page.section, [(t, f.to_dict("list")) for t, f, _ in page.tables()]

    assert [view(p) for p in here] == [view(p) for p in there]
    made_here = deck_report.deck_pages(inputs, plan)
    with_there = deck_report.deck_pages(inputs, plan, what_ifs=lambda: what_ifs)
    assert [view(p) for p in made_here] == [view(p) for p in with_there]


def test_a_report_runs_its_chunks_on_the_threads_that_build_its_pages(tmp_path, monkeypatch):
    """Every simulation of a report runs its chunks on the thread that builds the page (a thread per run idled
    a core: docs/speed.md, 'Reports'), in this process and in the second one: no chunk thread starts."""
    from oddsmith import sampling

    def no_thread(*args, **kwargs):
        raise AssertionError("a simulation of the report started chunk threads")

    ran = []
    fold_here = sampling._fold_here
    monkeypatch.setattr(sampling, "_fold_here", lambda *a: ran.append(a[-1]) or fold_here(*a))
    monkeypatch.setattr(sampling._Chunks, "__init__", no_thread)
    monkeypatch.setattr(document, "write_document", lambda doc, path, **kw: [Path(path)])
    settings = build.ReportSettings.from_options(output=tmp_path / "r.pdf", seed=5, trials=200, cache=False)
    build.make_report("deck", settings, decks=["law-dogs", "outlaws"])
    assert {"shootout hands", "whole shootouts"} <= set(ran)
    plan = SamplingPlan(seed=5, trials=200)
    started = build._start_second(plan, 1, deck_report.load_decks(["law-dogs", "outlaws"], None))
    if started is None:
        pytest.skip("one core or no fork: everything is made in one process")
    try:
        made, value = build._wait(started.result)  # its chunks on threads: the AssertionError, raised here
    finally:
        started.stop()
    assert len(made) == len(started.tasks) and value.title
    with pytest.raises(AssertionError, match="chunk threads"):
        sampling.run_chunks(lambda gen, n: n, plan)


def test_a_report_holds_its_strings_in_python_objects(tmp_path, monkeypatch):
    """A report's frames keep their strings in Python objects, not Arrow arrays (pandas 3's choice where pyarrow is
    installed; docs/speed.md, 'Reports'), in its pages and its tables, and pandas' option is as it was after."""
    before = pd.get_option("mode.string_storage")
    seen = []

    def write(doc, path, **kw):
        frames = [b.frame for p in doc.all_pages() for b in p.blocks if isinstance(b, document.Table)]
        seen.append((pd.get_option("mode.string_storage"), pd.Series(["x"]).array.__class__.__name__,
                     {f[c].array.__class__.__name__ for f in frames for c in f.columns if f[c].dtype == object
                      or pd.api.types.is_string_dtype(f[c].dtype)}))
        return [Path(path)]

    monkeypatch.setattr(document, "write_document", write)
    settings = build.ReportSettings.from_options(output=tmp_path / "r.pdf", seed=5, trials=200, cache=False)
    build.make_report("deck", settings, decks=["law-dogs"])
    ((storage, made, held),) = seen
    assert storage == "python"
    assert held and not any("Arrow" in name for name in held | {made}), (made, held)  # pandas 2: object arrays
    assert pd.get_option("mode.string_storage") == before


def test_pages_are_built_without_matplotlib():
    """A sample report forks its second process before Matplotlib is loaded (about half a second of imports it would
    otherwise wait for, docs/speed.md 'Reports'): importing the report's modules, and building what the second
    process builds (the last battle page, the what-if pages, the matchups) and the Shadows sheets, load none of it;
    drawing loads it."""
    import subprocess
    import sys

    script = """
import sys
from oddsmith.report import build, battle_page, deck_report, shadows_sheets
from oddsmith.sampling import SamplingPlan
loaded = lambda: sorted(m for m in sys.modules if m.split(".")[0] == "matplotlib")
print("imports", loaded())
plan = SamplingPlan(seed=5, trials=200)
inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
battle_page.battle_builders(plan, 1)[-1][1]()
made = [build._run_task(task, plan, 1, inputs) for task in build._shared_tasks(inputs)]
assert any(m is not None for m in made)
sheets = shadows_sheets.shadows_pages(None)
print("pages", loaded())
from oddsmith.report import document
document.chart_figure(sheets[0].charts()[0])
print("drawn", "matplotlib.figure" in loaded())
"""
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.splitlines() == ["imports []", "pages []", "drawn True"]


def _inner_bar() -> bool:
    """In a worker: a simulation's own progress bar, as the second process's battles make."""
    from oddsmith.output import Progress

    with Progress(10, "inner", delay=0.0) as bar:
        bar.advance(5)
    return True


def test_a_forked_worker_never_draws_a_progress_bar(capfd, monkeypatch):
    """A worker forked while the report's bar is open (the second process, the drawing processes) draws nothing:
    its simulations' bars redrew its stale copy of the parent's bar ("report [ ... 0.0%"), alternating on the
    terminal with the parent's own."""
    import multiprocessing

    from oddsmith.output import Progress
    from oddsmith.report import parallel

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork: a spawned worker starts with no bar open")
    monkeypatch.setenv("ODDSMITH_PROGRESS", "1")
    with Progress(10, "outer", delay=0.0):
        with multiprocessing.get_context("fork").Pool(1, initializer=parallel._start_worker,
                                                      initargs=(None,)) as pool:
            assert pool.apply(_inner_bar)
        err = capfd.readouterr().err
    assert "outer [" not in err and "inner [" not in err


def test_the_pages_are_made_without_the_pdf_backend():
    """Every module that makes a report's pages imports no PDF backend: the report imports it only to draw (the
    warm-up, the drawing), so its second process is forked 0.3-0.4 s sooner, the second core idle meanwhile."""
    import subprocess
    import sys

    code = ("import sys; from oddsmith.report import build, battle_page, deck_report, shadows_sheets, tune_page; "
            "print(sorted(m for m in sys.modules if m.startswith('matplotlib.backends.backend_')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout


def test_work_shared_between_the_two_processes_is_each_made_once_in_order():
    """This process takes the shared tasks the second has not claimed (it makes the value page first): every
    deck's what-if page and every matchup once, by one of the two, in order, the same as made in one process."""
    plan = SamplingPlan(seed=5, trials=200)
    inputs = deck_report.load_decks(["law-dogs", "outlaws", "anarchists"], None)
    started = build._start_second(plan, 1, inputs)
    if started is None:
        pytest.skip("one core or no fork: everything is made in one process")
    try:
        what_ifs, matchups = started.what_ifs(), started.matchup_page()
    finally:
        started.stop()
    assert started.claims.value >= len(started.tasks) == 3 + len(battle_page.P.sample_posse_names())

    def view(page):
        return page.title, page.subtitle, [(t, f.to_dict("list")) for t, f, _ in page.tables()]

    assert [view(p) for p in what_ifs] == [view(p) for p in deck_report.what_if_pages(inputs, plan)]
    assert view(matchups) == view(battle_page.matchup_page(plan))


def test_the_matchups_begun_on_the_head_start_leave_the_shared_work(monkeypatch):
    """The battles the head start began are not shared; no thread runs when the second process forks; the matchup
    page holds the figures made in one process."""
    import threading

    from oddsmith.report import head_start

    plan = SamplingPlan(seed=5, trials=200)
    inputs = deck_report.load_decks(["law-dogs", "outlaws"], None)
    if not build._can_share():
        pytest.skip("one core or no fork: everything is made in one process")
    monkeypatch.setattr(head_start, "BLOCK_GAMES", 16)
    parked, go_on, blocks = threading.Event(), threading.Event(), []
    play_block = head_start._Battle.play_block

    def third_battle_waits(self, games):  # the fork comes while the thread is in its third battle
        blocks.append(self.name)
        if len(set(blocks)) == 3 and not go_on.is_set():
            parked.set()
            go_on.wait()
        return play_block(self, games)

    monkeypatch.setattr(head_start._Battle, "play_block", third_battle_waits)
    names = battle_page.P.sample_posse_names()
    head = head_start.start(battle_page.BASE_SAMPLE, names, battle_page.OPTIONS, battle_page.matchup_plan(plan))
    assert parked.wait(60)
    go_on.set()
    threads_at_fork = []
    shared = build._shared_tasks
    monkeypatch.setattr(build, "_shared_tasks", lambda *a: threads_at_fork.append(threading.active_count())
                        or shared(*a))
    started = build._start_second(plan, 1, inputs, head)
    try:
        matchups = started.matchup_page()
    finally:
        started.stop()
    begun = head.begun()
    assert threads_at_fork == [1] and 3 <= len(begun) < len(names)
    assert [t[1] for t in started.tasks if t[0] == "matchup"] == [n for n in names if n not in begun]

    def view(page):
        return page.title, page.subtitle, [(t, f.to_dict("list")) for t, f, _ in page.tables()]

    assert view(matchups) == view(battle_page.matchup_page(plan))


def test_a_sample_report_begins_its_matchups_before_pandas_loads(tmp_path):
    """The head start is begun before the report loads pandas (which takes about 0.2 s), and stopped before the
    second process forks."""
    import subprocess
    import sys

    code = f"""
import os, sys, threading
os.environ["ODDSMITH_REPORT_TRIALS"] = "200"
from oddsmith.report import build, head_start, document
start, seen = head_start.start, []
def watched(*a, **k):
    seen.append(("begun", "pandas" in sys.modules))
    return start(*a, **k)
head_start.start = watched
second = build._start_second
def fork(*a, **k):
    out = second(*a, **k)
    seen.append(("forked", [t.name for t in threading.enumerate() if t.name == "oddsmith-head-start"]))
    return out
build._start_second = fork
document.write_document = lambda doc, path, **kw: [path]
build.make_report("full", build.ReportSettings.from_options(output={str(tmp_path / "r.pdf")!r}, cache=False))
print(seen)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    if not build._can_share():
        assert out.stdout.strip() == "[]"
    else:
        assert out.stdout.strip() == "[('begun', False), ('forked', [])]"


def test_bar_axes_take_the_data_limits_matplotlib_takes():
    """layout.BarAxes works out a bar's data limits from the unit rectangle's points, once, instead of solving the
    Bezier segments of every bar: the same limits (and smallest positive values) to the last bit as Matplotlib's own
    Axes, for bars and horizontal bars of every sign and size, zero-sized ones, bars on a log scale, a rotated
    Rectangle and a patch of another shape (both left to Matplotlib)."""
    import numpy as np
    from matplotlib.axes import Axes
    from matplotlib.patches import Ellipse, Rectangle

    rng = np.random.default_rng(3)
    for case in range(40):
        n = int(rng.integers(1, 30))
        x = rng.normal(0, 10 ** rng.uniform(-3, 3), n)
        size = rng.normal(0, 10 ** rng.uniform(-6, 4), n) * (rng.random(n) > 0.15)  # some zero-sized
        base = rng.normal(0, 5, n)
        thickness, log = rng.uniform(0.1, 0.9), case % 5 == 4
        if log:
            size, base = np.abs(size) + 1e-9, np.abs(base) + 1.0
        limits = []
        for cls in (Axes, layout.BarAxes):
            ax = Figure().add_subplot(axes_class=cls)
            if log:
                ax.set_xscale("log") if case % 2 else ax.set_yscale("log")
            if case % 2:
                ax.barh(x, size, left=base, height=thickness)
            else:
                ax.bar(x, size, bottom=base, width=thickness)
            ax.add_patch(Rectangle((1.5, -2.25), 0.75, 3.1, angle=30.0))
            ax.add_patch(Rectangle((5e3, 7e3), 0.0, 0.0))  # no width, no height: not counted
            ax.add_patch(Ellipse((0.3, 0.7), 2.5, 1.25))
            limits.append((ax.dataLim.get_points().tolist(), ax.dataLim.minpos.tolist()))
        assert limits[0] == limits[1], case
    ax = Figure().add_subplot(axes_class=layout.BarAxes)
    assert isinstance(ax, layout.BarAxes) and ax.name == "rectilinear"


def _axes_of_every_kind(axes_class) -> list:
    """Figures drawn on Axes of ``axes_class``: every way the report (and a user of the classes) ticks an axis."""
    import numpy as np

    figs = []
    kw = {"axes_class": axes_class}
    fig = Figure(figsize=(4, 3))  # numbers, a grid, labels, a legend, a zero line
    ax = fig.add_subplot(**kw)
    ax.plot([0, 1, 2], [3, -1, 2], label="a line")
    ax.axhline(0, color="black")
    ax.grid(True)
    ax.set(xlabel="x", ylabel="y", title="numbers")
    ax.legend()
    figs.append(fig)
    fig = Figure(figsize=(4, 3))  # categories, rotated and resized labels, ticks inward on every side
    ax = fig.add_subplot(**kw)
    ax.bar(["one", "two", "three"], [1, 3, 2])
    ax.tick_params(axis="x", labelrotation=45, labelsize=6, direction="in", top=True, length=5)
    ax.tick_params(axis="y", right=True, labelright=True, colors="tab:red")
    assert ax.xaxis.get_ticks_position() in ("default", "unknown", "bottom", "top")
    figs.append(fig)
    fig = Figure(figsize=(5, 3))  # side by side, sharing y (the inner labels hidden), labels set by hand
    axes = fig.subplots(1, 2, sharey=True, subplot_kw=kw)
    for a, sign in zip(axes, (1, -1)):
        a.barh(np.arange(4), sign * np.arange(1, 5))
        a.axvline(0, color="black")
        a.grid(axis="y", visible=False)
    layout.edge_labels(axes[0], "y", ["a", "bb", "ccc", "dddd"], size=6.5)
    axes[0].invert_yaxis()
    figs.append(fig)
    fig = Figure(figsize=(4, 3))  # no ticks at all (a heatmap's cells, a table, notes), and a colour bar axes
    ax, cax = fig.subplots(1, 2, subplot_kw=kw, width_ratios=[5, 1])
    image = ax.imshow(np.arange(12.0).reshape(3, 4))
    ax.set_xticks([])
    ax.set_yticks([])
    fig.colorbar(image, cax=cax)
    off = fig.add_axes((0.1, 0.05, 0.3, 0.1), **kw)
    off.axis("off")
    off.text(0, 0, "notes")
    figs.append(fig)
    fig = Figure(figsize=(4, 3))  # minor ticks, a log scale, ticks on top, another tick length
    ax = fig.add_subplot(**kw)
    ax.semilogy([1, 10, 100], [1, 50, 1000])
    ax.minorticks_on()
    ax.xaxis.tick_top()
    ax.tick_params(which="minor", length=2, width=0.4)
    ax.grid(True, which="both", linewidth=0.3)
    figs.append(fig)
    return figs


@pytest.mark.parametrize("core_fonts", [False, True])
def test_report_axes_draw_what_matplotlib_axes_draw(core_fonts):
    """layout.ReportAxes make a tick only when one is shown or asked for (Matplotlib makes a first tick for both
    axes, major and minor, as an Axes is made, and the spines' places with it): every kind of axes draws the same,
    byte for byte in PDF (the report's style and the standard fonts too) and SVG, pixel for pixel in PNG, and the
    axes that show no tick made none."""
    import contextlib
    import io

    import matplotlib as mpl

    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def drawn(axes_class) -> list:
        out = []
        with style.report_style(), (style.pdf_core_fonts() if core_fonts else contextlib.nullcontext()), \
                mpl.rc_context({"svg.hashsalt": "oddsmith"}):
            for fig in _axes_of_every_kind(axes_class):
                pdf, svg = io.BytesIO(), io.BytesIO()
                fig.savefig(pdf, format="pdf", metadata={"CreationDate": None})
                fig.savefig(svg, format="svg", metadata={"Date": None})
                canvas = FigureCanvasAgg(fig)
                canvas.draw()
                out.append((pdf.getvalue(), svg.getvalue(), bytes(canvas.buffer_rgba())))
        return out

    plain, report = drawn(Axes), drawn(layout.ReportAxes)
    for k, (a, b) in enumerate(zip(plain, report)):
        for what, x, y in zip(("PDF", "SVG", "PNG"), a, b):
            assert x == y, f"figure {k}: {what}"
    fig = _axes_of_every_kind(layout.ReportAxes)[3]
    fig.savefig(io.BytesIO(), format="pdf")
    ax, off = fig.axes[0], fig.axes[2]
    assert [len(a.xaxis.majorTicks) + len(a.xaxis.minorTicks) + len(a.yaxis.majorTicks) + len(a.yaxis.minorTicks)
            for a in (ax, off)] == [0, 0]
    plain_ax = _axes_of_every_kind(Axes)[3].axes[0]
    assert len(plain_ax.xaxis.majorTicks) == len(plain_ax.yaxis.minorTicks) == 1  # Matplotlib's first ticks


def test_report_axes_make_their_patch_transform_once():
    """layout._AxesPatch: the transform every clipped artist asks of the Axes' patch is made once while the patch and
    the Axes' transform stay as they are, is Matplotlib's (the same matrix), and is made again when either changes."""
    import numpy as np
    from matplotlib.patches import Rectangle
    from matplotlib.transforms import IdentityTransform

    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot(axes_class=layout.ReportAxes)
    patch = ax.patch
    assert isinstance(patch, layout._AxesPatch) and patch.get_transform() is patch.get_transform()
    twin = Rectangle((0.0, 0.0), 1.0, 1.0, transform=ax.transAxes)
    assert np.array_equal(patch.get_transform().get_matrix(), twin.get_transform().get_matrix())
    line = ax.plot([0, 1], [0, 1])[0]
    assert line.get_clip_box()._transform is patch.get_transform()  # clipped through the shared transform
    before = patch.get_transform()
    ax.set_position((0.2, 0.2, 0.5, 0.5))  # the Axes move: the same transform follows them
    assert patch.get_transform() is before
    assert np.array_equal(before.get_matrix(), Rectangle((0, 0), 1, 1, transform=ax.transAxes).get_transform()
                          .get_matrix())
    patch.set_bounds(0.1, 0.1, 0.8, 0.8)
    moved = patch.get_transform()
    assert moved is not before and np.array_equal(
        moved.get_matrix(), Rectangle((0.1, 0.1), 0.8, 0.8, transform=ax.transAxes).get_transform().get_matrix())
    patch.set_transform(IdentityTransform())
    assert patch.get_transform() is not moved
    assert np.array_equal(patch.get_transform().get_matrix(), Rectangle((0.1, 0.1), 0.8, 0.8).get_transform()
                          .get_matrix())


@pytest.mark.parametrize("fmt, core_fonts", [("pdf", True), ("pdf", False), ("png", False)])
def test_cell_texts_laid_out_once_are_what_each_text_draws(monkeypatch, fmt, core_fonts):
    """A PDF or PNG page draws a CellTexts with each distinct string and weight laid out once: the page is the
    same, byte for byte, as with every cell drawn by Text.draw (repeats in both weights, colours, two lines, an
    empty cell, a lone $), in the standard fonts and in the embedded one (PDF), and pixel for pixel (PNG)."""
    import contextlib
    import io

    from matplotlib.backends.backend_agg import FigureCanvasAgg

    def page() -> bytes:
        fig = Figure(figsize=(3, 2))
        ax = fig.add_subplot()
        layout.cell_texts(ax, [0, 1, 2, 3, 4, 5, 6], [0, 0, 1, 1, 2, 2, 0],
                          ["12.5", "12.5", "$3", "two\nlines", "", "12.5", "12.5"],
                          colors=["black", "white", "black", "#336699", "black", "black", "white"],
                          weights=["bold", "normal", "normal", "bold", "normal", "bold", "normal"],
                          ha="center", va="center", fontsize=7)
        if fmt == "png":
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
            return bytes(canvas.buffer_rgba())
        out = io.BytesIO()
        fig.savefig(out, format="pdf", metadata={"CreationDate": None})
        return out.getvalue()

    calls = []
    laid_out_draw = layout.CellTexts._draw_laid_out
    monkeypatch.setattr(layout.CellTexts, "_draw_laid_out", lambda self, r: calls.append(1) or laid_out_draw(self, r))
    with style.report_style(), (style.pdf_core_fonts() if core_fonts else contextlib.nullcontext()):
        laid_out = page()
        assert calls == [1]  # the page took the laid-out path
        monkeypatch.setattr(layout, "_lays_out_alone", lambda renderer: False)
        each_text = page()
        assert calls == [1]
    assert laid_out == each_text
    assert len(laid_out) > 1000
    if fmt == "png":  # the page has the cells' ink on it
        assert len(set(laid_out[i:i + 4] for i in range(0, len(laid_out), 4))) > 10


def test_a_table_prints_every_cell_once_in_its_cell():
    """Tables are drawn as one collection of cells and a text centred in each (not matplotlib's ax.table):
    every header and body string once, bold header, inside the axes, one rectangle per cell."""
    frame = pd.DataFrame({"Rank": ["Novice (D6)", "Hero (D10)"], "P (%)": ["16.7", "100.0"], "±": ["0.2", "—"]})
    fig = Figure(figsize=(6, 2))
    with style.report_style():
        document._draw_table(fig, document.Table(frame, title="A table"))
        fig.canvas.draw()
    (ax,) = fig.axes
    assert not ax.texts and not fig.texts  # held by the figure, placed in the axes (layout.cell_texts)
    (held,) = fig.artists
    texts = [(t.get_text(), t.get_fontweight()) for t in held.each_text()]
    assert texts == [("Rank", "bold"), ("P (%)", "bold"), ("±", "bold"), ("Novice (D6)", "normal"),
                     ("16.7", "normal"), ("0.2", "normal"), ("Hero (D10)", "normal"), ("100.0", "normal"),
                     ("—", "normal")]
    (cells,) = ax.collections
    assert len(cells.get_paths()) == 9
    box = ax.get_window_extent()
    for t, path in zip(held.each_text(), cells.get_paths()):  # each text inside its own cell
        inside = t.get_window_extent()
        cell = path.get_extents().transformed(ax.transAxes)
        assert box.x0 <= inside.x0 and inside.x1 <= box.x1 and box.y0 <= inside.y0 and inside.y1 <= box.y1
        assert cell.x0 <= inside.x0 and inside.x1 <= cell.x1 and cell.y0 <= inside.y0 and inside.y1 <= cell.y1, \
            t.get_text()


# ---------------------------------------------------------------------------- page geometry

def _layout_test_pages() -> list[document.Page]:
    """Pages with every kind of block and decoration: the exact Shadows sheets (grids of heatmaps, rotated
    column labels, colour bars beside long and short panels), and a page of the other charts (a legend
    below, a legend to the right, rotated and long tick labels, a row of a table beside notes)."""
    pages = shadows_sheets.shadows_pages(None)
    deck = decks_mod.load_sample("law-dogs")
    parts = pd.DataFrame({"bar": ["vs a deck with a very long name indeed", "vs Outlaws"] * 3,
                          "part": ["wins", "wins", "ties", "ties", "loses", "loses"],
                          "p": [0.5, 0.4, 0.1, 0.2, 0.4, 0.4]})
    dist = pd.DataFrame({"x": [f"category number {i}" for i in range(9)], "p": [0.1] * 9})
    scatter = pd.DataFrame([{"deck": d, "bonus": f"stud {s}", "x": 0.3 + 0.1 * k, "y": 0.2 * s + 0.1, "se": 0.01}
                            for k, d in enumerate(["Law Dogs", "Outlaws", "Fearmongers"]) for s in range(4)])
    wide = pd.DataFrame([[0.1, 0.5, 0.9, 0.3]] * 3, columns=["a long column name", "Shaken", "Downed", "Jams"],
                        index=["first row label", "second", "third"])
    table = document.Table(pd.DataFrame({"deck": ["Law Dogs", "Outlaws"], "P (%)": ["51.0", "49.0"]}),
                           title="A table beside notes")
    pages.append(document.Page(title="Every other chart", subtitle="a layout test", blocks=[
        document.Chart(lambda f: charts.stacked_bars(f, parts, bar="bar", part="part", p="p", title="who wins"),
                       title="stacked", height=1.6),
        document.Chart(lambda f: charts.distribution_bars(f, dist, x="x", p="p", label_rotation=45,
                                                          title="rotated labels", xlabel="category"),
                       title="bars", height=2.2),
        document.Chart(lambda f: charts.tradeoff_scatter(f, scatter, x="x", y="y", deck="deck", bonus="bonus",
                                                         yerr="se", title="trade-off", xlabel="x", ylabel="y"),
                       title="scatter", height=2.4),
        document.Row([document.Chart(lambda f: charts.heatmap_grid(f, [("one panel", wide)], xlabel="outcome",
                                                                   subject="the row"), title="heatmap"),
                      table, document.Notes(["A note that runs on for a while " * 3])], widths=[2, 1, 1], height=1.8),
        document.Chart(lambda f: charts.value_suit_histogram(f, deck_report._counts_long(deck), jokers=deck.jokers,
                                                             title="cards"), title="cards", height=1.6),
    ]))
    return pages


def _axes_texts(ax) -> list:
    texts = [ax.title, ax._left_title, ax._right_title, ax.xaxis.label, ax.yaxis.label, *ax.texts,
             *layout.edge_label_texts(ax)]  # a heatmap's row and column names, drawn as its tick labels
    if ax.axison:  # the tick labels drawn: those of ticks inside the view
        for axis in (ax.xaxis, ax.yaxis):
            lo, hi = sorted(axis.get_view_interval())
            slack = 1e-9 * max(1.0, hi - lo)
            texts += [label for tick in axis.get_major_ticks() if tick.get_loc() is not None
                      and lo - slack <= tick.get_loc() <= hi + slack for label in (tick.label1, tick.label2)]
    if ax.get_legend() is not None:
        texts += ax.get_legend().get_texts()
    return [t for t in texts if t.get_visible() and t.get_text()]


@pytest.mark.parametrize("paper, fonts", [("a4", "truetype"), ("letter", "truetype"), ("a4", "pdf standard")])
def test_pages_use_no_layout_engine_and_no_text_leaves_its_place(paper, fonts):
    """Every page is placed by hand (oddsmith.report.layout, no layout engine), and as drawn no text of a
    block leaves the area between the header and the footer rules and inside the margins, and none of an
    axes (tick labels, titles, axis labels, its texts) or of a figure legend lies over another axes. Both
    in the style's TrueType font (PNG, SVG) and in the standard fonts of a PDF report, measured by the
    PDF backend that draws them."""
    import contextlib

    from matplotlib.axes import Axes
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.backends.backend_pdf import FigureCanvasPdf
    from matplotlib.legend import Legend

    pages = _layout_test_pages()
    if paper == "letter" or fonts != "truetype":  # the narrower paper, other fonts: the most crowded pages
        pages = pages[1:3] + pages[-1:]
    doc = document.Document("t", pages, seed=1)
    every = doc.all_pages()
    core = style.pdf_core_fonts() if fonts != "truetype" else contextlib.nullcontext()
    with style.report_style(), core:
        for number, page in enumerate(every, start=1):
            fig = document.render_page(doc, page, number, len(every), paper)
            assert fig.get_layout_engine() is None
            for sub in fig.subfigs:
                assert sub.get_layout_engine() is None
            if fonts == "truetype":
                renderer = FigureCanvasAgg(fig).get_renderer()
            else:
                assert document.core_fonts_can_draw(fig), page.title
                fig.set_dpi(72)  # a PDF's points
                FigureCanvasPdf(fig)
                renderer = fig._get_renderer()
            fig.draw(renderer)
            dpi = fig.dpi
            w, h = fig.get_figwidth() * dpi, fig.get_figheight() * dpi
            left, right = document.MARGIN * dpi - 1, w - document.MARGIN * dpi + 1
            bottom = (document.MARGIN + document.FOOTER - 0.08) * dpi - 1  # the footer's rule
            top = h - (document.MARGIN + document.HEADER - 0.06) * dpi + 1  # the header's rule, at its highest
            axes = fig.findobj(lambda a: isinstance(a, Axes))
            for ax in axes:
                others = [o.get_window_extent(renderer) for o in axes if o is not ax and o.get_visible()]
                for t in _axes_texts(ax):
                    box = t.get_window_extent(renderer)
                    where = (page.title, t.get_text()[:30])
                    assert left <= box.x0 and box.x1 <= right and bottom <= box.y0 and box.y1 <= top, where
                    assert not any(box.overlaps(o) and box.intersection(box, o).width > 1
                                   and box.intersection(box, o).height > 1 for o in others), where
            for leg in fig.findobj(lambda a: isinstance(a, Legend) and a.parent is not None
                                   and not isinstance(a.parent, Axes)):
                box = leg.get_window_extent(renderer)
                assert left <= box.x0 and box.x1 <= right and bottom <= box.y0 and box.y1 <= top, page.title
                for ax in axes:
                    o = ax.get_window_extent(renderer)
                    assert not (box.overlaps(o) and box.intersection(box, o).height > 1
                                and box.intersection(box, o).width > 1), (page.title, "legend")


def test_fewer_collections_restores_the_collector():
    """A report runs the garbage collector seldom and over new objects only (build.fewer_collections), and gives
    back the settings it found, whatever happens inside."""
    import gc

    gc.unfreeze()  # as in a program that never froze anything (the test session freezes: conftest.py)
    before = gc.get_threshold()
    try:
        with pytest.raises(RuntimeError):
            with build.fewer_collections():
                assert gc.get_threshold()[0] == build.REPORT_GC_THRESHOLD and gc.get_freeze_count() > 0
                raise RuntimeError("inside")
        assert gc.get_threshold() == before and gc.get_freeze_count() == 0
        gc.freeze()  # a caller that froze objects keeps them frozen, and nothing more is frozen
        frozen = gc.get_freeze_count()
        # a frozen object may still be freed when its last reference goes (the count falls): nothing is added
        with build.fewer_collections():
            garbage = [[]]
            garbage[0].append(garbage)
            assert 0 < gc.get_freeze_count() <= frozen
        assert 0 < gc.get_freeze_count() <= frozen
    finally:
        gc.freeze()
