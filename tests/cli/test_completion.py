"""Shell completion: subcommands, options, choices, and names from the store (characters, traits, open
extended actions and contests), through typer's own completion machinery."""

import os
import subprocess
import sys

from typer.testing import CliRunner

from stkit.cli import complete
from stkit.cli.app import app
from stkit.cli.shell import completions

runner = CliRunner()


def ok(*args: str) -> None:
    result = runner.invoke(app, list(args), env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output


def words(text: str) -> list[str]:
    return [w for w, _, _ in completions(text)]


def test_names_from_the_store(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "c.sqlite"))
    ok("char", "new", "Shadow-in-the-Wood")
    ok("char", "new", "Shadow-Dancer")
    ok("char", "new", "Zoë")
    ok("scene", "start", "Night")
    ok("extended", "start", "Stay hidden", "--pool", "5", "--target", "9")
    ok("extended", "start", "Climb", "--pool", "3", "--target", "9")
    ok("extended", "abandon", "climb")
    ok("contest", "start", "Moot debate", "--a", "6", "--b", "7", "--target", "5")
    assert words("roll dex -c Sha") == ["Shadow-Dancer", "Shadow-in-the-Wood"]
    assert words("roll dex -c sha") == ["shadow-Dancer", "shadow-in-the-Wood"]  # typed case kept
    assert words("char show zo") == ["zoë"]
    assert words("roll dex+br") == ["dex+brawl"]
    assert words("roll St") == ["Strength", "Stamina", "Streetwise", "Stealth"]
    assert words("extended roll ") == ["'Stay hidden'"]  # open ones only, quoted: one word
    assert words("contest status m") == ["'moot debate'"]
    assert words("extended status 1") == ["1"]


def test_no_store_completes_nothing_and_creates_none(tmp_path, monkeypatch) -> None:
    path = tmp_path / "none.sqlite"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(path))
    assert complete.complete_character("a") == []
    assert words("roll 5 --wi") == ["--willpower", "--willpower-rule"]
    assert words("hou") == ["house"]
    assert words("house set difficulty 7 --ch") == ["--chronicle"]
    assert not path.exists()


def test_bash_completion_in_a_real_process(tmp_path) -> None:
    # only what the completion needs: a variable another test of the same worker left in os.environ (a
    # STKIT_* setting, COLUMNS, a shell hint) must not change what the real process completes
    keep = ("PATH", "HOME", "LANG", "SYSTEMROOT", "TMPDIR")
    env = dict(
        {k: v for k, v in os.environ.items() if k in keep},
        PYTHONPATH=os.getcwd(),
        STKIT_DATABASE_URL="sqlite:///" + str(tmp_path / "b.sqlite"),
        _STKIT_COMPLETE="complete_bash",
        COMP_WORDS="stkit roll 5 --speci",
        COMP_CWORD="3",
    )
    proc = subprocess.run(
        [os.path.join(os.path.dirname(sys.executable), "stkit")],  # the console script: prog name 'stkit'
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.stdout.split() == ["--specialty", "--specialty-botch"], (proc.returncode, proc.stdout, proc.stderr)
    # typer finds the shell by walking up the process tree (shellingham): run the console script under bash,
    # as a user would, so a test worker's own parents (execnet, no shell) do not decide the answer
    env.pop("_STKIT_COMPLETE")
    script = subprocess.run(
        ["bash", "-c", '"$0" --show-completion bash; exit $?', os.path.join(os.path.dirname(sys.executable), "stkit")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert script.returncode == 0, (script.stdout, script.stderr)
    assert "_STKIT_COMPLETE=complete_bash" in script.stdout
    assert "complete -o default -F _stkit_completion stkit" in script.stdout


def test_inside_an_open_quote_the_quoted_text_is_completed() -> None:
    # the pages type pools quoted: stkit roll "Dexterity + Drive"; Tab inside the quote completes the Trait
    assert completions('roll "Dexterity + Dr') == [('"Dexterity + Drive', -len('"Dexterity + Dr'), "")]
    assert words("roll 'wits + al") == ["'wits + alertness"]
    assert words('roll "5') == []  # a number of dice: nothing to complete


def test_a_completed_word_with_a_space_is_quoted() -> None:
    assert words("roll dex+animal") == ["'dex+animal Ken'"]  # bare, it would be two words


def test_house_keys_and_their_values() -> None:
    from stkit.dice.house import HOUSE_KEYS

    assert words("house set ") == list(HOUSE_KEYS)
    assert words("house set fr") == ["free-botch", "frenzy-crinos", "frenzy-auspice-moon", "frenzy-rank"]
    assert words("house reset rage") == ["rage-cap"]
    assert words("house set free-botch ") == ["on", "off"]
    assert words("house set specialty ") == ["none", "double", "reroll"]
    assert words("house set rage-cap w") == ["w20"]
    assert words("house set difficulty ") == []  # a number from 2 to 10
    assert words("house set no-such-rule ") == []


def test_house_set_help_names_every_key() -> None:
    from stkit.dice.house import HOUSE_KEYS

    result = runner.invoke(app, ["house", "set", "--help"], env={"NO_COLOR": "1", "COLUMNS": "2000"})
    assert result.exit_code == 0
    missing = [key for key in HOUSE_KEYS if f"{key} (" not in result.output]
    assert not missing, f"`house set --help` leaves out {missing}"
