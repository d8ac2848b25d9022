"""Resolvers for the Rage card game: each answers one table question and names the rules it used.

Every ``resolve_<mechanic>`` function returns a :class:`Resolution`. Import the mechanic modules
directly (``from stkit.tcg.resolvers.umbra import resolve_umbra_cost``); this package module stays
import-light on purpose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Resolution:
    """The answer to one rules question.

    ``answer`` holds the answer fields (the same keys the CLI prints with ``--json``), ``rules`` the ids of
    the rule entries (``stkit/tcg/data/rules/*.yaml``) the answer rests on, in first-use order, and
    ``explanation`` one plain sentence per step of the reasoning.
    """

    answer: dict[str, Any]
    rules: tuple[str, ...]
    explanation: list[str] = field(default_factory=list)

    def __getitem__(self, key: str) -> Any:
        return self.answer[key]

    def as_json(self) -> dict[str, Any]:
        """The answer fields plus ``"rules": [ids]``, ready for ``json.dumps``."""
        return {**self.answer, "rules": list(self.rules)}


class RuleTrail:
    """Collects rule ids (deduplicated, in first-use order) and explanation lines while resolving."""

    def __init__(self) -> None:
        self.rules: list[str] = []
        self.lines: list[str] = []

    def cite(self, *rule_ids: str) -> None:
        for rule_id in rule_ids:
            if rule_id not in self.rules:
                self.rules.append(rule_id)

    def say(self, line: str, *rule_ids: str) -> None:
        """Add an explanation line; the cited rule ids are appended to it in brackets."""
        self.cite(*rule_ids)
        self.lines.append(f"{line} [{', '.join(rule_ids)}]" if rule_ids else line)

    def resolution(self, answer: dict[str, Any]) -> Resolution:
        return Resolution(answer=answer, rules=tuple(self.rules), explanation=list(self.lines))
