"""``python -m oddsmith`` and the ``oddsmith`` command: :func:`oddsmith.cli.main`, with Ctrl-C
while the modules load handled as later (one line, exit status 130)."""
import os
import sys


def _exit_interrupted(status: int, line: str | None) -> None:
    # os._exit: Python would otherwise end by killing itself with SIGINT (status -2, not 130)
    # when the KeyboardInterrupt passed through some C code on its way, even though it was handled.
    if line:
        sys.stderr.write(line + "\n")
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def run() -> None:
    try:
        from oddsmith import interrupts  # the standard library only: loads at once
    except KeyboardInterrupt:
        _exit_interrupted(130, "oddsmith: interrupted")

    with interrupts.latching():
        try:
            from oddsmith.cli import main

            status = main()
        except BaseException as exc:
            # Loading numpy, pandas and typer can turn the KeyboardInterrupt into another error.
            if isinstance(exc, KeyboardInterrupt) or (interrupts.interrupted() and not isinstance(exc, SystemExit)):
                _exit_interrupted(interrupts.exit_status(), interrupts.message())
            raise
        if interrupts.interrupted():
            _exit_interrupted(status, None)
    sys.exit(status)


if __name__ == "__main__":
    run()
