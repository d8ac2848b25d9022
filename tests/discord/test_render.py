"""The pieces of a Discord message: the chance of a result or better (against brute force), escaping,
clipping and the documented limits."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stkit.discord.render import MAX_CONTENT, check_limits, clip, escape, event_message, fit, username
from stkit.store.table.discord_feed import chance_or_better, check_webhook_url, mask_url
from stkit.store.table.events import TableEvent


def _net(faces, difficulty):
    hits = sum(f >= difficulty for f in faces)
    ones = sum(f == 1 for f in faces)
    return hits, ones


@pytest.mark.parametrize(("pool", "difficulty"), [(1, 6), (3, 6), (3, 8), (4, 4)])
def test_chance_of_this_result_or_better_is_the_brute_force_count(pool, difficulty):
    faces_all = list(itertools.product(range(1, 11), repeat=pool))
    total = len(faces_all)
    botches = sum(1 for f in faces_all if _net(f, difficulty)[0] == 0 and _net(f, difficulty)[1] > 0)
    base = {"pool": pool, "difficulty": difficulty, "willpower": False, "automatic": False}
    assert chance_or_better(base | {"outcome": "botch", "result": 0}) == 1
    assert chance_or_better(base | {"outcome": "failure", "result": 0}) == Fraction(total - botches, total)
    for r in range(1, pool + 1):
        count = sum(1 for f in faces_all if _net(f, difficulty)[0] - _net(f, difficulty)[1] >= r)
        assert chance_or_better(base | {"outcome": "success", "result": r}) == Fraction(count, total)


def test_chance_is_none_for_what_it_cannot_read():
    assert chance_or_better({}) is None
    assert chance_or_better({"pool": 5, "difficulty": 6, "automatic": True}) is None
    assert chance_or_better({"pool": 500, "difficulty": 6, "outcome": "success", "result": 1}) is None


def test_escape_neutralises_markdown_mentions_and_controls():
    assert escape("@everyone **x** <@123> a_b") == "\\@everyone \\*\\*x\\*\\* \\<\\@123\\> a\\_b"
    assert "\x00" not in escape("a\x00b") and "\u202e" not in escape("\u202eb")


@given(st.text(max_size=3000), st.integers(min_value=2, max_value=300))
def test_clip_never_ends_on_a_lone_backslash(text, limit):
    out = clip(escape(text), limit)
    assert len(out) <= limit
    body = out[:-1] if out.endswith("…") and len(escape(text)) > limit else out
    assert (len(body) - len(body.rstrip("\\"))) % 2 == 0


@given(st.text(min_size=0, max_size=200))
def test_usernames_are_allowed_by_discord(name):
    shown = username(name)
    assert 1 <= len(shown) <= 80 and "discord" not in shown.lower() and "clyde" not in shown.lower()


@given(st.text(max_size=9000), st.text(max_size=500))
def test_every_event_message_keeps_the_limits(text, name):
    for kind, data in [
        ("message", {"from": name, "text": text}),
        ("whisper", {"from": "Storyteller", "to": name, "text": text}),
        ("sheet", {"character": name, "summary": text}),
        ("scene", {"name": text, "change": "initiative", "turn": 1, "order": [name] * 50}),
        (
            "roll",
            {
                "character": name,
                "expression": text,
                "breakdown": text,
                "roll": {"pool": 3, "difficulty": 6, "dice": [1, 6, 10], "outcome": "success", "result": 1},
                "marks": ["one cancelling", "success cancelled", "success"],
                "log_id": 5,
                "task": text,
            },
        ),
    ]:
        body = event_message(TableEvent(1, "", "default", kind, False, None, data), chance=Fraction(1, 3))
        assert body is not None and check_limits(body) == []


def test_fit_cuts_the_embed_total():
    body = fit({"allowed_mentions": {"parse": []}, "embeds": [{"title": "t", "description": "x" * 4096}] * 3})
    assert check_limits(body) == [] and sum(len(e["description"]) for e in body["embeds"]) <= 6000
    assert len(fit({"content": "y" * 5000})["content"]) == MAX_CONTENT


def test_links_events_are_never_posted():
    assert event_message(TableEvent(1, "", "default", "links", True, None, {"change": "rotated"})) is None


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://discord.com/api/webhooks/123/SECRET", "https://discord.com/api/webhooks/123/****"),
        ("https://example.org/hook?token=SECRET", "https://example.org/****"),
        ("http://user:pw@127.0.0.1:8080/a/b", "http://127.0.0.1:8080/****"),
    ],
)
def test_masking_hides_the_secret_part(url, shown):
    assert mask_url(url) == shown


@pytest.mark.parametrize("url", ["", "ftp://x/y", "https://", "javascript:alert(1)", "http://a b/", "x" * 3000])
def test_bad_webhook_urls_are_refused(url):
    from stkit.errors import InvalidValue

    with pytest.raises(InvalidValue):
        check_webhook_url(url)
