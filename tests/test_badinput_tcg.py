"""Bad input to the card-game commands: one `Error:` line on stderr, exit 1, nothing stored, never a traceback.

Regression tests for problems found by adversarial testing (alias bombs, huge or empty situation files,
numbers with thousands of digits, CSV quotes left open, absurd card stats, an empty --derangement).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, InvalidValue
from tests.clirun import one_error

runner = CliRunner()


@pytest.fixture(autouse=True)
def _cards_db(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_CARDS_DB", str(tmp_path / "cards.sqlite"))


def _fails_cleanly(args: list[str], *needles: str) -> str:
    """Run in-process; assert exit 1, nothing on stdout, one `Error:` line naming every needle."""
    return one_error(runner.invoke(app, args), *needles)


def _alias_bomb_moot(n: int = 400) -> str:
    # one Moot with n votes, listed n times through aliases: ~n*n votes from a few KB of text
    votes = "[&v {voter: A, vote: for}" + ",*v" * (n - 1) + "]"
    text = "characters: [{name: A, renown: 1}]\nmoots:\n  - &m {name: M, caller: A, votes: " + votes + "}\n"
    return text + "".join("  - *m\n" for _ in range(n - 1))


def test_alias_bomb_situation_file_is_refused_fast(tmp_path):
    path = tmp_path / "moot.yaml"
    path.write_text(_alias_bomb_moot())
    assert path.stat().st_size < 20_000
    start = time.process_time()  # CPU time: other processes' load does not count
    _fails_cleanly(["tcg", "moot", str(path)], "more than 100000 values", "aliases")
    assert time.process_time() - start < 5  # it took 35 s and 2.3 GB before the fix (n = 3000)


def test_plain_aliases_still_work(tmp_path):
    # a few aliases are fine: the same alpha data reused for two players
    path = tmp_path / "alphas.yaml"
    path.write_text(
        "alphas:\n  - &a {name: One, player: Ann, renown: 2, tribe_fury: 1}\n"
        "  - {<<: *a, name: Two, player: Bob, renown: 3}\n"
    )
    res = runner.invoke(app, ["tcg", "alpha-order", str(path), "--json"])
    assert res.exit_code == 0, res.output
    assert '"Two"' in res.stdout or "Two" in res.stdout


def test_huge_situation_file_is_refused_before_parsing(tmp_path):
    from stkit.tcg.resolvers.files import MAX_FILE_BYTES

    path = tmp_path / "victory.yaml"
    path.write_text("renown_level: 20\n# " + "x" * MAX_FILE_BYTES + "\n")
    _fails_cleanly(["tcg", "victory", str(path)], str(path), "larger than the 1000000 bytes allowed")


@pytest.mark.parametrize("text", ["", "\n\n  \n"])
def test_empty_situation_file_says_empty(tmp_path, text):
    path = tmp_path / "combat.yaml"
    path.write_text(text)
    line = _fails_cleanly(["tcg", "combat", str(path)], "the file is empty")
    assert "NoneType" not in line


def test_comment_only_situation_file_names_no_python_type(tmp_path):
    path = tmp_path / "moot.yaml"
    path.write_text("# nothing yet\n")
    line = _fails_cleanly(["tcg", "moot", str(path)], "top level must be a mapping")
    assert "NoneType" not in line


def test_list_at_top_level_is_named_in_words(tmp_path):
    path = tmp_path / "alphas.yaml"
    path.write_text("- 1\n- 2\n")
    _fails_cleanly(["tcg", "alpha-order", str(path)], "got a list")


def test_number_with_thousands_of_digits_in_yaml(tmp_path):
    path = tmp_path / "victory.yaml"
    path.write_text("renown_level: " + "1" * 5000 + "\n")
    _fails_cleanly(["tcg", "victory", str(path)], str(path), "cannot be read", "5000 digits")


def test_number_with_thousands_of_digits_in_card_files(tmp_path):
    y = tmp_path / "cards.yaml"
    y.write_text("- {name: A, type: Garou, renown: " + "1" * 5000 + "}\n")
    _fails_cleanly(["tcg", "cards", "import", str(y)], "cannot be read")
    j = tmp_path / "cards.json"
    j.write_text('[{"name": "A", "type": "Garou", "renown": ' + "1" * 5000 + "}]")
    _fails_cleanly(["tcg", "cards", "import", str(j)], "malformed JSON", "5000 digits")
    c = tmp_path / "cards.csv"
    c.write_text("name,type,renown\nA,Garou," + "1" * 5000 + "\n")
    _fails_cleanly(["tcg", "cards", "import", str(c)], "line 2", "above 999")


def test_json_nested_too_deeply(tmp_path):
    j = tmp_path / "cards.json"
    j.write_text("[" * 100_000 + "]" * 100_000)
    _fails_cleanly(["tcg", "cards", "import", str(j)], "nested too deeply")


def test_absurd_card_stat_is_refused_and_nothing_stored(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(
        "- {name: Fine, type: Garou, renown: 3}\n- {name: Huge, type: Garou, renown: 99999999999999999999999}\n"
    )
    _fails_cleanly(["tcg", "cards", "import", str(path)], "card 2 (Huge)", "renown", "allowed 0 to 999")
    res = runner.invoke(app, ["tcg", "cards", "show", "Fine"])
    assert res.exit_code == 1  # the good card of the refused file was not stored either
    ok = tmp_path / "ok.yaml"
    ok.write_text("- {name: Big, type: Garou, renown: 999}\n")
    assert runner.invoke(app, ["tcg", "cards", "import", str(ok)]).exit_code == 0


def test_csv_quote_left_open_does_not_swallow_rows(tmp_path):
    # before the fix the open quote swallowed the next row (with its bad renown) into the first card's name
    path = tmp_path / "cards.csv"
    path.write_text('name,type,renown\n"Bad ""quote,Garou,3\nFoo,Garou,abc\n')
    _fails_cleanly(["tcg", "cards", "import", str(path)], "malformed CSV", "quote left open")
    assert runner.invoke(app, ["tcg", "cards", "show", "Foo"]).exit_code == 1


def test_csv_quoted_quotes_still_import(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text('name,type,renown\n"A",Garou,3\n"B ""x"" c",Garou,2\n')
    res = runner.invoke(app, ["tcg", "cards", "import", str(path)])
    assert res.exit_code == 0, res.output
    assert "Imported 2 cards" in res.stdout


def test_csv_value_spanning_lines_is_refused(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text('name,type,renown\n"Two\nlines",Garou,3\n')
    _fails_cleanly(["tcg", "cards", "import", str(path)], "spans several lines")


def test_empty_derangement_is_refused():
    from stkit.tcg.resolvers.frenzy import resolve_frenzy

    with pytest.raises(InvalidValue, match="derangement ''"):
        resolve_frenzy(health=5, wounds=3, frenzy=2, derangement="")
    _fails_cleanly(
        ["tcg", "frenzy", "--health", "5", "--wounds", "3", "--frenzy", "2", "--derangement", ""],
        "derangement ''",
        "Hysterical, Melancholic",
    )
    # spacing and case are still forgiven
    assert resolve_frenzy(health=5, wounds=3, frenzy=2, derangement=" melancholic ")["frenzies"] is False


def test_loader_raises_data_file_error_not_value_error(tmp_path):
    from stkit.tcg.resolvers.files import load_yaml_mapping

    path = tmp_path / "x.yaml"
    path.write_text("a: " + "9" * 4400 + "\n")
    with pytest.raises(DataFileError):
        load_yaml_mapping(path)


def test_subprocess_alias_bomb_and_bad_json_show_no_traceback(tmp_path):
    bomb = tmp_path / "moot.yaml"
    bomb.write_text(_alias_bomb_moot())
    deep = tmp_path / "cards.json"
    deep.write_text("[" * 50_000 + "]" * 50_000)
    env_args = {"capture_output": True, "text": True, "timeout": 60}
    for args in (["tcg", "moot", str(bomb), "--json"], ["tcg", "cards", "import", str(deep)]):
        proc = subprocess.run([sys.executable, "-m", "stkit", *args], **env_args)
        assert proc.returncode == 1, proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout
        if "--json" in args:  # the error is one JSON object on stdout
            assert proc.stderr == "" and json.loads(proc.stdout)["exit"] == 1
            continue
        assert proc.stdout == ""
        assert proc.stderr.startswith("Error: ") and len(proc.stderr.strip().splitlines()) == 1


def test_define_symbol_only_term_is_not_called_empty():
    line = _fails_cleanly(["tcg", "define", "🐺"], "'🐺'", "no letters or digits")
    assert "empty" not in line
    _fails_cleanly(["tcg", "define", "  "], "term is empty")


@pytest.mark.parametrize(
    ("count", "needle"),
    [("9" * 5000, "copies is absurd"), ("99999999999999999999999", "99999999999999999999..."), ("1000", "1000 copies")],
)
def test_deck_absurd_counts(tmp_path, count, needle):
    # a 5,000-digit count used to crash int() with a traceback
    path = tmp_path / "deck.txt"
    path.write_text(f"Tribe: Stargazers\nPack:\n{count} Janus\n")
    _fails_cleanly(["tcg", "deck", "check", str(path)], "line 3", needle, "allowed 1 to 999")


def test_deck_count_999_is_still_read(tmp_path):
    from stkit.tcg.deck import parse_deck_text

    deck = parse_deck_text("Sept deck:\n0999x Janus\n3 Bite\n")
    assert [(line.count, line.name) for line in deck.lines] == [(999, "Janus"), (3, "Bite")]


def test_deck_with_endless_lines_is_refused_fast(tmp_path):
    path = tmp_path / "deck.txt"
    path.write_text("Sept:\n" + "\n".join(f"3 Card{i}" for i in range(100_000)) + "\n")
    start = time.process_time()  # CPU time: other processes' load does not count
    _fails_cleanly(["tcg", "deck", "check", str(path)], "line 2002", "more than 2000 card lines")
    assert time.process_time() - start < 5  # 25 s of fuzzy suggestions before the cap


def test_ambiguous_json_also_says_error_on_stderr():
    import json

    res = runner.invoke(app, ["tcg", "define", "moon", "--json"])
    assert res.exit_code == 1
    assert json.loads(res.stdout)["ambiguous"] is True  # one whole JSON document on stdout
    assert res.stderr.startswith("Error: 'moon' is ambiguous") and len(res.stderr.strip().splitlines()) == 1


def test_combat_with_endless_rounds_is_refused(tmp_path):
    base = (
        "hunter: {name: H, player: Ann, rage: 2, health: 3}\n"
        "prey: {name: P, player: Bob, rage: 2, health: 3}\n"
        "cards:\n  Tap: {kind: attack, damage: 0, rage: 0}\n  Guard: {kind: defense, block: 1, rage: 0}\n"
        "rounds:\n"
    )
    path = tmp_path / "combat.yaml"
    path.write_text(base + "  - {hunter: Tap, prey: Guard}\n" * 501)
    _fails_cleanly(["tcg", "combat", str(path)], "501 rounds listed", "at most 500")
    path.write_text(base + "  - {hunter: Tap, prey: Guard}\n" * 3)
    res = runner.invoke(app, ["tcg", "combat", str(path), "--json"])
    assert res.exit_code == 0, res.output


def test_control_characters_in_card_text_are_refused(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(
        '- {name: "Evil\\e]0;PWNED\\a\\e[2J", type: Garou}\n- {name: Fine, type: Garou, text: "a\\tb\\nc"}\n'
    )
    line = _fails_cleanly(["tcg", "cards", "import", str(path)], "control character '\\x1b'", "card 1")
    assert "\x1b" not in line and "\x07" not in line  # the error never echoes the escape itself
    csv_path = tmp_path / "cards.csv"
    csv_path.write_text("name,type\nEv\x1b[2Jil,Garou\n")
    assert "\x1b" not in _fails_cleanly(["tcg", "cards", "import", str(csv_path)], "line 2", "control character")
    ok = tmp_path / "ok.yaml"
    ok.write_text('- {name: Fine, type: Garou, text: "a\\tb\\nc"}\n')  # tabs and line breaks are text
    assert runner.invoke(app, ["tcg", "cards", "import", str(ok)]).exit_code == 0


def test_control_characters_in_situation_files_are_refused(tmp_path):
    path = tmp_path / "alphas.yaml"
    path.write_text('alphas:\n  - {name: "A\\e[2J", player: P, renown: 1, tribe_fury: 1}\n')
    line = _fails_cleanly(["tcg", "alpha-order", str(path)], "alphas[1].name", "control character '\\x1b'")
    assert "\x1b" not in line
    moot = tmp_path / "moot.yaml"
    moot.write_text('characters:\n  - {name: A, renown: 1, derangements: ["X\\x9b2J"]}\nmoots: []\n')
    _fails_cleanly(["tcg", "moot", str(moot)], "derangements", "control character")


@pytest.mark.parametrize(
    ("event", "needle"),
    [
        ("points:+" + "1" * 5000, "allowed -100 to +100 points"),  # int() of 5,000 digits crashed before
        ("points:+101", "points:+101 moves too far"),
        ("level:-21", "allowed -20 to +20 levels"),
    ],
)
def test_umbra_track_absurd_card_moves(event, needle):
    _fails_cleanly(["tcg", "umbra-track", event], needle)


def test_umbra_track_moves_at_the_limit_still_clamp():
    from stkit.tcg.resolvers.umbra import resolve_umbra_track

    assert resolve_umbra_track(["points:-100"])["points"] == 1
    assert resolve_umbra_track(["level:+20"])["points"] == 25


def test_umbra_track_too_many_events():
    _fails_cleanly(["tcg", "umbra-track", *(["garou-killed"] * 1001)], "1001 Umbra events", "at most 1000")
