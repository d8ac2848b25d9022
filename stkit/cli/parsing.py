"""How every stkit command reads its command line: negative numbers as values, and unknown options named
with the nearest real one.

Click reads any word starting with '-' as an option, so `stkit roll -3` used to need `--` (or to ignore
unknown options, which made a mistyped `--wilpower` blame the next word instead). The parser here reads
a word that is a negative number as a positional value, and an unknown option as a usage error (exit 2)
saying which option was probably meant. `adopt` gives a built command tree this parser; the root group
calls it on every command it hands out, so command modules need nothing special.
"""

from __future__ import annotations

import re
from difflib import get_close_matches
from typing import Any

# typer ships its own copy of click, and its commands raise and catch that copy's exceptions
from typer._click.core import Command, Context
from typer._click.exceptions import NoSuchOption
from typer._click.parser import _OptionParser, _ParsingState  # the parser Command.make_parser builds
from typer.core import TyperCommand, TyperGroup

_NEGATIVE_NUMBER = re.compile(r"-\d+(\.\d+)?")


class UnknownOption(NoSuchOption):
    """A usage error (exit 2): `no such option --wilpower; did you mean --willpower?`."""

    def __init__(self, option_name: str, known: list[str], ctx: Context | None) -> None:
        super().__init__(option_name, ctx=ctx)
        guesses = get_close_matches(option_name, known, n=3, cutoff=0.7)
        self.guesses = guesses
        text = f"no such option {option_name}"
        if guesses:
            text += "; did you mean " + " or ".join(guesses) + "?"
        self.message = text

    def format_message(self) -> str:
        return self.message


class NumberAwareParser(_OptionParser):
    """Click's option parser, except that a negative number is a value and an unknown option names the
    nearest real ones."""

    def _known(self) -> list[str]:
        return sorted(set(self._long_opt) | set(self._short_opt))

    def _process_opts(self, arg: str, state: _ParsingState) -> None:
        if _NEGATIVE_NUMBER.fullmatch(arg) and arg not in self._short_opt and arg not in self._long_opt:
            state.largs.append(arg)
            return
        try:
            super()._process_opts(arg, state)
        except NoSuchOption as exc:
            if isinstance(exc, UnknownOption):
                raise
            name = arg.split("=", 1)[0] if arg.startswith("--") else exc.option_name
            raise UnknownOption(name, self._known(), self.ctx) from None


def make_number_aware_parser(command: Command, ctx: Context) -> _OptionParser:
    """What Command.make_parser does, with a NumberAwareParser."""
    parser = NumberAwareParser(ctx)
    for param in command.get_params(ctx):
        param.add_to_parser(parser, ctx)
    return parser


_ADOPTED: dict[type, type] = {}


def _number_aware_class(cls: type) -> type:
    """A subclass of a typer command class ``cls`` reading with NumberAwareParser (groups also adopt
    the subcommands they hand out). Built once per class; a plain subclass, because Python switches an
    object's class only between classes of the same layout (a mixin base would change it)."""
    if cls not in _ADOPTED:
        namespace: dict[str, Any] = {
            "make_parser": make_number_aware_parser,
            "__doc__": f"{cls.__name__} read with stkit's NumberAwareParser.",
            "_stkit_parser": True,
        }
        if issubclass(cls, TyperGroup):

            def get_command(self: TyperGroup, ctx: Context, cmd_name: str) -> Command | None:
                return adopt(cls.get_command(self, ctx, cmd_name))

            namespace["get_command"] = get_command
        _ADOPTED[cls] = type(f"NumberAware{cls.__name__}", (cls,), namespace)
    return _ADOPTED[cls]


def adopt(command: Any) -> Any:
    """Give ``command`` (a typer command or group, or None) the number-aware parser; returns it.

    Typer's command classes and their subclasses are switched to a subclass with the same state; a
    command already reading with it, or of another kind, is returned unchanged."""
    cls = type(command)
    if getattr(cls, "_stkit_parser", False) or not issubclass(cls, (TyperCommand, TyperGroup)):
        return command
    command.__class__ = _number_aware_class(cls)
    return command
