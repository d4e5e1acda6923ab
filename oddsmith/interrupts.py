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
_finishing = False


def _on_signal(signum: int, frame: Any) -> None:
    global _latched
    if _latched is None:
        _latched = signum
    if not _deferring and not _finishing:
        raise KeyboardInterrupt


def finishing() -> None:
    """The command is being ended (its one line printed): further signals change nothing."""
    global _finishing
    _finishing = True


def _unraisable(hook: Any) -> Any:
    def quiet(unraisable: Any) -> None:
        # A KeyboardInterrupt raised in a __del__ or callback: the latch already holds it.
        if issubclass(unraisable.exc_type, KeyboardInterrupt) and _latched is not None:
            return
        hook(unraisable)

    return quiet


def install() -> list[int] | None:
    """Latch SIGINT and SIGTERM from now on (main thread only); returns the signals taken,
    or None when there is nothing to do.

    A signal that the parent process ignores (``SIG_IGN``: a non-interactive
    shell starts ``cmd &`` with SIGINT ignored) stays ignored, as it does for
    any program.
    """
    global _latched, _finishing
    defaults = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}
    mine = [s for s in SIGNALS if signal.getsignal(s) is defaults[s]]
    if threading.current_thread() is not threading.main_thread() or not mine:
        # a thread, every signal ignored or handled elsewhere, or ours already (python -m oddsmith)
        return None
    _latched, _finishing = None, False
    for s in mine:
        signal.signal(s, _on_signal)
    sys.unraisablehook = _unraisable(sys.unraisablehook)
    return mine


@contextlib.contextmanager
def latching() -> Iterator[None]:
    """:func:`install` for the duration of one command (as :func:`oddsmith.cli.main` runs
    in a test or a script), then Python's own handling back."""
    global _latched, _finishing
    hook = sys.unraisablehook
    mine = install()
    try:
        yield
    finally:
        if mine is not None:
            for s in mine:
                signal.signal(s, signal.default_int_handler if s == signal.SIGINT else signal.SIG_DFL)
            sys.unraisablehook = hook
            _latched, _finishing = None, False


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
def held() -> Iterator[None]:
    """Hold SIGINT back (only latch it) while a few quick steps run: cleaning up after an
    interrupt must not be cut short by the next one."""
    global _deferring
    _deferring += 1
    try:
        yield
    finally:
        _deferring -= 1


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Hold SIGINT back while a few quick steps must all happen or none (renaming output files).

    An interrupt that arrived before is raised first; one that arrives inside is raised after.
    """
    check()
    with held():
        yield
    if not _deferring:
        check()
