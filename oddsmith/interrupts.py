"""Ctrl-C: one line, exit status 130, no traceback and no partial output file.

Python turns SIGINT into a ``KeyboardInterrupt`` in the main thread, but that
exception does not always reach the CLI: raised inside a ``__del__`` or a
weakref callback (matplotlib runs many) it is printed as "Exception ignored"
and dropped, and raised inside some C++ converters it comes back as another
error (matplotlib's ``ValueError: Invalid bounding box``). So while the CLI
runs, SIGINT also sets a latch that cannot be lost: the long loops and the
final rename check it (:func:`check`), and :func:`oddsmith.cli.main` reports
an interrupt whatever exception the ``KeyboardInterrupt`` became.

SIGTERM (``kill``, ``timeout``) is taken the same way, so that it too leaves no
temporary file behind: "oddsmith: terminated", exit status 143.
"""
from __future__ import annotations

import contextlib
import signal
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any, Iterator

#: Exit status of an interrupted command (128 + SIGINT, as shells report it).
EXIT_STATUS = 128 + signal.SIGINT
#: The signals taken, and the line each ends a command with.
SIGNALS = {signal.SIGINT: "oddsmith: interrupted", signal.SIGTERM: "oddsmith: terminated"}
MESSAGE = SIGNALS[signal.SIGINT]

_latched: int | None = None  # the signal that arrived
_deferring = 0


def _on_signal(signum: int, frame: Any) -> None:
    global _latched
    if _latched is None:
        _latched = signum
    if not _deferring:
        raise KeyboardInterrupt


def _unraisable(hook: Any) -> Any:
    def quiet(unraisable: Any) -> None:
        # A KeyboardInterrupt raised in a __del__ or callback: the latch already holds it.
        if issubclass(unraisable.exc_type, KeyboardInterrupt) and _latched is not None:
            return
        hook(unraisable)

    return quiet


@contextlib.contextmanager
def latching() -> Iterator[None]:
    """Latch SIGINT and SIGTERM for the duration of one command (main thread only).

    A signal that the parent process ignores (``SIG_IGN``: a non-interactive
    shell starts ``cmd &`` with SIGINT ignored) stays ignored, as it does for
    any program.
    """
    global _latched
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    previous = {s: signal.getsignal(s) for s in SIGNALS}
    mine = [s for s in SIGNALS if previous[s] is defaults[s]]
    if threading.current_thread() is not threading.main_thread() or not mine:
        # a thread, every signal ignored or handled elsewhere, or ours already (python -m oddsmith)
        yield
        return
    _latched = None
    hook = sys.unraisablehook
    for s in mine:
        signal.signal(s, _on_signal)
    sys.unraisablehook = _unraisable(hook)
    try:
        yield
    finally:
        for s in mine:
            signal.signal(s, previous[s])
        sys.unraisablehook = hook
        _latched = None


def interrupted() -> bool:
    """True once SIGINT (or SIGTERM) arrived during the current command."""
    return _latched is not None


def exit_status() -> int:
    """130 after SIGINT, 143 after SIGTERM."""
    return 128 + (_latched or signal.SIGINT)


def message() -> str:
    """The one line an interrupted command ends with."""
    return SIGNALS.get(_latched or signal.SIGINT, MESSAGE)


def check() -> None:
    """Raise ``KeyboardInterrupt`` if SIGINT arrived, even if its exception was swallowed."""
    if _latched is not None:
        raise KeyboardInterrupt


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT back while a few quick steps must all happen or none (renaming output files).

    An interrupt that arrived before is raised first; one that arrives inside is raised after.
    """
    global _deferring
    check()
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1
    if not _deferring:
        check()
