"""Characters by a unique prefix of their name (case and accents folded), on SQLite and PostgreSQL."""

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import InvalidValue, NotFound
from stkit.sheet.sheet import Sheet
from stkit.store import characters as C
from stkit.store.db.gateway import run_unit

runner = CliRunner()


def _add(db: str, *names: str, chronicle: str = "default") -> None:
    def work(gw):
        for n in names:
            C.create_character(gw, Sheet(name=n, chronicle=chronicle))

    run_unit(db, work)


def test_unique_prefix_exact_name_and_ambiguity(db_url: str) -> None:
    _add(db_url, "Shadow-in-the-Wood", "Shadow-Dancer", "Zoë Runs-Far", "Shadow")
    find = lambda typed: run_unit(db_url, lambda gw: C.find_character(gw, typed).name, readonly=True)  # noqa: E731
    assert find("shadow-in") == "Shadow-in-the-Wood"
    assert find("SHADOW IN THE") == "Shadow-in-the-Wood"
    assert find("zoe") == "Zoë Runs-Far"  # accents folded
    assert find("shadow") == "Shadow"  # an exact name wins over the prefix it is of
    assert find("shadow-") == "Shadow"  # the key of "shadow-" is "shadow": exact again
    assert find("shadow d") == "Shadow-Dancer"
    with pytest.raises(InvalidValue) as err:
        run_unit(db_url, lambda gw: C.find_character(gw, "sha"), readonly=True)
    assert (
        str(err.value) == "character 'sha' could be Shadow, Shadow-Dancer or Shadow-in-the-Wood; type more of the name"
    )
    with pytest.raises(NotFound):
        find("q")


def test_like_wildcards_are_literal(db_url: str) -> None:
    _add(db_url, "Ana", "Bo")
    with pytest.raises(NotFound):
        run_unit(db_url, lambda gw: C.find_character(gw, "%"), readonly=True)
    with pytest.raises(NotFound):
        run_unit(db_url, lambda gw: C.find_character(gw, "_"), readonly=True)


def test_prefix_in_several_chronicles_asks_for_one(db_url: str) -> None:
    _add(db_url, "Mari Cries-Wolf", chronicle="one")
    _add(db_url, "Mari Cries-Wolf", chronicle="two")
    with pytest.raises(InvalidValue, match="several chronicles"):
        run_unit(db_url, lambda gw: C.find_character(gw, "mari"), readonly=True)
    assert run_unit(db_url, lambda gw: C.find_character(gw, "mari", "two").chronicle, readonly=True) == "two"


def test_many_candidates_are_cut_short(db_url: str) -> None:
    _add(db_url, *[f"Runner {i:02d}" for i in range(15)])
    with pytest.raises(InvalidValue) as err:
        run_unit(db_url, lambda gw: C.find_character(gw, "run"), readonly=True)
    assert str(err.value).startswith("character 'run' could be Runner 00, Runner 01, ")
    assert str(err.value).endswith("Runner 09 and more; type more of the name")


def test_delete_takes_the_whole_name(db_url: str) -> None:
    _add(db_url, "Shadow-in-the-Wood")
    with pytest.raises(InvalidValue, match="deleting needs the whole name: 'Shadow-in-the-Wood', not 'shad'"):
        run_unit(db_url, lambda gw: C.delete_character(gw, "shad"))
    assert run_unit(db_url, lambda gw: C.delete_character(gw, "shadow in the wood")) == "Shadow-in-the-Wood"


def test_roll_dex_plus_brawl_with_a_short_name(db_url: str) -> None:
    result = runner.invoke(
        app,
        ["char", "new", "Shadow-in-the-Wood", "--set", "Dexterity=3", "--set", "Brawl=2"],
        env={"NO_COLOR": "1"},
    )
    assert result.exit_code == 0, result.output
    roll = runner.invoke(app, ["roll", "dex+brawl", "-c", "shadow", "--seed", "1"], env={"NO_COLOR": "1"})
    assert roll.exit_code == 0, roll.output
    assert roll.stdout.splitlines()[:4] == [
        "Shadow-in-the-Wood: Dexterity 3 + Brawl 2 = 5 dice",
        "5 dice at difficulty 6",
        "Dice: 3 [10] 2 5 2",
        "1 success (marginal)",
    ]
