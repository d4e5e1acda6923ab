"""`oddsmith completion SHELL`: the shell completion script for bash, zsh or fish.

The script (typer's) calls ``oddsmith`` again with ``_ODDSMITH_COMPLETE`` set
each time TAB is pressed, and :func:`oddsmith.cli.main` answers with the
commands, options and choices that fit; the start-up stays light
(docs/design.md, 'Start-up') so that answer comes at once. How to install it
is in docs/cli-conventions.md, 'Shell completion'.
"""
from __future__ import annotations

import enum

import typer

COMPLETE_VAR = "_ODDSMITH_COMPLETE"


class Shell(str, enum.Enum):
    """The shells typer writes completion scripts for."""

    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def script(shell: Shell) -> str:
    """The completion script for ``shell``, as typer writes it for the ``oddsmith`` command."""
    from typer._completion_shared import get_completion_script

    return get_completion_script(prog_name="oddsmith", complete_var=COMPLETE_VAR, shell=shell.value)


def register(app: typer.Typer) -> None:
    @app.command("completion")
    def completion(
        shell: Shell = typer.Argument(..., metavar="SHELL", help="bash, zsh or fish."),
    ) -> None:
        """Print the shell completion script for bash, zsh or fish (TAB completes commands and options).

        Install it once: in bash, put `eval "$(oddsmith completion bash)"` in ~/.bashrc; in zsh,
        `eval "$(oddsmith completion zsh)"` in ~/.zshrc after compinit; in fish,
        `oddsmith completion fish > ~/.config/fish/completions/oddsmith.fish`.
        """
        typer.echo(script(shell))
