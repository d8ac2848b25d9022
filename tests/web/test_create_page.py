"""Guided creation on the table server (``/create``): the same steps as `stkit char create`, the draft in
the form, the sheet stored only when it is finished and passes the creation check; and end to end in a
real headless Chromium on a phone-sized page."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.store.test_guided import ANSWERS


def draft_of(html: str) -> str:
    return unescape(re.search(r'name="draft" value="([^"]*)"', html).group(1))


def test_a_player_makes_a_character_step_by_step(clients, table):
    from stkit.sheet.lifebook import check_creation
    from stkit.store.characters import find_character
    from stkit.store.db.gateway import run_unit

    c = clients("Weston")
    page = c.get("/create")
    assert page.status_code == 200 and "Step 1 of 6: The character" in page.text
    draft = draft_of(page.text)
    for answer in ANSWERS:
        r = c.post("/create", data={"draft": draft, "answer": answer})
        if answer == "Strength=5":
            assert r.status_code == 400 and "1 Attribute dot too many for 7 / 5 / 3" in r.text
            continue
        assert r.status_code == 200, (answer, r.text)
        if "Created" not in r.text:
            draft = draft_of(r.text)
        if answer == "Perception=2 Intelligence=2 Wits=2":
            assert "Attributes: Physical 7 of 7, Social 5 of 5, Mental 3 of 3" in r.text
    assert "Created Sees-Far in chronicle default; it passes the creation check." in r.text
    sheet = run_unit(table.url, lambda gw: find_character(gw, "Sees-Far").to_sheet(), readonly=True)
    assert check_creation(sheet).passed and sheet.abilities["Brawl"] == 4


def test_a_hand_made_draft_is_refused(clients):
    c = clients("Weston")
    r = c.post("/create", data={"draft": "{not json", "answer": "next"})
    assert r.status_code == 400 and "Started again" in r.text
    forged = {
        "sheet": {"name": "Cheat", "attributes": {"Strength": 5, "Dexterity": 5}, "rank": 1},
        "step": 5,
        "past": [],
    }
    r = c.post("/create", data={"draft": json.dumps(forged), "answer": "next"})
    assert r.status_code == 400 and "Created" not in r.text
    assert clients(None).post("/create", data={"answer": "next"}).status_code == 403
    assert c.post("/create", data={"draft": "x" * 20_000, "answer": "next"}).status_code == 413


@pytest.mark.slow
def test_guided_creation_in_a_real_browser(tmp_path):
    import os

    from tests.web.test_browser import ARGS, CHROMIUM, Server, store  # noqa: F401

    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    from tests.web.conftest import add_character

    url = "sqlite:///" + str(tmp_path / "table.sqlite")
    add_character(url, "Weston")
    from stkit.store.db.engine import dispose_engines

    dispose_engines()
    server = Server(url)
    try:
        with sync_playwright() as p:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            page = b.new_context(viewport={"width": 360, "height": 740}).new_page()
            page.goto(server.links["players"]["Weston"])
            page.goto(server.base + "/create")
            for answer in ANSWERS:
                page.fill("#answer", answer)
                page.click("button.primary")
                page.wait_for_load_state()
                if answer == "Strength=5":
                    assert "too many for 7 / 5 / 3" in page.inner_text("p.error")
            assert "Created Sees-Far" in page.inner_text("main")
            page.screenshot(path=str(tmp_path / "create.png"))
            b.close()
        from tests.web.test_browser import _cli

        out = _cli(url, "char", "check", "Sees-Far")
        assert "Sees-Far passes character creation (garou rules)" in out
    finally:
        server.stop()


def test_a_character_made_on_the_storytellers_link_ends_with_the_players_link(clients, table):
    st = clients("storyteller")
    assert 'href="/create"' in st.get("/").text  # guided creation is linked from the table
    draft = draft_of(st.get("/create").text)
    for answer in ANSWERS:
        r = st.post("/create", data={"draft": draft, "answer": answer})
        if r.status_code == 200 and "Created" not in r.text:
            draft = draft_of(r.text)
    assert "Created Sees-Far" in r.text and "<svg" in r.text
    url = re.search(r'<a href="(http://127\.0\.0\.1:8000/join/[\w-]+)">', r.text).group(1)
    newcomer = clients(None)
    newcomer.get(url.replace("http://127.0.0.1:8000", ""))
    assert "Sees-Far&#39;s page" in newcomer.get("/").text
