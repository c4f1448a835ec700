package main

import (
	"context"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/registry"
)

// The README's sentence example names a case and a defendant that the demo
// seed (make run) leaves awaiting sentence: the sentence it sends succeeds
// on a freshly seeded database (it was 409 on the already sentenced case 1).
func TestReadmeSentenceExampleFitsTheDemoSeed(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`/api/v1/cases/(\d+)/sentence [^\n]*\\\n\s*-d '\{"defendant_id": (\d+), "ban": \{"first_day": "([0-9-]+)", "months": (\d+)\}\}'`).FindSubmatch(readme)
	if m == nil {
		t.Fatal("README: no sentence example")
	}
	caseID, _ := strconv.ParseInt(string(m[1]), 10, 64)
	defID, _ := strconv.ParseInt(string(m[2]), 10, 64)
	months, _ := strconv.Atoi(string(m[4]))
	_, g := demoDB(t)
	ctx := context.Background()
	judge, err := authz.FindUser(ctx, g, "demo-juiza")
	if err != nil {
		t.Fatal(err)
	}
	loc, _ := time.LoadLocation("America/Sao_Paulo")
	svc := &cases.Service{DB: g, Clock: clock.System{}, Loc: loc, Blocklist: &registry.Lists{DB: g, Clock: clock.System{}, Loc: loc, FormatNumber: cases.FormatNumber}}
	if _, err := svc.Sentence(ctx, cases.Actor{UserID: judge.ID, Role: "judge", Court: judge.Court()}, caseID, cases.SentenceInput{
		DefendantID: defID, Ban: cases.BanInput{FirstDay: string(m[3]), Months: &months}}); err != nil {
		t.Fatalf("README example: POST /api/v1/cases/%d/sentence with defendant_id %d: %v", caseID, defID, err)
	}
}

// `make run` runs the built binary, not `go run`: go run exits 1 whenever
// it was interrupted, so Ctrl-C ended with "make: *** [run] Error 1" even
// though `juizado dev` stops cleanly with status 0.
func TestMakeRunDoesNotGoRun(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^run:[^\n]*\n((?:\t[^\n]*\n)+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("Makefile: no run target")
	}
	if recipe := string(m[1]); regexp.MustCompile(`\bgo run\b|\$\(GO\) run\b`).MatchString(recipe) || !regexp.MustCompile(`exec bin/juizado dev`).MatchString(recipe) {
		t.Errorf("the run recipe does not exec the built binary:\n%s", recipe)
	}
}
