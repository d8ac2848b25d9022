"""An operating-system error met while reading is not reported as a failed write."""

from __future__ import annotations

from tests.clirun import run


def test_a_card_database_path_too_long_is_named_without_cannot_write(tmp_path):
    res = run("tcg", "cards", "search", "rage", "--cards-db", str(tmp_path / ("x" * 5000)))
    assert res.exit_code == 1, res.output
    line = res.stderr.strip()
    assert line.startswith("Error: ") and "\n" not in line
    assert "cannot write" not in line and "too long" in line.lower()
