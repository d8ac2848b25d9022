"""`stkit shell` fed hostile lines: a line too long to be a command, or input that never ends a line, is one
error line at once, never minutes of splitting or a read without end."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stkit.cli import shell
from tests import hostile_cases as H


def test_a_line_longer_than_any_command_is_refused_before_it_is_split(capsys: pytest.CaptureFixture[str]) -> None:
    start = time.process_time()
    assert shell.run_line("roll 5 --note " + "x" * 2_000_000) == 2
    assert time.process_time() - start < H.TIME_BOUND  # shlex takes minutes on a line this long
    err = capsys.readouterr().err
    assert err.startswith("Error: the line is 2000014 characters long; allowed: at most ")
    assert len(err.splitlines()) == 1
    assert shell.completions("roll 5 --note " + "x" * 2_000_000) == []
    assert shell.run_line("roll 5 --seed 1") == 0  # the shell goes on


def test_the_longest_argument_still_fits_on_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    from stkit.cli.app import MAX_TYPED_TEXT

    assert shell.run_line("roll 5 --seed 1 --note " + "x" * MAX_TYPED_TEXT) == 1  # the note's own limit
    assert "--note is 65536 characters long; allowed: at most 200" in capsys.readouterr().err


def _piped_process(stdin) -> subprocess.CompletedProcess:
    env = dict(os.environ, NO_COLOR="1", PYTHONPATH=str(H.REPO))
    return subprocess.run(
        [sys.executable, "-m", "stkit", "shell"],
        stdin=stdin,
        capture_output=True,
        env=env,
        timeout=120,  # a hang, not a time check: the bound is the read's, tested above
        check=False,
    )


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_input_without_end_of_line_stops_the_script_with_one_line() -> None:
    with open("/dev/zero", "rb") as zero:
        proc = _piped_process(zero)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.startswith("Error: line 1 of the script is longer than ")
    assert len(err.splitlines()) == 1 and not H.raw_controls(err)


def test_an_over_long_line_stops_the_script_after_the_lines_before_it(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("roll 5 --seed 1\nroll 5 --note " + "x" * 1_000_000 + "\nroll 6 --seed 2\n")
    with open(script, "rb") as f:
        proc = _piped_process(f)
    assert proc.returncode == 2
    assert proc.stdout.decode().count("dice at difficulty") == 1  # the first line ran, the third did not
    assert proc.stderr.decode().startswith("Error: line 2 of the script is longer than ")
