"""The hosted shape: many chronicles, several `stkit serve --all` processes on one store, pages at a table's
rate.

Builds N chronicles (a Storyteller and five characters each, so six links: six pages per chronicle), starts
P `stkit serve --all` processes on the store, opens one event stream per page (each on its own link and
its own connection; the pages of one chronicle spread over the processes), then writes one event every
``--every`` seconds per chronicle (a 'message', through the store's own use case, from this process) for
``--seconds``. Prints, over every delivery: p50/p95/max from commit (the writer's commit returned) to the
page (its stream delivered the event), lost (deliveries never made), duplicated (made twice), the
processes' memory per open stream, and the load average while it ran.

Usage:
  python benchmarks/hosted.py --chronicles 50 --processes 2 --db postgresql+psycopg://U:P@127.0.0.1:PORT/DB
  python benchmarks/hosted.py --chronicles 5 --processes 1 --db sqlite:////tmp/hosted.sqlite
(a PostgreSQL database gets a schema of its own, dropped afterwards; a SQLite file must not exist yet).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import socket
import statistics
import subprocess
import sys
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import quote

PAGES = 6
_KEY = re.compile(r"bench-(\d+)-(\d+)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _build(url: str, chronicles: int) -> dict[int, list[str]]:
    """Chronicles c0..cN-1 with five characters each; {chronicle number: its six tokens}."""
    from stkit.sheet.sheet import Sheet
    from stkit.store.characters import create_character
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import issue_links

    tokens = {}
    for c in range(chronicles):
        name = f"c{c}"

        def work(gw, name=name):
            for k in range(PAGES - 1):
                create_character(gw, Sheet(name=f"Player {k}", chronicle=name))
            return [link.token for link in issue_links(gw, name)]

        tokens[c] = run_unit(url, work)
    return tokens


async def _page(base: str, token: str, c: int, got: dict, stop: asyncio.Event, ready: list) -> None:
    """One page: its stream, recording (chronicle, n) -> [arrival times]."""
    import httpx

    async with (
        httpx.AsyncClient(base_url=base, timeout=None) as client,
        client.stream("GET", "/events", cookies={"stkit_table": token}) as r,
    ):
        if r.status_code != 200:
            raise SystemExit(f"a stream was refused: {r.status_code} {(await r.aread())[:200]!r}")
        ready.append(1)
        async for line in r.aiter_lines():
            if line.startswith("data:"):
                found = _KEY.search(line)
                if found and int(found.group(1)) == c:
                    got.setdefault((token, int(found.group(2))), []).append(time.monotonic())
            if stop.is_set():
                return


async def _run(args, url: str, tokens: dict[int, list[str]], bases: list[str], pids: list[int]) -> dict:
    from stkit.store.db.handle import StoreHandle
    from stkit.store.table.talk import say

    got: dict[tuple[str, int], list[float]] = {}
    committed: dict[tuple[int, int], float] = {}
    stop = asyncio.Event()
    ready: list = []
    rss_before = {pid: _rss_kib(pid) for pid in pids}
    pages = [
        asyncio.create_task(_page(bases[(c + i) % len(bases)], tok, c, got, stop, ready))
        for c, toks in tokens.items()
        for i, tok in enumerate(toks)
    ]
    deadline = time.monotonic() + 120
    while len(ready) < len(pages):
        if time.monotonic() > deadline:
            raise SystemExit(f"only {len(ready)} of {len(pages)} streams opened in 120 s")
        await asyncio.sleep(0.1)
    rss_open = {pid: _rss_kib(pid) for pid in pids}
    store = StoreHandle(url, fast=False)
    pool = ThreadPoolExecutor(max_workers=8)
    loop = asyncio.get_running_loop()
    rng = random.Random(1)
    load: list[float] = []

    def write(c: int, n: int) -> None:
        store.run(lambda gw: say(gw, f"c{c}", f"bench-{c}-{n}"))
        committed[(c, n)] = time.monotonic()

    async def chronicle_writer(c: int) -> None:
        await asyncio.sleep(rng.uniform(0, args.every))
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < args.seconds:
            await loop.run_in_executor(pool, write, c, n)
            n += 1
            await asyncio.sleep(max(0.0, start + n * args.every - time.monotonic()))

    async def watch_load() -> None:
        while not stop.is_set():
            load.append(os.getloadavg()[0])
            await asyncio.sleep(5)

    watcher = asyncio.create_task(watch_load())
    await asyncio.gather(*(chronicle_writer(c) for c in tokens))
    drain = time.monotonic() + 10
    expected = len(committed) * PAGES
    while time.monotonic() < drain and sum(1 for k in got if k[1] >= 0) < expected:
        await asyncio.sleep(0.1)
    stop.set()
    for task in [*pages, watcher]:
        task.cancel()
    await asyncio.gather(*pages, watcher, return_exceptions=True)
    pool.shutdown()
    latencies, lost, duplicated = [], 0, 0
    for (c, n), at in committed.items():
        for tok in tokens[c]:
            arrivals = got.get((tok, n), [])
            if not arrivals:
                lost += 1
                continue
            duplicated += len(arrivals) - 1
            latencies.append(arrivals[0] - at)
    return {
        "events": len(committed),
        "deliveries": expected,
        "latencies": latencies,
        "lost": lost,
        "duplicated": duplicated,
        "streams": len(pages),
        "rss_before": rss_before,
        "rss_open": rss_open,
        "load": load,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chronicles", type=int, default=50)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--db", required=True, help="a PostgreSQL URL, or a SQLite URL of a file not created yet")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the events are written")
    parser.add_argument("--every", type=float, default=2.0, help="seconds between a chronicle's events")
    args = parser.parse_args()
    stkit = shutil.which("stkit") or os.path.join(os.path.dirname(sys.executable), "stkit")
    schema = None
    url = args.db
    if url.startswith("postgresql"):
        import psycopg

        schema = "hosted_" + uuid.uuid4().hex[:10]
        plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
        with psycopg.connect(plain, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        url = f"{url}{'&' if '?' in url else '?'}options={quote(f'-csearch_path={schema}')}"
    procs: list[subprocess.Popen] = []
    try:
        tokens = _build(url, args.chronicles)
        env = dict(os.environ, STKIT_DATABASE_URL=url, NO_COLOR="1")
        bases = []
        for _ in range(args.processes):
            port = _free_port()
            cmd = [stkit, "serve", "--all", "--port", str(port), "--json"]
            procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True))
            bases.append(json.loads(procs[-1].stdout.readline())["url"])  # type: ignore[union-attr]
        for base in bases:  # listening?
            port = base.rsplit(":", 1)[1]
            deadline = time.monotonic() + 60
            while True:
                try:
                    socket.create_connection(("127.0.0.1", int(port)), timeout=1).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit(f"{base} did not start") from None
                    time.sleep(0.1)
        out = asyncio.run(_run(args, url, tokens, bases, [p.pid for p in procs]))
    finally:
        for p in procs:
            p.send_signal(2)
        for p in procs:
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                p.kill()
        if schema is not None:
            with psycopg.connect(plain, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    lat = sorted(out["latencies"])
    q = statistics.quantiles(lat, n=100) if len(lat) >= 2 else [0.0] * 99
    per_stream = [
        (out["rss_open"][pid] - out["rss_before"][pid]) / max(1, out["streams"] / len(procs)) for pid in out["rss_open"]
    ]
    print(
        f"{args.chronicles} chronicles x {PAGES} pages = {out['streams']} streams over {args.processes} processes "
        f"({'PostgreSQL' if schema else 'SQLite'}); one event every {args.every:g} s per chronicle "
        f"for {args.seconds:g} s"
    )
    print(f"events written: {out['events']}; deliveries expected: {out['deliveries']}")
    print(f"commit -> page: p50 {q[49] * 1000:.1f} ms, p95 {q[94] * 1000:.1f} ms, max {max(lat) * 1000:.1f} ms")
    print(f"lost: {out['lost']}, duplicated: {out['duplicated']}")
    print(
        "server memory: "
        + ", ".join(f"{out['rss_open'][pid] / 1024:.0f} MiB" for pid in out["rss_open"])
        + f" with streams open; {statistics.mean(per_stream):.0f} KiB per stream"
    )
    low, high = min(out["load"]), max(out["load"])
    print(f"load average (1 min) while running: {low:.2f} to {high:.2f}; cores: {os.cpu_count()}")


if __name__ == "__main__":
    main()
