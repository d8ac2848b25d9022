"""Counts in the right number, errors that say which roll they mean, one way of writing a chance."""

from __future__ import annotations

from fractions import Fraction

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.dice import check_faces
from stkit.errors import InvalidValue
from stkit.text import counted, dice_text, percent

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, list(args), env={"NO_COLOR": "1"})


@pytest.mark.parametrize(
    ("n", "one", "many", "text"),
    [
        (1, "die", "dice", "1 die"),
        (2, "die", "dice", "2 dice"),
        (0, "success", None, "0 successes"),
        (1, "success", None, "1 success"),
        (3, "point", None, "3 points"),
        (1, "set of dice", "sets of dice", "1 set of dice"),
    ],
)
def test_counted(n, one, many, text):
    assert counted(n, one, many) == text


def test_dice_text_and_percent():
    assert [dice_text(1), dice_text("1"), dice_text(5), dice_text("3+2")] == ["1 die", "1 die", "5 dice", "3+2 dice"]
    assert [percent(Fraction(0)), percent(Fraction(1, 100_000)), percent(Fraction(1, 2)), percent(Fraction(1))] == [
        "0%",
        "<0.01%",
        "50.0%",
        "100%",
    ]


def test_the_cli_and_discord_write_a_chance_the_same_way():
    from stkit.cli import odds
    from stkit.discord import render

    assert odds.percent is percent and render.percent is percent


@pytest.mark.parametrize(
    ("pool", "faces", "message"),
    [
        (3, [4], "1 die given but the dice pool is 3; give exactly 3 faces"),
        (1, [4, 5], "2 dice given but the dice pool is 1; give exactly 1 face"),
    ],
)
def test_a_wrong_number_of_faces_is_counted_right(pool, faces, message):
    with pytest.raises(InvalidValue) as exc:
        check_faces(pool, faces)
    assert str(exc.value) == message


@pytest.fixture
def two_characters():
    for name in ("Asha", "Brun"):
        assert _run("char", "new", name).exit_code == 0
    started = _run("extended", "start", "Climb", "-c", "Asha", "--pool", "5", "-d", "6", "--target", "5")
    assert started.exit_code == 0, started.output


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--dice-attack", "1,2"], "the attack roll: 2 dice given but the dice pool is 5; give exactly 5 faces"),
        (
            ["--dice-attack", "6,7,8,9,10", "--dodge", "3", "--dice-dodge", "1"],
            "the defence roll (dodge): 1 die given but the dice pool is 3; give exactly 3 faces",
        ),
        (
            ["--dice-attack", "6,7,8,9,10", "--dice-damage", "1"],
            "the damage roll: 1 die given but the dice pool is 7; give exactly 7 faces",
        ),
        (
            # the damage dice given too: a damage roll of no success would leave nothing to soak
            ["--dice-attack", "6,7,8,9,10", "--dice-damage", "6,6,6,6,6,6,6", "--soak", "--dice-soak", "1,2,3,4,5,6,7"],
            "the soak roll: 7 dice given but the dice pool is 1; give exactly 1 face",
        ),
    ],
    ids=["attack", "defence", "damage", "soak"],
)
def test_attack_dice_errors_name_their_roll(two_characters, extra, message):
    result = _run("attack", "Asha", "Brun", "--pool", "5", "--damage", "3", *extra)
    assert result.exit_code == 1
    assert result.stderr == f"Error: {message}\n"


def test_an_attack_pool_with_no_dice_names_its_roll(two_characters):
    result = _run("attack", "Asha", "Brun", "--pool", "5", "--damage", "Strength - 5")
    assert result.exit_code == 1 and result.stderr.startswith("Error: the damage roll: Asha: Strength 1 - 5")


def test_extended_roll_dice_errors_name_the_action(two_characters):
    result = _run("extended", "roll", "Climb", "--dice", "1")
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: the roll for extended action 1 ('Climb'): 1 die given but the dice pool is 5; give exactly 5 faces\n"
    )


def test_one_success_and_one_character_are_singular(two_characters):
    raged = _run("char", "rage", "Asha", "--dice", "8")
    assert raged.exit_code == 0 and "1 success, no frenzy" in raged.stdout
    listed = _run("chronicle", "list")
    assert "2 characters, 0 house rules set, 0 links, 1 roll" in listed.stdout
