"""Every door that rolls, under every house rule: the same seed and the same rules give the same dice, the
same successes and the same log row, whichever door the roll came in by; and the same odds, from the
command line or the table page's preview.

The house-rule cases are built from :data:`stkit.dice.house.HOUSE_KEYS` (every value of the scoring keys
in :data:`stkit.dice.house.SCORING_KEYS`), so a house rule added there is tried at every door at once. The
expected dice and results are counted inside the tests by the independent per-face table of
tests/dice/independent.py, never by the engine the doors call; and each scoring key must change what some
door reports for some seed, so a key every door ignored would fail too.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice import RollRequest, resolve_roll
from stkit.dice.house import (
    HOUSE_KEYS,
    SCORING_KEYS,
    STANDARD_CHRONICLE_RULES,
    forgive_botch,
    parse_house_value,
    setting_text,
)
from stkit.dice.odds import roll_distribution
from stkit.errors import InvalidValue
from stkit.store.db.gateway import run_unit
from stkit.store.house import rules_in_force
from tests.dice.independent import count, roll_with

runner = CliRunner()
HX = {"hx-request": "true"}
#: Seed 5 rolls 10, 5, 6, 9, 1 (a 10, a 1, a 6 that difficulty 8 fails); seed 42 rolls 2, 1, 5, 4, 4 (a botch).
SEEDS = (5, 42)
#: Weston's Dexterity 3 + Athletics 2: the five dice every door rolls first.
SHEET_POOL = "Dexterity + Athletics"
_CANDIDATES = ("on", "off", "double", "reroll", "8", "end", "dice", "w20", "taught", "upgrade")


def _text(key: str, value: object) -> str:
    return ("yes" if value else "no") if key == "specialty-botch" else setting_text(value)


#: What a setting needs beside it to matter at a door without a specialty: extra dice to have 1s on.
_NEEDS = {"extra-ones-cancel": {"tens": "explode"}}


def _rule_cases() -> list[tuple[str, dict[str, str]]]:
    """The rules as written, then each house rule set to each value away from the rules as written (every
    value of a scoring key; extra-ones-cancel together with the exploding 10s it needs)."""
    written = STANDARD_CHRONICLE_RULES.to_dict()
    cases: list[tuple[str, dict[str, str]]] = [("as written", {})]
    for key in HOUSE_KEYS:
        if key in SCORING_KEYS:
            for value in SCORING_KEYS[key]:
                if getattr(value, "value", value) != written[key]:
                    cases.append((f"{key}={_text(key, value)}", _NEEDS.get(key, {}) | {key: _text(key, value)}))
            continue
        for text in _CANDIDATES:
            try:
                value = parse_house_value(key, text)
            except InvalidValue:
                continue
            if value != written[key] and getattr(value, "value", value) != written[key]:
                break
        else:  # pragma: no cover - a new key whose values none of the candidates spell
            raise AssertionError(f"add a value of house rule {key!r} to _CANDIDATES")
        settings = {key: text}
        if key == "extra-ones-cancel":
            settings = {"specialty": "reroll", key: text}
        cases.append((key, settings))
    return cases


CASES = _rule_cases()


def cli(url: str, *args: str, stdin: str | None = None) -> str:
    result = runner.invoke(app, [*args, "--db", url], input=stdin, env={"NO_COLOR": "1", "COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout


def cli_json(url: str, *args: str) -> dict:
    return json.loads(cli(url, *args, "--json"))


def _forget_free_botches(url: str) -> None:
    # each door is tried as the night's first roll, so that the free botch is there for every one of them
    run_unit(url, lambda gw: gw.execute("DELETE FROM free_botches"))


def _log_row(url: str, log_id: int) -> dict:
    row = run_unit(
        url,
        lambda gw: gw.row("SELECT pool, difficulty, dice, outcome, result FROM roll_log WHERE id = :id", id=log_id),
        readonly=True,
    )
    assert row is not None
    return {"pool": row[0], "difficulty": row[1], "dice": json.loads(row[2]), "outcome": row[3], "result": row[4]}


def _settings(url: str) -> dict[str, str]:
    """The chronicle's house rules as `stkit house` text, every key (the written value where unset)."""
    rules = run_unit(url, lambda gw: rules_in_force(gw, "default"), readonly=True)
    return {key: _text(key, value) for key, value in rules.to_dict().items()}


def _expected(
    url: str, seed: int, *, pool: int = 5, specialised: bool = False, willpower: bool = False, difficulty: int = 0
) -> dict:
    """``pool`` dice seeded with ``seed`` under the chronicle's rules, rolled and counted by the test's own
    table (tests/dice/independent.py), not by the engine."""
    settings = _settings(url)
    difficulty = difficulty or int(settings["difficulty"])
    faces = roll_with(random.Random(seed), pool, settings, specialised=specialised, willpower=willpower)
    got = count(faces, pool, difficulty, settings, specialised=specialised, willpower=willpower)
    outcome = got.outcome
    if outcome == "botch" and settings["free-botch"] == "on":
        outcome = "failure"
    rolled = pool + (3 if willpower and settings["willpower"] == "three-dice" else 0)
    return {"pool": rolled, "difficulty": difficulty, "dice": faces, "outcome": outcome, "result": got.final}


def _seen(roll: dict) -> dict:
    return {k: roll[k] for k in ("pool", "difficulty", "dice", "outcome", "result")}


def _doors(url: str, st, seed: int, table) -> dict[str, tuple[dict, int | None]]:
    """Door name -> (the first roll it reports, its log entry id or None)."""
    s = str(seed)
    out: dict[str, tuple[dict, int | None]] = {}

    def door(name: str, make) -> None:
        _forget_free_botches(url)
        out[name] = make()

    door("roll", lambda: (cli_json(url, "roll", "5", "--seed", s), None))

    def logged():
        d = cli_json(url, "roll", "5", "--log", "--seed", s)
        return d, d["log_id"]

    door("roll --log", logged)

    def sheet():
        d = cli_json(url, "roll", SHEET_POOL, "-c", "Weston", "--seed", s)
        return d, d["log_id"]

    door("sheet roll", sheet)
    door("multi", lambda: (cli_json(url, "multi", "7", "6", "--seed", s)["actions"][0]["roll"], None))

    def multi_sheet():
        first = cli_json(url, "multi", f"{SHEET_POOL} + 2", "Dexterity", "-c", "Weston", "--seed", s)["actions"][0]
        return first["roll"], first["log_id"]

    door("multi --char", multi_sheet)
    door("resisted", lambda: (cli_json(url, "resisted", "5", "3", "--seed", s)["a"], None))
    door("teamwork", lambda: (cli_json(url, "teamwork", "5", "3", "--seed", s)["rolls"][0], None))

    def extended():
        action = cli_json(url, "extended", "start", f"Climb {seed}", "--pool", "5", "--target", "50")["id"]
        d = cli_json(url, "extended", "roll", str(action), "--seed", s)
        return d["roll"], d["history"][-1]["roll_id"]

    door("extended", extended)

    def contest():
        cid = cli_json(url, "contest", "start", f"Race {seed}", "--a", "5", "--b", "3", "--target", "50")["id"]
        d = cli_json(url, "contest", "roll", str(cid), "--seed", s)
        return d["rolled"]["a"]["roll"], d["history"][-1]["a"]["roll_id"]

    door("contest", contest)

    def attack():
        d = cli_json(url, "attack", "Weston", "Archibald", "--pool", SHEET_POOL, "--damage", "Dexterity", "--seed", s)
        return d["attack"], d["log_ids"][0]

    door("attack", attack)

    def shell():
        text = cli(url, "shell", stdin=f"roll 5 --seed {seed} --json\n")
        return json.loads(text), None

    door("shell", shell)

    def web():
        r = st.post("/roll", data={"dice": "5", "seed": s}, headers=HX)
        assert r.status_code == 200, r.text
        newest = run_unit(url, lambda gw: gw.row("SELECT MAX(id) FROM roll_log"), readonly=True)
        return _log_row(url, newest[0]), newest[0]

    door("web roll", web)
    return out


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("case", "settings"), CASES, ids=[c for c, _ in CASES])
def test_every_door_rolls_the_same_dice_under_the_same_rules(clients, table, case, settings, seed):
    url = table.url
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    want = _expected(url, seed)
    doors = _doors(url, clients("storyteller"), seed, table)
    assert set(doors) == {
        "roll", "roll --log", "sheet roll", "multi", "multi --char", "resisted", "teamwork", "extended",
        "contest", "attack", "shell", "web roll",
    }  # fmt: skip
    for name, (roll, log_id) in doors.items():
        got = _seen(roll)
        if name == "multi --char" or name == "multi":
            got["pool"] = 5  # the ladder's penalty is already off the declared pool
        assert got == want, f"{name} under {case} with seed {seed}"
        if log_id is not None:
            assert _log_row(url, log_id) == want, f"{name}'s log row under {case} with seed {seed}"


@pytest.mark.parametrize(("case", "settings"), CASES, ids=[c for c, _ in CASES])
def test_combat_doors_roll_the_same_dice(table, case, settings):
    """A soak roll (char hit) and a bare soak roll score alike; initiative takes the seed's first die."""
    url = table.url
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    for seed in SEEDS:
        plain = cli_json(url, "roll", "5", "--soak", "--seed", str(seed))
        hit = cli_json(url, "char", "hit", "Weston", "1", "--soak-pool", SHEET_POOL, "--seed", str(seed))
        assert _seen(hit["soak"]) == _seen(plain), f"char hit under {case}"
        assert _log_row(url, hit["log_id"]) == _seen(plain)
        cli(url, "char", "heal", "Weston", "1")
    cli(url, "scene", "start", "The wall")
    order = cli_json(url, "scene", "initiative", "Weston", "--seed", "5")["order"]
    assert order[0]["die"] == random.Random(5).randint(1, 10)


def _expected_at(url: str, seed: int, pool: int, difficulty: int) -> tuple[dict, bool]:
    """``pool`` dice seeded with ``seed`` at the rule's own ``difficulty``, under the chronicle's dice
    house rules otherwise, scored by the dice engine directly; and whether the free botch forgives it."""
    from stkit.dice.house import RuleOverrides

    rules = run_unit(url, lambda gw: rules_in_force(gw, "default", RuleOverrides(difficulty=difficulty)), readonly=True)
    roll = resolve_roll(RollRequest(pool, difficulty, rules=rules.dice_rules()), rng=random.Random(seed))
    forgiven = bool(rules.free_botch and roll.botch)
    if forgiven:
        roll = forgive_botch(roll)
    want = {
        "pool": pool,
        "difficulty": difficulty,
        "dice": list(roll.dice),
        "outcome": roll.outcome.value,
        "result": roll.final_successes,
    }
    return want, forgiven


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(("case", "settings"), CASES, ids=[c for c, _ in CASES])
def test_fight_rule_doors_roll_the_same_dice(table, case, settings, seed):
    """The fight rules' own rolls (a Rage roll, a shift, regeneration under stress, staying active) score
    their dice under the chronicle's dice house rules at the rule's own difficulty, like every roll: Wolf's
    Rage 4 at 6; Stamina 3 + Primal-Urge 2 at Homid's 6; Crinos Stamina 3 + 3 = 6 (no wound penalty) at 8;
    permanent Rage 4 at 8, downed past Incapacitated."""
    url = table.url
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    cli(url, "char", "new", "Wolf", "--breed", "homid", "--set", "Stamina=3", "--set", "Primal-Urge=2",
        "--set", "Rage=4", "--set", "Dexterity=3", "--set", "Wits=2")  # fmt: skip
    s = str(seed)

    def door(name: str, args: tuple[str, ...], pool: int, difficulty: int) -> None:
        _forget_free_botches(url)
        done = cli_json(url, "char", *args, "--seed", s)
        want, forgiven = _expected_at(url, seed, pool, difficulty)
        assert _seen(done["roll"]) == want, f"{name} under {case} with seed {seed}"
        assert _log_row(url, done["log_id"]) == want, f"{name}'s log row under {case} with seed {seed}"
        assert done["forgiven_botch"] is forgiven, f"{name}'s free botch under {case} with seed {seed}"

    door("rage", ("rage", "Wolf", "-d", "6"), 4, 6)
    door("shift", ("shift", "Wolf", "glabro"), 5, 6)
    cli(url, "char", "shift", "Wolf", "crinos", "--instant")
    cli(url, "char", "damage", "Wolf", "1", "--type", "lethal")
    door("regen", ("regen", "Wolf"), 6, 8)
    cli(url, "char", "heal", "Wolf", "7")  # whatever regeneration healed: seven levels then fill the track exactly
    cli(url, "char", "damage", "Wolf", "7", "--type", "lethal")
    door("stay-active", ("stay-active", "Wolf"), 4, 8)


@pytest.mark.parametrize(("case", "settings"), CASES, ids=[c for c, _ in CASES])
def test_an_attacks_dodge_is_scored_as_any_roll(table, case, settings):
    """The defender's dodge inside `stkit attack` is a roll like any other: its dice (10, 1, 6, 7, 2; and
    the 10's extra die under the reroll specialty) are
    scored under the chronicle's house rules exactly as the dice engine scores them, and its log row says so."""
    url = table.url
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    _forget_free_botches(url)
    rules = run_unit(url, lambda gw: rules_in_force(gw, "default"), readonly=True)
    dodge = (10, 1, 6, 7, 2) + ((8,) if rules.dice_rules().explodes else ())  # the 10's extra die
    done = cli_json(url, "attack", "Archibald", "Weston", "--pool", "Dexterity + Drive", "--damage", "2",
                    "--dice-attack", "9,9,9,8,8", "--dodge", SHEET_POOL, "--dice-dodge", ",".join(map(str, dodge)),
                    "--seed", "1")  # fmt: skip
    want = count(dodge, 5, 6, _settings(url), specialised=False)
    seen = {"pool": 5, "difficulty": 6, "dice": list(dodge), "outcome": want.outcome, "result": want.final}
    assert _seen(done["defence"]) == seen, f"the dodge under {case}"
    assert _log_row(url, done["log_ids"][1]) == seen


@pytest.mark.parametrize(("case", "settings"), CASES, ids=[c for c, _ in CASES])
def test_odds_are_the_same_from_the_cli_and_the_page(clients, table, case, settings):
    url = table.url
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    rules = run_unit(url, lambda gw: rules_in_force(gw, "default"), readonly=True)
    want = roll_distribution(5, rules.difficulty, rules=rules.dice_rules())
    got = cli_json(url, "odds", "5")
    assert got["difficulty"] == rules.difficulty
    assert Fraction(got["p_success"]).limit_denominator(10**12) == pytest.approx(want.p_success)
    assert got["p_botch"] == pytest.approx(float(want.p_botch))
    page = clients("storyteller").get("/odds", params={"dice": "5"}).text
    assert f"5 dice at difficulty {rules.difficulty}" in page
    assert f"<strong>{float(want.p_success) * 100:.1f}%</strong>" in page
    sheet = clients("Weston").get(
        "/odds", params={"character_id": str(table.weston), "trait": ["Dexterity", "Athletics"]}
    )
    assert f"at difficulty {rules.difficulty}" in sheet.text and f"{float(want.p_success) * 100:.1f}%" in sheet.text


def test_a_players_link_never_chooses_house_rules(clients, table):
    """The page's 10s choice is the Storyteller's; from a player's link it is ignored."""
    url = table.url
    weston = clients("Weston")
    r = weston.post(
        "/roll",
        data={"character_id": str(table.weston), "trait": ["Dexterity", "Athletics"], "specialty": "double"},
        headers=HX,
    )
    assert r.status_code == 200, r.text
    detail = run_unit(url, lambda gw: gw.row("SELECT detail FROM roll_log ORDER BY id DESC LIMIT 1"), readonly=True)
    assert json.loads(detail[0])["specialty"] == "none"


#: Doors whose rolls a house key may change: a bare roll, one with Willpower, a sheet roll naming a specialty.
_KEY_DOORS = {
    "roll": (("roll", "5"), {}),
    "roll --willpower": (("roll", "5", "--willpower"), {"willpower": True}),
    "sheet roll --spec": (
        ("roll", "Dexterity + Brawl", "-c", "Weston", "--spec", "-d", "10"),
        {"specialised": True, "pool": 7, "difficulty": 10},
    ),
}


@pytest.mark.parametrize(("case", "settings"), [c for c in CASES if c[0].split("=")[0] in SCORING_KEYS])
def test_each_scoring_key_changes_some_door(table, case, settings):
    """Each value of each scoring key, at a bare roll, a Willpower roll and a specialised sheet roll, for
    seeds 1..12: every door agrees with the independent count, and the key changes what some door reports
    (against the same doors under the rules as written)."""
    url = table.url
    cli(url, "char", "set", "Weston", "Brawl", "4")  # a specialty needs 4 dots: Dexterity 3 + Brawl 4 = 7 dice
    cli(url, "char", "set", "Weston", "Brawl specialty", "Grappling")
    seeds = range(1, 13)

    def seen_all() -> dict:
        out = {}
        for name, (args, how) in _KEY_DOORS.items():
            for seed in seeds:
                _forget_free_botches(url)
                got = _seen(cli_json(url, *args, "--seed", str(seed)))
                want = _expected(url, seed, **how)
                assert got == want, f"{name} under {case} with seed {seed}"
                out[name, seed] = got
        return out

    written = seen_all()
    for key, text in settings.items():
        cli(url, "house", "set", key, text)
    assert seen_all() != written, f"{case} changed nothing at any door"
