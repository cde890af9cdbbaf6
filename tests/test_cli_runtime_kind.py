"""Issue 39 item 3: `validate --type Delivery` (or `normalize`) given a whole Guestbook
reports the Delivery errors of the wrong object; the run says on stderr that the object's
own kind is Guestbook, and how to check it as one. The real command line on a table
generated from the example project."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli

GUESTBOOK = """apiVersion: webapp.example.com/v1
kind: Guestbook
metadata:
  name: g
spec:
  delivery:
    method: Webhook
"""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("ex") / "example"
    shutil.copytree(TESTDATA / "example", dest)
    res = run_cli(["generate"], dest)
    assert res.code == 0, res.stderr
    (dest / "guestbook.yaml").write_text(GUESTBOOK)
    (dest / "delivery.yaml").write_text("method: Webhook\n")
    return dest


@pytest.mark.parametrize("command", ["validate", "normalize"])
def test_an_object_of_another_kind_is_named(project: Path, command: str) -> None:
    res = run_cli([command, "--type", "Delivery", "guestbook.yaml"], project)
    if command == "validate":
        assert res.code == 1, res.stderr
        assert "method: Required value" in res.stdout  # the Delivery checked at the top
    notes = [line for line in res.stderr.splitlines() if "note:" in line]
    assert len(notes) == 1, res.stderr
    assert "guestbook.yaml:1: the object is a Guestbook (webapp.example.com/v1)" in notes[0]
    assert "checked as type Delivery" in notes[0] and "`--type Guestbook`" in notes[0]


def test_the_suggested_type_checks_the_whole_object(project: Path) -> None:
    res = run_cli(["validate", "--type", "Guestbook", "guestbook.yaml"], project)
    assert res.code == 0, res.stdout + res.stderr
    assert "note:" not in res.stderr


def test_a_value_without_kind_gets_no_note(project: Path) -> None:
    res = run_cli(["validate", "--type", "Delivery", "delivery.yaml"], project)
    assert res.code == 0 and "note:" not in res.stderr, res.stderr
