"""Take the screenshots docs/table.md shows (docs/images/table-storyteller.png, table-player.png) by running
the browser tests' fight night into docs/images, and the creation pickers at 390 px (table-create-pickers.png).
Run it by hand after a change to the pages: `python tools/table_screenshots.py` (needs /usr/bin/chromium);
the tests write theirs to a temporary folder."""

from __future__ import annotations

import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    from playwright.sync_api import sync_playwright

    from tests.web.test_browser import ARGS, CHROMIUM, fight_night, make_store

    with tempfile.TemporaryDirectory() as tmp:
        url = "sqlite:///" + str(pathlib.Path(tmp) / "table.sqlite")
        make_store(url)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
            try:
                fight_night(browser, url, ROOT / "docs" / "images")
                creation(browser, url, ROOT / "docs" / "images" / "table-create-pickers.png")
            finally:
                browser.close()


def creation(browser, url: str, path: pathlib.Path) -> None:
    """The Storyteller's guided creation at its Attributes step, on a 390 px phone, a few dots placed."""
    from tests.web.test_browser import Server

    server = Server(url)
    try:
        page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
        page.goto(server.links["storyteller"])
        page.goto(server.base + "/create")
        page.fill("#pick-name", "Sees-Far")
        for field, value in (("breed", "Homid"), ("auspice", "Ahroun"), ("tribe", "Get of Fenris")):
            page.select_option(f"#pick-{field}", value)
        page.click("button.primary")
        for trait, value in (("Strength", "4"), ("Dexterity", "3"), ("Stamina", "3"), ("Charisma", "3")):
            page.select_option(f"select[name='f:{trait}']", value)
        page.screenshot(path=str(path))
        page.context.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
