"""Saved rolls: a named pool kept on a character's sheet ("claws": Dexterity + Brawl, difficulty 6, with
the specialty), rolled by name from the command line, the shell and the table page.

They live in the sheet (``Sheet.saved_rolls``), so they travel with the character's file and every export
(``saved_rolls:`` in the YAML / JSON shape, see docs/characters.md). Saving checks the pool against the
sheet (:func:`stkit.sheet.pools.build_pool`); rolling goes through the one roll use case
(:func:`stkit.store.rolling.make_roll`), so Willpower, try
again, the wound penalty, the form and the house rules apply exactly as for a typed pool. Each change
writes its ``sheet`` table event (through :func:`stkit.store.characters.edit_character`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from stkit.dice.expr import check_typed_pool
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet.pools import build_pool
from stkit.sheet.sheet import Sheet, check_saved_roll
from stkit.store.characters import Edit, edit_character, find_character
from stkit.store.db.gateway import Gateway
from stkit.store.rolling import Purpose, RollOrder, RollOutcome, make_roll
from stkit.text import find_by_prefix, fold_name

#: The most saved rolls one sheet keeps.
MAX_SAVED = 40


@dataclass(frozen=True)
class SavedRoll:
    """One saved roll: ``name``, ``pool`` (pool text), ``difficulty`` (2..10), ``spec`` (uses a specialty)."""

    name: str
    pool: str
    difficulty: int = 6
    spec: bool = False
    #: True when saving it replaced an earlier saved roll of the same name (not part of the roll).
    replaced: bool = field(default=False, compare=False)

    def to_dict(self) -> dict:
        return {"name": self.name, "pool": self.pool, "difficulty": self.difficulty, "spec": self.spec}

    @property
    def label(self) -> str:
        """'claws: Dexterity + Brawl, difficulty 6, specialty'."""
        return f"{self.name}: {self.pool}, difficulty {self.difficulty}" + (", specialty" if self.spec else "")


def saved_rolls(sheet: Sheet) -> list[SavedRoll]:
    """The sheet's saved rolls, by name (case-folded order)."""
    return [
        SavedRoll(n, e["pool"], e["difficulty"], e["spec"])
        for n, e in sorted(sheet.saved_rolls.items(), key=lambda kv: fold_name(kv[0]))
    ]


def find_saved(sheet: Sheet, name: str) -> SavedRoll:
    """The saved roll called ``name`` (case and accents ignored, or a prefix only one has); NotFound
    listing the sheet's saved rolls otherwise."""

    rolls = {r.name: r for r in saved_rolls(sheet)}
    typed = (name or "").strip()
    exact = [r for n, r in rolls.items() if fold_name(n) == fold_name(typed)]
    if exact:
        return exact[0]
    found = find_by_prefix(typed, list(rolls), "saved roll") if typed else None
    if found is None:
        have = ", ".join(rolls) or "none yet; save one with: stkit saved add NAME POOL -c CHARACTER"
        raise NotFound(f"{sheet.name} has no saved roll {typed[:40]!r}; saved rolls: {have}")
    return rolls[found]


def save_roll(
    gw: Gateway,
    character: str,
    name: str,
    pool: str,
    *,
    difficulty: int = 6,
    spec: bool = False,
    chronicle: str | None = None,
    replace: bool = True,
) -> SavedRoll:
    """Save (or replace) the roll ``name`` on ``character``'s sheet. With ``replace`` False an earlier
    saved roll of that name is refused (InvalidValue naming ``--force``); the result's ``replaced`` says
    whether one was replaced. The pool must build from the sheet
    (InvalidValue / RuleRefusal from :func:`stkit.sheet.pools.build_pool` otherwise, except "no dice left",
    which is the sheet's state, not the pool's); a ``spec`` roll needs a specialty on one of its Traits.
    Raises NotFound, InvalidValue; writes nothing then."""

    check_typed_pool(pool, "saved roll pool")  # '-5' or '0' never builds a roll
    replaced: list[str] = []
    clean, entry = check_saved_roll(name, {"pool": pool, "difficulty": difficulty, "spec": spec})

    def change(s: Sheet) -> Edit:
        try:
            built = build_pool(s, entry["pool"])
        except RuleRefusal:
            built = None  # Incapacitated or no dice left today: the pool itself is sound
        if entry["spec"] and built is not None and not any(p.name in s.specialties for p in built.parts):
            raise InvalidValue(
                f"{entry['pool']!r} has no Trait with a specialty on {s.name}'s sheet; save it without --spec"
            )
        for old in list(s.saved_rolls):
            if fold_name(old) == fold_name(clean):
                if not replace:
                    raise InvalidValue(
                        f"{s.name} already has a saved roll {old!r} ({s.saved_rolls[old]['pool']}); "
                        "add --force to replace it"
                    )
                del s.saved_rolls[old]
                replaced.append(old)
        if len(s.saved_rolls) >= MAX_SAVED:
            raise InvalidValue(f"{s.name} already has {MAX_SAVED} saved rolls; remove one first")
        s.saved_rolls[clean] = entry
        return Edit(s, f"{s.name}: saved roll {clean} = {entry['pool']}", [], {"saved_roll": {"name": clean, **entry}})

    edit_character(gw, character, chronicle, change)
    return SavedRoll(clean, entry["pool"], entry["difficulty"], entry["spec"], replaced=bool(replaced))


def remove_saved(gw: Gateway, character: str, name: str, *, chronicle: str | None = None) -> SavedRoll:
    """Remove the saved roll ``name``; NotFound when the sheet has none by that name."""
    removed: list[SavedRoll] = []

    def change(s: Sheet) -> Edit:
        roll = find_saved(s, name)
        del s.saved_rolls[roll.name]
        removed.append(roll)
        return Edit(s, f"{s.name}: saved roll {roll.name} removed", [], {"removed": roll.name})

    edit_character(gw, character, chronicle, change)
    return removed[0]


def list_saved(gw: Gateway, character: str, *, chronicle: str | None = None) -> tuple[str, list[SavedRoll]]:
    """(the character's name, its saved rolls)."""
    row = find_character(gw, character, chronicle)
    return row.name, saved_rolls(row.to_sheet())


def roll_saved(
    gw: Gateway,
    character: str,
    name: str,
    *,
    chronicle: str | None = None,
    extra: int = 0,
    difficulty: int | None = None,
    spec: bool | None = None,
    willpower: bool = False,
    seed: int | None = None,
    secret: bool = False,
    task: str | None = None,
    rng: random.Random | None = None,
    by_player: bool = False,
    overrides: RuleOverrides = NO_OVERRIDES,
) -> RollOutcome:
    """Roll the saved roll ``name`` of ``character`` through :func:`stkit.store.rolling.make_roll`: its
    pool with ``extra`` dice added (taken off when negative), at ``difficulty`` (2..10; None: the saved
    one), with the saved specialty unless ``spec`` says otherwise. ``rng``: a generator already made in
    this transaction (None: one from ``seed``); ``by_player``: rolled from a player's link (see
    :class:`stkit.store.rolling.RollOrder`; the saved difficulty is the preset one); ``overrides``: the
    roll's own house-rule choices (its difficulty is ``difficulty``). Returns the roll's
    outcome; raises what make_roll raises,
    and NotFound for an unknown saved roll."""
    row = find_character(gw, character, chronicle)
    roll = find_saved(row.to_sheet(), name)
    pool = roll.pool + (f" + {extra}" if extra > 0 else f" - {-extra}" if extra < 0 else "")
    order = RollOrder(
        pool,
        character=row.name,
        chronicle=row.chronicle,
        purpose=Purpose.sheet,
        overrides=overrides.at_difficulty(difficulty),
        preset_difficulty=roll.difficulty,
        seed=seed,
        willpower=willpower,
        task=task,
        secret=secret,
        spec=roll.spec if spec is None else spec,
        by_player=by_player,
    )
    return make_roll(gw, order, rng=rng)
