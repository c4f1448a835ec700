package decisions_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases"
	"github.com/juizado/juizado/cases/decisions"
	"github.com/juizado/juizado/cases/execution"
	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/sharedfix"
)

// LGE art. 201, § 1º, I: the distance from the facts to the venue and the
// place relation are recorded at filing and shown with the case.
func TestFile_LGE_art_201_sec1_I_DistanceAndPlace(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	for _, tc := range []struct {
		name     string
		in       func() cases.Representation
		rel      string
		min, max int
		warn     bool
	}{
		{"R1_at_venue", func() cases.Representation { return casetest.Fixture(t, "R1") }, "at_venue", 140, 152, false},
		{"R2_haddock_lobo_within_5000m", func() cases.Representation { return casetest.Fixture(t, "R2") }, "within_5000m", 3500, 3650, false},
		{"R2_on_route_said_but_within_5000m", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.OnRoute = casetest.Ptr(true)
			return r
		}, "within_5000m", 3500, 3650, false},
		{"far_on_route", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.Latitude, r.Facts.Longitude, r.Facts.OnRoute = casetest.Ptr(-22.99), casetest.Ptr(-43.36), casetest.Ptr(true)
			return r
		}, "on_route", 5001, 20000, false},
		{"far_not_on_route_warns", func() cases.Representation {
			r := casetest.Fixture(t, "R2")
			r.Facts.Latitude, r.Facts.Longitude = casetest.Ptr(-22.99), casetest.Ptr(-43.36)
			return r
		}, "beyond_5000m", 5001, 20000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := e.File(t, tc.in())
			if c.PlaceRelation == nil || *c.PlaceRelation != tc.rel || c.DistanceToVenueM == nil {
				t.Fatalf("relation %v distance %v, want %s", c.PlaceRelation, c.DistanceToVenueM, tc.rel)
			}
			v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if v.Facts.PlaceRelation == nil || *v.Facts.PlaceRelation != tc.rel || v.Facts.DistanceToVenueM == nil ||
				*v.Facts.DistanceToVenueM < tc.min || *v.Facts.DistanceToVenueM > tc.max {
				t.Errorf("view: relation %v distance %v, want %s in %d..%d m", v.Facts.PlaceRelation, v.Facts.DistanceToVenueM, tc.rel, tc.min, tc.max)
			}
			if got := len(v.Warnings) > 0 && strings.Contains(v.Warnings[0], "art. 201, § 1º, I"); got != tc.warn {
				t.Errorf("warnings %q, want a § 1º, I warning: %v", v.Warnings, tc.warn)
			}
		})
	}
	// The route needs an event.
	r := casetest.Fixture(t, "R1")
	r.Event, r.Facts.Conduct, r.Facts.OnRoute = nil, []string{"fan_fight"}, casetest.Ptr(true)
	_, err := e.Svc.Case.File(ctx, e.Pros, r)
	casetest.InvalidField(t, err, "facts.on_route", false)
	// Without coordinates nothing is computed.
	r = casetest.Fixture(t, "R1")
	r.Facts.Latitude, r.Facts.Longitude = nil, nil
	c := e.File(t, r)
	if c.DistanceToVenueM != nil || c.PlaceRelation != nil {
		t.Errorf("no coordinates: distance %v relation %v, want none", c.DistanceToVenueM, c.PlaceRelation)
	}
}

func matchesCSV(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(sharedfix.Path(t, "fixtures", "matches-2025.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The schedule of matches-2025.csv imports whole; a second import changes
// nothing; a dry run writes nothing; a file with bad lines is refused line
// by line, column by column, with nothing applied.
func TestImportMatches_LGE_art_201_sec4_Schedule(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	clerk := e.User(t, "Escrivã", "clerk")
	rep, err := e.Svc.Schedule.ImportMatches(ctx, clerk, matchesCSV(t), true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 10 || rep.Applied || e.Count(t, "matches", "") != 0 {
		t.Fatalf("dry run: created %d applied %v, %d rows", rep.Created, rep.Applied, e.Count(t, "matches", ""))
	}
	rep, err = e.Svc.Schedule.ImportMatches(ctx, clerk, matchesCSV(t), false)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Created != 10 || !rep.Applied || len(rep.Lines) != 10 || rep.Lines[0].Line != 2 || rep.Lines[9].Line != 11 {
		t.Fatalf("report %+v", rep)
	}
	if n := e.Count(t, "matches", ""); n != 10 {
		t.Fatalf("%d matches stored, want 10", n)
	}
	// Kick-off is the venue's local time: 23:30 in São Januário is 02:30 UTC.
	if n := e.Count(t, "matches", "home = 'Vasco da Gama' AND away = 'Cruzeiro' AND kickoff = '2025-04-21T02:30:00Z' AND match_minutes = 120"); n != 1 {
		t.Errorf("23:30 local kick-off not stored as 02:30 UTC")
	}
	rep, err = e.Svc.Schedule.ImportMatches(ctx, clerk, matchesCSV(t), false)
	if err != nil || rep.Unchanged != 10 || rep.Created != 0 {
		t.Fatalf("second import: %+v %v", rep, err)
	}
	// A rescheduled match updates; ; and Windows-1252 are read.
	resched := "competi\xe7\xe3o;rodada;mandante;visitante;est\xe1dio;data;hor\xe1rio\r\nCopa do Brasil;3\xaa fase (ida);Corinthians;Flamengo;Arena Corinthians;24/04/2025;21:30\r\n"
	rep, err = e.Svc.Schedule.ImportMatches(ctx, clerk, []byte(resched), false)
	if err != nil || rep.Updated != 1 || rep.Lines[0].Status != schedule.LineUpdate {
		t.Fatalf("reschedule: %+v %v", rep, err)
	}
	if n := e.Count(t, "matches", "home = 'Corinthians' AND away = 'Flamengo' AND kickoff = '2025-04-25T00:30:00Z'"); n != 1 {
		t.Errorf("rescheduled match not updated")
	}
	bad := "competition,round,home,away,venue,date,kickoff_local\n" +
		"Campeonato Brasileiro Série A,6,Palmeiras,Corinthians,Allianz Parque,2025-05-04,16:00\n" +
		"Campeonato Brasileiro Série A,7,Corinthians,Bahia,Estádio Inexistente,2025-05-11,16:00\n" +
		"Campeonato Brasileiro Série A,8,Corinthians,Vitória,Arena Corinthians,2025-02-30,25:00\n" +
		"Campeonato Brasileiro Série A,6,Palmeiras,Corinthians,Allianz Parque,2025-05-04,16:00\n"
	before := e.Count(t, "matches", "")
	rep, err = e.Svc.Schedule.ImportMatches(ctx, clerk, []byte(bad), false)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.HasErrors() || rep.Applied || e.Count(t, "matches", "") != before {
		t.Fatalf("bad file applied: %+v", rep)
	}
	want := map[int][]string{3: {"venue"}, 4: {"date", "kickoff_local"}, 5: {"home"}}
	for _, l := range rep.Lines {
		cols := want[l.Line]
		if cols == nil {
			if l.Status == schedule.LineError {
				t.Errorf("line %d: unexpected errors %+v", l.Line, l.Errors)
			}
			continue
		}
		if l.Status != schedule.LineError || len(l.Errors) != len(cols) {
			t.Errorf("line %d: %s %+v, want errors on %v", l.Line, l.Status, l.Errors, cols)
			continue
		}
		for i, c := range cols {
			if l.Errors[i].Column != c || l.Errors[i].Message == "" {
				t.Errorf("line %d: error %+v, want column %s", l.Line, l.Errors[i], c)
			}
		}
	}
	// A header without a required column names it on line 1.
	rep, err = e.Svc.Schedule.ImportMatches(ctx, clerk, []byte("competition,home,away,date\nX,A,B,2025-01-01\n"), false)
	if err != nil || !rep.HasErrors() || rep.Lines[0].Line != 1 || !strings.Contains(rep.Lines[0].Errors[0].Column+" "+rep.Lines[0].Errors[1].Column, "venue") {
		t.Errorf("missing columns: %+v %v", rep, err)
	}
	if _, err := e.Svc.Schedule.ImportMatches(ctx, clerk, []byte("  \n"), false); errs.KindOf(err) != errs.Unreadable {
		t.Errorf("empty file: %v, want Unreadable", err)
	}
}

// LGE art. 201, § 4º: a ban on R1 with a duty for Corinthians over a term
// covering April 2025 has the 6 Corinthians matches of the fixture, each
// from 2 h before kick-off to 2 h after the end; the feed is iCalendar.
func TestReportingWindows_LGE_art_201_sec4_R1Corinthians(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	if _, err := e.Svc.Schedule.ImportMatches(ctx, e.User(t, "Escrivão", "clerk"), matchesCSV(t), false); err != nil {
		t.Fatal(err)
	}
	_, banID, _ := e.SentenceR1(t, "2025-03-30", 3, nil)
	police := e.User(t, "Delegado", "police")
	v, err := e.Svc.Schedule.ReportingWindows(ctx, police, banID)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Windows) != 6 {
		t.Fatalf("%d windows, want the 6 Corinthians matches: %+v", len(v.Windows), v.Windows)
	}
	want := []string{"Palmeiras", "São Paulo", "Santos", "Grêmio", "Flamengo", "Internacional"}
	for i, w := range v.Windows {
		other := w.Away
		if w.Away == "Corinthians" {
			other = w.Home
		}
		if other != want[i] {
			t.Errorf("window %d against %s, want %s", i, other, want[i])
		}
		if w.Start.Sub(w.Kickoff).Hours() != -2 || w.End.Sub(w.Kickoff).Hours() != 4 || w.Clipped {
			t.Errorf("window %d: %s – %s for kick-off %s", i, w.Start, w.End, w.Kickoff)
		}
	}
	if v.Windows[0].Start.Format("2006-01-02T15:04:05Z07:00") != "2025-03-30T14:00:00-03:00" {
		t.Errorf("first window starts %s", v.Windows[0].Start)
	}
	ics := string(v.ICS(t0))
	if !strings.HasPrefix(ics, "BEGIN:VCALENDAR\r\n") || strings.Count(ics, "BEGIN:VEVENT\r\n") != 6 ||
		!strings.Contains(ics, "DTSTART:20250330T170000Z\r\n") || !strings.Contains(ics, "DTEND:20250330T230000Z\r\n") {
		t.Errorf("ics:\n%s", ics)
	}
	uids := map[string]bool{}
	for _, l := range strings.Split(ics, "\r\n") {
		if strings.HasPrefix(l, "UID:") {
			uids[l] = true
		}
	}
	if len(uids) != 6 {
		t.Errorf("%d distinct UIDs, want 6", len(uids))
	}
	// Another court does not see the ban.
	if _, err := e.Svc.Schedule.ReportingWindows(ctx, cases.Actor{UserID: police.UserID, Role: "police", Court: "19.0001"}, banID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("other court: %v, want NotFound", err)
	}
}

// LGE art. 201, § 3º: a breach records the days served and the balance (at
// least 30 days), with a movement, in one transaction.
func TestRecordBreach_LGE_art_201_sec3(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 1)
	ctx := context.Background()
	c, banID, _ := e.SentenceR1(t, "2025-04-01", 12, casetest.Ptr(12))
	moves := e.Count(t, "movements", "case_id = ?", c.ID)
	in := execution.BreachInput{OccurredOn: "2025-05-01", Source: "gate_hit", Reference: "Catraca 12 – Arena Corinthians", Description: "Tentou entrar no setor Leste."}
	res, err := e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, in)
	if err != nil {
		t.Fatal(err)
	}
	cv := res.Conversion
	if cv == nil || cv.DaysServed != 30 || *cv.QuantumDays != 365 || *cv.BalanceDays != 335 || cv.FloorApplied {
		t.Fatalf("conversion %+v, want 30 served, 365 quantum, 335 balance", cv)
	}
	if e.Count(t, "breaches", "ban_id = ? AND days_served = 30 AND balance_days = 335", banID) != 1 || e.Count(t, "movements", "case_id = ?", c.ID) != moves+1 {
		t.Errorf("breach or movement not stored")
	}
	_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, in)
	casetest.KindIs(t, err, errs.Conflict)
	for day, rule := range map[string]string{"2025-03-31": "in_term", "2025-06-11": "not_future", "2025-02-30": "date"} {
		_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, execution.BreachInput{OccurredOn: day, Source: "police_report", Reference: "BO 1/2025"})
		if msg := casetest.InvalidField(t, err, "occurred_on", false); msg == "" {
			t.Errorf("%s (%s): empty message", day, rule)
		}
	}
	_, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, banID, execution.BreachInput{OccurredOn: "2025-05-02", Source: "rumour"})
	casetest.InvalidField(t, err, "source", false)
	casetest.InvalidField(t, err, "reference", false)
	if n := e.Count(t, "breaches", ""); n != 1 {
		t.Errorf("%d breaches after refusals, want 1", n)
	}
	// Without prison months: the days served, and the quantum must be fixed.
	_, ban2, _ := e.SentenceR1(t, "2025-04-01", 12, nil)
	res, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, ban2, execution.BreachInput{OccurredOn: "2025-04-11", Source: "police_report", Reference: "BO 99/2025"})
	if err != nil || res.Conversion == nil || res.Conversion.QuantumFixed || res.Conversion.DaysServed != 10 || res.Conversion.BalanceDays != nil {
		t.Fatalf("no quantum: %+v %v", res, err)
	}
	// The 30-day floor.
	_, ban3, _ := e.SentenceR1(t, "2025-04-01", 12, casetest.Ptr(12))
	e.Clk.Set(e.Clk.Now().AddDate(1, 0, 0))
	res, err = e.Svc.Execution.RecordBreach(ctx, e.Pros, ban3, execution.BreachInput{OccurredOn: "2026-03-20", Source: "police_report", Reference: "BO 7/2026"})
	if err != nil || *res.Conversion.BalanceDays != 30 || !res.Conversion.FloorApplied {
		t.Fatalf("floor: %+v %v", res, err)
	}
}

// CPP art. 319, II: a precautionary ban (no last day) is in force until the
// judge of the case lifts it; lifting sets status lifted, records the
// decision and a movement, and refreshes the blocklist.
func TestLift_CPP_art_319_II_Precautionary(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 2)
	ctx := context.Background()
	c, d, j := e.FileOne(t, "R1")
	in := decisions.SentenceInput{DefendantID: d.ID, Precautionary: true, ReviewOn: "2025-09-01"}
	res, err := e.Svc.Decisions.Sentence(ctx, j, c.ID, in)
	if err != nil {
		t.Fatal(err)
	}
	res.Ban = res.PrecautionaryBan
	if res.Ban.LastDay != nil || e.Count(t, "bans", "id = ? AND last_day IS NULL AND status = 'active'", res.Ban.ID) != 1 {
		t.Fatalf("precautionary ban stored with a last day")
	}
	other := e.Judges[0]
	if other.UserID == j.UserID {
		other = e.Judges[1]
	}
	_, err = e.Svc.Execution.Lift(ctx, other, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "x"})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-11"})
	casetest.InvalidField(t, err, "lifted_on", false)
	casetest.InvalidField(t, err, "reason", false)
	versions := e.Count(t, "blocklist_versions", "")
	b, err := e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "Cessaram os motivos da cautelar."})
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != "lifted" || b.LiftedOn == nil || b.LiftedOn.String() != "2025-06-10" {
		t.Errorf("lifted view %+v", b)
	}
	if e.Count(t, "bans", "id = ? AND status = 'lifted' AND lifted_on = '2025-06-10' AND lift_reason <> ''", res.Ban.ID) != 1 {
		t.Errorf("ban not lifted in the database")
	}
	if e.Count(t, "blocklist_versions", "") <= versions {
		t.Errorf("blocklist not refreshed by the lifting")
	}
	if e.Count(t, "movements", "case_id = ? AND description LIKE 'Revogada%'", c.ID) != 1 {
		t.Errorf("no movement for the lifting")
	}
	_, err = e.Svc.Execution.Lift(ctx, j, res.Ban.ID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "de novo"})
	casetest.KindIs(t, err, errs.Conflict)
	v, err := e.Svc.Casefile.Get(ctx, e.Pros, c.ID)
	if err != nil || len(v.Bans) != 1 || v.Bans[0].LiftedOn == nil || v.Bans[0].Status != "lifted" {
		t.Errorf("case view bans %+v %v", v.Bans, err)
	}
	// A sentence ban is not lifted by this route.
	_, banID, j2 := e.SentenceR1(t, "2025-04-01", 12, nil)
	_, err = e.Svc.Execution.Lift(ctx, j2, banID, execution.LiftInput{LiftedOn: "2025-06-10", Reason: "x"})
	casetest.KindIs(t, err, errs.Conflict)
}

// CF art. 5º, XXXVI (res judicata): a final ban is never extended; a
// material error of its last day is corrected, with its reason, as its own
// movement, within the range counted from the first day. Only a
// precautionary ban is renewed (CPP art. 319, II): a new review date with a
// reason.
func TestExtend_CF_art_5_XXXVI_FinalBanNeverExtended_PrecautionaryRenewed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, t0, 2)
	ctx := context.Background()
	c, banID, j := e.SentenceR1(t, "2025-05-31", 6, nil)
	if e.Count(t, "bans", "id = ? AND last_day = '2025-11-30'", banID) != 1 {
		t.Fatal("6 months from 31/05/2025 should end on 30/11/2025")
	}
	other := e.Judges[0]
	if other.UserID == j.UserID {
		other = e.Judges[1]
	}
	_, err := e.Svc.Execution.Extend(ctx, other, banID, execution.ExtendInput{Months: casetest.Ptr(1), Reason: "x"})
	casetest.KindIs(t, err, errs.Forbidden)
	_, err = e.Svc.Execution.Extend(ctx, j, banID, execution.ExtendInput{Months: casetest.Ptr(1), Reason: "Reincidência no curso do impedimento."})
	casetest.KindIs(t, err, errs.Conflict)
	if !strings.Contains(err.Error(), "XXXVI") {
		t.Errorf("refusal %q should cite CF art. 5º, XXXVI", err)
	}
	if e.Count(t, "bans", "id = ? AND months = 6 AND last_day = '2025-11-30'", banID) != 1 {
		t.Error("the refused extension changed the ban")
	}
	// Correction of a material error: within the range, its own movement.
	_, err = e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-12-30", Reason: "x"})
	casetest.InvalidField(t, err, "last_day", false)
	_, err = e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-11-29"})
	casetest.InvalidField(t, err, "reason", false)
	b, err := e.Svc.Execution.Correct(ctx, j, banID, execution.CorrectInput{LastDay: "2025-11-29", Reason: "Leitura do último dia pelo juízo (CP, art. 10)."})
	if err != nil || b.LastDay.String() != "2025-11-29" {
		t.Fatalf("correction: %+v %v", b, err)
	}
	if e.Count(t, "movements", "case_id = ? AND description LIKE 'Correção de erro material%'", c.ID) != 1 {
		t.Error("no movement for the correction")
	}
	// A precautionary ban is renewed: new review date and reason.
	c2, d2, j2 := e.FileOne(t, "R1")
	p, err := e.Svc.Decisions.Sentence(ctx, j2, c2.ID, decisions.SentenceInput{DefendantID: d2.ID, Precautionary: true, ReviewOn: "2025-07-10", Ban: decisions.BanInput{FirstDay: "2025-06-10"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Svc.Execution.Extend(ctx, j2, p.PrecautionaryBan.ID, execution.ExtendInput{Months: casetest.Ptr(3), Reason: "x"})
	casetest.InvalidField(t, err, "months", false)
	_, err = e.Svc.Execution.Renew(ctx, j2, p.PrecautionaryBan.ID, execution.RenewInput{ReviewOn: "2025-07-01", Reason: "x"})
	casetest.InvalidField(t, err, "review_on", false) // not after the current review
	r, err := e.Svc.Execution.Extend(ctx, j2, p.PrecautionaryBan.ID, execution.ExtendInput{ReviewOn: "2025-10-10", Reason: "Persistem os motivos: novo confronto anunciado."})
	if err != nil || r.Ban.ReviewOn == nil || r.Ban.ReviewOn.String() != "2025-10-10" || r.Renewal.PreviousReview.String() != "2025-07-10" {
		t.Fatalf("renewal: %+v %v", r, err)
	}
	if e.Count(t, "ban_renewals", "ban_id = ?", p.PrecautionaryBan.ID) != 1 || e.Count(t, "movements", "case_id = ? AND description LIKE 'Renovada%'", c2.ID) != 1 {
		t.Error("renewal not recorded with a movement")
	}
}
