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
from oddsmith.report import battle_page, charts, deck_report, document, shadows_sheets, style
from oddsmith.report.charts import pct
from oddsmith.shadows import tables

TRIALS = "2000"


def pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", path.read_bytes()))


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
        assert len(fig.axes) == 3  # two panels and the shared colour bar
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
    # cover, two pages per deck, the every-deck matrices, the trade-off
    assert pdf_pages(out) == 1 + 2 * 2 + 1 + 1
    data = out.read_bytes()
    for title in (b"oddsmith deck report", b"Deck: Law Dogs: cards and lowball", b"Deck: Outlaws: shootouts",
                  b"Every deck against every other", b"The trade-off: lowball against shootout strength"):
        assert title in data
    assert b"/MediaBox [0 0 595.44 841.68]" in data or b"595" in data  # A4 by default
    assert sorted(p.name for p in tmp_path.iterdir()) == ["decks.pdf"]


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


def test_shadows_sheets_html_and_posse_pages(tmp_path, capsys):
    out = tmp_path / "sheets.html"
    rc = main(["report", "shadows", "unaligned", "-o", str(out), "--dpi", "40"])
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
    doc = document.Document("advance", [shadows_sheets.advance_page()], seed=None)
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
    doc = document.Document("one page", [page], seed=None, cover=False)
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
    assert what == {"decks": ["law-dogs"], "vs": None}


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
    assert main([]) == 0
    out = tmp_path / "oddsmith-report.pdf"
    assert "wrote oddsmith-report.pdf" in capsys.readouterr().out
    starters = len(deck_report.STARTER_DECKS)
    assert pdf_pages(out) == 1 + 2 * starters + 2 + 7 + battle_page.n_steps()  # battle pages: one per step
    assert out.stat().st_size < 3_000_000


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
