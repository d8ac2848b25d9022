"""Sheet rolls for the tests, through the one roll use case (:func:`stkit.store.rolling.make_roll`)."""

from __future__ import annotations

import random

from stkit.dice.house import RuleOverrides
from stkit.store.rolling import Purpose, RollOrder, RollOutcome, make_roll


def sheet_roll(
    gw,
    name: str,
    expression: str,
    *,
    difficulty: int | None = None,
    rng: random.Random | None = None,
    **order,
) -> RollOutcome:
    """``make_roll`` of a :class:`RollOrder` for character ``name`` rolling ``expression``; ``order``: the
    order's other fields (faces, willpower, task, retry, seed, secret, spec, chronicle)."""
    overrides = RuleOverrides(difficulty=difficulty)
    return make_roll(
        gw, RollOrder(expression, character=name, purpose=Purpose.sheet, overrides=overrides, **order), rng=rng
    )


def bare_roll(gw, n: int, *, chronicle: str = "default", seed: int | None = None, secret: bool = False) -> RollOutcome:
    """``make_roll`` of a logged bare pool of ``n`` dice at difficulty 6."""
    return make_roll(gw, RollOrder(str(n), chronicle=chronicle, seed=seed, secret=secret))
