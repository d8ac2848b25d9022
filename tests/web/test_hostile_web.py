"""Hostile form values on every route of the table server, as a player and as the Storyteller: never a
500, never a traceback in the log, every refusal one line. The routes come from the app itself and the
fields from the templates' own forms, so a new route or field is covered without editing this file."""

from __future__ import annotations

import logging
import re
from importlib import resources
from urllib.parse import quote

import pytest

from tests.web.test_routes import HX, _count, _fragment_text, _log

HOSTILE = [
    "",
    " ",
    "x",
    "-1",
    "0",
    "+900",
    "-900",
    "1e3",
    "1.5",
    "0x10",
    "\u0661\u0662",
    "9" * 5000,
    "1" * 25,
    "\x00",
    "\u202e7",
    "a\nb",
    "<script>alert(1)</script>",
    "#" + "9" * 30,
    "NaN",
    "a" * 5000,
]


def _template_forms() -> dict[str, set[str]]:
    """{action path: the field names its forms post}, read from the page templates."""
    forms: dict[str, set[str]] = {}
    for name in ("page.html", "status.html"):
        text = resources.files("stkit.web").joinpath("templates", name).read_text(encoding="utf-8")
        for action, body in re.findall(r'<form[^>]*\baction="([^"{]+)"[^>]*>(.*?)</form>', text, re.S):
            forms.setdefault(action, set()).update(re.findall(r'\bname="([^"{]+)"', body))
        # a macro's forms post their fields too (the roll form: character_id, trait, ...)
        for action, body in re.findall(r'<form[^>]*\baction="([^"{]+)"[^>]*>(.*?)</form>', text, re.S):
            forms[action].update(re.findall(r'\bname="([^"{]+)"', body))
    forms.setdefault("/roll", set()).update({"seed", "secret", "specialty"})  # posted by hand, not the form
    return forms


def _routes(app) -> list[tuple[str, str]]:
    """(method, path) of every route the app serves, from the routers it includes (path parameters left
    as {name})."""
    from fastapi.routing import APIRoute

    from stkit.web.routers import ROUTERS

    out = []
    for router in ROUTERS:
        for route in router.routes:
            if isinstance(route, APIRoute):
                out += [(m, route.path) for m in sorted(route.methods) if m in ("GET", "POST")]
    assert len(out) >= 11
    return out


def _concrete(path: str, forms: dict[str, set[str]]) -> list[str]:
    """The paths a templated route stands for: each action the templates post to, plus hostile ones."""
    if "{action}" in path:
        prefix = path.split("{action}")[0]
        return [*sorted(a for a in forms if a.startswith(prefix)), prefix + "x", prefix + "%00"]
    return [path]


def _assert_one_line(r, what: str) -> None:
    assert r.status_code < 500, what
    if r.headers.get("content-type", "").startswith("text/plain"):
        assert r.text.count("\n") <= 1, what
    if 'class="error"' in r.text and r.status_code == 200:
        error = re.search(r'<p class="error"[^>]*>(.*?)</p>', r.text, re.S)
        assert error is not None and "\n" not in _fragment_text(error.group(1)), what


def _hostile_requests(app, table) -> list[tuple[str, str, dict]]:
    forms = _template_forms()
    requests = []
    for method, path in _routes(app):
        if path == "/events":
            continue  # a stream: its hostile Last-Event-ID and ?after= are in test_authority.py
        if "{token}" in path:
            requests += [("GET", "/join/" + quote(v, safe=""), {}) for v in HOSTILE if v.strip()]
            continue
        if "{character_id}" in path:
            requests += [("GET", "/sheet/" + quote(v, safe=""), {}) for v in HOSTILE if v.strip()]
            continue
        for concrete in _concrete(path, forms):
            fields = sorted(
                forms.get(concrete, set()) | ({"character_id", "dice", "trait"} if path == "/odds" else set())
            )
            if path == "/odds":
                fields = sorted(forms["/roll"])
            for field in fields or ["name"]:
                for value in HOSTILE:
                    requests.append((method, concrete, {field: value}))
                    if field != "character_id":  # with a valid character, so the value reaches its check
                        requests.append((method, concrete, {"character_id": str(table.weston), field: value}))
    return requests


@pytest.mark.slow
@pytest.mark.parametrize("who", ["Weston", "storyteller"])
def test_hostile_values_on_every_route_never_a_500_nor_a_traceback(app, clients, table, who, caplog, monkeypatch):
    from stkit.web import security

    monkeypatch.setattr(security, "POST_BURST", 10**9)  # this test is not about the POST rate
    monkeypatch.setattr(security, "POST_PER_SECOND", 10.0**9)
    c = clients(who)
    c.headers["hx-request"] = "true"
    caplog.set_level(logging.WARNING)
    seen = set()
    for method, path, data in _hostile_requests(app, table):
        seen.add(path.split("/")[1])
        what = f"{who} {method} {path} {str(data)[:80]}"
        r = c.post(path, data=data) if method == "POST" else c.get(path, params=data)
        _assert_one_line(r, what)
    assert {"roll", "odds", "scene", "health", "extended", "contest", "sheet", "join", "status", ""} <= seen
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == []
    assert all(r.levelno < logging.ERROR for r in caplog.records), [r.getMessage()[:200] for r in caplog.records]


# ------------------------------------------------------------------------------ the holes, one by one


def test_a_player_cannot_choose_the_tens_rule(clients, table):
    c = clients("Weston")
    for rule in ("reroll", "double"):
        form = {"character_id": str(table.weston), "trait": ["Dexterity"], "specialty": rule}
        assert c.post("/roll", data=form, headers=HX).status_code == 200
    assert [e["detail"]["specialty"] for e in _log(table.url)] == ["none", "none"]  # the chronicle's rule
    assert 'name="specialty"' not in c.get("/").text
    assert 'name="specialty"' in clients("storyteller").get("/").text


def test_a_players_roll_follows_the_chronicles_house_rules(clients, table):
    from stkit.store.db.gateway import run_unit
    from stkit.store.house import set_house_rule

    run_unit(table.url, lambda gw: set_house_rule(gw, "default", "specialty", "double"))
    run_unit(table.url, lambda gw: set_house_rule(gw, "default", "difficulty", "8"))
    c = clients("Weston")
    assert (
        '<strong>8</strong> <span class="sub">(the Storyteller\'s)</span>' in c.get("/").text
    )  # a player's difficulty
    # a difficulty of 2 posted by a player's link is not theirs to choose: the Storyteller's 8 stands
    r = c.post("/roll", data={"character_id": str(table.weston), "trait": ["Dexterity"], "difficulty": "2"}, headers=HX)
    assert r.status_code == 200 and 'class="error"' not in r.text
    [entry] = _log(table.url)
    assert entry["difficulty"] == 8
    assert "specialty double" in entry["detail"]["house_rules_in_force"]


def test_extra_dice_stay_within_what_the_storyteller_allows(clients, table):
    from stkit.store.db.gateway import run_unit
    from stkit.store.house import set_house_rule

    c = clients("Weston")
    base = {"character_id": str(table.weston), "trait": ["Dexterity"]}
    for extra in ("+900", "4", "-4", "+ Stealth", "2 + Brawl", "\u0663"):
        r = c.post("/roll", data=base | {"dice": extra}, headers=HX)
        assert r.status_code == 200 and 'class="error"' in r.text, extra
        assert "\n" not in _fragment_text(r.text)
    assert "extra dice: at most 3 either way on a player's roll" in _fragment_text(
        c.post("/roll", data=base | {"dice": "+900"}, headers=HX).text
    )
    assert _count(table.url, "roll_log") == 0
    assert 'class="error"' not in c.post("/roll", data=base | {"dice": "+3"}, headers=HX).text
    assert _log(table.url)[0]["pool"] == 6  # Dexterity 3 + 3
    run_unit(table.url, lambda gw: set_house_rule(gw, "default", "table-extra-dice", "0"))
    assert 'class="error"' in c.post("/roll", data=base | {"dice": "1"}, headers=HX).text
    # the Storyteller's screen is not bound by it
    st = clients("storyteller")
    assert 'class="error"' not in st.post("/roll", data=base | {"dice": "+10"}, headers=HX).text


@pytest.mark.parametrize(
    "task, message",
    [
        ("scale\x1bthe wall", "control character"),
        ("\u202escale", ""),
        ("x" * 101, "at most 100"),
    ],
)
def test_the_task_field_gets_the_clis_text_checks(clients, table, task, message):
    c = clients("Weston")
    form = {"character_id": str(table.weston), "trait": ["Dexterity"], "task": task}
    r = c.post("/roll", data=form, headers=HX)
    text = _fragment_text(r.text)
    assert r.status_code == 200 and 'class="error"' in r.text and text.startswith("task ")
    assert message in text and "\n" not in text
    assert _count(table.url, "roll_log") == 0


def test_a_megabyte_of_task_is_refused_before_it_is_read(clients, table):
    c = clients("Weston")
    r = c.post("/roll", data={"character_id": str(table.weston), "trait": ["Dexterity"], "task": "x" * 2**20})
    assert r.status_code == 413 and r.text.count("\n") == 1
    assert _count(table.url, "roll_log") == 0


def test_huge_ids_get_a_4xx_not_a_500(clients, table):
    player = clients("Weston")
    r = player.post("/roll", data={"character_id": "9" * 5000, "trait": ["Dexterity"]}, headers=HX)
    assert r.status_code == 403
    st = clients("storyteller")
    r = st.post(
        "/extended/start", data={"name": "Climb", "pool": "6", "target": "3", "character_id": "1" * 25}, headers=HX
    )
    assert r.status_code == 200 and "character" in _fragment_text(r.text) and 'class="error"' in r.text
    assert st.get("/sheet/abc").status_code == 400
    assert _count(table.url, "tracked_actions") == 0
