"""Frenzy: whether a wounded Garou goes berserk in a round of combat, and what it draws.

Source: Equinox Update, "Special Abilities: Frenzy" and "Derangements" (Hysterical, Melancholic).
"""

from __future__ import annotations

from stkit.errors import InvalidValue
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.tcg.resolvers.files import derangement_named
from stkit.text import counted

MAX_STAT = 100
DERANGEMENTS = ("hysterical", "melancholic")


def frenzy_threshold(health: int) -> int:
    """Trigger Damage for a base (printed) Crinos or metis Health: 7+ -> 3, 4..6 -> 2, 1..3 -> 1.

    Raises InvalidValue for Health below 1 or above 100."""
    if isinstance(health, bool) or not isinstance(health, int) or not 1 <= health <= MAX_STAT:
        raise InvalidValue(f"Health {health!r} is out of range (allowed 1 to {MAX_STAT})")
    if health >= 7:
        return 3
    if health >= 4:
        return 2
    return 1


def resolve_frenzy(
    *, health: int, wounds: int, frenzy: int | None = None, derangement: str | None = None
) -> Resolution:
    """Does a Garou frenzy after taking ``wounds`` in one round of combat?

    ``health`` is the base Crinos (or metis) Health, 1..100; ``wounds`` the wounds taken in that single
    round, 0..100; ``frenzy`` the printed Frenzy number (0..100; None or 0 means no Frenzy trait, so no
    frenzy); ``derangement`` optionally "Hysterical" or "Melancholic".

    Answer: ``{"frenzies": bool, "threshold": t, "cards_drawn": n, "must_pass_next_round": bool}``.
    Raises InvalidValue for values out of range or an unknown derangement.
    Source: Equinox Update, "Frenzy" (worked example: Janus, Health 5, Frenzy 2, 3 wounds: frenzies, draws 2).
    """
    trail = RuleTrail()
    threshold = frenzy_threshold(health)
    for name, value in (("wounds", wounds), ("Frenzy", frenzy if frenzy is not None else 0)):
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_STAT:
            raise InvalidValue(f"{name} {value!r} is out of range (allowed 0 to {MAX_STAT})")
    kind = None
    if derangement is not None:  # an empty --derangement "" is a mistake, not "no derangement"
        kind = derangement_named(str(derangement))
        if kind not in DERANGEMENTS:
            raise InvalidValue(f"derangement {kind.title()} does not change frenzy (allowed: Hysterical, Melancholic)")
    trail.say(f"Base Crinos/metis Health {health} gives a Trigger Damage of {threshold}.", "frenzy.trigger-damage")
    answer = {"frenzies": False, "threshold": threshold, "cards_drawn": 0, "must_pass_next_round": False}
    if not frenzy:
        trail.say("Without a Frenzy number the character never frenzies.", "frenzy.frenzy-trait")
        return trail.resolution(answer)
    if wounds < threshold:
        trail.say(f"{counted(wounds, 'wound')} this round is below {threshold}: no frenzy.", "frenzy.frenzy-trait")
        return trail.resolution(answer)
    trail.say(
        f"{counted(wounds, 'wound')} in one round reaches the Trigger Damage of {threshold}.",
        "frenzy.frenzy-trait",
        "frenzy.wounds-not-damage",
    )
    if kind == "melancholic":
        trail.say("Melancholic: this Garou cannot frenzy, so nothing happens.", "frenzy.melancholic")
        return trail.resolution(answer)
    if kind == "hysterical":
        trail.say(
            "Hysterical: instead of frenzying it has to pass the following round of combat; no cards drawn.",
            "frenzy.hysterical",
        )
        answer["must_pass_next_round"] = True
        return trail.resolution(answer)
    answer["frenzies"] = True
    answer["cards_drawn"] = frenzy
    trail.say(
        f"It frenzies: its player draws {counted(frenzy, 'Combat card')} (its Frenzy number).", "frenzy.frenzy-trait"
    )
    return trail.resolution(answer)
