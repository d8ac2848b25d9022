"""The table server in-process (FastAPI's TestClient): access, rolls through the store's use cases, the
one-line errors of the CLI, secret rolls, the pages' content."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from tests.web.conftest import issue

HX = {"hx-request": "true"}
ASK = "Ask the Storyteller for a new link."


def _count(url: str, table: str) -> int:
    from stkit.store.db.gateway import run_unit

    return run_unit(url, lambda gw: gw.row(f"SELECT COUNT(*) FROM {table}")[0], readonly=True)


def _log(url: str) -> list[dict]:
    from stkit.store.db.gateway import run_unit
    from stkit.store.rolling import recent_log

    return run_unit(url, lambda gw: recent_log(gw, limit=100), readonly=True)


def _cli_error(*args: str) -> str:
    """The one line `stkit ...` prints on stderr for a bad value (exit 1)."""
    from stkit.cli.app import app

    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 1, result.output
    line = result.stderr.strip()
    assert line.startswith("Error: ")
    return line.removeprefix("Error: ")


def _fragment_text(html: str) -> str:
    import html as h

    return h.unescape(re.sub(r"<[^>]+>", "", html)).strip()


# ------------------------------------------------------------------------------------------------ access


@pytest.mark.parametrize("cookie", [None, "forged-token-value", "x" * 300])
def test_missing_or_forged_token_gets_403_page_and_changes_nothing(clients, table, cookie):
    c = clients(None)
    if cookie:
        c.cookies.set("stkit_table", cookie)
    for path in ("/", "/status", f"/sheet/{table.weston}", "/events", "/odds?dice=3"):
        r = c.get(path)
        assert r.status_code == 403, path
        assert ASK in r.text
    before = _count(table.url, "roll_log")
    r = c.post("/roll", data={"character_id": str(table.weston), "trait": "Dexterity"})
    assert r.status_code == 403
    r = c.post("/scene/start", data={"name": "Ambush"})
    assert r.status_code == 403
    assert _count(table.url, "roll_log") == before == 0
    assert _count(table.url, "scenes") == 0
    assert c.get("/join/forged").status_code == 403


def test_join_sets_a_strict_httponly_cookie_and_only_the_hash_is_stored(clients, table):
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import hash_token

    token = table.token("Weston")
    assert len(token) >= 22  # 24 random bytes, URL-safe base64: 192 bits
    r = clients(None).get(f"/join/{token}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert f"stkit_table={token}" in cookie
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    stored = run_unit(table.url, lambda gw: [r[0] for r in gw.rows("SELECT token_hash FROM table_links")])
    assert hash_token(token) in stored and token not in stored
    assert all(len(h) == 64 for h in stored)


def test_rotated_links_stop_working(clients, table):
    old = clients("Weston")
    assert old.get("/").status_code == 200
    new = issue(table.url, rotate=True)
    assert old.get("/").status_code == 403
    fresh = clients(None)
    fresh.cookies.set("stkit_table", new["Weston"])
    assert fresh.get("/").status_code == 200


def test_a_player_rolls_only_for_their_own_character(clients, table):
    c = clients("Weston")
    r = c.post("/roll", data={"character_id": str(table.archibald), "trait": ["Wits"]}, headers=HX)
    assert r.status_code == 403
    assert _count(table.url, "roll_log") == 0
    assert c.get(f"/sheet/{table.archibald}").status_code == 403
    form = {"character_id": str(table.weston), "trait": ["Dexterity", "Brawl"]}
    r = c.post("/roll", data=form, follow_redirects=False)
    assert r.status_code == 303  # a plain form post goes back to the page
    [entry] = _log(table.url)
    assert entry["character"] == "Weston" and entry["expression"] == "Dexterity + Brawl" and entry["pool"] == 5


def test_players_cannot_use_storyteller_controls_or_secret_rolls(clients, table):
    c = clients("Weston")
    for path, data in [
        ("/scene/start", {"name": "Ambush"}),
        ("/health", {"character_id": str(table.weston), "levels": "1"}),
        ("/extended/start", {"name": "Climb", "pool": "6", "target": "3"}),
        ("/contest/start", {"name": "Debate", "pool_a": "3", "pool_b": "3", "target": "3"}),
        ("/roll", {"character_id": str(table.weston), "trait": "Dexterity", "secret": "on"}),
    ]:
        assert c.post(path, data=data).status_code == 403, path
    assert _count(table.url, "table_events") == 0


def test_a_post_from_another_site_is_refused(clients, table):
    c = clients("storyteller")
    r = c.post("/scene/start", data={"name": "Ambush"}, headers={"origin": "http://evil.example"})
    assert r.status_code == 403
    assert _count(table.url, "scenes") == 0
    r = c.post("/scene/start", data={"name": "Ambush"}, headers={"origin": "http://127.0.0.1:8000"} | HX)
    assert r.status_code == 200 and "opened" in r.text


def test_changes_need_post(clients, table):
    c = clients("storyteller")
    assert c.get("/roll").status_code == 405
    assert c.get("/scene/start").status_code == 405


# ------------------------------------------------------------------------------------------ bad values


@pytest.mark.parametrize(
    "traits, difficulty, cli_pool, cli_difficulty",
    [
        (["Dexterity", "Brawl"], "1", "Dexterity + Brawl", "1"),
        (["Dexterity", "Brawl"], "11", "Dexterity + Brawl", "11"),
        (["Dexterity", "Brawll"], "6", "Dexterity + Brawll", "6"),
        (["Dexterity", "Brawl", "Stealth"], "6", "Dexterity + Brawl + Stealth", "6"),
        (["Willpower", "Brawl"], "6", "Willpower + Brawl", "6"),
    ],
)
def test_form_errors_are_the_clis_one_line_messages_and_store_nothing(
    clients, table, traits, difficulty, cli_pool, cli_difficulty
):
    expected = _cli_error("roll", cli_pool, "--char", "Weston", "-d", cli_difficulty, "--db", table.url)
    c = clients("Weston")
    form = {"character_id": str(table.weston), "trait": traits, "difficulty": difficulty}
    r = c.post("/roll", data=form, headers=HX)
    assert r.status_code == 200
    assert _fragment_text(r.text) == expected
    assert 'class="error"' in r.text
    # without JavaScript: the page again, the message beside the form, status 400
    r = c.post("/roll", data=form)
    assert r.status_code == 400 and expected in _fragment_text(r.text)
    assert _count(table.url, "roll_log") == 0 and _count(table.url, "table_events") == 0


def test_plain_dice_pool_out_of_range_has_the_clis_message(clients, table):
    expected = _cli_error("roll", "0", "--log", "--db", table.url)
    r = clients("storyteller").post("/roll", data={"dice": "0", "secret": "on"}, headers=HX)
    assert _fragment_text(r.text) == expected
    assert _count(table.url, "roll_log") == 0


def test_willpower_with_none_left_is_refused_and_nothing_is_stored(clients, table):
    from stkit.store.characters import spend
    from stkit.store.db.engine import open_store
    from stkit.store.db.gateway import gateway_transaction

    with gateway_transaction(open_store(table.url)) as s:
        spend(s, "Weston", "Willpower", 3)
    events_before = _count(table.url, "table_events")
    r = clients("Weston").post(
        "/roll", data={"character_id": str(table.weston), "trait": "Dexterity", "willpower": "on"}, headers=HX
    )
    assert _fragment_text(r.text) == "Weston has no Willpower points left; nothing was spent or rolled"
    assert _count(table.url, "roll_log") == 0
    assert _count(table.url, "table_events") == events_before


# ------------------------------------------------------------------------------------------ rolls and feed


def test_roll_from_the_sheet_matches_the_cli_for_the_same_seed(clients, table):
    from stkit.cli.app import app

    # the Storyteller may seed a roll (to replay one); a player may not choose the dice
    form = {"character_id": str(table.weston), "trait": ["Dexterity", "Brawl"], "seed": "42"}
    assert clients("Weston").post("/roll", data=form, headers=HX).status_code == 403
    assert _count(table.url, "roll_log") == 0
    r = clients("storyteller").post("/roll", data=form, headers=HX)
    assert r.status_code == 200 and "error" not in r.text
    cli = CliRunner().invoke(
        app, ["roll", "Dexterity + Brawl", "--char", "Weston", "--seed", "42", "--json", "--db", table.url]
    )
    web_entry, cli_entry = _log(table.url)[1], _log(table.url)[0]
    assert cli.exit_code == 0
    assert web_entry["dice"] == cli_entry["dice"] and web_entry["result"] == cli_entry["result"]
    assert web_entry["detail"]["breakdown"] == "Dexterity 3 + Brawl 2 = 5 dice"


def test_feed_shows_pool_dice_marks_and_a_loud_botch(clients, table):
    from stkit.dice import count_dice
    from stkit.store.db.gateway import run_unit
    from stkit.store.rolling import write_log

    # Hand-checked: at difficulty 6, [7] and [6] succeed, one <1> cancels the lower one -> 1 success.
    roll = count_dice(4, 6, [7, 1, 6, 3])
    assert roll.result == 1
    botch = count_dice(3, 6, [1, 2, 5])
    for r in (roll, botch):
        run_unit(
            table.url,
            lambda gw, r=r: write_log(
                gw,
                chronicle="default",
                character_id=table.weston,
                character_name="Weston",
                expression="Dexterity + Brawl",
                result=r,
                detail={"breakdown": "Dexterity 3 + Brawl 2 = 5 dice"},
            ),
        )
    page = clients("Archibald").get("/").text
    feed = page[page.index('id="feed"') :]
    first, second = feed.index("BOTCH!"), feed.index("<s>[6]</s>")
    assert first < second  # newest first
    assert "[7]" in feed and "<s>&lt;1&gt;</s>" in feed and "Dexterity 3 + Brawl 2 = 5 dice" in feed
    assert "1 success (marginal)" in feed
    assert 'class="roll botch"' in feed


def test_secret_rolls_reach_the_storyteller_only(clients, table):
    from stkit.cli.app import app

    st, player = clients("storyteller"), clients("Weston")
    r = st.post("/roll", data={"dice": "7", "difficulty": "8", "secret": "on", "seed": "3"}, headers=HX)
    assert "success" in r.text or "Failure" in r.text or "BOTCH" in r.text
    cli = CliRunner().invoke(app, ["roll", "9", "--secret", "--seed", "5", "--db", table.url])
    assert cli.exit_code == 0, cli.output
    cli = CliRunner().invoke(
        app, ["roll", "Stamina + Stealth", "--char", "Weston", "--secret", "--willpower", "--db", table.url]
    )
    assert cli.exit_code == 0, cli.output
    st_page, player_page = st.get("/").text, player.get("/").text
    assert st_page.count('class="badge">secret') == 3
    assert "7 dice" in st_page and "9 dice" in st_page and "Stamina 3 + Stealth 3" in st_page
    feed = player_page.split('id="feed"')[1]
    assert "secret" not in feed
    assert "7 dice" not in feed and "9 dice" not in feed and "Stealth 3" not in feed
    # not even an empty feed entry: the player's feed has no item at all
    assert '<li id="ev-' not in player_page
    assert all(e["detail"].get("secret") for e in _log(table.url))


def test_willpower_spent_updates_the_sheet_pages(clients, table):
    player, st = clients("Weston"), clients("storyteller")
    assert '<dd class="power-willpower">3 / 3</dd>' in player.get(f"/sheet/{table.weston}").text
    r = player.post(
        "/roll",
        data={"character_id": str(table.weston), "trait": ["Dexterity", "Athletics"], "willpower": "on"},
        headers=HX,
    )
    assert "error" not in r.text
    for c in (player, st):
        assert '<dd class="power-willpower">2 / 3</dd>' in c.get(f"/sheet/{table.weston}").text
    [entry] = _log(table.url)
    assert entry["willpower"] is True and entry["result"] >= 1  # Willpower's success cannot be cancelled


def test_willpower_once_per_turn_holds_on_the_web(clients, table):
    st, player = clients("storyteller"), clients("Weston")
    st.post("/scene/start", data={"name": "The wall"}, headers=HX)
    form = {"character_id": str(table.weston), "trait": "Dexterity", "willpower": "on"}
    assert "error" not in player.post("/roll", data=form, headers=HX).text
    again = _fragment_text(player.post("/roll", data=form, headers=HX).text)
    expected = _cli_error("roll", "Dexterity", "--char", "Weston", "--willpower", "--db", table.url)
    # the page names its own control where the command line names a command
    expected = expected.replace("(next turn: stkit scene turn)", "(the Storyteller's Next turn button starts one)")
    assert again == expected and "only once per turn" in again
    st.post("/scene/turn", headers=HX)
    assert "error" not in player.post("/roll", data=form, headers=HX).text


def test_try_again_raises_the_difficulty_like_the_cli(clients, table):
    import random

    from stkit.dice import roll_pool

    # a seed whose 3 dice (Weston's Dexterity 3) fail at difficulty 6
    seed = next(n for n in range(1000) if roll_pool(3, 6, rng=random.Random(n)).outcome.value != "success")
    st = clients("storyteller")  # seeds the first roll so that it fails
    form = {"character_id": str(table.weston), "trait": "Dexterity", "task": "Scale the wall", "difficulty": "6"}
    st.post("/roll", data=form | {"seed": str(seed)}, headers=HX)
    clients("Weston").post("/roll", data=form | {"task": "scale-the wall"}, headers=HX)
    first, second = reversed(_log(table.url))
    assert (first["difficulty"], second["difficulty"]) == (6, 7)
    assert second["detail"]["base_difficulty"] == 6 and second["detail"]["retry"] == 1


def test_automatic_success(clients, table):
    r = clients("Weston").post(
        "/roll", data={"character_id": str(table.weston), "trait": ["Dexterity", "Stealth"], "auto": "on"}, headers=HX
    )
    assert 'class="result success"' in r.text
    assert _fragment_text(r.text).splitlines()[0] == "1 success (marginal), automatic"
    [entry] = _log(table.url)
    assert entry["dice"] == [] and entry["detail"]["automatic"] is True


def test_user_text_is_escaped_on_pages(db_url, clients, table):
    from tests.web.conftest import add_character

    cid = add_character(db_url, "<b>Bold</b> & Co")
    links = issue(db_url)
    c = clients(None)
    c.cookies.set("stkit_table", links["<b>Bold</b> & Co"])
    page = c.get("/").text
    assert "<b>Bold</b>" not in page and "&lt;b&gt;Bold&lt;/b&gt; &amp; Co" in page
    assert c.get(f"/sheet/{cid}").status_code == 200


# ------------------------------------------------------------------------------------------ odds


def test_odds_chart_has_the_exact_numbers(clients, table):
    from stkit.dice.odds import roll_distribution

    c = clients("Weston")
    r = c.get("/odds", params={"character_id": str(table.weston), "trait": ["Dexterity", "Brawl"], "difficulty": "6"})
    assert r.status_code == 200
    d = roll_distribution(5, 6)
    # P(botch) for 5 dice at 6: (5/10)^5 - (4/10)^5 = 0.03125 - 0.01024 = 0.02101
    assert d.p_botch == Fraction(2101, 100000)
    assert 'title="2101/100000"' in r.text and "2.1%" in r.text
    assert "Dexterity 3 + Brawl 2 = 5 dice" in r.text
    assert f"{float(d.p_success) * 100:.1f}%" in r.text
    # a plain number of dice, and the bad values' messages
    r = c.get("/odds", params={"dice": "3", "difficulty": "6"})
    assert 'title="61/1000"' in r.text  # (1/2)^3 - (2/5)^3
    r = c.get("/odds", params={"dice": "3", "difficulty": "11"})
    assert _fragment_text(r.text) == "difficulty 11 is outside the allowed range 2 to 10"
    assert c.get("/odds", params={"character_id": str(table.archibald), "trait": "Wits"}).status_code == 403


# ------------------------------------------------------------------------------------------ Storyteller


def test_storyteller_controls_scenes_health_extended_and_contests(clients, table):
    st = clients("storyteller")
    assert "opened" in st.post("/scene/start", data={"name": "The embassy wall"}, headers=HX).text
    assert "Turn 2" in st.post("/scene/turn", headers=HX).text
    r = st.post("/health", data={"character_id": str(table.weston), "levels": "2", "kind": "lethal"}, headers=HX)
    assert "Weston takes 2 lethal: Hurt, -1 die" in _fragment_text(r.text)
    sheet = st.get(f"/sheet/{table.weston}").text
    assert "Hurt: wound penalty <strong>-1</strong> dice" in sheet
    r = st.post("/health", data={"character_id": str(table.weston), "levels": "1", "change": "heal"}, headers=HX)
    assert "heals 1 level" in r.text
    r = st.post(
        "/extended/start",
        data={"name": "Climb", "character_id": str(table.weston), "pool": "Dexterity + Athletics", "target": "7"},
        headers=HX,
    )
    assert "Climb: 0/7 (open)" in r.text
    status = st.get("/status").text
    assert "Chance to finish within 1 roll" in status and "2 rolls" in status and "4 rolls" in status
    st.post("/extended/roll", data={"id": "1", "seed": "1"}, headers=HX)
    status = st.get("/status").text
    assert "1 roll so far" in status
    r = st.post(
        "/contest/start",
        data={"name": "Debate", "a": f"#{table.weston}", "pool_a": "Dexterity", "pool_b": "3", "target": "3"},
        headers=HX,
    )
    assert "Debate: A 0 - B 0 (open)" in r.text
    st.post("/contest/roll", data={"id": "1", "seed": "2"}, headers=HX)
    status = st.get("/status").text
    assert "1 exchange" in status and 'class="tally-a"' in status
    assert "abandoned" in st.post("/extended/abandon", data={"id": "1"}, headers=HX).text
    assert "Scene closed" in st.post("/scene/end", headers=HX).text
    kinds = _event_kinds(table.url)
    assert kinds.count("scene") == 3 and kinds.count("extended") == 3 and kinds.count("contest") == 2
    assert kinds.count("sheet") == 2


def test_storyteller_errors_are_one_line(clients, table):
    st = clients("storyteller")
    assert _fragment_text(st.post("/scene/turn", headers=HX).text).startswith("no scene is open")
    r = st.post("/extended/start", data={"name": "Climb", "pool": "6", "target": "0"}, headers=HX)
    assert _fragment_text(r.text) == "target 0 must be at least 1 success; allowed: 1 to 1000"
    r = st.post("/health", data={"character_id": str(table.weston), "levels": "x"}, headers=HX)
    assert _fragment_text(r.text) == "health levels 'x' is not a whole number; use the digits 0 to 9"
    assert _count(table.url, "table_events") == 0


def _event_kinds(url: str) -> list[str]:
    from stkit.store.db.gateway import run_unit

    return [r[0] for r in run_unit(url, lambda gw: gw.rows("SELECT kind FROM table_events ORDER BY id"))]


def test_odd_ids_get_a_clear_answer_not_a_server_error(clients, table):
    st = clients("storyteller")
    assert st.get("/sheet/99999999999999999999999").status_code == 404
    assert st.get("/sheet/424242").status_code == 404
    r = st.post("/contest/start", data={"name": "Debate", "a": "#x", "pool_b": "3", "target": "3"}, headers=HX)
    assert _fragment_text(r.text) == "side A 'x' is not a whole number; use the digits 0 to 9"
    r = st.post("/extended/roll", data={"id": "77"}, headers=HX)
    assert _fragment_text(r.text) == "no extended action with id 77; see: stkit extended list"
