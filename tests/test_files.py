"""The one input-file check (``dinecheck.files``): regular readable files pass; anything else is named, never opened."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from dinecheck.errors import DataError, SpecError
from dinecheck.files import optional_file, require_file


def _fifo(tmp_path: Path) -> Path:
    p = tmp_path / "pipe"
    os.mkfifo(p)
    return p


def test_a_regular_file_passes(tmp_path: Path) -> None:
    f = tmp_path / "a.jsonl"
    f.write_text("{}\n")
    assert require_file(f) == f and optional_file(str(f)) == f
    link = tmp_path / "link"
    link.symlink_to(f)
    assert require_file(link) == link  # a link to a regular file is fine


@pytest.mark.parametrize(
    ("make", "why"),
    [
        (lambda t: t, "is a directory, not a file"),
        (_fifo, "is a named pipe (FIFO), not a regular file"),
        (lambda t: (t / "dangling").symlink_to(t / "gone") or t / "dangling",
         "is a symbolic link to a file that does not exist"),
    ],
    ids=["directory", "fifo", "dangling-symlink"],
)
def test_what_exists_but_is_not_a_regular_file_is_an_error_naming_it(tmp_path: Path, make, why: str) -> None:
    p = make(tmp_path)
    for check in (require_file, optional_file):
        with pytest.raises(DataError) as ei:
            check(p)
        assert (ei.value.location, ei.value.reason) == (str(p), why)


def test_a_socket_is_not_a_regular_file(tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(DataError, match="is a socket, not a regular file"):
            require_file(path)


def test_absent_is_an_error_only_when_required(tmp_path: Path) -> None:
    with pytest.raises(SpecError) as ei:
        require_file(tmp_path / "no.json", SpecError)
    assert str(ei.value) == f"{tmp_path / 'no.json'}: no such file"
    assert optional_file(tmp_path / "no.json") is None
    f = tmp_path / "f"
    f.write_text("x")
    assert optional_file(f / "below") is None  # a parent that is a file: nothing can exist there


def test_an_unreadable_file_is_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "secret.jsonl"
    f.write_text("{}\n")
    f.chmod(0)
    if os.access(f, os.R_OK):  # root reads anything: simulate what another user sees
        monkeypatch.setattr(os, "access", lambda path, mode: False)
    with pytest.raises(DataError) as ei:
        require_file(f)
    assert str(ei.value) == f"{f}: cannot be read (permission denied)"
