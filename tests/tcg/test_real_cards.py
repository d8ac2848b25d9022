"""Real card lists: the LackeyCCG plugin's shape read whole, cards everywhere, and hostile card files.

``fixtures/plugin_sample.txt`` is a list of made-up cards written in the plugin's own columns with each
trait of the real file: earlier-game and compound types, two-sided characters, keywords joined with " - ",
a row split over two lines, two rows on one line, a text cut at 254 characters, printings in two sets
that differ, a row listed twice, ``(+1)`` / ``(-1)`` names, playtest and test sets, an unknown type, stray
quotes, an unreadable number and a row without a name.
"""

import json
import os
import pathlib

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.errors import DataFileError, InvalidValue, NotFound
from stkit.tcg.cardfiles import parse_card_file
from stkit.tcg.db import CardDB, CardFilter, NumberRange
from stkit.tcg.deck import check_deck, parse_deck_file, parse_deck_text
from stkit.tcg.lackey import resolve_type

FIX = pathlib.Path(__file__).parent / "fixtures"
SAMPLE = FIX / "plugin_sample.txt"
runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "200"}


@pytest.fixture
def db(_cards_db_in_tmp):
    with CardDB(_cards_db_in_tmp) as d:
        d.import_file(SAMPLE)
        yield d


def test_every_row_is_accounted_for():
    parsed = parse_card_file(SAMPLE)
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert parsed.lines == len(lines) - 1 == 42
    # line 23 holds two cards; every other line is one card, merged, or refused
    card_lines = len(parsed.cards) - 1
    assert card_lines + len(parsed.merged) + len(parsed.errors) == parsed.lines
    assert (len(parsed.cards), len(parsed.merged), len(parsed.errors)) == (39, 3, 1)
    assert [(e.line, e.message) for e in parsed.errors] == [(34, "no card name (the Name field is empty)")]
    assert [e.line for e in parsed.merged] == [22, 36, 28]
    assert "the rest of line 21" in parsed.merged[0].message
    assert (
        parsed.merged[2].message == "Gauntlet Flux (+1) (Limited) is listed again with the same text; line 25 is kept"
    )
    # no card is named with a sentence
    assert not [c.name for c in parsed.cards if len(c.name.split()) > 5]


def test_two_sided_garou_and_keyword_lists(db):
    c = db.find("Stillwater Packmother")
    assert (c.type, c.printed_type, c.affiliation) == ("Garou", "Character - Gaia", "Gaia")
    assert c.keywords == ["Garou", "Get of Fenris", "Ahroun", "Lupus", "Gaia", "Female"]
    assert (c.tribe, c.breed, c.auspice) == ("Get of Fenris", "Lupus", "Ahroun")
    assert (c.renown, c.rage, c.gnosis, c.health) == (5, 3, 2, 4)
    assert c.crinos_side == {"rage": 6, "gnosis": 2, "health": 6}
    assert c.extra == {"ImageFile": "stillwater.jpg", "Sealed": "1"}
    metis = db.find("Bruno Grey-Fur")
    assert (metis.breed, metis.crinos_side) == ("Metis", None)
    wyrm = db.find("Patrick Stonefist")
    assert (wyrm.type, wyrm.affiliation, wyrm.tribe) == ("Garou", "Wyrm", "Black Spiral Dancers")
    rogue = db.find("Kinfolk Drifter")
    assert (rogue.type, rogue.affiliation, rogue.alternate_shapeshifter) == ("Character", "Rogue", False)
    bastet = db.find("Sand Whisker")  # two-sided and not a Garou: another werecreature
    assert (bastet.type, bastet.alternate_shapeshifter, bastet.crinos_side["health"]) == ("Character", True, 5)


@pytest.mark.parametrize(
    "printed, expected",
    [
        ("Territory", {"type": "Territory", "subtypes": []}),
        ("Quest", {"type": "Quest", "subtypes": []}),
        ("Caern", {"type": "Caern", "subtypes": []}),
        ("Board Meeting", {"type": "Board Meeting", "subtypes": []}),
        ("Realm", {"type": "Realm", "subtypes": []}),
        ("Action", {"type": "Action", "subtypes": []}),
        ("Ally - Victim", {"type": "Ally", "subtypes": ["Victim"], "printed_type": "Ally - Victim"}),
        ("Enemy - Victim", {"type": "Enemy", "subtypes": ["Victim"], "printed_type": "Enemy - Victim"}),
        ("Territory - Realm", {"type": "Territory", "subtypes": ["Realm"], "printed_type": "Territory - Realm"}),
        ("Combat - Attack", {"type": "Combat Action", "kind": "attack", "printed_type": "Combat - Attack"}),
        ("Defence", {"type": "Combat Action", "kind": "defense", "printed_type": "Defence"}),
        ("Combat Event", {"type": "Combat Event", "subtypes": []}),
        ("Character (Wyrm)", {"type": "Character", "affiliation": "Wyrm", "printed_type": "Character (Wyrm)"}),
    ],
)
def test_printed_types(printed, expected):
    assert resolve_type(printed, []) == {"known": True, **expected}


def test_unknown_type_is_kept_searchable_with_a_warning(db):
    parsed = parse_card_file(SAMPLE)
    assert ("Moon Bridge", "type 'Gateway' is not one stkit knows; kept as its own type") in [
        (w.name, w.message) for w in parsed.warnings
    ]
    assert [h.card.name for h in db.search("", type_="gateway")] == ["Moon Bridge"]


def test_combat_cards_read_cost_damage_block_and_speed(db):
    bite = db.find("Bite", set_="Limited")
    assert (bite.type, bite.kind, bite.rage_cost, bite.rage, bite.damage) == ("Combat Action", "attack", 1, None, 2)
    block = db.find("Shield Block")
    assert (block.kind, block.block, block.speed, block.text_only) == ("defense", 4, "fast", [])
    dodge = db.find("Dodge Roll")
    assert (dodge.block, dodge.text_only) == (None, ["block"])  # "prevents all damage": no number to read
    assert db.find("Haymaker").speed == "slow"
    assert db.find("Throat Lunge").damage == "X"


def test_dirty_rows(db):
    gift = db.find("Long Winded Gift")
    assert gift.text == "This Gift has a text that the list maker split over two lines, as real lists do."
    assert gift.errata == ["Errata: Gnosis cost 2."]
    assert db.find("Second Howl").text == "The second of two."
    step = db.find("Step Sideways")
    assert step.possibly_truncated and len(step.text) == 254
    assert db.find('Howling "Mad" Dog').text == 'He says "grr'  # a stray quote is a character
    ally = db.find("Numberless Ally")
    assert (ally.renown, ally.health, ally.extra) == (None, 2, {"renown": "lots"})


def test_plus_and_minus_names_stay_apart(db):
    plus, minus = db.find("Gauntlet Flux (+1)"), db.find("gauntlet flux -1")
    assert (plus.text, minus.text) == ("The Gauntlet rises by one.", "The Gauntlet falls by one.")
    assert db.search("Gauntlet Flux (-1)")[0].card.name == "Gauntlet Flux (-1)"


def test_printings_are_kept_and_show_says_they_differ(db):
    view = db.show("bite")
    assert view.card.set == "Unlimited" and view.printings_differ
    assert [(p.set, p.differs) for p in view.printings] == [("Limited", True), ("Unlimited", False)]
    assert db.show("bite", set_="limited").card.text == "A savage bite."
    with pytest.raises(NotFound, match=r"'bite' has no printing in set 'Promo'; its sets: Limited, Unlimited"):
        db.show("bite", set_="Promo")
    result = runner.invoke(app, ["tcg", "cards", "show", "bite"], env=ENV)
    assert "Printings: Limited (differs), Unlimited" in result.stdout
    assert "Printings differ" in result.stdout


def test_imported_card_keeps_the_built_in_rulings(db):
    view = db.show("Hellcat")
    assert view.origin == "plugin_sample.txt" and view.merged_from == "builtin"
    assert view.card.rulings == ["battlefield-faq.den-of-rorth-bastet"]
    assert view.card.renown == 3  # the imported printing's numbers


def test_playtest_and_test_sets_hidden_in_search_and_show_alike(db):
    assert db.find("Glass Walker Hacker").playtest and db.find("Test Card Please Ignore").playtest
    assert "Glass Walker Hacker" not in [h.card.name for h in db.search("glass walker")]
    with pytest.raises(NotFound, match="is a playtest card, hidden unless asked: add --playtest"):
        db.show("Glass Walker Hacker")
    assert db.show("Glass Walker Hacker", include_playtest=True).card.tribe == "Glass Walkers"


def test_search_filters_every_field(db):
    def names(**kw):
        return sorted(h.card.name for h in db.search("", filters=CardFilter(**kw), limit=100))

    assert names(tribe="Wendigo") == ['Howling "Mad" Dog', "Marta Skin-Dancer"]
    assert names(breed="metis") == ["Bruno Grey-Fur"]
    assert names(auspice="Ahroun") == ["Patrick Stonefist", "Stillwater Packmother"]
    assert names(type="Victim") == ["Fomor Thug", "Frightened Tourist"]
    assert names(keywords=("Fast Striking",)) == ["Claw Slash", "Shield Block", "Throat Lunge"]
    # a keyword is a whole list item, never a word inside one: "Fast" is no card's keyword, and says so
    with pytest.raises(InvalidValue, match=r"--keyword 'Fast': no card has that keyword .*close ones: Fast Striking"):
        names(keywords=("Fast",))
    assert names(set="unlimited", type="Garou") == ["Patrick Stonefist"]
    assert names(crinos=True) == [
        "Janus",
        "Marta Skin-Dancer",
        "Patrick Stonefist",
        "Sand Whisker",
        "Stillwater Packmother",
    ]
    assert names(ranges=(("renown", NumberRange.parse("4..", "--renown")),), type="Garou") == [
        'Howling "Mad" Dog',
        "Marta Skin-Dancer",
        "Patrick Stonefist",
        "Stillwater Packmother",
    ]
    assert names(ranges=(("rage_cost", NumberRange.parse("3..", "--rage-cost")),)) == ["Gut Rip", "Throat Lunge"]
    assert names(ranges=(("damage", NumberRange.parse("..1", "--damage")),)) == ["Body Tackle"]
    # Janus twice: the built-in card and the imported printing
    assert names(ranges=(("health", NumberRange(5, 5)),), type="Character") == [
        "Bruno Grey-Fur",
        'Howling "Mad" Dog',
        "Janus",
        "Janus",
    ]


@pytest.mark.parametrize("text", ["", "a", "5..3", "1.2", "..", "1000", "-1"])
def test_bad_ranges_are_one_line_errors(text):
    with pytest.raises(InvalidValue, match=r"--renown"):
        NumberRange.parse(text, "--renown")


def test_cli_search_filters_and_bad_range(db):
    result = runner.invoke(
        app, ["tcg", "cards", "search", "--tribe", "get of fenris", "--crinos", "--renown", "5", "--json"], env=ENV
    )
    assert [r["name"] for r in json.loads(result.stdout)["results"]] == ["Stillwater Packmother"]
    result = runner.invoke(app, ["tcg", "cards", "search", "--health", "3..1"], env=ENV)
    assert result.exit_code == 1
    assert result.stderr == "Error: --health '3..1': the low end 3 is above the high end 1\n"


def test_a_deck_of_real_cards_gets_a_verdict(db):
    report = check_deck(parse_deck_file(FIX / "real_deck.txt"), db)
    assert report.legal, report.violations
    assert [w.rule for w in report.warnings] == ["deck.tribe-card", "deck.combat-deck", "deck.starting-pack"]
    assert "cohort tribes and their extra Renown cannot be checked" in report.warnings[0].message
    assert "moon not recorded for Bite" in report.warnings[1].message
    assert report.summary["pack_renown"] == 9 and report.summary["tribe"] == "Get of Fenris"
    result = runner.invoke(app, ["tcg", "deck", "check", str(FIX / "real_deck.txt")], env=ENV)
    assert result.exit_code == 0
    assert "Legal at Renown level 20 as far as the card data lets stkit check." in result.stdout


def test_a_deck_without_a_starting_pack_is_not_legal(db):
    text = (FIX / "real_deck.txt").read_text(encoding="utf-8")
    text = text.replace("Pack:\nStillwater Packmother\nMarta Skin-Dancer\n", "")
    report = check_deck(parse_deck_text(text), db)
    assert ("deck.starting-pack", "no starting pack: add a 'Pack:' section listing your Garou") in [
        (v.rule, v.message) for v in report.violations
    ]


def test_unknown_cards_say_why_and_never_suggest_junk(db):
    text = (FIX / "real_deck.txt").read_text(encoding="utf-8")
    text = text.replace("3 Long Winded Gift", "2 Long Winded Gift\n1 Zzyzx Qqq")
    report = check_deck(parse_deck_text(text), db)
    (vio,) = [v for v in report.violations if v.rule == "deck.known-cards"]
    assert vio.message == (
        "line 17: unknown card 'Zzyzx Qqq'; no card of that name in the card database: import its card list first"
    )


def test_a_card_the_import_refused_is_named_with_its_reason(tmp_path, db):
    bad = tmp_path / "bad.txt"
    bad.write_text("Name\tType\tText\n" + "Night" + "x" * 300 + "\tAlly\tx\n", encoding="utf-8")
    db.import_file(bad)
    deck = parse_deck_text("Sept deck:\n" + "Night" + "x" * 300 + "\n")
    (vio,) = [v for v in check_deck(deck, db).violations if v.rule == "deck.known-cards"]
    assert "its import refused it (bad.txt line 2: field 'name' is 305 characters long" in vio.message
    assert "import its card list" not in vio.message


# --- hostile card files ----------------------------------------------------------------------------------


def test_a_huge_card_name_is_refused(tmp_path, db):
    path = tmp_path / "huge.yaml"
    path.write_text(f"- {{name: {'N' * 100_000}, type: Ally}}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"field 'name' is 100000 characters long; allowed: at most 200"):
        db.import_file(path)
    lackey = tmp_path / "huge.txt"
    lackey.write_text("Name\tType\n" + "N" * 100_000 + "\tAlly\nSmall\tAlly\n", encoding="utf-8")
    report = db.import_file(lackey)
    assert report.imported == 1 and "100000 characters long" in report.skipped[0].message


def test_duplicate_yaml_keys_and_duplicate_cards_are_reported(tmp_path, db):
    path = tmp_path / "dup.yaml"
    path.write_text("- name: A\n  type: Ally\n  type: Enemy\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"line 3, column 3: duplicate key 'type' \(first given at line 2\)"):
        db.import_file(path)
    path.write_text("- {name: A, type: Ally}\n- {name: a, type: Ally}\n", encoding="utf-8")
    with pytest.raises(DataFileError, match=r"card 2 \(a\): the same card as card 1 \(same name and set\)"):
        db.import_file(path)


def test_utf16_and_cp1252_card_files(tmp_path, db):
    text = "Name\tType\tText\nCafé Noir\tAlly\tCrème\n"
    for encoding in ("utf-16", "utf-16-le", "utf-16-be", "utf-8-sig", "cp1252"):
        path = tmp_path / f"{encoding}.txt"
        data = text.encode(encoding)
        if encoding == "utf-16-le":
            data = b"\xff\xfe" + data  # a BOM names the byte order
        path.write_bytes(data)
        parsed = parse_card_file(path)
        assert [(c.name, c.text) for c in parsed.cards] == [("Café Noir", "Crème")], encoding


def test_utf16_without_bom_is_recognised(tmp_path):
    path = tmp_path / "nobom.txt"
    path.write_bytes("Name\tType\nSilent Fang\tAlly\n".encode("utf-16-le"))
    assert parse_card_file(path).cards[0].name == "Silent Fang"


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_only_regular_files_are_read(tmp_path, kind):
    if kind == "fifo":
        path = tmp_path / "pipe.txt"
        os.mkfifo(path)
        expected = "is a named pipe (FIFO), not a regular file"
    elif kind == "folder":
        path = tmp_path / "dir.txt"
        path.mkdir()
        expected = "is a folder, not a regular file"
    else:
        path = pathlib.Path("/dev/zero")
        expected = "is a device, not a regular file"
    for argv in (
        ["tcg", "cards", "import", str(path)],
        ["tcg", "deck", "check", str(path)],
        ["tcg", "combat", str(path)],
        ["tcg", "moot", str(path)],
    ):
        result = runner.invoke(app, argv, env=ENV)
        assert result.exit_code == 1, (argv, result.output)
        assert expected in result.stderr and result.stderr.count("\n") == 1, (argv, result.stderr)


def test_too_many_rows_are_refused(tmp_path, monkeypatch):
    import stkit.tcg.lackey as lackey

    monkeypatch.setattr(lackey, "MAX_CARD_ROWS", 3)
    path = tmp_path / "many.txt"
    path.write_text("Name\tType\n" + "".join(f"C{i}\tAlly\n" for i in range(5)), encoding="utf-8")
    with pytest.raises(DataFileError, match=r"a card file may hold at most 3"):
        parse_card_file(path)


@pytest.mark.parametrize(
    "value, message",
    [
        ("postgresql://user:secret@host/db", "is a URL (postgresql://...); the card database is a local SQLite"),
        ("/nonexistent-stkit-folder/x.db", "the folder '/nonexistent-stkit-folder' does not exist; create it first"),
        ("", "is empty"),
    ],
)
def test_cards_db_is_validated(tmp_path, value, message):
    result = runner.invoke(app, ["tcg", "cards", "search", "x", "--cards-db", value], env=ENV)
    assert result.exit_code == 1 and message in result.stderr and result.stderr.count("\n") == 1
    env = {**ENV, "STKIT_CARDS_DB": value}
    if value:
        result = runner.invoke(app, ["tcg", "cards", "search", "x"], env=env)
        assert result.exit_code == 1 and "STKIT_CARDS_DB" in result.stderr and message in result.stderr
    assert not pathlib.Path("/nonexistent-stkit-folder").exists()
    assert not (tmp_path / "postgresql:").exists()


def test_folder_as_cards_db_is_refused(tmp_path):
    result = runner.invoke(app, ["tcg", "cards", "search", "x", "--cards-db", str(tmp_path)], env=ENV)
    assert result.exit_code == 1 and "is a folder; give the path of a card database file" in result.stderr


@pytest.mark.parametrize("query", ["zzqq[/bold]", "[link=https://evil.example]x[/link]"])
def test_search_text_is_printed_literally(db, query):
    result = runner.invoke(app, ["tcg", "cards", "search", query], env=ENV)
    assert result.exit_code == 0, result.output
    assert "\x1b" not in result.stdout and "\x07" not in result.stdout
    if "No card matches" in result.stdout:
        assert repr(query).replace("\\x1b", "\\\\x1b") in result.stdout or "[" not in query


def test_control_characters_in_a_search_are_refused_by_name(db):
    result = runner.invoke(app, ["tcg", "cards", "search", "\x1b]8;;x\x07y"], env=ENV)
    assert result.exit_code == 1
    assert result.stderr == (
        "Error: search text contains the control character '\\x1b' at position 1; only printable text is allowed\n"
    )


def test_card_names_with_markup_print_literally(tmp_path, db):
    path = tmp_path / "markup.txt"
    path.write_text("Name\tType\n[link=https://evil.example]Evil[/link]\tAlly\n", encoding="utf-8")
    db.import_file(path)
    result = runner.invoke(app, ["tcg", "cards", "search", "evil"], env=ENV)
    assert "[link=https://evil.example]Evil[/link]" in result.stdout
    result = runner.invoke(app, ["tcg", "cards", "show", "[link=https://evil.example]Evil[/link]"], env=ENV)
    assert result.exit_code == 0 and "[link=https://evil.example]Evil[/link]" in result.stdout.replace("\n", "")
    assert "\x1b" not in result.stdout


def test_battlefield_keywords_are_escaped():
    result = runner.invoke(
        app,
        ["tcg", "battlefield", "--renown", "10", "--buy", "Kailindo,\x1b[2J[bold]x", "--defender-keywords", "[/i]Wyrm"],
        env=ENV,
    )
    assert "\x1b" not in result.stdout + result.stderr
    assert result.exit_code in (0, 1)
    if result.exit_code == 1:
        assert "\\x1b" in result.stderr and result.stderr.count("\n") == 1


def test_a_new_card_database_is_owner_only(tmp_path):
    old = os.umask(0)
    try:
        with CardDB(tmp_path / "new.sqlite"):
            pass
    finally:
        os.umask(old)
    assert (tmp_path / "new.sqlite").stat().st_mode & 0o777 == 0o600
