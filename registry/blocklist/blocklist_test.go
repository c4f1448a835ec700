package blocklist_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
	_ "time/tzdata"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/calendar"
	"github.com/juizado/juizado/cases/casefile"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/app"
	"github.com/juizado/juizado/internal/civil"
	"github.com/juizado/juizado/internal/clock"
	"github.com/juizado/juizado/internal/pgtest"
	"github.com/juizado/juizado/internal/testenv"
	"github.com/juizado/juizado/registry"
	"github.com/juizado/juizado/registry/blocklist"
	"github.com/juizado/juizado/sanctions"
	"gorm.io/gorm"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

const court = testenv.Court

var saoPaulo = testenv.SaoPaulo

// t0: 10/06/2025 12:00 in São Paulo, after every fixture's facts.
var t0 = testenv.T0

type env struct {
	g     *gorm.DB
	clk   *clock.Fixed
	svc   *app.Cases
	lists *blocklist.Lists
	pros  actor.Actor
	judge actor.Actor
	clerk actor.Actor
	reps  map[string]cases.Representation
}

// newEnv gives a fresh database with court 26.0100, a prosecutor, a judge
// and a clerk, the services on a fixed clock at t0 (testenv.NewDomain) and
// the fixture's representations by ref.
func newEnv(t *testing.T) *env {
	t.Helper()
	d := testenv.NewDomain(t, t0, "")
	e := &env{g: d.DB, clk: d.Clock, lists: d.Lists, svc: d.Cases}
	e.pros = d.User(t, "Promotora", "prosecutor")
	e.judge = d.User(t, "Juiz", "judge")
	e.clerk = d.User(t, "Escrivã", "clerk")
	e.reps, _ = testenv.Representations(t)
	return e
}

type sentenceOpt func(*decisions.SentenceInput)

func unpublished(in *decisions.SentenceInput) { f := false; in.Publish = &f }

// sentence files rep (after edit), sentences its defendant to months and
// makes the judgment final so that the ban starts on first: a ban decided
// in a sentence is executed only after the judgment is final (Súmula 643
// STJ; CF art. 5º, LVII), on the day the last party waived the appeal. For
// a first day up to the clock's day the case is filed, sentenced and made
// final on that day (the clock moves there and back); for a later day the
// judge fixes it as the ban's start (ban.first_day) and the judgment
// becomes final today. It returns the ban as stored after the final
// judgment and the sentence's warnings.
func (e *env) sentence(t *testing.T, rep cases.Representation, first string, months int, opts ...sentenceOpt) (sanctions.Ban, []string) {
	t.Helper()
	ctx := context.Background()
	day, err := civil.Parse(first)
	if err != nil {
		t.Fatal(err)
	}
	back := e.clk.Now()
	in := decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, Ban: decisions.BanInput{Months: &months}}
	if day.After(civil.Today(back, saoPaulo)) {
		in.Ban.FirstDay = first
	} else {
		e.at(time.Date(day.Year, day.Month, day.Day, 23, 30, 0, 0, saoPaulo))
		defer e.at(back)
	}
	caseID, d := e.file(t, rep)
	in.DefendantID = d.ID
	for _, o := range opts {
		o(&in)
	}
	res, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, in)
	if err != nil {
		t.Fatalf("Sentence(%s): %v", rep.Ref, err)
	}
	if res.Ban.Status != sanctions.StatusAwaitingFinal || res.Ban.FirstDay != nil {
		t.Fatalf("Sentence(%s): ban %s from %v, want awaiting_final with no first day (Súmula 643 STJ)", rep.Ref, res.Ban.Status, res.Ban.FirstDay)
	}
	e.final(t, caseID)
	return e.ban(t, res.Ban.ID), res.Warnings
}

// file files rep, receives the accusation (a group case: as filed) and
// returns the case id and its first defendant.
func (e *env) file(t *testing.T, rep cases.Representation) (int64, cases.Defendant) {
	t.Helper()
	c, err := e.svc.Case.File(context.Background(), e.pros, rep)
	if err != nil {
		t.Fatalf("File(%s): %v", rep.Ref, err)
	}
	(&testenv.Domain{DB: e.g, Cases: e.svc}).Receive(t, c.ID) // to be sentenced (Lei 9.099/1995, arts. 77, 81)
	var d cases.Defendant
	if err := e.g.Where("case_id = ?", c.ID).Order("id").Take(&d).Error; err != nil {
		t.Fatal(err)
	}
	return c.ID, d
}

// notifyAll records, on the clock's day, the notice of the decision to the
// prosecution and to each defendant and its defence (Lei 9.099/1995, art.
// 82, § 1º), each waiving the appeal when waive.
func (e *env) notifyAll(t *testing.T, caseID int64, waive bool) []*calendar.DeadlineView {
	t.Helper()
	ctx := context.Background()
	today := civil.Today(e.clk.Now(), saoPaulo).String()
	ns := []calendar.NotificationInput{{Party: calendar.PartyProsecution}}
	var ds []cases.Defendant
	if err := e.g.Where("case_id = ?", caseID).Order("id").Find(&ds).Error; err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		ns = append(ns, calendar.NotificationInput{Party: calendar.PartyDefendant, DefendantID: d.ID}, calendar.NotificationInput{Party: calendar.PartyDefence, DefendantID: d.ID})
	}
	var out []*calendar.DeadlineView
	for _, n := range ns {
		n.NotifiedOn, n.WaivedAppeal = today, waive
		dv, err := e.svc.Calendar.Notify(ctx, e.clerk, caseID, n)
		if err != nil {
			t.Fatalf("notify %+v: %v", n, err)
		}
		out = append(out, dv)
	}
	return out
}

// final notifies every party with a waiver of the appeal on the clock's
// day and certifies the final judgment (the clerk), which starts the bans
// that waited for it.
func (e *env) final(t *testing.T, caseID int64) {
	t.Helper()
	e.notifyAll(t, caseID, true)
	if _, err := e.svc.Casefile.Transition(context.Background(), e.clerk, caseID, casefile.TransitionInput{To: cases.StatusFinal}); err != nil {
		t.Fatalf("final judgment of case %d: %v", caseID, err)
	}
}

// ban reads ban id as stored.
func (e *env) ban(t *testing.T, id int64) sanctions.Ban {
	t.Helper()
	var b sanctions.Ban
	if err := e.g.Take(&b, id).Error; err != nil {
		t.Fatal(err)
	}
	return b
}

func (e *env) at(t time.Time) { e.clk.Set(t) }

type state struct {
	public   bool
	blocked  bool
	snapshot *blocklist.Snapshot
	entry    *blocklist.Entry
}

// look returns whether the ban is on the public list, whether cpf is blocked
// and the blocklist snapshot, at the clock's instant.
func (e *env) look(t *testing.T, b sanctions.Ban) state {
	t.Helper()
	ctx := context.Background()
	var s state
	pub, err := e.lists.Public(ctx, blocklist.PublicFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pub {
		if p.Name == b.Name && p.CaseNumber == cases.FormatNumber(b.CaseNumber) {
			s.public = true
		}
	}
	snap, err := e.lists.Current(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s.snapshot = snap
	for i, it := range snap.Items {
		if it.BanID == b.ID {
			s.entry = &snap.Items[i]
		}
	}
	if b.CPF != nil {
		cpf, err := registry.ParseCPF(*b.CPF)
		if err != nil {
			t.Fatal(err)
		}
		res, err := e.lists.Check(ctx, cpf)
		if err != nil {
			t.Fatal(err)
		}
		s.blocked = res.Blocked
		if res.Blocked != (len(res.Bans) > 0) {
			t.Errorf("check %+v: blocked disagrees with bans", res)
		}
	}
	return s
}

// DOMAIN.md §6: a ban in force is on the public list (names only) and on the
// blocklist (by CPF) from the first instant of its first day to the end of
// its last day in America/Sao_Paulo; it leaves both the moment it ends.
func TestLists_BanInForceFromFirstToLastDayInSaoPaulo(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 3) // last day 09/09/2025
	if b.LastDay == nil || b.LastDay.String() != "2025-09-09" {
		t.Fatalf("last day = %v, want 2025-09-09", b.LastDay)
	}
	s := e.look(t, b)
	if !s.public || s.entry == nil || !s.blocked {
		t.Fatalf("on the first day: public %v blocklist %v blocked %v; want all true", s.public, s.entry != nil, s.blocked)
	}
	want := blocklist.Entry{CPF: "66392332154", Name: "Marcelo Augusto Figueiredo", FirstDay: *b.FirstDay, LastDay: b.LastDay,
		BanID: b.ID, CaseNumber: cases.FormatNumber(b.CaseNumber), Court: court}
	got := *s.entry
	if got.CPF != want.CPF || got.Name != want.Name || got.FirstDay != want.FirstDay || *got.LastDay != *want.LastDay ||
		got.CaseNumber != want.CaseNumber || got.Court != want.Court || got.BirthDate == nil || got.BirthDate.String() != "1991-07-22" {
		t.Errorf("blocklist entry = %+v, want %+v", got, want)
	}
	if !strings.Contains(got.CaseNumber, "-") || !strings.HasSuffix(got.CaseNumber, ".8.26.0100") {
		t.Errorf("case number %q not formatted", got.CaseNumber)
	}
	// The public list carries no CPF nor birth date (Estatuto art. 5º par. único VI).
	pub, _ := e.lists.Public(context.Background(), blocklist.PublicFilter{})
	raw, _ := json.Marshal(pub)
	if strings.Contains(string(raw), "66392332154") || strings.Contains(string(raw), "663.923.321-54") || strings.Contains(string(raw), "1991-07-22") {
		t.Errorf("public list leaks CPF or birth date: %s", raw)
	}

	for _, tc := range []struct {
		name    string
		at      time.Time
		inForce bool
	}{
		{"day before first day, 23:59:59", time.Date(2025, 6, 9, 23, 59, 59, 0, saoPaulo), false},
		{"first day, 00:00:01", time.Date(2025, 6, 10, 0, 0, 1, 0, saoPaulo), true},
		{"last day, 23:59:59", time.Date(2025, 9, 9, 23, 59, 59, 0, saoPaulo), true},
		{"day after last day, 00:00:01", time.Date(2025, 9, 10, 0, 0, 1, 0, saoPaulo), false},
		{"a year later", time.Date(2026, 9, 10, 12, 0, 0, 0, saoPaulo), false},
	} {
		e.at(tc.at)
		s := e.look(t, b)
		if s.public != tc.inForce || (s.entry != nil) != tc.inForce || s.blocked != tc.inForce {
			t.Errorf("%s (%s): public %v blocklist %v blocked %v; want %v", tc.name, tc.at.UTC().Format(time.RFC3339),
				s.public, s.entry != nil, s.blocked, tc.inForce)
		}
	}
}

// A ban whose term ended before today is on neither list.
func TestLists_EndedBanOnNeitherList(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	old, _ := e.sentence(t, e.reps["R8"], "2008-03-09", 12)    // 09/03/2008 – 08/03/2009
	recent, _ := e.sentence(t, e.reps["R7"], "2024-06-10", 12) // 10/06/2024 – 09/06/2025, yesterday
	for _, b := range []sanctions.Ban{old, recent} {
		s := e.look(t, b)
		if s.public || s.entry != nil || s.blocked {
			t.Errorf("ban %v–%v: public %v blocklist %v blocked %v; want none", b.FirstDay, b.LastDay, s.public, s.entry != nil, s.blocked)
		}
	}
	if s := e.look(t, old); len(s.snapshot.Items) != 0 {
		t.Errorf("blocklist = %+v, want empty", s.snapshot.Items)
	}
}

// A future ban is on neither list until its first day.
func TestLists_FutureBanNotYetInForce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _ := e.sentence(t, e.reps["R1"], "2025-07-01", 3)
	if s := e.look(t, b); s.public || s.entry != nil || s.blocked {
		t.Errorf("before the first day: public %v blocklist %v blocked %v", s.public, s.entry != nil, s.blocked)
	}
	e.at(time.Date(2025, 7, 1, 0, 0, 1, 0, saoPaulo))
	if s := e.look(t, b); !s.public || s.entry == nil || !s.blocked {
		t.Errorf("on the first day: public %v blocklist %v blocked %v", s.public, s.entry != nil, s.blocked)
	}
}

// Publication is the judge's order per ban: an unpublished ban is still on the
// gates' blocklist but not on the public list.
func TestLists_UnpublishedBanOnlyOnBlocklist(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	b, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 6, unpublished)
	if b.Publish {
		t.Fatal("ban stored as published")
	}
	s := e.look(t, b)
	if s.public || s.entry == nil || !s.blocked {
		t.Errorf("unpublished: public %v blocklist %v blocked %v; want false true true", s.public, s.entry != nil, s.blocked)
	}
}

// A person without CPF awaits identification: the ban is made with a warning
// and never reaches the blocklist (a name alone stops namesakes).
func TestLists_PersonWithoutCPFNotOnBlocklist(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	rep := e.reps["R2"]
	rep.Defendants = append([]cases.DefendantInput(nil), rep.Defendants...)
	rep.Defendants[0].CPF = nil
	b, warnings := e.sentence(t, rep, "2025-06-10", 6)
	if b.CPF != nil {
		t.Fatalf("ban CPF = %v, want nil", *b.CPF)
	}
	found := false
	for _, w := range warnings {
		found = found || strings.Contains(w, "CPF")
	}
	if !found {
		t.Errorf("warnings %q: none about the missing CPF", warnings)
	}
	s := e.look(t, b)
	if s.entry != nil || len(s.snapshot.Items) != 0 {
		t.Errorf("blocklist = %+v, want no entry without CPF", s.snapshot.Items)
	}
}

// One blocklist entry per ban; a CPF is blocked while any of its bans is in force.
func TestLists_CPFBlockedWhileAnyBanInForce(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 3)  // to 09/09/2025
	b, _ := e.sentence(t, e.reps["R1"], "2025-06-10", 12) // to 09/06/2026
	s := e.look(t, a)
	n := 0
	for _, it := range s.snapshot.Items {
		if it.CPF == "66392332154" {
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d entries for the CPF, want 2 (one per ban)", n)
	}
	e.at(time.Date(2025, 9, 10, 0, 0, 1, 0, saoPaulo))
	if s := e.look(t, b); !s.blocked || s.entry == nil || len(s.snapshot.Items) != 1 {
		t.Errorf("after the first ban ended: blocked %v entries %d; want blocked by the second", s.blocked, len(s.snapshot.Items))
	}
}

// The blocklist version grows with every change, including a ban ending at
// midnight with nobody acting, and stays put without changes.
func TestLists_BlocklistVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	cur := func() *blocklist.Snapshot {
		t.Helper()
		s, err := e.lists.Current(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	v1 := cur()
	if v1.Version < 1 || len(v1.Items) != 0 {
		t.Fatalf("empty blocklist: %+v", v1)
	}
	if v := cur(); v.Version != v1.Version || !v.GeneratedAt.Equal(v1.GeneratedAt) {
		t.Errorf("unchanged blocklist: version %d → %d", v1.Version, v.Version)
	}
	// Súmula 643 STJ: the sentence's ban waits for the final judgment, so
	// the sentence changes nothing on the blocklist.
	caseID, d := e.file(t, e.reps["R1"])
	months := 3
	res, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}})
	if err != nil {
		t.Fatal(err)
	}
	if v := cur(); v.Version != v1.Version || len(v.Items) != 0 {
		t.Errorf("after the sentence, before the final judgment: version %d → %d, items %+v; want unchanged", v1.Version, v.Version, v.Items)
	}
	e.final(t, caseID)
	b := e.ban(t, res.Ban.ID)
	// The final judgment itself made the version, in its transaction (Refresh).
	var latest int64
	if err := e.g.Raw("SELECT max(version) FROM blocklist_versions").Scan(&latest).Error; err != nil {
		t.Fatal(err)
	}
	if latest <= v1.Version {
		t.Errorf("the final judgment made no blocklist version: latest %d, before %d", latest, v1.Version)
	}
	v2 := cur()
	if v2.Version != latest {
		t.Errorf("Current after the final judgment: version %d, want the final judgment's %d", v2.Version, latest)
	}
	if v2.Version <= v1.Version || len(v2.Items) != 1 || v2.Items[0].BanID != b.ID {
		t.Errorf("after the final judgment: version %d → %d, items %+v", v1.Version, v2.Version, v2.Items)
	}
	if v := cur(); v.Version != v2.Version {
		t.Errorf("unchanged after the final judgment: version %d → %d", v2.Version, v.Version)
	}
	// A final ban the judge made start in the future changes nothing in force now.
	e.sentence(t, e.reps["R7"], "2025-12-01", 3)
	if v := cur(); v.Version != v2.Version {
		t.Errorf("after a future ban: version %d → %d, want unchanged", v2.Version, v.Version)
	}
	e.at(time.Date(2025, 9, 10, 0, 0, 1, 0, saoPaulo))
	v3 := cur()
	if v3.Version <= v2.Version || len(v3.Items) != 0 {
		t.Errorf("after the last day passed: version %d → %d, items %+v", v2.Version, v3.Version, v3.Items)
	}
	if !v3.GeneratedAt.Equal(e.clk.Now()) {
		t.Errorf("generated_at = %s, want %s", v3.GeneratedAt, e.clk.Now())
	}
	if v := cur(); v.Version != v3.Version {
		t.Errorf("unchanged after expiry: version %d → %d", v3.Version, v.Version)
	}
	e.at(time.Date(2025, 12, 1, 0, 0, 1, 0, saoPaulo))
	if v := cur(); v.Version <= v3.Version || len(v.Items) != 1 {
		t.Errorf("after the future ban started: version %d → %d, items %+v", v3.Version, v.Version, v.Items)
	}
}

// Versions are assigned in commit order: with final judgments (each
// starting a sentence's ban, Súmula 643 STJ) and reads running at once, a
// later version never holds fewer of these (only added) bans.
func TestLists_BlocklistVersionsInCommitOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	const n = 8
	var caseIDs []int64
	for i := 0; i < n; i++ {
		caseID, d := e.file(t, e.reps["R1"])
		months := 6
		if _, err := e.svc.Decisions.Sentence(ctx, e.judge, caseID, decisions.SentenceInput{Text: reasoned, ReportingDuty: reporting, DefendantID: d.ID, Ban: decisions.BanInput{Months: &months}}); err != nil {
			t.Fatal(err)
		}
		e.notifyAll(t, caseID, true)
		caseIDs = append(caseIDs, caseID)
	}
	var wg sync.WaitGroup
	errc := make(chan error, 2*n)
	for _, id := range caseIDs {
		wg.Add(2)
		go func() {
			defer wg.Done()
			_, err := e.svc.Casefile.Transition(ctx, e.clerk, id, casefile.TransitionInput{To: cases.StatusFinal})
			errc <- err
		}()
		go func() {
			defer wg.Done()
			_, err := e.lists.Current(ctx)
			errc <- err
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		if err != nil {
			t.Error(err)
		}
	}
	var rows []struct {
		Version int64
		Entries int
	}
	if err := e.g.Raw("SELECT version, entries FROM blocklist_versions ORDER BY version").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(rows); i++ {
		if rows[i].Entries <= rows[i-1].Entries {
			t.Errorf("versions %+v: entries must grow with the version", rows)
			break
		}
	}
	if len(rows) == 0 || rows[len(rows)-1].Entries != n {
		t.Errorf("versions %+v: last must hold %d entries", rows, n)
	}
	if s, err := e.lists.Current(ctx); err != nil || len(s.Items) != n || s.Version != rows[len(rows)-1].Version {
		t.Errorf("current = %+v, %v", s, err)
	}
}

// reasoned is the reasoning every signed sentence carries (CF art. 93, IX)
// and reporting the reporting duty its conversion fixes (Lei 14.597/2023,
// art. 201, § 4º).
var (
	reasoned  = &decisions.SentenceText{Reasoning: "Autoria e materialidade provadas."}
	reporting = &cases.ReportingDuty{Place: "24º DP – São Paulo", Club: "Corinthians"}
)
