"""Running the CLI in-process from the tests: ``run(capsys, *args)`` -> (exit status, stdout, stderr)."""
from __future__ import annotations

from typing import Any, Callable

from oddsmith.cli import main


def cli_runner(*prefix: str) -> Callable[..., tuple[int, str, str]]:
    """A ``run(capsys, *args)`` calling ``oddsmith *prefix *args`` (arguments as text)."""

    def run(capsys: Any, *args: Any) -> tuple[int, str, str]:
        rc = main([*prefix, *(str(a) for a in args)])
        cap = capsys.readouterr()
        return rc, cap.out, cap.err

    return run


run = cli_runner()
