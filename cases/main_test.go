package cases_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const court = testenv.Court

var saoPaulo = testenv.SaoPaulo

// t0 is after every fixture's facts: 10/06/2025 12:00 in São Paulo.
var t0 = testenv.T0

type env struct {
	g      *gorm.DB
	clk    *clock.Fixed
	svc    *cases.Service
	lists  *registry.Lists
	dom    *testenv.Domain
	pros   cases.Actor
	judges []cases.Actor
}

// newEnv gives a fresh database with court 26.0100, a prosecutor and
// nJudges judges, and a service on a fixed clock at now (testenv.NewDomain).
func newEnv(t *testing.T, now time.Time, nJudges int) *env {
	t.Helper()
	d := testenv.NewDomain(t, now, "")
	e := &env{g: d.DB, clk: d.Clock, lists: d.Lists, svc: d.Cases, dom: d}
	e.pros = e.user(t, "Promotor Um", "prosecutor")
	for i := 0; i < nJudges; i++ {
		e.addJudge(t, "Juiz "+string(rune('A'+i)))
	}
	return e
}

func (e *env) user(t *testing.T, name, role string) cases.Actor {
	t.Helper()
	return e.dom.User(t, name, role)
}

func (e *env) addJudge(t *testing.T, name string) cases.Actor {
	t.Helper()
	j := e.user(t, name, "judge")
	e.judges = append(e.judges, j)
	return j
}

// fileFixtures files every representation of the fixtures, in order; it
// returns them by ref with their refs and the filed cases' ids by ref.
func (e *env) fileFixtures(t *testing.T) (map[string]cases.Representation, []string, map[string]int64) {
	t.Helper()
	m, refs := fixtures(t)
	ids := map[string]int64{}
	for _, ref := range refs {
		ids[ref] = e.file(t, m[ref]).ID
	}
	return m, refs, ids
}

// fixtures returns the representations of ../shared/fixtures/representations.json by ref.
func fixtures(t *testing.T) (map[string]cases.Representation, []string) {
	t.Helper()
	out, refs := testenv.Representations(t)
	if len(refs) != 8 {
		t.Fatalf("fixture has %d representations, want 8", len(refs))
	}
	return out, refs
}

func fixture(t *testing.T, ref string) cases.Representation {
	t.Helper()
	m, _ := fixtures(t)
	r, ok := m[ref]
	if !ok {
		t.Fatalf("no representation %s in the fixture", ref)
	}
	return r
}

func (e *env) file(t *testing.T, in cases.Representation) *cases.Case {
	t.Helper()
	c, err := e.svc.File(context.Background(), e.pros, in)
	if err != nil {
		t.Fatalf("File(%s): %v", in.Ref, err)
	}
	return c
}

func (e *env) defendants(t *testing.T, caseID int64) []cases.Defendant {
	t.Helper()
	var ds []cases.Defendant
	if err := e.g.Where("case_id = ?", caseID).Order("position").Find(&ds).Error; err != nil {
		t.Fatal(err)
	}
	return ds
}

func (e *env) count(t *testing.T, table, where string, args ...any) int64 {
	t.Helper()
	var n int64
	q := "SELECT count(*) FROM " + table
	if where != "" {
		q += " WHERE " + where
	}
	if err := e.g.Raw(q, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// judgeOf returns the actor of the judge the case is distributed to.
func (e *env) judgeOf(t *testing.T, c *cases.Case) cases.Actor {
	t.Helper()
	if c.JudgeID == nil {
		t.Fatalf("case %d has no judge", c.ID)
	}
	for _, j := range e.judges {
		if j.UserID == *c.JudgeID {
			return j
		}
	}
	t.Fatalf("judge %d unknown", *c.JudgeID)
	return cases.Actor{}
}

// invalidField asserts err is an errs.Invalid naming field (prefix match
// when prefix is true) and returns that field's message.
func invalidField(t *testing.T, err error, field string, prefix bool) string {
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

func kindIs(t *testing.T, err error, k errs.Kind) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want kind %v", k)
	}
	if got := errs.KindOf(err); got != k {
		t.Fatalf("error %v has kind %v, want %v", err, got, k)
	}
}

func ptr[T any](v T) *T { return &v }

// clerk returns the court's clerk (created on first use).
func (e *env) clerk(t *testing.T) cases.Actor {
	t.Helper()
	return e.user(t, "Escrivã do Cartório", "clerk")
}

// makeFinal records every party's notice of the decision of case caseID
// with an express waiver of the appeal on the clock's day (the prosecution,
// and each defendant and its defence: Lei 9.099/1995, art. 82, § 1º) and
// certifies the final judgment, which starts the bans that waited for it
// (Súmula 643 STJ).
func (e *env) makeFinal(t *testing.T, caseID int64) {
	t.Helper()
	ctx := context.Background()
	k := e.clerk(t)
	day := e.clk.Now().In(saoPaulo).Format("2006-01-02")
	var c cases.Case
	if err := e.g.Take(&c, caseID).Error; err != nil {
		t.Fatal(err)
	}
	ns := []cases.NotificationInput{{Party: cases.PartyProsecution, NotifiedOn: day, WaivedAppeal: true}}
	for _, d := range e.defendants(t, caseID) {
		ns = append(ns, cases.NotificationInput{Party: cases.PartyDefendant, DefendantID: d.ID, NotifiedOn: day, WaivedAppeal: true})
		if c.Flow == cases.FlowCriminal {
			ns = append(ns, cases.NotificationInput{Party: cases.PartyDefence, DefendantID: d.ID, NotifiedOn: day, WaivedAppeal: true})
		}
	}
	for _, n := range ns {
		if _, err := e.svc.Notify(ctx, k, caseID, n); err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
	}
	if _, err := e.svc.Transition(ctx, k, caseID, cases.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment: %v", err)
	}
}

// finalBan files ref on day first (the clock moves there and back),
// sentences its first defendant with months (in changed by mod) and makes
// the judgment final that same day: the ban is in force from first. It
// returns the case, the ban's id and the judge.
func (e *env) finalBan(t *testing.T, ref, first string, months int, mod func(*cases.SentenceInput)) (*cases.Case, int64, cases.Actor) {
	t.Helper()
	back := e.clk.Now()
	if first != "" {
		day := civilDay(t, first)
		e.clk.Set(time.Date(day.Year(), day.Month(), day.Day(), 23, 30, 0, 0, saoPaulo))
		defer e.clk.Set(back)
	}
	c, d, j := e.fileOne(t, ref)
	in := cases.SentenceInput{DefendantID: d.ID, Ban: cases.BanInput{Months: &months}}
	if mod != nil {
		mod(&in)
	}
	res, err := e.svc.Sentence(context.Background(), j, c.ID, in)
	if err != nil {
		t.Fatalf("sentence %s: %v", ref, err)
	}
	e.makeFinal(t, c.ID)
	return c, res.Ban.ID, j
}

func civilDay(t *testing.T, s string) time.Time {
	t.Helper()
	d, err := time.Parse("2006-01-02", s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
