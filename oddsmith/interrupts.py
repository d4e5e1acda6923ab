"""Ctrl-C: one line, exit status 130, no traceback and no partial output file.

Python turns SIGINT into a ``KeyboardInterrupt`` in the main thread, but that
exception does not always reach the CLI: raised inside a ``__del__`` or a
weakref callback (matplotlib runs many) it is printed as "Exception ignored"
and dropped, and raised inside some C++ converters it comes back as another
error (matplotlib's ``ValueError: Invalid bounding box``). So while the CLI
runs, SIGINT also sets a latch that cannot be lost: the long loops and the
final rename check it (:func:`check`), and :func:`oddsmith.cli.main` reports
an interrupt whatever exception the ``KeyboardInterrupt`` became.
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
EXIT_STATUS = 130
MESSAGE = "oddsmith: interrupted"

_latched = False
_deferring = 0


def _on_sigint(signum: int, frame: Any) -> None:
    global _latched
    _latched = True
    if not _deferring:
        raise KeyboardInterrupt


def _unraisable(hook: Any) -> Any:
    def quiet(unraisable: Any) -> None:
        # A KeyboardInterrupt raised in a __del__ or callback: the latch already holds it.
        if issubclass(unraisable.exc_type, KeyboardInterrupt) and _latched:
            return
        hook(unraisable)

    return quiet


@contextlib.contextmanager
def latching() -> Iterator[None]:
    """Latch SIGINT for the duration of one command (main thread only).

    A SIGINT that the parent process ignores (``SIG_IGN``, as for ``cmd &``
    in a shell script) stays ignored, as it does for any program.
    """
    global _latched
    previous = signal.getsignal(signal.SIGINT)
    own = threading.current_thread() is threading.main_thread() and previous is signal.default_int_handler
    if not own:  # ignored, someone else's handler, or ours already (python -m oddsmith)
        yield
        return
    _latched = False
    hook = sys.unraisablehook
    signal.signal(signal.SIGINT, _on_sigint)
    sys.unraisablehook = _unraisable(hook)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        sys.unraisablehook = hook
        _latched = False


def interrupted() -> bool:
    """True once SIGINT arrived during the current command."""
    return _latched


def check() -> None:
    """Raise ``KeyboardInterrupt`` if SIGINT arrived, even if its exception was swallowed."""
    if _latched:
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
