"""A character on paper: one page in stkit's own layout, as PDF (fpdf2) or as HTML with print CSS.

Pure: :func:`to_pdf` returns the bytes, :func:`to_html` the text; the caller writes them. The page holds
the identity lines, the Attributes and Abilities as dots with the number beside them, Backgrounds, Gifts,
Rites, Merits and Flaws, Rage / Gnosis / Willpower (rating and points), the breed's own Renown and Rank,
the form, the seven health levels as boxes (``/`` bashing, ``X`` lethal, ``*`` aggravated), fetishes,
weapons, armour and the notes. A Kinfolk or mortal has no form, Rage or Gnosis rows (unless the sheet
gives it Rage or Gnosis). Each ``to_pdf`` page is one character (``sheets`` in order), A4 portrait.

The PDF embeds DejaVu Sans (Debian's fonts-dejavu-core, :data:`UNICODE_FONTS`), so names such as
"Ngọc Đào" or "Щелкунчик" print as written; without that font file it falls back to the core Helvetica
font, which prints a character outside Latin-1 as ``?``, and says so in ``warnings``. The HTML keeps every
character. Raises nothing for a valid sheet.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from stkit.sheet import breeds as B
from stkit.sheet import traits as T
from stkit.sheet.forms import form_label
from stkit.sheet.sheet import HEALTH_LEVELS, Sheet

#: Health box marks by damage type (the Revised sheet's convention).
DAMAGE_MARKS = {"bashing": "/", "lethal": "X", "aggravated": "*", "": ""}
MAX_DOTS_SHOWN = 5
#: A printed row: (label, (filled, of) dots or None, value text).
Row = tuple[str, tuple[int, int] | None, str]


@dataclass
class Printed:
    """What one printed page shows, in order: the title, identity pairs, then named sections of rows
    ``(label, dots or None, value text)``; ``dots`` is (filled, of) for a dotted trait."""

    title: str
    identity: list[tuple[str, str]] = field(default_factory=list)
    columns: list[tuple[str, list[Row]]] = field(default_factory=list)
    lists: list[tuple[str, list[Row]]] = field(default_factory=list)
    health: list[tuple[str, str, str]] = field(default_factory=list)
    notes: str = ""


def _dots(n: int, of: int = MAX_DOTS_SHOWN) -> tuple[int, int]:
    return (n, max(of, n))


def layout(sheet: Sheet) -> Printed:
    """The page of ``sheet`` as data (the PDF and HTML writers draw the same thing)."""
    shifter = sheet.creature == "shapeshifter"
    row = B.get_changing_breed(sheet.fera)
    p = Printed(sheet.name)
    ident = [
        ("Player", sheet.player),
        ("Chronicle", sheet.chronicle),
        ("Creature", sheet.creature_label[2:] if sheet.creature_label.startswith("a ") else sheet.creature_label),
        ("Concept", sheet.concept),
        ("Nature", sheet.nature),
        ("Demeanor", sheet.demeanor),
        ("Breed", sheet.breed),
        (row.auspice_word.capitalize() if row.auspice_word else "Auspice", sheet.auspice),
        ("Tribe", sheet.tribe),
        ("Deformity", sheet.deformity),
        ("Pack", sheet.pack),
        ("Totem", sheet.totem),
    ]
    p.identity = [(k, v) for k, v in ident if v]
    for group, attrs in T.ATTRIBUTE_GROUPS.items():
        rows: list[Row] = [(a, _dots(sheet.attributes.get(a, 0)), str(sheet.attributes.get(a, 0))) for a in attrs]
        p.columns.append((f"{group} Attributes", rows))
    for group in ("Talents", "Skills", "Knowledges"):
        abilities = list(T.ABILITY_GROUPS[group])
        if group == "Knowledges":
            abilities += [a for a in T.SECONDARY_ABILITIES if sheet.abilities.get(a)]
        rows = []
        for a in abilities:
            n = sheet.abilities.get(a, 0)
            spec = sheet.specialties.get(a, "")
            rows.append((f"{a} ({spec})" if spec else a, _dots(n), str(n)))
        if group == "Knowledges":
            for a, n in sheet.custom_abilities.items():
                spec = sheet.specialties.get(a, "")
                rows.append((f"{a} ({spec})" if spec else a, _dots(n), str(n)))
        p.columns.append((group, rows))
    adv: list[Row] = []
    for power in sheet.shown_powers():
        track = sheet.powers[power]
        adv.append((power, _dots(track.permanent, 10), f"{track.permanent} pts {track.temporary}"))
    for slot, label in sheet.shown_renown():
        track = sheet.renown[slot]
        adv.append((label, _dots(track.permanent, 10), f"{track.permanent} temp {track.temporary}"))
    if shifter or sheet.rank:
        adv.append(("Rank", None, str(sheet.rank)))
    if sheet.has_forms:
        adv.append(("Form", None, form_label(sheet.form, sheet.fera)))
    p.lists.append(("Advantages", adv))
    p.lists.append(("Backgrounds", [(k, _dots(v), str(v)) for k, v in sheet.backgrounds.items()]))
    p.lists.append(("Gifts", [(g["name"], None, f"level {g['level']}") for g in sheet.gifts]))
    p.lists.append(("Rites", [(r["name"], None, f"level {r['level']}") for r in sheet.rites]))
    p.lists.append(("Merits", [(m["name"], None, f"{m['points']} pt") for m in sheet.merits]))
    p.lists.append(("Flaws", [(f["name"], None, f"{f['points']} pt") for f in sheet.flaws]))
    p.lists.append(
        ("Fetishes", [(f["name"], None, f"level {f['level']}, Gnosis {f['gnosis']}") for f in sheet.fetishes])
    )
    weapons: list[Row] = []
    for w in sheet.weapons:
        pool = " + ".join(t for t in (w["attack_attribute"], w["attack_ability"]) if t)
        bonus = str(w["damage_bonus"]) if w["damage_bonus"] else ""
        damage = " + ".join(x for x in (w["damage_attribute"], bonus) if x)
        text = f"{pool or '-'}, diff {w['difficulty']}, damage {damage or '0'} {w['damage_type']}"
        if w["kind"] == "ranged":
            text += f", range {w['range']}, rate {w['rate']}, clip {w.get('loaded', 0)}/{w['clip']}"
        weapons.append((w["name"], None, text))
    p.lists.append(("Weapons", weapons))
    armour: list[Row] = []
    for piece in sheet.armor:
        text = f"soak {piece['bashing']}/{piece['lethal']}/{piece['aggravated']} (B/L/A)"
        if piece["dexterity_penalty"]:
            text += f", Dexterity -{piece['dexterity_penalty']}"
        armour.append((piece["name"], None, text))
    p.lists.append(("Armour", armour))
    boxes = sheet.health_boxes()
    for (level, penalty), mark in zip(HEALTH_LEVELS, boxes, strict=True):
        p.health.append((level, "" if penalty is None else (f"-{-penalty}" if penalty else "0"), DAMAGE_MARKS[mark]))
    p.notes = sheet.notes.strip()
    return p


# ----- PDF --------------------------------------------------------------------------------------------------
#: The Unicode TrueType fonts the PDF embeds, (regular, bold), first found wins: Debian's fonts-dejavu-core
#: and the same files where other systems keep them.
UNICODE_FONTS: tuple[tuple[str, str], ...] = (
    ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/TTF/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"),
    ("/usr/share/fonts/dejavu/DejaVuSans.ttf", "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf"),
    ("/usr/local/share/fonts/DejaVuSans.ttf", "/usr/local/share/fonts/DejaVuSans-Bold.ttf"),
)
#: The family name the embedded font is registered under; the core font's is "helvetica".
_EMBEDDED = "dejavu"


def unicode_font(candidates: tuple[tuple[str, str], ...] = UNICODE_FONTS) -> tuple[str, str] | None:
    """(regular, bold) paths of the first pair of ``candidates`` whose regular file exists (bold falls back
    to the regular file when missing), or None."""
    for regular, bold in candidates:
        if Path(regular).is_file():
            return regular, bold if Path(bold).is_file() else regular
    return None


def to_pdf(
    sheets: list[Sheet],
    *,
    warnings: list[str] | None = None,
    fonts: tuple[tuple[str, str], ...] = UNICODE_FONTS,
) -> bytes:
    """One A4 page per sheet, as PDF bytes (fpdf2). The text is set in the first Unicode font of ``fonts``
    found (embedded, subset); with none found, in the core Helvetica font, and a warning that characters
    outside Latin-1 print as '?' is appended to ``warnings`` when a page holds any."""
    from fpdf import FPDF  # lazy: start-up (only `char print --pdf` draws a PDF)

    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_title(", ".join(s.name for s in sheets))
    pdf.set_creator("stkit")
    found = unicode_font(fonts)
    if found is not None:
        pdf.add_font(_EMBEDDED, "", found[0])
        pdf.add_font(_EMBEDDED, "B", found[1])
    pages = [layout(sheet) for sheet in sheets]
    if found is None and warnings is not None:
        lost = sorted({ch for p in pages for ch in _page_text(p) if ord(ch) > 0xFF})
        if lost:
            warnings.append(
                f"no Unicode font found (install Debian's fonts-dejavu-core); {''.join(lost[:12])} "
                "printed as '?' in the core Helvetica font"
            )
    for p in pages:
        _page(pdf, p, _Fonts(_EMBEDDED if found else "helvetica", found is not None))
    return bytes(pdf.output())


def _page_text(p: Printed) -> str:
    """Every text a page prints, run together (to find what the core font cannot print)."""
    parts = [p.title, p.notes]
    parts += [x for pair in p.identity for x in pair]
    for _title, rows in p.columns + p.lists:
        parts += [x for label, _d, value in rows for x in (label, value)]
    return "".join(parts)


@dataclass(frozen=True)
class _Fonts:
    """The family the page is set in and whether it prints any character (else text goes through Latin-1)."""

    family: str
    unicode: bool

    def text(self, value: str) -> str:
        return value if self.unicode else value.encode("latin-1", "replace").decode("latin-1")


def _fit(pdf, f: _Fonts, w: float, h: float, text: str, size: float, style: str = "", align: str = "") -> None:
    """One cell of ``text`` in ``w`` mm: set at ``size`` points, smaller (down to 5.5) when it does not fit,
    then cut with an ellipsis; the next cell never overprints it."""
    shown = f.text(text)
    pdf.set_font(f.family, style, size)
    while pdf.get_string_width(shown) > w - 0.6 and size > 5.5:
        size -= 0.5
        pdf.set_font(f.family, style, size)
    if pdf.get_string_width(shown) > w - 0.6:
        while shown and pdf.get_string_width(shown + "...") > w - 0.6:
            shown = shown[:-1]
        shown += "..."
    pdf.cell(w, h, shown, align=align)


def _dot_row(
    pdf, f: _Fonts, x: float, y: float, w: float, label: str, dots: tuple[int, int] | None, value: str
) -> None:
    pdf.set_xy(x, y)
    pdf.set_font(f.family, "", 7.5)
    if dots is None:
        _fit(pdf, f, w * 0.45, 3.6, label, 7.5)
        pdf.set_xy(x + w * 0.45, y)
        _fit(pdf, f, w * 0.55, 3.6, value, 7.5)
        return
    filled, of = dots
    shown = min(of, 10)
    step = 2.9 if of <= 5 else 2.25
    r = 1.05 if of <= 5 else 0.85
    value_w = 5.0 if value.isdigit() else 16.0
    label_w = w - step * shown - value_w - 1
    _fit(pdf, f, label_w, 3.6, label, 7.5)
    for i in range(shown):
        pdf.circle(x=x + label_w + i * step + r, y=y + 1.8, radius=r, style="F" if i < filled else "D")
    pdf.set_xy(x + w - value_w, y)
    pdf.set_font(f.family, "", 6.5 if not value.isdigit() else 7.5)
    pdf.cell(value_w, 3.6, f.text(value), align="R")


def _heading(pdf, f: _Fonts, x: float, y: float, w: float, text: str) -> float:
    pdf.set_xy(x, y)
    pdf.set_font(f.family, "B", 9)
    pdf.cell(w, 4.5, f.text(text), border="B")
    return y + 5.5


def _page(pdf, p: Printed, f: _Fonts) -> None:
    pdf.add_page()
    left, width = 10.0, 190.0
    pdf.set_line_width(0.2)
    pdf.set_xy(left, 8)
    pdf.set_font(f.family, "B", 16)
    pdf.cell(width, 8, f.text(p.title))
    y = 17.0
    pdf.set_font(f.family, "", 8)
    col_w = width / 3
    for i, (k, v) in enumerate(p.identity):
        cx, cy = left + (i % 3) * col_w, y + (i // 3) * 4
        pdf.set_xy(cx, cy)
        pdf.set_font(f.family, "B", 8)
        pdf.cell(18, 4, f.text(k))
        pdf.set_font(f.family, "", 8)
        _fit(pdf, f, col_w - 18, 4, v, 8)
    y += 4 * ((len(p.identity) + 2) // 3) + 2
    for block in (p.columns[:3], p.columns[3:]):
        top = y
        bottom = y
        for i, (title, rows) in enumerate(block):
            cx = left + i * col_w
            yy = _heading(pdf, f, cx, top, col_w - 4, title)
            for label, dots, value in rows:
                _dot_row(pdf, f, cx, yy, col_w - 4, label, dots, value)
                yy += 3.8
            bottom = max(bottom, yy)
        y = bottom + 2
    # the lists: three columns filled in turn, each section kept whole
    wide = ("Weapons", "Armour")
    lists = [(t, rows) for t, rows in p.lists if (rows or t in ("Advantages", "Gifts")) and t not in wide]
    col_y = [y, y, y]
    col = 0
    for title, rows in lists:
        need = 5.5 + 3.8 * max(1, len(rows))
        col = min(range(3), key=lambda c: col_y[c])
        cx = left + col * col_w
        yy = _heading(pdf, f, cx, col_y[col], col_w - 4, title)
        for label, dots, value in rows or [("-", None, "")]:
            _dot_row(pdf, f, cx, yy, col_w - 4, label, dots, value)
            yy += 3.8
        col_y[col] = col_y[col] + need + 2
    y = max(col_y) + 1
    for title, rows in p.lists:  # weapons and armour across the page: their lines are long
        if title in wide and rows:
            yy = _heading(pdf, f, left, y, width, title)
            for label, _dots, value in rows:
                pdf.set_xy(left, yy)
                pdf.set_font(f.family, "", 7.5)
                _fit(pdf, f, 45, 3.6, label, 7.5)
                _fit(pdf, f, width - 45, 3.6, value, 7.5)
                yy += 3.8
            y = yy + 2
    # health
    yy = _heading(pdf, f, left, y, col_w - 4, "Health")
    for level, penalty, mark in p.health:
        pdf.set_xy(left, yy)
        pdf.set_font(f.family, "", 7.5)
        pdf.cell(28, 3.8, level)
        pdf.cell(8, 3.8, penalty, align="R")
        pdf.rect(left + 40, yy + 0.3, 3.2, 3.2)
        pdf.set_xy(left + 40, yy)
        pdf.set_font(f.family, "B", 7.5)
        pdf.cell(3.2, 3.8, mark, align="C")
        yy += 3.8
    for i, legend in enumerate(("/ bashing", "X lethal", "* aggravated")):
        pdf.set_xy(left + 46, y + 6 + 3 * i)
        pdf.set_font(f.family, "", 6.5)
        pdf.cell(col_w - 50, 3, legend)
    # notes beside the health track, to the foot of the page
    nx, nw = left + col_w, width - col_w
    ny = _heading(pdf, f, nx, y, nw, "Notes")
    pdf.set_xy(nx, ny)
    pdf.set_font(f.family, "", 7.5)
    room = max(3, int((285 - ny) / 3.4))
    lines = f.text(p.notes).splitlines() or [""]
    pdf.multi_cell(nw, 3.4, "\n".join(lines[:room]), max_line_height=3.4, align="L")


# ----- HTML -------------------------------------------------------------------------------------------------
#: The page's stylesheet: one file, inlined in a standalone HTML file and served to the table's print page.
CSS_FILE = "print.css"


@cache
def print_css() -> str:
    """The print stylesheet (``stkit/formats/static/print.css``)."""
    return (resources.files("stkit.formats") / "static" / CSS_FILE).read_text(encoding="utf-8")


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _row_html(label: str, dots: tuple[int, int] | None, value: str) -> str:
    if dots is None:
        return f'<div class="row"><span>{_e(label)}</span><span>{_e(value)}</span></div>'
    filled, of = dots
    shown = "\u25cf" * filled + "\u25cb" * (of - filled)
    return (
        f'<div class="row"><span>{_e(label)}</span><span class="dots" aria-label="{filled}">{shown}'
        f" <b>{_e(value)}</b></span></div>"
    )


def page_html(sheet: Sheet) -> str:
    """One character's page as an HTML fragment (``<section class="page">``)."""
    p = layout(sheet)
    out = [f'<section class="page"><h1>{_e(p.title)}</h1><div class="identity">']
    out += [f"<div><b>{_e(k)}</b> {_e(v)}</div>" for k, v in p.identity]
    out.append("</div>")
    for block in (p.columns[:3], p.columns[3:]):
        out.append('<div class="cols">')
        for title, rows in block:
            out.append(f"<div><h2>{_e(title)}</h2>{''.join(_row_html(*r) for r in rows)}</div>")
        out.append("</div>")
    out.append('<div class="cols">')
    for title, rows in p.lists:
        if rows or title in ("Advantages", "Gifts"):
            out.append(f"<div><h2>{_e(title)}</h2>{''.join(_row_html(*r) for r in rows) or '-'}</div>")
    out.append("</div>")
    out.append('<div class="cols"><div><h2>Health</h2><table class="health">')
    for level, penalty, mark in p.health:
        out.append(f'<tr><td>{_e(level)}</td><td>{_e(penalty)}</td><td><span class="box">{_e(mark)}</span></td></tr>')
    out.append("</table><small>/ bashing, X lethal, * aggravated</small></div>")
    out.append(f'<div class="wide"><h2>Notes</h2><div class="notes">{_e(p.notes)}</div></div></div>')
    out.append("</section>")
    return "".join(out)


def to_html(sheets: list[Sheet], *, stylesheet: str | None = None, script: str | None = None) -> str:
    """A whole HTML document with one page per sheet and print CSS (A4, one character a page).

    Standalone (the defaults) the stylesheet is inlined and there is no script. A page served under a
    Content-Security-Policy that allows only the server's own files gives ``stylesheet``, the address of
    :func:`print_css`, and ``script``, the address of a script that makes the ``data-print`` button print:
    then nothing is inline (no ``<style>``, no ``style=``, no ``onclick=``) and the page has a Print button."""
    title = _e(", ".join(s.name for s in sheets))
    style = f'<link rel="stylesheet" href="{_e(stylesheet)}">' if stylesheet else f"<style>{print_css()}</style>"
    scripts = f'<script src="{_e(script)}" defer></script>' if script else ""
    button = '<p class="noprint"><button type="button" data-print>Print</button></p>' if script else ""
    body = "".join(page_html(s) for s in sheets)
    return (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title>{style}{scripts}</head><body>{button}{body}</body></html>\n"
    )
