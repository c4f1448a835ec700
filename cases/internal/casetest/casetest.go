// Package casetest holds the helpers of the tests of cases and its parts: a
// fresh database with the case services (Env), the fixtures of
// ../shared/fixtures, and the steps most tests take (file, sentence, make
// final). Only tests import it.
package casetest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"gorm.io/gorm"
)

// Env is a test's world: a fresh database with court testenv.Court, the
// case services on a fixed clock (G, Clk, Svc), the blocklist (Lists), a
// prosecutor (Pros) and the judges (Judges).
type Env struct {
	G      *gorm.DB
	Clk    *clock.Fixed
	Svc    *app.Cases
	Lists  *blocklist.Lists
	Dom    *testenv.Domain
	Pros   actor.Actor
	Judges []actor.Actor
}

// NewEnv gives a fresh database with court 26.0100, a prosecutor and
// nJudges judges, and a service on a fixed clock at now (testenv.NewDomain).
func NewEnv(t *testing.T, now time.Time, nJudges int) *Env {
	t.Helper()
	d := testenv.NewDomain(t, now, "")
	e := &Env{G: d.DB, Clk: d.Clock, Lists: d.Lists, Svc: d.Cases, Dom: d}
	e.Pros = e.User(t, "Promotor Um", "prosecutor")
	for i := 0; i < nJudges; i++ {
		e.AddJudge(t, "Juiz "+string(rune('A'+i)))
	}
	return e
}

// User creates (or finds) the user name with role in the court and
// returns them as the actor of service calls.
func (e *Env) User(t *testing.T, name, role string) actor.Actor {
	t.Helper()
	return e.Dom.User(t, name, role)
}

// AddJudge adds the judge name to the court and to Judges.
func (e *Env) AddJudge(t *testing.T, name string) actor.Actor {
	t.Helper()
	j := e.User(t, name, "judge")
	e.Judges = append(e.Judges, j)
	return j
}

// FileFixtures files every representation of the fixtures, in order; it
// returns them by ref with their refs and the filed cases' ids by ref.
func (e *Env) FileFixtures(t *testing.T) (map[string]cases.Representation, []string, map[string]int64) {
	t.Helper()
	m, refs := Fixtures(t)
	ids := map[string]int64{}
	for _, ref := range refs {
		ids[ref] = e.File(t, m[ref]).ID
	}
	return m, refs, ids
}

// Fixtures returns the representations of ../shared/fixtures/representations.json by ref.
func Fixtures(t *testing.T) (map[string]cases.Representation, []string) {
	t.Helper()
	out, refs := testenv.Representations(t)
	if len(refs) != 8 {
		t.Fatalf("fixture has %d representations, want 8", len(refs))
	}
	return out, refs
}

// Fixture returns the representation ref of the fixtures.
func Fixture(t *testing.T, ref string) cases.Representation {
	t.Helper()
	m, _ := Fixtures(t)
	r, ok := m[ref]
	if !ok {
		t.Fatalf("no representation %s in the fixture", ref)
	}
	return r
}

// File files in as the prosecutor (Pros); it fails the test on error.
func (e *Env) File(t *testing.T, in cases.Representation) *cases.Case {
	t.Helper()
	c, err := e.Svc.Case.File(context.Background(), e.Pros, in)
	if err != nil {
		t.Fatalf("File(%s): %v", in.Ref, err)
	}
	return c
}

// Defendants returns the defendants of case caseID, by position.
func (e *Env) Defendants(t *testing.T, caseID int64) []cases.Defendant {
	t.Helper()
	var ds []cases.Defendant
	if err := e.G.Where("case_id = ?", caseID).Order("position").Find(&ds).Error; err != nil {
		t.Fatal(err)
	}
	return ds
}

// Count counts the rows of table matching where (SQL, with args; ""
// for all).
func (e *Env) Count(t *testing.T, table, where string, args ...any) int64 {
	t.Helper()
	var n int64
	q := "SELECT count(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	if err := e.G.Raw(q, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// JudgeOf returns the actor of the judge the case is distributed to.
func (e *Env) JudgeOf(t *testing.T, c *cases.Case) actor.Actor {
	t.Helper()
	if c.JudgeID == nil {
		t.Fatalf("case %d has no judge", c.ID)
	}
	for _, j := range e.Judges {
		if j.UserID == *c.JudgeID {
			return j
		}
	}
	t.Fatalf("judge %d unknown", *c.JudgeID)
	return actor.Actor{}
}

// InvalidField asserts err is an errs.Invalid naming field (prefix match
// when prefix is true) and returns that field's message.
func InvalidField(t *testing.T, err error, field string, prefix bool) string {
	t.Helper()
	var e *errs.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *errs.Error Invalid on %s", err, err, field)
	}
	if e.Kind != errs.Invalid {
		t.Fatalf("kind = %v (%v), want Invalid on %s", e.Kind, err, field)
	}
	for _, f := range e.Fields {
		if f.Field == field || (prefix && strings.HasPrefix(f.Field, field)) {
			return f.Message
		}
	}
	t.Fatalf("fields = %+v, want one named %s", e.Fields, field)
	return ""
}

// KindIs asserts err is an error of kind k.
func KindIs(t *testing.T, err error, k errs.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want kind %v", k)
	}
	if got := errs.KindOf(err); got != k {
		t.Fatalf("error %v has kind %v, want %v", err, got, k)
	}
}

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// Clerk returns the court's clerk (created on first use).
func (e *Env) Clerk(t *testing.T) actor.Actor {
	t.Helper()
	return e.User(t, "Escrivã do Cartório", "clerk")
}

// MakeFinal records every party's notice of the decision of case caseID
// with an express waiver of the appeal on the clock's day (the prosecution,
// and each defendant and its defence: Lei 9.099/1995, art. 82, § 1º) and
// certifies the final judgment, which starts the bans that waited for it
// (Súmula 643 STJ).
func (e *Env) MakeFinal(t *testing.T, caseID int64) {
	t.Helper()
	ctx := context.Background()
	k := e.Clerk(t)
	day := e.Clk.Now().In(testenv.SaoPaulo).Format("2006-01-02")
	var c cases.Case
	if err := e.G.Take(&c, caseID).Error; err != nil {
		t.Fatal(err)
	}
	ns := []calendar.NotificationInput{{Party: calendar.PartyProsecution, NotifiedOn: day, WaivedAppeal: true}}
	for _, d := range e.Defendants(t, caseID) {
		ns = append(ns, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID, NotifiedOn: day, WaivedAppeal: true})
		if c.Flow == cases.FlowCriminal {
			ns = append(ns, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID, NotifiedOn: day, WaivedAppeal: true})
		}
	}
	for _, n := range ns {
		if _, err := e.Svc.Calendar.Notify(ctx, k, caseID, n); err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
	}
	if _, err := e.Svc.Casefile.Transition(ctx, k, caseID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment: %v", err)
	}
}

// Receive takes every defendant of criminal case c to the accusation
// received (Lei 9.099/1995, arts. 77 and 81: no conviction nor acquittal
// without it): the preliminary phase (clerk), the oral accusation
// (prosecutor) and its receipt (clerk); a group (civil) case is left as it
// is. c's status follows.
func (e *Env) Receive(t *testing.T, c *cases.Case) {
	t.Helper()
	if c.Flow == cases.FlowCivil {
		return
	}
	k, p := e.Clerk(t), e.User(t, "Promotora de Justiça", "prosecutor")
	for _, st := range []struct {
		a  actor.Actor
		to string
	}{{k, cases.StatusPreliminaryHearing}, {p, cases.StatusAccusation}, {k, cases.StatusInstructionHearing}} {
		if _, err := e.Svc.Casefile.Transition(context.Background(), st.a, c.ID, casefile.TransitionInput{To: st.to}); err != nil {
			var fe *errs.Error
			if errors.As(err, &fe) && fe.Kind == errs.Invalid && len(fe.Fields) > 0 && fe.Fields[0].Rule == "transition" {
				continue // already past this step
			}
			t.Fatalf("receive the accusation (%s): %v", st.to, err)
		}
	}
	if err := e.G.Take(c, c.ID).Error; err != nil {
		t.Fatal(err)
	}
}

// FinalBan files ref on day first (the clock moves there and back),
// sentences its first defendant with months (in changed by mod) and makes
// the judgment final that same day: the ban is in force from first. It
// returns the case, the ban's id and the judge.
func (e *Env) FinalBan(t *testing.T, ref, first string, months int, mod func(*decisions.SentenceInput)) (*cases.Case, int64, actor.Actor) {
	t.Helper()
	back := e.Clk.Now()
	if first != "" {
		day := CivilDay(t, first)
		e.Clk.Set(time.Date(day.Year(), day.Month(), day.Day(), 23, 30, 0, 0, testenv.SaoPaulo))
		defer e.Clk.Set(back)
	}
	c, d, j := e.FileOne(t, ref)
	e.Receive(t, c)
	in := decisions.SentenceInput{DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}, Text: Reasoned()}
	if d.Kind == "person" {
		in.ReportingDuty = Reporting()
	}
	if mod != nil {
		mod(&in)
	}
	res, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, in)
	if err != nil {
		t.Fatalf("sentence %s: %v", ref, err)
	}
	e.MakeFinal(t, c.ID)
	return c, res.Ban.ID, j
}

// Sentenced files ref, receives the accusation (Receive) and sentences its
// first defendant to a conversion ban of months that starts at the final
// judgment (Lei 10.671/2003, art. 41-B, § 2º; Súmula 643 STJ); it fails the
// test on error and returns the case, the defendant, the judge and the
// sentence.
func (e *Env) Sentenced(t *testing.T, ref string, months int) (*cases.Case, cases.Defendant, actor.Actor, *decisions.SentenceResult) {
	t.Helper()
	c, d, j := e.FileOne(t, ref)
	e.Receive(t, c)
	res, err := e.Svc.Decisions.Sentence(context.Background(), j, c.ID, SentenceIn(d.ID, "", months))
	if err != nil {
		t.Fatalf("sentence %s: %v", ref, err)
	}
	return c, d, j, res
}

// Sentence12 signs, by case c's judge, the sentence of defendant d of c to
// a conversion ban of 12 months (SentenceIn) and returns the ban's id; it
// fails the test on error.
func (e *Env) Sentence12(t *testing.T, c *cases.Case, d cases.Defendant) int64 {
	t.Helper()
	res, err := e.Svc.Decisions.Sentence(context.Background(), e.JudgeOf(t, c), c.ID, SentenceIn(d.ID, "", 12))
	if err != nil {
		t.Fatalf("sentence of %s: %v", d.FullName, err)
	}
	return res.Ban.ID
}

// CivilDay parses s (AAAA-MM-DD) as midnight UTC of that day.
func CivilDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// SentenceIn is a person's conversion sentence of months, reasoned (CF art.
// 93, IX) and with the reporting duty (Lei 14.597/2023, art. 201, § 4º);
// first is a later first day the judge fixes ("" for none: the ban starts
// at the final judgment).
func SentenceIn(defID int64, first string, months int) decisions.SentenceInput {
	return decisions.SentenceInput{DefendantID: defID, Ban: decisions.BanInput{FirstDay: first, Months: &months}, Text: Reasoned(), ReportingDuty: Reporting()}
}

// GroupSentenceIn is a group's (civil) ban of months, reasoned: no
// reporting duty, which is a person's (Lei 14.597/2023, art. 201, § 4º).
func GroupSentenceIn(defID int64, months int) decisions.SentenceInput {
	in := SentenceIn(defID, "", months)
	in.ReportingDuty = nil
	return in
}

// Reasoned is a decision's text with the reasoning every signed decision
// needs (CF art. 93, IX; the report dispensed, Lei 9.099/1995, art. 81, § 3º).
func Reasoned() *decisions.SentenceText {
	return &decisions.SentenceText{Reasoning: "Autoria e materialidade provadas pelo boletim de ocorrência e pelas imagens."}
}

// Reporting is the reporting duty a conversion must fix (Lei 14.597/2023,
// art. 201, § 4º): the 24º DP for Corinthians' matches.
func Reporting() *cases.ReportingDuty {
	return &cases.ReportingDuty{Place: "24º DP – São Paulo", Club: "Corinthians"}
}

// FileOne files ref and returns the case, its first defendant and its judge.
func (e *Env) FileOne(t *testing.T, ref string) (*cases.Case, cases.Defendant, actor.Actor) {
	t.Helper()
	c := e.File(t, Fixture(t, ref))
	return c, e.Defendants(t, c.ID)[0], e.JudgeOf(t, c)
}

// CPFOf completes nine digits with the CPF check digits.
func CPFOf(nine string) string {
	d := []int{}
	for _, r := range nine {
		d = append(d, int(r-'0'))
	}
	for len(d) < 11 {
		sum := 0
		for i, x := range d {
			sum += x * (len(d) + 1 - i)
		}
		r := sum * 10 % 11
		if r == 10 {
			r = 0
		}
		d = append(d, r)
	}
	var b strings.Builder
	for _, x := range d {
		b.WriteByte(byte('0' + x))
	}
	return b.String()
}

// Person returns R1 with another defendant.
func Person(t *testing.T, name, nine string) cases.Representation {
	return PersonIn(t, "R1", name, nine)
}

// PersonIn returns the fixture ref (a person's) with another defendant: name
// and the CPF of nine digits (CPFOf).
func PersonIn(t *testing.T, ref, name, nine string) cases.Representation {
	r := Fixture(t, ref)
	d := r.Defendants[0]
	d.FullName = name
	cpf := CPFOf(nine)
	d.CPF = &cpf
	r.Defendants = []cases.DefendantInput{d}
	return r
}

// Move makes the transition of case c to status to by actor a and
// updates c's status; it fails the test on error.
func (e *Env) Move(t *testing.T, a actor.Actor, c *cases.Case, to string) *casefile.View {
	t.Helper()
	v, err := e.Svc.Casefile.Transition(context.Background(), a, c.ID, casefile.TransitionInput{To: to})
	if err != nil {
		t.Fatalf("transition %s → %s by %s: %v", c.Status, to, a.Role, err)
	}
	c.Status = v.Status
	return v
}

// SentenceR1 files R1 and sentences it: first day, months, prison months
// and a reporting duty for Corinthians; it returns the case, the ban id and
// the judge.
func (e *Env) SentenceR1(t *testing.T, first string, months int, prison *int) (*cases.Case, int64, actor.Actor) {
	t.Helper()
	return e.FinalBan(t, "R1", first, months, func(in *decisions.SentenceInput) {
		in.PrisonMonths = prison
	})
}

// Published reports whether name is on the public list.
func (e *Env) Published(t *testing.T, name string) bool {
	t.Helper()
	items, err := e.Lists.Public(context.Background(), blocklist.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if it.Name == name {
			return true
		}
	}
	return false
}

// InBlocklist reports whether the blocklist blocks cpf.
func (e *Env) InBlocklist(t *testing.T, cpf string) bool {
	t.Helper()
	res, err := e.Lists.Check(context.Background(), registry.CPF(cpf))
	if err != nil {
		t.Fatal(err)
	}
	return res.Blocked
}

// LawConditions completes in with the four conditions of Lei 9.099/1995,
// art. 89, § 1º (II without sporting venues).
func LawConditions(in decisions.SuspensionInput) decisions.SuspensionInput {
	in.RepairDamage = "pagar R$ 500,00 ao clube pelos danos à cadeira"
	in.ForbiddenPlaces = []string{"bares da torcida organizada"}
	in.StayInDistrict, in.MonthlyAppearance = Ptr(true), Ptr(true)
	return in
}
