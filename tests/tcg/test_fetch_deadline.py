"""`stkit tcg cards fetch --timeout`: a deadline for the whole download, against real loopback servers
that drip a byte at a time (no single read ever times out) or redirect in a loop."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from stkit.cli.app import app
from stkit.tcg.fetch import FetchError, download
from tests.drip import Dripper, ends_within
from tests.tcg.loopback import serving


@pytest.fixture
def dripper():
    d = Dripper(every=0.2)
    yield d
    d.close()


def test_a_byte_a_second_server_meets_the_whole_download_deadline(dripper):
    kind, found = ends_within(lambda: download(dripper.url + "/cards.json", timeout=1))
    assert kind == "raised" and isinstance(found, FetchError)
    assert (
        str(found)
        == f"{dripper.url}/cards.json: the download did not finish within --timeout 1 seconds; nothing imported"
    )


def test_the_command_says_so_in_one_line(dripper, _cards_db_in_tmp):
    def run():
        return CliRunner().invoke(
            app, ["tcg", "cards", "fetch", "--url", dripper.url, "--timeout", "1"], env={"NO_COLOR": "1"}
        )

    kind, result = ends_within(run)
    assert kind == "ok" and result.exit_code == 1, result.output
    assert "did not finish within --timeout 1 seconds" in result.output
    assert "Traceback" not in result.output


def test_a_redirect_loop_is_one_line():
    with serving({}, {"/loop": "/loop"}, redirect_code=308) as base:
        url = base + "/loop"
        with pytest.raises(FetchError) as caught:
            download(url, timeout=10)
    line = str(caught.value)
    assert "\n" not in line and "\\n" not in line and line.startswith(f"{url}: the server answered 308 ")
