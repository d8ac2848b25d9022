"""Chronicles as a whole: the games one store holds (a community runs several from one server).

A chronicle is its name in the ``chronicle`` column of the store's tables: it exists while anything of it
is stored (a character, a house rule, a join link, a scene, a logged roll). :func:`new_chronicle` starts
one with its house rules and its Storyteller's join link; :func:`list_chronicles` and
:func:`chronicle_summary` read them; :func:`remove_chronicle` deletes everything of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from stkit.dice.house import setting_text
from stkit.errors import InvalidValue, NotFound
from stkit.store.house import house_table, rules_in_force, set_house_rule
from stkit.store.table.events import IssuedLink, issue_links, links_in_force
from stkit.text import MAX_NAME, check_text, printable

if TYPE_CHECKING:
    from stkit.store.db.gateway import Gateway

#: The tables a chronicle's rows are in (those with a ``chronicle`` column), and the rows that hang
#: from them by id, in the order :func:`remove_chronicle` deletes them (children first).
#: tests/store/test_chronicles.py checks this covers every table of the schema.
_BY_PARENT = (
    ("contest_rolls", "contest_id", "contests"),
    ("tracked_rolls", "action_id", "tracked_actions"),
    ("scene_turns", "scene_id", "scenes"),
    ("rage_spends", "scene_id", "scenes"),
    ("willpower_spends", "scene_id", "scenes"),
    ("turn_powers", "scene_id", "scenes"),
    ("character_fates", "character_id", "characters"),
)
CHRONICLE_TABLES = (
    "discord_bindings",
    "discord_claims",
    "discord_feed",
    "discord_settings",
    "free_botches",
    "table_prompts",
    "table_events",
    "table_links",
    "house_rules",
    "chronicle_moon",
    "renown_awards",
    "xp_spends",
    "roll_log",
    "contests",
    "tracked_actions",
    "scenes",
    "characters",
)
#: Tables read to find the chronicles of a store.
_FOUND_IN = ("characters", "house_rules", "table_links", "scenes", "roll_log")


@dataclass(frozen=True)
class ChronicleSummary:
    """One chronicle: its ``name``, ``characters`` (names, by name), ``house_rules`` (key -> value as
    `stkit house` shows them, only those set), ``links`` (join links in force), ``rolls`` (logged) and
    ``open_scene`` (its name, or None)."""

    name: str
    characters: list[str] = field(default_factory=list)
    house_rules: dict[str, str] = field(default_factory=dict)
    links: int = 0
    rolls: int = 0
    open_scene: str | None = None

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "characters": self.characters,
            "house_rules": self.house_rules,
            "links": self.links,
            "rolls": self.rolls,
            "open_scene": self.open_scene,
        }


def chronicle_names(gw: Gateway) -> list[str]:
    """Every chronicle of the store, sorted."""
    union = " UNION ".join(f"SELECT chronicle FROM {t}" for t in _FOUND_IN)
    return sorted(r[0] for r in gw.rows(f"SELECT DISTINCT chronicle FROM ({union}) AS found"))


def chronicle_exists(gw: Gateway, name: str) -> bool:
    return any(gw.row(f"SELECT 1 FROM {t} WHERE chronicle = :c LIMIT 1", c=name) for t in _FOUND_IN)


def require_chronicle(gw: Gateway, name: str) -> None:
    """Raises NotFound, one line naming ``name`` and the chronicles there are, when nothing of ``name``
    is stored (a mistyped ``--chronicle`` must not read as an empty chronicle)."""
    if not chronicle_exists(gw, name):
        known = chronicle_names(gw)
        there = ", ".join(printable(n) for n in known[:20]) or "none yet"
        raise NotFound(f"no chronicle {printable(name)!r} in this store (chronicles: {there})")


def chronicle_summary(gw: Gateway, name: str) -> ChronicleSummary:
    """What ``name`` holds. Raises NotFound (naming the chronicles there are) when nothing of it is stored."""
    require_chronicle(gw, name)
    chars = [r[0] for r in gw.rows("SELECT name FROM characters WHERE chronicle = :c ORDER BY name_key", c=name)]
    rules = {r["key"]: setting_text(r["value"]) for r in house_table(rules_in_force(gw, name)) if r["set"]}
    rolls = gw.row("SELECT COUNT(*) FROM roll_log WHERE chronicle = :c", c=name)
    scene = gw.row("SELECT name FROM scenes WHERE chronicle = :c AND status = :open", c=name, open="open")
    return ChronicleSummary(
        name,
        chars,
        rules,
        len(links_in_force(gw, name)),
        int(rolls[0]) if rolls else 0,
        scene[0] if scene else None,
    )


def list_chronicles(gw: Gateway) -> list[ChronicleSummary]:
    """A summary of every chronicle of the store, by name."""
    return [chronicle_summary(gw, n) for n in chronicle_names(gw)]


def new_chronicle(gw: Gateway, name: str, house: dict[str, str] | None = None) -> IssuedLink:
    """Start chronicle ``name`` (1 to MAX_NAME printable characters): its ``house`` rules (key -> value, as
    `stkit house set` takes them) and its Storyteller's join link, returned (the token is shown once).
    Raises InvalidValue for a bad name or rule, or when the chronicle already exists."""
    check_text(name, "chronicle", limit=MAX_NAME)
    if chronicle_exists(gw, name):
        raise InvalidValue(f"chronicle {printable(name)!r} already exists; see `stkit chronicle show`")
    for key, value in (house or {}).items():
        set_house_rule(gw, name, key, value)
    return issue_links(gw, name)[0]


def remove_chronicle(gw: Gateway, name: str) -> ChronicleSummary:
    """Delete everything of chronicle ``name``: characters, their logs, scenes, tracked actions,
    contests, house rules, join links (their pages stop at once) and table events. Returns what it held.
    Raises NotFound when there is no such chronicle."""
    held = chronicle_summary(gw, name)
    for child, key, parent in _BY_PARENT:
        gw.execute(f"DELETE FROM {child} WHERE {key} IN (SELECT id FROM {parent} WHERE chronicle = :c)", c=name)
    gw.execute("UPDATE tracked_actions SET scene_id = NULL WHERE chronicle = :c", c=name)
    gw.execute("UPDATE contests SET scene_id = NULL WHERE chronicle = :c", c=name)
    for table in CHRONICLE_TABLES:
        gw.execute(f"DELETE FROM {table} WHERE chronicle = :c", c=name)
    return held
