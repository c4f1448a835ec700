// Package sharedfix finds the project's shared material (../shared beside the
// repository: fixtures and handed cases) for tests. The product never reads it.
package sharedfix

import (
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
