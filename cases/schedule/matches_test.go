package schedule_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/juizado/juizado/cases/internal/casetest"
	"github.com/juizado/juizado/cases/schedule"
	"github.com/juizado/juizado/internal/actor"
	"github.com/juizado/juizado/internal/errs"
	"github.com/juizado/juizado/internal/sharedfix"
	"github.com/juizado/juizado/internal/testenv"
)

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
	e := casetest.NewEnv(t, testenv.T0, 1)
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
	e := casetest.NewEnv(t, testenv.T0, 1)
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
	ics := string(v.ICS(testenv.T0))
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
	if _, err := e.Svc.Schedule.ReportingWindows(ctx, actor.Actor{UserID: police.UserID, Role: "police", Court: "19.0001"}, banID); errs.KindOf(err) != errs.NotFound {
		t.Errorf("other court: %v, want NotFound", err)
	}
}
