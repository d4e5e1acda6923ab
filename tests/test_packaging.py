"""Packaging: metadata, tested dependency floors, MANIFEST.in, py.typed, kernel stubs, the public API surface.

The floors themselves are tested by the CI floor job (scripts/floor_constraints.py
then scripts/smoke_commands.py in a fresh venv with the lowest declared versions);
these tests check what can be checked from the checkout.
"""
from __future__ import annotations

import ast
import glob
import importlib
import inspect
import re
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import oddsmith

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
KERNELS = sorted(Path(p).stem for p in glob.glob(str(ROOT / "ext" / "*.pyx")))

sys.path.insert(0, str(ROOT / "scripts"))
import floor_constraints  # noqa: E402


def _requirement(name: str) -> str:
    found = [r for r in PROJECT["dependencies"] if re.match(rf"{name}\b", r)]
    assert len(found) == 1, name
    return found[0]


def _floor(name: str) -> tuple[int, ...]:
    m = re.search(r">=\s*([0-9.]+)", _requirement(name))
    return tuple(int(x) for x in m.group(1).split("."))


# ---------------------------------------------------------------------------- metadata


def test_licence_is_an_spdx_expression_with_its_file():
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "THE SOFTWARE IS PROVIDED \"AS IS\"" in text
    requires = " ".join(PYPROJECT["build-system"]["requires"])
    assert tuple(int(x) for x in re.search(r"setuptools>=(\d+)", requires).group(1).split(".")) >= (77,)
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # PEP 639: the expression only


def test_version_is_written_once():
    assert "version" not in PROJECT and "version" in PROJECT["dynamic"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "oddsmith.__version__"}
    assert re.fullmatch(r"\d+\.\d+\.\d+", oddsmith.__version__)
    hits = [p for p in ("setup.py", "pyproject.toml") if oddsmith.__version__ in (ROOT / p).read_text(encoding="utf-8")]
    assert hits == []


def test_classifiers_name_the_python_versions_allowed():
    assert PROJECT["requires-python"] == ">=3.10"
    pythons = {c.rsplit(" ", 1)[1] for c in PROJECT["classifiers"]
               if re.match(r"Programming Language :: Python :: 3\.\d+$", c)}
    assert "3.10" in pythons and "Typing :: Typed" in PROJECT["classifiers"]


# ---------------------------------------------------------------------------- dependency floors


def test_report_needs_matplotlib_3_10():
    """The report calls Artist.get_figure(root=True), new in matplotlib 3.10 (a TypeError on 3.9)."""
    uses = [p for p in (ROOT / "oddsmith" / "report").glob("*.py") if "get_figure(root=True)" in p.read_text("utf-8")]
    assert uses
    assert _floor("matplotlib") >= (3, 10)


def test_tomli_is_declared_where_posse_files_need_it():
    assert "import tomli" in (ROOT / "oddsmith" / "shadows" / "posse_toml.py").read_text(encoding="utf-8")
    req = _requirement("tomli")
    assert _floor("tomli") >= (2,) and re.search(r"python_version\s*<\s*['\"]3\.11['\"]", req)


def test_every_dependency_has_a_floor_the_ci_job_can_pin():
    pins = floor_constraints.floor_pins(PROJECT["dependencies"])
    names = [re.match(r"[A-Za-z0-9_.-]+", p).group(0) for p in pins]
    assert names == [re.match(r"[A-Za-z0-9_.-]+", r).group(0) for r in PROJECT["dependencies"]]
    assert {"numpy", "pandas", "scipy", "matplotlib", "typer", "tomli"} <= set(names)
    assert "matplotlib==3.10" in pins
    assert any(p.startswith("tomli==2") and "python_version" in p for p in pins)


def test_floor_pins_refuse_an_untestable_requirement():
    assert floor_constraints.floor_pins(["numpy>=1.26,<3", "a>=1; python_version < '3.11'"]) == [
        "numpy==1.26", "a==1; python_version < '3.11'"]
    for bad in ("numpy", "numpy<3", "numpy>=1,>=2"):
        with pytest.raises(ValueError):
            floor_constraints.floor_pins([bad])


def test_the_smoke_test_runs_every_command():
    """Every command and subcommand of the CLI appears in scripts/smoke_commands.py."""
    import typer.main

    import smoke_commands
    from oddsmith.cli import app

    def paths(group, prefix=()):
        for name, cmd in group.commands.items():
            sub = getattr(cmd, "commands", None)
            yield from (paths(cmd, prefix + (name,)) if sub else [prefix + (name,)])

    smoked = [args for args, _ in smoke_commands.COMMANDS]
    commands = list(paths(typer.main.get_command(app)))
    assert len(commands) > 20
    for path in commands:
        assert any(tuple(args[:len(path)]) == path for args in smoked), " ".join(path)


# ---------------------------------------------------------------------------- files in the distributions


def _manifest_patterns() -> list[tuple[str, list[str]]]:
    out = []
    for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        words = line.split()
        if words and not words[0].startswith("#"):
            out.append((words[0], words[1:]))
    return out


def test_manifest_names_only_files_that_exist():
    for command, args in _manifest_patterns():
        if command == "include":
            for pattern in args:
                assert glob.glob(str(ROOT / pattern)), f"MANIFEST.in: include {pattern} matches nothing"
        elif command == "recursive-include":
            folder, patterns = args[0], args[1:]
            for pattern in patterns:
                assert glob.glob(str(ROOT / folder / "**" / pattern), recursive=True), \
                    f"MANIFEST.in: recursive-include {folder} {pattern} matches nothing"


def test_typing_files_are_shipped():
    assert (ROOT / "oddsmith" / "py.typed").is_file()
    manifest = (ROOT / "MANIFEST.in").read_text(encoding="utf-8")
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "oddsmith/py.typed" in manifest and "oddsmith/_ext/*.pyi" in manifest
    assert '"oddsmith": ["py.typed"]' in setup and '"oddsmith._ext": ["*.pyi"]' in setup


# ---------------------------------------------------------------------------- kernel stubs


def _stub(kernel: str) -> tuple[set[str], dict[str, list[str]]]:
    """(public names, function -> parameter names) of oddsmith/_ext/<kernel>.pyi."""
    tree = ast.parse((ROOT / "oddsmith" / "_ext" / f"{kernel}.pyi").read_text(encoding="utf-8"))
    names, params = set(), {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
            params[node.name] = [a.arg for a in node.args.args]
    return {n for n in names if not n.startswith("_")}, params


def _compiled_public(kernel: str) -> dict[str, object]:
    module = importlib.import_module(f"oddsmith._ext.{kernel}")
    return {k: v for k, v in vars(module).items() if not k.startswith("_") and not inspect.ismodule(v)}


@pytest.mark.parametrize("kernel", KERNELS)
def test_stub_matches_the_compiled_kernel(kernel):
    names, params = _stub(kernel)
    public = _compiled_public(kernel)
    assert names == set(public), \
        f"{kernel}.pyi: missing {sorted(set(public) - names)}, extra {sorted(names - set(public))}"
    for name, args in params.items():
        assert list(inspect.signature(public[name]).parameters) == args, f"{kernel}.{name}"


def test_stub_check_catches_drift():
    names, _ = _stub("shootout")
    assert names != set(_compiled_public("hand_eval"))
    assert KERNELS and all((ROOT / "oddsmith" / "_ext" / f"{k}.pyi").is_file() for k in KERNELS)


# ---------------------------------------------------------------------------- the public API


@pytest.mark.parametrize("package", ["oddsmith.doomtown", "oddsmith.shadows"])
def test_every_public_name_exists_and_is_documented(package):
    pkg = importlib.import_module(package)
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    section = api[api.index("## The public API"):]
    assert len(pkg.__all__) == len(set(pkg.__all__))
    for name in pkg.__all__:
        obj = getattr(pkg, name)
        assert not inspect.ismodule(obj), f"{package}.{name} is a module"
        if not isinstance(obj, (tuple, str, int)):
            assert (obj.__doc__ or "").strip(), f"{package}.{name} has no docstring"
        assert f"`{name}`" in section, f"{package}.{name} is not in docs/api.md, 'The public API'"


def test_public_packages_import_quickly():
    """``import oddsmith.doomtown`` loads no kernel (its names come on first use)."""
    import subprocess

    code = ("import sys, oddsmith.doomtown as D\n"
            "assert not [m for m in sys.modules if m.startswith('oddsmith._ext.')]\n"
            "D.lowball_odds\nassert 'oddsmith.doomtown.lowball' in sys.modules\nprint(set(D.__all__) <= set(dir(D)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "True", out.stderr
