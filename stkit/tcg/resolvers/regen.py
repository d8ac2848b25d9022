"""Regeneration and Rites in progress: quarter-turns until the card is upright again.

Source: Equinox Update, "Regeneration", "Start of Turn Phase" and "Main Phase" (Rites).
"""

from __future__ import annotations

from stkit.errors import InvalidValue, RuleRefusal
from stkit.tcg.resolvers import Resolution, RuleTrail
from stkit.text import counted

# Quarter-turns clockwise from "paw print facing up" back to upright, by the edge the paw print is on.
PAW_EDGES = {"right": 1, "bottom": 2, "left": 3, "top": 4}


def resolve_regen(
    *, paw: str = "bottom", turned: int = 0, rite: bool = False, stalled: int = 0, wounds: int = 1
) -> Resolution:
    """How many Start of Turn Phases until a regenerating character (or a Rite in progress) is upright.

    ``paw`` is the card edge the paw print sits on when the card is upright (right, bottom, left, top);
    setting the card turns that edge up, and each Start of Turn Phase turns it 90 degrees clockwise.
    ``turned`` quarter-turns already made (0..3); ``rite`` for a Rite; ``stalled`` (Rites only, 0..100)
    turns in which its shapeshifter fought or went to the Hunting Grounds, so it did not advance;
    ``wounds`` the character's wounds (a character needs at least 1 to be set regenerating).

    Answer: ``{"quarter_turns": total, "quarter_turns_left": n, "turns": Start of Turn Phases to wait}``.
    Raises InvalidValue for an unknown edge or counts out of range, RuleRefusal for a character without
    wounds.
    Source: Equinox Update, "Regeneration" and "Start of Turn Phase".
    """
    trail = RuleTrail()
    edge = paw.strip().lower()
    if edge not in PAW_EDGES:
        raise InvalidValue(f"paw print edge {paw!r} is unknown (allowed: {', '.join(PAW_EDGES)})")
    total = PAW_EDGES[edge]
    if isinstance(turned, bool) or not isinstance(turned, int) or not 0 <= turned < total:
        raise InvalidValue(
            f"quarter-turns already made {turned!r} out of range (allowed 0 to {total - 1} for a paw print on "
            f"the {edge})"
        )
    if isinstance(stalled, bool) or not isinstance(stalled, int) or not 0 <= stalled <= 100:
        raise InvalidValue(f"stalled turns {stalled!r} out of range (allowed 0 to 100)")
    if stalled and not rite:
        raise InvalidValue(
            "stalled turns apply to Rites only: a regenerating character that fights is turned upright instead"
        )
    if not rite:
        if isinstance(wounds, bool) or not isinstance(wounds, int) or not 0 <= wounds <= 100:
            raise InvalidValue(f"wounds {wounds!r} out of range (allowed 0 to 100)")
        if wounds < 1:
            raise RuleRefusal("a character with no wounds cannot be set to regenerate (rule regen.set)")
        trail.say("Setting it to regenerate discards its attached Rites and turns its paw print upward.", "regen.set")
    else:
        trail.say(
            "A Rite is played below its shapeshifter with its paw print upward: it is in progress.",
            "regen.rite-progress",
        )
    if edge == "top":
        trail.say(
            "The paw print is on the top edge, so stkit counts a full circle: 4 quarter-turns.", "regen.quarter-turns"
        )
    trail.say(
        f"With the paw print on the {edge} edge the card needs {counted(total, 'quarter-turn')} "
        "clockwise to be upright.",
        "regen.quarter-turns",
    )
    left = total - turned
    turns = left + stalled
    if turned:
        trail.say(
            f"{counted(turned, 'quarter-turn')} already made: {left} to go, one per Start of Turn Phase.",
            "regen.quarter-turns",
        )
    if stalled:
        trail.say(
            f"It stays put for {counted(stalled, 'turn')} because its shapeshifter fought or went to the Hunting "
            "Grounds the turn before.",
            "regen.rite-stalls",
        )
    if rite:
        trail.say(
            f"After {counted(turns, 'Start of Turn Phase')} the Rite is upright: it becomes active, leaves its "
            "shapeshifter and frees its Gnosis.",
            "regen.rite-progress",
        )
    else:
        trail.say(
            f"After {counted(turns, 'Start of Turn Phase')} it is upright: "
            "all wounds go and it flips to its Breed side. "
            "Until then it cannot vote, use Combat events or Main actions, attach cards, be alpha or accept a "
            "challenge; fighting cancels the regeneration (wounds stay).",
            "regen.upright",
            "regen.restrictions",
        )
    return trail.resolution({"quarter_turns": total, "quarter_turns_left": left, "turns": turns})
