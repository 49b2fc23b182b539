// Package sharedtest finds the shared data folder (../shared beside the repository, or
// $COUPWATCH_SHARED) for tests and benchmarks that need the labelled photographs, and skips
// them with a clear message when it is absent.
package sharedtest

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the shared folder, or skips the test when it cannot be found.
func Dir(tb testing.TB) string {
	tb.Helper()
	if d := os.Getenv("COUPWATCH_SHARED"); d != "" {
		if st, err := os.Stat(filepath.Join(d, "data")); err == nil && st.IsDir() {
			return d
		}
		tb.Skipf("COUPWATCH_SHARED=%s has no data/ folder: skipping the tests on the labelled photographs", d)
	}
	if root := repoRoot(); root != "" {
		d := filepath.Join(root, "..", "shared")
		if st, err := os.Stat(filepath.Join(d, "data")); err == nil && st.IsDir() {
			return d
		}
	}
	tb.Skip("no shared data folder (set COUPWATCH_SHARED or put shared/ beside the repository): skipping the tests on the labelled photographs")
	return ""
}

// repoRoot is the nearest folder above the working directory holding go.mod.
func repoRoot() string {
	d, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		p := filepath.Dir(d)
		if p == d {
			return ""
		}
		d = p
	}
}
