"""The bare address, opened with no link at all: the way in, no error, no data."""

from __future__ import annotations


def test_the_bare_address_without_a_link_says_to_open_the_storytellers_link(clients, table):
    r = clients(None).get("/")
    assert r.status_code == 403
    assert "open the link the Storyteller gave you" in r.text
    assert "not valid" not in r.text and "Not allowed" not in r.text
    assert "Weston" not in r.text and "Archibald" not in r.text  # no data shown
    assert r.headers["cache-control"] == "no-store"


def test_a_forged_link_is_still_called_not_valid(clients, table):
    c = clients(None)
    c.cookies.set("stkit_table", "forged-token-value")
    r = c.get("/")
    assert r.status_code == 403 and "not valid" in r.text and "Welcome" not in r.text
