"""The ``oddsmith`` command line.

Each area registers its commands from ``oddsmith.commands.<area>``; this
module only builds the application and turns every user error into one line
on stderr with exit status 2.
"""
from __future__ import annotations

import functools
import importlib
import os
import sys

import typer
import typer.main
from typer._click import exceptions as click_exc

from oddsmith import __version__, interrupts
from oddsmith.commands._help import MAX_HELP_WIDTH, OddsmithGroup
from oddsmith.errors import OddsmithError, shorten_quoted
from oddsmith.commands.completion import COMPLETE_VAR


app = typer.Typer(
    name="oddsmith",
    cls=OddsmithGroup,
    help="Odds for Doomtown: Weird West Edition and Dracula's America: Shadows of the West.",
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": MAX_HELP_WIDTH},
)

# Command areas, in the order their commands appear in --help.
COMMAND_MODULES = ("hand", "deck", "lowball", "odds", "sweep", "shadows", "report", "serve", "completion")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"oddsmith {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """With no command, oddsmith writes its sample report (see `oddsmith report --help`)."""
    if ctx.invoked_subcommand is None:
        default = getattr(sys.modules.get("oddsmith.commands.report"), "default_report", None)
        if default is None:
            typer.echo(ctx.get_help())
            return
        default()


def _register_all() -> None:
    for name in COMMAND_MODULES:
        module = importlib.import_module(f"oddsmith.commands.{name}")
        module.register(app)


_register_all()


@functools.cache
def command():
    """The click command tree typer builds from ``app``, built once per process: typer reads every command's
    signature and type hints to build it (about 50 ms for the whole tree), and a test run or a notebook runs
    many command lines in one process."""
    return typer.main.get_command(app)


def _fail(message: str) -> int:
    if interrupts.interrupted():  # the error is what Ctrl-C left behind: say only that
        raise KeyboardInterrupt
    # typer words a bad choice as "Value error, 'x' is not one of ..."; the prefix says nothing.
    message = shorten_quoted(" ".join(str(message).replace("Value error, ", "").split()))
    sys.stderr.write(f"oddsmith: error: {message}\n")
    return 2


def _interrupted() -> int:
    interrupts.finishing()  # a second Ctrl-C now would only break the one line
    sys.stderr.write(interrupts.message() + "\n")
    return interrupts.exit_status()


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app, map user errors to one line and exit status 2,
    and Ctrl-C at any moment to one line and exit status 130 (SIGTERM: 143)."""
    with interrupts.latching():
        try:
            rv = _main(argv)
        except KeyboardInterrupt:
            return _interrupted()
        except Exception:
            if interrupts.interrupted():  # a library turned the KeyboardInterrupt into its own error
                return _interrupted()
            raise
        # typer turns a KeyboardInterrupt into a silent exit status 130.
        if interrupts.interrupted() or rv == interrupts.EXIT_STATUS:
            return _interrupted()
        return rv


def _main(argv: list[str] | None) -> int:
    if os.environ.get(COMPLETE_VAR):  # a shell asks what TAB completes: typer's answer, in its form
        from typer._completion_classes import completion_init

        completion_init()
    try:
        rv = command()(args=argv, prog_name="oddsmith", standalone_mode=False)
    except click_exc.NoArgsIsHelpError as exc:
        sys.stdout.write(exc.format_message() + "\n")
        return 2
    except click_exc.UsageError as exc:
        return _fail(exc.format_message())
    except OddsmithError as exc:
        return _fail(str(exc))
    except click_exc.ClickException as exc:
        return _fail(exc.format_message())
    except typer.Abort:
        raise KeyboardInterrupt from None
    except BrokenPipeError:
        return 0
    return rv if isinstance(rv, int) else 0


if __name__ == "__main__":
    sys.exit(main())
