"""The current KEP "Discriminator Field": the version-skew cases #12, #16, #22, #23, #27, #28, #34, #39
as executable scenarios.

A newer table has member `c` (value "C") that the older table lacks. A typed client drops
the fields its table does not know before sending; an unstructured client sends what it
holds. The server prunes fields unknown to its table, normalizes against the live object,
then validates. With a discriminator no scenario loses data without an error; the
`*_without_discriminator` tests show what the KEP says happens otherwise.
Results are summarised in docs/skew.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markergen.runtime import FieldError, Table, normalize, validate

DATA = Path(__file__).resolve().parent.parent / "testdata" / "runtime"
NEWER = Table.load(DATA / "skew_server.json")
OLDER = Table.load(DATA / "skew_client.json")
NEWER_NODISC = Table.load(DATA / "skew_server_nodisc.json")
OLDER_NODISC = Table.load(DATA / "skew_client_nodisc.json")
T = "io.example.v1.Thing"
Obj = dict[str, Any]


def known(table: Table, obj: Obj) -> Obj:
    """What a party that only knows `table` keeps of an object (typed decode, or pruning)."""
    fields = table.type(T).fields
    return {k: v for k, v in obj.items() if k in fields}


def server_update(server: Table, live: Obj, sent: Obj) -> tuple[Obj, list[FieldError]]:
    incoming = known(server, sent)
    out = normalize(server, T, live, incoming)
    return out, validate(server, T, out, live)


def silently_lost(
    live: Obj, sent: Obj, out: Obj, errors: list[FieldError], cleared: set[str]
) -> set[str]:
    """Fields that were live or sent, that nobody asked to remove, and that are gone from the
    stored object without any error."""
    if errors:
        return set()
    had = set(live) | set(sent)
    return {k for k in had if k not in out and k not in cleared}


LIVE_C: Obj = {"name": "n", "type": "C", "c": {"x": 1}}


# --- #12 / #16: a client echoes back a union member it does not know -------------------------


def test_12_16_typed_client_echo_fails_loudly() -> None:
    """#12/#16: the typed client drops `c` but keeps type "C": the server sees an unchanged
    discriminator selecting an empty member and rejects the update instead of losing `c`."""
    sent = {**known(OLDER, LIVE_C), "name": "n2"}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert [str(e) for e in errors] == ['c: Required value: must be set when type is "C"']
    assert silently_lost(LIVE_C, sent, out, errors, set()) == set()


def test_12_16_unstructured_client_echo_keeps_member() -> None:
    sent = {**LIVE_C, "name": "n2"}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert errors == [] and out == {"name": "n2", "type": "C", "c": {"x": 1}}


def test_12_16_typed_client_echo_without_discriminator_loses_data() -> None:
    """What the KEP warns about: no discriminator, the unknown member silently disappears."""
    live = {"name": "n", "c": {"x": 1}}
    sent = {**known(OLDER_NODISC, live), "name": "n2"}
    out, errors = server_update(NEWER_NODISC, live, sent)
    assert silently_lost(live, sent, out, errors, set()) == {"c"}


# --- #22 / #27: a client clears the union while an unknown member is set -------------------


def test_22_27_unstructured_client_clears_union_with_none_value() -> None:
    """#22/#27: the unstructured client sets the discriminator to "" and cannot know `c` is
    a member; the server respects the discriminator and clears `c`."""
    sent = {**LIVE_C, "type": ""}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert errors == [] and out == {"name": "n", "type": ""}


def test_22_27_typed_client_clears_union() -> None:
    sent = {**known(OLDER, LIVE_C), "type": ""}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert errors == [] and out == {"name": "n", "type": ""}


def test_22_27_without_discriminator_union_cannot_be_cleared() -> None:
    """Without a discriminator the unstructured client has no way to say "clear": `c` stays."""
    live = {"name": "n", "c": {"x": 1}}
    out, errors = server_update(NEWER_NODISC, live, dict(live))
    assert errors == [] and out["c"] == {"x": 1}


# --- #23 / #28: a client sets a member it knows while an unknown one is set ----------------


def test_23_28_unstructured_client_switches_member() -> None:
    """#23/#28: the server always respects the discriminator: `a` wins, `c` is cleared."""
    sent = {**LIVE_C, "type": "A", "a": {"y": 2}}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert errors == [] and out == {"name": "n", "type": "A", "a": {"y": 2}}


def test_23_28_typed_client_switches_member() -> None:
    sent = {**known(OLDER, LIVE_C), "type": "A", "a": {"y": 2}}
    out, errors = server_update(NEWER, LIVE_C, sent)
    assert errors == [] and out == {"name": "n", "type": "A", "a": {"y": 2}}


def test_23_28_without_discriminator_is_rejected() -> None:
    """Without a discriminator kep1027 does not guess which member the client meant."""
    live = {"name": "n", "c": {"x": 1}}
    out, errors = server_update(NEWER_NODISC, live, {**live, "a": {"y": 2}})
    assert [e.path for e in errors] == ["c"]
    assert out == {"name": "n", "c": {"x": 1}, "a": {"y": 2}}  # nothing cleared by guessing


# --- #34 / #39: a newer client sets a member the older server does not know -----------------


def test_34_39_server_rejects_unknown_discriminator_value() -> None:
    """#34/#39: the server prunes `c`, but the discriminator value "C" is unknown to it, so
    it fails loudly instead of storing an object without the member the client set."""
    live = {"name": "n", "type": "A", "a": {"y": 2}}
    sent = {"name": "n", "type": "C", "c": {"x": 1}}
    out, errors = server_update(OLDER, live, sent)
    assert [str(e) for e in errors] == [
        'type: Unsupported value: "C": supported values: "", "A", "B"'
    ]
    assert silently_lost(live, sent, out, errors, {"a"}) == set()


def test_34_39_unstructured_client_keeping_old_member_is_rejected() -> None:
    live = {"name": "n", "type": "A", "a": {"y": 2}}
    sent = {**live, "type": "C", "c": {"x": 1}}
    out, errors = server_update(OLDER, live, sent)
    assert out["a"] == {"y": 2}  # unknown value: nothing cleared
    assert {e.type for e in errors} == {"NotSupported", "Forbidden"}


def test_34_39_without_discriminator_member_is_dropped_silently() -> None:
    live = {"name": "n", "a": {"y": 2}}
    sent = {"name": "n", "c": {"x": 1}}
    out, errors = server_update(OLDER_NODISC, live, sent)
    assert silently_lost(live, sent, out, errors, {"a"}) == {"c"}
