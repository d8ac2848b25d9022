"""The Umbra: the cost of stepping sideways, and the Umbra marker on its chart.

Source: Equinox Update, "Special Places: The Umbra" ("The State of the Umbra", "Entering the Umbra") and
"Setting Up" (the marker starts on 7).
"""

from __future__ import annotations

import re

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.text import counted, parse_whole_number, plural_word

CHART_LOW, CHART_HIGH = 1, 25  # five levels of five points each
START_POINT = 7
POINTS_PER_LEVEL = 5
MAX_GNOSIS = 100

# Umbra level -> Sept cards to discard before any Gnosis reduction.
LEVEL_DISCARD = {1: 0, 2: 1, 3: 2, 4: 3, 5: 3}

# Named events that move the marker, and by how many points (up = more corrupt).
EVENTS: dict[str, tuple[int, str, str]] = {
    "wyrm-enemy-played": (+1, "umbra.up-one-point", "A Wyrm Enemy was played"),
    "spirit-killed": (+1, "umbra.up-one-point", "A non-corrupt Spirit was killed"),
    "garou-killed": (+1, "umbra.up-one-point", "A non-Wyrm Garou was killed"),
    "wyrm-enemy-killed": (-1, "umbra.down-one-point", "A Wyrm Enemy was killed"),
    "alpha-pass": (-2, "umbra.alpha-pass", "A Garou (not a Spirit) in the Umbra passed its alpha action"),
}
_SHIFT = re.compile(r"^(points?|levels?)\s*[:=]?\s*([+-]\s*[0-9]+)$")
#: Largest card move taken, in points (levels: this over 5): the chart is 25 points long, so anything
#: bigger is a typo, and a 5,000-digit number would not even convert.
MAX_CARD_MOVE_POINTS = 100
#: Most events one umbra-track question lists (20,000 took 11 s to narrate); a game turn has a handful.
MAX_EVENTS = 1000


def umbra_level(points: int) -> int:
    """The Umbra level (1..5) for a marker position ``points`` (1..25); raises InvalidValue outside."""
    if isinstance(points, bool) or not isinstance(points, int) or not CHART_LOW <= points <= CHART_HIGH:
        raise InvalidValue(f"Umbra points {points!r} are off the chart (allowed {CHART_LOW} to {CHART_HIGH})")
    return (points - 1) // POINTS_PER_LEVEL + 1


def gnosis_reduction(gnosis: int) -> int:
    """Cards the alpha's Gnosis takes off the discard: 0-3 none, 4-6 one, 7+ two."""
    if gnosis >= 7:
        return 2
    if gnosis >= 4:
        return 1
    return 0


def resolve_umbra_cost(
    *,
    level: int | None = None,
    points: int | None = None,
    gnosis: int = 0,
    last_minute: bool = False,
    human: bool = False,
    spirit: bool = False,
) -> Resolution:
    """Sept cards to discard (from the Sept deck) to move an alpha into or out of the Umbra.

    Give exactly one of ``level`` (1..5) or ``points`` (the marker position, 1..25); ``gnosis`` is the
    character's Gnosis (0..100). ``last_minute`` is the move made right before the alpha acts (its cost
    ignores Gnosis); ``spirit`` marks a Spirit (free when picked as alpha, full price at the last minute);
    ``human`` marks a Human (refused: humans never enter the Umbra).

    Answer: ``{"cards": n, "level": l, "base": b, "reduction": r}``. Raises InvalidValue for values off the
    chart or both/neither of level and points, RuleRefusal for a human.
    Source: Equinox Update, "The Umbra: Entering the Umbra" and "The State of the Umbra".
    """
    trail = RuleTrail()
    if (level is None) == (points is None):
        raise InvalidValue("give exactly one of the Umbra level (1 to 5) or the Umbra points (1 to 25)")
    if isinstance(gnosis, bool) or not isinstance(gnosis, int) or not 0 <= gnosis <= MAX_GNOSIS:
        raise InvalidValue(f"Gnosis {gnosis!r} is out of range (allowed 0 to {MAX_GNOSIS})")
    if human:
        raise RuleRefusal("humans cannot go to the Umbra, at any cost (rule umbra.no-humans)")
    if points is not None:
        level = umbra_level(points)
        trail.say(f"Umbra points {points} lie in Umbra level {level} (five points to a level).", "umbra.chart")
    elif isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= 5:
        raise InvalidValue(f"Umbra level {level!r} is out of range (allowed 1 to 5)")
    base = LEVEL_DISCARD[level]
    trail.say(f"At Umbra level {level} the base discard is {counted(base, 'Sept card')}.", "umbra.level-discard")
    if spirit and not last_minute:
        trail.say("A Spirit picked as alpha steps sideways without discarding.", "umbra.spirit-free")
        return trail.resolution({"cards": 0, "level": level, "base": base, "reduction": 0})
    if last_minute:
        trail.say(
            f"A last-minute move, right before the alpha acts, costs the full {base}: Gnosis does not reduce it"
            + (" (not free for a Spirit either)." if spirit else "."),
            "umbra.last-minute",
            *(("umbra.spirit-free",) if spirit else ()),
        )
        return trail.resolution({"cards": base, "level": level, "base": base, "reduction": 0})
    reduction = gnosis_reduction(gnosis)
    cards = max(0, base - reduction)
    trail.say(f"Gnosis {gnosis} takes {counted(reduction, 'card')} off the discard.", "umbra.gnosis-modifier")
    if base - reduction < 0:
        trail.say(f"{base} - {reduction} would be below zero, so the cost is 0.", "umbra.gnosis-modifier")
    trail.say(f"Discard {counted(cards, 'Sept card')} from the Sept deck.")
    return trail.resolution({"cards": cards, "level": level, "base": base, "reduction": reduction})


def parse_umbra_event(text: str) -> tuple[int, str, str]:
    """One event word for the Umbra track: a name from :data:`EVENTS`, ``points:+N`` or ``level:-N``.

    Returns ``(point_change, rule_id, description)``; raises InvalidValue for anything else.
    """
    word = text.strip().lower().replace("_", "-").replace(" ", "-")
    if word in EVENTS:
        return EVENTS[word]
    match = _SHIFT.match(text.strip().lower())
    if match:
        digits = match.group(2).replace(" ", "")
        level = match.group(1).startswith("level")
        most = MAX_CARD_MOVE_POINTS // POINTS_PER_LEVEL if level else MAX_CARD_MOVE_POINTS
        if len(digits.lstrip("+-").lstrip("0")) > len(str(most)) or abs(int(digits)) > most:
            unit = "levels" if level else "points"
            shown = digits if len(digits) <= 20 else digits[:20] + "..."
            raise InvalidValue(
                f"Umbra event {match.group(1)}:{shown} moves too far (allowed -{most} to +{most} {unit})"
            )
        amount = parse_whole_number(digits, "Umbra event", -most, most)
        if level:
            return (
                amount * POINTS_PER_LEVEL,
                "umbra.chart",
                f"A card moved the Umbra {amount:+d} {plural_word(amount, 'level')}",
            )
        return amount, "umbra.chart", f"A card moved the Umbra {amount:+d} {plural_word(amount, 'point')}"
    raise InvalidValue(
        f"unknown Umbra event {text!r} (allowed: {', '.join(EVENTS)}, points:+N, points:-N, level:+N, level:-N)"
    )


def resolve_umbra_track(events: list[str], *, start: int = START_POINT) -> Resolution:
    """Move the Umbra marker through ``events`` from ``start`` (1..25, default 7), staying on the chart.

    Each event is parsed by :func:`parse_umbra_event`. Answer: ``{"start", "points", "level",
    "steps": [{"event", "change", "points", "level"}]}``; a move past either end stops at the end.
    Raises InvalidValue for a start off the chart, an unknown event, a card move beyond
    MAX_CARD_MOVE_POINTS points, or more than MAX_EVENTS events.
    Source: Equinox Update, "The State of the Umbra" and "Setting Up".
    """
    if len(events) > MAX_EVENTS:
        raise InvalidValue(f"{len(events)} Umbra events listed; allowed at most {MAX_EVENTS} in one question")
    trail = RuleTrail()
    umbra_level(start)
    trail.say(
        f"The marker starts on {start}" + (" (the standard start)." if start == START_POINT else "."),
        "umbra.start",
    )
    position = start
    steps = []
    for event in events:
        change, rule_id, description = parse_umbra_event(event)
        target = position + change
        clamped = min(CHART_HIGH, max(CHART_LOW, target))
        note = ""
        if clamped != target:
            note = f" (stopped at {clamped}: the marker cannot leave the chart)"
            trail.cite("umbra.chart")
        extra = ("conflicts.umbra-pass-spirits",) if rule_id == "umbra.alpha-pass" else ()
        trail.say(f"{description}: {change:+d} -> {clamped}, level {umbra_level(clamped)}{note}.", rule_id, *extra)
        position = clamped
        steps.append({"event": event, "change": change, "points": position, "level": umbra_level(position)})
    return trail.resolution({"start": start, "points": position, "level": umbra_level(position), "steps": steps})
