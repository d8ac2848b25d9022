"""`stkit serve --certfile/--keyfile` given what is not a PEM file: one line saying what the path is (a device,
a FIFO, a folder, a name too long), never 'no such file' for a file that exists nor 'cannot write' for a read;
a FIFO never blocks the start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stkit.cli.serve import check_tls
from stkit.errors import StkitError


def _refusal(path: str) -> str:
    with pytest.raises(StkitError) as refused:
        check_tls(path, path)
    message = str(refused.value)
    assert "\n" not in message
    return message


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_device_is_named_as_a_device(tmp_path):
    assert _refusal("/dev/zero") == "--certfile: /dev/zero: is a device, not a regular file"
    link = tmp_path / "cert.pem"
    link.symlink_to("/dev/zero")
    assert _refusal(str(link)) == f"--certfile: {link}: is a device, not a regular file"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_and_a_folder_are_named(tmp_path):
    fifo = tmp_path / "cert.pem"
    os.mkfifo(fifo)
    assert _refusal(str(fifo)) == f"--certfile: {fifo}: is a named pipe (FIFO), not a regular file"
    assert _refusal(str(tmp_path)) == f"--certfile: {tmp_path}: is a folder, not a regular file"


def test_a_missing_file_and_a_name_too_long(tmp_path):
    assert _refusal(str(tmp_path / "none.pem")) == f"--certfile: {tmp_path / 'none.pem'}: no such file"
    long = "x" * 5000
    message = _refusal(long)
    assert message.startswith("--certfile: xxx") and "cannot read: File name too long" in message
    assert "cannot write" not in message and len(message) < 400
