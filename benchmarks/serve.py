"""The table server under a table's load: clients following the event stream while other processes roll.

Starts `stkit serve` in a subprocess on a fresh store (SQLite by default, or --db URL, e.g. PostgreSQL),
opens --clients event streams in this process, each on a Storyteller link of its own (the server keeps
at most a few streams per link, as one person has few pages), and runs --writers processes that
together make --rate rolls a second for --duration seconds through the store's roll use case. Each writer
notes the wall-clock time right after each roll's transaction commits; each client notes when the roll's
event arrives. Prints the p50 and p95 of (arrival - commit) over every client and roll, the events lost or
received twice (both must be 0), and the server's resident memory.

With --pages N (default 5) as many real pages (headless Chromium, /usr/bin/chromium through Playwright),
each joined by a Storyteller link of its own, follow the table meanwhile, each reading the status panel
again after every roll as a page does; 0 leaves them out (no browser needed).

Target: p95 under 150 ms, nothing lost.

Usage: python benchmarks/serve.py [--db URL] [--clients 20] [--writers 4] [--rate 10] [--duration 30] [--pages 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

WRITER = """
import json, random, sys, time
from stkit.dice import roll_pool
from stkit.store.db.gateway import run_unit
from stkit.store.rolling import RollOrder, make_roll

url, chronicle = sys.argv[1], sys.argv[2]
rate, duration, start, me = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
rng = random.Random(me)
done = []
n = 0
while True:
    at = start + n / rate
    if at > start + duration:
        break
    pause = at - time.time()
    if pause > 0:
        time.sleep(pause)
    entry = run_unit(url, lambda gw: make_roll(gw, RollOrder("5", chronicle=chronicle, seed=rng.randrange(2**31))))
    done.append((entry.log_id, time.time()))
    n += 1
print(json.dumps(done))
"""


PAGES = """
import json, sys, time
from playwright.sync_api import sync_playwright
links, until = json.loads(sys.argv[1]), float(sys.argv[2])
args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=args, headless=True)
    pages = []
    for link in links:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(link)
        page.wait_for_selector("#live.live", timeout=20000)
        pages.append(page)
    print("ready", flush=True)
    while time.time() < until:
        pages[0].wait_for_timeout(500)
    print(sum(p.locator("#feed > li").count() for p in pages), flush=True)
    browser.close()
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss_kb(pid: int) -> tuple[int, int]:
    """(current, peak) resident memory of ``pid`` in KiB, from /proc."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


async def _follow(base: str, token: str, arrivals: dict, ready: asyncio.Event, stop: asyncio.Event, n: int) -> None:
    import httpx

    async with (
        httpx.AsyncClient(timeout=None, cookies={"stkit_table": token}) as client,
        client.stream("GET", base + "/events") as response,
    ):
        ready.set()
        event, data = None, None
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):  # an event's data may span several lines
                data = (data + "\n" if data is not None else "") + line[5:].strip()
            elif line == "":  # the end of an event (or of a comment, a ping)
                if event == "roll" and data is not None and 'data-log-id="' in data:
                    marker = data.split('data-log-id="', 1)[1].split('"', 1)[0]
                    arrivals.setdefault(int(marker), []).append((n, time.time()))
                event, data = None, None
            if stop.is_set():
                return


def _storyteller_tokens(url: str, chronicle: str, n: int) -> list[str]:
    """``n`` new Storyteller links of ``chronicle`` in the store ``url`` (one per client), as tokens."""
    from stkit.store.gateway import run_unit

    from stkit.store.table.events import issue_links

    tokens = []
    for _ in range(n):
        links = run_unit(url, lambda gw: issue_links(gw, chronicle, rotate=False))
        tokens += [link.token for link in links if link.role == "storyteller"]
    return tokens


async def _run_clients(base: str, tokens: list[str], arrivals: dict, start_writers) -> list:
    """Open a stream per token, start the writers once every stream is open (``start_writers()`` returns
    them and the time the rolling ends), follow until three seconds after that, and return the writers."""
    stop = asyncio.Event()
    readies = [asyncio.Event() for _ in tokens]
    tasks = [asyncio.create_task(_follow(base, token, arrivals, readies[i], stop, i)) for i, token in enumerate(tokens)]
    await asyncio.gather(*(r.wait() for r in readies))
    writers, until = start_writers()
    while time.time() < until + 3.0:
        await asyncio.sleep(0.1)
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return writers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="store URL (default: a new SQLite file in a temporary folder)")
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--rate", type=float, default=10.0, help="rolls per second, all writers together")
    parser.add_argument("--duration", type=float, default=30.0, help="seconds of rolling")
    parser.add_argument("--pages", type=int, default=5, help="real browser pages open meanwhile (0: none)")
    args = parser.parse_args()

    tmp = tempfile.mkdtemp(prefix="stkit-bench-serve-")
    url = args.db or "sqlite:///" + os.path.join(tmp, "table.sqlite")
    chronicle = "bench-" + uuid.uuid4().hex[:8]
    env = os.environ | {
        "STKIT_DATABASE_URL": url,
        "STKIT_CHRONICLE": chronicle,
        "PYTHONPATH": str(ROOT),
        "NO_COLOR": "1",
    }
    sys.path.insert(0, str(ROOT))
    tokens = _storyteller_tokens(url, chronicle, args.clients + args.pages)
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "stkit", "serve", "--port", str(port), "--json", "--no-qr"],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        json.loads(server.stdout.readline())  # the links it printed: the clients have their own
        base = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        browsers = None
        if args.pages:
            browsers = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    PAGES,
                    json.dumps([f"{base}/join/{t}" for t in tokens[args.clients :]]),
                    str(time.time() + 3600),
                ],
                env=env,
                stdout=subprocess.PIPE,
                text=True,
            )
            assert browsers.stdout is not None
            assert browsers.stdout.readline().strip() == "ready", "the browser pages did not open"

        def start_writers() -> tuple[list, float]:
            start = time.time() + 0.5  # every client's stream is open: the rolls start now
            writers = [
                subprocess.Popen(
                    [
                        sys.executable,
                        "-c",
                        WRITER,
                        url,
                        chronicle,
                        str(args.rate / args.writers),
                        str(args.duration),
                        str(start + i / args.rate),
                        str(i),
                    ],
                    env=env,
                    stdout=subprocess.PIPE,
                    text=True,
                )
                for i in range(args.writers)
            ]
            return writers, start + args.duration

        arrivals: dict[int, list[tuple[int, float]]] = {}
        writers = asyncio.run(_run_clients(base, tokens[: args.clients], arrivals, start_writers))
        committed: dict[int, float] = {}
        for w in writers:
            out, _ = w.communicate(timeout=60)
            committed.update({log_id: at for log_id, at in json.loads(out)})
        rss, peak = _rss_kb(server.pid)
        if browsers is not None:
            browsers.kill()
            browsers.wait()
    finally:
        server.send_signal(2)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()

    delays, lost, twice = [], 0, 0
    for log_id, at in committed.items():
        got = arrivals.get(log_id, [])
        seen: dict[int, list[float]] = {}
        for client, when in got:
            seen.setdefault(client, []).append(when)
        lost += args.clients - len(seen)
        twice += sum([len(v) - 1 for v in seen.values()])
        delays += [(v[0] - at) * 1000 for v in seen.values()]
    delays.sort()
    db_kind = "PostgreSQL" if url.startswith("postgresql") else "SQLite"
    print(
        f"store: {db_kind}; {args.clients} clients, {args.pages} browser pages, {args.writers} writers, "
        f"{args.rate:g} rolls/s, {args.duration:g} s"
    )
    print(f"rolls committed: {len(committed)}; deliveries expected: {len(committed) * args.clients}")
    if delays:
        p50 = statistics.median(delays)
        p95 = delays[min(len(delays) - 1, int(0.95 * len(delays)))]
        print(f"commit -> arrival: p50 {p50:.1f} ms, p95 {p95:.1f} ms, max {delays[-1]:.1f} ms (target p95 < 150 ms)")
    print(f"lost: {lost}, received twice: {twice} (both must be 0)")
    print(f"server memory: {rss / 1024:.1f} MiB resident at the end, {peak / 1024:.1f} MiB peak")


if __name__ == "__main__":
    main()
