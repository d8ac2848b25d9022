"""The table page's play features in-process: the result under Roll, every Ability with the unskilled
rule, saved rolls from the page, blind rolls and whispers kept from the wrong eyes, secret rolls that may
not spend a player's Willpower unseen, table messages escaped, the party strip and initiative order,
finished actions kept, the night's log and its filters, the stream's ping events."""

from __future__ import annotations

import re

from tests.waiting import DEADLINE
from tests.web.conftest import mark, read_events, through

HX = {"hx-request": "true"}


def _text(html: str) -> str:
    import html as h

    return " ".join(h.unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _roll(client, cid: int, *traits: str, **extra: str):
    data = {"character_id": str(cid), "trait": list(traits), **extra}
    return client.post("/roll", data=data, headers=HX)


def _events(url: str, kind: str) -> list:
    from stkit.store.db.gateway import run_unit
    from stkit.store.table.events import chronicle_events

    return run_unit(url, lambda gw: chronicle_events(gw, "default", kind=kind), readonly=True)


# ------------------------------------------------------------------------------------------ the roll


def test_the_result_under_roll_is_coloured_by_outcome_and_shows_the_dice(clients, table):
    st = clients("storyteller")
    seen = {}
    for seed in range(60):
        r = _roll(st, table.weston, "Dexterity", "Stealth", seed=str(seed), difficulty="9")
        outcome = re.search(r'class="result (\w+)"', r.text).group(1)
        seen.setdefault(outcome, r.text)
        if len(seen) == 3:
            break
    assert set(seen) == {"success", "failure", "botch"}
    assert "BOTCH!" in _text(seen["botch"])
    assert "Dice:" in _text(seen["failure"])  # the dice are there, each read out for a screen reader
    # one die's face and its meaning: a 9 or 10 at difficulty 9 says "success", a 1 says "a one"
    assert re.search(r"\b(9|10) success\b", _text(seen["success"]))
    assert re.search(r"\b1 a one\b", _text(seen["botch"]))


def test_an_unrated_talent_rolls_without_penalty_a_skill_at_plus_one_a_knowledge_not_at_all(clients, table):
    player = clients("Archibald")  # Archibald: Wits 2, Dexterity 2, Drive 3; no Brawl, Melee or Occult
    page = player.get("/").text
    assert '<option value="Brawl">Brawl 0 (no penalty)</option>' in page
    assert '<option value="Melee">Melee 0 (difficulty +1)</option>' in page
    assert '<option value="Occult">Occult 0 (Storyteller&#39;s call)</option>' in page
    brawl = _text(_roll(player, table.archibald, "Dexterity", "Brawl").text)
    assert "Dexterity 2 + Brawl 0 = 2 dice, difficulty 6" in brawl and "a Talent" in brawl
    melee = _text(_roll(player, table.archibald, "Dexterity", "Melee").text)
    assert "Dexterity 2 + Melee 0 = 2 dice, difficulty 7" in melee and "untrained Skill, difficulty +1" in melee
    odds = _text(player.get("/odds", params={"character_id": table.archibald, "trait": ["Dexterity", "Melee"]}).text)
    assert "at difficulty 7" in odds
    # the house rule unskilled-skill dice: Melee 0 takes two dice off instead (Dexterity 2 - 2: no dice)
    from typer.testing import CliRunner

    from stkit.cli.app import app

    assert CliRunner().invoke(app, ["house", "set", "unskilled-skill", "dice", "--db", table.url]).exit_code == 0
    athletics = _text(_roll(player, table.archibald, "Wits", "Firearms", dice="2").text)
    assert "Wits 2 + Firearms 0 + 2 - 2 = 2 dice, difficulty 6" in athletics and "two dice fewer" in athletics
    occult = _text(_roll(player, table.archibald, "Intelligence", "Occult").text)
    assert occult.startswith("Occult is a Knowledge and Archibald has no dots in it")
    assert len(_events(table.url, "roll")) == 3  # the refused roll wrote nothing


def test_a_one_tap_common_pool(clients, table):
    r = clients("Weston").post(
        "/roll", data={"character_id": str(table.weston), "pool": "Dexterity + Brawl", "trait": ["Wits"]}, headers=HX
    )
    assert "Dexterity 3 + Brawl 2 = 5 dice" in _text(r.text)


def test_refusal_names_the_pages_control_not_a_command(clients, table):
    st, player = clients("storyteller"), clients("Weston")
    st.post("/scene/start", data={"name": "Wall"}, headers=HX)
    _roll(player, table.weston, "Dexterity", willpower="on")
    again = _text(_roll(player, table.weston, "Dexterity", willpower="on").text)
    assert "stkit" not in again and "Next turn button" in again


# ------------------------------------------------------------------------------------------ saved rolls


def test_saved_rolls_from_the_page_one_tap_and_on_the_sheet(clients, table):
    player = clients("Weston")
    saved = player.post(
        "/saved",
        data={
            "character_id": str(table.weston),
            "trait": ["Dexterity", "Brawl"],
            "difficulty": "7",
            "save_name": "claws",
        },
        headers=HX,
    )
    # a player's roll is at the Storyteller's difficulty (the chronicle's 6), whatever the form says
    assert _text(saved.text) == "Saved claws: Dexterity + Brawl, difficulty 6"
    buttons = player.get(f"/saved/{table.weston}").text
    assert 'name="saved" value="claws"' in buttons and "Dexterity + Brawl · 6" in _text(buttons)
    r = player.post("/roll/saved", data={"character_id": str(table.weston), "saved": "claws"}, headers=HX)
    assert "Dexterity 3 + Brawl 2 = 5 dice, difficulty 6" in _text(r.text)
    # another player neither sees nor rolls them
    other = clients("Archibald")
    assert other.get(f"/saved/{table.weston}").status_code == 403
    assert other.post("/roll/saved", data={"character_id": str(table.weston), "saved": "claws"}).status_code == 403
    unknown = player.post("/roll/saved", data={"character_id": str(table.weston), "saved": "bite"}, headers=HX)
    assert "Weston has no saved roll 'bite'; saved rolls: claws" in _text(unknown.text)


# ------------------------------------------------------------------------------------------ secrets


def test_a_blind_roll_shows_the_player_nothing_but_that_it_was_rolled(clients, table, live):
    player, other, st = clients("Weston"), clients("Archibald"), clients("storyteller")
    r = _roll(player, table.weston, "Perception", "Alertness", blind="on")
    assert 'class="result blind"' in r.text and "Dice" not in _text(r.text)
    [event] = _events(table.url, "roll")
    assert event.secret
    for c in (player, other):
        assert '<li id="ev-' not in c.get("/").text
    assert "blind" not in st.get("/").text or "secret" in st.get("/").text
    marker = mark(table.url)  # a stream read through it has carried every earlier event it will
    got = read_events(live, table.token("Weston"), after=0, until=through(marker))
    assert [g for g in got if g[1] == "roll" and g[0] != marker] == []


def test_a_blind_roll_may_not_spend_willpower(clients, table):
    r = _roll(clients("Weston"), table.weston, "Dexterity", blind="on", willpower="on")
    assert _text(r.text).startswith("a blind roll cannot spend Willpower: your sheet would show the point gone")
    assert _events(table.url, "roll") == []


def test_a_secret_roll_spends_a_players_willpower_only_when_the_storyteller_confirms(clients, table):
    st = clients("storyteller")
    refused = _text(_roll(st, table.weston, "Dexterity", secret="on", willpower="on").text)
    assert refused.startswith(
        "this secret roll would spend Weston's Willpower, and Weston's player sees the point gone"
    )
    assert _events(table.url, "roll") == [] and _events(table.url, "sheet") == []
    ok = _roll(st, table.weston, "Dexterity", secret="on", willpower="on", confirm_visible="on")
    assert "+1 from Willpower" in _text(ok.text)
    assert '<dd class="power-willpower">2 / 3</dd>' in clients("Weston").get(f"/sheet/{table.weston}").text


def test_a_whisper_reaches_its_player_and_the_storyteller_only(clients, table, live):
    st, weston, archibald = clients("storyteller"), clients("Weston"), clients("Archibald")
    r = st.post("/whisper", data={"character_id": str(table.weston), "text": "You smell <silver>"}, headers=HX)
    assert _text(r.text) == "Whispered to Weston"
    assert "You smell &lt;silver&gt;" in weston.get("/").text
    assert "You smell &lt;silver&gt;" in st.get("/").text
    assert "silver" not in archibald.get("/").text
    marker = mark(table.url)
    mine = [g for g in read_events(live, table.token("Weston"), after=0, until=through(marker)) if g[0] != marker]
    theirs = [g for g in read_events(live, table.token("Archibald"), after=0, until=through(marker)) if g[0] != marker]
    assert [g[1] for g in mine] == ["whisper"] and "&lt;silver&gt;" in mine[0][2]
    assert theirs == []
    assert archibald.post("/whisper", data={"character_id": str(table.weston), "text": "x"}).status_code == 403


def test_table_messages_are_escaped_and_reach_everyone(clients, table, live):
    weston = clients("Weston")
    r = weston.post("/say", data={"text": "<script>alert(1)</script> brb"}, headers=HX)
    assert _text(r.text) == "Sent"
    for who in ("storyteller", "Archibald"):
        page = clients(who).get("/").text
        assert "&lt;script&gt;alert(1)&lt;/script&gt; brb" in page and "<script>alert" not in page
        assert "Weston</strong> says" in page
    marker = mark(table.url)
    got = [g for g in read_events(live, table.token("Archibald"), after=0, until=through(marker)) if g[0] != marker]
    assert [g[1] for g in got] == ["message"] and "<script>alert" not in got[0][2]
    empty = weston.post("/say", data={"text": "   "}, headers=HX)
    assert "the message is empty" in _text(empty.text)
    long = weston.post("/say", data={"text": "x" * 301}, headers=HX)
    assert "at most 300" in _text(long.text)
    assert len(_events(table.url, "message")) == 1


# ------------------------------------------------------------------------------------------ the tracker


def test_initiative_order_party_strip_and_whose_action(clients, table):
    st, player = clients("storyteller"), clients("Weston")
    st.post("/scene/start", data={"name": "Ambush"}, headers=HX)
    r = st.post("/scene/initiative", headers=HX)
    assert _text(r.text).startswith("Initiative: ")
    status = st.get("/status").text
    order = re.findall(r'<span class="place">(\d+)</span> <strong>(\w+)</strong>', status)
    assert sorted(name for _, name in order) == ["Archibald", "Weston"]
    first = order[0][1]
    assert re.search(rf'aria-current="step"><span class="place">1</span> <strong>{first}</strong>', status)
    # the party strip: health, Willpower, Rage and Gnosis of everyone, on the Storyteller's page only
    st.post("/health", data={"character_id": str(table.weston), "levels": "2", "kind": "lethal"}, headers=HX)
    status = st.get("/status").text
    row = re.search(rf'<tr id="party-{table.weston}".*?</tr>', status, re.S).group(0)
    assert "Hurt -1" in _text(row) and "0 bashing, 2 lethal, 0 aggravated" in _text(row)
    assert 'class="power-willpower">3/3' in row
    player_status = player.get("/status").text
    assert "party-" not in player_status and f"<strong>{first}</strong>" in player_status
    # once the first has rolled in this turn, the next is acting
    first_id = table.weston if first == "Weston" else table.archibald
    _roll(st, first_id, "Dexterity")
    status = st.get("/status").text
    second = order[1][1]
    assert re.search(rf'aria-current="step"><span class="place">\d</span> <strong>{second}</strong>', status)


def test_a_finished_extended_action_is_marked_done_not_removed(clients, table):
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Hunt"}, headers=HX)
    st.post(
        "/extended/start",
        data={"name": "Track", "character_id": str(table.weston), "pool": "Stamina + Stealth", "target": "1"},
        headers=HX,
    )
    [action] = re.findall(r'name="id" value="(\d+)"', st.get("/status").text)[:1]
    for seed in range(40):
        st.post("/extended/roll", data={"id": action, "seed": str(seed)}, headers=HX)
        if "Finished" in st.get("/status").text:
            break
    status = st.get("/status").text
    assert re.search(r'class="extended done (done|failed)"', status) and "Track" in _text(status)
    assert "Roll Track" not in status  # no controls on a finished action


# ------------------------------------------------------------------------------------------ the log


def test_the_nights_log_filters_by_character_kind_and_scene(clients, table):
    st = clients("storyteller")
    _roll(st, table.weston, "Dexterity")
    st.post("/scene/start", data={"name": "Second"}, headers=HX)
    _roll(st, table.archibald, "Wits")
    st.post("/say", data={"text": "break in five"}, headers=HX)
    everything = _text(st.get("/log").text)
    assert "Weston" in everything and "Archibald" in everything and "break in five" in everything
    only_weston = _text(st.get("/log", params={"character": table.weston}).text)
    assert "Dexterity 3" in only_weston and "Wits 2" not in only_weston
    talk = _text(st.get("/log", params={"kind": "message"}).text)
    assert "break in five" in talk and "Dexterity 3" not in talk
    scene_id = re.search(r'<option value="(\d+)">Second</option>', st.get("/log").text).group(1)
    in_scene = _text(st.get("/log", params={"scene": scene_id}).text)
    assert "Wits 2" in in_scene and "Dexterity 3" not in in_scene
    bad = st.get("/log", params={"kind": "<x>"})
    assert bad.status_code == 400 and "kind &#39;&lt;x&gt;&#39;; allowed: contest, extended" in bad.text
    assert clients("Weston").get("/log").status_code == 403


# ------------------------------------------------------------------------------------------ the stream


def test_the_stream_sends_named_ping_events(table):
    import httpx

    from stkit.web.app import create_app
    from tests.web.conftest import ThreadServer

    server = ThreadServer(create_app(table.url, "default", interval=0.02, ping=1))
    lines: list[str] = []
    try:
        with httpx.stream(
            "GET", server.base + "/events", cookies={"stkit_table": table.token("Weston")}, timeout=DEADLINE
        ) as r:
            for line in r.iter_lines():
                lines.append(line)
                if lines.count("event: ping") >= 2:
                    break
    finally:
        server.stop()
    assert lines.count("event: ping") == 2
    assert not any(line.startswith("id:") for line in lines)  # a ping leaves Last-Event-ID alone


def test_pages_carry_the_ping_interval_and_no_inline_script(clients, table):
    page = clients("Weston").get("/").text
    assert 'data-ping="5.0"' in page
    assert re.search(r"<script(?![^>]*src=)", page) is None and " style=" not in page
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    manifest = clients("Weston").get("/static/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest.json()["display"] == "standalone"


def test_an_attack_from_the_tracker_marks_the_targets_health(clients, table):
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Brawl"}, headers=HX)
    for seed in range(30):
        r = st.post(
            "/attack",
            data={
                "attacker": str(table.weston),
                "target": str(table.archibald),
                "damage_type": "lethal",
                "pool": "Dexterity + Brawl",
                "damage": "Strength",
                "wait": "0",
            },
            headers=HX,
        )
        assert "waiting for Archibald's answer" in _text(r.text)  # no time given to answer: the Storyteller's
        [pid] = re.findall(r'id="prompt-(\d+)"', st.get("/prompts").text)
        r = st.post(f"/prompt/{pid}/answer", data={"answer": "take", "seed": str(seed)}, headers=HX)
        if "HIT" in r.text and "lethal" in r.text:
            break
        st.post("/scene/turn", headers=HX)
    assert re.fullmatch(
        r"HIT: Archibald takes \d lethal( \(\d soaked\))?; Archibald now \w+(, -\d (die|dice))?", _text(r.text)
    )
    row = re.search(rf'<tr id="party-{table.archibald}".*?</tr>', st.get("/status").text, re.S).group(0)
    assert "lethal" in _text(row) and "Unhurt" not in _text(row)
    assert clients("Weston").post("/attack", data={"attacker": "2", "target": "1"}).status_code == 403


def test_a_finished_contest_is_marked_with_its_winner(clients, table):
    st = clients("storyteller")
    st.post("/scene/start", data={"name": "Stare-down"}, headers=HX)
    st.post(
        "/contest/start",
        data={"name": "Stare", "a": f"#{table.weston}", "pool_a": "Wits", "b": "3", "target": "1"},
        headers=HX,
    )
    [contest] = re.findall(r'id="contest-(\d+)"', st.get("/status").text)
    for seed in range(60):
        st.post("/contest/roll", data={"id": contest, "seed": str(seed)}, headers=HX)
        if "Finished" in st.get("/status").text:
            break
    status = st.get("/status").text
    done = re.search(rf'<li class="contest done (\w+)" id="contest-{contest}">(.*?)</li>', status, re.S)
    assert done is not None and "Stare" in done.group(2)
    assert done.group(1) == "done" and re.search(r"won by [AB]</span>", done.group(2)), done.group(0)
    assert "Roll an exchange of Stare" not in status
