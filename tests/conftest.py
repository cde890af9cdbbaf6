"""Session fixtures shared by the test files, and the no-skip policy of CI.

`kube` is the real CRD API server (tests/kubeserver.py): built from harness/ with Go and
started once per test session; `controller_gen` is controller-gen (controller-tools
v0.23.0, harness/controller-gen), built once per session. Without Go the tests that use
them skip, saying what to install; with `MARKERGEN_NO_SKIP=1` (set by `.ci/run`;
tests/test_ci_run.py) every skip fails instead, so CI never passes on a test it did not
run.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import kubeserver
import pytest

NO_SKIP = "MARKERGEN_NO_SKIP"


@pytest.fixture(scope="session")
def kube() -> Iterator[kubeserver.Server]:
    try:
        kubeserver.go()
    except kubeserver.Unavailable as err:
        pytest.skip(str(err))
    server = kubeserver.Server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def controller_gen() -> Path:
    try:
        kubeserver.go()
    except kubeserver.Unavailable as err:
        pytest.skip(str(err))
    return kubeserver.build("controller-gen")


def _forbid_skip(report: pytest.TestReport | pytest.CollectReport) -> None:
    if report.skipped and os.environ.get(NO_SKIP) == "1" and not hasattr(report, "wasxfail"):
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = f"skipped, and {NO_SKIP}=1 forbids skips: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    _forbid_skip(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Iterator[None]:
    # A whole module skipped at import (pytest.importorskip, allow_module_level=True).
    outcome = yield
    _forbid_skip(outcome.get_result())
