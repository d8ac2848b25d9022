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
import inspect
import typing
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from stkit.dice.model import (
    DEFAULT_DIFFICULTY,
    HouseRules,
    Outcome,
    RollResult,
    ScoringRules,
    Specialty,
    Tens,
    scoring_keys,
    validate_difficulty,
)
from stkit.errors import InvalidValue
from stkit.text import parse_whole_number

#: A switch's words: on/off, and yes/no alike (every switch takes both; shown as on/off).
_ON = {"on": True, "off": False, "yes": True, "no": False}
#: The scoring rules' keys, from their one definition (:class:`stkit.dice.model.ScoringRules`).
_SCORING = scoring_keys()
#: The most extra dice (or penalty dice) a player's link may add on the table page, unless the chronicle
#: says otherwise (`stkit house set table-extra-dice N`, 0..20).
DEFAULT_TABLE_EXTRA_DICE = 3
MAX_TABLE_EXTRA_DICE = 20


@dataclass(frozen=True)
class ChronicleRules(ScoringRules):
    """The house rules of one chronicle (defaults: the rules as written): the scoring rules
    (:class:`stkit.dice.model.ScoringRules`, inherited, each with its key) and the rules below, which are
    not about how a die scores (their keys are in :data:`OTHER_KEYS`).

    Attributes:
        difficulty: the difficulty of a roll that names none (2..10).
        extended_botch: what a botch does to an extended action started without saying: ``wipe`` the
            tally, or ``end`` the attempt.
        free_botch: the first botch of each scene-night is forgiven: reported as a failure, recorded.
        unskilled_skill: a Skill the character has no dots in: ``difficulty`` +1 (the Revised text), or
            two ``dice`` fewer (another edition's reading); see :mod:`stkit.sheet.unskilled`.
        homid_aggravated_soak: a shapeshifter in Homid form may soak aggravated damage (off: the Revised
            reading, aggravated soaked in every form but Homid; on: the W20 reading). docs/combat.md.
        rage_cap: how many Rage points a turn may buy actions: ``revised`` (no more than the lower of the
            form's Dexterity and Wits), ``w20`` (half the permanent Rage, rounded up) or ``points`` (only
            the current points). docs/combat.md says which source each rests on.
        table_extra_dice: the most extra dice, or dice of penalty, a player may add to a roll on the
            table page (0..20); the Storyteller's screen is not bound by it. Not a dice rule: a limit on
            what a player's link may choose.
    """

    difficulty: int = DEFAULT_DIFFICULTY
    extended_botch: str = "wipe"
    free_botch: bool = False
    unskilled_skill: str = "difficulty"
    homid_aggravated_soak: bool = False
    rage_cap: str = "revised"
    table_extra_dice: int = DEFAULT_TABLE_EXTRA_DICE
    #: what learning a Rite costs with `char raise`: ``level`` experience per level, or ``taught`` (none).
    rite_cost: str = "level"
    #: True: a player's roll may name its own difficulty; False (as written): the Storyteller sets it
    #: (Chapter Five, "Difficulties"), so a player's roll is at the called difficulty or the default.
    player_difficulty: bool = False
    #: fight readings (:data:`FIGHT_KEYS`; docs/combat.md names each one's source): a mortal's full track under
    #: lethal or aggravated damage, ``kill`` or ``upgrade``; the frenzy modifiers of Foundry WoD20.
    mortal_overflow: str = "kill"
    frenzy_crinos: bool = False
    frenzy_auspice_moon: bool = False
    frenzy_rank: bool = False
    #: True when this roll named its own difficulty: then the difficulty is no house rule in force.
    difficulty_given: bool = dataclasses.field(default=False, compare=False)
    #: True when this roll named its own specialty rule (``--specialty``): the roll counts as specialised.
    specialty_given: bool = dataclasses.field(default=False, compare=False)
    #: The `stkit house` keys the chronicle has set (the others are the rules as written).
    set_keys: frozenset[str] = dataclasses.field(default=frozenset(), compare=False)

    def dice_rules(self, specialised: bool = False) -> HouseRules:
        """The dice engine's HouseRules for one roll: every field taken from the same-named rule here.
        ``specialised``: the roll names a specialty (``--spec``); a roll that chose its own ``--specialty``
        rule counts as specialised too. The specialty rules touch no other roll."""
        given = {f.name: getattr(self, f.name) for f in dataclasses.fields(ScoringRules)}
        return HouseRules(**given, specialised=specialised or self.specialty_given)

    def in_force(self) -> list[str]:
        """One short phrase per rule that differs from the rules as written, in key order; [] when none."""
        out = []
        for key, (name, _allowed) in HOUSE_KEYS.items():
            value = getattr(self, name)
            if value == _WRITTEN[name]:
                continue
            phrase = _phrase(self, key, value)
            if phrase:
                out.append(phrase)
        return out

    def to_dict(self) -> dict[str, Any]:
        """{key: value} with the `stkit house` keys (hyphenated) and JSON values."""
        out = {}
        for key, (name, _allowed) in HOUSE_KEYS.items():
            value = getattr(self, name)
            out[key] = value.value if isinstance(value, StrEnum) else value
        return out

    def override(self, overrides: RuleOverrides) -> ChronicleRules:
        """These rules with one roll's ``overrides`` on top (a None field keeps the chronicle's). Raises
        InvalidValue for ``extra_ones_cancel`` when the specialty in force is not reroll (there are no
        extra dice then)."""
        given = {f.name: getattr(overrides, f.name) for f in dataclasses.fields(overrides)}
        out = dataclasses.replace(self, **{k: v for k, v in given.items() if v is not None})
        if overrides.difficulty is not None:
            out = dataclasses.replace(out, difficulty_given=True)
        if overrides.specialty is not None and overrides.specialty is not Specialty.NONE:
            out = dataclasses.replace(out, specialty_given=True)
        if overrides.extra_ones_cancel and out.specialty is not Specialty.REROLL and out.tens is Tens.ONCE:
            raise InvalidValue("--extra-ones-cancel only applies with --specialty reroll")
        return out


_T = TypeVar("_T")


def _scoring_overrides(cls: type[_T]) -> type[_T]:
    """Give ``cls`` (before ``@dataclass``) one field per scoring rule of
    :class:`stkit.dice.model.ScoringRules`, same name, its type or None, default None: a roll's own choice
    of every scoring rule, generated from the rules' one definition (a new rule needs no field here)."""
    hints = typing.get_type_hints(ScoringRules)
    own = dict(inspect.get_annotations(cls))
    scoring = {f.name: hints[f.name] | None for f in dataclasses.fields(ScoringRules)}
    clash = set(own) & set(scoring)
    if clash:
        raise TypeError(f"{cls.__name__} writes scoring rules by hand: {sorted(clash)}")
    cls.__annotations__ = {**scoring, **own}
    for name in scoring:
        setattr(cls, name, None)
    return cls


@dataclass(frozen=True, kw_only=True)
@_scoring_overrides
class RuleOverrides:
    """One roll's own choices on top of the chronicle's house rules; each field None keeps the chronicle's
    setting. Keyword arguments only.

    Attributes:
        one per scoring rule (generated from :class:`stkit.dice.model.ScoringRules`: ``specialty``,
            ``extra_ones_cancel``, ``ones_cancel``, ``tens``, ``tens_cancel_ones``, ``specialty_botch``,
            ``willpower``, ...): that rule's value for this roll, or None. A value may be given as one of
            the rule's words ('explode', 'on'); it is kept as the rule's value.
        difficulty: this roll's difficulty (2..10), or None for the chronicle's default.
        free_botch: whether the night's first botch is forgiven, or None.

    Raises InvalidValue for a difficulty outside 2..10 or a value no rule takes; TypeError for an unknown
    keyword.
    """

    difficulty: int | None = None
    free_botch: bool | None = None

    if TYPE_CHECKING:
        # the scoring rules' fields are generated (:func:`_scoring_overrides`); typed for mypy as Any
        def __init__(
            self, *, difficulty: int | None = None, free_botch: bool | None = None, **scoring: Any
        ) -> None: ...

        def __getattr__(self, name: str) -> Any: ...

    def __post_init__(self) -> None:
        if self.difficulty is not None:
            validate_difficulty(self.difficulty)
        for name, rule in _SCORING.values():
            value = getattr(self, name)
            if value is None:
                continue
            words = dict(rule.words)
            if isinstance(value, str) and not isinstance(value, StrEnum) and value.casefold() in words:
                object.__setattr__(self, name, words[value.casefold()])
            elif (isinstance(value, str) and not isinstance(value, StrEnum)) or value not in rule.values:
                raise InvalidValue(f"{name} {value!r} is not allowed; allowed: {rule.allowed}")

    def at_difficulty(self, difficulty: int | None) -> RuleOverrides:
        """These overrides with ``difficulty`` (None: keep this one's)."""
        return self if difficulty is None else dataclasses.replace(self, difficulty=difficulty)

    @classmethod
    def of(cls, rules: HouseRules, difficulty: int | None = None) -> RuleOverrides:
        """Overrides that give exactly the dice rules ``rules`` at ``difficulty`` (the free botch left to
        the chronicle)."""
        return cls(difficulty=difficulty, **{f.name: getattr(rules, f.name) for f in dataclasses.fields(ScoringRules)})


#: No per-roll choice: the chronicle's house rules as they stand.
NO_OVERRIDES = RuleOverrides()


STANDARD_CHRONICLE_RULES = ChronicleRules()

#: The rules as written, field by field (what :meth:`ChronicleRules.in_force` leaves out).
_WRITTEN = {f.name: f.default for f in dataclasses.fields(ChronicleRules)}
#: How a rule in force that is not a scoring rule is said, where its key and value would not say it well
#: (others: 'KEY VALUE'; None: not said on a roll). The scoring rules say themselves (``RuleKey.phrase``).
_PHRASES: dict[str, Any] = {
    "difficulty": lambda rules, v: None if rules.difficulty_given else f"default difficulty {v}",
    "extended-botch": lambda rules, v: "a botch ends extended actions",
    "free-botch": lambda rules, v: "free botch",
    "unskilled-skill": lambda rules, v: "untrained Skills lose two dice",
    "homid-aggravated-soak": lambda rules, v: "aggravated soaked in Homid",
    "rage-cap": lambda rules, v: f"Rage cap {v}",
    "table-extra-dice": lambda rules, v: None,  # a limit on a player's link, not a dice rule
    "rite-cost": lambda rules, v: "rites are taught, not bought",
    "player-difficulty": lambda rules, v: None,  # who may choose the difficulty, not a dice rule
}


def _phrase(rules: ChronicleRules, key: str, value: Any) -> str | None:
    """How house rule ``key`` at ``value`` (not the rules as written) is said on a roll; None: not said."""
    if key in _SCORING:
        if key == "extra-ones-cancel" and not (rules.specialty is Specialty.REROLL or rules.tens is not Tens.ONCE):
            return None  # no extra dice, so nothing for their 1s to do
        rule = _SCORING[key][1]
        return rule.phrase.format(rule.text(value)) if rule.phrase else f"{key} {rule.text(value)}"
    return _PHRASES[key](rules, value) if key in _PHRASES else f"{key} {setting_text(value)}"


#: The readings of the Rage cap (`stkit house set rage-cap ...`).
RAGE_CAP_READINGS = ("revised", "w20", "points")


#: The house keys that are not scoring rules: `stkit house` key -> (field of ChronicleRules, allowed values
#: shown in messages). A new such rule is a field of ChronicleRules and a row here (its words in
#: _CHOICES, its phrase in _PHRASES when 'KEY VALUE' would not say it well).
OTHER_KEYS: dict[str, tuple[str, str]] = {
    "difficulty": ("difficulty", "2 to 10"),
    "extended-botch": ("extended_botch", "wipe or end"),
    "free-botch": ("free_botch", "on or off"),
    "unskilled-skill": ("unskilled_skill", "difficulty or dice"),
    "homid-aggravated-soak": ("homid_aggravated_soak", "on or off"),
    "rage-cap": ("rage_cap", "revised, w20 or points"),
    "table-extra-dice": ("table_extra_dice", f"0 to {MAX_TABLE_EXTRA_DICE}"),
    "rite-cost": ("rite_cost", "level or taught"),
    "player-difficulty": ("player_difficulty", "on or off"),
}

#: Every `stkit house` key -> (field of ChronicleRules, allowed values shown in messages): the scoring rules
#: (generated from :class:`stkit.dice.model.ScoringRules`), then :data:`OTHER_KEYS`.
HOUSE_KEYS: dict[str, tuple[str, str]] = {
    **{key: (name, rule.allowed) for key, (name, rule) in _SCORING.items()},
    **OTHER_KEYS,
}

#: The house keys that change what a die or a pool scores (:mod:`stkit.dice.score`), with every value each
#: may take, generated from :class:`stkit.dice.model.ScoringRules`: the every-door and brute-force tests
#: are generated from this table.
SCORING_KEYS: dict[str, tuple[Any, ...]] = {key: rule.values for key, (_name, rule) in _SCORING.items()}

#: The house rules whose value is one of a few words (field -> the words).
_CHOICES: dict[str, tuple[str, ...]] = {
    "extended_botch": ("wipe", "end"),
    "unskilled_skill": ("difficulty", "dice"),
    "rite_cost": ("level", "taught"),
    "rage_cap": RAGE_CAP_READINGS,
}


#: Fight readings where the sources disagree (no dice scoring): `stkit house` key -> (field, allowed values).
#: ``mortal-overflow``: a mortal whose seven levels are full takes lethal or aggravated damage: ``kill`` (the
#: default; docs/combat.md, "Wounds past Incapacitated", after vwh-rp.com and the Winter Games wiki) or
#: ``upgrade``, each such level turning a lighter box into its kind first and killing only with nothing left to
#: turn (docs/characters.md's health-track reading). ``frenzy-crinos``, ``frenzy-auspice-moon``: the Rage
#: roll's difficulty is one lower in Crinos, or under the auspice's own moon (once, not twice, when both
#: apply); ``frenzy-rank``: a frenzy takes 5 successes at Rank 5 and 6 at Rank 6 (JohanFalt/Foundry_WoD20,
#: module/dialogs/dialog-checkfrenzy.js); the Revised frenzy text (pp. 190-191, as transcribed on the
#: Beyond the Mask forum) states none of them, so all three are off by default.
FIGHT_KEYS: dict[str, tuple[str, str]] = {
    "mortal-overflow": ("mortal_overflow", "kill or upgrade"),
    "frenzy-crinos": ("frenzy_crinos", "on or off"),
    "frenzy-auspice-moon": ("frenzy_auspice_moon", "on or off"),
    "frenzy-rank": ("frenzy_rank", "on or off"),
}
HOUSE_KEYS.update(FIGHT_KEYS)
_CHOICES["mortal_overflow"] = ("kill", "upgrade")
_PHRASES.update(
    {
        "mortal-overflow": lambda rules, v: "a mortal's full track turns boxes before dying",
        "frenzy-crinos": lambda rules, v: "frenzy one easier in Crinos",
        "frenzy-auspice-moon": lambda rules, v: "frenzy one easier under the auspice's moon",
        "frenzy-rank": lambda rules, v: "frenzy needs 5 at Rank 5, 6 at Rank 6",
    }
)


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

    if key in _SCORING:
        words = dict(_SCORING[key][1].words)
        if text in ("yes", "no") and {"on", "off"} <= words.keys():  # a switch's other words
            text = "on" if text == "yes" else "off"
        if text not in words:
            raise bad()
        return words[text]
    if field == "difficulty":
        if not (text.isascii() and text.isdigit()):
            raise bad()
        return validate_difficulty(parse_whole_number(text, f"house rule {key}", 2, 10))
    if field == "table_extra_dice":
        if not (text.isascii() and text.isdigit()) or len(text) > 2 or int(text) > MAX_TABLE_EXTRA_DICE:
            raise bad()
        return int(text)
    if field in _CHOICES:
        if text not in _CHOICES[field]:
            raise bad()
        return text
    if text not in _ON:
        raise bad()
    return _ON[text]


def rules_from_settings(settings: dict[str, str]) -> ChronicleRules:
    """ChronicleRules from stored {key: text} pairs; an unknown or unreadable stored pair is skipped
    (a newer stkit may have written it), so reading never fails."""
    values: dict[str, Any] = {}
    keys: set[str] = set()
    for key, text in settings.items():
        try:
            values[HOUSE_KEYS[validate_house_key(key)][0]] = parse_house_value(key, text)
        except InvalidValue:
            continue
        keys.add(validate_house_key(key))
    return dataclasses.replace(STANDARD_CHRONICLE_RULES, **values, set_keys=frozenset(keys))


def setting_text(value: Any) -> str:
    """How a typed house-rule value is stored and shown: 'on'/'off', '7', 'double'."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, StrEnum):
        return value.value
    return str(value)


def forgive_botch(result: RollResult) -> RollResult:
    """The free botch: ``result`` (a botch) reported as a failure with no successes; other results are
    returned unchanged."""
    if not result.botch:
        return result
    return dataclasses.replace(result, outcome=Outcome.FAILURE)
