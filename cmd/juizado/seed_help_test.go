package main

import (
	"strings"
	"testing"
)

// `juizado seed --help` counts the demo cases the seed files: those of
// demoFans (cases 1 to 6) and case 7 of seedCoDefendants, as the README's
// table lists them.
func TestSeedHelpCountsTheDemoCases(t *testing.T) {
	words := []string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"}
	n := len(demoFans) + 1
	if n >= len(words) {
		t.Fatalf("%d demo cases: name the count in seed --help", n)
	}
	help := seedCmd().Short
	if !strings.Contains(help, words[n]+" demo cases") {
		t.Errorf("seed --help %q does not say %q", help, words[n]+" demo cases")
	}
	for i, w := range words {
		if i != n && strings.Contains(help, w+" demo cases") {
			t.Errorf("seed --help says %q, the seed files %d", w+" demo cases", n)
		}
	}
}
