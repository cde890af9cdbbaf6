"""Every rule of the classification table of docs/diff.md, each on a before/after pair
of Go sources written to disk and read by the real front end.

Each expected class follows the Kubernetes API change conventions ("Changing the API",
quoted in docs/diff.md), written from that text, not from the tool's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import TESTDATA

from markergen.diff import run_diff

ROOT = Path(__file__).resolve().parent.parent
Row = tuple[str, str, str, str | None]

PRELUDE = """package {pkg}

// Method selects how an order is paid.
// +enum
type Method string

const (
	MethodCard Method = "Card"
	MethodCash Method = "Cash"
)

type Card struct {{
	Number string `json:"number"`
}}

type Cash struct {{
	Currency string `json:"currency"`
}}
"""

# the current KEP (KEP-1027) discriminated union; the members must be set when selected.
PAYMENT = """
type Payment struct {
	// +unionDiscriminator
	// +required
	Method Method `json:"method"`
	// +unionMember
	// +optional
	Card *Card `json:"card,omitempty"`
	// +unionMember
	// +optional
	Cash *Cash `json:"cash,omitempty"`
}
"""


def src(body: str, pkg: str = "v1") -> str:
    return PRELUDE.format(pkg=pkg) + body


def module(root: Path, files: dict[str, str], path: str = "example.com/shop") -> Path:
    (root).mkdir(parents=True)
    (root / "go.mod").write_text(f"module {path}\n\ngo 1.22\n")  # a case may give its own
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def diff_rows(tmp_path: Path, before: dict[str, str], after: dict[str, str]) -> set[Row]:
    base = module(tmp_path / "base", before)
    head = module(tmp_path / "head", after)
    result = run_diff(str(base), str(head), tmp_path, "json")
    return {(c.classification, c.kind, c.go_type, c.field) for c in result.changes}


def one(body: str, module_path: str = "") -> dict[str, str]:
    files = {"api/v1/types.go": src(body)}
    if module_path:
        files["go.mod"] = f"module {module_path}\n\ngo 1.22\n"
    return files


def edit(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


WITH_VOUCHER = edit(
    edit(
        PAYMENT,
        "\n}\n",
        '\n\t// +unionMember\n\t// +optional\n\tVoucher *string `json:"voucher,omitempty"`\n}\n',
    ),
    "",
    "",
)
METHOD_VOUCHER = '\tMethodCash Method = "Cash"\n\tMethodVoucher Method = "Voucher"\n'
PLAIN_VOUCHER = PAYMENT.replace(
    "\n}\n", '\n\t// +optional\n\tVoucher *string `json:"voucher,omitempty"`\n}\n'
)
EMPTY_VALUE = '\tMethodCash Method = "Cash"\n\tMethodNone Method = "None"\n'
K8S_ONE_OF = """
type Payment struct {
	// +k8s:zeroOrOneOfMember
	// +optional
	Card *Card `json:"card,omitempty"`
	// +k8s:zeroOrOneOfMember
	// +optional
	Cash *Cash `json:"cash,omitempty"`
}
"""
K8S_EXACTLY_ONE = K8S_ONE_OF.replace("zeroOrOneOfMember", "unionMember")
K8S_DISCRIMINATED = K8S_EXACTLY_ONE.replace(
    "type Payment struct {\n",
    "type Payment struct {\n\t// +k8s:unionDiscriminator\n\t// +required\n"
    '\tMethod Method `json:"method"`\n',
)
CASH_MEMBER = '\t// +unionMember\n\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n'
KEP2022 = PAYMENT.replace('Method Method `json:"method"`', 'Method string `json:"method"`')
KEP2019 = """
// +union
type Payment struct {
	// +unionDiscriminator
	// +optional
	Method *string `json:"method,omitempty"`
	// +optional
	Card *Card `json:"card,omitempty"`
	// +optional
	Cash *Cash `json:"cash,omitempty"`
}
"""
PLAIN_FIELDS = """
type Payment struct {
	// +optional
	Card *Card `json:"card,omitempty"`
	// +optional
	Cash *Cash `json:"cash,omitempty"`
}
"""
# admissionregistration's Mutation: the discriminator's members are not marked.
MUTATION = """
type Mutation struct {
	// +unionDiscriminator
	PatchType Method `json:"patchType"`
	// +optional
	Card *Card `json:"card,omitempty"`
	// +optional
	Cash *Cash `json:"cash,omitempty"`
}
"""
PRIORITY = """
type Priority string

const (
	PriorityLow  Priority = "Low"
	PriorityHigh Priority = "High"
)

type Order struct {
	Priority Priority `json:"priority"`
}
"""


def with_method(prelude_edit: tuple[str, str], body: str) -> dict[str, str]:
    return {"api/v1/types.go": edit(src(body), *prelude_edit)}


CASES: dict[str, tuple[dict[str, str], dict[str, str], set[Row]]] = {
    # "it is acceptable to add a new option to the union" (Backward compatibility gotchas)
    "member-added/compatible": (
        one(PAYMENT),
        with_method(('\tMethodCash Method = "Cash"\n', METHOD_VOUCHER), WITH_VOUCHER),
        {("compatible", "member-added", "Payment", "voucher")},
    ),
    # An existing field joins the union: objects that set it with another member fail.
    "member-added/breaking": (
        one(PLAIN_VOUCHER),
        with_method(('\tMethodCash Method = "Cash"\n', METHOD_VOUCHER), WITH_VOUCHER),
        {("breaking", "member-added", "Payment", "voucher")},
    ),
    "member-added/breaking-empty-value": (
        with_method(('\tMethodCash Method = "Cash"\n', EMPTY_VALUE), PAYMENT),
        with_method(
            ('\tMethodCash Method = "Cash"\n', EMPTY_VALUE),
            PAYMENT.replace(
                "\n}\n", '\n\t// +unionMember\n\tNone *string `json:"none,omitempty"`\n}\n'
            ),
        ),
        {("breaking", "member-added", "Payment", "none")},
    ),
    "enum-value-added/compatible": (
        one(PAYMENT + PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")),
        with_method(
            ('\tMethodCash Method = "Cash"\n', EMPTY_VALUE),
            PAYMENT
            + PRIORITY.replace("type Priority string", "// +enum\ntype Priority string").replace(
                '"High"\n', '"High"\n\tPriorityUrgent Priority = "Urgent"\n'
            ),
        ),
        {
            ("compatible", "enum-value-added", "Payment", "method"),
            ("compatible", "enum-value-added", "Order", "priority"),
        },
    ),
    # "Removing an option requires following the deprecation process"
    "member-removed/breaking": (
        one(PAYMENT),
        one(
            PAYMENT.replace(
                '\t// +unionMember\n\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n', ""
            )
        ),
        {("breaking", "member-removed", "Payment", "cash")},
    ),
    "member-renamed/breaking": (
        one(PAYMENT),
        one(
            PAYMENT.replace(
                'Cash *Cash `json:"cash,omitempty"`', 'Coins *Cash `json:"coins,omitempty"`'
            ).replace(
                "\t// +unionMember\n\t// +optional\n\tCoins",
                "\t// +unionMember=Cash\n\t// +optional\n\tCoins",
            )
        ),
        {("breaking", "member-renamed", "Payment", "coins")},
    ),
    # "valid values do not become invalid"
    "enum-value-removed/breaking": (
        one(PAYMENT + PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")),
        one(
            PAYMENT
            + PRIORITY.replace("type Priority string", "// +enum\ntype Priority string").replace(
                '\tPriorityHigh Priority = "High"\n', ""
            )
        ),
        {("breaking", "enum-value-removed", "Order", "priority")},
    ),
    "discriminator-removed/breaking": (
        one(MUTATION),
        one(
            MUTATION.replace(
                '\t// +unionDiscriminator\n\tPatchType Method `json:"patchType"`\n', ""
            )
        ),
        {("breaking", "union-removed", "Mutation", "patchType")},
    ),
    "discriminator-removed/breaking-k8s": (
        one(K8S_DISCRIMINATED),
        one(K8S_EXACTLY_ONE),
        {("breaking", "discriminator-removed", "Payment", "method")},
    ),
    # Only the marker goes, the field stays: validation is relaxed.
    "discriminator-removed/compatible": (
        one(K8S_DISCRIMINATED),
        one(K8S_DISCRIMINATED.replace("\t// +k8s:unionDiscriminator\n", "")),
        {("compatible", "discriminator-removed", "Payment", "method")},
    ),
    "discriminator-renamed/breaking": (
        one(PAYMENT),
        one(PAYMENT.replace('Method Method `json:"method"`', 'Kind Method `json:"kind"`')),
        {("breaking", "discriminator-renamed", "Payment", "kind")},
    ),
    # The real case: Mutation.patchType -> patchKind, members not marked.
    "discriminator-renamed/breaking-unmarked-members": (
        one(MUTATION),
        one(
            MUTATION.replace(
                'PatchType Method `json:"patchType"`', 'PatchKind Method `json:"patchKind"`'
            )
        ),
        {("breaking", "discriminator-renamed", "Mutation", "patchKind")},
    ),
    "discriminator-added/breaking": (
        one(K8S_EXACTLY_ONE),
        one(
            K8S_EXACTLY_ONE.replace(
                "type Payment struct {\n",
                "type Payment struct {\n\t// +k8s:unionDiscriminator\n\t// +required\n"
                '\tMethod Method `json:"method"`\n',
            )
        ),
        {("breaking", "discriminator-added", "Payment", "method")},
    ),
    # An optional discriminator left out selects no member: an object that sets one of
    # them alone, accepted before, is refused now (the API server agrees:
    # tests/test_apiserver_diff_go.py).
    "discriminator-added/breaking-optional": (
        one(K8S_ONE_OF),
        one(
            K8S_ONE_OF.replace(
                "type Payment struct {\n",
                "type Payment struct {\n\t// +k8s:unionDiscriminator\n\t// +optional\n"
                '\tMethod Method `json:"method,omitempty"`\n',
            )
        ),
        {("breaking", "discriminator-added", "Payment", "method")},
    ),
    # The 2019 design: the server sets the discriminator from the member set, and the
    # field was a member already (it stays in the object, out of the member set).
    "discriminator-added/compatible": (
        one(KEP2019.replace("\t// +unionDiscriminator\n", "")),
        one(KEP2019),
        {
            ("compatible", "discriminator-added", "Payment", "method"),
            ("compatible", "member-removed", "Payment", "method"),
        },
    ),
    # "which fields are required and which are not" must not change.
    "member-optional-to-required/breaking": (
        one(
            PAYMENT.replace(
                "\t// +unionMember\n\t// +optional\n\tCash",
                "\t// +unionMember=Cash,optional\n\t// +optional\n\tCash",
            )
        ),
        one(PAYMENT),
        {("breaking", "member-optional-to-required", "Payment", "cash")},
    ),
    "member-required-to-optional/compatible": (
        one(PAYMENT),
        one(
            PAYMENT.replace(
                "\t// +unionMember\n\t// +optional\n\tCash",
                "\t// +unionMember=Cash,optional\n\t// +optional\n\tCash",
            )
        ),
        {("compatible", "member-required-to-optional", "Payment", "cash")},
    ),
    "discriminator-optional-to-required/breaking": (
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        one(PAYMENT),
        {("breaking", "discriminator-optional-to-required", "Payment", "method")},
    ),
    "discriminator-required-to-optional/compatible": (
        one(PAYMENT),
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        {("compatible", "discriminator-required-to-optional", "Payment", "method")},
    ),
    # A default that selects a required member: an object that leaves the discriminator
    # out, accepted before, now lacks that member (the API server defaults, then refuses).
    "discriminator-default-changed/breaking-added": (
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\t// +default="Card"\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        {("breaking", "discriminator-default-changed", "Payment", "method")},
    ),
    # A default that selects no member: objects that leave the discriminator out stay valid.
    "discriminator-default-changed/compatible": (
        with_method(
            ('\tMethodCash Method = "Cash"\n', EMPTY_VALUE),
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\tMethod Method `json:"method,omitempty"`',
            ),
        ),
        with_method(
            ('\tMethodCash Method = "Cash"\n', EMPTY_VALUE),
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\t// +default="None"\n\tMethod Method `json:"method,omitempty"`',
            ),
        ),
        {("compatible", "discriminator-default-changed", "Payment", "method")},
    ),
    # "the semantic meaning of default values" must not change.
    "discriminator-default-changed/breaking": (
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\t// +default="Card"\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        one(
            PAYMENT.replace(
                '\t// +required\n\tMethod Method `json:"method"`',
                '\t// +optional\n\t// +default="Cash"\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        {("breaking", "discriminator-default-changed", "Payment", "method")},
    ),
    "discriminator-enum-added/breaking": (
        one(PAYMENT.replace('Method Method `json:"method"`', 'Method string `json:"method"`')),
        one(PAYMENT),
        {("breaking", "discriminator-enum-added", "Payment", "method")},
    ),
    "discriminator-enum-removed/compatible": (
        one(PAYMENT),
        one(PAYMENT.replace('Method Method `json:"method"`', 'Method string `json:"method"`')),
        {("compatible", "discriminator-enum-removed", "Payment", "method")},
    ),
    "union-mode-changed/breaking": (
        one(K8S_ONE_OF),
        one(K8S_EXACTLY_ONE),
        {("breaking", "union-mode-changed", "Payment", None)},
    ),
    "union-mode-changed/compatible": (
        one(K8S_EXACTLY_ONE),
        one(K8S_ONE_OF),
        {("compatible", "union-mode-changed", "Payment", None)},
    ),
    # A new constraint on existing fields: "valid values do not become invalid".
    "union-added/breaking": (
        one(PAYMENT.replace("\t// +unionDiscriminator\n", "").replace("\t// +unionMember\n", "")),
        one(PAYMENT),
        {("breaking", "union-added", "Payment", "method")},
    ),
    "union-added/compatible": (
        one('type Payment struct {\n\tNote string `json:"note"`\n}\n'),
        one(
            K8S_ONE_OF.replace(
                "type Payment struct {\n", 'type Payment struct {\n\tNote string `json:"note"`\n'
            )
        ),
        {("compatible", "union-added", "Payment", None)},
    ),
    # Kubernetes' own types (k8s.io/api) move hand-written validation to +k8s: tags.
    "union-declared/compatible": (
        one(PLAIN_FIELDS, "k8s.io/api"),
        one(K8S_ONE_OF, "k8s.io/api"),
        {("compatible", "union-declared", "Payment", None)},
    ),
    # The same tags on any other type (a CRD's): nothing validated the fields before.
    "union-added/breaking-k8s-outside-k8s-api": (
        one(PLAIN_FIELDS),
        one(K8S_ONE_OF),
        {("breaking", "union-added", "Payment", None)},
    ),
    "union-removed/compatible": (
        one(PAYMENT),
        one(PAYMENT.replace("\t// +unionDiscriminator\n", "").replace("\t// +unionMember\n", "")),
        {("compatible", "union-removed", "Payment", "method")},
    ),
    "union-removed/breaking": (
        one(PAYMENT),
        one(PLAIN_FIELDS),
        {("breaking", "union-removed", "Payment", "method")},
    ),
    # "Adding a new value ... clients which assume they know ... all possible values"
    "enum-added/breaking": (
        one('type Order struct {\n\tPriority string `json:"priority"`\n}\n'),
        one(
            'type Order struct {\n\t// +kubebuilder:validation:Enum=Low;High\n\tPriority string `json:"priority"`\n}\n'
        ),
        {("breaking", "enum-added", "Order", "priority")},
    ),
    "enum-declared/compatible": (
        one(PRIORITY),
        one(PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")),
        {("compatible", "enum-declared", "Order", "priority")},
    ),
    "enum-declared/compatible-k8s": (
        one(PRIORITY, "k8s.io/api"),
        one(PRIORITY.replace("type Priority string", "// +k8s:enum\ntype Priority string"), "k8s.io/api"),
        {("compatible", "enum-declared", "Order", "priority")},
    ),
    "enum-added/breaking-k8s-outside-k8s-api": (
        one(PRIORITY),
        one(PRIORITY.replace("type Priority string", "// +k8s:enum\ntype Priority string")),
        {("breaking", "enum-added", "Order", "priority")},
    ),
    "enum-removed/compatible": (
        one(PRIORITY.replace("type Priority string", "// +enum\ntype Priority string")),
        one(PRIORITY),
        {("compatible", "enum-removed", "Order", "priority")},
    ),
    "type-removed/breaking": (
        one(PAYMENT + PRIORITY),
        one(PRIORITY),
        {("breaking", "type-removed", "Payment", None)},
    ),
    "type-added/compatible": (
        one(PRIORITY),
        one(PAYMENT + PRIORITY),
        {("compatible", "type-added", "Payment", None)},
    ),
    # A type renamed within its package with the same properties is not a change.
    "type-renamed/nothing": (
        one(PAYMENT),
        one(PAYMENT.replace("type Payment struct", "type PaymentMethod struct")),
        set(),
    ),
    "package-removed/breaking": (
        {
            "api/v1/types.go": src(PAYMENT),
            "api/v1alpha1/types.go": src(PAYMENT + PRIORITY, "v1alpha1"),
        },
        {"api/v1/types.go": src(PAYMENT)},
        {("breaking", "package-removed", "", None)},
    ),
    "package-added/compatible": (
        {"api/v1/types.go": src(PAYMENT)},
        {"api/v1/types.go": src(PAYMENT), "api/v1alpha1/types.go": src(PAYMENT, "v1alpha1")},
        {("compatible", "package-added", "", None)},
    ),
    "gate-changed/not-compared": (
        one(
            PAYMENT.replace(
                "\t// +unionMember\n\t// +optional\n\tCash",
                "\t// +featureGate=PayInCash\n\t// +unionMember\n\t// +optional\n\tCash",
            )
        ),
        one(PAYMENT),
        {("not-compared", "gate-changed", "Payment", "cash")},
    ),
    # The same rules hold in every dialect: the 2019 design, kep2022 (a discriminator
    # without enum) and the +k8s: tags.
    "member-removed/breaking-kep2019": (
        one(KEP2019),
        one(KEP2019.replace('\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n', "")),
        {("breaking", "member-removed", "Payment", "cash")},
    ),
    "member-removed/breaking-kep2022": (
        one(KEP2022),
        one(KEP2022.replace(CASH_MEMBER, "")),
        {("breaking", "member-removed", "Payment", "cash")},
    ),
    "member-removed/breaking-k8s": (
        one(K8S_DISCRIMINATED),
        one(
            K8S_DISCRIMINATED.replace(
                '\t// +k8s:unionMember\n\t// +optional\n\tCash *Cash `json:"cash,omitempty"`\n', ""
            )
        ),
        {("breaking", "member-removed", "Payment", "cash")},
    ),
    "discriminator-optional-to-required/breaking-k8s": (
        one(
            K8S_DISCRIMINATED.replace(
                '// +required\n\tMethod Method `json:"method"`',
                '// +k8s:optional\n\tMethod Method `json:"method,omitempty"`',
            )
        ),
        one(
            K8S_DISCRIMINATED.replace(
                '// +required\n\tMethod Method `json:"method"`',
                '// +k8s:required\n\tMethod Method `json:"method"`',
            )
        ),
        {("breaking", "discriminator-optional-to-required", "Payment", "method")},
    ),
    "marker-not-compared/not-compared": (
        one(PAYMENT),
        one(
            PAYMENT.replace(
                "\t// +required\n\tMethod", "\t// +required\n\t// +k8s:modeDiscriminator\n\tMethod"
            )
        ),
        {("not-compared", "marker-not-compared", "Payment", "method")},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_rule(tmp_path: Path, case: str) -> None:
    before, after, expected = CASES[case]
    assert diff_rows(tmp_path, before, after) == expected


def test_union_over_existing_fields_outside_k8s_api_says_why_it_breaks(tmp_path: Path) -> None:
    base = module(tmp_path / "base", one(PLAIN_FIELDS))
    head = module(tmp_path / "head", one(K8S_ONE_OF))
    (change,) = run_diff(str(base), str(head), tmp_path, "json").changes
    assert (change.classification, change.kind) == ("breaking", "union-added")
    assert "not a built-in Kubernetes type (k8s.io/api)" in change.message


def test_union_dialect_changed_is_breaking() -> None:
    # testdata/diff/dialect: the 2019 `+union` becomes a the current KEP union.
    dialect = TESTDATA / "diff" / "dialect"
    result = run_diff(str(dialect / "base"), str(dialect / "head"), dialect, "json")
    assert ("breaking", "union-dialect-changed") in {
        (c.classification, c.kind) for c in result.changes
    }


def test_every_row_of_the_docs_table_has_a_case() -> None:
    """docs/diff.md's table rows are `| `kind` | class | ... |`; each (kind, class) is
    produced by one of the cases above."""
    table = (ROOT / "docs" / "diff.md").read_text()
    rows = set(re.findall(r"^\| `([a-z-]+)` \| (breaking|compatible|not-compared) \|", table, re.M))
    assert len(rows) >= 30
    produced = {(kind, cls) for _, _, exp in CASES.values() for cls, kind, _, _ in exp}
    produced.add(("union-dialect-changed", "breaking"))
    assert rows - produced == set()
    assert produced - rows == set()


# "members )", "()", "accepts ;", "of , x", a message ending in a colon.
EMPTY_LIST = re.compile(
    r"\(\s*\)|\(\s|\s\)|\s,|,\s*[),:]"
    r"|\b(members|of|accepts|fields|values|was)\s+[),:;]|:\s*$"
)


@pytest.mark.parametrize("case", sorted(CASES))
def test_messages_never_show_an_empty_list(tmp_path: Path, case: str) -> None:
    before, after, _ = CASES[case]
    base = module(tmp_path / "base", before)
    head = module(tmp_path / "head", after)
    for change in run_diff(str(base), str(head), tmp_path, "json").changes:
        assert not EMPTY_LIST.search(change.message), change.message


def test_union_without_marked_members_is_named_so(tmp_path: Path) -> None:
    base = module(tmp_path / "base", one(MUTATION))
    head = module(tmp_path / "head", one(PLAIN_FIELDS.replace("Payment", "Mutation")))
    (change,) = run_diff(str(base), str(head), tmp_path, "json").changes
    assert change.kind == "union-removed"
    assert '(no marked members) was removed together with its field(s) "patchType"' in (
        change.message
    )


TYPED = """
type Redirect struct {
	// +kubebuilder:validation:Enum=301;302
	Code int `json:"code"`
	// +kubebuilder:validation:Enum=true
	// +optional
	Follow *bool `json:"follow,omitempty"`
}
"""


def test_int_and_bool_enums_compare_with_their_json_type(tmp_path: Path) -> None:
    head_src = TYPED.replace("Enum=301;302", "Enum=301;302;308").replace(
        "Enum=true", "Enum=true;false"
    )
    base = module(tmp_path / "base", one(TYPED))
    head = module(tmp_path / "head", one(head_src))
    messages = {
        c.field: c.message for c in run_diff(str(base), str(head), tmp_path, "json").changes
    }
    # JSON numbers and booleans, not the strings "308" and "false".
    assert messages["code"].startswith('"code" accepts the new value 308;')
    assert messages["follow"].startswith('"follow" accepts the new value false;')


def test_enum_values_of_documents_keep_their_json_type(tmp_path: Path) -> None:
    import json

    def doc(values: list[object]) -> str:
        schema = {"properties": {"follow": {"type": "boolean", "enum": values}}}
        return json.dumps({"swagger": "2.0", "definitions": {"a.v1.Redirect": schema}})

    (tmp_path / "a.json").write_text(doc([True, "true"]))
    (tmp_path / "b.json").write_text(doc([True]))
    (change,) = run_diff("a.json", "b.json", tmp_path, "json").changes
    # The string "true" is another value than the boolean true.
    assert change.kind == "enum-value-removed"
    assert '"follow" no longer accepts "true"' in change.message
