"""Hand mutation check of the rule definitions: each mutant removes one rule from one place (the per-face
score, the scorer only, the odds only, or one door's composition), runs the fast tests that should see it,
and reports whether they killed it. The tree is restored after every mutant.

Run from the repository root: ``python tools/mutate_rules.py [--only TEXT] [TESTS...]``; prints one line per mutant and
exits 1 when a mutant survives."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = [
    "tests/dice",
    "tests/web/test_compose.py",
    "tests/cli/test_rule_bundle.py",
    "tests/store/test_chance_or_better.py",
    "tests/web/test_every_door.py",
    "tests/store/test_house_rules.py",
    "tests/web/test_hostile_web.py",
    "tests/discord/test_interactions.py",
]

#: (name, file, text, replacement[, tests]): one rule removed from one place; ``tests``: the tests that
#: should see it (default: the command line's, else :data:`TESTS`).
MUTANTS = [
    # the one per-face score: the roll and the odds both
    ("score: no double 10s", "stkit/dice/score.py", "successes = 2 if doubled else 1", "successes = 1"),
    (
        "score: no 10 cancels a 1",
        "stkit/dice/score.py",
        "cancels_one = 1 if face == 10 and rules.tens_cancel_ones else 0",
        "cancels_one = 0",
    ),
    (
        "score: every extra 1 cancels",
        "stkit/dice/score.py",
        "counted = 1 if one and (not extra or rules.extra_ones_cancel) else 0",
        "counted = 1 if one else 0",
    ),
    (
        "score: specialty-botch ignored",
        "stkit/dice/score.py",
        "return not (rules.specialised and not rules.specialty_botch)",
        "return True",
    ),
    (
        "score: Willpower adds no dice",
        "stkit/dice/score.py",
        "return 3 if willpower and rules.willpower is WillpowerRule.THREE_DICE else 0",
        "return 0",
    ),
    (
        "score: Willpower always a success",
        "stkit/dice/score.py",
        "return 1 if willpower and rules.willpower is WillpowerRule.SUCCESS else 0",
        "return 1 if willpower else 0",
    ),
    (
        "score: 10s never explode",
        "stkit/dice/score.py",
        "face == 10 and tens_explode(rules), hit, one)",
        "False, hit, one)",
    ),
    (
        "score: ones-cancel ignored",
        "stkit/dice/score.py",
        "cancels = counted if rules.ones_cancel else 0",
        "cancels = counted",
    ),
    # the scorer alone
    (
        "scorer only: automatic successes dropped",
        "stkit/dice/roll.py",
        "rules, willpower=willpower, automatic=automatic)",
        "rules, willpower=willpower, automatic=0)",
    ),
    (
        "scorer only: extra dice scored as pool dice",
        "stkit/dice/roll.py",
        "extra=i >= pool) for i, f in enumerate(dice)]",
        "extra=False) for i, f in enumerate(dice)]",
    ),
    # the odds alone
    (
        "odds only: extra dice scored as pool dice",
        "stkit/dice/odds/generating.py",
        "score = score_face(face, difficulty, rules, extra=extra)",
        "score = score_face(face, difficulty, rules)",
    ),
    ("odds only: botch always allowed", "stkit/dice/odds/single.py", "if may_botch(rules, willpower):", "if True:"),
    (
        "odds only: Willpower's dice left out",
        "stkit/dice/odds/single.py",
        "rolled = pool + willpower_dice(rules, willpower)",
        "rolled = pool",
    ),
    # one door, or the composition every door shares
    (
        "compose: untrained Skill not harder",
        "stkit/sheet/compose.py",
        "difficulty = min(MAX_DIFFICULTY, start + change)",
        "difficulty = start",
    ),
    (
        "compose: a player's difficulty always counts",
        "stkit/sheet/compose.py",
        "if own is not None and (not by_player or rules.player_difficulty):",
        "if own is not None:",
    ),
    (
        "compose: a player's difficulty never counts",
        "stkit/sheet/compose.py",
        "if own is not None and (not by_player or rules.player_difficulty):",
        "if own is not None and not by_player:",
    ),
    ("compose: the preset difficulty ignored", "stkit/sheet/compose.py", "    return preset\n", "    return None\n"),
    (
        "compose: a player's rule choices kept",
        "stkit/sheet/compose.py",
        "kept = RuleOverrides() if by_player else",
        "kept = overrides if by_player else",
    ),
    (
        "compose: no extra-dice limit",
        "stkit/sheet/compose.py",
        "    if not by_player or pool is None:\n        return",
        "    if True:\n        return",
    ),
    (
        "compose: the dice reading of unskilled-skill ignored",
        "stkit/sheet/compose.py",
        "change, dice, notes = rule.difficulty_change, rule.dice_change, rule.notes",
        "change, dice, notes = rule.difficulty_change, 0, rule.notes",
    ),
    (
        "door: make_roll skips the unskilled rule",
        "stkit/store/rolling.py",
        "unskilled_rule=order.built is None and not order.never_botches,",
        "unskilled_rule=False,",
    ),
    (
        "door: the unskilled dice not taken off",
        "stkit/store/rolling.py",
        "    if made.dice_change:\n",
        "    if False:\n",
    ),
    (
        "door: odds_for ignores the specialty",
        "stkit/store/rolling.py",
        "pool, used, rules=rules.dice_rules(order.spec)",
        "pool, used, rules=rules.dice_rules(False)",
    ),
    (
        "door: the table page's roll is no player's",
        "stkit/web/forms.py",
        "by_player=not storyteller, **fields)",
        "by_player=False, **fields)",
    ),
    (
        "door: Discord's claimed player is no player",
        "stkit/discord/interactions.py",
        "return self.claim is not None and not self.claim.is_storyteller",
        "return False",
    ),
    (
        "door: a saved roll's difficulty not preset",
        "stkit/store/saved.py",
        "preset_difficulty=roll.difficulty,",
        "preset_difficulty=None,",
    ),
    (
        "door: the option bundle ignored",
        "stkit/cli/options.py",
        "return dataclasses.replace(overrides, **bundle.chosen) if bundle.chosen else overrides",
        "return overrides",
    ),
    (
        "door: Discord's chance reads no house rule",
        "stkit/store/table/discord_feed.py",
        "rules = HouseRules.from_dict(house)",
        "rules = HouseRules()",
    ),
    # the holders generated from the scoring rules' one definition, and the option bundle's guard
    (
        "overrides: a scoring rule left out of RuleOverrides",
        "stkit/dice/house.py",
        "scoring = {f.name: hints[f.name] | None for f in dataclasses.fields(ScoringRules)}",
        "scoring = {f.name: hints[f.name] | None for f in dataclasses.fields(ScoringRules)[:-1]}",
        ("tests/dice/test_rule_table.py", "tests/dice/test_new_scoring_rule.py", "tests/cli/test_rule_bundle.py"),
    ),
    (
        "overrides: a rule's word kept as text",
        "stkit/dice/house.py",
        "object.__setattr__(self, name, words[value.casefold()])",
        "pass",
        ("tests/dice/test_new_scoring_rule.py", "tests/dice/test_rule_table.py"),
    ),
    (
        "bundle: a command that drops the options passes silently",
        "stkit/cli/options.py",
        "if bundle.chosen and not bundle.taken:",
        "if False:",
        ("tests/dice/test_new_scoring_rule.py",),
    ),
    # the one soak step: attack, char hit and odds attack
    (
        "soak: one success fewer soaked",
        "stkit/dice/combat.py",
        "soaked = min(max(soak_successes, 0), max(levels, 0))",
        "soaked = min(max(soak_successes - 1, 0), max(levels, 0))",
        ("tests/combat",),
    ),
    (
        "soak: a soak roll names the specialty",
        "stkit/dice/combat.py",
        "soak_pool, difficulty, replace(rules, specialised=False), combat)",
        "soak_pool, difficulty, rules, combat)",
        ("tests/combat",),
    ),
    (
        "soak: no soak roll for a single level",
        "stkit/dice/combat.py",
        "if levels < 1 or not soak_pool:",
        "if levels < 2 or not soak_pool:",
        ("tests/combat",),
    ),
    (
        "soak: char hit soaks with its own arithmetic",
        "stkit/store/fight/hit.py",
        "soaked, left = soak_left(levels, done.roll.final_successes)",
        "soaked, left = min(done.roll.final_successes, levels - 1), max(levels - done.roll.final_successes, 1)",
        ("tests/combat",),
    ),
    (
        "soak: the unsoakable house rule ignored by who-soaks-what",
        "stkit/store/fight/hit.py",
        "    if not combat.may_soak(kind):\n        why",
        "    if False:\n        why",
        ("tests/combat",),
    ),
    (
        "soak: the soak rules ignored by who-soaks-what",
        "stkit/store/fight/hit.py",
        "    if not verdict.dice_from_rules:\n        return SoakChoice(",
        "    if False:\n        return SoakChoice(",
        ("tests/combat",),
    ),
    # the unskilled rule on the pools an attack builds, and odds attack's exact JSON
    (
        "attack: the unskilled rule skipped on the attack's own pools",
        "stkit/store/fight/attack.py",
        "made = compose_roll(in_force, RuleOverrides(difficulty=difficulty), sheet=sheet, pool=built)",
        "made = compose_roll(in_force, RuleOverrides(difficulty=difficulty))",
        ("tests/combat",),
    ),
    (
        "odds attack: the unskilled raise left out",
        "stkit/cli/odds.py",
        "return min(10, difficulty + by) if by else difficulty",
        "return difficulty",
        ("tests/combat",),
    ),
    (
        "odds attack: exact fractions from the floats",
        "stkit/cli/odds.py",
        'out["exact"] = {key: _exact(p) for key, p in chances.items()}',
        'out["exact"] = {key: _exact(Fraction(float(p))) for key, p in chances.items()}',
        ("tests/combat",),
    ),
]


#: pytest's options for the fast loop: the slow tests left out.
FAST = ("-m", "not slow")


def main(args: list[str]) -> int:
    """``args``: test paths (default :data:`TESTS`), and ``--only TEXT`` to try only the mutants whose name
    holds TEXT (repeatable)."""
    only = [args[i + 1] for i, a in enumerate(args) if a == "--only" and i + 1 < len(args)]
    given = [a for i, a in enumerate(args) if a != "--only" and (i == 0 or args[i - 1] != "--only")]
    tests = given or TESTS
    survivors = []
    chosen = [m for m in MUTANTS if not only or any(text in m[0] for text in only)]
    for name, rel, old, new, *own in chosen:
        path = ROOT / rel
        text = path.read_text(encoding="utf-8")
        if text.count(old) != 1:
            print(f"SKIP   {name}: the text is not found once in {rel}")
            survivors.append(name)
            continue
        path.write_text(text.replace(old, new), encoding="utf-8")
        try:
            run = subprocess.run(
                [
                    *(sys.executable, "-m", "pytest", "-q", "-x", "-n", "2", "-p", "no:cacheprovider", *FAST),
                    *(own[0] if own and not given else tests),
                ],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=False,
            )
        finally:
            path.write_text(text, encoding="utf-8")
        killed = run.returncode != 0
        failed = next((ln for ln in run.stdout.splitlines() if ln.startswith("FAILED")), "")
        print(f"{'KILLED' if killed else 'SURVIVED'} {name}  {failed[:140]}", flush=True)
        if not killed:
            survivors.append(name)
    print(f"{len(chosen) - len(survivors)} killed, {len(survivors)} survived")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
