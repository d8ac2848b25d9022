"""The table server's templates and static files ship in the package (setuptools package-data), and htmx
is served from it, never from a CDN."""

from __future__ import annotations

import fnmatch
import pathlib
import tomllib

ROOT = pathlib.Path(__file__).resolve().parents[2]
WEB = ROOT / "stkit" / "web"


def test_every_template_and_static_file_is_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    globs = data["stkit.web"] + data["*"]
    files = [p.relative_to(WEB).as_posix() for p in WEB.rglob("*") if p.is_file() and p.suffix != ".py"]
    files = [f for f in files if "__pycache__" not in f]
    assert {"static/htmx.min.js", "static/table.js", "static/manifest.webmanifest", "templates/page.html"} <= set(files)
    assert [f for f in files if not any(fnmatch.fnmatch(f, g) for g in globs)] == []


def test_pages_load_scripts_from_the_package_only():
    html = "".join(p.read_text() for p in (WEB / "templates").glob("*.html"))
    assert "http://" not in html and "https://" not in html
    assert '<script src="/static/htmx.min.js"' in html and '<script src="/static/table.js"' in html


def test_no_inline_script_or_style_in_any_template():
    """The pages' Content-Security-Policy allows scripts and styles from the server's own files only."""
    import re

    html = "".join(p.read_text() for p in (WEB / "templates").glob("*.html"))
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # every script is a file
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"\son[a-z]+=", html)  # no onclick= and the like
    assert "hx-on" not in html
