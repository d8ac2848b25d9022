"""A chronicle's house rules in the store, and the free botch's record: use cases through the SQL gateway.

The vocabulary, defaults and merging live in :mod:`stkit.dice.house`; here they are read, written and
reset per chronicle (table ``house_rules``), and a forgiven botch is recorded once per night (table
``free_botches``: the open scene, else the local calendar day). Every rolling command and the web table
call :func:`rules_in_force` (through :func:`stkit.store.rolling.make_roll` or ``odds_for``), so the same
dice never score differently by command.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from stkit.dice.house import (
    HOUSE_KEYS,
    NO_OVERRIDES,
    STANDARD_CHRONICLE_RULES,
    ChronicleRules,
    RuleOverrides,
    forgive_botch,
    parse_house_value,
    rules_from_settings,
    setting_text,
    validate_house_key,
)

if TYPE_CHECKING:
    from stkit.dice import RollResult
    from stkit.store.db.gateway import Gateway  # sqlite3: not needed by a roll without a store


def get_house_rules(gw: Gateway, chronicle: str) -> ChronicleRules:
    """The house rules stored for ``chronicle`` (the rules as written where nothing is set); read only
    through :func:`rules_in_force`."""
    rows = gw.rows("SELECT key, value FROM house_rules WHERE chronicle = :c ORDER BY key", c=chronicle)
    return rules_from_settings({r[0]: r[1] for r in rows})


def rules_in_force(gw: Gateway | None, chronicle: str, overrides: RuleOverrides = NO_OVERRIDES) -> ChronicleRules:
    """The rules one roll (or one odds answer) is made under: ``chronicle``'s house rules with this roll's
    ``overrides`` on top. ``gw`` None: there is no store yet, so the rules as written. The one reader of
    the house-rule table: every roll, every odds answer and `stkit house` come through here. Raises
    InvalidValue for --extra-ones-cancel when the specialty in force is not reroll."""
    stored = STANDARD_CHRONICLE_RULES if gw is None else get_house_rules(gw, chronicle)
    return stored.override(overrides)


def set_house_rule(gw: Gateway, chronicle: str, key: str, value: str) -> ChronicleRules:
    """Store house rule ``key`` = ``value`` for ``chronicle`` and return the rules now in force.
    Raises InvalidValue naming the allowed keys or values (nothing stored then)."""
    canonical = validate_house_key(key)
    text = setting_text(parse_house_value(canonical, value))
    now = gw.timestamp(datetime.now(UTC))
    gw.execute("DELETE FROM house_rules WHERE chronicle = :c AND key = :k", c=chronicle, k=canonical)
    gw.execute(
        "INSERT INTO house_rules (chronicle, key, value, updated_at) VALUES (:c, :k, :v, :now)",
        c=chronicle,
        k=canonical,
        v=text,
        now=now,
    )
    return rules_in_force(gw, chronicle)


def reset_house_rule(gw: Gateway, chronicle: str, key: str | None) -> ChronicleRules:
    """Back to the rules as written for ``key`` (None: every key) in ``chronicle``; returns the rules now
    in force. Raises InvalidValue for an unknown key."""
    if key is None:
        gw.execute("DELETE FROM house_rules WHERE chronicle = :c", c=chronicle)
    else:
        gw.execute("DELETE FROM house_rules WHERE chronicle = :c AND key = :k", c=chronicle, k=validate_house_key(key))
    return rules_in_force(gw, chronicle)


def house_table(rules: ChronicleRules) -> list[dict[str, Any]]:
    """One dict per key for `stkit house show`: key, value, whether the chronicle set it, allowed values."""
    values = rules.to_dict()
    return [
        {"key": key, "value": values[key], "set": key in rules.set_keys, "allowed": allowed}
        for key, (_field, allowed) in HOUSE_KEYS.items()
    ]


def night_of(gw: Gateway, chronicle: str) -> str:
    """The free botch's night: 'scene <id>' while a scene is open in ``chronicle``, else today's local
    date ('2026-12-01')."""
    row = gw.row("SELECT id FROM scenes WHERE chronicle = :c AND status = 'open'", c=chronicle)
    if row is not None:
        return f"scene {row[0]}"
    return datetime.now().astimezone().date().isoformat()


@dataclass(frozen=True)
class Forgiveness:
    """What the free botch did to a roll: the result to report, and whether the botch was forgiven
    (with the night it used up)."""

    result: RollResult
    forgiven: bool = False
    night: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"forgiven": self.forgiven, "night": self.night}


def claim_free_botch(gw: Gateway, chronicle: str, result: RollResult, rules: ChronicleRules) -> Forgiveness:
    """Under the free-botch house rule, forgive ``result`` when it is the first botch of the night in
    ``chronicle``: the result reported as a failure, the night marked used (link it to the log entry with
    :func:`link_free_botch`). Anything else comes back unchanged."""
    if not rules.free_botch or not result.botch:
        return Forgiveness(result)
    night = night_of(gw, chronicle)
    used = gw.row("SELECT 1 FROM free_botches WHERE chronicle = :c AND night = :n" + gw.lock, c=chronicle, n=night)
    if used is not None:
        return Forgiveness(result)
    gw.execute(
        "INSERT INTO free_botches (chronicle, night, log_id, created_at) VALUES (:c, :n, NULL, :now)",
        c=chronicle,
        n=night,
        now=gw.timestamp(datetime.now(UTC)),
    )
    return Forgiveness(forgive_botch(result), True, night)


def link_free_botch(gw: Gateway, chronicle: str, forgiveness: Forgiveness, log_id: int | None) -> None:
    """Point the night's forgiven botch at its roll-log entry (nothing when nothing was forgiven)."""
    if forgiveness.forgiven and log_id is not None:
        gw.execute(
            "UPDATE free_botches SET log_id = :id WHERE chronicle = :c AND night = :n",
            id=log_id,
            c=chronicle,
            n=forgiveness.night,
        )
