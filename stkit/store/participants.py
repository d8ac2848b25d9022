"""Who takes part in a tracked action or contest, and how one of their rolls is made and logged.

A participant is a stored character with a sheet expression ('Dexterity + Stealth'), or a bare number of
dice. Their rolls go through the character store's roll use case (so Willpower, the scene turn and the roll
log work as for any `stkit roll --char`). Also the bounds every tracked action shares (target, interval).

Rules: Chapter Five: Rules, "Extended Actions", "Resisted Actions", "Try It Out" (an opponent's Traits as
the difficulty).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import Any

from stkit import config
from stkit.dice import RollResult, parse_pool_number, validate_difficulty, validate_pool, validate_target
from stkit.dice.contest import (
    parse_interval,
)
from stkit.dice.house import NO_OVERRIDES, RuleOverrides
from stkit.errors import InvalidValue, NotFound, RuleRefusal
from stkit.sheet import traits as T
from stkit.sheet.forms import in_form
from stkit.sheet.pools import build_pool, resolve_pool_trait
from stkit.sheet.vocab import LogKind
from stkit.store.characters import CharacterRow, get_character
from stkit.store.db.gateway import Gateway
from stkit.store.rolling import Purpose, RollOrder, make_roll
from stkit.store.scenes import open_scene
from stkit.text import counted, dice_text, parse_whole_number

_NUMBER = re.compile(r"^\s*\d+\s*$", re.ASCII)
#: A difficulty typed as a number, sign included: '-5' is a number out of range, not a Trait's name.
_SIGNED_NUMBER = re.compile(r"^\s*[+-]?\s*\d+\s*$", re.ASCII)


# ------------------------------------------------------------------------------------------ participants


@dataclass(frozen=True)
class Participant:
    """Who rolls: a character and a sheet expression, or a bare number of dice (``character`` None)."""

    character: CharacterRow | None
    expression: str

    @property
    def character_id(self) -> int | None:
        return self.character.id if self.character is not None else None

    @property
    def label(self) -> str:
        return self.character.name if self.character is not None else dice_text(self.expression)


@dataclass(frozen=True)
class LogEntryRef:
    """The roll-log entry a tracked roll wrote: its id, who (``character_id`` None for a bare dice pool),
    its ``kind`` ('extended', 'contest', ...) and the scene turn it fell in (None outside a scene)."""

    id: int
    character_id: int | None
    kind: str
    scene_id: int | None
    turn: int | None


@dataclass(frozen=True)
class ParticipantRoll:
    """A roll made for a tracked action: the dice result, its roll-log entry and how the pool was built."""

    roll: RollResult
    log: LogEntryRef
    explanation: str
    participant: Participant
    extra: dict = field(default_factory=dict)
    house_in_force: tuple[str, ...] = ()  # the house rules in force for it (ChronicleRules.in_force)
    forgiven_botch: bool = False  # True when the chronicle's free botch forgave it


#: Bound of the in-game time per roll of a tracked action (the successes needed are bounded by the dice
#: engine's MAX_TARGET, so every value fits a database integer).
MAX_INTERVAL_SECONDS = 365 * 86400  # one year


def check_target(target: object) -> int:
    """``target`` if a whole number 1..MAX_TARGET; InvalidValue naming the value and the range otherwise
    (:func:`stkit.dice.validate_target`)."""
    return validate_target(target)


def check_interval(text: str) -> int:
    """The interval ``text`` ('30 min', '2 h') in seconds, 1 s to one year; InvalidValue otherwise."""
    try:
        seconds = parse_interval(text) if len(text) <= 40 else None
    except (OverflowError, ValueError) as exc:
        if isinstance(exc, InvalidValue):
            raise
        seconds = None
    if seconds is None or seconds > MAX_INTERVAL_SECONDS:
        raise InvalidValue(f"interval {text!r} is too long; allowed: 1 second to 1 year (e.g. '30 min', '365 d')")
    return seconds


def check_scene_chronicle(gw: Gateway, chronicle: str | None, who: Participant) -> None:
    """With no --chronicle given and a scene open in the default chronicle (STKIT_CHRONICLE or 'default'),
    refuse a character of another chronicle: its rolls could not be made in that scene."""
    if chronicle is not None or who.character is None:
        return
    here = config.default_chronicle(None)
    if who.character.chronicle == here:
        return
    scene = open_scene(gw, here)
    if scene is not None:
        raise RuleRefusal(
            f"{who.character.name} is a character not in the scene's chronicle: scene {scene.id} {scene.name!r} "
            f"is open in chronicle {here!r} and {who.character.name} is in {who.character.chronicle!r}; "
            f"give --chronicle {who.character.chronicle} to track it there"
        )


def _character(gw: Gateway, name: str, chronicle: str | None) -> CharacterRow:
    """The character called ``name``; when ``chronicle`` is given, refuse one that lives in another chronicle."""
    if chronicle is None:
        return get_character(gw, name, None)
    try:
        return get_character(gw, name, chronicle)
    except NotFound as missing:
        try:
            elsewhere = get_character(gw, name, None)
        except (NotFound, InvalidValue):
            raise missing from None
        raise RuleRefusal(
            f"{elsewhere.name} is in chronicle {elsewhere.chronicle!r}, not in {chronicle!r} where this takes place"
        ) from None


def numeric_pool(expression: str) -> int:
    """A pool given as a number of dice ('6'), validated; InvalidValue for anything else (trait names)."""
    if not _NUMBER.match(expression):
        raise InvalidValue(
            f"dice pool {expression!r} names traits but no character rolls it; give --char NAME, or a number of dice"
        )

    return validate_pool(parse_pool_number(expression))  # a 5,000-digit number gets the pool limit message


def participant(gw: Gateway, name_or_pool: str | None, expression: str | None, chronicle: str | None) -> Participant:
    """Resolve a side or roller: a number of dice ('6'), or a character name with a sheet expression.

    Raises InvalidValue when a character has no expression, NotFound for an unknown name, RuleRefusal for a
    character of another chronicle.
    """
    text = (name_or_pool or "").strip()
    if text and _NUMBER.match(text):
        if expression and expression.strip() != text:
            raise InvalidValue(f"{text!r} is already a number of dice; a pool expression needs a character")
        numeric_pool(text)
        return Participant(None, text)
    if not text:
        if expression is None:
            raise InvalidValue("say who rolls: a character (--char NAME) with --pool, or a number of dice")
        numeric_pool(expression)
        return Participant(None, expression.strip())
    char = _character(gw, text, chronicle)
    if not expression or not expression.strip():
        raise InvalidValue(f'{char.name} rolls from the sheet: give the pool, e.g. --pool "Stamina + Stealth"')
    return Participant(char, expression.strip())


def check_pool(gw: Gateway, who: Participant) -> tuple[int, str]:
    """The dice pool ``who`` rolls now and how it was built (sheet, form and wound penalty applied)."""
    if who.character is None:
        n = numeric_pool(who.expression)
        return n, counted(n, "die", "dice")

    built = build_pool(who.character, who.expression)
    return built.dice, built.text


def opponent_difficulty(text: str | int, opponent: Participant) -> tuple[int, str | None]:
    """A difficulty given as a number, or as the opponent's Traits plus numbers ("Wits + 3", "Intelligence +
    Expression"), as resisted rolls often set it (Chapter Five, "Resisted Actions", "Try It Out").

    Returns (difficulty, how it was worked out or None for a plain number). A worked-out difficulty is held
    within 2..10 (a difficulty is never outside that range); the opponent's form changes its Attributes.
    Raises InvalidValue for a plain number outside 2..10, an unknown Trait, or Traits of a bare dice pool.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return validate_difficulty(text), None
    t = str(text).strip()
    if _SIGNED_NUMBER.match(t):
        return parse_whole_number(t.replace(" ", ""), "difficulty", 2, 10), None
    if opponent.character is None:
        raise InvalidValue(
            f"difficulty {t!r} names Traits but the other side is a plain dice pool; give a number 2 to 10"
        )

    sheet = opponent.character.to_sheet()
    terms = re.findall(r"([+-]?)\s*([^+-]+)", t)
    if not terms or "".join(a + b for a, b in terms).replace(" ", "") != t.replace(" ", ""):
        raise InvalidValue(f"difficulty {t!r} is not a number or Traits joined by + and -")
    total, bits = 0, list[str]()
    for sign, term in terms:
        term = term.strip()
        if term.isascii() and term.isdigit():
            value, label = parse_whole_number(term, "a number added to the difficulty", 0, 10), term
        else:
            try:
                name, _ = resolve_pool_trait(sheet, term)
            except InvalidValue as exc:
                raise InvalidValue(str(exc).replace("in the dice pool", f"in the difficulty {t!r}")) from None
            value = sheet.rating(name)
            if name in T.ATTRIBUTES:
                value = in_form(sheet, name, value)
            label = f"{name} {value}"
        total += -value if sign == "-" else value
        bits.append(label if not bits else f"{'-' if sign == '-' else '+'} {label}")
    used = min(max(total, 2), 10)
    how = f"{opponent.character.name}'s {' '.join(bits)} = {total}"
    if used != total:
        how += f", held to {used} (difficulties run from 2 to 10)"
    return used, how


def roll_for(
    gw: Gateway,
    who: Participant,
    difficulty: int,
    *,
    chronicle: str,
    faces: list[int] | None,
    willpower: bool,
    rng: random.Random,
    kind: LogKind,
    overrides: RuleOverrides = NO_OVERRIDES,
) -> ParticipantRoll:
    """Roll (or count ``faces``) for ``who`` at ``difficulty`` through :func:`stkit.store.rolling.make_roll`
    (the chronicle's house rules with ``overrides`` on top, the free botch included) and write the roll-log
    entry, in the caller's transaction. A character's roll builds its pool from the sheet and spends the
    Willpower point from it (refused when none is left or already spent this turn); a bare dice pool has
    no sheet, so no Willpower (RuleRefusal), and is logged in ``chronicle``'s open scene.
    """
    validate_difficulty(difficulty)
    if who.character is None:
        numeric_pool(who.expression)
        if willpower:
            raise RuleRefusal("Willpower is spent from a character sheet; a bare dice pool has none (use --char)")
    order = RollOrder(
        who.expression,
        character=who.character.name if who.character is not None else None,
        chronicle=who.character.chronicle if who.character is not None else chronicle,
        purpose=Purpose(LogKind(kind).value),
        overrides=overrides.at_difficulty(difficulty),
        faces=tuple(faces) if faces is not None else None,
        willpower=willpower,
        log_kind=LogKind(kind),
    )
    out = make_roll(gw, order, rng=rng)
    assert out.log_id is not None  # a tracked roll is always logged
    log = LogEntryRef(out.log_id, who.character_id, kind, out.scene_id, out.turn)
    explained = out.pool.text if out.pool else counted(out.roll.pool, "die", "dice")
    return ParticipantRoll(
        out.roll, log, explained, who, house_in_force=out.house_in_force, forgiven_botch=out.forgiven_botch
    )


def faces_list(text_or_list: Any) -> list[int] | None:
    """Physical dice faces as a list (None: roll them)."""
    if text_or_list is None:
        return None
    return list(text_or_list)
