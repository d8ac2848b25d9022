"""`stkit house set|show|reset`: a chronicle's house rules, stored once and applied to every roll.

The vocabulary is :mod:`stkit.dice.house`; the storage :mod:`stkit.store.house`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from stkit.cli.complete import complete_house_key, complete_house_value
from stkit.cli.options import ChronicleOpt, DbOpt, JsonOpt
from stkit.dice.house import HOUSE_KEYS, parse_house_value, setting_text, validate_house_key
from stkit.errors import InvalidValue

if TYPE_CHECKING:
    from stkit.dice.house import ChronicleRules

house_app = typer.Typer(
    help="A chronicle's house rules, set once and applied to every roll.",
    no_args_is_help=True,
)

#: Every key with its allowed values, from the one table of house rules (stkit.dice.house, pure and small).
_KEYS_HELP = ", ".join(f"{key} ({allowed})" for key, (_field, allowed) in HOUSE_KEYS.items())


def _show(rules: ChronicleRules, chronicle: str, json_out: bool) -> None:
    from stkit.cli import render  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import house_table  # lazy: start-up (loaded when the command runs)

    rows = house_table(rules)
    if json_out:
        render.print_json({"chronicle": chronicle, "rules": rows, "in_force": rules.in_force()})
        return
    from rich.text import Text  # lazy: start-up (loaded when the command runs)

    out = render.console()
    out.print(Text(f"House rules of chronicle {chronicle}", style="bold"), markup=False)
    shown = [_value_text(r, setting_text(r["value"])) for r in rows]
    width = max(len(r["key"]) for r in rows)
    values = max(map(len, shown))
    for r, value in zip(rows, shown, strict=True):
        line = Text(f"{r['key']:<{width}}  {value:<{values}}")
        line.append("  set" if r["set"] else "  as written", style="green" if r["set"] else "dim")
        out.print(line)


def _value_text(row: dict, text: str) -> str:
    """A house rule's value in the key's own words: 'yes'/'no' for a key whose allowed values are yes or
    no (``specialty-botch``), else ``text`` ('on', 'double', '7')."""
    if isinstance(row["value"], bool) and row["allowed"] == "yes or no":
        return "yes" if row["value"] else "no"
    return text


def _chronicle(chronicle: str | None) -> str:
    from stkit.config import default_chronicle  # lazy: start-up (loaded when the command runs)

    return default_chronicle(chronicle)


@house_app.command("set")
def house_set(
    key: Annotated[
        str,
        typer.Argument(help=f"The house rule: {_KEYS_HELP}.", show_default=False, autocompletion=complete_house_key),
    ],
    value: Annotated[str, typer.Argument(help="Its value.", show_default=False, autocompletion=complete_house_value)],
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set one house rule for the chronicle.

    Example: `stkit house set specialty double`, `stkit house set free-botch on`.
    """
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import set_house_rule  # lazy: start-up (loaded when the command runs)

    chron = _chronicle(chronicle)
    parse_house_value(key, value)  # refused before the store is opened (or created)
    _show(run(db, lambda gw: set_house_rule(gw, chron, key, value)), chron, json_out)


@house_app.command("show")
def house_show(chronicle: ChronicleOpt = None, db: DbOpt = None, json_out: JsonOpt = False) -> None:
    """Show the chronicle's house rules.

    A rule the chronicle has not set is the rules as written."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import rules_in_force  # lazy: start-up (loaded when the command runs)

    chron = _chronicle(chronicle)
    _show(run(db, lambda gw: rules_in_force(gw, chron), readonly=True), chron, json_out)


@house_app.command("reset")
def house_reset(
    key: Annotated[
        str | None,
        typer.Argument(help="The house rule to set back to the rules as written.", autocompletion=complete_house_key),
    ] = None,
    all_keys: Annotated[bool, typer.Option("--all", help="Set every house rule back.")] = False,
    chronicle: ChronicleOpt = None,
    db: DbOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Set a house rule back to the rules as written (or --all)."""
    from stkit.cli.common import run  # lazy: start-up (loaded when the command runs)
    from stkit.store.house import reset_house_rule  # lazy: start-up (loaded when the command runs)

    if key is None and not all_keys:
        raise InvalidValue("name the house rule to reset (e.g. `stkit house reset specialty`), or give --all")
    if key is not None and all_keys:
        raise InvalidValue(f"give either the house rule {key!r} or --all, not both")
    if key is not None:
        validate_house_key(key)
    chron = _chronicle(chronicle)
    _show(run(db, lambda gw: reset_house_rule(gw, chron, key)), chron, json_out)


def register(app: typer.Typer) -> None:
    """Add the `house` group to the root app."""
    app.add_typer(house_app, name="house")
