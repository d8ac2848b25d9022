"""Take the screenshots docs/table.md shows (docs/images/table-storyteller.png, table-player.png) by running
the browser tests' fight night into docs/images. Run it by hand after a change to the pages:
`python tools/table_screenshots.py` (needs /usr/bin/chromium); the tests write theirs to a temporary folder."""

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
            finally:
                browser.close()


if __name__ == "__main__":
    main()
