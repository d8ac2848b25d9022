"""``GET /sheet/ID/print``: the printable page, with print CSS, for the Storyteller and the sheet's own player."""

from __future__ import annotations


def test_the_print_page_holds_the_sheet_and_print_css(clients, table):
    c = clients("storyteller")
    page = c.get(f"/sheet/{table.weston}/print")
    assert page.status_code == 200
    text = page.text
    assert "<h1>Weston</h1>" in text and "@media print" in text and "@page{size:A4 portrait" in text
    assert 'aria-label="3"' in text and "Stealth" in text  # Stealth 3 as dots with the number
    assert f'href="/sheet/{table.weston}/print"' in c.get(f"/sheet/{table.weston}").text


def test_a_player_prints_only_their_own_sheet(clients, table):
    player = clients("Weston")
    assert player.get(f"/sheet/{table.weston}/print").status_code == 200
    assert player.get(f"/sheet/{table.archibald}/print").status_code == 403
    assert clients("storyteller").get("/sheet/999999/print").status_code == 404
