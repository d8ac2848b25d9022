"""End to end in a real headless Chromium (Debian's /usr/bin/chromium driven by Playwright) against a real
`stkit serve` in a subprocess: the Storyteller and two players at once, rolls from the CLI and from a phone,
secret rolls, Willpower, a server restart with the pages catching up, a forged link.

The screenshots in docs/images/ (shown in docs/table.md) are taken here.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time

import pytest

from tests.web.conftest import add_character, free_port

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ROOT = pathlib.Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
        reason=f"{CHROMIUM} is not installed (apt-get install chromium); in CI these tests must run",
    ),
]


def _env(url: str) -> dict:
    return os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1", "PYTHONPATH": str(ROOT)}


def _cli(url: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "stkit", *args], env=_env(url), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


class Server:
    """`stkit serve` in a subprocess on a free loopback port; ``links`` from its --json line."""

    def __init__(self, url: str, port: int | None = None) -> None:
        self.url = url
        self.port = port or free_port()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "stkit", "serve", "--port", str(self.port), "--json", "--no-qr"],
            env=_env(url),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        self.links = json.loads(line)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not listen"
                time.sleep(0.05)
        self.base = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.proc.send_signal(2)  # Ctrl-C
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def store(tmp_path):
    url = "sqlite:///" + str(tmp_path / "table.sqlite")
    add_character(
        url, "Weston", attributes={"Dexterity": 3, "Stamina": 3}, abilities={"Stealth": 3, "Athletics": 2, "Brawl": 2}
    )
    add_character(url, "Archibald", attributes={"Wits": 2, "Dexterity": 2}, abilities={"Drive": 3})
    from stkit.store.db import dispose_engines

    dispose_engines()
    return url


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _open(browser, link: str, *, width: int = 1100, height: int = 900):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(link)
    page.wait_for_selector("#live.live", timeout=5000)  # the event stream is open
    return page


def _feed_ids(page) -> list[str]:
    return page.eval_on_selector_all("#feed > li", "els => els.map(e => e.id)")


def test_the_whole_table_live(browser, store):
    server = Server(store)
    try:
        st = _open(browser, server.links["storyteller"])
        weston = _open(browser, server.links["players"]["Weston"], width=360, height=740)
        archibald = _open(browser, server.links["players"]["Archibald"], width=360, height=740)
        pages = (st, weston, archibald)

        # a roll typed in the CLI in another process shows on all three within a second
        _cli(store, "roll", "Stamina + Stealth", "--char", "Weston", "--seed", "4")
        t0 = time.monotonic()
        for page in pages:
            page.wait_for_selector("#feed li:has-text('Stamina 3 + Stealth 3')", timeout=1000)
        assert time.monotonic() - t0 < 1.5

        # the player rolls from the phone-sized page; the others see it
        form = weston.locator("form.roll-form")
        form.locator("input[value='Dexterity']").check()
        form.locator("input[value='Athletics']").check()
        form.locator("input[name='willpower']").check()
        weston.wait_for_selector("form.roll-form .odds-chart", timeout=3000)  # the odds before rolling
        assert "Dexterity 3 + Athletics 2 = 5 dice" in form.locator(".odds-chart").inner_text()
        form.locator("button.primary").click()
        for page in pages:
            page.wait_for_selector("#feed li:has-text('Dexterity 3 + Athletics 2')", timeout=2000)
        # Willpower spent on the player's page updates the Storyteller's sheet of Weston too
        st.wait_for_selector(f"#character-{1} .power-willpower:has-text('2 / 3')", timeout=2000)
        weston.wait_for_selector(".power-willpower:has-text('2 / 3')", timeout=2000)
        # the phone page does not scroll sideways at 360 px
        assert weston.evaluate("document.documentElement.scrollWidth") <= 360

        # a secret roll from the Storyteller's screen shows on the Storyteller's page only
        st.locator("details:has-text('Secret roll') summary").click()
        plain = st.locator("#plain-roll")
        plain.locator("input[name='dice']").fill("11")
        plain.locator("button.primary").click()
        st.wait_for_selector("#feed li.secret:has-text('11 dice')", timeout=2000)
        _cli(store, "roll", "12", "--secret", "--seed", "2")
        st.wait_for_selector("#feed li.secret:has-text('12 dice')", timeout=2000)
        _cli(store, "roll", "Wits + Drive", "--char", "Archibald", "--seed", "5")  # a public roll after them
        for page in (weston, archibald):
            page.wait_for_selector("#feed li:has-text('Wits 2 + Drive 3')", timeout=2000)
            text = page.locator("#feed").inner_text()
            assert "11 dice" not in text and "12 dice" not in text and "secret" not in text
            assert len(_feed_ids(page)) == 3
        assert len(_feed_ids(st)) == 5

        # the Storyteller opens a scene on the screen; an extended action started in the CLI and rolled from
        # the screen shows its tally live on every page, and so does a contest
        st.fill("input[name='name'][placeholder='The embassy wall']", "The embassy wall")
        st.click("button:has-text('Open scene')")
        for page in pages:
            page.wait_for_selector("#status:has-text('The embassy wall')", timeout=2000)
        _cli(
            store,
            "extended",
            "start",
            "Stay hidden",
            "--char",
            "Weston",
            "--pool",
            "Stamina + Stealth",
            "-d",
            "7",
            "--target",
            "8",
        )
        _cli(
            store,
            "contest",
            "start",
            "The plea",
            "--a",
            "Weston",
            "--pool-a",
            "Dexterity",
            "--b",
            "Archibald",
            "--pool-b",
            "Wits",
            "--target",
            "5",
        )
        for page in pages:
            page.wait_for_selector("#status .extended:has-text('Stay hidden')", timeout=2000)
            page.wait_for_selector("#status .contest:has-text('The plea')", timeout=2000)
            assert "Chance to finish within 1 roll" in page.inner_text("#status")
        st.click("#status .extended button:has-text('Roll')")
        for page in pages:
            page.wait_for_selector("#status .extended:has-text('1 roll so far')", timeout=2000)
        st.click("#status .contest button:has-text('Roll exchange')")
        for page in pages:
            page.wait_for_selector("#status .contest:has-text('1 exchange')", timeout=2000)

        IMAGES.mkdir(parents=True, exist_ok=True)
        st.screenshot(path=str(IMAGES / "table-storyteller.png"), full_page=True)
        weston.screenshot(path=str(IMAGES / "table-player.png"), full_page=True)

        # the server stops (Ctrl-C); rolls made meanwhile reach the pages, each once, when it is back
        before = {page: _feed_ids(page) for page in pages}
        server.stop()
        _cli(store, "roll", "3", "--log", "--seed", "1")
        _cli(store, "roll", "Stamina", "--char", "Weston", "--seed", "2")
        server = Server(store, port=server.port)
        for page in pages:
            page.wait_for_selector("#feed li:first-child:has-text('Stamina 3 = 3 dice')", timeout=8000)
            page.wait_for_timeout(300)  # anything sent twice would show by now
            ids = _feed_ids(page)
            assert len(ids) == len(set(ids)) == len(before[page]) + 2
            assert ids[2:] == before[page]
    finally:
        server.stop()


def test_a_forged_link_gets_the_403_page(browser, store):
    server = Server(store)
    try:
        page = browser.new_context().new_page()
        response = page.goto(server.base + "/join/not-a-real-token")
        assert response.status == 403
        assert "Ask the Storyteller for a new link" in page.inner_text("body")
        response = page.goto(server.base + "/")
        assert response.status == 403
    finally:
        server.stop()


def test_chromium_is_available_in_ci():
    if os.environ.get("CI"):
        assert shutil.which("chromium") or os.path.exists(CHROMIUM)


def test_the_pages_keep_to_their_content_security_policy(browser, store):
    """The page works under its CSP (self only, no inline script or style): no violation is reported
    while it opens, goes live, rolls and shows the odds; a plain form post passes the Origin check."""
    server = Server(store)
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 900})
        page = context.new_page()
        violations: list[str] = []
        page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
        response = page.goto(server.links["players"]["Weston"])
        assert "frame-ancestors 'none'" in response.request.redirected_from.response().headers.get(
            "content-security-policy", ""
        )
        page.wait_for_selector("#live.live", timeout=5000)
        form = page.locator("form.roll-form")
        form.locator("input[value='Dexterity']").check()
        page.wait_for_selector("form.roll-form .odds-chart", timeout=3000)
        form.locator("button.primary").click()
        page.wait_for_selector("#feed li:has-text('Dexterity 3')", timeout=3000)
        assert violations == []
        # without JavaScript's htmx: the browser's own form post (Origin: null under no-referrer)
        page.evaluate("document.querySelector('form.roll-form').removeAttribute('hx-post')")
        page.evaluate("document.querySelector('form.roll-form').submit()")
        page.wait_for_load_state()
        assert "only for that player" not in page.inner_text("body") and "refused" not in page.inner_text("body")
    finally:
        server.stop()
