package cases_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/internal/authz"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/registry"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const court = "26.0100"

var saoPaulo = mustLoc("America/Sao_Paulo")

func mustLoc(name string) *time.Location {
	l, err := time.LoadLocation(name)
	if err != nil {
		panic(err)
	}
	return l
}

// t0 is after every fixture's facts: 10/06/2025 12:00 in São Paulo.
var t0 = time.Date(2025, 6, 10, 12, 0, 0, 0, saoPaulo)

type env struct {
	g      *gorm.DB
	clk    *clock.Fixed
	svc    *cases.Service
	lists  *registry.Lists
	pros   cases.Actor
	judges []cases.Actor
}

// newEnv gives a fresh database with court 26.0100, a prosecutor and
// nJudges judges, and a service on a fixed clock at now.
func newEnv(t *testing.T, now time.Time, nJudges int) *env {
	t.Helper()
	ctx := context.Background()
	g := pgtest.NewDB(t)
	if err := cases.EnsureCourt(ctx, g, court, ""); err != nil {
		t.Fatal(err)
	}
	clk := clock.NewFixed(now)
	lists := &registry.Lists{DB: g, Clock: clk, Loc: saoPaulo, FormatNumber: cases.FormatNumber}
	e := &env{g: g, clk: clk, lists: lists, svc: &cases.Service{DB: g, Clock: clk, Loc: saoPaulo, Blocklist: lists}}
	e.pros = e.user(t, "Promotor Um", "prosecutor")
	for i := 0; i < nJudges; i++ {
		e.addJudge(t, "Juiz "+string(rune('A'+i)))
	}
	return e
}

func (e *env) user(t *testing.T, name, role string) cases.Actor {
	t.Helper()
	u, _, err := authz.EnsureUser(context.Background(), e.g, authz.UserSpec{Name: name, Role: role, Court: court})
	if err != nil {
		t.Fatal(err)
	}
	return cases.Actor{UserID: u.ID, Name: u.Name, Role: role, Court: court}
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
	b, err := os.ReadFile(sharedfix.Path(t, "fixtures", "representations.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Representations []json.RawMessage `json:"representations"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	out := map[string]cases.Representation{}
	var refs []string
	for _, raw := range f.Representations {
		var r cases.Representation
		if err := json.Unmarshal(raw, &r); err != nil {
			t.Fatal(err)
		}
		out[r.Ref] = r
		refs = append(refs, r.Ref)
	}
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
