"""`--help` reads conventionally for every command of the tree (commands added later included):
TEXT/INTEGER/DECK-style metavars, no typer `<str>`/`{DECK}` forms, whole command summaries in
every group listing, and one meaning for each short flag across all commands."""
from __future__ import annotations

import re
from collections import defaultdict

import pytest
import typer.main

from oddsmith.cli import app
from oddsmith.commands._help import apply_conventions, summary, walk
from cli_run import run


def _tree():
    root = typer.main.get_command(app)
    apply_conventions(root)
    return root


COMMANDS = [(path, cmd) for path, cmd in walk(_tree())]
GROUPS = [(path, cmd) for path, cmd in COMMANDS if getattr(cmd, "commands", None)]
METAVAR = re.compile(r"^(?:[A-Z]+(?:\.\.\.)?|\[[a-z0-9|_-]+\])$")


def _help(capsys, monkeypatch, columns: int, path: tuple[str, ...]) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    rc, out, err = run(capsys, *path, "--help")
    assert rc == 0 and not err
    return out


def test_the_tree_is_walked_whole():
    names = {" ".join(p) for p, _ in COMMANDS}
    assert {"shootout", "deck show", "shadows shoot", "shadows posse", "report shadows"} <= names
    assert len(GROUPS) >= 4  # oddsmith, deck, shadows, report


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "oddsmith")
def test_help_has_no_typer_type_forms(capsys, monkeypatch, columns, path):
    out = _help(capsys, monkeypatch, columns, path)
    assert not re.search(r"<[a-z][^>]*>", out), out
    assert "{" not in out and "}" not in out, out
    usage = out.splitlines()[0]
    assert usage.startswith("Usage: oddsmith")
    assert "[[" not in usage


@pytest.mark.parametrize("path", [p for p, _ in COMMANDS], ids=lambda p: " ".join(p) or "oddsmith")
def test_every_value_has_a_conventional_metavar(capsys, monkeypatch, path):
    out = _help(capsys, monkeypatch, 200, path)
    cmd = dict(COMMANDS)[path]
    for param in cmd.params:
        if param.param_type_name == "option" and not (param.is_flag or param.count):
            assert param.metavar and METAVAR.match(param.metavar), (path, param.name, param.metavar)
            assert f"{max(param.opts, key=len)} {param.metavar}" in out, (path, param.name)
        elif param.param_type_name == "argument":
            assert re.search(r"^  [A-Z]+(\.\.\.)?  ", out, re.M), out


SHADOWS_VS = [(path, param) for path, cmd in COMMANDS if "shadows" in path for param in cmd.params
              if {"--vs", "--vs-posse"} & set(getattr(param, "opts", []))]


def test_shadows_vs_options_are_posses(capsys, monkeypatch):
    """In Dracula's America the opponent is a posse, never a Doomtown deck."""
    assert {" ".join(p) for p, _ in SHADOWS_VS} >= {"shadows battle", "shadows value"}
    for path, param in SHADOWS_VS:
        out = _help(capsys, monkeypatch, 200, path)
        assert param.metavar == "POSSE", (path, param.opts)
        assert f"{max(param.opts, key=len)} POSSE" in out and " DECK" not in out, (path, out)


@pytest.mark.parametrize("columns", [80, 200])
@pytest.mark.parametrize("path", [p for p, _ in GROUPS], ids=lambda p: " ".join(p) or "oddsmith")
def test_group_listings_show_whole_summaries(capsys, monkeypatch, columns, path):
    out = _help(capsys, monkeypatch, columns, path)
    listing = out.split("Commands:\n", 1)[1]
    entries: dict[str, list[str]] = {}
    name = None
    for line in listing.splitlines():
        m = re.match(r"^  (\S+)\s+(.*)$", line)
        if m:
            name = m.group(1)
            entries[name] = [m.group(2)]
        elif line.strip() and name is not None:
            entries[name].append(line.strip())
    group = dict(GROUPS)[path]
    assert set(entries) == {n for n, c in group.commands.items() if not c.hidden}
    for sub_name, lines in entries.items():
        shown = " ".join(lines)
        want = summary(group.commands[sub_name])
        # click wraps at a hyphen ("tie-" / "break"); undo that before comparing
        assert shown.replace("- ", "-") == want.replace("- ", "-"), (sub_name, shown)
        assert not shown.endswith("...")
    if columns == 200:  # a summary too long for one line at 120 columns: shorten the docstring's first line
        assert all(len(lines) == 1 for lines in entries.values()), entries


def test_each_short_flag_has_one_meaning():
    meanings: dict[str, set[str]] = defaultdict(set)
    where: dict[str, list[str]] = defaultdict(list)
    for path, cmd in COMMANDS:
        for param in cmd.params:
            opts = list(getattr(param, "opts", [])) + list(getattr(param, "secondary_opts", []))
            longs = [o for o in opts if o.startswith("--")]
            for short in (o for o in opts if re.fullmatch(r"-[A-Za-z0-9]", o)):
                meanings[short].add(longs[0] if longs else param.name)
                where[short].append(" ".join(path))
    clashes = {s: sorted(m) for s, m in meanings.items() if len(m) > 1}
    assert not clashes, clashes
    # the common ones mean the same everywhere they appear
    assert meanings["-f"] == {"--format"} and meanings["-o"] == {"--output"}
    assert meanings["-t"] == {"--trials"} and meanings["-w"] == {"--workers"}


def test_every_trials_workers_format_option_has_its_short_flag():
    for path, cmd in COMMANDS:
        for param in cmd.params:
            opts = set(getattr(param, "opts", []))
            for long, short in (("--trials", "-t"), ("--workers", "-w"), ("--format", "-f"), ("--output", "-o")):
                if long in opts:
                    assert short in opts, (path, long)


def test_old_clashing_short_flags_fail_with_one_line(capsys):
    rc, out, err = run(capsys, "shadows", "shoot", "--shooter", "Hero", "-t", "Veteran")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "'-t'" in err
    rc, _, err = run(capsys, "pull", "law-dogs", "-s", "2")
    assert rc == 2 and "No such option: -s" in err
