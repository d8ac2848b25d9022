"""Two processes editing one character at once lose nothing (SQLite WAL + BEGIN IMMEDIATE; PostgreSQL
row locks)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time

import pytest

from stkit.sheet.sheet import Sheet
from stkit.store import characters as C
from stkit.store.db.engine import open_store
from stkit.store.db.gateway import gateway_transaction

# Every test here races interpreters against one store: the slow set (``-m "not slow"`` skips it).
pytestmark = pytest.mark.slow

WORKER = textwrap.dedent(
    """
    import os, random, sys, time
    from pathlib import Path
    from stkit.store import characters as C
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import run_gateway
    from tests.rolls import sheet_roll

    url, go, n, me = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    engine = open_store(url)
    while not go.exists():
        time.sleep(0.005)

    def slowly(edit):
        # Hold the transaction open after the edit, so that the other process reads while this one has
        # written but not committed: without row locks that read would be stale and an update lost.
        def work(session):
            out = edit(session)
            time.sleep(0.004)
            return out
        return work

    for i in range(n):
        run_gateway(engine, slowly(lambda s: C.experience(s, "Shadow-in-the-Wood", "award", 1, f"{me}-{i}")))
        run_gateway(engine, slowly(lambda s: sheet_roll(s, "Shadow-in-the-Wood", "Dexterity + Brawl",
                                                                 rng=random.Random(i))))
        run_gateway(engine, slowly(lambda s: C.damage(s, "Shadow-in-the-Wood", 1, "bashing")))
        run_gateway(engine, slowly(lambda s: C.heal(s, "Shadow-in-the-Wood", 1)))
    """
)


def test_two_processes_lose_nothing(db_url, tmp_path):
    engine = open_store(db_url)
    s = Sheet(name="Shadow-in-the-Wood")
    s.set_trait("Dexterity", 3)
    s.set_trait("Brawl", 4)
    with gateway_transaction(engine) as session:
        C.create_character(session, s)
    go, n = tmp_path / "go", 25
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, db_url, str(go), str(n), f"p{k}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for k in range(2)
    ]
    time.sleep(0.3)
    go.write_text("go")
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    with gateway_transaction(engine, readonly=True) as session:
        sheet = C.get_character(session, "Shadow-in-the-Wood").to_sheet()
        from stkit.store.rolling import recent_log

        logged = recent_log(session, name="Shadow-in-the-Wood", limit=1000)
    assert sheet.xp_total == 2 * n
    assert len(sheet.xp_log) == 2 * n
    assert {e["reason"] for e in sheet.xp_log} == {f"p{k}-{i}" for k in range(2) for i in range(n)}
    assert sheet.damage_boxes == 0
    assert len(logged) == 2 * n


OPENER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from stkit.store.db.engine import open_store
    go = Path(sys.argv[2])
    while not go.exists():
        time.sleep(0.005)
    open_store(sys.argv[1])
    """
)


def test_first_open_by_several_processes_migrates_once(db_url, tmp_path):
    go = tmp_path / "go"
    procs = [
        subprocess.Popen([sys.executable, "-c", OPENER, db_url, str(go)], stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    time.sleep(0.5)
    go.write_text("go")
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
    from stkit.store.db.engine import current_revisions, head_revisions, make_engine

    with make_engine(db_url).connect() as conn:
        assert current_revisions(conn) == head_revisions()
