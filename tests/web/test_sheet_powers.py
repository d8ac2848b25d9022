"""Gifts and fetishes used from the table page's sheet (``POST /act/use``): the same use case as `stkit
char use`, spending, rolled through the one roll use case and logged in the feed; a player acts only for
their own character and never sets a difficulty the Storyteller sets; and a Kinfolk's sheet, roll form and
party row show no form, Rage or Gnosis."""

from __future__ import annotations

import re

from stkit.store.db.gateway import run_unit
from tests.web.test_fight_phones import HX, _text


def _powers(url: str, name: str) -> None:
    """Weston: a Garou with Gnosis 4, Willpower 3, Medicine 1, three Gifts and a Gnosis 5 fetish."""
    from stkit.store.characters import find_character, save_sheet

    def change(gw):
        row = find_character(gw, name, "default")
        sheet = row.to_sheet()
        sheet.breed, sheet.auspice, sheet.tribe = "Homid", "Galliard", "Fianna"
        sheet.powers["Gnosis"].permanent = sheet.powers["Gnosis"].temporary = 4
        sheet.abilities["Subterfuge"] = 2
        sheet.abilities["Medicine"] = 1  # Falling Touch rolls Medicine, a Knowledge: no dots, no roll
        sheet.gifts = [
            {"name": "Persuasion", "level": 1},
            {"name": "Resist Pain", "level": 1},
            {"name": "Falling Touch", "level": 1},
            {"name": "Made Up Gift", "level": 1},
        ]
        sheet.fetishes = [{"name": "Fang Dagger", "level": 2, "gnosis": 5}]
        save_sheet(gw, row, sheet, summary="Gifts")

    run_unit(url, change)


def _points(url: str, what: str) -> int:
    from stkit.store.characters import find_character

    return run_unit(url, lambda gw: find_character(gw, "Weston", "default").to_sheet().powers[what].temporary)


def test_gifts_and_fetishes_act_from_the_sheet(clients, table):
    _powers(table.url, "Weston")
    st, weston = clients("storyteller"), clients("Weston")
    page = weston.get("/").text
    assert "Gifts and fetishes" in page and 'name="power" value="Persuasion"' in page
    assert 'name="power" value="Made Up Gift"' not in page and "no roll in stkit's table" in page
    w = {"character_id": table.weston}
    said = _text(weston.post("/act/use", data={**w, "power": "Persuasion"}, headers=HX).text)
    assert re.match(r"Weston uses Persuasion: Charisma \+ Subterfuge at difficulty 6: \d+ success", said), said
    assert "; dice " in said and "lasts one scene" in said
    feed = st.get("/").text
    assert "Charisma 1 + Subterfuge 2 = 3 dice" in feed  # the roll is in the feed like every sheet roll
    logged = run_unit(table.url, lambda gw: gw.rows("SELECT character_name, expression FROM roll_log"))
    assert [tuple(r) for r in logged] == [("Weston", "Charisma + Subterfuge")]
    # a Gift with a cost spends it
    said = _text(weston.post("/act/use", data={**w, "power": "Resist Pain"}, headers=HX).text)
    assert said.startswith("Weston uses Resist Pain, spending 1 Willpower") and _points(table.url, "Willpower") == 2
    # a fetish: Gnosis against its Gnosis, or a Gnosis point spent
    said = _text(weston.post("/act/use", data={**w, "power": "Fang Dagger"}, headers=HX).text)
    assert re.match(r"Weston uses Fang Dagger: Gnosis at difficulty 5: \d+ success", said), said
    said = _text(weston.post("/act/use", data={**w, "power": "Fang Dagger", "spend_gnosis": "on"}, headers=HX).text)
    assert "spends 1 Gnosis: Fang Dagger activates without a roll" in said and _points(table.url, "Gnosis") == 3
    # the difficulty the Storyteller sets: a player cannot, the Storyteller does
    said = _text(weston.post("/act/use", data={**w, "power": "Falling Touch", "difficulty": "3"}, headers=HX).text)
    assert said.startswith("Falling Touch: the Storyteller sets the difficulty (the target's Stamina + Athletics)")
    assert 'id="use-d-' in st.get("/").text  # the Storyteller's sheet asks for it
    said = _text(st.post("/act/use", data={**w, "power": "Falling Touch", "difficulty": "7"}, headers=HX).text)
    assert re.match(r"Weston uses Falling Touch: Dexterity \+ Medicine at difficulty 7", said), said
    # only one's own character, and only what the sheet holds
    assert weston.post("/act/use", data={"character_id": table.archibald, "power": "Persuasion"}).status_code == 403
    said = _text(weston.post("/act/use", data={**w, "power": "Nope"}, headers=HX).text)
    assert said.startswith("Weston has no Gift or fetish 'Nope'")


def test_a_kinfolk_shows_no_form_rage_or_gnosis(clients, table):
    from stkit.store.characters import find_character, save_sheet

    def kin(gw):
        row = find_character(gw, "Archibald", "default")
        sheet = row.to_sheet()
        sheet.set_trait("creature", "kinfolk")
        for power in ("Rage", "Gnosis"):  # as `char new --creature kinfolk` makes one
            sheet.powers[power].permanent = sheet.powers[power].temporary = 0
        save_sheet(gw, row, sheet, summary="Kinfolk")

    run_unit(table.url, kin)
    page = clients("Archibald").get("/").text
    alone = re.search(r'<select id="alone-\d+" name="trait">(.*?)</select>', page, re.S).group(1)
    assert "Willpower" in alone and "Rage" not in alone and "Gnosis" not in alone
    sheet = re.search(r'<div class="sheet" id="sheet-\d+".*?</section>', page, re.S).group(0)
    assert 'class="form"' not in sheet and "power-rage" not in sheet and "power-gnosis" not in sheet
    assert "<h4>Willpower</h4>" in sheet
    st = clients("storyteller").get("/").text
    row = re.search(rf'<tr id="party-{table.archibald}".*?</tr>', st, re.S).group(0)
    assert re.search(r'class="power-rage"><span aria-hidden="true">–</span><span class="vh">none</span>', row)
    weston_row = re.search(rf'<tr id="party-{table.weston}".*?</tr>', st, re.S).group(0)
    assert re.search(r'class="power-rage">\d+/\d+<', weston_row)  # a Garou keeps his
