"""Shared by every tcg test: the card database always lives in the test's tmp_path, never in the home folder."""

import pytest


@pytest.fixture(autouse=True)
def _cards_db_in_tmp(tmp_path, monkeypatch):
    path = tmp_path / "cards.sqlite"
    monkeypatch.setenv("STKIT_CARDS_DB", str(path))
    return path
