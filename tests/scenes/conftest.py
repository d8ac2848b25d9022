"""Fixtures for the scenes tests: a fresh store per test, on SQLite and (when STKIT_TEST_POSTGRES_URL is set)
on PostgreSQL in a schema of its own (the shared ``db_url``); and a helper that stores a character."""

from __future__ import annotations

import pytest


@pytest.fixture
def store_url(migrated_db_url):
    """The shared ``migrated_db_url`` fixture (tests/conftest.py): a fresh SQLite file copied from a store
    migrated once per session, or a fresh schema on the test PostgreSQL server when STKIT_TEST_POSTGRES_URL
    is set; STKIT_DATABASE_URL points at it."""
    return migrated_db_url


@pytest.fixture
def engine(store_url):
    from stkit.store.db.engine import open_store

    return open_store(store_url)


def add_character(engine, name, *, chronicle="default", attributes=None, abilities=None, willpower=3):
    """Store a character with these Attributes/Abilities (others at the sheet defaults); returns its id."""
    from stkit.sheet.sheet import Sheet, Track
    from stkit.store.characters import create_character
    from stkit.store.db.gateway import gateway_transaction

    sheet = Sheet(name=name, chronicle=chronicle)
    sheet.attributes.update(attributes or {})
    sheet.abilities.update(abilities or {})
    sheet.powers["Willpower"] = Track(willpower, willpower)
    with gateway_transaction(engine) as s:
        return create_character(s, sheet).id


def sql(gw, text, **params):
    """The rows of a SELECT, run through the store's SQL gateway ``gw`` inside its transaction."""
    return gw.rows(text, **params)


@pytest.fixture
def weston(engine):
    # Chapter Five: Weston rolls Stamina + Stealth for hiding and Dexterity + Athletics for the wall.
    return add_character(
        engine, "Weston", attributes={"Stamina": 3, "Dexterity": 3}, abilities={"Stealth": 3, "Athletics": 2}
    )
