"""The packaged rules corpus and glossary: schema, cross-references, coverage, and clear errors on bad files."""

import re

import pytest

from stkit.errors import DataFileError
from stkit.tcg.rules import DOCUMENTS, KINDS, load_glossary, load_rules

ENTRY = """\
- id: test.one
  title: One
  kind: rule
  text: Some restated text.
  keywords: [one]
  source: {document: equinox, section: "Combat"}
"""


@pytest.fixture(scope="module")
def rules():
    return load_rules()


def test_every_entry_is_well_formed(rules):
    ids = [e.id for e in rules]
    assert len(ids) == len(set(ids))
    assert len(rules) >= 120
    for e in rules:
        assert re.fullmatch(r"[a-z0-9-]+(\.[a-z0-9-]+)+", e.id)
        assert e.kind in KINDS and e.document in DOCUMENTS
        assert e.title and e.text and e.keywords and e.section


def test_all_three_documents_and_kinds_are_represented(rules):
    assert {e.document for e in rules} == set(DOCUMENTS)
    assert {e.kind for e in rules} == set(KINDS)


def test_supersedes_points_from_equinox_to_an_existing_earlier_entry(rules):
    by_id = {e.id: e for e in rules}
    superseding = [e for e in rules if e.supersedes]
    assert len(superseding) >= 25
    for e in superseding:
        old = by_id[e.supersedes]
        assert e.id in old.superseded_by
    # the deck-building rules: Equinox adds the Cub exception over the earlier rulebook
    assert by_id["deck.sept-deck"].supersedes == "deck.rulebook-sept-deck"
    assert by_id["deck.rulebook-sept-deck"].document == "rulebook"
    assert by_id["deck.sept-deck"].document == "equinox"


def test_conflicts_carry_a_ruling_and_link_to_real_entries(rules):
    by_id = {e.id: e for e in rules}
    conflicts = [e for e in rules if e.kind == "conflict"]
    assert len(conflicts) >= 10
    for e in conflicts:
        assert e.conflict["ruling"]
        assert all(other in by_id for other in e.conflict["with"])
    crinos = by_id["conflicts.crinos-flip-threshold"]
    assert "equal to or greater" in crinos.conflict["ruling"]


def test_battlefield_faq_answers_are_rulings_linked_to_cards(rules):
    faq = [e for e in rules if e.file == "battlefield-faq.yaml"]
    assert len(faq) == 9  # the supplement's FAQ has nine questions
    assert all(e.kind == "ruling" and e.document == "battlefields" for e in faq)
    cards = {c for e in faq for c in e.cards}
    assert {"Ghouling", "Exorcism", "Den of Rorth, Son of Bast", "Hellcat", "Gang Beating", "Run Like Hell"} <= cards


def test_glossary_has_the_issue_terms_with_sources():
    terms = {t.term: t for t in load_glossary()}
    for name in (
        "Auspice",
        "Breed",
        "Sustained Rage",
        "Unique",
        "Long",
        "Cohort",
        "Character",
        "Available X",
        "Base X",
        "Tribe",
        "Unblockable damage",
        "Ragabash",
        "Theurge",
        "Philodox",
        "Galliard",
        "Ahroun",
        "Homid",
        "Lupus",
        "Metis",
    ):
        assert name in terms, name
        assert terms[name].document in DOCUMENTS


def test_glossary_see_references_exist(rules):
    ids = {e.id for e in rules}
    for t in load_glossary():
        for ref in t.see:
            assert ref in ids, (t.term, ref)


def _write(tmp_path, name, text):
    folder = tmp_path / "rules"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_loader_reads_every_yaml_in_the_folder(tmp_path):
    folder = _write(tmp_path, "a.yaml", ENTRY)
    _write(tmp_path, "b.yaml", ENTRY.replace("test.one", "test.two").replace("Combat", "Moots"))
    assert [e.id for e in load_rules(folder)] == ["test.one", "test.two"]


def test_duplicate_ids_across_files_are_refused(tmp_path):
    folder = _write(tmp_path, "a.yaml", ENTRY)
    _write(tmp_path, "b.yaml", ENTRY)
    with pytest.raises(DataFileError, match=r"b\.yaml: entry 1: duplicate id 'test.one' \(also in a\.yaml\)"):
        load_rules(folder)


def test_malformed_yaml_names_file_and_line(tmp_path):
    folder = _write(tmp_path, "bad.yaml", ENTRY + "- id: [unclosed\n")
    with pytest.raises(DataFileError, match=r"bad\.yaml: malformed YAML at line 8, column 1"):
        load_rules(folder)


@pytest.mark.parametrize(
    "change, message",
    [
        (("kind: rule", "kind: law"), "kind 'law' must be one of rule, ruling, conflict"),
        (("document: equinox", "document: wiki"), "source document 'wiki' must be one of"),
        (("id: test.one", "id: Test One"), "must be lowercase dotted"),
        (("keywords: [one]", "keywords: one"), "'keywords' must be a list"),
        (("title: One\n", "title: One\n  colour: red\n"), "unknown field"),
        (("  text: Some restated text.\n", ""), "missing required field 'text'"),
    ],
)
def test_schema_errors_name_the_entry(tmp_path, change, message):
    folder = _write(tmp_path, "x.yaml", ENTRY.replace(*change))
    with pytest.raises(DataFileError) as exc:
        load_rules(folder)
    assert "x.yaml: entry 1" in str(exc.value)
    assert message in str(exc.value)


def test_dangling_supersedes_is_refused(tmp_path):
    folder = _write(tmp_path, "x.yaml", ENTRY + "  supersedes: test.missing\n")
    with pytest.raises(DataFileError, match=r"refers to unknown rule id 'test.missing'"):
        load_rules(folder)


def test_conflict_entries_need_a_ruling(tmp_path):
    folder = _write(tmp_path, "x.yaml", ENTRY.replace("kind: rule", "kind: conflict"))
    with pytest.raises(DataFileError, match="conflict entry needs"):
        load_rules(folder)


def test_glossary_errors_name_the_item(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text(
        "- term: Rage\n  definition: x\n  source: {document: equinox, section: S}\n"
        "- term: rage\n  definition: y\n  source: {document: equinox, section: S}\n"
    )
    with pytest.raises(DataFileError, match=r"g\.yaml: item 2 \(rage\): name 'rage' already used by 'Rage'"):
        load_glossary(path)


# --- one entry per rule -------------------------------------------------------------------------------------
# The corpus once held the same rule twice (Kailindo, Insight, Sustained Rage, alpha order, moot voting,
# regeneration, the Umbra free return ... restated in two files). These limits are a tripwire for that: a
# pair of entries is flagged when its titles are (nearly) the same or its texts are near-identical. An entry
# and the one it supersedes, and a conflict entry and the entries it rules on, restate one rule on purpose
# and are exempt. Measured on the consolidated corpus the highest unlinked pair scores 80 (titles), 72 (text
# ratio) and 70 (word-order-free ratio); the duplicates that were removed scored 100 / 73-83 / 76-81.
TITLE_LIMIT = 85
TEXT_LIMIT = 75
TOKEN_SORT_LIMIT = 76


def _title_key(title):
    from stkit.tcg.common import fold_words as normalize_name

    return normalize_name(re.sub(r"\(earlier rulebook\)\s*$", "", title))


def restated_pairs(entries):
    """(id, id, why) for every pair of entries that looks like one rule stored twice."""
    from itertools import combinations

    from rapidfuzz import fuzz

    from stkit.tcg.common import fold_words as normalize_name

    linked = {frozenset((e.id, e.supersedes)) for e in entries if e.supersedes}
    linked |= {frozenset((e.id, w)) for e in entries if e.conflict for w in e.conflict["with"]}
    # each entry's keys once, not once per pair
    keys = {id(e): (_title_key(e.title), normalize_name(e.text)) for e in entries}
    found = []
    for a, b in combinations(entries, 2):
        if frozenset((a.id, b.id)) in linked:
            continue
        (ta, xa), (tb, xb) = keys[id(a)], keys[id(b)]
        if ta == tb:
            found.append((a.id, b.id, f"same title {a.title!r}"))
        elif (score := fuzz.ratio(ta, tb)) >= TITLE_LIMIT:
            found.append((a.id, b.id, f"titles {score:.0f}% alike"))
        elif fuzz.ratio(xa, xb) >= TEXT_LIMIT or fuzz.token_sort_ratio(xa, xb) >= TOKEN_SORT_LIMIT:
            found.append((a.id, b.id, "near-identical texts"))
    return found


def test_no_rule_is_stored_twice(rules):
    assert restated_pairs(rules) == []


def _entry(rid, title, text, supersedes=None):
    from stkit.tcg.rules import RuleEntry

    return RuleEntry(
        id=rid,
        title=title,
        kind="rule",
        text=text,
        keywords=("k",),
        document="equinox",
        section="S",
        supersedes=supersedes,
    )


def test_the_duplicate_tripwire_catches_restatements():
    # the two Kailindo entries the corpus used to carry (abilities.yaml and combat.yaml)
    a = _entry(
        "abilities.kailindo",
        "Kailindo",
        "Kailindo is the martial art of the Stargazers. A character with Kailindo has a Pre-Combat event: for "
        "the rest of that combat, whenever it plays a Combat card whose Rage cost is lower than its opponent's "
        "card, it gains Rage equal to the difference between the two costs.",
    )
    b = _entry(
        "combat.kailindo",
        "Kailindo!",
        "Kailindo gives its character a Pre-Combat event: for the rest of the combat, whenever it uses a Combat "
        "card whose Rage cost is below the cost of its opponent's card, it gains Rage equal to the difference.",
    )
    assert [p[:2] for p in restated_pairs([a, b])] == [("abilities.kailindo", "combat.kailindo")]
    # same text under different titles is caught too
    c = _entry("other.kailindo", "Stargazer martial art", b.text.replace("gives", "grants"))
    assert [p[:2] for p in restated_pairs([b, c])] == [("combat.kailindo", "other.kailindo")]
    # an earlier version it supersedes may share the title
    d = _entry("combat.rulebook-kailindo", "Kailindo (earlier rulebook)", b.text)
    e = _entry("combat.kailindo", "Kailindo", b.text, supersedes="combat.rulebook-kailindo")
    assert restated_pairs([d, e]) == []
    # different rules pass
    f = _entry("umbra.no-humans", "Humans never enter the Umbra", "A Human character cannot go to the Umbra.")
    assert restated_pairs([b, f]) == []


@pytest.mark.parametrize(
    "query, rule_id",
    [
        ("kailindo", "combat.kailindo"),
        ("insight", "combat.insight"),
        ("sustained rage", "combat.sustained-rage"),
        ("alpha order renown tribe fury", "alpha.order"),
        ("moot vote", "moot.who-votes"),
        ("regenerate paw print", "regen.set"),
        ("umbra free return moots", "umbra.return-after-moots"),
        ("battlefield defending player natural defenders", "battlefield.self-defence"),
    ],
)
def test_search_returns_one_copy_of_each_rule(query, rule_id):
    from stkit.tcg.rules import search_rules

    hits = search_rules(query, limit=100).hits
    assert rule_id in [h.entry.id for h in hits]
    seen = {}
    for h in hits:  # two hits may share a title only as an Equinox entry and the earlier one it supersedes
        other = seen.setdefault(_title_key(h.entry.title), h.entry)
        assert other is h.entry or other.supersedes == h.entry.id or h.entry.supersedes == other.id, (
            other.id,
            h.entry.id,
        )
