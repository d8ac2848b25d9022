"""Never lose a roll: many processes rolling one extended action at once, and processes killed mid-roll.

The figures (processes, rolls, seconds) are printed; run with -s to see them.
"""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from stkit.dice.contest import replay_extended
from stkit.store.db.gateway import gateway_transaction
from stkit.store.extended import extended_rolls, get_action, start_extended

from .conftest import add_character, sql

# Every test here starts interpreters and races or kills them: the slow set (``-m "not slow"`` skips it).
pytestmark = pytest.mark.slow

WORKER = str(Path(__file__).with_name("_worker.py"))
PROCESSES = int(os.environ.get("STKIT_CONCURRENCY_PROCESSES", "8"))
ROLLS_EACH = int(os.environ.get("STKIT_CONCURRENCY_ROLLS", "25"))


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2]) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _action(engine, *, target=1000, pool="Stamina + Stealth", difficulty=9):  # the largest target: never reached
    add_character(engine, "Weston", attributes={"Stamina": 3}, abilities={"Stealth": 3})
    with gateway_transaction(engine) as s:
        # difficulty 9 with six dice botches about one roll in seven: plenty of resets to replay in order
        return start_extended(
            s, "Stay hidden", chronicle=None, character="Weston", pool=pool, difficulty=difficulty, target=target
        ).id


def _open_gate(gate: Path, procs: list, timeout: float = 300) -> float:
    """Wait until every worker has opened its store and is waiting at ``gate``, then let them all go at once;
    returns the moment they were let go (time.monotonic)."""
    deadline = time.monotonic() + timeout
    while len(list(gate.glob("ready-*"))) < len(procs):
        for p in procs:
            assert p.poll() is None, p.stderr.read()
        assert time.monotonic() < deadline, "the workers never got ready"
        time.sleep(0.01)
    (gate / "go").touch()
    return time.monotonic()


def _stored_rolls(engine, aid) -> int:
    with gateway_transaction(engine) as s:
        return len(sql(s, "SELECT id FROM tracked_rolls WHERE action_id = :aid", aid=aid))


def _check_consistent(engine, aid, expected_rolls=None):
    """The stored tally equals what the logged rolls imply, botch resets in order; no roll lost or doubled."""
    with gateway_transaction(engine) as s:
        action = get_action(s, aid)
        rolls = extended_rolls(s, aid)
        logs = {r[0]: r[1:] for r in sql(s, "SELECT id, result, outcome, dice FROM roll_log WHERE kind = 'extended'")}
    assert [r.seq for r in rolls] == list(range(1, len(rolls) + 1))
    assert action.rolls == len(rolls) == len(logs)
    assert sorted(r.roll_log_id for r in rolls) == sorted(logs)
    # the rolls were applied one after the other, in the order they were logged
    assert [r.roll_log_id for r in rolls] == sorted(r.roll_log_id for r in rolls)
    for r in rolls:
        result, outcome, dice = logs[r.roll_log_id]
        assert (result, outcome, json.loads(dice)) == (r.result, r.outcome, list(r.dice))
    state = replay_extended(action.target, [(r.result, r.outcome == "botch") for r in rolls])
    assert (state.tally, state.botches) == (action.tally, action.botches)
    running = replay_extended(action.target, [])
    for r in rolls:  # every intermediate tally too
        running = replay_extended(action.target, [(x.result, x.outcome == "botch") for x in rolls[: r.seq]])
        assert running.tally == r.tally_after
    if expected_rolls is not None:
        assert len(rolls) == expected_rolls
    return action, rolls


def test_many_processes_roll_one_extended_action_at_once(engine, store_url, tmp_path):
    aid = _action(engine)
    procs = [
        subprocess.Popen(
            [sys.executable, WORKER, "rolls", store_url, str(aid), str(ROLLS_EACH), str(tmp_path), str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for i in range(PROCESSES)
    ]
    started = _open_gate(tmp_path, procs)
    outs = [p.communicate(timeout=300) for p in procs]
    elapsed = time.monotonic() - started
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    ids = [i for out, _ in outs for i in json.loads(out)["ids"]]
    assert len(ids) == len(set(ids)) == PROCESSES * ROLLS_EACH
    action, rolls = _check_consistent(engine, aid, PROCESSES * ROLLS_EACH)
    assert sorted(ids) == sorted(r.roll_log_id for r in rolls)
    backend = "sqlite" if store_url.startswith("sqlite") else "postgresql"
    print(
        f"\n[concurrency] {backend}: {PROCESSES} processes x {ROLLS_EACH} rolls = {len(rolls)} rolls "
        f"in {elapsed:.2f} s ({len(rolls) / elapsed:.0f} rolls/s); tally {action.tally}, {action.botches} botches"
    )
    assert action.botches >= 1  # the replay above did exercise botch resets


def test_killed_mid_roll_leaves_nothing(engine, store_url, tmp_path):
    aid = _action(engine)
    marker = tmp_path / "mid-roll"
    proc = subprocess.Popen(
        [sys.executable, WORKER, "hang", store_url, str(aid), str(marker)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=_env(),
    )
    deadline = time.monotonic() + 300
    while not marker.exists():
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < deadline, "the worker never reached the middle of its roll"
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    action, _rolls = _check_consistent(engine, aid, 0)
    from stkit.store.characters import get_character

    with gateway_transaction(engine) as s:
        assert sql(s, "SELECT id FROM roll_log") == []  # no log entry without its effect
        assert get_character(s, "Weston").to_sheet().powers["Willpower"].temporary == 3  # nothing spent
    assert (action.tally, action.rolls) == (0, 0)


def test_killed_at_random_moments_keeps_whole_rolls(engine, store_url):
    aid = _action(engine)
    kills = 0
    # Each worker is killed once it has committed a few more rolls (a count, not a delay, so that a slow
    # start cannot make the kill land before the first roll), at whatever point of the next roll it is.
    for more in (1, 3, 7):
        before = _stored_rolls(engine, aid)
        proc = subprocess.Popen(
            [sys.executable, WORKER, "loop", store_url, str(aid)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_env(),
        )
        deadline = time.monotonic() + 300
        while _stored_rolls(engine, aid) < before + more:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "the worker never rolled"
            time.sleep(0.005)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        kills += 1
        _check_consistent(engine, aid)  # every roll whole, whatever moment the kill hit
    _, rolls = _check_consistent(engine, aid)
    assert len(rolls) >= 1 + 3 + 7
    print(f"\n[crash] {kills} workers killed mid-loop: {len(rolls)} whole rolls kept, none partial")


def test_many_processes_roll_one_contest_at_once(engine, store_url, tmp_path):
    from stkit.dice.contest import ContestState, advance_contest
    from stkit.store.contests import contest_rolls, get_contest, start_contest

    add_character(engine, "Archibald", attributes={"Dexterity": 3}, abilities={"Drive": 2})
    with gateway_transaction(engine) as s:
        cid = start_contest(
            s,
            "Endless chase",
            chronicle=None,
            a="Archibald",
            b="5",
            pool_a="Dexterity + Drive",
            pool_b=None,
            difficulty=7,
            difficulty_b=None,
            target=1000,
        ).id
    procs_n, each = 4, 10
    procs = [
        subprocess.Popen(
            [sys.executable, WORKER, "contest", store_url, str(cid), str(each), str(tmp_path), str(i)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
        )
        for i in range(procs_n)
    ]
    _open_gate(tmp_path, procs)
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (_out, err) in zip(procs, outs, strict=True):
        assert p.returncode == 0, err
    numbers = sorted(n for out, _ in outs for n in json.loads(out)["exchanges"])
    assert numbers == list(range(1, procs_n * each + 1))  # every exchange once, none lost or repeated
    with gateway_transaction(engine) as s:
        contest = get_contest(s, cid)
        rolls = contest_rolls(s, cid)
    assert [(r.exchange, r.side) for r in rolls] == [(n, side) for n in numbers for side in "ab"]
    state = ContestState(target=1000)
    for a, b in zip(rolls[::2], rolls[1::2], strict=True):
        state, _ = advance_contest(state, a.result, a.outcome == "botch", b.result, b.outcome == "botch")
    assert (state.tally_a, state.tally_b, state.exchanges) == (contest.tally_a, contest.tally_b, contest.exchanges)
