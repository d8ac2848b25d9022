"""End to end in a real headless Chromium (Debian's /usr/bin/chromium driven by Playwright) against a real
`stkit serve` in a subprocess: a fight night with the Storyteller at 1366x900 and four phones at 390x844.
Initiative, an attack answered from the defender's phone and damage, rolls from the phones with their results, a blind roll, a whisper, a
table message, a stream that goes silent behind a loopback proxy (open, carrying nothing) and recovers,
a follow-up read that fails and is retried, a server restart with every page catching up, local times,
axe-core on every page at both sizes, touch targets.

Screenshots go to a temporary folder (``tools/table_screenshots.py`` runs the same night into docs/images).
"""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import re
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest

from tests.waiting import DEADLINE, wait_until
from tests.web.conftest import add_character, free_port, listening, start_serve

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
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
PLAYERS = ("Weston", "Archibald", "Mari", "Kesh")
#: Seconds between the stream's pings in these tests (a page hearing nothing for ~3 s reconnects).
PING = "1"
#: Milliseconds a page may take to show what it should: a deadline for a failing test, not a pace.
WAIT = int(DEADLINE * 1000)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
        reason=f"{CHROMIUM} is not installed (apt-get install chromium); in CI these tests must run",
    ),
]


def _env(url: str) -> dict:
    return os.environ | {"STKIT_DATABASE_URL": url, "NO_COLOR": "1", "PYTHONPATH": str(ROOT), "STKIT_TABLE_PING": PING}


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
        self.proc = start_serve(url, "--port", str(self.port), "--json", "--no-qr", env=_env(url))
        line = self.proc.stdout.readline()
        assert line, self.proc.stderr.read()
        self.links = json.loads(line)
        wait_until(self._listening, "the server to listen")
        self.base = f"http://127.0.0.1:{self.port}"
        self.stderr = ""

    def _listening(self) -> bool:
        assert self.proc.poll() is None, "the server stopped"
        return listening(self.port)

    def stop(self) -> str:
        """Ctrl-C; returns what the server wrote on stderr."""
        if self.proc.poll() is None:
            self.proc.send_signal(2)
            try:
                _, self.stderr = self.proc.communicate(timeout=DEADLINE)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                _, self.stderr = self.proc.communicate()
        return self.stderr


class Proxy:
    """A loopback TCP proxy in front of a server. :meth:`silence` makes every open event stream (a
    connection whose request is ``GET /events``) go dead the way a phone's does when it changes network:
    the connection stays open, nothing more arrives in either direction. New connections pass as before."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream = upstream_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.streams: list[dict] = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self.closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(("127.0.0.1", self.upstream))
            except OSError:
                client.close()
                continue
            conn = {"dead": False, "events": False, "socks": (client, server)}
            threading.Thread(target=self._pump, args=(client, server, conn, True), daemon=True).start()
            threading.Thread(target=self._pump, args=(server, client, conn, False), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, conn: dict, from_client: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if from_client and not conn["events"] and data.startswith(b"GET /events"):
                    conn["events"] = True
                    with self.lock:
                        self.streams.append(conn)
                if conn["dead"]:
                    continue  # swallowed: the connection is open and silent
                dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in conn["socks"]:
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def silence(self) -> int:
        """Kill every open event stream silently; returns how many."""
        with self.lock:
            live = [c for c in self.streams if not c["dead"]]
            for c in live:
                c["dead"] = True
        return len(live)

    def close(self) -> None:
        self.closed = True
        self.listener.close()


@pytest.fixture
def store(tmp_path):
    url = "sqlite:///" + str(tmp_path / "table.sqlite")
    make_store(url)
    return url


def make_store(url: str) -> None:
    """Four characters: Weston (Dexterity 3, Stamina 3, Wits 3, Stealth 3, Athletics 2, Brawl 2),
    Archibald (Wits 2, Dexterity 2, Drive 3), Mari and Kesh (Perception 3, Alertness 2)."""
    add_character(
        url,
        "Weston",
        attributes={"Dexterity": 3, "Stamina": 3, "Wits": 3},
        abilities={"Stealth": 3, "Athletics": 2, "Brawl": 2},
    )
    add_character(url, "Archibald", attributes={"Wits": 2, "Dexterity": 2}, abilities={"Drive": 3})
    add_character(url, "Mari", attributes={"Perception": 3, "Wits": 2}, abilities={"Alertness": 2})
    add_character(url, "Kesh", attributes={"Perception": 3, "Dexterity": 2}, abilities={"Alertness": 2})
    from stkit.store.db.engine import dispose_engines

    dispose_engines()


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def _open(browser, link: str, viewport: dict, **context):
    page = browser.new_context(viewport=viewport, **context).new_page()
    page.goto(link)
    page.wait_for_selector("#live.live", timeout=WAIT)  # the event stream is open and the page current
    return page


def _feed_ids(page) -> list[str]:
    return page.eval_on_selector_all("#feed > li", "els => els.map(e => e.id)")


def _serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page, as 'rule: targets'."""
    from axe_playwright_python.sync_playwright import Axe

    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']}: {[n['target'] for n in v['nodes']][:4]}" for v in found if v["impact"] in ("serious", "critical")
    ]


def _small_targets(page) -> list[str]:
    """Visible controls under 44 px high (and buttons under 44 px wide); a checkbox counts by its label."""
    return page.evaluate(
        """() => [...document.querySelectorAll(
                'button, select, input:not([type=checkbox]):not([type=hidden]), summary, a.button, label.check')]
            .filter(e => e.offsetParent !== null && !e.closest('.vh'))
            .filter(e => { const r = e.getBoundingClientRect();
                           return r.height < 44 || (e.tagName === 'BUTTON' && r.width < 44); })
            .map(e => e.tagName + ' ' + (e.id || e.name || e.textContent.trim().slice(0, 24)))"""
    )


def _watch_indicator(page) -> None:
    """Record every text the live indicator shows from now on in ``window.__indicator``."""
    page.evaluate(
        """() => { window.__indicator = [];
            new MutationObserver(() => window.__indicator.push(document.getElementById('live').textContent))
              .observe(document.getElementById('live'), {childList: true, characterData: true, subtree: true}); }"""
    )


def _same_names(page) -> list[str]:
    """Controls of one kind that share an accessible name, every folded section opened first."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    names = page.evaluate(
        """() => [...document.querySelectorAll('button, select, input:not([type=hidden]), a')]
            .map(e => { let n = e.getAttribute('aria-label');
                        if (!n && e.labels && e.labels.length) n = e.labels[0].textContent;
                        return e.tagName + ' ' + (n || e.textContent).replace(/\\s+/g, ' ').trim(); })"""
    )
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")
    return sorted({n for n in names if names.count(n) > 1})


def _pump_until(page, condition, what: str) -> None:
    """Let ``page`` run (its routes are answered meanwhile) until ``condition()`` holds; a deadline."""
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"waited {DEADLINE:g} s for {what}"
        page.wait_for_timeout(50)


def _status(page) -> str:
    return page.inner_text("#live")


def fight_night(browser, url: str, shots: pathlib.Path) -> None:
    """The whole night; asserts what every page shows. Screenshots go to ``shots``."""
    server = Server(url)
    proxy = Proxy(server.port)
    try:
        st = _open(browser, server.links["storyteller"], LAPTOP)
        phones = {}
        for name in PLAYERS:
            link = server.links["players"][name]
            if name == "Weston":  # Weston's phone goes through the proxy (and lives in New York)
                link = link.replace(f":{server.port}/", f":{proxy.port}/")
                phones[name] = _open(browser, link, PHONE, timezone_id="America/New_York", has_touch=True)
            else:
                phones[name] = _open(browser, link, PHONE, timezone_id="UTC", has_touch=True)
        weston, archibald, mari, kesh = (phones[n] for n in PLAYERS)
        pages = [st, *phones.values()]

        # accessibility: axe-core on the Storyteller's and a player's page, at laptop and phone size
        assert _serious(st) == []
        assert _serious(weston) == []
        st_phone = _open(browser, server.links["storyteller"], PHONE)
        assert _serious(st_phone) == []
        kesh_laptop = _open(browser, server.links["players"]["Kesh"], LAPTOP)
        assert _serious(kesh_laptop) == []
        assert _small_targets(weston) == [] and _small_targets(st_phone) == []
        assert _same_names(st_phone) == [] and _same_names(weston) == []
        st_phone.context.close()
        kesh_laptop.context.close()
        # the Storyteller's screen fits a laptop: the feed beside the controls, not below them
        feed_box, controls_box = st.locator("#feed-panel").bounding_box(), st.locator("#controls").bounding_box()
        assert feed_box["x"] > controls_box["x"] + controls_box["width"] - 1 and feed_box["y"] < 200
        assert weston.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

        # the Storyteller opens a scene and rolls initiative; the order shows on every page
        st.fill("#scene-name", "Ambush at the mill")
        st.click("button:has-text('Open scene')")
        for page in pages:
            page.wait_for_selector("#status:has-text('Ambush at the mill')", timeout=WAIT)
        st.click("button:has-text('Roll initiative')")
        st.wait_for_selector("#st-result:has-text('Initiative:')", timeout=WAIT)
        st.click("button:has-text('Next turn')")
        for page in pages:
            page.wait_for_selector("#status .turn:has-text('2')", timeout=WAIT)
            page.wait_for_selector(".initiative li[aria-current='step']", timeout=WAIT)
            assert page.locator(".initiative ol.order > li").count() == 4
        acting = st.locator(".initiative li[aria-current='step'] strong").inner_text()
        assert acting in PLAYERS
        assert st.locator("table.party tbody tr").count() == 4  # the compact party strip
        assert weston.locator("table.party").count() == 0  # players see the order, not the party's health

        # Weston rolls Dexterity + Brawl with Willpower from the phone: the result under Roll, coloured
        form = weston.locator("form.roll-form")
        form.locator("select[name='trait']").nth(0).select_option("Dexterity")
        form.locator("select[name='trait']").nth(1).select_option("Brawl")
        weston.wait_for_selector("form.roll-form .odds-chart:has-text('Dexterity 3 + Brawl 2 = 5 dice')", timeout=WAIT)
        form.locator("input[name='willpower']").check()
        form.locator("button.roll-button").click()
        result = weston.wait_for_selector("form.roll-form .form-result .result", timeout=WAIT)
        outcome = result.get_attribute("class").split()[1]
        assert outcome in ("success", "failure", "botch")
        assert "Dexterity 3 + Brawl 2 = 5 dice" in result.inner_text() and "+1 from Willpower" in result.inner_text()
        assert result.query_selector(".dice") is not None
        assert not form.locator("input[name='willpower']").is_checked()  # cleared after the roll
        for page in pages:
            page.wait_for_selector("#feed li:has-text('Dexterity 3 + Brawl 2')", timeout=WAIT)
        weston.wait_for_selector(".power-willpower:has-text('2 / 3')", timeout=WAIT)
        st.wait_for_selector(f"#party-{1} .power-willpower:has-text('2/3')", timeout=WAIT)

        # an unrated Ability: Archibald rolls Dexterity + Brawl (no Brawl) from his phone, no penalty shown
        aform = archibald.locator("form.roll-form")
        aform.locator("select[name='trait']").nth(0).select_option("Dexterity")
        aform.locator("select[name='trait']").nth(1).select_option("Brawl")
        aform.locator("button.roll-button").click()
        ares = archibald.wait_for_selector("form.roll-form .form-result .result", timeout=WAIT)
        assert "Dexterity 2 + Brawl 0 = 2 dice" in ares.inner_text() and "a Talent" in ares.inner_text()

        # the Storyteller posts Kesh's attack on Mari; Mari's own phone asks her to dodge, block, parry or
        # take it, each with its odds; she dodges, and every page shows the exchange as one card
        st.select_option("#atk-who", label="Kesh")
        st.select_option("#atk-target", label="Mari")
        st.select_option("#atk-maneuver", "punch")
        st.click("#attack-form button:has-text('Attack')")
        st.wait_for_selector("#attack-result:has-text('Kesh attacks Mari: waiting for Mari')", timeout=WAIT)
        prompt = mari.wait_for_selector("#prompts .attack-prompt:has-text('You are attacked!')", timeout=WAIT)
        assert "Dodge" in prompt.inner_text() and re.search(r"hit \d+\.\d%", prompt.inner_text())
        assert archibald.locator("#prompts .attack-prompt").count() == 0
        assert mari.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shots.mkdir(parents=True, exist_ok=True)
        prompt.evaluate("e => e.scrollIntoView({block: 'center'})")
        mari.screenshot(path=str(shots / "table-defender-prompt.png"))  # the phone's screen, 390 px wide
        mari.click("#prompts button:has-text('Dodge')")
        for page in pages:
            page.wait_for_selector("#feed li.attack-card:has-text('Kesh attacks Mari')", timeout=WAIT)
        card = mari.locator("#feed li.attack-card").first
        assert re.match(r"(HIT|MISS)", card.inner_text()) and re.search("dodged|chose to dodge", card.inner_text())
        mari.wait_for_selector("#prompts .attack-prompt", state="detached", timeout=WAIT)
        card.screenshot(path=str(shots / "table-attack-card.png"))
        st.locator("details:has-text('Damage or heal') summary").click()
        st.select_option("#hurt-who", label="Weston")
        st.fill("#hurt-levels", "2")
        st.select_option("#hurt-kind", "lethal")
        st.click("form[action='/health'] button:has-text('Damage')")
        weston.wait_for_selector(".wounds:has-text('Hurt')", timeout=WAIT)
        weston.wait_for_selector("form.roll-form .odds-chart:has-text('- 1 wound = 4 dice')", timeout=WAIT)
        st.wait_for_selector("#party-1:has-text('Hurt -1')", timeout=WAIT)

        # a blind roll from Mari's phone: the Storyteller sees the dice, no player does
        mform = mari.locator("form.roll-form")
        mform.locator("select[name='trait']").nth(0).select_option("Perception")
        mform.locator("select[name='trait']").nth(1).select_option("Alertness")
        mform.locator("input[name='blind']").check()
        mform.locator("button.roll-button").click()
        mari.wait_for_selector(".form-result .result.blind", timeout=WAIT)
        st.wait_for_selector("#feed li.secret:has-text('Perception 3 + Alertness 2')", timeout=WAIT)
        # a whisper to Kesh and a table message from Archibald
        st.locator("details:has-text('Whisper to one player') summary").click()
        st.select_option("#whisper-to", label="Kesh")
        st.fill("#whisper-text", "You hear <wings> above the mill")
        st.click("form[action='/whisper'] button")
        kesh.wait_for_selector("#feed li.whisper:has-text('You hear <wings> above the mill')", timeout=WAIT)
        archibald.fill("#say-text", "brb, pizza")
        archibald.click("#say-form button")
        for page in pages:
            page.wait_for_selector("#feed li.message:has-text('brb, pizza')", timeout=WAIT)
        # the party strip's Sheet button opens that character's folded sheet
        assert not st.locator("#sheet-details-2").evaluate("d => d.open")
        st.click("#party-2 a.button")
        assert st.locator("#sheet-details-2").evaluate("d => d.open")
        # the night's log, filtered by kind, passes axe-core too
        log = st.context.new_page()
        log.goto(server.base + "/log?kind=message")
        assert "brb, pizza" in log.inner_text("#log") and "Dexterity 3" not in log.inner_text("#log")
        assert _serious(log) == []
        log.close()
        for page in (weston, archibald, mari):
            text = page.inner_text("#feed")
            assert "wings" not in text and "Perception 3 + Alertness 2" not in text
        assert kesh.locator("#feed li.whisper").count() == 1

        # local times: the New York phone shows the feed in its own time zone, the UTC one in UTC
        ny = weston.evaluate(
            "() => { const t = document.querySelector('#feed time'); const d = new Date(t.dateTime);"
            " return [t.textContent, d.toLocaleTimeString('en-GB', {timeZone: 'America/New_York'})]; }"
        )
        assert ny[0] == ny[1]

        shots.mkdir(parents=True, exist_ok=True)
        st.screenshot(path=str(shots / "table-storyteller.png"))
        weston.screenshot(path=str(shots / "table-player.png"), full_page=True)

        # a dead stream: Weston's stays open and silent; the page says so and reconnects by itself
        _watch_indicator(weston)
        assert proxy.silence() >= 1
        _cli(url, "roll", "Stamina", "--char", "Weston", "--seed", "7")
        st.wait_for_selector("#feed li:first-child:has-text('Stamina 3')", timeout=WAIT)
        weston.wait_for_selector("#feed li:first-child:has-text('Stamina 3')", timeout=WAIT)
        said = weston.evaluate("window.__indicator")
        stale = [t for t in said if t != "live"]
        assert stale and re.fullmatch(r"reconnecting, stale since \d\d:\d\d", stale[0]), said
        assert said[-1] == "live"

        # a phone that comes back online reopens its stream at once (the browser keeps an open stream through
        # its offline switch, so this checks the `online` handler, and the proxy above the dead stream)
        _watch_indicator(archibald)
        archibald.context.set_offline(True)
        archibald.wait_for_function("() => !navigator.onLine", timeout=WAIT)
        archibald.context.set_offline(False)
        archibald.wait_for_function(
            "() => window.__indicator.some(t => t.startsWith('reconnecting')) && "
            "document.getElementById('live').textContent === 'live'",
            timeout=WAIT,
        )

        # a failed follow-up read: the sheet cannot be read for a while; the page stays stale, then catches up
        refused = []
        weston.route("**/sheet/**", lambda route: (refused.append(route.request.url), route.abort()))
        _watch_indicator(weston)
        st.select_option("#hurt-who", label="Weston")
        st.fill("#hurt-levels", "2")
        st.click("form[action='/health'] button:has-text('Heal')")
        weston.wait_for_selector("#live.offline", timeout=WAIT)
        assert re.fullmatch(r"catching up, stale since \d\d:\d\d", _status(weston))
        _pump_until(weston, lambda: len(refused) >= 2, "the page to retry its read")  # still failing: still stale
        assert _status(weston).startswith("catching up, stale since") and "Hurt" in weston.inner_text(".wounds")
        weston.unroute("**/sheet/**")
        weston.wait_for_selector(".wounds:has-text('Unhurt')", timeout=WAIT)
        weston.wait_for_selector("#live.live", timeout=WAIT)

        # the server stops (Ctrl-C, quietly); rolls made meanwhile reach every page once when it is back
        before = {i: _feed_ids(page) for i, page in enumerate(pages)}
        err = server.stop()
        assert "ERROR" not in err and "Traceback" not in err, err
        for page in pages:
            page.wait_for_selector("#live.offline", timeout=WAIT)
        _cli(url, "roll", "3", "--log", "--seed", "1")
        _cli(url, "roll", "Wits", "--char", "Kesh", "--seed", "2")
        server = Server(url, port=server.port)
        for page in pages:
            page.wait_for_selector("#feed li:first-child:has-text('Wits 1')", timeout=WAIT)
            page.wait_for_selector("#live.live", timeout=WAIT)
        # one more roll, after both: a page that got anything twice has it before this one (streams keep order)
        _cli(url, "roll", "Wits", "--char", "Kesh", "--seed", "3")
        for i, page in enumerate(pages):
            count = len(before[i]) + 3
            page.wait_for_function(f"() => document.querySelectorAll('#feed > li').length >= {count}", timeout=WAIT)
            ids = _feed_ids(page)
            assert len(ids) == len(set(ids)) == count
            assert ids[3:] == before[i]
    finally:
        server.stop()
        proxy.close()


def test_a_fight_night(browser, store, tmp_path):
    fight_night(browser, store, tmp_path / "shots")
    assert (tmp_path / "shots" / "table-player.png").stat().st_size > 10_000


def test_a_forged_link_gets_the_403_page(browser, store):
    server = Server(store)
    try:
        page = browser.new_context().new_page()
        response = page.goto(server.base + "/join/not-a-real-token")
        assert response.status == 403
        assert "Ask the Storyteller for a new link" in page.inner_text("body")
        response = page.goto(server.base + "/")
        assert response.status == 403
        assert _serious(page) == []
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
        page.wait_for_selector("#live.live", timeout=WAIT)
        form = page.locator("form.roll-form").first
        form.locator("select[name='trait']").nth(0).select_option("Dexterity")
        page.wait_for_selector("form.roll-form .odds-chart", timeout=WAIT)
        form.locator("button.roll-button").click()
        page.wait_for_selector("#feed li:has-text('Dexterity 3')", timeout=WAIT)
        assert violations == []
        # without JavaScript's htmx: the browser's own form post (Origin: null under no-referrer)
        page.evaluate("document.querySelector('form.roll-form').removeAttribute('hx-post')")
        page.evaluate("document.querySelector('form.roll-form').submit()")
        page.wait_for_load_state()
        assert "only for that player" not in page.inner_text("body") and "refused" not in page.inner_text("body")
    finally:
        server.stop()


TWO = ("--chronicle", "north", "--chronicle", "south")


def test_one_browser_keeps_the_storyteller_of_two_chronicles_signed_in(browser, tmp_path):
    """One browser profile opens north's Storyteller link, then south's, from one `stkit serve --all`: both
    pages stay live and signed in (north's reloads as north's), and what each says reaches only its own."""
    url = "sqlite:///" + str(tmp_path / "two.sqlite")
    add_character(url, "Ana", attributes={"Dexterity": 3}, chronicle="north")
    add_character(url, "Bo", attributes={"Dexterity": 2}, chronicle="south")
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "stkit", "serve", "--port", str(port), "--json", "--no-qr", *TWO],
        env=_env(url),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line, proc.stderr.read()
        links = json.loads(line)["chronicles"]
        context = browser.new_context(viewport=LAPTOP)
        north = context.new_page()
        wait_until(lambda: _goto_ok(north, links["north"]["storyteller"]), "the server to listen")
        north.wait_for_selector("#live.live", timeout=WAIT)
        south = context.new_page()
        south.goto(links["south"]["storyteller"])
        south.wait_for_selector("#live.live", timeout=WAIT)
        north.reload()
        north.wait_for_selector("#live.live", timeout=WAIT)
        assert "Ana" in north.inner_text("body") and "Bo" not in north.inner_text("body")
        assert "Bo" in south.inner_text("body") and "Ana" not in south.inner_text("body")
        for page, text in ((north, "north wind"), (south, "south sea")):
            page.fill("#say-text", text)
            page.click("#say-form button")
            page.wait_for_selector(f"#feed li:has-text('{text}')", timeout=WAIT)
        # south heard its own message after north's was written: north's, had it leaked, would be there
        assert "north wind" not in south.inner_text("#feed")
        assert "south sea" not in north.inner_text("#feed")
    finally:
        if proc.poll() is None:
            proc.send_signal(2)
            proc.communicate(timeout=DEADLINE)


def _goto_ok(page, link: str) -> bool:
    try:
        return page.goto(link).status == 200
    except Exception:  # the server is not listening yet
        return False
