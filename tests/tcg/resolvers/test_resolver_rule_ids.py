"""Every rule id the resolvers can cite exists in stkit/tcg/data/rules/*.yaml, and the resolvers' own
rule files follow the shared schema."""

import functools
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[3] / "stkit" / "tcg"
RULES_DIR = ROOT / "data" / "rules"
RESOLVERS = ROOT / "resolvers"
OWN_FILES = ["combat", "frenzy", "umbra", "battlefields", "moots", "alpha", "victory", "regeneration"]
_ID = r"(?:combat|frenzy|umbra|battlefield|battlefield-faq|moot|alpha|victory|regen|conflicts)\.[a-z0-9-]+[a-z0-9]"
# A rule id is cited either as a whole string literal ("combat.apply-damage") or inside a message ("rule umbra.no-humans").
ID_PATTERN = re.compile(rf'"({_ID})"|\b(?:rule|ruling) ({_ID})\b')


@functools.lru_cache(maxsize=1)
def all_entries():
    entries = {}
    for path in sorted(RULES_DIR.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            entries[entry["id"]] = (path.name, entry)
    return entries


def cited_ids():
    ids = set()
    for path in RESOLVERS.glob("*.py"):
        for match in ID_PATTERN.finditer(path.read_text(encoding="utf-8")):
            ids.add(match.group(1) or match.group(2))
    return ids


def test_the_scan_finds_the_citations():
    ids = cited_ids()
    assert {"combat.apply-damage", "umbra.gnosis-modifier", "frenzy.trigger-damage", "battlefield.buy-keywords"} <= ids
    assert len(ids) > 60


@pytest.mark.parametrize("rule_id", sorted(cited_ids()))
def test_every_cited_id_exists(rule_id):
    assert rule_id in all_entries(), f"{rule_id} is cited by a resolver but is in no rules YAML file"


@pytest.mark.parametrize("name", OWN_FILES)
def test_own_files_follow_the_schema(name):
    entries = yaml.safe_load((RULES_DIR / f"{name}.yaml").read_text(encoding="utf-8"))
    known = all_entries()
    prefix = {"battlefields": "battlefield", "moots": "moot", "regeneration": "regen"}.get(name, name)
    allowed = {"id", "title", "kind", "text", "asks", "keywords", "source", "supersedes", "cards", "conflict"}
    for entry in entries:
        assert set(entry) <= allowed, entry["id"]
        assert re.fullmatch(rf"{prefix}\.[a-z0-9-]+", entry["id"]), entry["id"]
        assert entry["kind"] in ("rule", "ruling", "conflict")
        assert entry["title"] and len(entry["text"]) > 20
        assert entry["keywords"] and all(isinstance(k, str) for k in entry["keywords"])
        assert entry["source"]["document"] in ("equinox", "rulebook", "battlefields") and entry["source"]["section"]
        if "supersedes" in entry:
            assert entry["supersedes"] in known, entry["supersedes"]
        if entry["kind"] == "conflict":
            assert entry["conflict"]["ruling"] and all(w in known for w in entry["conflict"]["with"])


def test_ids_are_unique_across_all_files():
    seen = {}
    for path in sorted(RULES_DIR.glob("*.yaml")):
        for entry in yaml.safe_load(path.read_text(encoding="utf-8")) or []:
            assert entry["id"] not in seen, f"{entry['id']} in {path.name} and {seen[entry['id']]}"
            seen[entry["id"]] = path.name
