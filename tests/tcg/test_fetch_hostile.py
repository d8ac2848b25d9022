"""`stkit tcg cards fetch` against a hostile server on the loopback interface: JSON nested thousands deep,
numbers of 100,000 digits, and redirects to other schemes or hosts. Each is one line, exit 1, nothing
imported; a redirect on the same host is still followed."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.tcg.db import CardDB
from tests.tcg.loopback import serving

runner = CliRunner()
ENV = {"NO_COLOR": "1", "COLUMNS": "300"}
GOOD = b'[{"Name": "Bite", "Type": "Combat", "Rage": 2}]'
FILES = {
    "/good.json": GOOD,
    "/deep-list.json": b"[" * 100_000 + b"]" * 100_000,
    "/deep-map.json": b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    # under Python's recursion limit, over the list's own: json.dumps of it later would still recurse
    "/deep-900.json": b'[{"Name": "Bite", "Text": ' + b"[" * 900 + b"]" * 900 + b"}]",
    "/big-int.json": b'[{"Name": "Bite", "Rage": ' + b"9" * 100_000 + b"}]",
    "/big-float.json": b'[{"Name": "Bite", "Rage": 1.' + b"5" * 100_000 + b"}]",
}
REDIRECTS = {
    "/to-ftp": "ftp://127.0.0.1/cards.json",
    "/to-file": "file:///etc/passwd",
    "/to-other-host": "http://localhost:{port}/good.json",
    "/to-same-host": "/good.json",
    "/to-hostile-text": "http://evil[red]x[/red]\x1b]0;owned\x07.example/" + "a" * 5000,
}


@pytest.fixture(scope="module")
def server():
    with serving(FILES, REDIRECTS) as url:
        yield url


def _fetch(url: str):
    return runner.invoke(app, ["tcg", "cards", "fetch", "--url", url], env=ENV)


def _one_line_error(result, *parts: str) -> str:
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert "\x1b" not in result.stderr and "\x07" not in result.stderr
    for part in parts:
        assert part in lines[0]
    return lines[0]


def _nothing_imported(db_path):
    if db_path.exists():
        with CardDB(db_path) as db:
            assert db.imported_count() == 0


@pytest.mark.parametrize("path", ["/deep-list.json", "/deep-map.json", "/deep-900.json"])
def test_json_nested_deep_is_one_line(server, path, _cards_db_in_tmp):
    _one_line_error(_fetch(server + path), f"{server}{path}: the JSON is nested more than 20 levels deep")
    _nothing_imported(_cards_db_in_tmp)


@pytest.mark.parametrize("path", ["/big-int.json", "/big-float.json"])
def test_a_number_of_100000_digits_is_one_line(server, path, _cards_db_in_tmp):
    line = _one_line_error(_fetch(server + path), f"{server}{path}: the JSON holds a number")
    assert "; allowed: at most 100; nothing imported" in line and len(line) < 300
    _nothing_imported(_cards_db_in_tmp)


@pytest.mark.parametrize(
    ("path", "why"),
    [
        ("/to-ftp", "ftp://127.0.0.1/cards.json, which is not an http:// or https:// address"),
        ("/to-file", "file:///etc/passwd, which is not an http:// or https:// address"),
        ("/to-other-host", "which is on another host than 127.0.0.1; give it with --url if you trust it"),
    ],
)
def test_a_redirect_elsewhere_is_refused_and_named(server, path, why, _cards_db_in_tmp):
    _one_line_error(_fetch(server + path), f"{server}{path}: the server redirects to ", why, "nothing imported")
    _nothing_imported(_cards_db_in_tmp)


def test_a_redirect_naming_hostile_text_is_shown_escaped_and_short(server, _cards_db_in_tmp):
    line = _one_line_error(_fetch(server + "/to-hostile-text"), "the server redirects to")
    assert "owned" in line and "\\x1b" in line  # shown, escaped
    assert len(line) < 600


def test_a_redirect_on_the_same_host_is_followed(server, _cards_db_in_tmp):
    result = _fetch(server + "/to-same-host")
    assert result.exit_code == 0, result.output
    with CardDB(_cards_db_in_tmp) as db:
        assert db.imported_count() == 1
        assert db.exact("Bite") is not None


def test_json_numbers_reach_the_plugin_rows_as_written(server, _cards_db_in_tmp):
    from stkit.tcg.fetch import plugin_bytes

    text = plugin_bytes(b'[{"Name": "Bite", "Rage": 2, "Gnosis": 1.50, "Health": NaN}]', "x").decode()
    row = dict(zip(*(line.split("\t") for line in text.splitlines()), strict=True))
    assert (row["Rage"], row["Gnosis"], row["Health"]) == ("2", "1.50", "NaN")


@pytest.mark.parametrize(
    "url",
    [
        "http://[red]x/",
        "http://a:x/",
        "http://a:99999999/",
        "http://\x1b[2J/",
        "http://a/\x1b]0;t\x07",
        "http://a/\u202e",
    ],
)
def test_a_malformed_url_is_one_line(url, _cards_db_in_tmp):
    _one_line_error(_fetch(url), "--url '", "is not an http:// or https:// address of a card list")


@pytest.mark.parametrize(
    ("old", "new", "refused"),
    [
        ("http://a.example/x", "http://a.example/y", None),
        ("http://a.example/x", "https://a.example/y", None),  # the usual upgrade
        ("http://a.example:8000/x", "http://a.example:8000/y", None),
        ("http://a.example/x", "http://a.example:22/y", "another port"),
        ("http://a.example:8000/x", "https://a.example/y", "another port"),
        ("https://a.example/x", "http://a.example/y", "plain http"),
        ("http://a.example/x", "http://b.example/y", "another host"),
        ("http://a.example/x", "gopher://a.example/y", "not an http"),
        ("http://a.example/x", "http://[zz]/y", "not a well-formed address"),
    ],
)
def test_which_redirects_are_followed(old, new, refused):
    from stkit.tcg.fetch import _refused_redirect

    reason = _refused_redirect(old, new)
    assert (reason is None) if refused is None else (refused in reason)
