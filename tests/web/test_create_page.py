"""Guided creation on the table server (``/create``): the same steps as `stkit char create` shown as
pickers, the draft in the form, the sheet stored only when it is finished and passes the creation check,
only on the Storyteller's link; hostile drafts and forms refused in one line; and end to end in a real
headless Chromium on a phone-sized page."""

from __future__ import annotations

import json
import re
from html import unescape
from urllib.parse import urlencode

import pytest

from tests.store.test_guided import ANSWERS

#: Sees-Far again (tests.store.test_guided.ANSWERS), as the pickers send it: one dict per page sent,
#: its fields (``f:`` dropped), its Gifts and its action.
PICKS: list[tuple[dict, list[str], str]] = [
    (
        {"name": "Sees-Far", "breed": "Homid", "auspice": "Ahroun", "tribe": "Get of Fenris", "player": "Sam"},
        [],
        "next",
    ),
    ({"Strength": "4", "Dexterity": "3", "Stamina": "3", "Charisma": "3", "Manipulation": "2"}, [], "apply"),
    ({"Appearance": "3", "Perception": "2", "Intelligence": "2", "Wits": "2"}, [], "next"),
    (
        {"Brawl": "3", "Dodge": "3", "Alertness": "3", "Athletics": "3", "Intimidation": "1", "Melee": "3"}
        | {"Firearms": "2", "Drive": "2", "Survival": "2", "Occult": "2", "Rituals": "2", "Medicine": "1"},
        [],
        "next",
    ),
    ({"background:Resources": "2", "background:Kinfolk": "3"}, [], "next"),
    ({}, ["Smell of Man", "Razor Claws", ""], "apply"),
]


def draft_of(html: str) -> str:
    return unescape(re.search(r'name="draft" value="([^"]*)"', html).group(1))


def send(c, draft: str, fields: dict, gifts=(), action="next", **extra):
    data = {"draft": draft, "action": action} | {f"f:{k}": v for k, v in fields.items()} | extra
    if gifts:
        data["gift"] = list(gifts)
    return c.post("/create", data=data)


def test_the_storyteller_makes_a_character_with_the_pickers(clients, table):
    from stkit.sheet.lifebook import check_creation
    from stkit.store.characters import find_character
    from stkit.store.db.gateway import run_unit

    st = clients("storyteller")
    assert 'href="/create"' in st.get("/").text  # guided creation is linked from the table
    page = st.get("/create")
    assert page.status_code == 200 and "Step 1 of 6: The character" in page.text
    assert '<select id="pick-tribe" name="f:tribe">' in page.text and "<option>Get of Fenris</option>" in page.text
    draft = draft_of(page.text)
    r = send(st, draft, {"name": "Sees-Far"})  # next with the breed, auspice and tribe missing
    assert r.status_code == 400 and "give the breed, auspice, tribe first" in r.text
    draft = draft_of(r.text)  # the name stays
    assert 'value="Sees-Far"' in r.text
    for fields, gifts, action in PICKS:
        r = send(st, draft, fields, gifts, action)
        assert r.status_code == 200, (fields, re.findall(r'class="error"[^>]*>([^<]*)', r.text))
        draft = draft_of(r.text)
        if "Appearance" in fields:
            assert "Step 3 of 6: Abilities" in r.text and "of 13 dots placed" in r.text
    # the Gift step: one list per breed, auspice and tribe; two chosen, so Next says what is missing
    assert '<label for="gift-2">Ahroun (auspice) Gift</label>' in r.text
    r = send(st, draft, {}, ["Smell of Man", "Razor Claws", ""])
    assert r.status_code == 400 and "2 of 3 Gifts chosen; name the rest" in r.text
    r = send(st, draft_of(r.text), {}, ["Smell of Man", "Razor Claws", "Resist Pain"])
    assert "Step 6 of 6: Freebie points (15)" in r.text and "Freebie points: 15 of 15 left" in r.text
    # the last step's form, every picker and the draft with its undo states, stays far below the 16 KB a change may send
    fields = dict.fromkeys(re.findall(r'name="(f:[^"]+)"', r.text), "5")
    assert len(urlencode({"draft": draft_of(r.text), "action": "next"} | fields)) < 12_000
    r = send(st, draft_of(r.text), {"Brawl": "4", "Willpower": "5"}, action="apply")
    assert "Freebie points: 11 of 15 left" in r.text
    r = send(st, draft_of(r.text), {"Brawl": "4", "Willpower": "5"})
    assert "Created Sees-Far in chronicle default; it passes the creation check." in r.text and "<svg" in r.text
    url = re.search(r'<a href="(http://127\.0\.0\.1:8000/join/[\w-]+)" id="new-link">', r.text).group(1)
    sheet = run_unit(table.url, lambda gw: find_character(gw, "Sees-Far").to_sheet(), readonly=True)
    assert check_creation(sheet).passed and sheet.abilities["Brawl"] == 4 and sheet.attributes["Appearance"] == 3
    assert [g["name"] for g in sheet.gifts] == ["Smell of Man", "Razor Claws", "Resist Pain"]
    newcomer = clients(None)
    newcomer.get(url.replace("http://127.0.0.1:8000", ""))
    assert "Sees-Far&#39;s page" in newcomer.get("/").text


def test_the_typed_answers_still_work(clients, table):
    st = clients("storyteller")
    draft = draft_of(st.get("/create").text)
    for answer in ANSWERS:
        r = st.post("/create", data={"draft": draft, "answer": answer})
        if answer == "Strength=5":
            assert r.status_code == 400 and "1 Attribute dot too many for 7 / 5 / 3" in r.text
            continue
        assert r.status_code == 200, (answer, r.text)
        if "Created" not in r.text:
            draft = draft_of(r.text)
    assert "Created Sees-Far" in r.text


def test_a_players_link_does_not_make_characters(clients):
    weston = clients("Weston")
    assert weston.get("/create").status_code == 403
    assert weston.post("/create", data={"answer": "next"}).status_code == 403
    assert 'href="/create"' not in weston.get("/").text


def error_of(html: str) -> str:
    return unescape(re.search(r'<p class="error" role="alert">([^<]*)</p>', html).group(1))


@pytest.mark.parametrize(
    ("draft", "said"),
    [
        ("{not json", "Started again: the draft character is not JSON"),
        ("[" * 1500 + "]" * 1500, "Started again: the draft character is nested too deeply"),
        ('{"sheet": ' + "[" * 1500 + "]" * 1500 + "}", "Started again: the draft character is nested too deeply"),
        ("1", "Started again: the draft character cannot be read: the draft is not a mapping"),
        ("null", "Started again: the draft character cannot be read: the draft is not a mapping"),
        ('{"sheet": {"name": "A"}, "step": 1.5}', "the step of the draft must be a whole number 0 to 6"),
        ('{"sheet": {"name": "A"}, "step": "2"}', "the step of the draft must be a whole number 0 to 6"),
    ],
)
def test_a_hostile_draft_is_refused_in_one_line(clients, draft, said):
    r = clients("storyteller").post("/create", data={"draft": draft, "action": "next"})
    assert r.status_code == 400 and said in error_of(r.text)
    assert "Traceback" not in r.text and "Error" not in error_of(r.text)


def test_hostile_pickers_are_refused_in_one_line(clients):
    st = clients("storyteller")
    draft = draft_of(st.get("/create").text)
    for fields, said in [
        ({"breed": "Elf"}, "Breed 'Elf' is not one of the choices offered"),
        ({"Strength": "3"}, "'Strength' is not a choice of the character step"),
    ]:
        r = send(st, draft, fields, action="apply")
        assert r.status_code == 400 and error_of(r.text) == said
    r = send(st, draft, PICKS[0][0])
    draft = draft_of(r.text)
    for value in ("0", "6", "1.5", "-1", "9" * 40, "<b>"):
        r = send(st, draft, {"Strength": value}, action="apply")
        assert r.status_code == 400 and "allowed 1 to 5 at the attributes step" in error_of(r.text)
        assert "<b>" not in r.text.split('name="draft"')[0]
    r = st.post("/create", data={"draft": draft, "action": "jump"})
    assert r.status_code == 400 and error_of(r.text) == "action 'jump': allowed apply, next, undo"
    many = "&".join(f"f:x{i}=1" for i in range(300))
    r = st.post("/create", content=many, headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 400 and "a step sends at most 200 fields" in error_of(r.text)


def test_a_forged_finished_draft_is_refused(clients):
    c = clients("storyteller")
    forged = {
        "sheet": {"name": "Cheat", "attributes": {"Strength": 5, "Dexterity": 5}, "rank": 1},
        "step": 5,
        "past": [],
    }
    r = c.post("/create", data={"draft": json.dumps(forged), "action": "next"})
    assert r.status_code == 400 and "Created" not in r.text
    assert clients(None).post("/create", data={"answer": "next"}).status_code == 403
    assert c.post("/create", data={"draft": "x" * 20_000, "answer": "next"}).status_code == 413


@pytest.mark.slow
def test_guided_creation_with_pickers_in_a_real_browser(tmp_path):
    import os

    from tests.web.test_browser import ARGS, CHROMIUM, Server

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
            page.goto(server.links["storyteller"])
            page.click("a[href='/create']")
            from tests.web.test_browser import _serious

            assert _serious(page) == []  # axe-core: nothing serious or critical on the pickers
            page.fill("#pick-name", "Sees-Far")
            for field, value in (("breed", "Homid"), ("auspice", "Ahroun"), ("tribe", "Get of Fenris")):
                page.select_option(f"#pick-{field}", value)
            page.click("button.primary")
            fields = {k: v for f, _, _ in PICKS[1:5] for k, v in f.items()}
            while "Gifts" not in page.inner_text("h2"):
                for sel in page.query_selector_all("select[name^='f:']"):
                    name = sel.get_attribute("name")[2:]
                    if name in fields:
                        sel.select_option(fields[name])
                if "Attributes" in page.inner_text("h2"):  # the count follows the selects before sending
                    assert page.inner_text("fieldset.dots:first-of-type .placed") == "7"
                page.click("button.primary")
                page.wait_for_load_state()
                assert not page.query_selector("p.error"), page.inner_text("p.error")
            assert _serious(page) == []
            for i, gift in enumerate(("Smell of Man", "Razor Claws", "Resist Pain"), 1):
                page.select_option(f"#gift-{i}", gift)
            page.click("button.primary")
            page.click("button.primary")  # no freebies spent
            assert "Created Sees-Far" in page.inner_text("main")
            assert page.query_selector("figure.qr svg") and "/join/" in page.inner_text("#new-link")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 360, width
            page.screenshot(path=str(tmp_path / "create.png"))
            b.close()
        from tests.web.test_browser import _cli

        out = _cli(url, "char", "check", "Sees-Far")
        assert "Sees-Far passes character creation (garou rules)" in out
    finally:
        server.stop()


def test_a_gift_list_stkit_lacks_is_a_text_field(clients, monkeypatch):
    from stkit.sheet import guided as G
    from stkit.sheet import lifebook as L
    from tests.store.test_guided import without_shadow_lords

    lists = without_shadow_lords()
    monkeypatch.setattr(L, "gift_lists", lambda: lists)

    d = G.new_draft()
    d.answer("name=Whisper breed=Homid auspice=Ragabash tribe=Shadow Lords")
    d.step = G.STEPS.index("gifts")
    r = clients("storyteller").post("/create", data={"draft": json.dumps(d.to_dict()), "action": "apply"})
    assert r.status_code == 200 and '<input id="gift-3" name="gift" value=""' in r.text
    assert '<select id="gift-1" name="gift">' in r.text
