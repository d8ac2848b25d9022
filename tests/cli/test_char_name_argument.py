"""The `char` commands take the character's name through one declaration (stkit.cli.complete.CharacterNameArg):
the same help and completion for `char show`, `char arm`, `char check` and `char use`."""

from __future__ import annotations

import typing

from stkit.cli.char import arm as char_arm
from stkit.cli.char import commands as char
from stkit.cli.char import life as char_life
from stkit.cli.char import use as char_use
from stkit.cli.complete import CharacterNameArg, complete_character


def _name_annotation(fn) -> object:
    return typing.get_type_hints(fn, include_extras=True)["name"]


def test_one_name_argument_for_the_char_commands():
    for fn in (char.show, char_arm.arm, char_life.check, char_use.use):
        assert _name_annotation(fn) == CharacterNameArg, fn.__qualname__
    (arg,) = CharacterNameArg.__metadata__
    assert arg.autocompletion is complete_character
