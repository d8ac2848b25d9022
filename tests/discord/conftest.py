from __future__ import annotations

import pytest

from tests.discord.receiver import Receiver


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()
