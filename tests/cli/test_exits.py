"""How a command ends when its reader goes away or the user stops it, as real processes.

- output read by `head` (a pipe whose reader is gone): no message, exit 141 (the shell's 128 + SIGPIPE);
- Ctrl-C at a question (`char delete`) or in the guided creation (`char create`): one line, exit 130;
- the input ending at those places: one line, exit 1.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.waiting import DEADLINE, wait_until

REPO = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "NO_COLOR": "1",
        "PYTHONPATH": str(REPO),
        "STKIT_DATABASE_URL": "sqlite:///" + str(tmp_path / "s.sqlite"),
    }


def _stkit(*args: str) -> list[str]:
    return [sys.executable, "-c", "from stkit.cli.app import main; main()", *args]


@pytest.mark.parametrize(
    "args",
    [
        ["odds", "300", "--exact"],
        ["roll", "5", "--seed", "1"],
        ["roll", "5", "--seed", "1", "--json"],
        ["--help"],
        ["char", "--help"],
        ["odds", "--help"],
        ["char", "list"],
        ["--version"],
    ],
    ids=" ".join,
)
def test_output_to_a_reader_that_went_away_ends_quietly(tmp_path, args):
    """`stkit ... | head` once head has exited: the pipe has no reader from the start, so every write fails."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(
            _stkit(*args), stdout=write_end, stderr=subprocess.PIPE, env=_env(tmp_path), timeout=DEADLINE, check=False
        )
    finally:
        os.close(write_end)
    assert proc.stderr == b""
    assert proc.returncode == 141


def _read_until(fd: int, marker: bytes, seen: bytearray) -> bool:
    ready, _, _ = select.select([fd], [], [], 0.05)
    if ready:
        try:
            seen.extend(os.read(fd, 4096))
        except OSError:  # a pty whose other side closed
            return marker in seen
    return marker in seen


def _make_character(tmp_path: Path) -> None:
    made = subprocess.run(_stkit("char", "new", "Bob"), capture_output=True, env=_env(tmp_path), timeout=DEADLINE)
    assert made.returncode == 0, made.stderr


def test_ctrl_c_at_the_delete_question_exits_130(tmp_path):
    _make_character(tmp_path)
    proc = subprocess.Popen(
        _stkit("char", "delete", "Bob"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(tmp_path),
    )
    seen = bytearray()
    wait_until(lambda: _read_until(proc.stdout.fileno(), b"[y/N]", seen), "the delete question")
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=DEADLINE)
    assert proc.returncode == 130
    assert err.decode() == "Error: interrupted (Ctrl-C); nothing was changed\n"
    listed = subprocess.run(_stkit("char", "list"), capture_output=True, env=_env(tmp_path), timeout=DEADLINE)
    assert b"Bob" in listed.stdout


def test_the_input_ending_at_the_delete_question_exits_1(tmp_path):
    _make_character(tmp_path)
    proc = subprocess.run(
        _stkit("char", "delete", "Bob"), stdin=subprocess.DEVNULL, capture_output=True, env=_env(tmp_path), timeout=60
    )
    assert proc.returncode == 1
    assert proc.stderr.decode() == "Error: aborted: the input ended before an answer; nothing was changed\n"


@pytest.mark.parametrize(
    ("key", "code", "line"),
    [
        (b"\x03", 130, "Error: creation interrupted (Ctrl-C); nothing stored"),
        (b"\x04", 1, "Error: the input ended before the character was finished; nothing stored"),
    ],
    ids=["ctrl-c", "ctrl-d"],
)
def test_char_create_stopped_at_the_keyboard_says_so_in_one_line(tmp_path, key, code, line):
    """In a terminal (a pseudo-terminal here), as a player would: Ctrl-C or Ctrl-D at the first question."""
    import pty

    main_fd, sub_fd = pty.openpty()
    env = _env(tmp_path) | {"TERM": "xterm", "COLUMNS": "80", "LINES": "24"}
    proc = subprocess.Popen(
        _stkit("char", "create"), stdin=sub_fd, stdout=sub_fd, stderr=subprocess.PIPE, env=env, start_new_session=True
    )
    os.close(sub_fd)
    try:
        seen = bytearray()
        # prompt_toolkit draws its "> " prompt as ">" and cursor moves, after resetting the style
        wait_until(lambda: _read_until(main_fd, b"\x1b[0m>", seen), "the first question's prompt")
        os.write(main_fd, key)
        wait_until(lambda: _read_until(main_fd, b"", seen) and proc.poll() is not None, "the command to end")
        err = proc.stderr.read().decode()
    finally:
        os.close(main_fd)
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=DEADLINE)
    assert proc.returncode == code
    assert err.strip() == line and len(err.splitlines()) == 1
