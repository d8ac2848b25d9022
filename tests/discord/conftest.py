from __future__ import annotations

import pytest

from tests.discord.receiver import Receiver


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


@pytest.fixture(autouse=True)
def answer_without_deferring(monkeypatch):
    """In-process tests read the interaction's own answer: a busy machine must not turn it into a deferral
    (the router defers work running past ``DEFER_AFTER`` seconds). Tests of the deferral lower it again."""
    from stkit.discord import router

    monkeypatch.setattr(router, "DEFER_AFTER", 600.0)
