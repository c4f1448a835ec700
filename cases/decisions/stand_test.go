package decisions_test

import (
	"context"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
)

// CF art. 93, IX: a sentence or a precautionary order signed without its
// reasoning is refused on text.reasoning; the report may be dispensed in the
// JECRIM (Lei 9.099/1995, art. 81, § 3º) and a draft may be saved without it.
func TestSignWithoutReasoning_CF_art_93_IX_ReportDispensed_Lei_9099_art_81_sec3(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	in := casetest.SentenceIn(d.ID, "", 12)
	for _, text := range []*decisions.SentenceText{nil, {Report: "Relatório do processo."}, {Reasoning: "   "}} {
		in.Text = text
		msg := casetest.InvalidField(t, errOf(e.Svc.Decisions.Sentence(ctx, j, c.ID, in)), "text.reasoning", false)
		if !strings.Contains(msg, "art. 93, IX") {
			t.Errorf("message %q does not cite CF art. 93, IX", msg)
		}
	}
	if n := e.Count(t, "sentences", "case_id = ? AND status = 'signed'", c.ID); n != 0 {
		t.Fatalf("%d sentences signed without reasoning", n)
	}
	pin := decisions.SentenceInput{DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-01"}
	casetest.InvalidField(t, errOf(e.Svc.Decisions.Sentence(ctx, j, c.ID, pin)), "text.reasoning", false)
	if n := e.Count(t, "bans", "case_id = ? AND precautionary", c.ID); n != 0 {
		t.Fatalf("%d precautionary bans ordered without reasoning", n)
	}
	in.Text, in.Draft = nil, true
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); err != nil {
		t.Fatalf("a draft without reasoning: %v", err)
	}
	casetest.InvalidField(t, errOf(e.Svc.Decisions.SignDraft(ctx, j, c.ID, d.ID)), "text.reasoning", false)
	in.Text, in.Draft = &decisions.SentenceText{Reasoning: "Autoria provada pelas imagens."}, false // no report
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); err != nil {
		t.Fatalf("a reasoned sentence without report: %v", err)
	}
}

// Lei 14.597/2023, art. 201, § 4º and Lei 10.671/2003, art. 41-B, § 4º: the
// sentence converting reclusão into the ban "deverá determinar" the
// reporting duty; without it the conversion is refused citing the paragraph
// in force at the date of the facts.
func TestConversionWithoutReportingDuty_LGE_art_201_sec4_Lei_10671_art_41B_sec4(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	for _, tc := range []struct{ occurred, cite string }{
		{"", "art. 201, § 4º, da Lei 14.597/2023"},
		{"2019-03-30T15:20:00-03:00", "art. 41-B, § 4º"},
	} {
		r := casetest.Fixture(t, "R1")
		if tc.occurred != "" {
			r.Facts.OccurredAt = tc.occurred
			if r.Event != nil {
				r.Event.Kickoff = strings.Replace(tc.occurred, "15:20", "16:00", 1)
			}
		}
		c := e.File(t, r)
		d, j := e.Defendants(t, c.ID)[0], e.JudgeOf(t, c)
		e.Receive(t, c)
		in := casetest.SentenceIn(d.ID, "", 12)
		in.ReportingDuty = nil
		res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
		if err == nil {
			t.Fatalf("%s: conversion without reporting duty accepted (%v)", tc.cite, res.Warnings)
		}
		if msg := casetest.InvalidField(t, err, "reporting_duty", false); !strings.Contains(msg, tc.cite) {
			t.Errorf("message %q does not cite %s", msg, tc.cite)
		}
		in.ReportingDuty = casetest.Reporting()
		if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in); err != nil {
			t.Fatalf("%s: with the reporting duty: %v", tc.cite, err)
		}
	}
}

// errOf is the error of a call that returns a value and an error.
func errOf[T any](_ T, err error) error { return err }

// CPP art. 386, parágrafo único, II: the acquittal ends the defendant's
// precautionary bans, and a new one is refused (422); a second one while one
// is in force is 409 (renew or replace it instead, CPP art. 282); a
// defendant whose case was archived at the prosecutor's request (CPP art.
// 28) gets none (422).
func TestPrecautionaryRefused_Acquitted_CPP_art_386_par_unico_II_Duplicate_Archived(t *testing.T) {
	t.Parallel()
	e := newEnv(t, testenv.T0, 1)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	e.Receive(t, c)
	pin := decisions.SentenceInput{DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-01", Text: casetest.Reasoned()}
	first, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, pin)
	if err != nil {
		t.Fatal(err)
	}
	casetest.KindIs(t, errOf(e.Svc.Decisions.Sentence(ctx, j, c.ID, pin)), errs.Conflict)
	if n := e.Count(t, "bans", "case_id = ? AND precautionary", c.ID); n != 1 {
		t.Fatalf("%d precautionary bans after the duplicate, want 1", n)
	}
	acq := decisions.SentenceInput{DefendantID: d.ID, Outcome: decisions.OutcomeAcquittal, AcquittalGround: "VII", Text: casetest.Reasoned()}
	if _, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, acq); err != nil {
		t.Fatal(err)
	}
	if n := e.Count(t, "bans", "id = ? AND status = 'lifted'", first.PrecautionaryBan.ID); n != 1 {
		t.Fatal("the acquittal did not end the precautionary ban")
	}
	msg := casetest.InvalidField(t, errOf(e.Svc.Decisions.Sentence(ctx, j, c.ID, pin)), "defendant_id", false)
	if !strings.Contains(msg, "art. 386") {
		t.Errorf("message %q does not cite CPP art. 386", msg)
	}
	a, ad, aj := e.FileOne(t, "R2")
	ground := casefile.TransitionInput{To: cases.StatusArchived, Ground: "prosecutor_request", DefendantID: &ad.ID}
	if _, err := e.Svc.Casefile.Transition(ctx, aj, a.ID, ground); err != nil {
		t.Fatal(err)
	}
	pin.DefendantID = ad.ID
	casetest.InvalidField(t, errOf(e.Svc.Decisions.Sentence(ctx, aj, a.ID, pin)), "defendant_id", false)
}
