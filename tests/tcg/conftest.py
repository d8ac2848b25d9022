"""Shared by every tcg test: the card database always lives in the test's tmp_path, never in the home folder.

``deck_cards_db`` is a copy of a card database built once per test session (per xdist worker) from
``fixtures/deck_cards.yaml``, so each test gets its own file to change without re-importing the list.
"""

import pathlib
import shutil

import pytest

DECK_CARDS = pathlib.Path(__file__).parent / "fixtures" / "deck_cards.yaml"


@pytest.fixture(autouse=True)
def _cards_db_in_tmp(tmp_path, monkeypatch):
    path = tmp_path / "cards.sqlite"
    monkeypatch.setenv("STKIT_CARDS_DB", str(path))
    return path


@pytest.fixture(scope="session")
def _deck_cards_template(tmp_path_factory):
    from stkit.tcg.db import CardDB

    path = tmp_path_factory.mktemp("cards") / "cards.sqlite"
    with CardDB(path) as d:
        d.import_file(DECK_CARDS)
    # closing the only connection checkpoints the WAL: the file alone is the whole database
    assert not path.with_name(path.name + "-wal").exists()
    return path


@pytest.fixture
def deck_cards_db(_cards_db_in_tmp, _deck_cards_template):
    """A card database in tmp_path holding the test card list ``fixtures/deck_cards.yaml``."""
    from stkit.tcg.db import CardDB

    shutil.copyfile(_deck_cards_template, _cards_db_in_tmp)
    with CardDB(_cards_db_in_tmp) as d:
        yield d
