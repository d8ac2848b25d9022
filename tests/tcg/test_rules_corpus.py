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
    for name in ("Auspice", "Breed", "Sustained Rage", "Unique", "Long", "Cohort", "Character", "Available X",
                 "Base X", "Tribe", "Unblockable damage", "Ragabash", "Theurge", "Philodox", "Galliard", "Ahroun",
                 "Homid", "Lupus", "Metis"):
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
    with pytest.raises(DataFileError, match="refers to unknown rule id 'test.missing'"):
        load_rules(folder)


def test_conflict_entries_need_a_ruling(tmp_path):
    folder = _write(tmp_path, "x.yaml", ENTRY.replace("kind: rule", "kind: conflict"))
    with pytest.raises(DataFileError, match="conflict entry needs"):
        load_rules(folder)


def test_glossary_errors_name_the_item(tmp_path):
    path = tmp_path / "g.yaml"
    path.write_text("- term: Rage\n  definition: x\n  source: {document: equinox, section: S}\n"
                    "- term: rage\n  definition: y\n  source: {document: equinox, section: S}\n")
    with pytest.raises(DataFileError, match=r"g\.yaml: item 2 \(rage\): name 'rage' already used by 'Rage'"):
        load_glossary(path)
