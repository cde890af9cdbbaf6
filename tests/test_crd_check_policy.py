"""`markergen crd` holds back a union's rules (MG506) only for an error `markergen check`
reports, after the project's `// markergen:ignore` comments and `severity:` settings, and
cites it in check's own words: an error check does not report never blocks a union."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers import TESTDATA, run_main

CRD = Path("config/crd/bases/webapp.example.com_guestbooks.yaml")
WEBHOOK_MARKER = (
    "\t// webhook posts entries to a URL; unset means the cluster's default webhook.\n"
    "\t// +unionMember,optional\n"
)
# Webhook selects Email too: MG304, an error of `markergen check` inside union Delivery
SAME_VALUE = WEBHOOK_MARKER.replace("+unionMember,optional", "+unionMember=Email,optional")
IGNORED = SAME_VALUE.replace(
    "\t// +unionMember=", "\t// markergen:ignore MG304 released with this value\n\t// +unionMember="
)


@pytest.fixture
def example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dest = tmp_path / "example"
    shutil.copytree(TESTDATA / "example", dest)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    return dest


def _member(root: Path, text: str) -> None:
    types = root / "api" / "v1" / "union_types.go"
    source = types.read_text(encoding="utf-8")
    assert WEBHOOK_MARKER in source
    types.write_text(source.replace(WEBHOOK_MARKER, text), encoding="utf-8")


def _check(root: Path) -> list[dict[str, object]]:
    r = run_main(["check", "--format", "json", "--no-cache"], cwd=root)
    found: list[dict[str, object]] = json.loads(r.stdout)
    return found


def _crd(root: Path) -> tuple[int, str]:
    r = run_main(["crd", "--no-cache"], cwd=root)
    return r.code, r.stderr


def _delivery_rules(root: Path) -> list[str]:
    crd = yaml.safe_load((root / CRD).read_text(encoding="utf-8"))
    schema = crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"]
    node = schema["properties"]["spec"]["properties"]["delivery"]
    return [r["message"] for r in node.get("x-kubernetes-validations", [])]


def test_crd_cites_checks_error_in_checks_words(example: Path) -> None:
    _member(example, SAME_VALUE)
    (error,) = [d for d in _check(example) if d["severity"] == "error"]
    assert error["code"] == "MG304"
    code, err = _crd(example)
    said = (
        f"`markergen check` reports MG304 at {error['file']}:{error['line']}:{error['column']}: "
        f"{error['message']}; no rules written"
    )
    assert said in err and code == 0
    assert _delivery_rules(example) == []


def test_an_ignored_error_is_ignored_by_crd_too(example: Path) -> None:
    _member(example, IGNORED)
    assert [d for d in _check(example) if d["severity"] == "error"] == []
    code, err = _crd(example)
    assert code == 0 and "MG304" not in err and "`markergen check` reports" not in err
    assert any(m.endswith("(union Delivery.method)") for m in _delivery_rules(example))


def test_an_error_turned_into_a_warning_blocks_nothing(example: Path) -> None:
    _member(example, SAME_VALUE)
    (example / "markergen.yaml").write_text("severity:\n  MG304: warning\n", encoding="utf-8")
    found = _check(example)
    assert [d["code"] for d in found if d["severity"] == "error"] == []
    assert "MG304" in [d["code"] for d in found]
    code, err = _crd(example)
    assert code == 0 and "`markergen check` reports" not in err
    assert any(m.endswith("(union Delivery.method)") for m in _delivery_rules(example))


def test_a_warning_turned_into_an_error_blocks_its_union(example: Path) -> None:
    """MG201 (a warning by default) inside union Notification: as an error, check fails
    on it and crd writes no rules for that union, saying so in check's words."""
    (example / "markergen.yaml").write_text("severity:\n  MG201: error\n", encoding="utf-8")
    (error,) = [d for d in _check(example) if d["severity"] == "error"]
    assert error["code"] == "MG201"
    _, err = _crd(example)
    assert (
        f"`markergen check` reports MG201 at {error['file']}:{error['line']}:{error['column']}: "
        f"{error['message']}; no rules written"
    ) in err


@pytest.mark.parametrize("command", [["check", "--no-cache"], ["crd", "--no-cache"]])
def test_the_rules_run_once_per_run(
    example: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    import markergen.rules as rules

    runs: list[int] = []
    real = rules.run_rules

    def counted(*args: Any, **kwargs: Any) -> Any:
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(rules, "run_rules", counted)
    _member(example, SAME_VALUE)
    r = run_main(command, cwd=example)
    assert "MG304" in r.stdout + r.stderr  # the rules did run, and their error is reported
    assert len(runs) == 1


def test_a_crd_run_is_not_served_stale_after_a_severity_change(example: Path) -> None:
    _member(example, SAME_VALUE)
    first = run_main(["crd", "--verify"], cwd=example)
    assert "`markergen check` reports MG304" in first.stderr
    (example / "markergen.yaml").write_text("severity:\n  MG304: warning\n", encoding="utf-8")
    second = run_main(["crd", "--verify"], cwd=example)
    assert "`markergen check` reports" not in second.stderr
    assert "(union Delivery.method)" in second.stdout  # the rules it would now write


@pytest.mark.parametrize(
    ("level", "severity", "code"),
    [("error", "error", 1), ("info", "info", 0), ("warning", "warning", 0)],
)
def test_crd_reports_its_own_findings_at_the_severity_the_project_sets(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, level: str, severity: str, code: int
) -> None:
    # crd's own MG508 (a hand-written rule allows what the union's rule would reject) is
    # a warning unless `severity:` says otherwise, as check's findings are
    root = tmp_path / "relay"
    shutil.copytree(TESTDATA / "crdwant" / "mg508-bad", root)
    (root / "markergen.yaml").write_text(f"severity:\n  MG508: {level}\n", encoding="utf-8")
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    r = run_main(["crd", "--server", "off", "--no-cache"], cwd=root)
    found = [line for line in r.stderr.splitlines() if " MG508: " in line]
    assert len(found) == 1, r.stderr
    assert f": {severity} MG508: " in found[0]
    assert r.code == code


def test_crd_drops_its_own_findings_a_project_turns_off(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "relay"
    shutil.copytree(TESTDATA / "crdwant" / "mg508-bad", root)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    before = run_main(["crd", "--server", "off", "--no-cache"], cwd=root)
    assert " MG508: " in before.stderr
    (root / "markergen.yaml").write_text("severity:\n  MG508: off\n", encoding="utf-8")
    after = run_main(["crd", "--server", "off", "--no-cache"], cwd=root)
    assert " MG508: " not in after.stderr
    assert after.code == 0


# Ignore comments on CRD findings: a finding about a union or a member is silenced by an
# ignore comment at that Go place, in both commands, and the comment counts as used.

RELAY_TYPES = Path("api/v1/relay_types.go")
TLS_MEMBER = "\t// tls configures TLS.\n"
MODE_DISCRIMINATOR = "\t// mode selects how to connect.\n"


def _relay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fixture: str) -> Path:
    root = tmp_path / "relay"
    shutil.copytree(TESTDATA / "crdwant" / fixture, root)
    monkeypatch.setenv("MARKERGEN_CACHE_DIR", str(tmp_path / "cache"))
    return root


def _ignore(root: Path, above: str, codes: str) -> int:
    """An ignore comment of `codes` in the doc comment that starts with `above`; its line."""
    path = root / RELAY_TYPES
    source = path.read_text(encoding="utf-8")
    assert above in source
    path.write_text(
        source.replace(above, f"{above}\t// markergen:ignore {codes} kept as released\n"),
        encoding="utf-8",
    )
    return source[: source.index(above)].count("\n") + 2


def _codes(found: list[dict[str, object]]) -> list[tuple[object, object]]:
    return sorted((d["code"], d["line"]) for d in found)


def _crd_codes(root: Path) -> tuple[int, list[str]]:
    r = run_main(["crd", "--server", "off", "--no-cache"], cwd=root)
    return r.code, [
        line.split(": ")[1].split()[-1] for line in r.stderr.splitlines() if " MG" in line
    ]


def test_an_ignore_that_silences_only_a_crd_finding_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _relay(tmp_path, monkeypatch, "mg508-bad")
    assert [d["code"] for d in _check(root)] == ["MG508"]
    _ignore(root, TLS_MEMBER, "MG508")
    assert _check(root) == []  # neither the MG508 nor an MG010 for the comment
    assert _crd_codes(root) == (0, [])


def test_an_ignore_in_the_structs_comment_covers_its_unions_findings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _relay(tmp_path, monkeypatch, "mg508-bad")
    _ignore(root, "// Endpoint is where a relay connects.\n", "MG508")
    assert _check(root) == []
    assert _crd_codes(root) == (0, [])


def test_an_ignore_of_a_crd_code_that_silences_nothing_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MG508 is about member tls: a comment on the discriminator does not cover it
    root = _relay(tmp_path, monkeypatch, "mg508-bad")
    line = _ignore(root, MODE_DISCRIMINATOR, "MG508")
    found = _check(root)
    assert ("MG010", line) in _codes(found)
    assert [d["code"] for d in found].count("MG508") == 1
    (unused,) = [d for d in found if d["code"] == "MG010"]
    assert "no MG508 is reported on the lines it covers" in str(unused["message"])
    assert _crd_codes(root) == (0, ["MG508"])


def test_an_ignore_of_a_finding_only_crd_reports_is_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MG509 (hand-written rules already enforce the union) is crd's alone, about the
    # union: its discriminator's field
    root = _relay(tmp_path, monkeypatch, "mg509-bad")
    assert _crd_codes(root) == (0, ["MG509"])
    _ignore(root, MODE_DISCRIMINATOR, "MG509")
    assert _check(root) == []
    assert _crd_codes(root) == (0, [])


def test_one_ignore_silences_both_codes_of_one_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # MG510 (crd) and MG511 (check) are one finding: a comment naming both uses both
    root = _relay(tmp_path, monkeypatch, "mg510-bad")
    _ignore(root, "\t// tls configures TLS.\n", "MG510,MG511")
    assert _check(root) == []
    assert _crd_codes(root) == (0, [])


def test_an_ignore_of_a_crd_code_without_crds_silences_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _relay(tmp_path, monkeypatch, "mg508-bad")
    shutil.rmtree(root / "config")
    line = _ignore(root, TLS_MEMBER, "MG508")
    assert _codes(_check(root)) == [("MG010", line)]


def test_an_unused_ignore_of_a_crd_code_blocks_no_union(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its MG010 is known only once the plan is made: as an error (warnings-as-errors)
    check reports it, and crd still writes the union's rules."""
    root = _relay(tmp_path, monkeypatch, "mg508-good")
    (root / "markergen.yaml").write_text("warnings-as-errors: true\n", encoding="utf-8")
    line = _ignore(root, TLS_MEMBER, "MG512")
    found = _check(root)
    assert [(d["code"], d["line"], d["severity"]) for d in found] == [("MG010", line, "error")]
    code, said = _crd_codes(root)
    assert "MG506" not in said and code == 0
