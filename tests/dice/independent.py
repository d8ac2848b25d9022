"""An independent count of one roll, for tests only: a per-face table written out by hand from Chapter Five
("Difficulties", "Botches", "Automatic Successes") and the house rules as docs/dice.md states them. It
shares nothing with stkit.dice.score: the tests compare the engine with this, not with itself."""

from __future__ import annotations

from dataclasses import dataclass

#: What each face scores against each difficulty under the rules as written: face -> difficulty -> (hit?).
#: Written as the plain table a player reads: a face succeeds when it is not below the difficulty.
HITS = {
    face: {difficulty: face >= difficulty for difficulty in range(2, 11)} for face in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
}


@dataclass(frozen=True)
class Count:
    final: int
    outcome: str  # "success", "failure", "botch"


def count(
    faces: list[int] | tuple[int, ...],
    pool: int,
    difficulty: int,
    rules: dict,
    *,
    specialised: bool,
    willpower: bool = False,
    automatic: int = 0,
) -> Count:
    """Count ``faces`` (``pool`` dice, three more under willpower three-dice when spent, then the extra dice
    10s brought) under ``rules``: {"specialty", "extra-ones-cancel", "ones-cancel", "tens",
    "tens-cancel-ones", "specialty-botch", "willpower"} with the `stkit house` values."""
    rolled = pool + (3 if willpower and rules.get("willpower") == "three-dice" else 0)
    base, extra = list(faces[:rolled]), list(faces[rolled:])
    double = specialised and rules.get("specialty") == "double"
    successes = 0
    for f in base + extra:
        if HITS[f][difficulty]:
            successes += 2 if (f == 10 and double) else 1
    ones = base.count(1)
    if rules.get("extra-ones-cancel") == "on":
        ones += extra.count(1)
    if rules.get("tens-cancel-ones") == "on":
        ones = max(0, ones - (base + extra).count(10))
    if rules.get("ones-cancel") == "off":
        ones = 0
    total = max(successes + automatic - ones, 0)
    if willpower and rules.get("willpower", "success") == "success":
        total += 1
    any_hit = any(HITS[f][difficulty] for f in base + extra)
    can_botch = not willpower and not (specialised and rules.get("specialty-botch") in ("no", "off"))
    if total > 0:
        return Count(total, "success")
    if not any_hit and 1 in base + extra and can_botch:
        return Count(0, "botch")
    return Count(0, "failure")


def explodes(rules: dict, specialised: bool) -> bool:
    """Whether a 10 brings another die under ``rules``."""
    tens = rules.get("tens", "once")
    return (
        (specialised and rules.get("specialty") == "reroll")
        or tens == "explode"
        or (tens == "explode-unspecialised" and not specialised)
    )


def roll_with(rng, pool: int, rules: dict, *, specialised: bool, willpower: bool = False) -> list[int]:
    """The faces ``rng`` rolls for ``pool`` dice: the pool first, then one die per 10 while 10s come up."""
    rolled = pool + (3 if willpower and rules.get("willpower") == "three-dice" else 0)
    faces = [rng.randint(1, 10) for _ in range(rolled)]
    if explodes(rules, specialised):
        owed = faces.count(10)
        while owed:
            f = rng.randint(1, 10)
            faces.append(f)
            owed += (f == 10) - 1
    return faces
