// Command smdbench times structured-merge-diff 4.1.2's union normalization
// (TypedValue.NormalizeUnions, the code path of an API server update) over the cases
// that bench/bench_runtime_smd.py generated, and writes the verdict of every case.
//
// Usage: smdbench CASES.json VERDICTS.json
//
// It builds in GOPATH mode (GO111MODULE=off) against the SMD sources Debian ships
// under /usr/share/gocode; go.mod is only there so that the go command resolves the
// module-style import paths (".../v4/typed") of SMD to that directory.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v4/typed"
)

type member struct {
	Field string `json:"field"`
	Value string `json:"value"`
}

type unionType struct {
	Name          string   `json:"name"`
	Discriminator string   `json:"discriminator"`
	Deduce        bool     `json:"deduce"`
	Members       []member `json:"members"`
	Others        []string `json:"others"`
}

type testCase struct {
	Type string                 `json:"type"`
	Old  map[string]interface{} `json:"old"`
	New  map[string]interface{} `json:"new"`
}

type input struct {
	Types      []unionType `json:"types"`
	Cases      []testCase  `json:"cases"`
	Runs       int         `json:"runs"`
	MinSeconds float64     `json:"minSeconds"`
}

type verdict struct {
	OK    bool        `json:"ok"`
	Out   interface{} `json:"out,omitempty"`
	Error string      `json:"error,omitempty"`
}

type output struct {
	Rates    []float64 `json:"rates"`
	Verdicts []verdict `json:"verdicts"`
}

// schemaYAML writes the types as an SMD schema: the discriminator and the other fields
// are strings, the members numbers, and each type has one union.
func schemaYAML(types []unionType) string {
	var b strings.Builder
	b.WriteString("types:\n")
	for _, t := range types {
		fmt.Fprintf(&b, "- name: %s\n  map:\n    fields:\n", t.Name)
		fmt.Fprintf(&b, "    - name: %s\n      type:\n        scalar: string\n", t.Discriminator)
		for _, o := range t.Others {
			fmt.Fprintf(&b, "    - name: %s\n      type:\n        scalar: string\n", o)
		}
		for _, m := range t.Members {
			fmt.Fprintf(&b, "    - name: %s\n      type:\n        scalar: numeric\n", m.Field)
		}
		fmt.Fprintf(&b, "    unions:\n    - discriminator: %s\n      deduceInvalidDiscriminator: %t\n      fields:\n", t.Discriminator, t.Deduce)
		for _, m := range t.Members {
			fmt.Fprintf(&b, "      - fieldName: %s\n        discriminatorValue: %s\n", m.Field, m.Value)
		}
	}
	return b.String()
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "smdbench: "+format+"\n", args...)
	os.Exit(2)
}

func main() {
	if len(os.Args) != 3 {
		fail("usage: smdbench CASES.json VERDICTS.json")
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("%v", err)
	}
	var in input
	if err := json.Unmarshal(data, &in); err != nil {
		fail("%s: %v", os.Args[1], err)
	}
	parser, err := typed.NewParser(typed.YAMLObject(schemaYAML(in.Types)))
	if err != nil {
		fail("schema: %v", err)
	}
	// The objects are typed before timing: an API server has decoded them already.
	olds := make([]*typed.TypedValue, len(in.Cases))
	news := make([]*typed.TypedValue, len(in.Cases))
	for i, c := range in.Cases {
		pt := parser.Type(c.Type)
		if olds[i], err = pt.FromUnstructured(c.Old); err != nil {
			fail("case %d old: %v", i, err)
		}
		if news[i], err = pt.FromUnstructured(c.New); err != nil {
			fail("case %d new: %v", i, err)
		}
	}
	var out output
	for i := range in.Cases {
		got, err := olds[i].NormalizeUnions(news[i])
		if err != nil {
			msgs := strings.Split(err.Error(), "\n")
			sort.Strings(msgs)
			out.Verdicts = append(out.Verdicts, verdict{OK: false, Error: strings.Join(msgs, "; ")})
		} else {
			out.Verdicts = append(out.Verdicts, verdict{OK: true, Out: got.AsValue().Unstructured()})
		}
	}
	for run := 0; run < in.Runs; run++ {
		n := 0
		start := time.Now()
		for time.Since(start).Seconds() < in.MinSeconds {
			for i := range olds {
				_, _ = olds[i].NormalizeUnions(news[i])
			}
			n += len(olds)
		}
		out.Rates = append(out.Rates, float64(n)/time.Since(start).Seconds())
	}
	text, err := json.Marshal(out)
	if err != nil {
		fail("%v", err)
	}
	if err := os.WriteFile(os.Args[2], text, 0o644); err != nil {
		fail("%v", err)
	}
}
