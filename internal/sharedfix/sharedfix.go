// Package sharedfix finds the project's shared material (../shared beside the
// repository: fixtures and handed cases) for tests. The product never reads it.
package sharedfix

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of ../shared relative to the module root (the
// folder holding go.mod). It fails the test when the folder is missing.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.Getwd()
	if err != nil {
		tb.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Fatal("sharedfix: no go.mod above the working directory")
		}
		dir = parent
	}
	shared := filepath.Join(filepath.Dir(dir), "shared")
	if _, err := os.Stat(shared); err != nil {
		tb.Fatalf("sharedfix: %s not found: %v", shared, err)
	}
	return shared
}

// Path returns the absolute path of a file under ../shared, e.g.
// Path(t, "cases", "cpf.json").
func Path(tb testing.TB, elem ...string) string {
	tb.Helper()
	return filepath.Join(append([]string{Dir(tb)}, elem...)...)
}

// Representations returns the representations of
// fixtures/representations.json as raw JSON objects, in the file's order;
// it fails the test when the file is missing or not JSON.
func Representations(tb testing.TB) []json.RawMessage {
	tb.Helper()
	b, err := os.ReadFile(Path(tb, "fixtures", "representations.json"))
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct {
		Representations []json.RawMessage `json:"representations"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatal(err)
	}
	return doc.Representations
}

// Representation returns the representation whose "ref" is ref (R1…R8)
// as raw JSON; it fails the test when there is none.
func Representation(tb testing.TB, ref string) json.RawMessage {
	tb.Helper()
	for _, r := range Representations(tb) {
		var k struct {
			Ref string `json:"ref"`
		}
		if json.Unmarshal(r, &k) == nil && k.Ref == ref {
			return r
		}
	}
	tb.Fatalf("sharedfix: no representation %s", ref)
	return nil
}
