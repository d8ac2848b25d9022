"""Exact odds for every roll the dice engine can make (Chapter Five: Rules).

Everything here is exact rational arithmetic: Python integers inside, :class:`fractions.Fraction` at the
surface, floats never. The rule meanings are those of :func:`stkit.dice.roll.score_dice`:

- a die at or above the difficulty is a success (a 10 counts two under the ``double`` specialty, and rolls
  one extra die under ``reroll``, again and again while 10s come up);
- each 1 on a pool die cancels one success (1s on extra dice too with ``extra_ones_cancel``; no 1 cancels
  anything with ``ones_cancel=False``); the final result is ``max(successes - ones, 0)``, plus one for
  Willpower;
- a botch is a roll where no die reached the difficulty and at least one 1 showed (never with Willpower).

How the numbers are found (no enumeration, no simulation):

- A pool is ``n`` independent dice, so the net count ``successes - ones`` has the generating function
  ``g(x) ** n`` where ``g`` is one die's. Its coefficients come from the identity ``g * (g^n)' = n g' g^n``,
  which gives each coefficient from the few before it by one exact integer division: a linear number of
  big-integer steps, so a 1000-die pool takes milliseconds.
- Under ``reroll`` one die's generating function is rational (a chain of 10s is geometric), and the same
  identity applies to it. Each value's probability is still exact; the list of results simply has to stop
  somewhere. It stops at the first result ``k`` past which the remaining chance is below ``TAIL_EPSILON``
  (one in 10**12); that remaining chance is kept, exactly, as ``RollOdds.tail``.
- Extended actions are a Markov chain over the running tally; mean and finishing chances solve its linear
  equations exactly, and the turn-by-turn chances come from stepping the exact state vector forward.

Sources: Chapter Five, "Difficulties", "Botches", "Automatic Successes" (Willpower), "Multiple Actions",
"Extended Actions", "Resisted Actions", "Teamwork" (the Werewolf: The Apocalypse Revised rulebook).

One concept per module:

- :mod:`stkit.dice.odds.generating`: one die as a generating function, its exact powers and products;
- :mod:`stkit.dice.odds.single`: one roll (:class:`RollOdds`, :func:`roll_distribution`);
- :mod:`stkit.dice.odds.extended`: extended actions (:class:`ExtendedOdds`, :func:`p_extended`);
- :mod:`stkit.dice.odds.resisted`: resisted actions (:class:`ResistedOdds`, :func:`p_resisted`);
- :mod:`stkit.dice.odds.teamwork`: teamwork (:class:`TeamworkOdds`, :func:`p_teamwork`);
- :mod:`stkit.dice.odds.multiple`: multiple actions (:class:`MultipleActionOdds`, :func:`p_multiple`).

Every public name is importable from ``stkit.dice.odds`` itself.
"""

from __future__ import annotations

from stkit.dice.model import MAX_TARGET, validate_target
from stkit.dice.odds.extended import (
    MAX_EXACT_TARGET,
    MAX_EXTENDED_WORK,
    MAX_REROLL_EXTENDED_WORK,
    MAX_REROLL_TARGET,
    MAX_TURNS,
    TURNS_EPSILON,
    ExtendedOdds,
    check_exact_target,
    p_extended,
    solve_extended,
)
from stkit.dice.odds.generating import TAIL_EPSILON, net_weights
from stkit.dice.odds.multiple import ActionOdds, MultipleActionOdds, p_multiple
from stkit.dice.odds.resisted import ResistedOdds, p_resisted
from stkit.dice.odds.single import RollOdds, roll_distribution, roll_odds
from stkit.dice.odds.teamwork import (
    MAX_TEAMWORK_DICE,
    MAX_TEAMWORK_PARTICIPANTS,
    MAX_TEAMWORK_REROLL_DICE,
    MAX_TEAMWORK_REROLL_PARTICIPANTS,
    TeamworkOdds,
    p_teamwork,
)

__all__ = [
    "MAX_EXACT_TARGET",
    "MAX_EXTENDED_WORK",
    "MAX_REROLL_EXTENDED_WORK",
    "MAX_REROLL_TARGET",
    "MAX_TARGET",
    "MAX_TEAMWORK_DICE",
    "MAX_TEAMWORK_PARTICIPANTS",
    "MAX_TEAMWORK_REROLL_DICE",
    "MAX_TEAMWORK_REROLL_PARTICIPANTS",
    "MAX_TURNS",
    "TAIL_EPSILON",
    "TURNS_EPSILON",
    "ActionOdds",
    "ExtendedOdds",
    "MultipleActionOdds",
    "ResistedOdds",
    "RollOdds",
    "TeamworkOdds",
    "check_exact_target",
    "clear_caches",
    "p_extended",
    "p_multiple",
    "p_resisted",
    "p_teamwork",
    "roll_distribution",
    "validate_target",
]


def clear_caches() -> None:
    """Empty the engine's caches (for benchmarks that time a cold start)."""
    roll_odds.cache_clear()
    net_weights.cache_clear()
    solve_extended.cache_clear()
