"""The fight on the phones in Debian's Chromium against a real `stkit serve`: a latecomer joins initiative
from the Storyteller's screen, "your turn" on the acting phone, a call for a roll answered by three
phones and gathered in one card, a roll saved from a phone, a character made mid-evening reaching every
select, no page scrolling sideways at 360 and 390 px, axe-core at 360, 390 and 1366 with prompts open,
and a revoked phone told in words with its retries stopped."""

from __future__ import annotations

import os
import re

import pytest

from tests.web.test_browser import ARGS, CHROMIUM, PHONE, WAIT, Server, _cli, _open, _serious, make_store

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not os.path.exists(CHROMIUM) and not os.environ.get("CI"), reason=f"{CHROMIUM} is not installed"
    ),
]

NARROW = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 900}


@pytest.fixture
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def store(tmp_path):
    url = "sqlite:///" + str(tmp_path / "table.sqlite")
    make_store(url)
    return url


def _no_sideways(page, width: int) -> None:
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = false)")


def test_phones_at_the_table(browser, store):
    server = Server(store)
    try:
        st = _open(browser, server.links["storyteller"], LAPTOP)
        phones = {
            n: _open(browser, server.links["players"][n], PHONE, has_touch=True) for n in ("Weston", "Mari", "Kesh")
        }
        weston, mari, kesh = phones["Weston"], phones["Mari"], phones["Kesh"]
        st_narrow = _open(browser, server.links["storyteller"], NARROW)
        for page, width in ((st_narrow, 360), (weston, 390)):
            _no_sideways(page, width)

        # initiative: Weston alone, then Kesh joins late and Weston keeps his place's die
        st.fill("#scene-name", "The mill")
        st.click("button:has-text('Open scene')")
        st.wait_for_selector("#status:has-text('The mill')", timeout=WAIT)
        st.select_option("#late-who", label="Weston")
        st.click("button:has-text('Add to initiative')")
        st.wait_for_selector("#st-result:has-text('Initiative: Weston')", timeout=WAIT)
        st.select_option("#late-who", label="Kesh")
        st.click("button:has-text('Add to initiative')")
        st.wait_for_selector("#st-result:has-text('Kesh')", timeout=WAIT)
        for page in (st, weston, kesh):
            page.wait_for_function(
                "() => document.querySelectorAll('.initiative ol.order > li').length === 2", timeout=WAIT
            )
        acting = st.locator(".initiative li[aria-current='step'] strong").inner_text()
        phones[acting].wait_for_selector("#your-turn:has-text('Your turn')", timeout=WAIT)
        other = "Kesh" if acting == "Weston" else "Weston"
        assert phones[other].locator("#your-turn").count() == 0

        # the Storyteller calls for Perception + Alertness from three phones; one card gathers the answers
        st.locator("details:has-text('Call for a roll') summary").click()
        st.fill("#call-pool", "Perception + Alertness")
        st.select_option("#call-diff", "7")
        for name in ("Weston", "Mari", "Kesh"):
            st.locator(f"fieldset label:has-text('{name}') input").check()
        st.click("form[action='/call'] button")
        st.wait_for_selector("#st-result:has-text('Called for Perception + Alertness at 7')", timeout=WAIT)
        for name, page in phones.items():
            prompt = page.wait_for_selector("#prompts .call-prompt", timeout=WAIT)
            assert re.search(r"succeeds \d+\.\d%", prompt.inner_text()), name
        for page in (st_narrow, mari):
            assert _serious(page) == []  # with a prompt open, at 360 and 390
        assert _serious(st) == []
        for page in phones.values():
            page.click("#prompts .call-prompt button.primary")
        card = st.wait_for_selector("#feed li.call-card:has-text('closed')", timeout=WAIT)
        assert all(n in card.inner_text() for n in ("Weston", "Mari", "Kesh"))
        assert st.locator("#feed li.call-card").count() == 1
        mari.wait_for_selector("#prompts .call-prompt", state="detached", timeout=WAIT)

        # an attack on Weston whose player does not answer: when his time is over the Storyteller's screen
        # offers the answer by itself, and the Storyteller's "Take it" rolls the exchange
        st.evaluate(
            "() => { const o = document.createElement('option'); o.value = '2'; o.textContent = '2 s';"
            " document.getElementById('atk-wait').appendChild(o); }"
        )
        st.select_option("#atk-who", label="Kesh")
        st.select_option("#atk-target", label="Weston")
        st.select_option("#atk-maneuver", "punch")
        st.select_option("#atk-wait", "2")
        st.check("#atk-force")  # Kesh already rolled this turn, for the call: the Storyteller allows a further action
        st.click("#attack-form button:has-text('Attack')")
        st.wait_for_selector('#prompts .attack-prompt:has-text("Waiting for Weston\'s player")', timeout=WAIT)
        weston.wait_for_selector("#prompts .attack-prompt:has-text('You are attacked!')", timeout=WAIT)
        st.wait_for_selector('#prompts :text("Waiting for Weston\'s player")', state="detached", timeout=WAIT)
        st.click("#prompts .attack-prompt button:has-text('Take it')")
        weston.wait_for_selector("#feed li.attack-card:has-text('Weston took it (the Storyteller')", timeout=WAIT)
        weston.wait_for_selector("#prompts .attack-prompt", state="detached", timeout=WAIT)

        # a roll saved from a phone: the message, and the new one-tap button
        form = kesh.locator("form.roll-form")
        form.locator("select[name='trait']").nth(0).select_option("Perception")
        form.locator("select[name='trait']").nth(1).select_option("Alertness")
        form.locator("details.more summary").click()
        form.locator("input[name='save_name']").fill("spot")
        form.locator("button:has-text('Save')").click()
        kesh.wait_for_selector("form.roll-form .form-result:has-text('Saved spot')", timeout=WAIT)
        kesh.wait_for_selector("form.roll-form button.saved[value='spot']", timeout=WAIT)

        # a character made mid-evening reaches every select of the Storyteller's screen
        _cli(store, "char", "new", "Latecomer")
        st.wait_for_function(
            "() => ['atk-who', 'atk-target', 'hurt-who', 'whisper-to', 'late-who', 'act-who'].every(id =>"
            " [...document.getElementById(id).options].some(o => o.textContent === 'Latecomer'))",
            timeout=WAIT,
        )

        # Weston's link is revoked: his phone says so in words, clears what it showed and stops asking
        requests: list[str] = []
        weston.on("request", lambda r: requests.append(r.url))
        _cli(store, "table", "links", "--revoke", "Weston")
        weston.wait_for_selector("body[data-revoked] #live:has-text('this link no longer works')", timeout=WAIT)
        assert weston.locator(".form-result .result").count() == 0
        asked = len(requests)
        _cli(store, "roll", "Wits", "--char", "Kesh", "--seed", "3")
        _cli(store, "roll", "Wits", "--char", "Mari", "--seed", "4")
        st.wait_for_selector("#feed li:has-text('Mari')", timeout=WAIT)
        st.wait_for_selector("#feed li:has-text('Wits 1')", timeout=WAIT)
    finally:
        server.stop()
    assert len(requests) == asked  # no retry went out while the others' rolls were made


def test_one_odds_read_per_change(browser, store):
    """The page's opening and each change of a roll form read its odds once (the roll's own sheet event
    once more); a later change's answer shows only after any late duplicate of the earlier would be sent."""
    from urllib.parse import parse_qs, urlsplit

    server = Server(store)
    try:
        weston = browser.new_context(viewport=PHONE, has_touch=True).new_page()
        reads: list[dict] = []
        weston.on("request", lambda r: reads.append(parse_qs(urlsplit(r.url).query)) if "/odds" in r.url else None)
        weston.goto(server.links["players"]["Weston"])
        weston.wait_for_selector("#live.live", timeout=WAIT)
        form = weston.locator("form.roll-form")
        form.locator("select[name='trait']").nth(0).select_option("Dexterity")
        weston.wait_for_selector("form.roll-form .odds-chart:has-text('Dexterity 3 = 3 dice')", timeout=WAIT)
        form.locator("select[name='trait']").nth(1).select_option("Brawl")
        weston.wait_for_selector("form.roll-form .odds-chart:has-text('Dexterity 3 + Brawl 2 = 5 dice')", timeout=WAIT)
        form.locator("button.roll-button").click()
        weston.wait_for_selector("#feed > li", timeout=WAIT)
        form.locator("select[name='trait']").nth(1).select_option("Stealth")
        weston.wait_for_selector(
            "form.roll-form .odds-chart:has-text('Dexterity 3 + Stealth 3 = 6 dice')", timeout=WAIT
        )

        def chosen(*traits: str) -> int:
            return sum(1 for r in reads if [t for t in r.get("trait", []) if t] == list(traits))

        assert chosen() <= 1, reads  # opening the page: the stream opening and the sheet read ask at most once
        assert chosen("Dexterity") == 1, reads
        assert 1 <= chosen("Dexterity", "Brawl") <= 2, reads  # the change, and the sheet read after the roll
        assert chosen("Dexterity", "Stealth") == 1, reads
    finally:
        server.stop()


def test_a_gift_and_a_fetish_from_the_phones_sheet(browser, store):
    from stkit.store.db.engine import dispose_engines
    from tests.web.test_sheet_powers import _powers

    _powers(store, "Weston")
    dispose_engines()
    server = Server(store)
    try:
        weston = _open(browser, server.links["players"]["Weston"], PHONE, has_touch=True)
        st = _open(browser, server.links["storyteller"], LAPTOP)
        assert _serious(weston) == []
        weston.click("button:has-text('Use'):has(span:text-is(' Persuasion of Weston'))")
        weston.wait_for_selector(".use-result:has-text('Weston uses Persuasion')", timeout=WAIT)
        st.wait_for_selector("#feed li:has-text('Charisma 1 + Subterfuge 2 = 3 dice')", timeout=WAIT)
        weston.wait_for_selector("#feed li:has-text('Charisma 1 + Subterfuge 2 = 3 dice')", timeout=WAIT)
        assert "Weston uses Persuasion" in weston.inner_text(".use-result")  # the sheet's refresh keeps it
        weston.click("button:has-text('Spend 1 Gnosis to activate Fang Dagger')")
        weston.wait_for_selector(".use-result:has-text('Fang Dagger activates')", timeout=WAIT)
        weston.wait_for_selector(".power-gnosis:text-is('3 / 4')", timeout=WAIT)  # the sheet follows
        _no_sideways(weston, 390)
    finally:
        server.stop()
