"""A chronicle's house rules: what a table changes in the dice rules, set once and applied to every roll.

Standard library only. The vocabulary (keys and allowed values), the defaults (the rules chapter as
written), per-roll overrides and the lines saying which house rules are in force. Where the values are
kept is the store's business (``stkit.store.house``); the dice engine sees only :class:`HouseRules`
plus a difficulty.

Sources: Chapter Five: Rules. "Difficulties" (6 unless the Storyteller says otherwise), "Botches"
(each 1 takes away a success), "Extended Actions" (a botch may wipe the tally or end the attempt), and
"Botches" again, which leaves the Storyteller free to soften botches that come too often: the free botch
forgives the first botch of a night (the roll counts as a plain failure, and the forgiveness is recorded).
Specialty 10s counting double or rolling again are not in the Revised chapter: house rules, off by default.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from stkit.dice.model import DEFAULT_DIFFICULTY, HouseRules, Outcome, RollResult, Specialty, validate_difficulty
from stkit.errors import InvalidValue

_ON = {"on": True, "off": False}
#: The most extra dice (or penalty dice) a player's link may add on the table page, unless the chronicle
#: says otherwise (`stkit house set table-extra-dice N`, 0..20).
DEFAULT_TABLE_EXTRA_DICE = 3
MAX_TABLE_EXTRA_DICE = 20


@dataclass(frozen=True)
class ChronicleRules:
    """The house rules of one chronicle (defaults: the rules as written).

    Attributes:
        specialty: what a 10 does on a specialised roll (none, double, reroll).
        extra_ones_cancel: with ``reroll``, a 1 on an extra die cancels a success too.
        ones_cancel: 1s cancel successes (the rule of one); off: they only make botches.
        difficulty: the difficulty of a roll that names none (2..10).
        extended_botch: what a botch does to an extended action started without saying: ``wipe`` the
            tally, or ``end`` the attempt.
        free_botch: the first botch of each scene-night is forgiven: reported as a failure, recorded.
        table_extra_dice: the most extra dice, or dice of penalty, a player may add to a roll on the
            table page (0..20); the Storyteller's screen is not bound by it. Not a dice rule: a limit on
            what a player's link may choose.
    """

    specialty: Specialty = Specialty.NONE
    extra_ones_cancel: bool = False
    ones_cancel: bool = True
    difficulty: int = DEFAULT_DIFFICULTY
    extended_botch: str = "wipe"
    free_botch: bool = False
    table_extra_dice: int = DEFAULT_TABLE_EXTRA_DICE
    #: what learning a Rite costs with `char raise`: ``level`` experience per level, or ``taught`` (none).
    rite_cost: str = "level"
    #: True when this roll named its own difficulty: then the difficulty is no house rule in force.
    difficulty_given: bool = dataclasses.field(default=False, compare=False)

    def dice_rules(self) -> HouseRules:
        """The dice engine's HouseRules (extra 1s cancel only under ``reroll``, where extra dice exist)."""
        return HouseRules(
            specialty=self.specialty,
            extra_ones_cancel=self.extra_ones_cancel and self.specialty is Specialty.REROLL,
            ones_cancel=self.ones_cancel,
        )

    def in_force(self) -> list[str]:
        """One short phrase per rule that differs from the rules as written, in key order; [] when none."""
        out = []
        if self.specialty is not Specialty.NONE:
            out.append(f"specialty {self.specialty.value}")
            if self.specialty is Specialty.REROLL and self.extra_ones_cancel:
                out.append("1s on extra dice cancel")
        if not self.ones_cancel:
            out.append("1s do not cancel successes")
        if self.difficulty != DEFAULT_DIFFICULTY and not self.difficulty_given:
            out.append(f"default difficulty {self.difficulty}")
        if self.extended_botch != "wipe":
            out.append("a botch ends extended actions")
        if self.free_botch:
            out.append("free botch")
        if self.rite_cost != "level":
            out.append("rites are taught, not bought")
        return out

    def to_dict(self) -> dict[str, Any]:
        """{key: value} with the `stkit house` keys (hyphenated) and JSON values."""
        return {
            "specialty": self.specialty.value,
            "extra-ones-cancel": self.extra_ones_cancel,
            "ones-cancel": self.ones_cancel,
            "difficulty": self.difficulty,
            "extended-botch": self.extended_botch,
            "free-botch": self.free_botch,
            "table-extra-dice": self.table_extra_dice,
            "rite-cost": self.rite_cost,
        }

    def override(
        self,
        *,
        specialty: Specialty | None = None,
        extra_ones_cancel: bool | None = None,
        ones_cancel: bool | None = None,
        difficulty: int | None = None,
        free_botch: bool | None = None,
    ) -> ChronicleRules:
        """These rules with the per-roll flags given (None: keep the chronicle's). Raises InvalidValue for
        a difficulty outside 2..10, or ``extra_ones_cancel`` when the specialty in force is not reroll
        (there are no extra dice then)."""
        if difficulty is not None:
            validate_difficulty(difficulty)
        given: dict[str, Any] = {
            "specialty": specialty,
            "extra_ones_cancel": extra_ones_cancel,
            "ones_cancel": ones_cancel,
            "difficulty": difficulty,
            "free_botch": free_botch,
        }
        out = dataclasses.replace(self, **{k: v for k, v in given.items() if v is not None})
        if difficulty is not None:
            out = dataclasses.replace(out, difficulty_given=True)
        if extra_ones_cancel and out.specialty is not Specialty.REROLL:
            raise InvalidValue("--extra-ones-cancel only applies with --specialty reroll")
        return out


STANDARD_CHRONICLE_RULES = ChronicleRules()

#: `stkit house` key -> (field of ChronicleRules, allowed values shown in messages).
HOUSE_KEYS: dict[str, tuple[str, str]] = {
    "specialty": ("specialty", "none, double or reroll"),
    "extra-ones-cancel": ("extra_ones_cancel", "on or off"),
    "ones-cancel": ("ones_cancel", "on or off"),
    "difficulty": ("difficulty", "2 to 10"),
    "extended-botch": ("extended_botch", "wipe or end"),
    "free-botch": ("free_botch", "on or off"),
    "table-extra-dice": ("table_extra_dice", f"0 to {MAX_TABLE_EXTRA_DICE}"),
    "rite-cost": ("rite_cost", "level or taught"),
}


def validate_house_key(key: str) -> str:
    """The canonical key for ``key`` (case and '_' for '-' forgiven). Raises InvalidValue naming the
    allowed keys."""
    canonical = key.strip().casefold().replace("_", "-")
    if canonical not in HOUSE_KEYS:
        raise InvalidValue(f"unknown house rule {key!r}; allowed: {', '.join(HOUSE_KEYS)}")
    return canonical


def parse_house_value(key: str, value: str) -> Any:
    """The typed value of house rule ``key`` from its text (``on``/``off``, a difficulty, a choice).
    Raises InvalidValue "house rule <key>: <value> is not allowed; allowed: ..." for anything else."""
    key = validate_house_key(key)
    text = value.strip().casefold()
    field, allowed = HOUSE_KEYS[key]

    def bad() -> InvalidValue:
        return InvalidValue(f"house rule {key}: {value!r} is not allowed; allowed: {allowed}")

    if field == "specialty":
        try:
            return Specialty(text)
        except ValueError:
            raise bad() from None
    if field == "difficulty":
        if not (text.isascii() and text.isdigit()):
            raise bad()
        return validate_difficulty(int(text))
    if field == "table_extra_dice":
        if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > MAX_TABLE_EXTRA_DICE:
            raise bad()
        return int(text)
    if field in ("extended_botch", "rite_cost"):
        if text not in {"extended_botch": ("wipe", "end"), "rite_cost": ("level", "taught")}[field]:
            raise bad()
        return text
    if text not in _ON:
        raise bad()
    return _ON[text]


def rules_from_settings(settings: dict[str, str]) -> ChronicleRules:
    """ChronicleRules from stored {key: text} pairs; an unknown or unreadable stored pair is skipped
    (a newer stkit may have written it), so reading never fails."""
    values: dict[str, Any] = {}
    for key, text in settings.items():
        try:
            values[HOUSE_KEYS[validate_house_key(key)][0]] = parse_house_value(key, text)
        except InvalidValue:
            continue
    return dataclasses.replace(STANDARD_CHRONICLE_RULES, **values)


def setting_text(value: Any) -> str:
    """How a typed house-rule value is stored and shown: 'on'/'off', '7', 'double'."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Specialty):
        return value.value
    return str(value)


def forgive_botch(result: RollResult) -> RollResult:
    """The free botch: ``result`` (a botch) reported as a failure with no successes; other results are
    returned unchanged."""
    if not result.botch:
        return result
    return dataclasses.replace(result, outcome=Outcome.FAILURE)
