"""The scoring rules are defined once (stkit.dice.model.ScoringRules, each field carrying its key): the key
table, the chronicle's rules, a roll's own choices, the JSON of a roll and the docs' tables all follow that
one definition, so a new scoring rule is a field there, its reading in stkit.dice.score, and the docs."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from stkit.dice.house import HOUSE_KEYS, SCORING_KEYS, STANDARD_CHRONICLE_RULES, ChronicleRules, RuleOverrides
from stkit.dice.model import STANDARD_RULES, HouseRules, Outcome, RollResult, ScoringRules, scoring_keys

REPO = Path(__file__).resolve().parents[2]
FIELDS = [f.name for f in dataclasses.fields(ScoringRules)]


def test_the_key_tables_come_from_the_definition():
    keys = scoring_keys()
    assert list(SCORING_KEYS) == list(keys)
    for key, (name, rule) in keys.items():
        assert HOUSE_KEYS[key][0] == name
        assert SCORING_KEYS[key] == rule.values
        assert getattr(ScoringRules(), name) in rule.values  # the rules as written is one of its values
        assert len(rule.values) >= 2, f"{key} has nothing to switch"


def test_every_holder_of_the_rules_has_every_scoring_rule():
    assert {f.name for f in dataclasses.fields(ChronicleRules)} >= set(FIELDS)
    assert {f.name for f in dataclasses.fields(HouseRules)} >= set(FIELDS)
    # a roll's own choices: one None-default field per scoring rule
    overrides = {f.name: f.default for f in dataclasses.fields(RuleOverrides)}
    assert all(overrides.get(name, "missing") is None for name in FIELDS), FIELDS
    roll = RollResult(1, 6, (6,), 1, 0, 1, 1, Outcome.SUCCESS, None, rules=STANDARD_RULES)
    assert set(roll.to_dict()["house_rules"]) == {*FIELDS, "specialised"}
    assert HouseRules.from_dict(HouseRules(tens="explode", willpower="three-dice").to_dict()) == HouseRules(
        tens="explode", willpower="three-dice"
    )


def test_the_docs_tables_list_every_key_with_its_default():
    """Every key has a row in docs/quick.md's house-rule table (its last cell the rules as written), or, for
    the fight's keys, in docs/combat.md's; every scoring key is named in docs/dice.md."""
    quick = (REPO / "docs" / "quick.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z-]+)` \| .* \| `([^`]+)` \|$", quick, re.MULTILINE))
    fight = set(re.findall(r"^\| `([a-z-]+)` \|", (REPO / "docs" / "combat.md").read_text(encoding="utf-8"), re.M))
    written = STANDARD_CHRONICLE_RULES.to_dict()
    for key, (name, _allowed) in HOUSE_KEYS.items():
        if key in fight and key not in SCORING_KEYS:
            continue
        assert key in rows, f"docs/quick.md's house-rule table lacks {key}"
        if key in SCORING_KEYS:
            rule = scoring_keys()[key][1]
            assert rows[key] == rule.text(getattr(ScoringRules(), name)), key
        else:
            value = written[key]
            shown = ("yes" if value else "no") if key == "player-difficulty" else value
            if isinstance(shown, bool):
                shown = "on" if shown else "off"
            assert rows[key] == str(shown), key
    dice = (REPO / "docs" / "dice.md").read_text(encoding="utf-8")
    for key in SCORING_KEYS:
        assert f"`{key}" in dice or f"--{key}" in dice, f"docs/dice.md does not name {key}"
