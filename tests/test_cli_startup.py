"""The command line starts light: `--help`, `--version`, every sub-command's `--help` and a
shell's TAB completion import none of numpy, pandas, Matplotlib, scipy, reportlab or the
kernels (docs/design.md, 'Start-up'); the lazy stand-ins behave as the modules they stand for.
"""
from __future__ import annotations

import enum
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli_run import run
import oddsmith
from oddsmith import lazy

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "pandas", "matplotlib", "scipy", "reportlab", "pydantic")


def _command_paths() -> list[tuple[str, ...]]:
    import typer.main

    from oddsmith.cli import app
    from oddsmith.commands._help import walk

    return [path for path, _ in walk(typer.main.get_command(app))]


def _imported(args: list[str], env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run ``python -X importtime -m oddsmith ARGS``; its output and every module it imported."""
    run_env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", **(env or {})}
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "oddsmith", *args], cwd=ROOT,
                          capture_output=True, text=True, env=run_env, timeout=60)
    modules = {line.split("|")[-1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    return proc, modules


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith("oddsmith._ext."))


@pytest.mark.parametrize("args", [["--help"], ["--version"], []], ids=["help", "version", "no-args-help-path"])
def test_root_starts_light(args):
    if not args:  # `oddsmith` alone writes the report: its light part is `report --help`
        args = ["report", "--help"]
    proc, modules = _imported(args)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "oddsmith" in modules  # the parse of -X importtime found the modules
    if args == ["--version"]:  # answered before the command line loads at all
        assert proc.stdout == f"oddsmith {oddsmith.__version__}\n" and "typer" not in modules
    else:
        assert "oddsmith.cli" in modules
    assert _heavy(modules) == []


@pytest.mark.parametrize("path", [p for p in _command_paths() if p], ids=" ".join)
def test_every_help_starts_light(path):
    proc, modules = _imported([*path, "--help"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Usage: oddsmith " + " ".join(path) in proc.stdout
    assert _heavy(modules) == [], f"`oddsmith {' '.join(path)} --help` imports heavy modules"


def test_completion_answers_light():
    """What TAB asks (typer's bash protocol) is answered without the heavy modules."""
    proc, modules = _imported([], env={"_ODDSMITH_COMPLETE": "complete_bash", "COMP_WORDS": "oddsmith shadows b",
                                       "COMP_CWORD": "2"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert sorted(proc.stdout.split()) == ["battle", "bottle"]
    assert _heavy(modules) == []


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_script(capsys, shell):
    rc, out, _ = run(capsys, "completion", shell)
    assert rc == 0
    assert "_ODDSMITH_COMPLETE=complete_" + shell in out
    assert ("complete --command oddsmith" if shell == "fish" else "oddsmith") in out


def test_completion_refuses_unknown_shell(capsys):
    rc, out, err = run(capsys, "completion", "tcsh")
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "'tcsh'" in err and "bash" in err


def _lazy_modules() -> dict[str, lazy.LazyModule]:
    """Every lazy stand-in the command modules hold, by module name."""
    import pkgutil

    import oddsmith.commands

    found: dict[str, lazy.LazyModule] = {}
    for info in pkgutil.iter_modules(oddsmith.commands.__path__):
        module = importlib.import_module(f"oddsmith.commands.{info.name}")
        for value in vars(module).values():
            if isinstance(value, lazy.LazyModule):
                found[value.__name__] = value
    return found


def test_constants_read_from_source_are_the_modules_own():
    """Each constant a stand-in reads from its module's source equals the imported module's value."""
    checked = 0
    for name in sorted(_lazy_modules()):
        constants = lazy.source_constants(name)
        real = importlib.import_module(name)
        for key, value in constants.items():
            assert getattr(real, key) == value, (name, key)
            checked += 1
    assert checked >= 8


def test_source_constants_leave_out_what_they_cannot_read(tmp_path, monkeypatch):
    (tmp_path / "fake.py").write_text(
        'A = 1_000  # a comment\nB = "x # y"\nC = 2\nC = 3\nD = compute()\nE: int = 5\nF = (1,\n     2)\n'
        'def g():\n    H = 1\n', encoding="utf-8")
    monkeypatch.setattr(lazy, "_PACKAGE_DIR", tmp_path)
    assert lazy.source_constants("oddsmith.fake") == {"A": 1000, "B": "x # y", "E": 5}
    assert lazy.source_constants("oddsmith.missing") == {}
    assert lazy.source_constants("json") == {}


def test_lazy_module_loads_when_used():
    stand_in = lazy.LazyModule("json")
    assert "not loaded" in repr(stand_in)
    assert stand_in.dumps([1]) == "[1]"
    assert stand_in.__dict__["_lazy_target"] is sys.modules["json"]
    assert lazy.module("json") is sys.modules["json"]  # already imported: the module itself
    with pytest.raises(AttributeError):
        stand_in.no_such_name
    assert lazy.function("json", "dumps")({"a": 1}) == '{"a": 1}'


def test_a_module_on_first_use_runs_only_when_used():
    """lazy.on_first_use: Matplotlib's PDF backend imports fontTools.subset without running it (nothing that
    fontTools.subset imports loads); the first use, from eight threads at once, imports it once, and from then on
    sys.modules and the package hold the real module and the backend's stand-in answers from it; a module already
    loaded, or not installed, is left as it is. In a fresh process: this one has loaded them."""
    probe = """
import sys, json, threading
from oddsmith import lazy
lazy.on_first_use("json")
lazy.on_first_use("oddsmith_no_such_module")
print(type(sys.modules["json"]).__name__, "oddsmith_no_such_module" in sys.modules)
lazy.on_first_use("fontTools.subset")
import fontTools
from matplotlib.backends import _backend_pdf_ps as backend
stand_in = backend.subset
print("fontTools.ttLib.tables.otTables" in sys.modules, type(stand_in).__name__, fontTools.subset is stand_in)
found = []
threads = [threading.Thread(target=lambda: found.append(stand_in.Subsetter)) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
real = sys.modules["fontTools.subset"]
print(len(found), len({id(f) for f in found}), type(real).__name__, fontTools.subset is real,
      real.Subsetter is found[0], "fontTools.ttLib.tables.otTables" in sys.modules)
"""
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True).stdout.split()
    assert out == ["module", "False", "False", "LazyModule", "True", "8", "1", "module", "True", "True", "True"], out


def test_the_command_tree_is_built_once_and_keeps_nothing_between_command_lines(capsys, monkeypatch):
    """Many command lines in one process (the tests, a notebook) build typer's command tree once
    (``oddsmith.cli.command``), and a command line leaves nothing in it for the next: the same
    command line answers the same after others with other options, and bad ones, ran between."""
    import json

    import typer.main

    from oddsmith import cli

    cli.command()
    monkeypatch.setattr(typer.main, "get_command", lambda app: pytest.fail("the tree was built again"))
    shoot = ("shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--format", "json")
    rc, first, _ = run(capsys, *shoot)
    assert rc == 0
    assert run(capsys, *shoot[:-2], "--dice-mod", "2", "--format", "json")[0] == 0
    rc, out, err = run(capsys, *shoot[:-2], "--format", "yaml")
    assert rc == 2 and "yaml" in err
    assert run(capsys, "shadows", "shoot", "--help")[0] == 0
    rc, again, _ = run(capsys, *shoot)
    assert rc == 0 and again == first
    assert json.loads(again) != json.loads(run(capsys, *shoot[:-2], "--dice-mod", "2", "--format", "json")[1])


def test_the_command_collects_cyclic_garbage_seldom():
    """The command (oddsmith.__main__.run) sets the collector's first threshold to 50,000 before it loads the commands
    (the youngest generation every 50,000 allocations, not 700), keeping the other two; a program that imports
    oddsmith keeps its own setting."""
    from oddsmith import __main__ as entry

    probe = ("import gc, sys; from oddsmith import __main__ as m; print(gc.get_threshold()); "
             "sys.argv = ['oddsmith', '--version']; "
             "m._exit = lambda status, line: (print(gc.get_threshold()), sys.exit(status)); m.run()")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=60,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True).stdout.splitlines()
    before, after = (tuple(int(x) for x in line.strip("()").split(", ")) for line in (out[0], out[-1]))
    assert before[0] == 700 and after == (entry.COMMAND_GC_THRESHOLD, *before[1:]), out
    source = Path(entry.__file__).read_text()
    assert source.index("    collect_seldom()") < source.index("from oddsmith import interrupts")


def test_the_command_asks_openblas_for_one_thread(monkeypatch):
    """The command (oddsmith.__main__.run) asks numpy's OpenBLAS for one thread before anything loads numpy, unless
    the user set OPENBLAS_NUM_THREADS: OpenBLAS otherwise starts a thread per core that spins at start-up, and
    oddsmith does no linear algebra. With one, numpy loads without a second thread in the process."""
    from oddsmith import __main__ as entry

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    entry.single_threaded_blas()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    entry.single_threaded_blas()
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"
    source = Path(entry.__file__).read_text()
    assert source.index("    single_threaded_blas()") < source.index("from oddsmith import interrupts")
    if (os.cpu_count() or 1) < 2 or not Path("/proc/self/task").is_dir():
        pytest.skip("one core, or no /proc: OpenBLAS starts no thread to count")
    count = ("import os; from oddsmith import __main__ as m; {} import numpy; "
             "print(len(os.listdir('/proc/self/task')))")
    env = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
    env["PYTHONPATH"] = str(ROOT)
    threads = [int(subprocess.run([sys.executable, "-c", count.format(call)], capture_output=True, text=True,
                                  env=env, cwd=ROOT, timeout=60, check=True).stdout)
               for call in ("m.single_threaded_blas();", "")]
    assert threads[0] == 1 and threads[1] > 1, threads


def _plain_params():
    """Every option and argument of the command tree with one value of type str, int or an Enum, with its
    command."""
    import typer.main

    from oddsmith.cli import app
    from oddsmith.commands._help import apply_conventions, walk

    root = typer.main.get_command(app)
    apply_conventions(root)
    for _, command in walk(root):
        for param in command.params:
            descriptor = getattr(param, "type_descriptor", None)
            if descriptor is None or param.multiple or param.nargs == -1:
                continue
            annotation = descriptor.annotation
            if annotation in (str, int) or (isinstance(annotation, type) and issubclass(annotation, enum.Enum)):
                yield command, param


def _outcome(call):
    try:
        value = call()
    except Exception as exc:  # the error a user reads
        return type(exc).__name__, getattr(exc, "format_message", lambda: str(exc))()
    return type(value), value


def test_typed_values_read_as_typers_own_check_reads_them():
    """A str, int or choice option's value is read without typer's pydantic check (commands._help.DeferredCheck),
    to the same value of the same type, and a value it refuses gets typer's own message, for every such option of
    every command: values typed well and badly, its default, and values of other types."""
    from typer._click import Context
    from typer._coercion import build_runtime_param

    from oddsmith.commands._help import DeferredCheck

    kinds, defaults = set(), 0
    for command, param in _plain_params():
        annotation = param.type_descriptor.annotation
        info = param.type_descriptor.parameter_info
        if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
            kinds.add("choice" if info.case_sensitive else "choice, any case")
            names = [str(m.value) for m in annotation]
            read = names + ([] if info.case_sensitive else [n.upper() for n in names])  # without typer's check
            refused = [n.upper() for n in names] + ["nope", ""]
        elif annotation is int:
            kinds.add("int")
            read = ["0", "7", "007", "-12", "-0", "9" * 30]
            refused = ["+5", " 5", "1_000", "12.0", "abc", "", "\u0661\u0662"]  # here: typer's check reads them
        else:
            kinds.add("str")
            read, refused = ["x", "", "-", " spaced ", "\u03a9"], []
        if param.default is not None:
            read.append(param.default)
            defaults += 1
        ctx = Context(command)
        theirs = build_runtime_param(param.type_descriptor)
        for value in read + refused + [True, 2.5]:
            ours = DeferredCheck(param)
            expected = _outcome(lambda: theirs.coerce(value, param=param, ctx=ctx))
            assert _outcome(lambda: ours.coerce(value, param, ctx)) == expected, (command.name, param.name, value)
            # the values typed as a user types them, and the defaults, are read without typer's check (and pydantic)
            assert (ours.check is None) == ((type(value), value) in {(type(r), r) for r in read}), \
                (command.name, param.name, value)
    assert kinds == {"choice", "choice, any case", "int", "str"} and defaults > 100, (kinds, defaults)


def test_a_command_line_with_plain_values_loads_no_pydantic():
    proc, modules = _imported(["shadows", "shoot", "--shooter", "veteran", "--target", "novice", "--dice-mod", "1",
                               "--format", "json"])
    assert proc.returncode == 0, proc.stderr[-2000:]
    # the command ran its engine (which needs no pandas to print JSON)
    assert "oddsmith.shadows.engine" in modules and "pydantic" not in modules
