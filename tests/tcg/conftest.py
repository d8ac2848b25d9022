"""Shared by every tcg test: the card database always lives in the test's tmp_path, never in the home folder."""

import pathlib

import pytest


@pytest.fixture(autouse=True)
def _cards_db_in_tmp(tmp_path, monkeypatch):
    path = tmp_path / "cards.sqlite"
    monkeypatch.setenv("STKIT_CARDS_DB", str(path))
    return path


@pytest.fixture
def deck_cards_db(_cards_db_in_tmp):
    """A card database in tmp_path holding the test card list ``fixtures/deck_cards.yaml``."""
    from stkit.tcg.db import CardDB

    with CardDB(_cards_db_in_tmp) as d:
        d.import_file(pathlib.Path(__file__).parent / "fixtures" / "deck_cards.yaml")
        yield d
