"""`char use`: a Gift or a fetish used from the sheet, through the one roll use case.

A fetish is activated by the Revised rule: the character's Gnosis rolled against the fetish's Gnosis, or
one Gnosis point spent to activate it without a roll. A Gift is used by the packaged table
(``stkit/sheet/data/gift_rolls.yaml``, each Gift's pool, difficulty, cost and duration restated with its
source): its cost is spent first (Rage, Gnosis or Willpower, refused with nothing done when short), then its
pool rolled through :func:`stkit.store.rolling.make_roll` (logged like every sheet roll).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from stkit import yamlsafe
from stkit.dice.house import RuleOverrides
from stkit.errors import InvalidValue, RuleRefusal
from stkit.sheet import traits as T
from stkit.store.characters import find_character, spend
from stkit.store.rolling import Purpose, RollOrder, RollOutcome, make_roll
from stkit.text import check_range

if TYPE_CHECKING:  # pragma: no cover
    from stkit.store.db.gateway import Gateway


@cache
def power_table() -> dict[str, Any]:
    """The packaged Gift and fetish table, with its sources."""
    data: dict[str, Any] = yamlsafe.load_packaged("stkit.sheet", "gift_rolls.yaml")
    return data


@dataclass
class PowerUse:
    """What `char use` did: the power (``kind`` gift or fetish, its name), the points spent, the roll (None
    when nothing was rolled), the duration text and the difficulty rolled against."""

    character: str
    kind: str
    power: str
    spent: dict[str, int] = field(default_factory=dict)
    outcome: RollOutcome | None = None
    difficulty: int | None = None
    duration: str = ""
    summary: str = ""

    def to_dict(self) -> dict:
        roll = self.outcome.roll if self.outcome else None
        return {
            "character": self.character,
            "kind": self.kind,
            "power": self.power,
            "spent": self.spent,
            "difficulty": self.difficulty,
            "successes": roll.final_successes if roll else None,
            "outcome": roll.outcome.value if roll else None,
            "log_id": self.outcome.log_id if self.outcome else None,
            "seed": self.outcome.seed if self.outcome else None,
            "duration": self.duration,
            "summary": self.summary,
        }


def use_power(
    gw: Gateway,
    name: str,
    power: str,
    *,
    chronicle: str | None = None,
    difficulty: int | None = None,
    spend_gnosis: bool = False,
    seed: int | None = None,
    faces: tuple[int, ...] | None = None,
) -> PowerUse:
    """Use the Gift or fetish ``power`` (case and spacing folded) of the character ``name`` in the caller's
    transaction. ``difficulty`` sets a Gift's difficulty where the table leaves it to the Storyteller (and
    overrides a fixed one); ``spend_gnosis`` activates a fetish with a Gnosis point instead of a roll.
    Raises NotFound (no such character), InvalidValue (the character has no such Gift or fetish, a Gift
    stkit has no roll for, a missing difficulty or one outside 2 to 10), RuleRefusal (too few points);
    nothing is written then."""
    if difficulty is not None:
        check_range(difficulty, "difficulty", 2, 10)
    row = find_character(gw, name, chronicle)
    sheet = row.to_sheet()
    key = T.norm(power)
    fetish = next((f for f in sheet.fetishes if T.norm(f["name"]) == key), None)
    gift = next((g for g in sheet.gifts if T.norm(g["name"]) == key), None)
    if fetish is None and gift is None:
        owned = [f"fetish {f['name']}" for f in sheet.fetishes] + [f"Gift {g['name']}" for g in sheet.gifts]
        raise InvalidValue(
            f"{sheet.name} has no Gift or fetish {power!r}; has: {', '.join(owned) if owned else 'none'}"
        )
    table = power_table()
    if fetish is not None:
        use = PowerUse(sheet.name, "fetish", fetish["name"], duration="as the fetish says")
        if spend_gnosis:
            spend(gw, sheet.name, "Gnosis", 1, chronicle=row.chronicle)
            use.spent = {"Gnosis": 1}
            use.summary = f"{sheet.name} spends 1 Gnosis: {fetish['name']} activates without a roll"
            return use
        use.difficulty = int(fetish["gnosis"]) or 6
        if not 2 <= use.difficulty <= 10:
            use.difficulty = max(2, min(10, use.difficulty))
        pool = str(table["fetish"]["pool"])
        note = f"activate fetish {fetish['name']} (Gnosis {fetish['gnosis']})"
    else:
        assert gift is not None
        entry = next((v for k, v in table["gifts"].items() if T.norm(k) == key), None)
        if entry is None:
            raise InvalidValue(
                f"stkit has no roll for the Gift {gift['name']!r}; roll its pool with `stkit roll` "
                f"(Gifts stkit knows: {', '.join(table['gifts'])})"
            )
        use = PowerUse(sheet.name, "gift", gift["name"], duration=str(entry.get("duration") or ""))
        for what, n in (entry.get("cost") or {}).items():
            if sheet.powers[what].temporary < int(n):
                raise RuleRefusal(
                    f"{gift['name']} costs {n} {what}; {sheet.name} has {sheet.powers[what].temporary}; nothing used"
                )
        for what, n in (entry.get("cost") or {}).items():
            spend(gw, sheet.name, what, int(n), chronicle=row.chronicle)
            use.spent[what] = int(n)
        if not entry.get("pool"):
            paid = ", ".join(f"{n} {w}" for w, n in use.spent.items())
            use.summary = f"{sheet.name} uses {gift['name']}" + (f", spending {paid}" if paid else "")
            return use
        pool = str(entry["pool"])
        fixed = entry.get("difficulty")
        if difficulty is None and fixed is None:
            raise InvalidValue(
                f"{gift['name']}: the difficulty is {entry.get('difficulty_by') or 'set by the Storyteller'}; "
                "give --difficulty N (2 to 10)"
            )
        use.difficulty = int(difficulty if difficulty is not None else fixed)
        note = f"Gift {gift['name']}"
    if not 2 <= use.difficulty <= 10:
        raise InvalidValue(f"difficulty {use.difficulty} is outside the allowed range 2 to 10")
    order = RollOrder(
        pool,
        character=sheet.name,
        chronicle=row.chronicle,
        purpose=Purpose.sheet,
        overrides=RuleOverrides(difficulty=use.difficulty),
        seed=seed,
        faces=faces,
        note=note,
    )
    use.outcome = make_roll(gw, order)
    n = use.outcome.roll.final_successes
    paid = ", ".join(f"{n} {w}" for w, n in use.spent.items())
    use.summary = (
        f"{sheet.name} uses {use.power}: {pool} at difficulty {use.difficulty}"
        + (f", spending {paid}" if paid else "")
        + f": {n} success{'es' if n != 1 else ''} ({use.outcome.roll.outcome})"
    )
    return use
