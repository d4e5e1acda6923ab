"""Modules loaded when first used, so that the command line starts fast.

``oddsmith --help`` must not pay for numpy, pandas, Matplotlib or the kernels
(docs/design.md, 'Start-up'). A module of ``oddsmith/commands/`` (and the few
light modules it needs at start-up) names a heavy module at its top with::

    pd = lazy.module("pandas")
    B = lazy.module("oddsmith.shadows.battle")
    hands_frame = lazy.function("oddsmith.doomtown.evaluator", "hands_frame")

and the real import happens at the first attribute access or call, that is
when a command runs. An Enum used as an option type must come from a light
module. An option's default may name a constant of a lazy oddsmith module
(``B.DEFAULT_TRIALS``): a name in capitals assigned once, at the top of the
module, to a plain literal (``DEFAULT_TRIALS = 20_000``) is read from the
module's source without running it; anything else imports the module, which
tests/test_cli_startup.py then reports.
"""
from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
import threading
import types
from pathlib import Path
from typing import Any, Callable

# NAME = literal on one line at the top of a module (a comment may follow).
_CONSTANT = re.compile(r"^([A-Z][A-Z0-9_]*)\s*(?::[^=\n]*)?=(?!=)(.*)$", re.MULTILINE)
_PACKAGE_DIR = Path(__file__).resolve().parent
_STEPPING_ASIDE = threading.Lock()


def source_constants(name: str) -> dict[str, Any]:
    """The plain-literal constants of oddsmith module ``name``, read from its source without running it.

    A name assigned more than once, or to anything ``ast.literal_eval`` cannot read on its
    one line, is left out (its value is then only known by importing the module)."""
    parts = name.split(".")
    if parts[0] != "oddsmith" or len(parts) < 2:
        return {}
    path = _PACKAGE_DIR.joinpath(*parts[1:]).with_suffix(".py")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return {}
    found: dict[str, Any] = {}
    twice: set[str] = set()
    for match in _CONSTANT.finditer(text):
        key, value = match.group(1), match.group(2)
        if key in found or key in twice:
            twice.add(key)
            continue
        for text_value in (value, value.split("#", 1)[0]):
            try:
                found[key] = ast.literal_eval(text_value.strip())
                break
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                continue
        else:
            twice.add(key)
    return {k: v for k, v in found.items() if k not in twice}


class LazyModule(types.ModuleType):
    """Stands for the module ``name``; imports it at the first attribute access."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.__dict__["_lazy_target"] = None
        self.__dict__["_lazy_constants"] = None

    def _lazy_load(self) -> types.ModuleType:
        target = self.__dict__["_lazy_target"]
        if target is None:
            with _STEPPING_ASIDE:  # standing in sys.modules (on_first_use): make way for the real module, once
                if sys.modules.get(self.__name__) is self:
                    del sys.modules[self.__name__]
            # importlib's own lock makes concurrent first uses import once.
            target = importlib.import_module(self.__name__)
            self.__dict__["_lazy_target"] = target
        return target

    def __getattr__(self, attr: str) -> Any:
        # Called only for names the proxy lacks, that is every name of the real module.
        if attr.startswith("__") and attr.endswith("__") and attr not in ("__file__", "__path__", "__all__"):
            raise AttributeError(attr)
        if self.__dict__["_lazy_target"] is None and attr.isupper():
            constants = self.__dict__["_lazy_constants"]
            if constants is None:
                constants = self.__dict__["_lazy_constants"] = source_constants(self.__name__)
            if attr in constants:
                return constants[attr]
        return getattr(self._lazy_load(), attr)

    def __dir__(self) -> list[str]:
        return dir(self._lazy_load())

    def __repr__(self) -> str:
        state = "loaded" if self.__dict__["_lazy_target"] is not None else "not loaded yet"
        return f"<lazy module {self.__name__!r} ({state})>"


def module(name: str) -> Any:
    """The module ``name`` if it is already imported, else a stand-in that imports it when first used."""
    loaded = sys.modules.get(name)
    return loaded if loaded is not None else LazyModule(name)


def function(module_name: str, name: str) -> Callable[..., Any]:
    """A function of ``module_name`` that imports its module at the first call."""
    target: Callable[..., Any] | None = None

    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal target
        if target is None:  # found once: commands call some of these per input line
            target = getattr(importlib.import_module(module_name), name)
        return target(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"{module_name}.{name}, imported at the first call."
    return call


def on_first_use(name: str) -> None:
    """Put a :class:`LazyModule` in ``sys.modules`` for ``name``, so that ``import name`` gives a stand-in that
    imports the module when first used, unless it is loaded already or not installed. Whichever thread uses it
    first imports it, once; the others wait for it (importlib's lock), and the stand-in answers from it since.

    For a module a library imports at its top but uses only now and then, which this process may never need:
    Matplotlib's PDF backend imports ``fontTools.subset`` (about 0.05 s of CPU) to embed a font, which a report
    drawn in the PDF's standard fonts never does (docs/speed.md, 'Reports')."""
    if name in sys.modules:
        return
    try:
        if importlib.util.find_spec(name) is None:
            return
    except (ImportError, ValueError):
        return
    stand_in = LazyModule(name)
    sys.modules[name] = stand_in
    parent, _, child = name.rpartition(".")
    if parent:  # as the import system binds a submodule it loads (and binds the real one when it does)
        setattr(sys.modules[parent], child, stand_in)
