"""`stkit shell`: commands in one process, errors shown without ending it, lines from a pipe or a prompt."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from stkit.cli import shell


def test_run_line_prints_the_same_roll_as_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("roll 6 --dice 5,4,8,8,2,6") == 0
    assert capsys.readouterr().out.splitlines() == [
        "6 dice at difficulty 6",
        "Dice: 5 4 [8] [8] 2 [6]",
        "3 successes (complete)",
    ]


def test_errors_keep_their_exit_codes_and_do_not_end_the_shell(capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("roll -3") == 1
    assert shell.run_line("roll 5 --wilpower") == 2
    assert shell.run_line('roll "5') == 2
    assert shell.run_line("shell") == 1
    assert shell.run_line("   ") == 0
    err = capsys.readouterr().err
    assert "cannot be attempted" in err
    assert "did you mean --willpower or --willpower-rule?" in err
    assert "cannot read the line: No closing quotation" in err
    assert "already in the shell" in err
    assert shell.run_line("roll 5 --seed 1 --json") == 0  # still working after the errors
    assert '"seed": 1' in capsys.readouterr().out


def test_store_commands_run_in_the_shell(capsys: pytest.CaptureFixture[str]) -> None:
    assert shell.run_line("char new Ana --breed homid") == 0
    assert shell.run_line("char list --json") == 0
    assert '"Ana"' in capsys.readouterr().out


def test_completions_offer_commands_options_and_choices() -> None:
    assert ("roll", -2) in [(w, s) for w, s, _ in shell.completions("ro")]
    assert [w for w, _, _ in shell.completions("roll 5 --specialty ")] == ["none", "double", "reroll"]
    assert [w for w, _, _ in shell.completions("roll 5 --wi")] == ["--willpower", "--willpower-rule"]
    assert shell.completions('roll "5') == []


def test_interactive_prompt_runs_lines_and_leaves_on_end_of_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    history = tmp_path / "hist"
    monkeypatch.setattr(shell, "history_path", lambda: history)
    with create_pipe_input() as pipe:
        pipe.send_text("roll 5 --seed 1\rroll 5 --wilpower\rroll 6 --seed 2\r")
        pipe.close()
        shell.interactive(pt_input=pipe, pt_output=DummyOutput())
    captured = capsys.readouterr()
    assert captured.out.count("dice at difficulty 6") == 2
    assert "Dice: 3 [10] 2 5 2" in captured.out
    assert "did you mean --willpower or --willpower-rule?" in captured.err
    assert "roll 6 --seed 2" in history.read_text()  # kept for the next night


def test_piped_session_prints_every_roll() -> None:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=os.getcwd())
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "shell"],
        input="roll 5 --seed 1\nroll 6 --seed 2\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "5 dice at difficulty 6",
        "Dice: 3 [10] 2 5 2",
        "1 success (marginal)",
        "6 dice at difficulty 6",
        "Dice: <1> 2 2 [6] 3 5",
        "rule of one: 1 success cancelled by 1s",
        "Failure: no successes (the 1s cancelled every success)",
    ]


def test_piped_session_with_a_failed_line_exits_1_after_the_rest() -> None:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=os.getcwd())
    proc = subprocess.run(
        [sys.executable, "-m", "stkit", "shell"],
        input="roll -3\nroll 5 --seed 1\nexit\nroll 6\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "cannot be attempted" in proc.stderr
    assert proc.stdout.count("dice at difficulty") == 1  # `exit` stopped before the last line


def _piped(script: str):
    from typer.testing import CliRunner

    from stkit.cli.app import app

    return CliRunner().invoke(app, ["shell"], input=script)


def test_a_piped_script_is_never_asked_and_goes_on() -> None:
    """A question would read the script's next line as its answer: the command is refused instead."""
    assert _piped("char new X\n").exit_code == 0
    out = _piped("char delete X\nroll 6 --seed 1\ny\nchar list --json\n")
    assert "Error: char delete asks for confirmation, and a script cannot answer: add --yes" in out.stderr
    assert "6 dice at difficulty 6" in out.stdout  # the roll after it ran
    assert '"name": "X"' in out.stdout  # and X is still there
    assert out.exit_code == 1  # lines failed (the refusal, then 'y')
    gone = _piped("char delete X --yes\n")
    assert (gone.exit_code, "Deleted X." in gone.stdout) == (0, True)


@pytest.mark.parametrize(
    ("script", "code"),
    [
        ("roll 2 --seed 1\nexit 7\nroll 3\n", 7),
        ("roll -3\nexit 0\n", 0),  # an explicit status wins over failed lines
        ("roll 2 --seed 1\nexit\n", 0),
        ("roll -3\nquit\n", 1),
        ("exit 255 # done\n", 255),
        ("exit 256\n", 2),
        ("exit ٣\n", 2),
        ("exit 1 2\n", 2),
    ],
)
def test_exit_n_leaves_with_n(script: str, code: int) -> None:
    out = _piped(script)
    assert out.exit_code == code, out.stderr
    assert "3 dice" not in out.stdout


def test_exit_n_at_the_prompt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import typer
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    monkeypatch.setattr(shell, "history_path", lambda: tmp_path / "hist")
    with create_pipe_input() as pipe:
        pipe.send_text("exit 3\r")
        with pytest.raises(typer.Exit) as left:
            shell.interactive(pt_input=pipe, pt_output=DummyOutput())
    assert left.value.exit_code == 3


@pytest.mark.parametrize("umask", [0o000, 0o022, 0o077])
def test_history_is_private_whatever_the_umask(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, umask: int) -> None:
    import stat

    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    history = tmp_path / "data" / "stkit" / "shell_history"
    monkeypatch.setattr(shell, "history_path", lambda: history)
    old = os.umask(umask)
    try:
        with create_pipe_input() as pipe:
            pipe.send_text("roll 2 --seed 1\r")
            pipe.close()
            shell.interactive(pt_input=pipe, pt_output=DummyOutput())
    finally:
        os.umask(old)
    assert "roll 2 --seed 1" in history.read_text()
    assert stat.S_IMODE(history.stat().st_mode) == 0o600
    assert stat.S_IMODE(history.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(history.parent.parent.stat().st_mode) == 0o700


def test_an_older_open_history_is_narrowed(tmp_path: Path) -> None:
    import stat

    history = tmp_path / "shell_history"
    history.write_text("roll 5\n")
    history.chmod(0o644)
    assert shell.private_history(history) == history
    assert stat.S_IMODE(history.stat().st_mode) == 0o600 and history.read_text() == "roll 5\n"
