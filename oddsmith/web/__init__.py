"""``oddsmith serve``: the web face of oddsmith (a Starlette application on uvicorn).

The pages call the same analysis functions as the command line, with the same
seeds, and show the report's charts as SVG; long simulations run as jobs off
the request thread (:mod:`oddsmith.web.jobs`). Needs the optional extra:
``pip install "oddsmith[web]"``.
"""
from __future__ import annotations

#: The one line ``oddsmith serve`` prints when Starlette or uvicorn is missing.
INSTALL_HINT = 'oddsmith serve needs the web extra: pip install "oddsmith[web]" (Starlette and uvicorn)'


def missing() -> str | None:
    """The name of the first web dependency that cannot be imported, or None."""
    import importlib.util

    for name in ("starlette", "uvicorn"):
        if importlib.util.find_spec(name) is None:
            return name
    return None
