"""How `--help` reads: conventional metavars and whole command summaries.

typer shows option types as ``<str>``, ``<int>``, ``<list[str]>`` and required
arguments as ``{DECK}``, and cuts each command's summary in a group listing
with "...". :class:`OddsmithGroup` (the root command's class) rewrites the
whole click command tree once, before parsing, so that every command - those
added later included - shows the conventions of docs/cli-conventions.md:

* option values as TEXT, INTEGER, FLOAT, PATH, FILE (``--output``), DECK
  (``--vs``), POSSE (``--posse``, ``--vs-posse``) or ``[a|b|c]`` for a choice;
  a metavar given in the option itself wins (the Shadows commands' ``--vs``,
  a posse, says POSSE that way);
* arguments by their name in capitals (``DECK``, ``[POSSE]`` when optional,
  ``DECK...`` when repeatable), without a type after them;
* in a group's command list, the first paragraph of each command's help whole;
* output formats (``--format table|csv|json|md``) read whatever their case (``-f JSON``);
* ``--output ''`` is refused as empty, as typed (a PATH option would read it as ".", a folder).
"""
from __future__ import annotations

import enum
import pathlib
import re
from typing import Any, Callable, Iterator, Optional, get_args

from typer._click import Command, Context
from typer._coercion import build_runtime_param
from typer.core import TyperArgument, TyperGroup, TyperOption

# Metavars named after what the value is rather than its Python type.
NAMED_METAVARS = {
    "output": "FILE",
    "vs": "DECK",
    "deck": "DECK",
    "decks": "DECK",
    "posse": "POSSE",
    "vs_posse": "POSSE",
    "posse_file": "POSSE",
}
# The values of oddsmith.output.Format (not imported here: it loads pandas).
FORMAT_VALUES = ("table", "csv", "json", "md")
TYPE_METAVARS = {str: "TEXT", int: "INTEGER", float: "FLOAT", pathlib.Path: "PATH"}

# Wide enough for every summary of a command list on one line at 120+ columns;
# click still narrows the help to the terminal.
MAX_HELP_WIDTH = 120


def _base_annotation(annotation: Any) -> Any:
    """``Optional[List[int]]`` -> ``int``: the type of one value."""
    while True:
        args = [a for a in get_args(annotation) if a is not type(None)]
        if not args:
            return annotation
        annotation = args[0]


def _choice_values(choices: Any) -> list[str]:
    return [c.value if isinstance(c, enum.Enum) else str(c) for c in choices]


def option_metavar(param: TyperOption) -> Optional[str]:
    """The metavar shown for one option's value (None for a flag)."""
    if param.is_flag or param.count:
        return None
    if param.metavar is not None:
        return param.metavar
    if param.name in NAMED_METAVARS:
        return NAMED_METAVARS[param.name]
    desc = param.type_descriptor
    if desc.is_choice and desc.choices:
        return "[" + "|".join(_choice_values(desc.choices)) + "]"
    if desc.is_path or desc.is_file:
        return "PATH"
    return TYPE_METAVARS.get(_base_annotation(desc.annotation), "TEXT")


def is_format_choice(param: TyperOption) -> bool:
    """True for an option choosing one of the output formats (:class:`oddsmith.output.Format`)."""
    desc = param.type_descriptor
    return bool(desc.is_choice and desc.choices) and set(_choice_values(desc.choices)) <= set(FORMAT_VALUES)


def argument_metavar(param: TyperArgument) -> str:
    """An argument's name as shown in help: its metavar or its name in capitals, ``...`` when repeatable."""
    name = param.metavar or NAMED_METAVARS.get(param.name or "") or (param.name or "").upper()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]  # optional is shown by the usage line, not the name
    if param.nargs != 1 and not name.endswith("..."):
        name += "..."
    return name


class ConventionalArgument(TyperArgument):
    """A typer argument shown as ``DECK`` (``[DECK]`` when optional) with no ``<type>`` after it."""

    def _rich_display_name(self) -> str:
        return argument_metavar(self)

    def _usage_display_name(self) -> str:
        name = argument_metavar(self)
        return name if self.required else f"[{name}]"

    def display_type_rich(self, ctx: Context) -> Optional[str]:
        return None


class OutputOption(TyperOption):
    """``--output``: an empty value is an error while the command line is read, before a PATH
    type turns it into "." (which would be reported as a folder)."""

    def process_value(self, ctx: Context, value: Any) -> Any:
        if isinstance(value, str) and value == "":
            from oddsmith.errors import OddsmithError

            raise OddsmithError("--output is empty: give a file name ('-' for stdout)")
        return super().process_value(ctx, value)


def summary(command: Command) -> str:
    """The first paragraph of a command's help on one line (what a group lists)."""
    text = (command.help or "").strip()
    return " ".join(text.split("\n\n")[0].split())


def walk(command: Command, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Command]]:
    """Every command of the tree under ``command`` with its path of names (the root has ``()``)."""
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from walk(sub, path + (name,))


def apply_conventions(root: Command) -> None:
    """Give every option, argument and command list of the tree the conventional help form."""
    for _, command in walk(root):
        if command.short_help is None and command.help:
            command.short_help = summary(command)
        for param in command.params:
            light_check(param)
            if isinstance(param, TyperArgument) and not isinstance(param, ConventionalArgument):
                param.__class__ = ConventionalArgument
            elif isinstance(param, TyperOption):
                metavar = option_metavar(param)
                if metavar is not None:
                    param.metavar = metavar
                if param.name == "output" and type(param) is TyperOption:
                    param.__class__ = OutputOption
                if is_format_choice(param) and param.type_descriptor.parameter_info.case_sensitive:
                    param.type_descriptor.parameter_info.case_sensitive = False
                    param._runtime_param = DeferredCheck(param)  # reads the descriptor when first needed
        _light_help_option(command)


# A decimal integer as typed, which int() and typer's pydantic check read alike.
_DECIMAL = re.compile(r"-?[0-9]+", re.ASCII)


def _plain_reader(descriptor: Any) -> Optional[Callable[[Any, Context], Any]]:
    """What typer's pydantic check gives for one value (typed, or a default) of a plain str, int or Enum option,
    read here without it; None where the option has a parser or a range, or another type (a path's check builds
    its own pydantic validator).

    typer's check for these (typer._adapters.build_leaf_adapter) is ``str(value)``, pydantic's int (which reads a
    decimal as ``int`` does) and its own choice reader (typer._param_types.coerce_cli_choice), called here
    directly. A value they refuse goes to typer's check, which gives its message."""
    annotation, info = descriptor.annotation, descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None:
        return None
    try:
        from typer._param_types import coerce_cli_choice
    except ImportError:  # another typer: its own check for every value
        return None
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        choices = list(annotation)
        return lambda value, ctx: coerce_cli_choice(value, choices=choices, case_sensitive=info.case_sensitive,
                                                    ctx=ctx)
    if annotation is int and info.min is None and info.max is None and not info.clamp:
        return _integer
    if annotation is str:
        return _text
    return None


def _integer(value: Any, ctx: Context) -> int:
    if type(value) is int:  # a default
        return value
    if isinstance(value, str) and _DECIMAL.fullmatch(value):
        return int(value)
    raise ValueError(value)


def _text(value: Any, ctx: Context) -> str:
    if type(value) is str:
        return value
    raise ValueError(value)


class DeferredCheck:
    """typer checks every given value with a pydantic validator that it builds, importing
    pydantic (about 0.07 s), for each option the command line meets, even one left out
    (None) and even for --help. This stands in for it: a value left out is None (or ``()``),
    a flag's value is already True or False, one value of a plain str, int or Enum option
    (typed, or a default) is read as typer reads it (:func:`_plain_reader`), and only another
    value builds typer's own check."""

    def __init__(self, param: Any) -> None:
        self.descriptor = param.type_descriptor
        self.flag = bool(getattr(param, "is_flag", False)) and self.descriptor.annotation is bool
        self.check: Any = None
        self.plain: Any = False  # not looked for yet

    def coerce(self, value: Any, param: Any, ctx: Context) -> Any:
        if value is None:
            return () if (param.multiple or param.nargs == -1) else None
        if self.flag and isinstance(value, bool):
            return value
        if not (param.multiple or param.nargs == -1):
            if self.plain is False:
                self.plain = _plain_reader(self.descriptor)
            if self.plain is not None:
                try:
                    return self.plain(value, ctx)
                except ValueError:  # refused: typer's check says why
                    pass
        if self.check is None:
            self.check = build_runtime_param(self.descriptor)
        return self.check.coerce(value, param=param, ctx=ctx)


def light_check(param: Any) -> None:
    """Give ``param`` a :class:`DeferredCheck` (once; typer builds its own check when first needed)."""
    if getattr(param, "_runtime_param", False) is None:
        param._runtime_param = DeferredCheck(param)


def _light_help_option(command: Command) -> None:
    """click makes each command's --help option when first asked: give it a :class:`DeferredCheck` too."""
    made = command.get_help_option

    def get_help_option(ctx: Context) -> Optional[TyperOption]:
        option = made(ctx)
        if option is not None:
            light_check(option)
        return option

    if not getattr(made, "light", False):
        get_help_option.light = True  # type: ignore[attr-defined]
        command.get_help_option = get_help_option  # type: ignore[method-assign]


class OddsmithGroup(TyperGroup):
    """The root `oddsmith` group: applies :func:`apply_conventions` before it first runs (the tree is built once
    per process: ``oddsmith.cli.command``)."""

    _conventional = False

    def main(self, *args: Any, **kwargs: Any) -> Any:
        if not self._conventional:
            apply_conventions(self)
            self._conventional = True
        return super().main(*args, **kwargs)
