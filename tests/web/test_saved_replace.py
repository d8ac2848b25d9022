"""The page's saved-roll form never replaces a saved roll of the same name unless asked: "Replace" is a
choice on the form, as ``stkit saved add --force`` is on the command line."""

from __future__ import annotations

import html
import re

HX = {"hx-request": "true"}


def _text(page: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))).strip()


def _save(client, cid: int, *traits: str, **extra: str):
    data = {"character_id": str(cid), "trait": list(traits), "save_name": "claws", **extra}
    return client.post("/saved", data=data, headers=HX)


def _saved_pools(client, cid: int) -> list[str]:
    return re.findall(r'<span class="sub">([^<]*)</span>', client.get(f"/saved/{cid}").text)


def test_a_saved_roll_of_the_same_name_is_kept_unless_replace_is_chosen(clients, table):
    player = clients("Weston")
    assert _text(_save(player, table.weston, "Dexterity", "Brawl").text) == (
        "Saved claws: Dexterity + Brawl, difficulty 6"
    )
    refused = _text(_save(player, table.weston, "Strength", "Brawl", save_name="Claws").text)
    assert refused == "Weston already has a saved roll 'claws' (Dexterity + Brawl); tick Replace to replace it"
    assert _saved_pools(player, table.weston) == ["Dexterity + Brawl · 6"]
    replaced = _text(_save(player, table.weston, "Strength", "Brawl", replace="on").text)
    assert replaced == "Replaced claws: Strength + Brawl, difficulty 6"
    assert _saved_pools(player, table.weston) == ["Strength + Brawl · 6"]


def test_the_form_offers_replace_beside_save(clients, table):
    page = clients("Weston").get("/").text
    box = re.search(r'<input type="checkbox" name="replace" id="replace-(\d+)">', page)
    assert (
        box is not None and f'<label class="check"><input type="checkbox" name="replace" id="replace-{box[1]}">' in page
    )
    assert "Replace one of that name" in _text(page)


def test_a_plain_form_post_without_replace_is_refused_beside_the_form(clients, table):
    player = clients("Weston")
    _save(player, table.weston, "Dexterity", "Brawl")
    data = {"character_id": str(table.weston), "trait": ["Strength", "Brawl"], "save_name": "claws"}
    page = player.post("/saved", data=data, follow_redirects=False)
    assert page.status_code == 400
    assert "tick Replace to replace it" in _text(page.text)
    assert _saved_pools(player, table.weston) == ["Dexterity + Brawl · 6"]
