"""Frozen data for the Storyteller dice rules (Chapter Five: Rules).

Standard library only: no I/O, no globals beyond constants.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any

from stkit.errors import InvalidValue
from stkit.text import check_range

#: Difficulties run from 2 to 10 (Chapter Five, "Difficulties"); the default is 6.
MIN_DIFFICULTY = 2
MAX_DIFFICULTY = 10
DEFAULT_DIFFICULTY = 6
#: stkit's own bound on a dice pool, so that a typo (50000) does not hang a roll or an exact odds query.
MAX_POOL = 1000
#: stkit's own bound on the successes an extended action or contest collects (Chapter Five, "Extended
#: Actions"), so that every tally fits a database integer. The exact odds engine solves a smaller range
#: (``stkit.dice.odds.MAX_EXACT_TARGET``) and says so for a target above it.
MAX_TARGET = 1000


class Outcome(StrEnum):
    """What a roll comes to: at least one success, none, or none with a 1 showing (Chapter Five, "Botches")."""

    SUCCESS = "success"
    FAILURE = "failure"
    BOTCH = "botch"


class Degree(StrEnum):
    """How well a success went (Chapter Five, "Difficulties"): 1-2 marginal, 3-4 complete, 5+ momentous."""

    MARGINAL = "marginal"
    COMPLETE = "complete"
    MOMENTOUS = "momentous"

    @classmethod
    def of(cls, successes: int) -> Degree | None:
        """The degree of a final result of ``successes`` (>= 0); None for zero."""
        if successes <= 0:
            return None
        if successes <= 2:
            return cls.MARGINAL
        if successes <= 4:
            return cls.COMPLETE
        return cls.MOMENTOUS


class Specialty(StrEnum):
    """House rules for a 10 on a specialised roll. Neither is in the Revised rules chapter; both are opt-in.

    - ``none``: a 10 is one success, as the rules chapter says.
    - ``double``: a 10 counts two successes (20th-anniversary style).
    - ``reroll``: each 10 rolls one extra die, which must itself reach the difficulty and may roll 10 again.
    """

    NONE = "none"
    DOUBLE = "double"
    REROLL = "reroll"


class Tens(StrEnum):
    """House rule on 10s for every roll (not in the Revised chapter; sources in docs/dice.md).

    - ``once``: a 10 is a die like any other (the rules as written).
    - ``explode``: every 10 rolls one more die, again while 10s come up (the Foundry WoD20 tracker, #577).
    - ``explode-unspecialised``: 10s explode only on a roll without a specialty (the Foundry WoD20 tracker, #1422).
    """

    ONCE = "once"
    EXPLODE = "explode"
    EXPLODE_UNSPECIALISED = "explode-unspecialised"


class WillpowerRule(StrEnum):
    """What a Willpower point buys on a roll: ``success`` (one success no 1 cancels: Chapter Five,
    "Automatic Successes") or ``three-dice`` (three more dice and no botch: the Foundry WoD20 tracker, #1089)."""

    SUCCESS = "success"
    THREE_DICE = "three-dice"


#: The metadata key under which a scoring rule's field carries its :class:`RuleKey`.
RULE = "stkit.rule"


@dataclass(frozen=True)
class RuleKey:
    """How one scoring rule is named and written: its `stkit house` key, the words it may be set to (text
    -> value, the first word of each value is how it is shown and stored), a short help line, how the
    rule in force is said on a roll ('10s explode'; "" for 'KEY VALUE'), and the per-roll option
    (``--tens``; "" for none of the shared bundle, the rule having flags of its own)."""

    key: str
    words: tuple[tuple[str, object], ...]
    help: str
    phrase: str = ""
    option: str | None = None

    @property
    def values(self) -> tuple[object, ...]:
        """Every value the rule may take, in table order, each once."""
        return tuple(dict.fromkeys(v for _, v in self.words))

    def text(self, value: object) -> str:
        """How ``value`` is written ('on', 'yes', 'explode')."""
        return next(t for t, v in self.words if v == value)

    @property
    def allowed(self) -> str:
        """'a, b or c': the words shown in messages (one per value)."""
        shown = [self.text(v) for v in self.values]
        return ", ".join(shown[:-1]) + f" or {shown[-1]}" if len(shown) > 1 else shown[0]


_ON_OFF = (("on", True), ("off", False))


def _rule(key: str, words: tuple[tuple[str, object], ...], help: str, **more: str | None) -> dict[str, RuleKey]:
    """A scoring rule field's metadata: its :class:`RuleKey`."""
    return {RULE: RuleKey(key, words, help, **more)}  # type: ignore[arg-type]


@dataclass(frozen=True)
class ScoringRules:
    """The house rules that change what a die or a pool scores, each field ONE definition of its rule: the
    field's default is the rules as written, its metadata (:class:`RuleKey`) its `stkit house` key, words,
    help and per-roll option. The key table (:data:`stkit.dice.house.HOUSE_KEYS`, ``SCORING_KEYS``), the
    chronicle's rules (:class:`stkit.dice.house.ChronicleRules` inherits these fields), a roll's own choices
    (:class:`stkit.dice.house.RuleOverrides`, one None-default field each), the per-roll
    option bundle and the docs table are all read from here; what a field does to a face is decided in
    :func:`stkit.dice.score.score_face`. A new scoring rule is a field here, its reading in the score, and
    its line in docs/dice.md and docs/quick.md."""

    specialty: Specialty = field(
        default=Specialty.NONE,
        metadata=_rule(
            "specialty",
            tuple((s.value, s) for s in Specialty),
            "none, double (a 10 counts two successes), reroll (each 10 rolls one more die) on a specialised roll",
            phrase="specialty {}",
            option="",
        ),
    )
    extra_ones_cancel: bool = field(
        default=False,
        metadata=_rule(
            "extra-ones-cancel",
            _ON_OFF,
            "with extra dice (reroll, exploding 10s), a 1 on an extra die cancels a success too",
            phrase="1s on extra dice cancel",
            option="",
        ),
    )
    ones_cancel: bool = field(
        default=True,
        metadata=_rule(
            "ones-cancel",
            _ON_OFF,
            "whether 1s cancel successes (they always botch a roll with no success)",
            phrase="1s do not cancel successes",
            option="",
        ),
    )
    tens: Tens = field(
        default=Tens.ONCE,
        metadata=_rule(
            "tens",
            tuple((t.value, t) for t in Tens),
            "once (as written), explode (every 10 rolls one more die), explode-unspecialised (explode without a "
            "specialty only)",
            phrase="10s {}",  # '10s explode', '10s explode-unspecialised'
            option="--tens",
        ),
    )
    tens_cancel_ones: bool = field(
        default=False,
        metadata=_rule(
            "tens-cancel-ones",
            _ON_OFF,
            "each 10 takes away one 1 before the 1s cancel successes (the 10 keeps its success)",
            phrase="10s cancel 1s",
            option="--tens-cancel-ones/--no-tens-cancel-ones",
        ),
    )
    specialty_botch: bool = field(
        default=True,
        metadata=_rule(
            "specialty-botch",
            (("yes", True), ("no", False), ("on", True), ("off", False)),
            "whether a roll naming a specialty may botch",
            phrase="no botch with a specialty",
            option="--specialty-botch/--no-specialty-botch",
        ),
    )
    willpower: WillpowerRule = field(
        default=WillpowerRule.SUCCESS,
        metadata=_rule(
            "willpower",
            tuple((w.value, w) for w in WillpowerRule),
            "success (one success no 1 cancels) or three-dice (three more dice and no botch)",
            phrase="Willpower buys three dice",
            option="--willpower-rule",
        ),
    )


def scoring_keys() -> dict[str, tuple[str, RuleKey]]:
    """{house key: (field name, its RuleKey)} for every scoring rule, in table order."""
    return {f.metadata[RULE].key: (f.name, f.metadata[RULE]) for f in fields(ScoringRules)}


@dataclass(frozen=True, eq=False)
class HouseRules(ScoringRules):
    """The rules one roll is scored under: the scoring rules (:class:`ScoringRules`, the rules chapter as
    written by default) and whether the roll names a specialty. What each field does to a face is decided
    in one place, :func:`stkit.dice.score.score_face`.

    Attributes (beside the scoring rules, whose sources are in docs/dice.md):
        specialised: the roll names a specialty (``specialty``, ``specialty_botch`` and
            ``explode-unspecialised`` read it). True by default, so that a bare ``specialty`` given to
            the engine applies; the store passes False unless the roll names one. Kept as given (a roll's
            JSON reports it truthfully); equality and hashing read it only when a rule does.
    """

    specialised: bool = True

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HouseRules:
        """The rules of a roll's ``house_rules`` dict (:meth:`RollResult.to_dict`); a missing key is the rule
        as written. Raises ValueError for a value no rule takes."""
        given = {f.name: data[f.name] for f in fields(cls) if f.name in data}
        return cls(**given)

    def to_dict(self) -> dict[str, Any]:
        """{field: JSON value} of every rule, ``specialised`` included."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: v.value if isinstance(v, StrEnum) else v for k, v in values.items()}

    def __post_init__(self) -> None:
        for f in fields(ScoringRules):  # a rule given by its word ('explode') is kept as its value
            kind = type(f.metadata[RULE].values[0])
            if issubclass(kind, StrEnum):
                object.__setattr__(self, f.name, kind(getattr(self, f.name)))
        if self.specialty is not Specialty.REROLL and self.tens is Tens.ONCE:
            object.__setattr__(self, "extra_ones_cancel", False)  # no extra dice, so no extra 1s

    @property
    def reads_specialty(self) -> bool:
        """True when some rule here scores a specialised roll differently from another."""
        return (
            self.specialty is not Specialty.NONE or self.tens is Tens.EXPLODE_UNSPECIALISED or not self.specialty_botch
        )

    def _key(self) -> tuple[object, ...]:
        # one value for rules that score alike, whatever the roll names (equality, caches)
        scoring = tuple(getattr(self, f.name) for f in fields(ScoringRules))
        return (*scoring, self.specialised or not self.reads_specialty)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HouseRules):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    @property
    def explodes(self) -> bool:
        """True when a 10 brings one more die: the ``reroll`` specialty on a specialised roll, ``tens``
        ``explode``, or ``explode-unspecialised`` on a roll without a specialty. The score reads it here."""
        if self.specialised and self.specialty is Specialty.REROLL:
            return True
        if self.tens is Tens.EXPLODE:
            return True
        return self.tens is Tens.EXPLODE_UNSPECIALISED and not self.specialised

    @property
    def is_standard(self) -> bool:
        """True when no house rule is on."""
        return self == STANDARD_RULES


STANDARD_RULES = HouseRules()


@dataclass(frozen=True)
class RollResult:
    """One dice pool rolled (or counted) against one difficulty.

    Attributes:
        pool: dice in the pool (1..MAX_POOL); 0 only for an automatic success, where nothing is rolled.
        difficulty: the difficulty actually used (2..10), after any try-again raise.
        dice: faces 1..10 in roll order; the pool's dice first, then any extra dice a ``reroll`` specialty
            added (so ``dice[pool:]`` are the extra dice).
        successes_rolled: successes the dice show before the rule of one: dice at or above the
            difficulty, a 10 counting 2 under ``double``; 0 or more. The ``--json`` key is ``successes``.
        ones: the 1s that the rule of one applies to (pool dice, plus extra dice when ``extra_ones_cancel``).
        net: ``successes_rolled - ones``, or ``successes_rolled`` when ones do not cancel; may be negative.
        final_successes: successes the roll finally yields: ``max(net, 0)``, plus 1 for Willpower (1 for
            an automatic success); 0 or more. The ``--json`` key is ``result``.
        outcome: success when ``final_successes >= 1``; botch when no die reached the difficulty, a 1
            showed and no Willpower was spent; failure otherwise.
        degree: the degree of ``final_successes`` (None when it is 0).
        willpower: a Willpower point bought one success that 1s cannot cancel.
        automatic: an automatic success, taken without rolling.
        base_difficulty: the difficulty before a try-again raise.
        retry: which retry of a failed task this is (0 for the first attempt).
        rules: the house rules in force.
        automatic_successes: successes given without dice (``--successes N``, ``+Ns``), counted in ``net``.
    """

    pool: int
    difficulty: int
    dice: tuple[int, ...]
    successes_rolled: int
    ones: int
    net: int
    final_successes: int
    outcome: Outcome
    degree: Degree | None
    willpower: bool = False
    automatic: bool = False
    base_difficulty: int | None = None
    retry: int = 0
    rules: HouseRules = STANDARD_RULES
    automatic_successes: int = 0

    @property
    def successes(self) -> int:
        """Deprecated alias of :attr:`successes_rolled` (the count before the rule of one), kept for one
        release; read-only."""
        return self.successes_rolled

    @property
    def result(self) -> int:
        """Deprecated alias of :attr:`final_successes` (what the roll finally yields), kept for one
        release; read-only."""
        return self.final_successes

    @property
    def extra_dice(self) -> tuple[int, ...]:
        """The dice added by a ``reroll`` specialty (empty otherwise)."""
        return self.dice[self.pool :]

    @property
    def botch(self) -> bool:
        """True when the outcome is a botch."""
        return self.outcome is Outcome.BOTCH

    @property
    def cancelled(self) -> int:
        """How many successes the 1s cancelled (each such success is paired with one 1)."""
        if not self.rules.ones_cancel:
            return 0
        return min(self.successes_rolled + self.automatic_successes, self.ones)

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready dict with the keys the CLI's ``--json`` promises (``successes`` is
        :attr:`successes_rolled`, ``result`` is :attr:`final_successes`)."""
        return {
            "pool": self.pool,
            "difficulty": self.difficulty,
            "base_difficulty": self.base_difficulty if self.base_difficulty is not None else self.difficulty,
            "retry": self.retry,
            "dice": list(self.dice),
            "extra_dice": list(self.extra_dice),
            "successes": self.successes_rolled,
            "ones": self.ones,
            "net": self.net,
            "result": self.final_successes,
            "outcome": self.outcome.value,
            "degree": self.degree.value if self.degree else None,
            "willpower": self.willpower,
            "automatic": self.automatic,
            "house_rules": self.rules.to_dict(),
            "automatic_successes": self.automatic_successes,
        }


def validate_difficulty(difficulty: int) -> int:
    """Return ``difficulty`` if it is an integer from 2 to 10, else raise InvalidValue.

    Source: Chapter Five, "Difficulties" (the range is 2..10 inclusive).
    """
    if isinstance(difficulty, bool) or not isinstance(difficulty, int):
        raise InvalidValue(f"difficulty {difficulty!r} is not a whole number; allowed: 2 to 10")
    return check_range(difficulty, "difficulty", MIN_DIFFICULTY, MAX_DIFFICULTY)


def validate_pool(pool: int) -> int:
    """Return ``pool`` if it is a whole number of dice from 1 to MAX_POOL, else raise InvalidValue.

    A pool of zero or less means the action cannot be attempted at all (Chapter Five, "Multiple Actions").
    """
    if isinstance(pool, bool) or not isinstance(pool, int):
        raise InvalidValue(f"dice pool {pool!r} is not a whole number of dice; allowed: 1 to {MAX_POOL}")
    if pool < 1:
        raise InvalidValue(
            f"dice pool {pool} has no dice: the action cannot be attempted (a pool needs 1 to {MAX_POOL} dice)"
        )
    if pool > MAX_POOL:
        raise InvalidValue(f"dice pool {pool} is larger than stkit's limit of {MAX_POOL} dice")
    return pool


def retry_difficulty(difficulty: int, retry: int) -> int:
    """The difficulty for the ``retry``-th retry of a failed task: ``difficulty + retry``, capped at 10.

    Source: Chapter Five, "Try, Try Again". ``retry`` is 0 for a first attempt; negative raises InvalidValue.
    """
    validate_difficulty(difficulty)
    if isinstance(retry, bool) or not isinstance(retry, int) or retry < 0:
        raise InvalidValue(f"retry {retry!r} must be 0 or more (the number of earlier failures)")
    return min(difficulty + retry, MAX_DIFFICULTY)


def validate_target(target: object) -> int:
    """Return ``target`` if it is a whole number of successes from 1 to MAX_TARGET, else raise InvalidValue.

    The one check of an extended action's or a contest's target (Chapter Five, "Extended Actions": a set
    number of successes collected over several rolls).
    """
    if isinstance(target, bool) or not isinstance(target, int):
        raise InvalidValue(f"target {target!r} is not a whole number of successes; allowed: 1 to {MAX_TARGET}")
    if target < 1:
        raise InvalidValue(f"target {target} must be at least 1 success; allowed: 1 to {MAX_TARGET}")
    if target > MAX_TARGET:
        raise InvalidValue(f"target {target} is outside the allowed range 1 to {MAX_TARGET} successes")
    return target
