package sanctions_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/sanctions"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// DOMAIN.md §3 (in force from the first instant of the first day to the end
// of the last), Súmula 643 STJ (not before the final judgment), CPP art.
// 282, § 5º (a lifted measure no longer runs), issue 18 point 3: the Go
// predicates (Ban.InForce, Ban.Upcoming, Ban.InForceOrToStart) and their
// SQL (InForceCond, UpcomingCond, InForceOrToStartCond) give the same
// answer on PostgreSQL, on the columns of bans, for every ban of the table
// below on every day from ten days before the first day to ten days after
// the last: the first day, the last day, the day after, 7 and 8 days ahead,
// a ban not started, awaiting the final judgment (with and without a first
// day), lifted, replaced, reformed, converted, undone, precautionary (no
// last day), one day long, and a ban with no first day.
func TestInForceRuleGoAndSQLAgree(t *testing.T) {
	g := pgtest.NewDB(t)
	// The columns the rule reads, with the types of table bans.
	if err := pgtest.Admin(t, g).Exec(`CREATE TABLE probe AS SELECT id, status, first_day, last_day FROM bans WITH NO DATA`).Error; err != nil {
		t.Fatal(err)
	}
	d := civil.MustParse
	f, l := d("2026-02-25"), d("2026-03-05") // across the end of February
	p := func(x civil.Date) *civil.Date { return &x }
	bans := []sanctions.Ban{
		{Status: sanctions.StatusActive, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusActive, FirstDay: p(f), LastDay: p(f)}, // one day
		{Status: sanctions.StatusActive, FirstDay: p(f)},                // precautionary, until lifted
		{Status: sanctions.StatusActive},                                // no first day
		{Status: sanctions.StatusActive, FirstDay: p(l), LastDay: p(f)}, // last day before the first (never in force)
		{Status: sanctions.StatusAwaitingFinal},
		{Status: sanctions.StatusAwaitingFinal, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusLifted, FirstDay: p(f)},
		{Status: sanctions.StatusReplaced, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusReformed, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusAnnulled, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusConverted, FirstDay: p(f), LastDay: p(l)},
		{Status: sanctions.StatusUndone, FirstDay: p(f), LastDay: p(l)},
	}
	for i := range bans {
		bans[i].ID = int64(i + 1)
		if err := g.Exec(`INSERT INTO probe (id, status, first_day, last_day) VALUES (?, ?, ?, ?)`,
			bans[i].ID, bans[i].Status, bans[i].FirstDay, bans[i].LastDay).Error; err != nil {
			t.Fatal(err)
		}
	}
	preds := []struct {
		name string
		goes func(sanctions.Ban, civil.Date) bool
		cond func(string, civil.Date) sanctions.Cond
	}{
		{"InForce", sanctions.Ban.InForce, sanctions.InForceCond},
		{"Upcoming", sanctions.Ban.Upcoming, sanctions.UpcomingCond},
		{"InForceOrToStart", sanctions.Ban.InForceOrToStart, sanctions.InForceOrToStartCond},
	}
	seen := map[string]int{}
	for day := f.AddDays(-10); !day.After(l.AddDays(10)); day = day.AddDays(1) {
		for _, pr := range preds {
			var want []int64
			for _, b := range bans {
				if pr.goes(b, day) {
					want = append(want, b.ID)
				}
			}
			seen[pr.name] += len(want)
			for _, alias := range []string{"", "b"} {
				c := pr.cond(alias, day)
				var got []int64
				from := "probe"
				if alias != "" {
					from = "probe " + alias
				}
				if err := g.Raw(fmt.Sprintf("SELECT id FROM %s WHERE %s ORDER BY id", from, c.SQL), c.Args...).Scan(&got).Error; err != nil {
					t.Fatalf("%s %s: %v (%s)", pr.name, day, err, c.SQL)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s on %s (alias %q): SQL %v, Go %v", pr.name, day, alias, got, want)
				}
			}
		}
	}
	// The edges themselves, so that the agreement above is not an
	// agreement on nothing.
	b := bans[0]
	for _, c := range []struct {
		day                          civil.Date
		inForce, upcoming, orToStart bool
	}{
		{f.AddDays(-8), false, false, true}, // 8 days ahead: not yet upcoming
		{f.AddDays(-7), false, true, true},  // 7 days ahead: upcoming
		{f.AddDays(-1), false, true, true},
		{f, true, false, true},              // first day
		{l, true, false, true},              // last day
		{l.AddDays(1), false, false, false}, // the day after
	} {
		if b.InForce(c.day) != c.inForce || b.Upcoming(c.day) != c.upcoming || b.InForceOrToStart(c.day) != c.orToStart {
			t.Errorf("ban %s..%s on %s: in force %v, upcoming %v, in force or to start %v; want %v %v %v", f, l, c.day,
				b.InForce(c.day), b.Upcoming(c.day), b.InForceOrToStart(c.day), c.inForce, c.upcoming, c.orToStart)
		}
	}
	if b.State(f.AddDays(-1)) != sanctions.StateNotStarted || b.State(f) != sanctions.StateInForce || b.State(l.AddDays(1)) != sanctions.StateEnded ||
		bans[5].State(f) != sanctions.StateAwaitingFinal || bans[7].State(f) != sanctions.StatusLifted {
		t.Errorf("State does not follow the rule")
	}
	for _, name := range []string{"InForce", "Upcoming", "InForceOrToStart"} {
		if seen[name] == 0 {
			t.Errorf("%s held for no ban on any day", name)
		}
	}
}
