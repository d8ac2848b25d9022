"""The fight from the phones (in-process): an attack waits for the defender's own answer, with the exact
odds of each answer; the Storyteller answers for an NPC at once and for a player only once the time is
over; the exchange is one feed card; a latecomer joins initiative keeping the others' dice; NPCs stay off
the players' pages; the dead are shown dead and roll nothing; a call for a roll gathers its answers."""

from __future__ import annotations

import json
import re
import socket
from fractions import Fraction
from itertools import product

from stkit.store.db.gateway import run_unit
from tests.waiting import DEADLINE, wait_until
from tests.web.conftest import add_character

HX = {"hx-request": "true"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).replace("&#39;", "'").strip()


def _prompt_id(html: str) -> str:
    return re.findall(r'id="prompt-(\d+)"', html)[0]


def _p_success_by_hand(pool: int, difficulty: int) -> Fraction:
    """P(at least one success) of ``pool`` d10 at ``difficulty`` by brute force: successes less 1s > 0."""
    good = sum(
        1 for faces in product(range(1, 11), repeat=pool) if sum(f >= difficulty for f in faces) - faces.count(1) > 0
    )
    return Fraction(good, 10**pool)


def test_the_defenders_phone_gets_the_prompt_with_exact_odds_and_answers_it(clients, table):
    st, weston, archibald = clients("storyteller"), clients("Weston"), clients("Archibald")
    st.post("/scene/start", data={"name": "Alley"}, headers=HX)
    r = st.post("/attack", data={"attacker": table.archibald, "target": table.weston, "maneuver": "punch"}, headers=HX)
    assert "waiting for Weston's answer" in _text(r.text)
    prompts = weston.get("/prompts").text
    assert "You are attacked!" in prompts
    assert 'data-prompt="' not in archibald.get("/prompts").text  # only the defender's phone is asked
    # Weston dodges with Dexterity 3 + Dodge 0 (a Talent: no penalty) = 3 dice at 6; block Dexterity 3 + Brawl 2
    dodge = re.search(r'value="dodge">.*?succeeds <strong title="([\d/]+)"', prompts, re.S).group(1)
    block = re.search(r'value="block">.*?succeeds <strong title="([\d/]+)"', prompts, re.S).group(1)
    assert Fraction(dodge) == _p_success_by_hand(3, 6)
    assert Fraction(block) == _p_success_by_hand(5, 6)
    pid = _prompt_id(prompts)
    early = st.post(f"/prompt/{pid}/answer", data={"answer": "take"}, headers=HX)
    left = re.search(r"has (\d+) s more to answer", _text(early.text))
    assert left and 1 <= int(left.group(1)) <= 30  # the 30 s wait has started; a busy machine may have used some
    assert archibald.post(f"/prompt/{pid}/answer", data={"answer": "take"}).status_code == 403
    done = weston.post(f"/prompt/{pid}/answer", data={"answer": "block"}, headers=HX)
    assert re.match(r"(HIT|MISS)", _text(done.text))
    again = weston.post(f"/prompt/{pid}/answer", data={"answer": "block"}, headers=HX)
    assert "already answered" in _text(again.text)
    page = weston.get("/").text
    cards = re.findall(r'<li id="ev-\d+" class="card attack-card (hit|miss)"[^>]*data-log-ids="([\d ]+)"', page)
    assert len(cards) == 1
    for log_id in cards[0][1].split():  # the exchange's rolls are in the card, not beside it
        assert f'data-log-id="{log_id}"' not in page
    assert "Block: Dexterity 3 + Brawl 2 = 5 dice" in _text(page) or cards[0][0] == "miss"


def test_the_storyteller_answers_for_an_npc_at_once(clients, table):
    fomor = add_character(table.url, "Fomor", attributes={"Dexterity": 2, "Stamina": 2}, player="")
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Warehouse"}, headers=HX)
    r = st.post(
        "/attack",
        data={
            "attacker": table.weston,
            "target": fomor,
            "pool": "Dexterity + Brawl",
            "damage": "Strength + 2",
            "damage_type": "lethal",
        },
        headers=HX,
    )
    assert "waiting for the Storyteller's answer" in _text(r.text)
    pid = _prompt_id(st.get("/prompts").text)
    assert re.match(r"(HIT|MISS)", _text(st.post(f"/prompt/{pid}/answer", data={"answer": "dodge"}, headers=HX).text))


def test_npcs_are_kept_off_the_players_pages(clients, table):
    fomor = add_character(table.url, "Fomor", attributes={"Dexterity": 2, "Wits": 2}, player="")
    st, weston = clients("storyteller"), clients("Weston")
    st.post("/scene/start", data={"name": "Warehouse"}, headers=HX)
    for cid in (table.weston, fomor):
        st.post("/initiative/add", data={"character_id": cid}, headers=HX)
    assert "Fomor" in _text(st.get("/status").text)
    assert "Fomor" not in _text(weston.get("/status").text)
    st.post("/roll", data={"character_id": fomor, "trait": ["Dexterity"]}, headers=HX)
    assert "Fomor" in _text(st.get("/").text.split('id="feed"')[1])
    assert "Fomor" not in _text(weston.get("/").text.split('id="feed"')[1])


def test_a_latecomer_joins_initiative_and_the_others_keep_their_dice(clients, table):
    from stkit.store.fight.initiative import current_initiative
    from stkit.store.scenes import open_scene

    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Bridge"}, headers=HX)
    st.post("/initiative/add", data={"character_id": table.weston, "seed": "3"}, headers=HX)

    def order():
        def read(gw):
            scene = open_scene(gw, "default")
            return current_initiative(gw, scene.id, scene.turn)["order"]

        return run_unit(table.url, read)

    first = {o["name"]: o["die"] for o in order()}
    r = st.post("/initiative/add", data={"character_id": table.archibald}, headers=HX)
    assert "Archibald" in _text(r.text) and "Weston" in _text(r.text)
    after = {o["name"]: o["die"] for o in order()}
    assert after["Weston"] == first["Weston"] and set(after) == {"Weston", "Archibald"}
    totals = [o["total"] for o in order()]
    assert totals == sorted(totals, reverse=True)


def test_the_dead_are_shown_dead_and_roll_nothing(clients, table):
    from stkit.store.characters import find_character
    from stkit.store.fight.rules import mark_dead

    run_unit(table.url, lambda gw: mark_dead(gw, find_character(gw, "Archibald", "default"), None))
    st = clients("storyteller")
    row = re.search(rf'<tr id="party-{table.archibald}".*?</tr>', st.get("/status").text, re.S).group(0)
    assert "Dead" in _text(row)
    r = st.post("/roll", data={"character_id": table.archibald, "trait": ["Dexterity"]}, headers=HX)
    assert "Archibald is dead" in _text(r.text)
    r = clients("Archibald").post("/roll", data={"character_id": table.archibald, "trait": ["Dexterity"]}, headers=HX)
    assert "Archibald is dead" in _text(r.text)


def test_a_call_for_a_roll_gathers_the_answers_in_one_card(clients, table):
    st, weston, archibald = clients("storyteller"), clients("Weston"), clients("Archibald")
    r = st.post(
        "/call",
        data={
            "pool": "Dexterity + Stealth",
            "difficulty": "7",
            "characters": [str(table.weston), str(table.archibald)],
        },
        headers=HX,
    )
    assert "Called for Dexterity + Stealth at 7" in _text(r.text)
    prompt = weston.get("/prompts").text
    assert "Dexterity 3 + Stealth 3 = 6 dice" in _text(prompt) and "Archibald" not in _text(prompt)
    pid = _prompt_id(prompt)
    assert weston.post(f"/call/{pid}/roll", data={"character_id": table.archibald}).status_code == 403
    weston.post(f"/call/{pid}/roll", data={"character_id": table.weston}, headers=HX)
    archibald.post(f"/call/{pid}/roll", data={"character_id": table.archibald}, headers=HX)
    page = st.get("/").text
    card = re.search(rf'<li id="call-{pid}".*?</li>\s*$', page, re.S | re.M).group(0)
    # the dice are not seeded: each answer reads as a count of successes or as a BOTCH
    assert (
        "closed" in card
        and len(re.findall(r'</strong>: (?:\d+ success(?:es)?|<strong class="botch">BOTCH)', card)) == 2
    )
    assert len(re.findall(r"difficulty 7", page)) == 0  # the two rolls are in the card, not beside it


def _garou(url: str, name: str) -> None:
    from stkit.store.characters import find_character, save_sheet

    def change(gw):
        row = find_character(gw, name, "default")
        sheet = row.to_sheet()
        sheet.breed = "Homid"
        for power, n in (("Rage", 4), ("Gnosis", 3)):
            sheet.powers[power].permanent = sheet.powers[power].temporary = n
        save_sheet(gw, row, sheet, summary="a Garou")

    run_unit(url, change)


def test_the_party_strip_acts_through_the_fight_rules(clients, table):
    _garou(table.url, "Weston")
    st, weston = clients("storyteller"), clients("Weston")
    st.post("/scene/start", data={"name": "Caern"}, headers=HX)
    w = {"character_id": table.weston}
    said = _text(weston.post("/act/shift", data={**w, "form": "Crinos", "seed": "1"}, headers=HX).text)
    assert re.match(r"Weston (shifts|fails to shift|gets as far as)", said), said
    said = _text(weston.post("/act/gnosis", data=w, headers=HX).text)
    assert said == "Weston spends 1 Gnosis: 2/3 left"
    # Rage and Gnosis never in one turn: the Rage action is refused with the rule's words
    said = _text(weston.post("/act/rage", data={**w, "points": "1"}, headers=HX).text)
    assert "Rage and Gnosis" in said
    assert _text(weston.post("/act/willpower", data=w, headers=HX).text) == "Weston spends 1 Willpower: 2/3 left"
    assert weston.post("/act/frenzy", data=w).status_code == 403  # the Storyteller's call
    assert re.match(
        r"Weston rolls Rage 4 under difficulty \d+: \d+ success", _text(st.post("/act/frenzy", data=w, headers=HX).text)
    )
    assert weston.post("/act/gnosis", data={"character_id": table.archibald}).status_code == 403
    st.post("/scene/turn", headers=HX)
    said = _text(st.post("/act/rage", data={**w, "points": "1"}, headers=HX).text)
    assert said == "Weston spends 1 Rage for extra actions this turn: 3 left", said


def test_serve_prints_a_compact_list_of_the_players_links(table):
    """Players only (no NPC, no dead), one line each, no QR code unless --qr."""
    import os
    import subprocess
    import sys

    from tests.web.conftest import free_port

    add_character(table.url, "Fomor", player="")
    port = free_port()
    env = os.environ | {"STKIT_DATABASE_URL": table.url, "NO_COLOR": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "stkit", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        wait_until(lambda: _listening(port, proc), "the server to listen")  # links come before it listens
    finally:
        proc.send_signal(2)
        out, _ = proc.communicate(timeout=DEADLINE)
    lines = [line for line in out.splitlines() if line.strip()]
    assert [line.split(": ")[0] for line in lines] == ["Storyteller", "Player", "Player"]
    assert any(line.startswith("Player: Weston: http://127.0.0.1") for line in lines)
    assert "Fomor" not in out and "█" not in out and "▀" not in out


def test_the_dead_are_dead_in_char_list_scene_initiative_and_the_sheet(clients, table):
    from typer.testing import CliRunner

    from stkit.cli.app import app
    from stkit.store.characters import find_character
    from stkit.store.fight.rules import mark_dead

    runner = CliRunner()
    env = {"STKIT_DATABASE_URL": table.url, "NO_COLOR": "1", "COLUMNS": "160"}
    assert runner.invoke(app, ["scene", "start", "Mill"], env=env).exit_code == 0
    run_unit(table.url, lambda gw: mark_dead(gw, find_character(gw, "Archibald", "default"), None))
    listed = runner.invoke(app, ["char", "list", "--json"], env=env)
    dead = {c["name"]: c["dead"] for c in __import__("json").loads(listed.stdout)["characters"]}
    assert dead == {"Archibald": True, "Weston": False}
    table_text = runner.invoke(app, ["char", "list"], env=env).stdout
    assert re.search(r"Archibald.*\bdead\b", table_text) and not re.search(r"Weston.*\bdead\b", table_text)
    order = runner.invoke(app, ["scene", "initiative", "Weston", "Archibald", "--seed", "1"], env=env)
    assert order.exit_code == 0, order.output
    assert "Archibald is dead" in order.stdout and "Incapacitated" not in order.stdout
    late = runner.invoke(app, ["scene", "initiative", "--add", "Archibald"], env=env)
    assert late.exit_code == 1 and "Archibald is dead" in late.output
    assert '<strong class="dead">Dead</strong>' in clients("storyteller").get(f"/sheet/{table.archibald}").text
    assert "Dead: Archibald" in _text(clients("storyteller").get("/status").text)


def test_an_npcs_rolls_stay_off_the_players_streams(live, table):
    from tests.rolls import sheet_roll
    from tests.web.conftest import read_events, through

    add_character(table.url, "Fomor", attributes={"Dexterity": 2}, player="")
    run_unit(table.url, lambda gw: gw.execute("DELETE FROM table_events"))
    run_unit(table.url, lambda gw: sheet_roll(gw, "Fomor", "Dexterity", seed=1))
    run_unit(table.url, lambda gw: sheet_roll(gw, "Weston", "Dexterity", seed=2))
    # Weston's roll is the newest event: each stream is read until it came (the NPC's, if it leaked, before it)
    newest = run_unit(table.url, lambda gw: gw.rows("SELECT MAX(id) FROM table_events"))[0][0]
    weston = read_events(live, table.token("Weston"), last_event_id=0, until=through(newest))
    storyteller = read_events(live, table.token("storyteller"), last_event_id=0, until=through(newest))
    assert [("Fomor" in g[2], "Weston" in g[2]) for g in storyteller] == [(True, False), (False, True)]
    assert [("Fomor" in g[2], "Weston" in g[2]) for g in weston] == [(False, True)]


def test_the_acting_player_holds_their_action_and_the_turn_passes_on(clients, table):
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Bridge"}, headers=HX)
    for cid in (table.weston, table.archibald):
        st.post("/initiative/add", data={"character_id": cid}, headers=HX)
    status = st.get("/status").text
    first = re.search(r'aria-current="step"><span class="place">\d+</span> <strong>(\w+)</strong>', status).group(1)
    second = "Archibald" if first == "Weston" else "Weston"
    ids = {"Weston": table.weston, "Archibald": table.archibald}
    player = clients(first)
    assert "Your turn" in _text(player.get("/status").text)
    assert clients(second).post("/initiative/hold", data={"character_id": ids[first]}).status_code == 403
    said = player.post("/initiative/hold", data={"character_id": ids[first]}, headers=HX)
    assert _text(said.text) == f"{first} holds their action"
    status = st.get("/status").text
    assert re.search(rf'aria-current="step"><span class="place">\d+</span> <strong>{second}</strong>', status)
    assert re.search(
        rf'<strong>{first}</strong> <span class="sub">\d+</span> <span class="badge done-badge">holding', status
    )
    again = player.post("/initiative/hold", data={"character_id": ids[first]}, headers=HX)
    assert "already holds their action" in _text(again.text)
    assert "Your turn" in _text(clients(second).get("/status").text)


def test_the_storyteller_hands_a_player_a_new_link_with_its_qr_code(clients, table):
    st = clients("storyteller")
    r = st.post("/link/new", data={"character_id": table.archibald}, headers=HX)
    url = re.search(r'<a href="(http://127\.0\.0\.1:8000/join/[\w-]+)">', r.text).group(1)
    assert "<svg" in r.text and "Join link of Archibald" in r.text
    assert clients("Weston").post("/link/new", data={"character_id": table.weston}).status_code == 403
    fresh = clients(None)
    fresh.get(url.replace("http://127.0.0.1:8000", ""))
    assert "Archibald&#39;s page" in fresh.get("/").text
    assert "Archibald&#39;s page" in clients("Archibald").get("/").text  # the earlier link still works


def test_attacks_typed_at_the_terminal_are_one_card_each_on_the_page(clients, table):
    """Two `stkit attack` exchanges made at the terminal: each shows on the table's feed as its own attack
    card with its rolls folded in (attack, damage, soak), none of those rolls beside it."""
    from typer.testing import CliRunner

    from stkit.cli.app import app as cli_app

    runner = CliRunner()
    logged = []
    for seed in ("5", "8"):
        args = ["attack", "Weston", "Archibald", "-p", "dex+brawl", "--damage", "4", "--type", "lethal"]
        result = runner.invoke(
            cli_app,
            [*args, "--seed", seed, "--force", "--json"],
        )
        assert result.exit_code == 0, result.output
        logged.append(json.loads(result.output)["log_ids"])
    page = clients("storyteller").get("/").text
    cards = re.findall(r'<li id="ev-\d+" class="card attack-card (hit|miss)"[^>]*data-log-ids="([\d ]+)"', page)
    assert [c[1].split() for c in cards] == [[str(i) for i in ids] for ids in reversed(logged)]  # newest first
    for ids in logged:
        for log_id in ids:
            assert f'data-log-id="{log_id}"' not in page
    assert "Weston attacks Archibald" in _text(page)


def _listening(port: int, proc) -> bool:
    assert proc.poll() is None, "the server stopped"
    try:
        socket.create_connection(("127.0.0.1", port), timeout=DEADLINE).close()
        return True
    except OSError:
        return False
