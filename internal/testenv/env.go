// Package testenv builds the fixtures tests share: a migrated database with
// a court and its users, services on a fixed clock, the running server.
//
// A test package keeps its TestMain (pgtest.Main starts or reuses the
// PostgreSQL cluster) and asks for what it needs: NewDomain for the domain
// services over a fresh database (model: wtf's MustOpenDB), the server and
// the running program beside it.
package testenv

import (
	"context"
	"encoding/json"
	"testing"
	"time"
	_ "time/tzdata" // the court's zone on machines without zoneinfo

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/internal/accounts"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/config"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/registry/blocklist"
	"gorm.io/gorm"
)

// Court is the court of the fixtures: the Juizado do Torcedor of São Paulo
// (TR.OOOO, Res. CNJ 65/2008).
const Court = "26.0100"

// SaoPaulo is the court's zone, America/Sao_Paulo.
var SaoPaulo = func() *time.Location {
	l, err := time.LoadLocation("America/Sao_Paulo")
	if err != nil {
		panic(err)
	}
	return l
}()

// T0 is after every fixture's facts: 10/06/2025 12:00 in São Paulo.
var T0 = time.Date(2025, 6, 10, 12, 0, 0, 0, SaoPaulo)

// Domain is a fresh migrated database with court Court and the
// application on one fixed clock (App, app.New): the case services
// (Cases, App.Cases), whose writes refresh the blocklist through Lists
// (App.Lists, case numbers formatted by cases.FormatNumber).
type Domain struct {
	DB    *gorm.DB
	Clock *clock.Fixed
	Loc   *time.Location
	App   *app.App
	Cases *app.Cases
	Lists *blocklist.Lists
}

// NewDomain gives a fresh database (pgtest.NewDB, dropped with the test)
// with court Court named courtName ("" for the default name), and the
// services on a fixed clock at now in SaoPaulo. It fails the test on error.
func NewDomain(tb testing.TB, now time.Time, courtName string) *Domain {
	tb.Helper()
	g := pgtest.NewDB(tb)
	if err := cases.EnsureCourt(context.Background(), g, Court, courtName); err != nil {
		tb.Fatal(err)
	}
	clk := clock.NewFixed(now)
	a, err := app.New(config.Config{Court: Court}, g, clk, SaoPaulo, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return &Domain{DB: g, Clock: clk, Loc: SaoPaulo, App: a, Lists: a.Lists, Cases: a.Cases}
}

// User creates (or finds) the user name with role in court Court and
// returns them as the actor of service calls.
func (d *Domain) User(tb testing.TB, name, role string) actor.Actor {
	tb.Helper()
	u, _, err := accounts.EnsureUser(context.Background(), d.DB, accounts.UserSpec{Name: name, Role: role, Court: Court})
	if err != nil {
		tb.Fatal(err)
	}
	return actor.Actor{UserID: u.ID, Name: u.Name, Role: role, Court: Court}
}

// Representations reads the representations of
// ../shared/fixtures/representations.json: by ref, and their refs in the
// file's order.
func Representations(tb testing.TB) (map[string]cases.Representation, []string) {
	tb.Helper()
	out := map[string]cases.Representation{}
	var refs []string
	for _, raw := range sharedfix.Representations(tb) {
		var r cases.Representation
		if err := json.Unmarshal(raw, &r); err != nil {
			tb.Fatal(err)
		}
		out[r.Ref] = r
		refs = append(refs, r.Ref)
	}
	return out, refs
}

// Receive takes every defendant of criminal case caseID to the accusation
// received (Lei 9.099/1995, arts. 77 and 81: no conviction nor acquittal
// without it): the preliminary phase and the receipt by a clerk, the oral
// accusation by a prosecutor of Court; a group (civil) case is left as it
// is. It fails the test on error.
func (d *Domain) Receive(tb testing.TB, caseID int64) {
	tb.Helper()
	var c cases.Case
	if err := d.DB.Take(&c, caseID).Error; err != nil {
		tb.Fatal(err)
	}
	if c.Flow == cases.FlowCivil {
		return
	}
	k, p := d.User(tb, "Cartório (recebimento)", "clerk"), d.User(tb, "Promotoria (denúncia)", "prosecutor")
	for _, st := range []struct {
		a  actor.Actor
		to string
	}{{k, cases.StatusPreliminaryHearing}, {p, cases.StatusAccusation}, {k, cases.StatusInstructionHearing}} {
		if _, err := d.Cases.Casefile.Transition(context.Background(), st.a, caseID, casefile.TransitionInput{To: st.to}); err != nil {
			tb.Fatalf("receive the accusation (%s): %v", st.to, err)
		}
	}
}
