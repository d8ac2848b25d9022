"""Deck-list parsing and legality (Equinox Update "Setting Up: Building a deck", "Other Shapeshifters")."""

import json
import os
import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, InvalidValue
from stkit.tcg.deck import check_deck, parse_deck_file, parse_deck_text

FIX = pathlib.Path(__file__).parent / "fixtures"
LEGAL = (FIX / "legal_deck.txt").read_text(encoding="utf-8")
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(deck_cards_db):
    return deck_cards_db


def check(db, text, level=20):
    return check_deck(parse_deck_text(text), db, renown_level=level)


def rules(report):
    return [(v.rule, v.message) for v in report.violations]


def test_parser_sections_counts_and_comments():
    deck = parse_deck_text(
        "Tribe: Stargazers\n[Pack]\n1 Kiri\n# note\nSept deck\n3x Ally One\nAlly Two  # one copy\n"
        "Combat deck:\n2 First Team #21\n"
    )
    assert [(ln.section, ln.count, ln.name, ln.line) for ln in deck.lines] == [
        ("tribe", 1, "Stargazers", 1),
        ("pack", 1, "Kiri", 3),
        ("sept", 3, "Ally One", 6),
        ("sept", 1, "Ally Two", 7),
        ("combat", 2, "First Team #21", 9),
    ]


@pytest.mark.parametrize(
    "text, message",
    [
        ("3 Ally One\n", "line 1: card line before any section header"),
        ("Sept deck:\n0 Ally One\n", "line 2: a count must be 1 or more, got 0"),
        ("[Sideboard]\n", r"line 1: unknown section '\[Sideboard\]'"),
    ],
)
def test_parser_errors_name_the_line(text, message):
    with pytest.raises(DataFileError, match=message):
        parse_deck_text(text, "deck.txt")


def test_legal_deck(db):
    report = check(db, LEGAL)
    assert report.legal, rules(report)
    assert report.to_dict() == {"legal": True, "violations": [], "warnings": []}
    # Hollow Reed is a Children of Gaia cohort: Renown 4 + 1 extra; 6 + 4 + 5 + 5 = 20
    assert report.summary["pack_renown"] == 20
    assert report.summary["sept"] == 33 and report.summary["combat"] == 22
    assert report.summary["moons"] == {"new": 10, "full": 10}


def test_lower_renown_level_makes_the_pack_too_expensive(db):
    report = check(db, LEGAL, level=15)
    assert rules(report) == [
        ("deck.starting-pack", "starting pack costs 20 Renown (cohort extras included); the Renown level is 15")
    ]


def test_copies_are_counted_across_lines(db):
    text = LEGAL.replace("3 Ally One\n", "2 Ally One\n") + "\nSept deck:\n2 Ally One\n"
    assert rules(check(db, text)) == [("deck.sept-deck", "4 copies of Ally One in the Sept deck; at most 3")]


def test_sept_minimum(db):
    assert check(db, LEGAL.replace("3x Victim One\n", "")).legal  # exactly 30 is enough
    text = LEGAL.replace("3x Victim One\n", "").replace("1 Totem One\n", "")
    assert rules(check(db, text)) == [("deck.sept-deck", "Sept deck has 29 cards; it needs at least 30")]


def test_combat_minimum_copies_and_moons(db):
    text = LEGAL.replace("2 Rally\n", "").replace("2 Bite\n", "1 Bite\n")
    assert rules(check(db, text)) == [
        ("deck.combat-deck", "Combat deck has 19 cards; it needs at least 20"),
        ("deck.combat-deck", "Combat deck has 9 new-moon and 10 full-moon cards; the numbers must be equal"),
    ]
    text = LEGAL.replace("2 Claw Rake\n", "3 Claw Rake\n").replace("2 Block Low\n", "1 Block Low\n")
    assert rules(check(db, text)) == [("deck.combat-deck", "3 copies of Claw Rake in the Combat deck; at most 2")]


def test_cards_in_the_wrong_deck(db):
    text = LEGAL + "\nSept deck:\n1 Parry\nCombat deck:\n1 Ally One\n1 Bite\n"
    assert rules(check(db, text)) == [
        ("deck.sept-deck", "Parry is a Combat Action card, not a Sept card"),
        ("deck.combat-deck", "3 copies of Bite in the Combat deck; at most 2"),
        ("deck.combat-deck", "Ally One is a Ally card, not a Combat card"),
        ("deck.combat-deck", "Combat deck has 11 new-moon and 10 full-moon cards; the numbers must be equal"),
    ]


def test_one_copy_of_any_garou(db):
    text = LEGAL.replace("1 Quiet Step\n", "2 Quiet Step\n")
    found = rules(check(db, text))
    assert ("deck.starting-pack", "2 copies of Quiet Step in the pack; one copy of any Garou") in found


def test_garou_from_an_unrelated_tribe(db):
    text = LEGAL.replace("1 Bright Fang      # Tribe Friendly for Stargazers\n", "1 Iron Hide\n")
    assert rules(check(db, text)) == [
        (
            "deck.starting-pack",
            "Iron Hide (Get of Fenris) is not of Stargazers, a cohort tribe, Tribe Friendly for it, "
            "or an alternate shapeshifter",
        )
    ]


def test_alternate_shapeshifters_capped_by_own_tribe_renown(db):
    text = LEGAL.replace("1 Kiri Wind-Walker\n", "1 Sand Cat\n").replace(
        "1 Bright Fang      # Tribe Friendly for Stargazers\n", ""
    )
    found = rules(check(db, text))
    assert (
        "deck.alternate-shapeshifters",
        "alternate shapeshifters have 7 Renown, more than the 4 Renown of Stargazers's own Garou",
    ) in found
    # 7 Renown of Bastet also outweighs the pack's 4 Renown of Stargazers
    assert ("deck.tribe-card", "Bastet has 7 Renown in the pack, more than Stargazers's 4") in found


def test_no_other_tribe_with_more_renown(db):
    text = LEGAL.replace("1 Kiri Wind-Walker\n", "1 Dust Runner\n")  # Stargazers 4 vs Silver Fangs 5
    assert rules(check(db, text)) == [
        ("deck.tribe-card", "Silver Fangs has 5 Renown in the pack, more than Stargazers's 4")
    ]


def test_auspice_tribe_skips_the_majority_rule(db):
    text = LEGAL.replace("Tribe: Stargazers", "Tribe: Moon Tribe")
    assert rules(check(db, text)) == []


def test_tribe_card_missing_or_wrong(db):
    assert ("deck.tribe-card", "no Tribe card: add a 'Tribe: <name>' line") in rules(
        check(db, LEGAL.replace("Tribe: Stargazers", ""))
    )
    assert ("deck.tribe-card", "Janus is a Garou, not a Tribe card") in rules(
        check(db, LEGAL.replace("Tribe: Stargazers", "Tribe: Janus"))
    )


def test_unknown_card_suggests_close_names(db):
    text = LEGAL.replace("3 Ally One\n", "3 Ally Onee\n")
    assert rules(check(db, text)) == [("deck.known-cards", "line 11: unknown card 'Ally Onee'; did you mean Ally One?")]


def test_unknown_renown_level():
    with pytest.raises(InvalidValue, match="Renown level 18 must be one of 15, 20, 25"):
        check_deck(parse_deck_text(LEGAL), None, renown_level=18)


def test_violation_rule_ids_are_real_rules(db):
    from stkit.tcg.rules import get_rule

    bad = LEGAL.replace("Tribe: Stargazers", "").replace("3 Ally One\n", "9 Ally Onee\n") + "Combat deck:\n5 Bite\n"
    for v in check(db, bad).violations:
        assert get_rule(v.rule).id == v.rule


def test_parse_deck_file_errors(tmp_path):
    with pytest.raises(DataFileError, match=r"missing\.txt: no such file"):
        parse_deck_file(tmp_path / "missing.txt")
    (tmp_path / "latin1.txt").write_bytes("Tribe: Caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataFileError, match=r"latin1\.txt: not UTF-8 text"):
        parse_deck_file(tmp_path / "latin1.txt")


def _deck_file(tmp_path, text):
    path = tmp_path / "deck.txt"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_cli_exit_codes_and_json(db, tmp_path):
    ok = runner.invoke(app, ["tcg", "deck", "check", str(FIX / "legal_deck.txt")], env=ENV)
    assert ok.exit_code == 0 and "Legal" in ok.stdout
    bad = runner.invoke(
        app, ["tcg", "deck", "check", str(FIX / "legal_deck.txt"), "--renown-level", "15", "--json"], env=ENV
    )
    assert bad.exit_code == 1
    assert json.loads(bad.stdout) == {
        "legal": False,
        "violations": [
            {
                "rule": "deck.starting-pack",
                "message": "starting pack costs 20 Renown (cohort extras included); the Renown level is 15",
            }
        ],
        "warnings": [],
    }
    human = runner.invoke(
        app, ["tcg", "deck", "check", _deck_file(tmp_path, LEGAL.replace("2 Bite", "3 Bite"))], env=ENV
    )
    assert human.exit_code == 1 and "deck.combat-deck" in human.stdout and "Not legal" in human.stdout


def test_cli_bad_renown_level_is_usage_error(db):
    result = runner.invoke(app, ["tcg", "deck", "check", str(FIX / "legal_deck.txt"), "--renown-level", "18"], env=ENV)
    assert result.exit_code == 2


def test_cli_malformed_deck_is_one_line_error(db, tmp_path):
    result = runner.invoke(app, ["tcg", "deck", "check", _deck_file(tmp_path, "3 Ally One\n")], env=ENV)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "line 1: card line before any section header" in result.stderr


@pytest.mark.slow
def test_subprocess_deck_check(tmp_path):
    env = {**os.environ, **ENV, "STKIT_CARDS_DB": str(tmp_path / "sub.sqlite")}
    subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "cards", "import", str(FIX / "deck_cards.yaml")],
        env=env,
        check=True,
        capture_output=True,
    )
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "deck", "check", str(FIX / "legal_deck.txt"), "--json"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0 and json.loads(out.stdout) == {"legal": True, "violations": [], "warnings": []}
    out = subprocess.run(
        [sys.executable, "-m", "stkit", "tcg", "deck", "check", str(FIX / "legal_deck.txt"), "--renown-level", "15"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 1


def test_cohort_extra_cost_for_the_second_cohort(db):
    # Dust Runner: Silent Striders, Renown 3, a cohort at +2 -> costs 5; 6 + 4 + 4+1 + 3+2 = 20
    text = LEGAL.replace("1 Bright Fang      # Tribe Friendly for Stargazers\n", "1 Dust Runner\n")
    report = check(db, text)
    assert report.legal, rules(report)
    assert report.summary["pack_renown"] == 20
    assert not check(db, text, level=15).legal


def test_auspice_tribe_counts_the_pack_for_alternate_shapeshifters(db):
    text = LEGAL.replace("Tribe: Stargazers", "Tribe: Moon Tribe").replace(
        "1 Bright Fang      # Tribe Friendly for Stargazers\n", "1 Sand Cat\n"
    )
    report = check(db, text)
    # Kiri 6 + Quiet Step 4 + Hollow Reed 4 = 14 Garou Renown >= Sand Cat's 7; 21 Renown total is too much at 20
    assert rules(report) == [
        ("deck.starting-pack", "starting pack costs 21 Renown (cohort extras included); the Renown level is 20")
    ]
    assert check(db, text, level=25).legal
