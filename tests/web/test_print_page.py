"""``GET /sheet/ID/print``: the printable page, with print CSS, for the Storyteller and the sheet's own player.

The page is served under the table's Content-Security-Policy (scripts and styles from the server's own files
only): it holds no inline ``<style>``, ``style=`` or ``on...=`` handler; its stylesheet and the Print button's
script are static files, and a real Chromium shows the page styled, with no CSP violation, and prints on a
click."""

from __future__ import annotations

import os
import re

import pytest

from stkit.formats.printsheet import print_css
from tests.waiting import DEADLINE

CHROMIUM = "/usr/bin/chromium"


def _inline(html: str) -> list[str]:
    """What a CSP without 'unsafe-inline' would block in ``html``."""
    found = re.findall(r"<style\b|\sstyle=|\son[a-z]+=|<script(?![^>]*\bsrc=)", html)
    return found + (["javascript:"] if "javascript:" in html else [])


def test_the_print_page_holds_the_sheet_and_print_css(clients, table):
    c = clients("storyteller")
    page = c.get(f"/sheet/{table.weston}/print")
    assert page.status_code == 200
    text = page.text
    assert "<h1>Weston</h1>" in text
    assert 'aria-label="3"' in text and "Stealth" in text  # Stealth 3 as dots with the number
    assert '<link rel="stylesheet" href="/static/print.css">' in text
    assert '<script src="/static/print.js" defer></script>' in text and "data-print" in text
    css = c.get("/static/print.css")
    assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    assert css.text == print_css() and "@media print" in css.text and "@page{size:A4 portrait" in css.text
    js = c.get("/static/print.js")
    assert js.status_code == 200 and "window.print()" in js.text
    assert f'href="/sheet/{table.weston}/print"' in c.get(f"/sheet/{table.weston}").text


def test_the_print_page_needs_nothing_the_csp_blocks(clients, table):
    page = clients("storyteller").get(f"/sheet/{table.weston}/print")
    csp = page.headers["content-security-policy"]
    assert "style-src 'self';" in csp and "script-src 'self';" in csp and "unsafe-inline" not in csp
    assert _inline(page.text) == []


def test_the_standalone_file_keeps_its_css_inline_and_has_no_script():
    from stkit.formats.printsheet import to_html
    from stkit.sheet.sheet import Sheet

    html = to_html([Sheet(name="Ada", notes="a note")])
    assert f"<style>{print_css()}</style>" in html
    assert "<script" not in html and " style=" not in html and "onclick" not in html
    assert '<div class="wide"><h2>Notes</h2>' in html


def test_a_player_prints_only_their_own_sheet(clients, table):
    player = clients("Weston")
    assert player.get(f"/sheet/{table.weston}/print").status_code == 200
    assert player.get(f"/sheet/{table.archibald}/print").status_code == 403
    assert clients("storyteller").get("/sheet/999999/print").status_code == 404


@pytest.mark.slow
@pytest.mark.skipif(
    not os.path.exists(CHROMIUM) and not os.environ.get("CI"),
    reason=f"{CHROMIUM} is not installed (apt-get install chromium); in CI these tests must run",
)
def test_in_chromium_the_print_page_is_styled_and_prints_with_no_csp_violation(live, table):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"], headless=True)
        try:
            page = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
            refused: list[str] = []
            page.on("console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None)
            page.goto(f"{live}/join/{table.token('Weston')}")
            page.goto(f"{live}/sheet/{table.weston}/print")
            page.wait_for_load_state("load", timeout=DEADLINE * 1000)
            page.evaluate(
                """() => { window.__violations = [];
                  document.addEventListener('securitypolicyviolation', e => window.__violations.push(e.violatedDirective));
                  window.__printed = 0; window.print = () => { window.__printed += 1; }; }"""
            )
            # the stylesheet applied: the notes span two of the three columns, the title is 18pt (24px)
            assert page.eval_on_selector(".wide", "e => getComputedStyle(e).gridColumnStart") == "span 2"
            assert page.eval_on_selector("h1", "e => getComputedStyle(e).fontSize") == "24px"
            page.click("button[data-print]")
            page.wait_for_function("() => window.__printed === 1", timeout=DEADLINE * 1000)
            page.emulate_media(media="print")
            assert page.eval_on_selector(".noprint", "e => getComputedStyle(e).display") == "none"
            assert page.evaluate("() => window.__violations") == []
            assert refused == []
        finally:
            browser.close()


def test_the_print_stylesheet_ships_in_the_package():
    import fnmatch
    import pathlib
    import tomllib

    root = pathlib.Path(__file__).resolve().parents[2]
    globs = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert any(fnmatch.fnmatch("static/print.css", g) for g in globs["stkit.formats"])
    assert (root / "stkit" / "formats" / "static" / "print.css").is_file()
