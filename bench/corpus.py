"""Write a synthetic Go API module with N types, for scaling measurements.

Usage: python bench/corpus.py OUT_DIR N [--seed S]

The module looks like a real API tree: packages of at most 50 types (`group<i>/v1`),
each with a doc.go holding `+groupName`, a license header on every file, a
generated deepcopy file per package (skipped by markergen, as in kubernetes/api), and
types of these kinds, in rotation:
- structs of 5-20 fields: scalars, pointers, slices, maps, references to earlier types
  of the package, metav1 references, `+optional`/`+required`, `+listType=map` lists;
- `+enum` string types with 3-6 documented constants;
- kep1027 unions (an `+enum` discriminator, `+unionMember` fields, one empty member);
- kep2022 unions (a plain string discriminator);
- kep2019 unions (`+union` struct) and undiscriminated `+k8s:unionMember` unions.
Output is a pure function of (N, seed), so runs can be compared.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

PER_PACKAGE = 50
LICENSE = """/*
Copyright The Synthetic Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
*/

"""
SCALARS = ("string", "int32", "int64", "bool", "float64")
WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform", "victor", "whiskey", "xray", "yankee", "zulu"]


def _doc(rng: random.Random, subject: str) -> list[str]:
    """A realistic doc comment: a few lines of prose about `subject`."""
    lines = [f"// {subject} {' '.join(rng.choice(WORDS) for _ in range(rng.randint(6, 12)))}."]
    for _ in range(rng.randint(0, 3)):
        lines.append("// " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 14))) + ".")
    return lines


def _lower(name: str) -> str:
    return name[:1].lower() + name[1:]


class _Package:
    def __init__(self, rng: random.Random, index: int) -> None:
        self.rng = rng
        self.index = index
        self.structs: list[str] = []  # names usable as field types
        self.enums: list[str] = []
        self.body: list[str] = []

    def add(self, kind: int, n: int) -> None:
        [self.struct, self.enum, self.kep1027, self.kep2022, self.kep2019, self.k8s][kind](n)

    def struct(self, n: int) -> None:
        rng = self.rng
        name = f"Resource{n}"
        out = [*_doc(rng, name), "type " + name + " struct {"]
        if n % 7 == 0:
            out += ["\tmetav1.TypeMeta `json:\",inline\"`", "\t// +optional",
                    "\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`", ""]
        for f in range(rng.randint(5, 20)):
            fname = f"Field{f}{rng.choice(WORDS).title()}"
            jname = _lower(fname)
            choice = rng.random()
            optional = rng.random() < 0.6
            if choice < 0.35:
                ftype = rng.choice(SCALARS)
            elif choice < 0.5 and self.enums:
                ftype = rng.choice(self.enums)
            elif choice < 0.65 and self.structs:
                ftype = "*" + rng.choice(self.structs)
            elif choice < 0.75 and self.structs:
                ftype = "[]" + rng.choice(self.structs)
                out += ["\t// +listType=map", "\t// +listMapKey=name"] if rng.random() < 0.3 else []
            elif choice < 0.85:
                ftype = "map[string]" + rng.choice(SCALARS)
            elif choice < 0.92:
                ftype = "*metav1.Time"
            else:
                ftype = "[]" + rng.choice(SCALARS)
            out += ["\t" + line for line in _doc(rng, fname)]
            out.append("\t// +optional" if optional else "\t// +required")
            tag = f"{jname},omitempty" if optional else jname
            out += [f'\t{fname} {ftype} `json:"{tag}" protobuf:"bytes,{f + 1},opt,name={jname}"`', ""]
        out[-1:] = ["}", ""]
        self.body += out
        self.structs.append(name)

    def enum(self, n: int) -> None:
        rng = self.rng
        name = f"Mode{n}"
        out = [*_doc(rng, name), "// +enum", f"type {name} string", "", "const ("]
        for v in range(rng.randint(3, 6)):
            const = f"{name}{WORDS[v].title()}"
            out += ["\t" + line for line in _doc(rng, const)]
            out.append(f'\t{const} {name} = "{WORDS[v].title()}"')
        out += [")", ""]
        self.body += out
        self.enums.append(name)

    def kep1027(self, n: int) -> None:
        rng = self.rng
        kind = f"Source{n}Type"
        members = [w.title() for w in WORDS[: rng.randint(2, 5)]]
        out = ["// +enum", f"type {kind} string", "", "const ("]
        for m in [*members, "None"]:
            out += [f"\t// {kind}{m} selects {m}.", f'\t{kind}{m} {kind} = "{m}"']
        out += [")", "", *_doc(rng, f"Source{n}"), f"type Source{n} struct {{",
                "\t// type selects the member.", "\t// +unionDiscriminator", "\t// +required",
                f'\tType {kind} `json:"type"`']
        for m in members:
            target = "*" + rng.choice(self.structs) if self.structs else "*string"
            out += ["", f"\t// {_lower(m)} is one member.", "\t// +unionMember", "\t// +optional",
                    f'\t{m} {target} `json:"{_lower(m)},omitempty"`']
        out += ["}", ""]
        self.body += out
        self.structs.append(f"Source{n}")

    def kep2022(self, n: int) -> None:
        out = [*_doc(self.rng, f"Choice{n}"), f"type Choice{n} struct {{",
               "\t// +unionDiscriminator", "\t// +optional",
               '\tKind *string `json:"kind,omitempty"`']
        for m in ("Left", "Right", "Middle"):
            out += ["\t// +unionMember", "\t// +optional", f'\t{m} *string `json:"{_lower(m)},omitempty"`']
        out += ["}", ""]
        self.body += out
        self.structs.append(f"Choice{n}")

    def kep2019(self, n: int) -> None:
        out = [*_doc(self.rng, f"Legacy{n}"), "// +union", f"type Legacy{n} struct {{",
               "\t// +unionDiscriminator", "\t// +optional", '\tType string `json:"type,omitempty"`']
        for m in ("Fixed", "Scaled"):
            out += ["\t// +optional", f'\t{m} *int32 `json:"{_lower(m)},omitempty"`']
        out += ["}", ""]
        self.body += out
        self.structs.append(f"Legacy{n}")

    def k8s(self, n: int) -> None:
        out = [*_doc(self.rng, f"OneOf{n}"), f"type OneOf{n} struct {{"]
        for m in ("Http", "Grpc", "Exec"):
            out += ["\t// +k8s:unionMember", "\t// +k8s:optional",
                    f'\t{m} *string `json:"{_lower(m)},omitempty"`']
        out += ["}", ""]
        self.body += out
        self.structs.append(f"OneOf{n}")

    def write(self, root: Path, module: str) -> None:
        d = root / f"group{self.index}" / "v1"
        d.mkdir(parents=True, exist_ok=True)
        group = f"group{self.index}.example.com"
        (d / "doc.go").write_text(
            LICENSE + f"// +k8s:openapi-gen=true\n// +groupName={group}\n\npackage v1\n"
        )
        (d / "types.go").write_text(
            LICENSE + 'package v1\n\nimport metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"\n\n'
            "var _ = metav1.Time{}\n\n" + "\n".join(self.body)
        )
        deepcopy = [LICENSE + "//go:build !ignore_autogenerated\n\n"
                    "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n"]
        for name in self.structs:
            deepcopy.append(
                f"\n// DeepCopyInto copies.\nfunc (in *{name}) DeepCopyInto(out *{name}) {{\n"
                "\t*out = *in\n}\n"
            )
        (d / "zz_generated.deepcopy.go").write_text("".join(deepcopy))


def write_corpus(root: Path, n: int, seed: int = 1) -> int:
    """Write a module of `n` types under `root`; returns the number of Go files."""
    rng = random.Random(seed)
    module = "example.com/synthetic"
    root.mkdir(parents=True, exist_ok=True)
    (root / "go.mod").write_text(f"module {module}\n\ngo 1.22\n")
    packages: list[_Package] = []
    # Rotation: mostly plain structs and enums, unions of every dialect in between.
    rotation = (1, 0, 0, 2, 0, 1, 0, 3, 0, 4, 0, 5)
    for i in range(n):
        if i % PER_PACKAGE == 0:
            packages.append(_Package(rng, len(packages)))
        packages[-1].add(rotation[i % len(rotation)], i)
    for pkg in packages:
        pkg.write(root, module)
    return 3 * len(packages)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("out", type=Path)
    ap.add_argument("n", type=int)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    files = write_corpus(args.out, args.n, args.seed)
    print(f"wrote {args.n} types in {files} files under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
