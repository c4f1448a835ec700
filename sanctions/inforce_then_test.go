package sanctions_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/sanctions"
)

// InForceThenSQL and InForceThenSpanSQL on PostgreSQL, day by day around
// a term: a ban that runs
// is in force as InForceCond says; a ban lifted, replaced or converted is
// in force on the days of its term before its lifted_on, never after; a
// ban awaiting the final judgment, reformed, annulled or undone never.
func TestInForceThenSQL(t *testing.T) {
	g := pgtest.NewDB(t)
	if err := pgtest.Admin(t, g).Exec(`CREATE TABLE probe AS SELECT id, status, first_day, last_day, lifted_on FROM bans WITH NO DATA`).Error; err != nil {
		t.Fatal(err)
	}
	d := civil.MustParse
	f, l, lift := d("2026-02-25"), d("2026-03-05"), d("2026-03-01")
	p := func(x civil.Date) *civil.Date { return &x }
	type probe struct {
		b        sanctions.Ban
		liftedOn *civil.Date
	}
	probes := []probe{
		{sanctions.Ban{Status: sanctions.StatusActive, FirstDay: p(f), LastDay: p(l)}, nil},
		{sanctions.Ban{Status: sanctions.StatusActive, FirstDay: p(f)}, nil},
		{sanctions.Ban{Status: sanctions.StatusLifted, FirstDay: p(f)}, p(lift)},
		{sanctions.Ban{Status: sanctions.StatusReplaced, FirstDay: p(f)}, p(lift)},
		{sanctions.Ban{Status: sanctions.StatusConverted, FirstDay: p(f), LastDay: p(l)}, p(lift)},
		{sanctions.Ban{Status: sanctions.StatusAwaitingFinal}, nil},
		{sanctions.Ban{Status: sanctions.StatusReformed, FirstDay: p(f), LastDay: p(l)}, nil},
		{sanctions.Ban{Status: sanctions.StatusAnnulled, FirstDay: p(f), LastDay: p(l)}, nil},
		{sanctions.Ban{Status: sanctions.StatusUndone, FirstDay: p(f), LastDay: p(l)}, p(lift)},
	}
	for i, pr := range probes {
		if err := g.Exec(`INSERT INTO probe VALUES (?, ?, ?, ?, ?)`, i+1, pr.b.Status, pr.b.FirstDay, pr.b.LastDay, pr.liftedOn).Error; err != nil {
			t.Fatal(err)
		}
	}
	counted := 0
	for day := f.AddDays(-3); !day.After(l.AddDays(3)); day = day.AddDays(1) {
		var want []int64
		for i, pr := range probes {
			ran := pr.b
			ran.Status = sanctions.StatusActive
			stopped := (pr.b.Status == sanctions.StatusLifted || pr.b.Status == sanctions.StatusReplaced || pr.b.Status == sanctions.StatusConverted) &&
				pr.liftedOn != nil && day.Before(*pr.liftedOn)
			if ran.InForce(day) && (pr.b.Status == sanctions.StatusActive || stopped) {
				want = append(want, int64(i+1))
			}
		}
		counted += len(want)
		var got []int64
		q := fmt.Sprintf("SELECT id FROM probe b WHERE %s ORDER BY id", sanctions.InForceThenSQL("b", "?::date"))
		if err := g.Raw(q, day, day, day).Scan(&got).Error; err != nil {
			t.Fatalf("%v (%s)", err, q)
		}
		if !slices.Equal(got, want) {
			t.Errorf("in force then on %s: SQL %v, want %v", day, got, want)
		}
		first, last := sanctions.InForceThenSpanSQL("b")
		got = nil
		q = fmt.Sprintf("SELECT id FROM probe b WHERE %s <= ?::date AND (%s IS NULL OR %s >= ?::date) ORDER BY id", first, last, last)
		if err := g.Raw(q, day, day).Scan(&got).Error; err != nil {
			t.Fatalf("%v (%s)", err, q)
		}
		if !slices.Equal(got, want) {
			t.Errorf("span in force then on %s: SQL %v, want %v", day, got, want)
		}
	}
	if counted == 0 {
		t.Fatal("no ban in force on any day: the check checked nothing")
	}
}
