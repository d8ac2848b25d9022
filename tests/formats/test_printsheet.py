"""The printed sheet read back: every trait and value of the example characters is on the PDF page (pypdf),
one page per character; `stkit char print` never overwrites a file without --force."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.formats.printsheet import layout, to_html, to_pdf
from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.forms import form_label
from stkit.sheet.sheet import HEALTH_LEVELS, Sheet
from stkit.store.files import load_file, load_files

REPO = Path(__file__).resolve().parents[2]
DATA = Path(__file__).with_name("data")


def _examples() -> list[Sheet]:
    sheets = [load_file(p).sheet for p in sorted((REPO / "characters").glob("*.yaml"))]
    sheets += [load_file(DATA / n).sheet for n in ("foundry-werewolf-marrow.json", "foundry-pc-kinfolk.json")]
    sheets += [load_file(DATA / n).sheet for n in ("foundry-pc-bastet-v7.json", "foundry-pc-ratkin-v7.json")]
    sheets += [lf.sheet for lf in load_files(DATA / "grapevine-troupe.gex")]
    return sheets


def _text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


class _Lines:
    """The page's text with its whitespace folded; ``x in lines`` finds ``x`` standing between spaces (two
    columns on one baseline come out as one line)."""

    def __init__(self, text: str) -> None:
        self.text = " " + re.sub(r"\s+", " ", text).strip() + " "

    def __contains__(self, item: str) -> bool:
        return f" {item} " in self.text

    def __iter__(self):
        return iter(self.text.split(" "))


def _lines(text: str) -> _Lines:
    return _Lines(text)


@pytest.mark.parametrize("sheet", _examples(), ids=lambda s: s.name)
def test_every_trait_and_value_is_on_the_printed_page(sheet):
    (page,) = _text(to_pdf([sheet]))
    lines = _lines(page)
    assert sheet.name in page
    for a in T.ATTRIBUTES:
        assert f"{a} {sheet.attributes[a]}" in lines, a
    for a, n in {**sheet.abilities, **sheet.custom_abilities}.items():
        spec = sheet.specialties.get(a)
        assert (f"{a} ({spec}) {n}" if spec else f"{a} {n}") in lines, a
    for bg, n in sheet.backgrounds.items():
        assert f"{bg} {n}" in lines, bg
    for g in sheet.gifts:
        assert f"{g['name']} level {g['level']}" in lines, g
    for r in sheet.rites:
        assert f"{r['name']} level {r['level']}" in lines, r
    for f in sheet.fetishes:
        assert f"{f['name']} level {f['level']}, Gnosis {f['gnosis']}" in lines, f
    for m in sheet.merits + sheet.flaws:
        assert f"{m['name']} {m['points']} pt" in lines, m
    for w in sheet.weapons:
        assert f"{w['name']} {w['attack_attribute']}" in lines and f"diff {w['difficulty']}," in lines, w
    for a in sheet.armor:
        assert f"{a['name']} soak {a['bashing']}/{a['lethal']}/{a['aggravated']}" in lines, a
    willpower = sheet.powers["Willpower"]
    assert f"Willpower {willpower.permanent} pts {willpower.temporary}" in lines
    for level, _penalty in HEALTH_LEVELS:
        assert level in lines, level
    for line in sheet.notes.strip().splitlines()[:3]:
        assert line.strip()[:40] in page.replace("\n", " ")
    if sheet.creature == "shapeshifter":
        for slot, own in B.renown_names(sheet.fera).items():
            t = sheet.renown[slot]
            assert f"{own} {t.permanent} temp {t.temporary}" in lines, own
        assert f"Rank {sheet.rank}" in lines
        assert f"Form {form_label(sheet.form, sheet.fera)}" in lines
        for p in ("Rage", "Gnosis"):
            assert f"{p} {sheet.powers[p].permanent} pts {sheet.powers[p].temporary}" in lines


def test_a_kinfolk_page_has_no_form_rage_or_gnosis_rows():
    sheet = load_file(DATA / "foundry-pc-kinfolk.json").sheet
    sheet.powers["Rage"].permanent = sheet.powers["Rage"].temporary = 0
    sheet.powers["Gnosis"].permanent = sheet.powers["Gnosis"].temporary = 0
    labels = [label for _title, rows in layout(sheet).lists for label, _d, _v in rows]
    assert "Form" not in labels and "Rage" not in labels and "Gnosis" not in labels
    assert "Willpower" in labels


def test_a_bastet_page_names_its_own_renown():
    sheet = load_file(DATA / "foundry-pc-bastet-v7.json").sheet
    lines = _lines(_text(to_pdf([sheet]))[0])
    assert all(x in lines for x in ("Ferocity 3 temp 1", "Honor 2 temp 0", "Cunning 1 temp 2", "Form Chatro"))
    assert "Glory" not in lines


def test_health_boxes_show_the_damage_marks():
    sheet = load_file(DATA / "foundry-werewolf-marrow.json").sheet
    sheet.health = {"aggravated": 1, "lethal": 1, "bashing": 1}
    marks = [mark for _level, _p, mark in layout(sheet).health]
    assert marks == ["*", "X", "/", "", "", "", ""]


def test_a_troupe_prints_one_page_per_character():
    sheets = _examples()
    pages = _text(to_pdf(sheets))
    assert len(pages) == len(sheets)
    assert [s.name in p for s, p in zip(sheets, pages, strict=True)] == [True] * len(sheets)
    html = to_html(sheets)
    assert html.count('<section class="page">') == len(sheets) and "@media print" in html


@pytest.fixture
def stored(tmp_path, monkeypatch):
    db = tmp_path / "t.db"
    monkeypatch.setenv("STKIT_DATABASE_URL", "sqlite:///" + str(db))
    runner = CliRunner()
    result = runner.invoke(app, ["char", "import", str(REPO / "characters")])
    assert result.exit_code == 0, result.output
    return tmp_path


def test_cli_prints_a_pdf_and_refuses_to_overwrite_without_force(stored):
    runner = CliRunner()
    out = stored / "weston.pdf"
    result = runner.invoke(app, ["char", "print", "Weston", "--pdf", str(out)])
    assert result.exit_code == 0, result.output
    assert "Weston" in _text(out.read_bytes())[0]
    out.write_bytes(b"keep me")
    result = runner.invoke(app, ["char", "print", "Weston", "--pdf", str(out)])
    assert result.exit_code == 1 and "use --force" in result.output
    assert out.read_bytes() == b"keep me"
    result = runner.invoke(app, ["char", "print", "Weston", "--pdf", str(out), "--force"])
    assert result.exit_code == 0 and out.read_bytes().startswith(b"%PDF")
    assert [p.name for p in stored.iterdir() if p.name.startswith(".weston")] == []  # no temporary file left


def test_cli_needs_a_file_and_a_name(stored):
    runner = CliRunner()
    assert runner.invoke(app, ["char", "print", "Weston"]).exit_code == 2
    assert runner.invoke(app, ["char", "print", "--pdf", str(stored / "x.pdf")]).exit_code == 1
    assert not (stored / "x.pdf").exists()
    result = runner.invoke(app, ["char", "print", "Nobody", "--pdf", str(stored / "x.pdf")])
    assert result.exit_code == 1 and not (stored / "x.pdf").exists()


def test_cli_all_as_a_subprocess_writes_pdf_and_html(stored):
    pdf, html = stored / "troupe.pdf", stored / "troupe.html"
    env = {"STKIT_DATABASE_URL": "sqlite:///" + str(stored / "t.db"), "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "stkit", "char", "print", "--all", "--pdf", str(pdf), "--html", str(html), "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    names = sorted(load_file(p).sheet.name for p in (REPO / "characters").glob("*.yaml"))
    assert len(_text(pdf.read_bytes())) == len(names)
    assert all(f"<h1>{n}</h1>" in html.read_text(encoding="utf-8") for n in names)
    assert '"files"' in done.stdout


@pytest.mark.parametrize("name", ["Ngọc Đào", "Щелкунчик", "Zoë Ægir-Łukasz"])
def test_a_name_outside_latin_1_prints_as_written(name):
    sheet = Sheet(name=name, player="Đặng Thị", tribe="Глас")
    sheet.gifts = [{"name": "Смертельный коготь", "level": 1}]
    warnings: list[str] = []
    (page,) = _text(to_pdf([sheet], warnings=warnings))
    assert warnings == []
    for text in (name, "Đặng Thị", "Глас", "Смертельный коготь"):
        assert text in page, text
    assert "?" not in page


def test_without_a_unicode_font_the_core_font_prints_question_marks_and_says_so(tmp_path):
    warnings: list[str] = []
    missing = ((str(tmp_path / "none.ttf"), str(tmp_path / "none-bold.ttf")),)
    (page,) = _text(to_pdf([Sheet(name="Щелкунчик")], warnings=warnings, fonts=missing))
    assert "?????????" in page
    (warning,) = warnings
    assert "fonts-dejavu-core" in warning and "Щ" in warning
    latin: list[str] = []
    to_pdf([Sheet(name="Zoë")], warnings=latin, fonts=missing)
    assert latin == []  # Latin-1 prints in the core font: nothing to say
