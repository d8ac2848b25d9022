"""The delay from an attack posted to the defender's prompt on their phone.

Starts `stkit serve` on a fresh SQLite store (loopback), opens the defender's page in Debian's Chromium
(Playwright, 390x844), then N times (default 40): posts an attack on the defender from the Storyteller's
link (``POST /attack``) and takes the time until the prompt ("You are attacked!") is in the phone's page,
then answers it (take it), healing the defender now and then so the next attack finds them standing. The page marks
the moment the prompt appears (``Date.now()`` in a MutationObserver); the post's moment is taken just
before the request, on the same machine's clock. Prints p50, p95 and the largest delay in milliseconds,
and the ratio of p95 to a 500 ms target (at most 1 is within it).

Usage: python benchmarks/defender_prompt.py [--attacks N]
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
TARGET_MS = 500.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attacks", type=int, default=40)
    args = parser.parse_args()

    import httpx
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import add_character, free_port
    from tests.web.test_browser import ARGS, CHROMIUM

    with tempfile.TemporaryDirectory() as folder:
        url = "sqlite:///" + str(pathlib.Path(folder) / "bench.sqlite")
        attacker = add_character(url, "Kesh", attributes={"Dexterity": 3, "Strength": 2}, abilities={"Brawl": 2})
        defender = add_character(url, "Mari", attributes={"Dexterity": 3, "Stamina": 3}, abilities={"Dodge": 2})
        port = free_port()
        env = os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}
        server = subprocess.Popen(
            [sys.executable, "-m", "stkit", "serve", "--port", str(port), "--json", "--no-qr"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            assert server.stdout is not None
            links = json.loads(server.stdout.readline())
            deadline = time.monotonic() + 20
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not listen") from None
                    time.sleep(0.05)
            base = f"http://127.0.0.1:{port}"
            st = httpx.Client(base_url=base, headers={"origin": base, "hx-request": "true"})
            st.get(links["storyteller"])  # the join link sets the cookie
            st.post("/scene/start", data={"name": "Benchmark"})
            delays = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
                page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
                page.goto(links["players"]["Mari"])
                page.wait_for_selector("#live.live", timeout=10000)
                page.evaluate(
                    """() => { window.__seen = {};
                    new MutationObserver(() => document.querySelectorAll('#prompts .attack-prompt').forEach(e => {
                        const id = e.getAttribute('data-prompt');
                        if (!(id in window.__seen)) window.__seen[id] = Date.now();
                    })).observe(document.getElementById('prompts'), {childList: true, subtree: true}); }"""
                )
                for n in range(args.attacks):
                    while True:  # the server allows 5 changes a second per link: wait for the bucket, unmeasured
                        posted = time.time() * 1000
                        r = st.post(
                            "/attack",
                            data={"attacker": attacker, "target": defender, "maneuver": "punch", "force": "on"},
                        )  # one attacker again and again in a turn: the Storyteller allows it
                        if r.status_code != 429:
                            break
                        time.sleep(0.3)
                    assert "waiting" in r.text, r.text
                    page.wait_for_function(f"() => Object.keys(window.__seen).length > {n}", timeout=10000)
                    pid, seen = max(page.evaluate("Object.entries(window.__seen)"), key=lambda kv: int(kv[0]))
                    delays.append(seen - posted)
                    page.click(f"#prompt-{pid} button:has-text('Take it')")
                    page.wait_for_selector(f"#prompt-{pid}", state="detached", timeout=10000)
                    if n % 3 == 2:
                        st.post("/health", data={"character_id": defender, "levels": "7", "change": "heal"})
                browser.close()
        finally:
            server.send_signal(2)
            try:
                server.communicate(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
    delays.sort()
    p50 = statistics.median(delays)
    p95 = delays[min(len(delays) - 1, round(0.95 * (len(delays) - 1)))]
    print(f"attacks: {len(delays)}")
    print(
        f"attack posted -> defender's prompt on the phone: p50 {p50:.0f} ms, p95 {p95:.0f} ms, max {delays[-1]:.0f} ms"
    )
    print(f"p95 / {TARGET_MS:.0f} ms target: {p95 / TARGET_MS:.2f}")


if __name__ == "__main__":
    main()
