"""`markergen normalize` / `validate` on a table generated from the example project."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from helpers import TESTDATA, run_cli


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("ex") / "example"
    shutil.copytree(TESTDATA / "example", dest)
    res = run_cli(["generate"], dest)
    assert res.code == 0, res.stderr
    return dest


def write(project: Path, name: str, text: str) -> str:
    (project / name).write_text(text)
    return name


def test_validate_reports_kubernetes_style_errors(project: Path) -> None:
    # the current KEP "Validation": the selected member must be set, the others unset.
    obj = write(project, "bad.yaml", "method: Email\nwebhook:\n  url: http://x\n")
    res = run_cli(["validate", "--type", "Delivery", obj], project)
    assert res.code == 1
    assert res.stdout.splitlines() == [
        'email: Required value: must be set when method is "Email"',
        'webhook: Forbidden: may only be set when method is "Webhook"',
    ]
    good = write(project, "good.yaml", "method: Webhook\n")  # webhook is optional
    assert run_cli(["validate", "--type", "Delivery", good], project).code == 0


def test_normalize_clears_members_when_the_discriminator_changes(project: Path) -> None:
    # the current KEP "Normalization": only when the discriminator changed.
    old = write(project, "old.json", json.dumps({"method": "Webhook", "webhook": {"url": "u"}}))
    new = write(project, "new.json", json.dumps({"method": "Email", "webhook": {"url": "u"},
                                                 "email": {"address": "a@b"}}))  # fmt: skip
    res = run_cli(["normalize", "--type", "Delivery", "--old", old, new], project)
    assert res.code == 0, res.stderr
    assert json.loads(res.stdout) == {"method": "Email", "email": {"address": "a@b"}}
    # Without an old object (a create) nothing is cleared, and validation then fails.
    res = run_cli(["normalize", "--type", "Delivery", new], project)
    assert json.loads(res.stdout)["webhook"] == {"url": "u"}


def test_bad_inputs_are_exit_2_with_location(project: Path) -> None:
    broken = write(project, "broken.json", '{"method": \n')
    res = run_cli(["validate", "--type", "Delivery", broken], project)
    assert res.code == 2 and "broken.json:2:1" in res.stderr
    res = run_cli(["validate", "--type", "NoSuchType", broken], project)
    assert res.code == 2 and "NoSuchType" in res.stderr
    res = run_cli(["validate", "--type", "Delivery", "--table", "missing.json", broken], project)
    assert res.code == 2 and "missing.json" in res.stderr and "Traceback" not in res.stderr


def test_validate_takes_a_yaml_stream_document_by_document(project: Path) -> None:
    # Examples are kept as YAML streams (kubectl applies them so): each document is
    # validated, and each error names the line its document starts on.
    stream = write(
        project,
        "stream.yaml",
        "method: Webhook\n---\nmethod: Email\nwebhook:\n  url: http://x\n---\n",
    )
    res = run_cli(["validate", "--type", "Delivery", stream], project)
    assert res.code == 1
    assert res.stdout.splitlines() == [
        'stream.yaml:3: email: Required value: must be set when method is "Email"',
        'stream.yaml:3: webhook: Forbidden: may only be set when method is "Webhook"',
    ]
    ok = write(project, "ok.yaml", "method: Webhook\n---\nmethod: Email\nemail: {}\n")
    assert run_cli(["validate", "--type", "Delivery", ok], project).code == 0
    # normalize writes one object: a stream is refused with a clear message.
    res = run_cli(["normalize", "--type", "Delivery", ok], project)
    assert res.code == 2 and "expected one object, found 2 YAML documents" in res.stderr
