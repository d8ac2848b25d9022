"""The exact odds of teamwork: separate rolls whose results are added, with and without "one botch spoils
all" (:class:`TeamworkOdds`, :func:`p_teamwork`).

Source: Chapter Five, "Teamwork", of the Werewolf: The Apocalypse Revised rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from stkit.dice.model import STANDARD_RULES, HouseRules, validate_pool
from stkit.dice.odds.generating import convolve
from stkit.dice.odds.single import RollOdds, check_rules, roll_distribution
from stkit.errors import InvalidValue

#: Teamwork adds every participant's roll exactly: the numbers grow with the dice of the whole team (two
#: pools of 1000 at difficulty 10 took 4 s, three 25 s), so it takes this many dice in all...
MAX_TEAMWORK_DICE = 1000
#: ...(this many under the ``reroll`` specialty, whose rolls have longer lists of results)...
MAX_TEAMWORK_REROLL_DICE = 300
#: ...from at most this many participants (1000 participants of 1 die took 5 s)...
MAX_TEAMWORK_PARTICIPANTS = 100
#: ...or this many under ``reroll`` (100 participants of 3 dice took 8 s; 20 of 15 dice take under 1 s).
MAX_TEAMWORK_REROLL_PARTICIPANTS = 20


@dataclass(frozen=True)
class TeamworkOdds:
    """The exact odds of teamwork (Chapter Five, "Teamwork"): separate rolls whose results are added.

    Attributes:
        rolls: each participant's single-roll odds.
        denominator: common denominator of the weights.
        total: ``total[k]`` is the weight of a summed result k when botches spoil nothing.
        total_spoils: the weight of a summed result k when one botch spoils all (a spoiled roll counts 0,
            so ``total_spoils[0]`` includes ``spoiled_weight``).
        spoiled_weight: P(at least one participant botches).
        all_botch_weight: P(every participant botches): the team's botch when botches do not spoil.
        unresolved_weight: chance mass beyond the listed ``reroll`` results when botches spoil nothing (0
            without ``reroll``).
        unresolved_spoils_weight: the same when one botch spoils all (spoiled rolls are all resolved).
    """

    rolls: tuple[RollOdds, ...]
    denominator: int
    total: tuple[int, ...]
    total_spoils: tuple[int, ...]
    spoiled_weight: int
    all_botch_weight: int
    unresolved_weight: int
    unresolved_spoils_weight: int

    def p_unresolved(self, botch_spoils: bool = True) -> Fraction:
        """Chance beyond the listed ``reroll`` results (0 without ``reroll``, below 10**-11 with it)."""
        w = self.unresolved_spoils_weight if botch_spoils else self.unresolved_weight
        return Fraction(w, self.denominator)

    @property
    def p_spoiled(self) -> Fraction:
        return Fraction(self.spoiled_weight, self.denominator)

    @property
    def p_all_botch(self) -> Fraction:
        return Fraction(self.all_botch_weight, self.denominator)

    def distribution(self, botch_spoils: bool = True) -> tuple[Fraction, ...]:
        """P(team total == k), k = 0 .., with or without "one botch spoils all"."""
        seq = self.total_spoils if botch_spoils else self.total
        return tuple(Fraction(w, self.denominator) for w in seq)

    def p_success(self, botch_spoils: bool = True) -> Fraction:
        seq = self.total_spoils if botch_spoils else self.total
        return Fraction(sum(seq[1:]), self.denominator)

    def p_botch(self, botch_spoils: bool = True) -> Fraction:
        return self.p_spoiled if botch_spoils else self.p_all_botch

    def expected(self, botch_spoils: bool = True) -> Fraction:
        """The exact expected team total (under ``reroll`` the unlisted tail included).

        By linearity: the sum of each roll's expected result; when a botch spoils all, each roll's expected
        result counts only when nobody else botches (a botching roll's own result is 0 anyway).
        """
        if not botch_spoils:
            return sum((r.expected for r in self.rolls), Fraction(0))
        total = Fraction(0)
        for i, r in enumerate(self.rolls):
            term = r.expected
            for j, other in enumerate(self.rolls):
                if j != i:
                    term *= 1 - other.p_botch
            total += term
        return total


def p_teamwork(pools: Sequence[int], difficulty: int = 6, *, rules: HouseRules = STANDARD_RULES) -> TeamworkOdds:
    """Exact odds of teamwork: each pool in ``pools`` (1..MAX_POOL each, at least two) rolls separately
    against ``difficulty`` and the final results are added, as :func:`stkit.dice.actions.combine_teamwork`
    does, with and without "one botch spoils all". Source: Chapter Five, "Teamwork".

    Raises InvalidValue for fewer than 2 participants, more than MAX_TEAMWORK_PARTICIPANTS (under ``reroll``
    MAX_TEAMWORK_REROLL_PARTICIPANTS), a pool or difficulty out of range, or more than MAX_TEAMWORK_DICE
    dice in all (MAX_TEAMWORK_REROLL_DICE under the ``reroll`` specialty): the exact sums would take too long.
    """
    pools = list(pools)
    check_rules(rules)
    reroll = rules.explodes
    most = MAX_TEAMWORK_REROLL_PARTICIPANTS if reroll else MAX_TEAMWORK_PARTICIPANTS
    if len(pools) < 2:
        raise InvalidValue(
            f"teamwork of {len(pools)} participant{'' if len(pools) == 1 else 's'} is no teamwork; allowed: 2 to "
            f"{most} participants (one character alone makes an ordinary roll)"
        )
    if len(pools) > most:
        raise InvalidValue(
            f"{len(pools)} participants is too many for exact teamwork odds"
            f"{' with the reroll specialty' if reroll else ''}; allowed: 2 to {most}"
        )
    for p in pools:
        validate_pool(p)
    limit = MAX_TEAMWORK_REROLL_DICE if reroll else MAX_TEAMWORK_DICE
    if sum(pools) > limit:
        rerolls = " with the reroll specialty" if reroll else ""
        raise InvalidValue(
            f"teamwork of {sum(pools)} dice in all is too large for exact odds{rerolls}: the pools may add up to "
            f"at most {limit} dice"
        )
    rolls = tuple(roll_distribution(p, difficulty, rules=rules) for p in pools)
    total: list[int] = [1]
    clean: list[int] = [1]
    den = 1
    clean_mass = 1
    all_botch = 1
    listed = 1
    for r in rolls:
        den *= r.denominator
        total = convolve(total, r.weights, den)
        nb = [r.weights[0] - r.botch_weight, *r.weights[1:]]
        clean = convolve(clean, nb, den)
        clean_mass *= r.denominator - r.botch_weight
        all_botch *= r.botch_weight
        listed *= sum(r.weights)
    spoiled = den - clean_mass
    # listed outcomes with no botch plus every spoiled outcome (a spoiled roll needs no listed result)
    spoils = list(clean)
    spoils[0] += spoiled
    unresolved = den - listed
    unresolved_spoils = clean_mass - sum(clean)
    return TeamworkOdds(
        rolls=rolls,
        denominator=den,
        total=tuple(total),
        total_spoils=tuple(spoils),
        spoiled_weight=spoiled,
        all_botch_weight=all_botch,
        unresolved_weight=unresolved,
        unresolved_spoils_weight=unresolved_spoils,
    )
