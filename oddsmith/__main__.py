"""``python -m oddsmith`` and the ``oddsmith`` command: :func:`oddsmith.cli.main`, with Ctrl-C
while the modules load handled as later (one line, exit status 130)."""
import gc
import os
import sys

#: The cyclic garbage collector's first threshold in the command's process (Python's default: 700).
COMMAND_GC_THRESHOLD = 50_000


def _exit(status: int, line: str | None) -> None:
    # os._exit: after an interrupt Python would otherwise end by killing itself with SIGINT
    # (status -2, not 130) when the KeyboardInterrupt passed through some C code on its way.
    if line:
        sys.stderr.write(line + "\n")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def single_threaded_blas() -> None:
    """Ask numpy's OpenBLAS for one thread, unless the user chose a number (``OPENBLAS_NUM_THREADS``).

    OpenBLAS starts a thread per core as numpy loads, and they spin for about 0.06 s of CPU waiting for work that
    oddsmith never gives them: it does no linear algebra (docs/speed.md, 'Reports'). Only the command does this,
    before anything loads numpy; a program that imports oddsmith keeps its own setting."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def collect_seldom() -> None:
    """Collect the youngest generation of cyclic garbage every 50,000 allocations, not every 700, in the command's
    process.

    Loading typer, numpy, pandas and the commands makes several hundred thousand objects that live as long as the
    process, and at Python's default the collector walks them again and again while they load: about 0.03 s of a
    report's start-up, while its second process cannot start yet (docs/speed.md, 'Reports'). A command's process
    is short, and a collection every 50,000 allocations still frees what it drops. Only the command does this; a
    program that imports oddsmith keeps its own setting."""
    gc.set_threshold(COMMAND_GC_THRESHOLD, *gc.get_threshold()[1:])


def run() -> None:
    single_threaded_blas()
    collect_seldom()
    try:
        from oddsmith import interrupts  # the standard library only: loads at once
    except KeyboardInterrupt:
        _exit(130, "oddsmith: interrupted")

    interrupts.install()  # for the whole process, its exit included
    if sys.argv[1:] == ["--version"]:  # what `oddsmith --version` prints, without loading typer and the commands
        from oddsmith import __version__

        sys.stdout.write(f"oddsmith {__version__}\n")
        _exit(0, None)
    try:
        from oddsmith.cli import main

        status = main()
        interrupts.finishing()  # the work is done and written: Ctrl-C from now on changes nothing
    except BaseException as exc:
        # Loading numpy, pandas and typer can turn the KeyboardInterrupt into another error.
        if isinstance(exc, KeyboardInterrupt) or (interrupts.interrupted() and not isinstance(exc, SystemExit)):
            _exit(interrupts.exit_status(), interrupts.message())
        raise
    # Leave without Python's shutdown, which gives SIGINT back its default action (a Ctrl-C
    # then would kill the process after its work is done and written) and takes a while.
    _exit(status, None)


if __name__ == "__main__":
    run()
