"""The examples in README.md (top to bottom, in one fresh store), docs/tcg-rules-and-cards.md and docs/odds.md run as written, and the shipped example files
in examples/ (cards.yaml, deck.txt, deck-illegal.txt, lackey-cards.txt, broken-cards.yaml, plugin-cards.txt,
plugin-deck.txt) do what the docs say.

Each ```console block is read in page order: a `$ stkit ...` line is run in-process (typer's CliRunner,
NO_COLOR=1, COLUMNS=100) from the repo root on an empty card database (STKIT_CARDS_DB in tmp_path), and
every output line the page shows must appear, in order, in what the command prints (trailing spaces
ignored). A line that is just `...` skips output; `...` inside a line stands for any text. Other `$ `
lines (such as `$ export ...`) are not run.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from tests.docpages import fits, missing, session

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
EXAMPLES = ROOT / "examples"
TCG_DOC = DOCS / "tcg-rules-and-cards.md"
ODDS_DOC = DOCS / "odds.md"

LEGAL_SEPT_TYPES = {
    "Ally",
    "Enemy",
    "Victim",
    "Battlefield",
    "Gift",
    "Rite",
    "Equipment",
    "Past Life",
    "Totem",
    "Event",
    "Moot",
}
ILLEGAL_VIOLATIONS = [
    {"rule": "deck.known-cards", "message": "line 16: unknown card 'Old Man Harkr'; did you mean Old Man Harker?"},
    {"rule": "deck.combat-deck", "message": "3 copies of Bite in the Combat deck; at most 2"},
    {
        "rule": "deck.combat-deck",
        "message": "Combat deck has 11 new-moon and 10 full-moon cards; the numbers must be equal",
    },
]
PACK_AT_15 = {
    "rule": "deck.starting-pack",
    "message": "starting pack costs 20 Renown (cohort extras included); the Renown level is 15",
}


# --- reading the pages ---------------------------------------------------------------------------------------


def _blocks(doc: Path, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)


def _expected_exit(expected: list[str]) -> int:
    """1 for the outputs that mean failure (an error, an ambiguous name, a deck that is not legal), else 0."""
    failing = ("Error: ", "Not legal at Renown level", '{"legal": false')
    if any(line.startswith(failing) or " could be more than one " in line for line in expected):
        return 1
    return 0


def _invoke(argv: list[str], cards_db: Path):
    env = {"NO_COLOR": "1", "COLUMNS": "100", "STKIT_CARDS_DB": str(cards_db)}
    return CliRunner().invoke(app, argv, env=env)


def _run_page(doc: Path, cards_db: Path) -> list[tuple[list[str], int]]:
    """Run every `$ stkit` line of ``doc``; assert exit codes and shown lines. Returns (argv, exit code)."""
    ran = []
    for argv, expected in session(doc.read_text(encoding="utf-8")):
        result = _invoke(argv, cards_db)
        got = [ln.rstrip() for ln in (result.stdout + result.stderr).splitlines()]
        shown = "\n".join(got)
        assert result.exception is None or isinstance(result.exception, SystemExit), (argv, result.exception)
        assert result.exit_code == _expected_exit(expected), f"stkit {shlex.join(argv)}:\n{shown}"
        lost = missing(expected, got)
        assert lost is None, f"stkit {shlex.join(argv)}: missing {lost!r} in:\n{shown}"
        ran.append((argv, result.exit_code))
    return ran


# --- the pages -----------------------------------------------------------------------------------------------


def test_fits_reads_dots_as_any_text():
    assert fits('{"a": 1, ...}', '{"a": 1, "b": 2}')
    assert fits("x ... y", "x   and more y")
    assert not fits('{"a": 1, ...}', '{"a": 2, "b": 2}')
    assert not fits("Legal at Renown level 20.", "Legal at Renown level 25.")


def test_session_parser_skips_shell_lines():
    steps = session(TCG_DOC.read_text(encoding="utf-8"))
    assert all(argv and not argv[0].startswith("export") for argv, _ in steps)
    # `$ export STKIT_CARDS_DB=...` must not leak into the previous command's expected output
    assert not any(line.startswith("$") for _, expected in steps for line in expected)


def test_tcg_page_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)  # the page runs `stkit tcg cards import examples/cards.yaml` from the repo root
    db = tmp_path / "cards.sqlite"
    monkeypatch.setenv("STKIT_CARDS_DB", str(db))
    ran = _run_page(TCG_DOC, db)
    commands = [shlex.join(argv) for argv, _ in ran]
    assert len(ran) == 22, commands
    failing = [shlex.join(argv) for argv, code in ran if code == 1]
    assert failing == [
        "tcg rules show deck.combat-dek",
        "tcg define moon",
        "tcg cards import examples/broken-cards.yaml",
        "tcg cards show block",
        "tcg deck check examples/deck-illegal.txt --renown-level 15",
        "tcg deck check examples/deck-illegal.txt --json",
    ]
    # the page uses the shipped examples, not files a reader does not have
    for name in (
        "cards.yaml",
        "lackey-cards.txt",
        "broken-cards.yaml",
        "deck.txt",
        "deck-illegal.txt",
        "plugin-cards.txt",
        "plugin-deck.txt",
    ):
        assert any(f"examples/{name}" in c for c in commands), name


def test_examples_readme_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    ran = _run_page(EXAMPLES / "README.md", tmp_path / "cards.sqlite")
    assert [code for _, code in ran] == [0, 0, 1]


def test_odds_page_runs_as_written(tmp_path):
    ran = _run_page(ODDS_DOC, tmp_path / "cards.sqlite")
    commands = [shlex.join(argv) for argv, _ in ran]
    assert commands == [
        "odds 5 -d 7",
        "odds 2 -d 6 --json",
        "odds 5 -d 7 --target 16 --max-turns 10",
        "odds resisted 6 7 -d 8",
        "odds multi 7 6 6",
        "odds 5 -d 11",
        "odds 0",
    ]
    assert [code for _, code in ran] == [0, 0, 0, 0, 0, 1, 1]


def test_odds_page_median_text_matches_the_tool(tmp_path):
    """The page says the median is found beyond --max-turns (Median rolls 11 with ten rolls listed)."""
    text = ODDS_DOC.read_text(encoding="utf-8")
    assert 'When the median is not reached within the turns listed, it shows as "more than K"' not in text
    assert "assumes* a pool of five dice" in text
    result = _invoke(
        ["odds", "5", "-d", "7", "--target", "16", "--max-turns", "10", "--json"], tmp_path / "cards.sqlite"
    )
    data = json.loads(result.stdout)
    assert data["median_turns"] == 11
    assert len(data["by_turn"]) == 10
    assert data["by_turn"][7]["p_done_by"] == pytest.approx(0.2007, abs=5e-5)  # "about one time in five"


def test_odds_page_inline_claims(tmp_path):
    """Numbers the page states in prose: the hand-checked botch chance and what Willpower does to it."""
    db = tmp_path / "cards.sqlite"
    data = json.loads(_invoke(["odds", "5", "-d", "7", "--json"], db).stdout)
    assert data["p_botch"] == 0.04651
    assert data["distribution"][0]["exact"] == "5939/25000"  # 4.7% botch + 19.1% failure = 23.8%
    assert data["at_least"][3]["exact"] == "772/3125"  # a complete success (3 or more), 24.7%
    assert "4651/100000" in _invoke(["odds", "5", "-d", "7", "--exact"], db).stdout
    willpower = json.loads(_invoke(["odds", "5", "-d", "7", "--willpower", "--json"], db).stdout)
    assert (willpower["p_botch"], willpower["p_failure"]) == (0, 0)
    assert willpower["distribution"][1] == {"successes": 1, "p": 0.23756, "exact": "5939/25000"}


# --- the example files ---------------------------------------------------------------------------------------


@pytest.fixture
def example_db(tmp_path, monkeypatch):
    """A fresh card database (via STKIT_CARDS_DB) holding examples/cards.yaml."""
    db = tmp_path / "cards.sqlite"
    monkeypatch.setenv("STKIT_CARDS_DB", str(db))
    monkeypatch.chdir(ROOT)
    result = _invoke(["tcg", "cards", "import", "examples/cards.yaml", "--json"], db)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["imported"] == 27 and report["format"] == "yaml" and report["skipped"] == []
    return db


def test_example_cards_are_marked_and_build_a_deck(example_db):
    from stkit.tcg.cardfiles import parse_card_file

    cards = parse_card_file(EXAMPLES / "cards.yaml").cards
    assert len(cards) == 27
    assert all(c.set == "stkit examples" and c.text.startswith("Made-up example") for c in cards)
    by_type: dict[str, list] = {}
    for c in cards:
        by_type.setdefault(c.type, []).append(c)
    assert [c.name for c in by_type["Tribe"]] == ["Stargazers"]
    assert len(by_type["Garou"]) == 4
    sept = [c for c in cards if c.type in LEGAL_SEPT_TYPES]
    combat = by_type["Combat Action"]
    assert len(sept) == 12 and len(combat) == 10
    assert sorted(c.moon for c in combat) == ["full"] * 5 + ["new"] * 5
    # the database now holds them next to the built-in cards
    result = _invoke(["tcg", "cards", "search", "--type", "Combat Action", "--json"], example_db)
    names = {r["name"] for r in json.loads(result.stdout)["results"]}
    assert names == {c.name for c in combat}


def test_example_deck_is_legal(example_db):
    result = _invoke(["tcg", "deck", "check", "examples/deck.txt"], example_db)
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == "Legal at Renown level 20."
    result = _invoke(["tcg", "deck", "check", "examples/deck.txt", "--json", "--renown-level", "25"], example_db)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {"legal": True, "violations": [], "warnings": []}


def test_example_deck_counts(example_db):
    from stkit.tcg.db import CardDB
    from stkit.tcg.deck import check_deck, parse_deck_file

    deck = parse_deck_file(EXAMPLES / "deck.txt")
    with CardDB(example_db) as db:
        report = check_deck(deck, db, renown_level=20)
    assert report.legal, report.violations
    s = report.summary
    assert (s["sept"], s["combat"], s["moons"]) == (32, 20, {"new": 10, "full": 10})
    # 7 + 5 + (4 + 1 cohort extra) + 3: exactly the Renown level, as the page says
    assert (s["pack_renown"], s["own_tribe_renown"], s["tribe"]) == (20, 12, "Stargazers")


def test_example_illegal_deck(example_db):
    result = _invoke(["tcg", "deck", "check", "examples/deck-illegal.txt", "--json"], example_db)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == {"legal": False, "violations": ILLEGAL_VIOLATIONS, "warnings": []}
    result = _invoke(
        ["tcg", "deck", "check", "examples/deck-illegal.txt", "--renown-level", "15", "--json"], example_db
    )
    assert result.exit_code == 1
    assert json.loads(result.stdout)["violations"] == [*ILLEGAL_VIOLATIONS, PACK_AT_15]
    # the file's own header comment names the lines that are wrong
    lines = (EXAMPLES / "deck-illegal.txt").read_text(encoding="utf-8").splitlines()
    assert lines[15] == "3 Old Man Harkr" and "line 16" in lines[2]
    assert lines[31] == "3 Bite" and "line 32" in lines[3]


def test_example_lackey_and_broken_files(tmp_path, monkeypatch):
    db = tmp_path / "cards.sqlite"
    monkeypatch.chdir(ROOT)
    result = _invoke(["tcg", "cards", "import", "examples/broken-cards.yaml"], db)
    assert result.exit_code == 1
    assert result.stderr.strip() == (
        "Error: examples/broken-cards.yaml: card 2 (Sand Cat): field 'health': -1 is below 0 (allowed 0 or more)"
    )
    result = _invoke(["tcg", "cards", "search", "dune runner", "--json"], db)
    assert json.loads(result.stdout)["results"] == []  # nothing of the broken file was stored
    result = _invoke(["tcg", "cards", "import", "examples/lackey-cards.txt", "--json"], db)
    assert result.exit_code == 0
    assert json.loads(result.stdout) == {
        "file": "examples/lackey-cards.txt",
        "format": "lackey",
        "imported": 7,
        "playtest": 1,
        "skipped": [],
        "merged": [],
        "warnings": [
            {"line": 5, "card": "Sand Cat", "message": "health '-2' is not a number from 0 to 999; kept as text"},
            {"line": 8, "card": "Wyrm Idol", "message": "renown 'lots' is not a number from 0 to 999; kept as text"},
        ],
        "rows": 7,
        "text_only": 0,
        "untyped": [],
    }
    # line 7 is cut short after its keywords but still read; Neon Howl is hidden unless --playtest
    tourist = json.loads(_invoke(["tcg", "cards", "show", "lost tourist", "--json"], db).stdout)
    assert (tourist["type"], tourist["keywords"], tourist["text"]) == ("Victim", ["Human"], None)
    assert json.loads(_invoke(["tcg", "cards", "search", "neon", "--json"], db).stdout)["results"] == []
    hits = json.loads(_invoke(["tcg", "cards", "search", "neon", "--playtest", "--json"], db).stdout)["results"]
    assert [(h["name"], h["playtest"]) for h in hits] == [("Neon Howl", True)]
    result = _invoke(["tcg", "cards", "import", "examples/lackey-cards.txt", "--strict"], db)
    assert result.exit_code == 1 and "line 5" in result.stderr


def test_deck_format_excerpt_is_from_the_example_file():
    """The ```text deck excerpt on the page is examples/deck.txt with lines left out, never changed."""
    (excerpt,) = _blocks(TCG_DOC, "text")
    real = (EXAMPLES / "deck.txt").read_text(encoding="utf-8").splitlines()
    at = 0
    for line in excerpt.splitlines():
        if line in ("...", ""):
            continue
        assert line in real[at:], line
        at = real.index(line, at) + 1


def test_yaml_excerpt_is_from_the_example_file():
    (excerpt,) = _blocks(TCG_DOC, "yaml")
    assert excerpt in (EXAMPLES / "cards.yaml").read_text(encoding="utf-8")


@pytest.mark.slow
def test_examples_as_a_real_subprocess_with_cards_db(tmp_path):
    """The installed entry point, --cards-db instead of the environment variable."""
    db = str(tmp_path / "other.sqlite")
    env = {"NO_COLOR": "1", "COLUMNS": "100", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def stkit(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "stkit", *args, "--cards-db", db],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )

    done = stkit("tcg", "cards", "import", "examples/cards.yaml")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "Imported 27 cards from examples/cards.yaml (yaml)."
    done = stkit("tcg", "deck", "check", "examples/deck.txt")
    assert (done.returncode, done.stdout.strip()) == (0, "Legal at Renown level 20.")
    done = stkit("tcg", "deck", "check", "examples/deck-illegal.txt")
    assert done.returncode == 1
    assert done.stdout.splitlines()[0] == "Not legal at Renown level 20: 3 violations."
    assert "Traceback" not in done.stderr


# --- the README, top to bottom ------------------------------------------------------------------------------
README = ROOT / "README.md"
#: README lines shown but not run here: they serve until stopped, open a prompt, change the user's shell,
#: or name a file of the reader's own.
README_NOT_RUN = ("serve", "shell", "--install-completion", "tcg deck check my-deck.txt")


def _readme_steps() -> list[tuple[list[list[str]], list[str]]]:
    """[(the stkit commands of one `$` line, the output lines shown under it)], in page order."""
    steps: list[tuple[list[list[str]], list[str]]] = []
    for block in _blocks(README, "console"):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.startswith("$ "):
                text = line[2:]
                while text.rstrip().endswith("\\") and i + 1 < len(lines):
                    i += 1
                    text = text.rstrip()[:-1] + " " + lines[i].strip()
                words = shlex.split(text, comments=True)
                commands, current = [], []
                for w in [*words, ";"]:
                    if w in (";", "&&"):
                        if current:
                            commands.append(current)
                        current = []
                    elif w.endswith(";"):
                        current.append(w[:-1])
                        commands.append(current)
                        current = []
                    else:
                        current.append(w)
                assert all(c[0] == "stkit" for c in commands), text
                steps.append(([c[1:] for c in commands], []))
            elif steps and line.strip():
                steps[-1][1].append(line.rstrip())
            i += 1
    return steps


def test_the_readme_holds_top_to_bottom_in_one_fresh_store(tmp_path, monkeypatch):
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(tmp_path / "readme.sqlite"))
    monkeypatch.setenv("STKIT_CARDS_DB", str(tmp_path / "cards.sqlite"))
    monkeypatch.chdir(ROOT)  # `char import characters/` as a reader in a clone would type it
    steps = _readme_steps()
    assert len(steps) > 30
    ran = 0
    for commands, shown in steps:
        for argv in commands:
            if " ".join(argv).startswith(README_NOT_RUN) or argv[0] in README_NOT_RUN:
                continue
            result = CliRunner().invoke(app, argv, env={"NO_COLOR": "1", "COLUMNS": "100"})
            assert result.exit_code == 0, (argv, result.stdout, result.stderr)
            ran += 1
            out = [line.rstrip() for line in result.stdout.splitlines()]
            at = 0
            for want in shown:
                while at < len(out) and out[at] != want:
                    at += 1
                assert at < len(out), (argv, want, result.stdout)
    assert ran > 30
