"""Compiled kernels built from ext/*.pyx (see setup.py). Hot loops only."""
import importlib
from types import ModuleType


class KernelsNotBuilt(ImportError):
    """A compiled kernel is missing: a broken install or an unbuilt checkout, not bad input."""


def load(name: str) -> ModuleType:
    """The compiled module ``oddsmith._ext.<name>``, or a clear error saying how to build it."""
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ImportError as exc:
        raise KernelsNotBuilt(
            f"oddsmith's compiled kernel {name!r} is missing: reinstall oddsmith (pip install .) or, "
            "in a checkout, build it (pip install -e . or python setup.py build_ext --inplace)") from exc
